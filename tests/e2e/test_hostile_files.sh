#!/usr/bin/env bash
# Files that a core file or a process names, read only when the user named
# them (issue 32, items 4, 5 and 11), under $DEBUGGER, on real cores: the
# kernel's and GDB's gcore, edited the way an attacker would
# (tests/e2e/forge_core.py).
#  - A forged NT_FILE note that maps a secret over the program's pages:
#    ir-dump --boundary read the secret as the program's .rodata. Mapped
#    files are read only from the program and libraries the debugger
#    loaded, and only when they are the file the process mapped.
#  - A genuine core whose program was rebuilt since (a string changed, so
#    the build ID): its new bytes were read silently, with 0 walk errors.
#    Now they are not read, and one line says why.
#  - A forged NT_PRPSINFO command line naming a secret, with a layout that
#    reduces the program (reduce { input = "program" }): ir-report copied
#    the secret into the run's input/. From a core, no file is taken.
#  - The program given by a relative name, the debuggee started in another
#    directory (GDB's set cwd, LLDB's process launch -w) or attached to:
#    the file of that name beside the debugger was copied, not the one the
#    compiler read. It is read from /proc/PID/cwd.
source "$(dirname "$0")/../lib.sh"
source "$IRSNAP_ROOT/tests/e2e/debugger.sh"
source "$IRSNAP_ROOT/tests/frontend/frontend_lib.sh"
FORGE=$IRSNAP_ROOT/tests/e2e/forge_core.py

# The program is a copy, so that it can be "rebuilt" under the core.
mkdir -p "$TMP/bin" "$TMP/k"
cp "$TOYC" "$TMP/bin/toyc"
PROG=$TMP/bin/toyc

# ---- the cores: the kernel's, and gcore's ---------------------------------
pattern=$(cat /proc/sys/kernel/core_pattern)
case $pattern in
'|'*) not_ok "the kernel writes core files here" \
	"core_pattern is '$pattern'; set it to 'core' (sysctl kernel.core_pattern=core)" ;;
esac
(cd "$TMP/k" && ulimit -c unlimited && exec "$PROG" --bug=crash "$DEMO") \
	>/dev/null 2>&1
kcore=$(ls "$TMP"/k/core* 2>/dev/null | head -1)
check "the kernel wrote a core of toyc --bug=crash" test -s "$kcore"
GDB_TIMEOUT=60 gdb_bare "$TMP/gcore.log" -ex run -ex "gcore $TMP/gcore" \
	--args "$PROG" --bug=crash "$DEMO"
check "gcore wrote a core of the same crash" test -s "$TMP/gcore"

# dump LOG OUT CORE [LAYOUT]: ir-dump --boundary of CORE (program $PROG)
# into OUT, then ir-report; what the debugger printed in LOG.
dump() {
	LAYOUT=${4:-$LAYOUT} dbg_batch "$1" \
		-o "ir-dump --boundary -f text -o $2" -o 'ir-report' \
		-c "$3" "$PROG"
}

