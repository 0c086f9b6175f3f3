#!/usr/bin/env bash
# The Debian package: dpkg-buildpackage -b -us -uc on a copy of the tree
# builds irsnap_VERSION_ARCH.deb (debian/), dpkg installs it, and irsnap
# works from the installed paths alone: the CLI, its man pages, the GDB
# script tracing toyc, the LLDB plugin, the pkg-config file a program
# builds against, bash completion, the guides; dpkg -r then leaves none of
# its files behind. Installing into /usr needs root, as CI runs it; the
# package is removed however the test ends, and a lock keeps two runs on
# one machine from installing at once.
source "$(dirname "$0")/../lib.sh"

for tool in dpkg-buildpackage dh gdb lldb-14 pkg-config flock; do
	command -v "$tool" >/dev/null 2>&1 || {
		not_ok "$tool is installed" "install it: scripts/install-deps"
		done_testing
		exit 1
	}
done
if [ "$(id -u)" -ne 0 ]; then
	not_ok "the package test runs as root (dpkg -i into /usr)" \
		"run make test as root, as CI does"
	done_testing
	exit 1
fi
if dpkg-query -W -f='${Status}' irsnap 2>/dev/null | grep -q 'ok installed'; then
	not_ok "no irsnap package installed before the test" \
		"dpkg -r irsnap first: this test installs and removes its own"
	done_testing
	exit 1
fi

# ---- build ---------------------------------------------------------------
# The tree as git has it (new files not yet committed too), without the
# build trees.
SRC=$TMP/src/irsnap
mkdir -p "$SRC"
(cd "$IRSNAP_ROOT" && git ls-files -z --cached --others --exclude-standard |
	grep -zv '^debian/build/' | xargs -0 tar -cf - 2>/dev/null) |
	(cd "$SRC" && tar -xf -)
check "the tree has debian/ (control, rules, changelog)" \
	test -x "$SRC/debian/rules" -a -s "$SRC/debian/control" -a -s "$SRC/debian/changelog"
t0=$SECONDS
# -J: make -j as many as the cores (DEB_BUILD_OPTIONS=parallel=N)
(cd "$SRC" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	dpkg-buildpackage -b -us -uc -J) >"$TMP/build.log" 2>&1
rc=$?
# (times: this shell's, then its children's user and system CPU time)
times >"$TMP/times"
figure "dpkg-buildpackage -b -J: $((SECONDS - t0)) s wall; user and system CPU of the test so far: $(tail -1 "$TMP/times")"
check_eq "dpkg-buildpackage -b -us -uc exits 0" 0 "$rc"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/build.log" | tail -15
version=$(sed -n 's/^#define IRS_VERSION "\(.*\)"/\1/p' "$IRSNAP_ROOT/common/irsnap.h")
DEB=$(ls "$TMP"/src/irsnap_"$version"_*.deb 2>/dev/null | head -1)
check "it made irsnap_${version}_ARCH.deb" test -s "$DEB"
dpkg-deb -c "$DEB" | awk '{ print $6 }' | sed 's|^\./|/|' >"$TMP/contents"
for f in /usr/bin/irsnap /usr/lib/libirsnap.so /usr/include/irsnap.h \
	/usr/lib/libirsnap-lldb.so /usr/lib/libirsnap-crashsig.so \
	/usr/share/irsnap/gdb/irsnap.py /usr/share/irsnap/layouts/luajit.lua \
	/usr/share/irsnap/prelude/irsnap/list.lua /usr/lib/pkgconfig/irsnap.pc \
	/usr/share/man/man1/irsnap.1.gz /usr/share/man/man7/irsnap-commands.7.gz \
	/usr/share/bash-completion/completions/irsnap \
	/usr/share/doc/irsnap/layout.md.gz /usr/share/doc/irsnap/gdb.md.gz; do
	check "the package holds $f" grep -qx "$f" "$TMP/contents"
done
check "... and nothing of the tests (toyc, test binaries)" \
	bash -c "! grep -E '/(toyc|test_[a-z_]*)$' '$TMP/contents'"

# ---- install, use ----------------------------------------------------------
exec 9>/run/lock/irsnap-deb-test.lock
flock 9
trap 'dpkg -P irsnap >/dev/null 2>&1; rm -rf "$TMP"' EXIT
dpkg -i "$DEB" >"$TMP/install.log" 2>&1
check_eq "dpkg -i installs it (its dependencies are Debian's)" 0 "$?"
dpkg -L irsnap | sort >"$TMP/files"

check_eq "/usr/bin/irsnap -V" "irsnap $version" "$(/usr/bin/irsnap -V 2>&1)"
check "man irsnap: the installed page, its SYNOPSIS a line per command" \
	bash -c "MANWIDTH=200 man irsnap 2>/dev/null | grep -q '^ *irsnap show \[--json\] \[RUN|REPLAY\]'"
