#!/usr/bin/env bash
# GDB's `set irsnap KEY` and `show irsnap KEY` take their help texts from
# the console's settings table (irs_console_setting_help), the one ir-set
# and irs_console_settings() list: every setting has one, and GDB shows it.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb

run_gdb "$TMP/help.log" -ex "help set irsnap max-nodes" \
	-ex "help show irsnap call-timeout" -ex "help set irsnap dir" \
	-ex "show irsnap max-depth"
check "set irsnap max-nodes: its help" grep -qx \
	'Set the most IR nodes one snapshot walks (K, M, G suffixes).' \
	"$TMP/help.log"
check "show irsnap call-timeout: its help" grep -qx \
	'Show the seconds a call verifier may run in the debuggee before irsnap interrupts it (0: no limit).' \
	"$TMP/help.log"
check "set irsnap dir: its help" grep -qx \
	'Set the directory run directories go to (default $IRSNAP_DIR or ./irsnap-out).' \
	"$TMP/help.log"
check "show irsnap max-depth: the value" grep -qx \
	'irsnap max-depth is 10000.' "$TMP/help.log"
check_eq "no Python error while the settings were made" 0 \
	"$(grep -c 'Python Exception\|Error occurred in Python' "$TMP/help.log")"

done_testing
