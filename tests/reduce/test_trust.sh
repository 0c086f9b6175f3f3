#!/usr/bin/env bash
# `irsnap reduce RUN` runs the command a run directory's failure.json
# names (issue 14, item 12). It prints that command before running it,
# and refuses a run directory not owned by the caller, or that others may
# write, unless --trust is given.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
require_debuggers gdb

gdb_trace_toyc "$TMP/trace.log" --bug=assert "$DEMO"
RUN=$(latest_run)
check "a failed run to reduce" test -f "$RUN/failure.json"

# A failure.json whose command leaves a trace when it runs (and fails at
# once, so the reducer stops: the input is not interesting).
hostile() {	# NAME: a copy of the run whose reduce command touches $TMP/ran-NAME
	local d=$TMP/$1
	rm -rf "$d"; cp -r "$RUN" "$d"; chmod -R go-w "$d"
	python3 - "$d/failure.json" "$TMP/ran-$1" <<-'EOF'
	import json, shlex, sys
	doc = json.load(open(sys.argv[1]))
	# run without a shell: the command names sh itself
	test = "sh -c %s {}" % shlex.quote('touch %s; printf "\033[2J"; false'
	                                   % sys.argv[2])
	doc["reduce_command"] = "irsnap reduce RUN --test " + shlex.quote(test)
	json.dump(doc, open(sys.argv[1], "w"))
	EOF
	chmod go-w "$d/failure.json"
	echo "$d"
}
# reduce NAME ARGS...: irsnap reduce on the copy; output in $TMP/NAME.out
reduce() {
	local name=$1; shift
	timeout 60 "$IRSNAP" reduce "$TMP/$name" "$@" >"$TMP/$name.out" 2>&1
	echo $?
}

d=$(hostile own)
rc=$(reduce own)
check "your own run directory: its command runs" test -e "$TMP/ran-own"
check "... printed first, naming where it comes from" \
	grep -q "^irsnap reduce: running the --test command from $d/failure.json: sh -c 'touch $TMP/ran-own" "$TMP/own.out"
check "... with its control characters shown, not sent to the terminal" \
	grep -qF 'printf "\e[2J"' "$TMP/own.out"
check_eq "... and the reducer says the input is not interesting (exit 1)" 1 "$rc"

for spec in "group-writable:chmod g+w DIR" \
	    "world-writable:chmod o+w DIR/failure.json" \
	    "foreign:chown 65534 DIR"; do
	name=${spec%%:*} how=${spec#*:}
	d=$(hostile "$name")
	${how//DIR/$d} 2>/dev/null
	if [ "$name" = foreign ] && [ "$(stat -c %u "$d")" != 65534 ]; then
		echo "# not root: cannot give a run directory to another user"
		continue
	fi
	rc=$(reduce "$name")
	check_eq "a run directory made $name ($how): refused (exit 2)" 2 "$rc"
	check "... its command did not run" test ! -e "$TMP/ran-$name"
	check "... saying why and about --trust" \
		grep -qE "is (not yours|group-writable|world-writable): its reduce_command could run anything; refusing to run it \(read it, then give --trust" "$TMP/$name.out"
	rc=$(reduce "$name" --trust)
	check "... with --trust it runs" test -e "$TMP/ran-$name"
	check "... printed first" grep -q "^irsnap reduce: running the --test command from" "$TMP/$name.out"
	chown -R "$(id -u)" "$d" 2>/dev/null
done

# A run's command runs without a shell (issue 32, 3): its words are the
# program and its arguments, so shell syntax in them is only text.
d=$(hostile noshell)
python3 - "$d/failure.json" "$TMP/pwned-noshell" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["reduce_command"] = ("irsnap reduce RUN --test '/bin/echo {}; touch %s "
                         "$(touch %s) `touch %s` #'" % ((sys.argv[2],) * 3))
json.dump(doc, open(sys.argv[1], "w"))
EOF
rc=$(reduce noshell)
check "a run's command with shell syntax in its words runs no shell" \
	test ! -e "$TMP/pwned-noshell"
check "... its words go to the program as they are" \
	grep -q "^irsnap reduce: running the --test command from $d/failure.json: /bin/echo {}; touch" "$TMP/noshell.out"

# irsnap replay --reduce auto grants no trust the user did not give: with
# a umask that lets the group write the run, its reduction is refused
# unless replay is given --trust (it used to pass --trust itself).
(umask 002; IRSNAP_DIR=$TMP/hunt "$IRSNAP" replay --runs 1 --reduce auto \
	--layout "$LAYOUT" -- "$TOYC" --bug=crash "$DEMO" >"$TMP/hunt.out" 2>&1)
check_eq "replay --reduce auto of a group-writable run, no --trust: failure found (exit 1)" \
	1 $?
check "... its reduction refused, saying why and about --trust" \
	grep -q "reduce failed (exit status 2" "$TMP/hunt.out"
check "... in the reducer's own words" bash -c \
	"grep -q 'is group-writable: its reduce_command could run anything; refusing' $TMP/hunt/replay-*/attempt-001/reduce.out"
check "... and nothing was reduced" bash -c \
	"! ls -d $TMP/hunt/replay-*/attempt-001/*/repro/reduced.ir 2>/dev/null"
check "replay --help offers --trust" bash -c \
	"'$IRSNAP' replay --help | grep -q -- '--trust'"

d=$(hostile given); chmod o+w "$d"
rc=$(reduce given --test 'false {}')
check "a command given with --test needs no trust: nothing from the run runs" \
	test ! -e "$TMP/ran-given"
check "... and nothing is printed as taken from the run" \
	bash -c "! grep -q 'command from' '$TMP/given.out'"

check "irsnap reduce --help says so" bash -c \
	"'$IRSNAP' reduce --help | grep -q -- '--trust'"
done_testing
