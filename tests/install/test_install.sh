#!/usr/bin/env bash
# `make install` into a temporary DESTDIR, then irsnap used from the
# installed tree alone: the source and build trees are hidden under an
# empty tmpfs in a private mount namespace, and the environment names
# nothing of them. The CLI, the GDB script (which must find the installed
# libirsnap.so), the LLDB plugin, the reducer's crash-signature library and
# the Lua prelude a layout requires (built into the library) must all work
# from there.
source "$(dirname "$0")/../lib.sh"

PREFIX=/opt/irsnap
DEST=$TMP/dest
ROOT=$DEST$PREFIX
LLDB_BIN=${LLDB_BIN:-lldb-14}
for tool in gdb "$LLDB_BIN" unshare; do
	command -v "$tool" >/dev/null 2>&1 ||
		not_ok "$tool is installed" "install it: scripts/install-deps"
done

# ---- make install --------------------------------------------------------
# A sanitized build's library cannot be loaded by GDB (mk/gdb.mk), so a
# sanitized run installs from a plain build of its own, made here.
build=${BUILD#"$IRSNAP_ROOT"/}
if ldd "$BUILD/libirsnap.so" 2>/dev/null | grep -q libasan; then
	build=$TMP/build
	echo "# sanitized build: installing from a plain build in $build"
fi
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$IRSNAP_ROOT" -j2 \
	SANITIZE= BUILD="$build" DESTDIR="$DEST" PREFIX="$PREFIX" install \
	>"$TMP/install.log" 2>&1
rc=$?
check_eq "make install DESTDIR=... PREFIX=$PREFIX exits 0" 0 "$rc"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/install.log" | tail -10
for f in bin/irsnap include/irsnap.h lib/libirsnap.so lib/libirsnap.a \
	lib/libirsnap-lldb.so lib/libirsnap-crashsig.so \
	lib/libirsnap-gdb-xstate.so share/irsnap/gdb/irsnap.py \
	share/irsnap/prelude/irsnap/list.lua share/irsnap/layouts/lua54.lua \
	share/irsnap/schema/manifest-1.schema.json share/man/man1/irsnap.1 \
	share/man/man7/irsnap-commands.7 share/doc/irsnap/README.md \
	share/doc/irsnap/layout.md share/doc/irsnap/lldb.md \
	share/irsnap/schema/show-1.schema.json lib/pkgconfig/irsnap.pc \
	share/bash-completion/completions/irsnap; do
	check "installed: \$PREFIX/$f" test -s "$ROOT/$f"
done
check "irsnap(1) documents every command of irsnap --help" \
	bash -c "for c in reduce replay merge show diff report validate; do grep -q \"^\\.SS \$c\$\" '$ROOT/share/man/man1/irsnap.1' || exit 1; done"
man1=$ROOT/share/man/man1/irsnap.1 man7=$ROOT/share/man/man7/irsnap-commands.7
for c in ir-layout ir-dump ir-break ir-trace ir-verify ir-report ir-status ir-set; do
	check "irsnap-commands(7) documents $c" grep -qx ".SS $c" "$man7"
done
check "... and the settings (call-timeout among them)" grep -qx '.B call-timeout' "$man7"
check "irsnap(1)'s SYNOPSIS: a line per command" \
	grep -qF '\fBirsnap show\fR [--json] [RUN|REPLAY]' "$man1"
check "... not the usage line pasted" bash -c "! grep -q 'usage: irsnap COMMAND' '$man1'"
check "... its SEE ALSO names irsnap-commands(7) and the installed guides" \
	bash -c "grep -qxF '.BR irsnap-commands (7),' '$man1' && grep -qxF '.IR $PREFIX/share/doc/irsnap/ .' '$man1'"
check "irsnap.pc names the prefix" grep -qx "prefix=$PREFIX" "$ROOT/lib/pkgconfig/irsnap.pc"
check "the installed tree holds nothing named after the build tree" \
	test -z "$(find "$DEST" -name '*.o' -o -name '__pycache__' -o -name 'test_*')"

# ---- from the installed tree only ----------------------------------------
# What the checks need besides irsnap, copied out first: the debuggee and
# its layout and input.
WORK=$TMP/work
mkdir -p "$WORK" "$TMP/home"
cp "$TOYC" "$FIXTURES/toyc/toyc.lua" "$FIXTURES/toyc/demo.ir" "$WORK/"
# toyc's own text of the IR cse is given, to compare the dumps with.
(cd "$WORK" && ./toyc --passes=constfold,cse --print-before-all demo.ir \
	2>&1 >/dev/null | awk '/^; \*\*\* IR Dump Before cse/ { on = 1; next }
		/^; \*\*\* IR Dump / { on = 0 } on') >"$TMP/want-cse.ir"

cat >"$TMP/inner.sh" <<'EOF'
# Runs in a private mount namespace: hides $1 (the source tree, with the
# build tree under it) and $2 when that is elsewhere, then runs the checks'
# commands with an environment that names neither. Results go to files.
set -u
src=$1 build=$2 root=$3 work=$4 lldb=$5
mount -t tmpfs irsnap-hidden "$src" || exit 97
case "$build" in "$src"/*) ;; *) mount -t tmpfs irsnap-hidden "$build" || exit 97 ;; esac
ls -A "$src" | wc -l >"$work/hidden.count"
cd "$work" || exit 98
exec env -i PATH="$root/bin:/usr/local/bin:/usr/bin:/bin" HOME="$work/../home" \
	TMPDIR="$work" LANG=C.UTF-8 ROOT="$root" LLDB="$lldb" bash -c '
irsnap --version >version.out 2>&1; echo $? >version.rc
# GDB: the installed script, a dump at a boundary, then a traced crash.
gdb -nx -q -batch -ex "source $ROOT/share/irsnap/gdb/irsnap.py" \
	-ex "ir-layout load toyc.lua" -ex "ir-break --before cse" -ex run \
	-ex "ir-dump -f both -o gdb.ir m" -ex kill \
	--args ./toyc --passes=constfold,cse demo.ir >gdb.out 2>&1
IRSNAP_DIR=runs gdb -nx -q -batch -ex "source $ROOT/share/irsnap/gdb/irsnap.py" \
	-ex "ir-layout load toyc.lua" -ex "ir-trace on" -ex run \
	--args ./toyc --bug=crash demo.ir >trace.out 2>&1
irsnap validate runs/latest >validate.out 2>&1; echo $? >validate.rc
irsnap validate gdb.ir.json >validate-dump.out 2>&1; echo $? >validate-dump.rc
irsnap reduce runs/latest >reduce.out 2>&1; echo $? >reduce.rc
sh runs/latest/repro/repro.sh >repro.out 2>&1; echo $? >repro.rc
# LLDB: the installed plugin, the same dump.
"$LLDB" -x -b -O "settings set target.env-vars LD_PRELOAD=" \
	-o "plugin load $ROOT/lib/libirsnap-lldb.so" -o "ir-layout load toyc.lua" \
	-o "ir-break cse" -o run -o "ir-dump -o lldb.ir m" -o kill \
	-- ./toyc --passes=constfold,cse demo.ir </dev/null >lldb.out 2>&1
true'
EOF
realbuild=$(cd "$IRSNAP_ROOT" && cd "$build" && pwd)
if unshare --mount --propagation private true 2>/dev/null; then
	hide=(unshare --mount --propagation private)
else
	hide=(unshare --mount --map-root-user --propagation private)
fi
timeout 300 "${hide[@]}" bash "$TMP/inner.sh" "$IRSNAP_ROOT" "$realbuild" \
	"$ROOT" "$WORK" "$(command -v "$LLDB_BIN")"
rc=$?
check_eq "the source and build trees could be hidden (unshare, tmpfs)" 0 "$rc"
check_eq "... and were: nothing under $IRSNAP_ROOT in there" 0 \
	"$(cat "$WORK/hidden.count" 2>/dev/null || echo missing)"

r() { cat "$WORK/$1" 2>/dev/null || echo missing; }
check_eq "installed irsnap --version exits 0" 0 "$(r version.rc)"
check "it prints irsnap VERSION" grep -qE '^irsnap [0-9]+\.[0-9]+' "$WORK/version.out"

check "GDB sourced the installed irsnap.py and loaded the layout" \
	grep -q "irsnap: loaded layout 'toyc'" "$WORK/gdb.out"
if cmp -s "$TMP/want-cse.ir" "$WORK/gdb.ir"; then
	ok "GDB ir-dump through the installed script is toyc's own text (prelude built in)"
else not_ok "GDB ir-dump is toyc's own text" "$(tail -5 "$WORK/gdb.out")"; fi
check_eq "irsnap validate of the dump's JSON exits 0" 0 "$(r validate-dump.rc)"
check "GDB traced the crash into a failed run" test -f "$WORK/runs/latest/failure.json"
check_eq "irsnap validate of that run directory exits 0" 0 "$(r validate.rc)"
check_eq "irsnap reduce RUN exits 0 (the installed crash-signature library)" 0 "$(r reduce.rc)"
check_eq "its repro.sh reproduces the crash" 0 "$(r repro.rc)"
check "LLDB loaded the installed plugin" grep -q "irsnap: loaded layout 'toyc'" "$WORK/lldb.out"
if cmp -s "$TMP/want-cse.ir" "$WORK/lldb.ir"; then
	ok "LLDB ir-dump through the installed plugin is toyc's own text"
else not_ok "LLDB ir-dump is toyc's own text" "$(tail -5 "$WORK/lldb.out")"; fi
for f in reduce.out trace.out; do
	[ "$(r reduce.rc)" = 0 ] || sed "s/^/# $f: /" "$WORK/$f" | tail -4
done

# ---- make uninstall -------------------------------------------------------
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$IRSNAP_ROOT" -j2 \
	SANITIZE= BUILD="$build" DESTDIR="$DEST" PREFIX="$PREFIX" uninstall \
	>"$TMP/uninstall.log" 2>&1
check_eq "make uninstall exits 0" 0 "$?"
check_eq "... and leaves nothing of the install behind" "" \
	"$(find "$DEST$PREFIX" 2>/dev/null)"
done_testing