for core in "$kcore" "$TMP/gcore"; do
	kind=$([ "$core" = "$kcore" ] && echo kernel || echo gcore)
	cp "$core" "$TMP/$kind.core"
	core=$TMP/$kind.core
	dump "$TMP/$kind.log" "$TMP/$kind.ir" "$core"
	check "$kind core: the genuine core dumps pass 'constfold'" \
		grep -q "^ir-dump: pass 'constfold' at frame #[0-9]* (pm_run_pass): Module at .*: 3572 nodes, [0-9]* bytes read, 0 walk errors" "$TMP/$kind.log"

	# -- 4: NT_FILE maps a secret where the program was ----------------
	# A secret as long as the program's path, so the note keeps its shape.
	secret=$TMP/s/$(printf '%*s' $(( ${#PROG} - ${#TMP} - 3 )) '' | tr ' ' x)
	mkdir -p "$TMP/s"
	python3 -c 'import sys; sys.stdout.write("SECRET-KEY-1234\n" * 20000)' >"$secret"
	cp "$core" "$TMP/$kind-ntfile.core"
	python3 "$FORGE" ntfile "$TMP/$kind-ntfile.core" "$PROG" "$secret"
	check "$kind core: the forged NT_FILE maps the secret" \
		grep -qx "$secret" <(python3 "$FORGE" files "$TMP/$kind-ntfile.core")
	rm -rf "$RUNS"
	dump "$TMP/$kind-ntfile.log" "$TMP/$kind-ntfile.ir" "$TMP/$kind-ntfile.core"
	check "$kind core, forged NT_FILE: the secret is in no dump, log or run" \
		bash -c "! grep -rqs SECRET-KEY '$TMP/$kind-ntfile.ir' '$TMP/$kind-ntfile.log' '$RUNS'"
	check_files_eq "... the dump reads the program the debugger loaded instead (the same build ID)" \
		"$TMP/$kind.ir" "$TMP/$kind-ntfile.ir"

	# -- 4: the program rebuilt since the core was written --------------
	# As a rebuild that fixed a string of the same length: the same
	# code and layout, another string, another build ID.
	cp "$PROG" "$TMP/bin/toyc.orig"
	python3 - "$PROG" <<-'EOF'
	import sys
	d = bytearray(open(sys.argv[1], "rb").read())
	i = d.find(b"constfold\0")
	d[i:i + 10] = b"CONSTFOLD\0"
	j = d.find(b"\x04\0\0\0\x14\0\0\0\x03\0\0\0GNU\0")    # NT_GNU_BUILD_ID
	d[j + 16] ^= 0xff
	open(sys.argv[1], "wb").write(d)
	EOF
	dump "$TMP/$kind-rebuilt.log" "$TMP/$kind-rebuilt.ir" "$core"
	check "$kind core, program rebuilt: its new bytes are not read" \
		bash -c "! grep -q CONSTFOLD '$TMP/$kind-rebuilt.log'"
	check "... and ir-dump says so in one line, naming both build IDs" \
		grep -q "^${DBG_ERR}ir-dump: .*left out of core file $core, and its mapped file $PROG is not read: it is not the file the process mapped (build ID [0-9a-f]* in the core, [0-9a-f]* on disk: rebuilt since?)$" "$TMP/$kind-rebuilt.log"
	mv "$TMP/bin/toyc.orig" "$PROG"

	# -- 5: NT_PRPSINFO names a secret, the layout reduces programs -----
	toyc_layout_with "$TMP/program.lua" \
		's|^  rerun = "{exe} {flags} --passes|  input = "program",\n  rerun = "{exe} {flags} --passes|'
	cp "$core" "$TMP/$kind-psargs.core"
	python3 "$FORGE" psargs "$TMP/$kind-psargs.core" "toyc $secret"
	rm -rf "$RUNS"
	dump "$TMP/$kind-psargs.log" "$TMP/$kind-psargs.ir" \
		"$TMP/$kind-psargs.core" "$TMP/program.lua"
	run=$(latest_run)
	check "$kind core, forged command line: ir-report wrote failure.json" \
		test -f "$run/failure.json"
	check_eq "... the core's arguments are recorded as the core says" \
		"$secret" "$(json_get "$run/manifest.json" 'd["debuggee"]["args"]')"
	check "... but no file they name is copied into the run" \
		bash -c "! grep -rqs SECRET-KEY '$run' && test ! -e '$run/input'"
	check_eq "... so there is no reduce_input and no reduce command" \
		"None None" \
		"$(json_get "$run/failure.json" 'str(d.get("reduce_input")) + " " + str(d["reduce_command"])')"
done

# ---- 11: the program by a relative name, the debuggee elsewhere ---------
# prog.ir in the debuggee's directory crashes toyc; the debugger's
# directory holds a decoy of that name.
mkdir -p "$TMP/there" "$TMP/here"
cp "$DEMO" "$TMP/there/prog.ir"
echo "decoy: not the compiler's input" >"$TMP/here/prog.ir"
case $DEBUGGER in
gdb) launch=(-o "set cwd $TMP/there" -o run) ;;
lldb) launch=(-o "process launch -w $TMP/there") ;;
esac
rm -rf "$RUNS"
(cd "$TMP/here" && LAYOUT=$TMP/program.lua dbg_batch "$TMP/cwd.log" \
	-o 'ir-trace on' "${launch[@]}" -- "$PROG" --bug=crash prog.ir)
run=$(latest_run)
check "started in another directory: the crash's failure.json" \
	test -f "$run/failure.json"
check_eq "... copies the file the compiler read, from its directory" \
	"input/prog.ir" "$(fj "$run" 'd.get("reduce_input")')"
check_files_eq "... not the decoy beside the debugger" \
	"$TMP/there/prog.ir" "$run/input/prog.ir"

# Attached: toyc waits in $TMP/there; the debugger runs in $TMP/here.
(cd "$TMP/there" && exec "$PROG" --wait-for-debugger --bug=crash prog.ir) \
	>"$TMP/attach.out" 2>"$TMP/attach.err" &
pid=$!
for _ in $(seq 1 600); do
	grep -q "^toyc: pid $pid waiting for a debugger$" "$TMP/attach.err" && break
	sleep 0.05
done
rm -rf "$RUNS"
(cd "$TMP/here" && LAYOUT=$TMP/program.lua DBG_TIMEOUT=90 dbg_batch \
	"$TMP/attach.log" -o 'ir-trace on' -o continue -p "$pid")
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
run=$(latest_run)
check_eq "attached: the crash's failure.json copies the compiler's input" \
	"input/prog.ir" "$(fj "$run" 'd.get("reduce_input")')"
check_files_eq "... from its directory, not the debugger's" \
	"$TMP/there/prog.ir" "$run/input/prog.ir"

done_testing
