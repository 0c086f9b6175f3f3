#!/usr/bin/env bash
# The architecture holds: areas of common/ depend downward only, and the
# library the debuggers load holds none of the batch tools' code.
. "$(dirname "$0")/../lib.sh"

out=$(BUILD=$BUILD scripts/check-layers 2>&1)
if [ $? -eq 0 ]; then ok "check-layers: $out"
else not_ok "check-layers finds upward dependencies" "$(printf '%s' "$out" | head -8)"; fi

# Every global symbol the batch tools' archive defines (reducer, replay,
# report, validate, schema, diff, debugger launching) is absent from
# libirsnap.so, exported or not.
tools_syms=$(nm -g --defined-only "$BUILD/libirsnap-tools.a" 2>/dev/null |
	awk 'NF == 3 { print $3 }' | sort -u)
so_syms=$(nm --defined-only "$BUILD/libirsnap.so" | awk 'NF == 3 { print $3 }' | sort -u)
check_eq "the tools archive defines symbols" yes \
	"$( [ "$(printf '%s\n' "$tools_syms" | grep -c .)" -gt 20 ] && echo yes || echo no)"
leaked=$(comm -12 <(printf '%s\n' "$tools_syms") <(printf '%s\n' "$so_syms"))
check_eq "libirsnap.so holds no batch-tool symbol" "" "$leaked"
for pat in irs_reduce_run irs_replay_run irs_report_write irs_validate_path \
	   irs_textdiff_unified irs_schema_validate; do
	if nm -D "$BUILD/libirsnap.so" | grep -qw "$pat"; then
		not_ok "nm -D libirsnap.so: no $pat" "$(nm -D "$BUILD/libirsnap.so" | grep -w "$pat")"
	else ok "nm -D libirsnap.so: no $pat"; fi
	if nm "$IRSNAP" | grep -qw "$pat"; then ok "the irsnap CLI links $pat"
	else not_ok "the irsnap CLI links $pat"; fi
done

# A planted upward include is caught (the checker can fail).
tree=$TMP/tree
mkdir -p "$tree"
cp -r scripts common "$tree/"
sed -i '1i #include "tools/tools.h"' "$tree/common/walk/sink.c"
if out=$(BUILD=/nonexistent "$tree/scripts/check-layers" 2>&1); then
	not_ok "check-layers catches walk/ including tools/" "$out"
else
	case "$out" in
	*"common/walk/sink.c:1: walk/ includes tools/tools.h"*) ok "check-layers catches walk/ including tools/" ;;
	*) not_ok "check-layers names the planted include" "$out" ;;
	esac
fi
done_testing
