# Helpers for the front-end tests (tests/frontend/test_*.sh), shared by the
# GDB and the LLDB halves; source it after tests/lib.sh and the debugger's
# own debugger (tests/e2e/debugger.sh).
#
# tiny_build: compiles $TMP/tiny, a two-pass "compiler" small enough to
# read: run_pass(p, n) is its pass boundary, `tiny crash` makes its second
# pass jump through a bad function pointer (a frame without a function
# name), and pwn(), reachable through the global `hook`, creates ./pwned,
# the side effect a layout expression must never have.
tiny_build() {
	cat >"$TMP/tiny.c" <<-'EOF'
	#include <fcntl.h>
	#include <stdint.h>
	#include <string.h>
	#include <unistd.h>
	typedef struct Node { int value; struct Node *next; } Node;
	typedef struct Pass { const char *name; void (*run)(Node *); } Pass;
	static void bump(Node *n) { n->value++; }
	void pwn(void) { close(open("pwned", O_CREAT | O_WRONLY, 0644)); }
	void (*hook)(void) = pwn;
	__attribute__((noinline)) void
	run_pass(Pass *p, Node *n)
	{
		p->run(n);
	}
	int main(int argc, char **argv)
	{
		Node n = { 1, 0 };
		Pass good = { "bump", bump };
		Pass bad = { "jump", (void (*)(Node *))(uintptr_t)0x10 };
		run_pass(&good, &n);
		if (argc > 1 && !strcmp(argv[1], "crash"))
			run_pass(&bad, &n);
		return 0;
	}
	EOF
	cc -g -O0 -o "$TMP/tiny" "$TMP/tiny.c"
}

# tiny_layout FILE IR [VERIFIER-CALL]: a layout for tiny whose boundary's
# IR expression is IR (Lua string syntax, quotes included).
tiny_layout() {
	{
		echo 'layout { name = "tiny", root = "Node" }'
		echo 'struct "Node" { fields = { value = scalar "value" }, text = "node {value}\n" }'
		echo "boundary { at = \"run_pass\", pass = \"p->name\", ir = $2 }"
		[ -z "${3:-}" ] || echo "verifier { name = \"hook\", call = $3, ok = 0 }"
	} >"$1"
}

# toyc_layout_with FILE SED-SCRIPT: toyc's layout with one edit.
toyc_layout_with() { sed "$2" "$FIXTURES/toyc/toyc.lua" >"$1"; }

# crash_pass BUG: the pass toyc --bug=BUG dies in (--bug=help says where
# the bug lives; the memory corruptions crash a later pass).
crash_pass() {
	case $1 in
	corrupt-dangling) echo dce ;;
	corrupt-cycle) echo strength ;;
	corrupt-count) echo cse ;;
	break-invariant) echo constfold ;;
	esac
}

# fj RUN PYEXPR: a value from RUN's failure.json ("none" without one).
fj() {
	if [ -f "$1/failure.json" ]; then json_get "$1/failure.json" "$2"
	else echo none; fi
}