check "man 7 irsnap-commands: the ir-* commands and their settings" \
	bash -c "MANWIDTH=200 man 7 irsnap-commands 2>/dev/null | grep -q '^ *ir-trace on \[PASS-REGEX\]' &&
		MANWIDTH=200 man 7 irsnap-commands 2>/dev/null | grep -q '^ *call-timeout'"
check "... which name the installed paths" \
	bash -c "MANWIDTH=200 man 7 irsnap-commands 2>/dev/null | grep -q 'source /usr/share/irsnap/gdb/irsnap.py'"
check "the guides the man page names are there" \
	test -s /usr/share/doc/irsnap/README.md.gz -a -s /usr/share/doc/irsnap/lldb.md.gz

WORK=$TMP/work
mkdir -p "$WORK"
cp "$TOYC" "$FIXTURES/toyc/toyc.lua" "$FIXTURES/toyc/demo.ir" "$WORK/"
(cd "$WORK" && IRSNAP_DIR=$WORK/runs gdb -nx -q -batch \
	-ex 'source /usr/share/irsnap/gdb/irsnap.py' \
	-ex 'ir-layout load toyc.lua' -ex 'ir-trace on' -ex run \
	--args ./toyc --bug=crash demo.ir) >"$TMP/gdb.log" 2>&1
check "GDB with the installed script traces toyc to its crash" \
	test -s "$WORK/runs/latest/failure.json"
check "the installed irsnap shows that run" \
	bash -c "cd '$WORK' && IRSNAP_DIR='$WORK/runs' /usr/bin/irsnap show | grep -q '^failure: SIGSEGV'"
check "... and validates it with its own schemas" /usr/bin/irsnap validate "$WORK/runs/latest"
py=
for d in /usr/lib/llvm-14/lib/python3*/dist-packages; do
	[ -f "$d/lldb/embedded_interpreter.py" ] && py=$d
done
(cd "$WORK" && PYTHONPATH=$py lldb-14 -b -o 'plugin load /usr/lib/libirsnap-lldb.so' \
	-o 'ir-layout load toyc.lua' -o 'help ir-dump' ./toyc) </dev/null >"$TMP/lldb.log" 2>&1
check "LLDB loads the installed plugin, which loads a layout" \
	grep -q "^irsnap: loaded layout 'toyc'" "$TMP/lldb.log"
check "... and has its commands" grep -q 'Snapshot the IR rooted at an expression' "$TMP/lldb.log"
check "... with no Python error (LLDB's module on PYTHONPATH, as lldb.md says)" \
	bash -c "! grep -E 'Traceback|ModuleNotFoundError' '$TMP/lldb.log'"

check_eq "pkg-config knows irsnap" "$version" "$(pkg-config --modversion irsnap 2>&1)"
cat >"$TMP/use.c" <<'EOF'
#include <stdio.h>
#include <irsnap.h>
int main(void)
{
	const char *const *c = irs_console_commands();
	int n = 0;
	while (c[n])
		n++;
	printf("%d %s\n", n, c[0]);
	return 0;
}
EOF
# shellcheck disable=SC2046
cc -o "$TMP/use" "$TMP/use.c" $(pkg-config --cflags --libs irsnap) >"$TMP/cc.log" 2>&1
check "a program builds with pkg-config --cflags --libs irsnap" test -x "$TMP/use"
check_eq "... and runs against the installed libirsnap.so" "8 ir-layout" \
	"$("$TMP/use" 2>&1)"

complete_words() {	# WORD...: what bash completion offers for the last
	bash -c 'source /usr/share/bash-completion/completions/irsnap
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _irsnap; echo "${COMPREPLY[*]}"' \
		bash "$@"
}
check_eq "bash completion: irsnap sh<TAB> -> show" show "$(complete_words irsnap sh)"
check_eq "... irsnap show --j<TAB> -> --json" --json "$(complete_words irsnap show --j)"
check_eq "... irsnap replay --debugger l<TAB> -> lldb" lldb \
	"$(complete_words irsnap replay --debugger l)"
check_eq "... irsnap help ir-t<TAB> -> ir-trace" ir-trace "$(complete_words irsnap help ir-t)"

# ---- remove: nothing left -----------------------------------------------------
dpkg -r irsnap >"$TMP/remove.log" 2>&1
check_eq "dpkg -r irsnap exits 0" 0 "$?"
dpkg -P irsnap >/dev/null 2>&1
left=$(while read -r f; do
	[ -e "$f" ] && [ ! -d "$f" ] && echo "$f"
done <"$TMP/files")
check_eq "no file of the package is left" "" "$left"
check "nor its own directories" test ! -e /usr/share/irsnap -a ! -e /usr/share/doc/irsnap
check "irsnap is no longer installed" \
	bash -c "! dpkg-query -W -f='\${Status}' irsnap 2>/dev/null | grep -q 'ok installed'"

done_testing
