#!/usr/bin/env bash
# Commands after the debuggee exited, when LLDB's frames have no function
# name: `ir-report --signal` once threw from a std::string made of NULL,
# which took LLDB down with it.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers lldb

cat >"$TMP/cmds" <<-CMDS
plugin load $PLUGIN
ir-set dir $RUNS
ir-layout load $LAYOUT
run
ir-report --signal SIGSEGV
ir-dump --boundary
platform shell echo @@END
CMDS
lldb_session "$TMP/log" "$TMP/cmds" -- "$TOYC" --passes=constfold -o /dev/null "$DEMO"
check "LLDB survives ir-report after the exit" grep -q '^@@END' "$TMP/log"
check "... which says there is no pass to report on" \
	grep -qE "ir-report: .*(no pass boundary|No stack|backtrace)" "$TMP/log"
done_testing
