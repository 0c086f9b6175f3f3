#!/usr/bin/env bash
# The exit status of a batch run under $DEBUGGER, as a script sees it, the
# same under GDB and LLDB: 128 + N when the traced program died of signal
# N (ir-status --check after it does not change that), 1 after an irsnap
# command failed (a mistyped layout path, even followed by `run`), 0 for a
# clean run; ir-status --check fails with one line naming why.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"

dbg_batch "$TMP/crash.log" -o 'ir-trace on' -o run -k 'ir-status --check' \
	-- "$TOYC" --bug=crash "$DEMO"
check_eq "the traced program died of SIGSEGV: $DBG_BATCH exits 139" 139 "$?"
check "ir-status --check names the crash" \
	grep -q "ir-status: the program died: SIGSEGV in pass 'constfold'$" \
	"$TMP/crash.log"

dbg_batch "$TMP/abort.log" -o 'ir-trace on' -o run \
	-- "$TOYC" --bug=assert "$DEMO"
check_eq "... of SIGABRT: 134" 134 "$?"

dbg_batch "$TMP/typo.log" -o "ir-layout load $TMP/no-such-layout.lua" \
	-o 'ir-trace on' -o run -- "$TOYC" "$DEMO"
check_eq "a mistyped layout path, then run: $DBG_BATCH exits 1" 1 "$?"
check "... having said which file" \
	grep -q "$TMP/no-such-layout.lua: cannot open" "$TMP/typo.log"

dbg_batch "$TMP/clean.log" -o 'ir-trace on' -o run -o 'ir-status --check' \
	-- "$TOYC" "$DEMO"
check_eq "a clean traced run ending with ir-status --check: 0" 0 "$?"

dbg_batch "$TMP/verify.log" -o 'ir-trace on --verify' -o run \
	-o 'ir-status --check' \
	-- "$TOYC" --bug=break-invariant --passes=simplifycfg,dce "$DEMO"
check_eq "a pass broke the IR (--verify): ir-status --check makes it 1" 1 "$?"
check "... naming the pass and the run" \
	grep -q "ir-status: a verifier failed: pass 'simplifycfg' (seq 1 of $(latest_run)) broke the IR$" \
	"$TMP/verify.log"

done_testing
