#!/usr/bin/env bash
# The small things a new user types first: irsnap help, irsnap help CMD,
# irsnap -V, and -jN glued as make takes it.
source "$(dirname "$0")/../lib.sh"

"$IRSNAP" help >"$TMP/help" 2>&1
check_eq "irsnap help: the usage, exit 0" "0 1" "$? $(grep -c '^usage: irsnap COMMAND' "$TMP/help")"
"$IRSNAP" help diff >"$TMP/hdiff" 2>&1
check_eq "irsnap help diff: diff's own help, exit 0" "0 1" "$? $(grep -c '^usage: irsnap diff' "$TMP/hdiff")"
"$IRSNAP" help nosuch >"$TMP/hno" 2>&1
check_eq "irsnap help nosuch: 2 and one line" "2 1" "$? $(wc -l <"$TMP/hno")"
check_eq "irsnap -V says the version" "irsnap $(sed -n 's/^#define IRS_VERSION "\(.*\)"/\1/p' "$IRSNAP_ROOT/common/irsnap.h")" \
	"$("$IRSNAP" -V)"

printf 'a\nb\nc\nkeep\nd\n' >"$TMP/in.txt"
"$IRSNAP" reduce "$TMP/in.txt" --test 'grep -q keep {}' -j1 -o "$TMP/out.txt" \
	>"$TMP/j1.log" 2>&1
check_eq "irsnap reduce -j1 is taken as -j 1" 0 "$?"
check_eq "... and reduces" keep "$(cat "$TMP/out.txt" 2>/dev/null)"

# irsnap show on what irsnap replay wrote
mkdir -p "$TMP/rp"
(cd "$TMP/rp" && IRSNAP_DIR=$TMP/rp \
	timeout 300 "$IRSNAP" replay --runs 1 --debugger gdb \
	--layout "$FIXTURES/toyc/toyc.lua" -- "$TOYC" --bug=crash \
	"$FIXTURES/toyc/demo.ir") >"$TMP/replay.log" 2>&1
rdir=$(ls -d "$TMP"/rp/replay-* 2>/dev/null | head -1)
check "irsnap replay wrote a replay directory" test -f "$rdir/replay.json"
"$IRSNAP" show "$rdir" >"$TMP/rshow" 2>&1
check_eq "irsnap show REPLAY: exit 0, not refused" 0 "$?"
check "... its attempts and failures" grep -q '^attempts  1, 1 failed, 0 timed out, 1 signature$' "$TMP/rshow"
check "... and the signature, as replay prints it" \
	grep -qE '^ +1  1 +SIGSEGV in constfold at [a-z_]+ < ' "$TMP/rshow"

done_testing
