#!/usr/bin/env bash
# Which sanitizer reports fail a sanitized suite (issue 32, item 20):
# tests/run counts every report with an irsnap frame on any of its stacks,
# and a report with no frame at all; only one whose every frame is another
# program's (liblldb-14's threads faulting at LLDB's teardown) is shown
# and not counted. tests/sanitizer_ours decides; here it judges real ASan
# reports, written by programs built with -fsanitize=address: one faulting
# in a thread of its own (not irsnap's), one faulting in a callback that
# libirsnap called (an irsnap frame in the middle of the stack), one in a
# function named irs_*, and a report cut before its frames.
. "$(dirname "$0")/../lib.sh"
OURS=$IRSNAP_ROOT/tests/sanitizer_ours
CC=${CC:-cc}
# As tests/run has ASan print frames, with their modules.
export ASAN_OPTIONS="fast_unwind_on_fatal=0:detect_leaks=0:exitcode=86:stack_trace_format='    #%n %p %F %L <%m>'"

# report NAME: the report the program $TMP/NAME wrote, its path
report() {
	rm -f "$TMP/$1.report".*
	ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$TMP/$1.report" "$TMP/$1" \
		>/dev/null 2>&1
	ls "$TMP/$1.report".* 2>/dev/null | head -1
}

# A thread of another program's own faults: no irsnap frame anywhere.
cat >"$TMP/foreign.c" <<'EOF'
#include <pthread.h>
#include <stddef.h>
static void *worker(void *p) { return (void *)(long)*(volatile int *)p; }
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}
EOF
# libirsnap (this build's) calls the program's read callback, which
# overflows a heap buffer: the callback's caller is irsnap's.
cat >"$TMP/callback.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include "irsnap.h"
static struct irs_error *
bad_read(void *arg, uint64_t a, void *buf, uint64_t n)
{
	(void)arg; (void)a;
	char *small = malloc(4);
	memcpy(buf, small, n);		/* reads past its 4 bytes */
	free(small);
	return NULL;
}
int main(void)
{
	struct irs_target t = { .read = bad_read };
	struct irs_memory *mem;
	char buf[64];
	if (irs_memory_create_target(&t, &mem))
		return 1;
	irs_memory_read(mem, 0x1000, buf, sizeof(buf));
	return 0;
}
EOF
# A function of irsnap's name, wherever it lies.
cat >"$TMP/named.c" <<'EOF'
#include <stdlib.h>
__attribute__((noinline)) int irs_fake_overflow(int *p) { return p[8]; }
int main(void) { int *p = malloc(8); return irs_fake_overflow(p); }
EOF
# A library whose constructor overflows a heap buffer on its own (as
# libLLVM-14's constructors mismatch malloc and operator delete), and one
# whose constructor calls an irsnap function that does; irs_fake_open
# dlopens each, so an irsnap frame lies below the initializer.
cat >"$TMP/ctor.c" <<'EOF'
#include <stdlib.h>
#ifdef CALLS_IRSNAP
__attribute__((noinline)) int irs_fake_ctor_overflow(int *p) { return p[8]; }
#else
__attribute__((noinline)) static int lib_overflow(int *p) { return p[8]; }
#endif
volatile int lib_sink;
__attribute__((constructor)) static void lib_init(void)
{
	int *p = malloc(8);
#ifdef CALLS_IRSNAP
	lib_sink = irs_fake_ctor_overflow(p);
#else
	lib_sink = lib_overflow(p);
#endif
	free(p);
}
EOF
cat >"$TMP/opener.c" <<'EOF'
#include <dlfcn.h>
__attribute__((noinline)) void *irs_fake_open(const char *lib)
{
	return dlopen(lib, RTLD_NOW);
}
int main(int argc, char **argv) { return argc > 1 && irs_fake_open(argv[1]) ? 0 : 1; }
EOF
$CC -g -shared -fPIC -fsanitize=address -o "$TMP/libctor.so" "$TMP/ctor.c"
$CC -g -shared -fPIC -fsanitize=address -DCALLS_IRSNAP \
	-o "$TMP/libctor-irs.so" "$TMP/ctor.c"
$CC -g -fsanitize=address -fno-omit-frame-pointer -o "$TMP/opener" \
	"$TMP/opener.c" -ldl
for prog in foreign named; do
	$CC -g -fsanitize=address -fno-omit-frame-pointer -o "$TMP/$prog" \
		"$TMP/$prog.c" -lpthread
done
$CC -g -fsanitize=address -fno-omit-frame-pointer -o "$TMP/callback" \
	"$TMP/callback.c" -I"$IRSNAP_ROOT/common" -L"$BUILD" -lirsnap \
	-Wl,-rpath,"$BUILD"
check "the three programs build with ASan" test -x "$TMP/foreign" -a \
	-x "$TMP/callback" -a -x "$TMP/named"

r=$(report foreign)
check "a fault in another program's thread writes a real ASan report" \
	grep -q 'ERROR: AddressSanitizer: SEGV' "$r"
check "... which has no irsnap frame: not counted" \
	bash -c "! '$OURS' '$r'"
r=$(report callback)
check "a fault in a callback libirsnap called writes a real ASan report" \
	grep -q 'ERROR: AddressSanitizer: heap-buffer-overflow' "$r"
check "... with libirsnap's frames in the middle of its stack" \
	grep -qE "^ *#[1-9][0-9]* .* common/mem/[a-z]+\.c:[0-9]+ <$BUILD/libirsnap\.so>" "$r"
check "... counted: an irsnap frame on the stack" "$OURS" "$r"
# The frames of libirsnap's static functions show only a relative source
# path when ASan is not asked for modules: still counted.
sed 's/ <[^>]*>$//' "$r" >"$TMP/plain.report"
check "... and without the modules, by its source files" \
	"$OURS" "$TMP/plain.report"
r=$(report named)
check "a fault in an irs_* function wherever it lies: counted" "$OURS" "$r"
# The same reports moved away from this tree, frames and all: counted by
# the library's name alone.
sed "s|common/[^ ]*|??|g; s|$BUILD/|/opt/irsnap/lib/|g; s| in irs_| in x_|g" \
	"$(report callback)" >"$TMP/installed.report"
check "... an installed libirsnap's frame counts too" \
	"$OURS" "$TMP/installed.report"
# report_args NAME ARGS...: as report, the program given ARGS
report_args() {
	local name=$1; shift
	rm -f "$TMP/$name.report".*
	ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$TMP/$name.report" "$TMP/opener" \
		"$@" >/dev/null 2>&1
	ls "$TMP/$name.report".* 2>/dev/null | head -1
}
r=$(report_args ctor "$TMP/libctor.so")
check "a library's own constructor faulting, dlopened by irsnap, writes a real ASan report" \
	grep -q 'ERROR: AddressSanitizer: heap-buffer-overflow' "$r"
check "... through the loader's initializer, irs_fake_open below it" \
	grep -qE ' in irs_fake_open ' "$r"
check "... not counted: nothing above the initializer is irsnap's" \
	bash -c "! '$OURS' '$r'"
r=$(report_args ctor-irs "$TMP/libctor-irs.so")
check "a constructor calling into an irsnap function that faults: counted" \
	"$OURS" "$r"
grep -vE '^ *#[0-9]+ ' "$(report foreign)" >"$TMP/cut.report"
check "a report cut before its frames is counted (nothing to tell it by)" \
	"$OURS" "$TMP/cut.report"
check "tests/run counts through tests/sanitizer_ours" \
	grep -q 'tests/sanitizer_ours "$report"' "$IRSNAP_ROOT/tests/run"
done_testing
