#!/usr/bin/env bash
# The small things a new user types first: irsnap help, irsnap help CMD,
# irsnap -V, -jN glued as make takes it, --opt=value and llvm-reduce's
# --test-arg, irsnap show and report with no run given, after a replay,
# and make demo building quietly.
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

# ---- irsnap help --help, --opt=value everywhere -------------------------
"$IRSNAP" help --help >"$TMP/hh" 2>&1
check_eq "irsnap help --help: the usage, exit 0" "0 1" "$? $(grep -c '^usage: irsnap COMMAND' "$TMP/hh")"
"$IRSNAP" reduce "$TMP/in.txt" --test='grep -q keep {}' --timeout=5 -j1 \
	--output="$TMP/eq.txt" >"$TMP/eq.log" 2>&1
check_eq "irsnap reduce --test=CMD --timeout=5 --output=OUT: taken, reduced" \
	"0 keep" "$? $(cat "$TMP/eq.txt" 2>/dev/null)"
"$IRSNAP" reduce "$TMP/in.txt" --crash= >"$TMP/ceq.log" 2>&1
check_eq "--crash= (an empty command) is the empty command, not an unknown option" \
	"2 0" "$? $(grep -c 'unknown option' "$TMP/ceq.log")"
# llvm-reduce's --test-arg: the test's arguments, then the candidate
printf '#!/bin/sh\n# interesting when file $2 holds word $1\ngrep -q "$1" "$2"\n' \
	>"$TMP/t.sh"
chmod +x "$TMP/t.sh"
(cd "$TMP" && "$IRSNAP" reduce in.txt --test=./t.sh --test-arg keep -j1 \
	-o ta.txt) >"$TMP/ta.log" 2>&1
check_eq "--test ./t.sh --test-arg keep runs ./t.sh keep FILE, as llvm-reduce" \
	"0 keep" "$? $(cat "$TMP/ta.txt" 2>/dev/null)"

# ---- after a replay: show and report with no argument ------------------
check "irsnap replay linked \$IRSNAP_DIR/latest to its directory" \
	test "$(readlink -f "$TMP/rp/latest")" = "$(readlink -f "$rdir")"
(cd "$TMP" && IRSNAP_DIR=$TMP/rp "$IRSNAP" show) >"$TMP/show0" 2>&1
check_eq "irsnap show with no argument shows \$IRSNAP_DIR/latest: the replay" \
	"0 1" "$? $(grep -c '^attempts  1, 1 failed' "$TMP/show0")"
mkdir -p "$TMP/cwd" && ln -s "$TMP/rp" "$TMP/cwd/irsnap-out"
(cd "$TMP/cwd" && IRSNAP_DIR= "$IRSNAP" show) >"$TMP/show1" 2>&1
check_eq "... and without \$IRSNAP_DIR, ./irsnap-out/latest" \
	"0 1" "$? $(grep -c '^attempts  1, 1 failed' "$TMP/show1")"
(cd "$TMP/rp" && "$IRSNAP" report "$rdir" -o "$TMP/rp.html") >"$TMP/rrep" 2>&1
check_eq "irsnap report REPLAY: the page of its failing run, exit 0" 0 "$?"
check "... which is the failing run's page" \
	grep -q 'SIGSEGV</span> (signal 11) in pass' "$TMP/rp.html"
"$IRSNAP" report --output="$TMP/rp2.html" "$rdir" >/dev/null 2>&1
check_eq "irsnap report --output=FILE: taken" "0 yes" \
	"$? $(test -s "$TMP/rp2.html" && echo yes)"
run=$rdir/$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["groups"][0]["run"])' "$rdir/replay.json")
"$IRSNAP" reduce "$run" -j2 >/dev/null 2>&1
"$IRSNAP" show "$run" >"$TMP/shr" 2>&1
check "irsnap show names the reduction already made (repro/reduced.ir)" \
	grep -qE '^  reduced: repro/reduced.ir \([0-9]+ lines\); rerun it: repro/repro.sh$' "$TMP/shr"
check "irsnap validate of a folder whose latest is a replay: valid" \
	"$IRSNAP" validate "$TMP/rp"

# ---- make demo builds quietly (V=1 shows the commands) ---------------------
mkdir -p "$TMP/b"
(cd "$BUILD" && tar --exclude=./test-logs --exclude=./test-artifacts -cf - .) |
	(cd "$TMP/b" && tar -xf -)
touch -d 2000-01-01 "$TMP/b/obj/common/util/buf.o"	# one file to rebuild
make -C "$IRSNAP_ROOT" --no-print-directory demo BUILD="$TMP/b" DEMO=true \
	>"$TMP/demo.out" 2>&1
check_eq "make demo: one line before its story, not the compiler's commands" \
	"0 1 0" "$? $(wc -l <"$TMP/demo.out") $(grep -c '^cc ' "$TMP/demo.out")"
touch -d 2000-01-01 "$TMP/b/obj/common/util/buf.o"
make -C "$IRSNAP_ROOT" --no-print-directory demo BUILD="$TMP/b" DEMO=true V=1 \
	>"$TMP/demov.out" 2>&1
check "make demo V=1 shows them" grep -q '^cc .*common/util/buf.c' "$TMP/demov.out"

done_testing
