// Unit tests for the session (common/run/session.c, rundir.c, manifest.c,
// failure.c, proc.c): run directories, pass events, failure reports, and
// that the directory stays valid whatever happens: after every event, after
// a full disk, after a SIGKILL between two events.
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/tools.h"
#include "unit_util.h"

/* {====================================================================
** A fake debuggee: a linked list of Nodes in a byte buffer, described to
** the layout engine through the target's debug-info callbacks
** ===================================================================== */

#define BASE 0x10000u
#define NNODES 3

struct node {			// as the "debuggee" lays it out
	uint32_t value;
	uint32_t pad;
	uint64_t next;
};

static const char tiny_layout[] =
	"layout { name = \"tiny\", root = \"Node\" }\n"
	"struct \"Node\" {\n"
	"  fields = { value = scalar \"value\", next = ptr(\"next\", \"Node\") },\n"
	"  text = \"node {value}\\n{?next}{next}{/}\",\n"
	"}\n"
	"reduce { units = { \"Node\" }, rerun = \"{exe} --passes={pass} {input}\" }\n";

struct fixture {
	char dir[64];			// output root, a fresh temporary folder
	union {				// the debuggee's memory at BASE:
		struct node nodes[NNODES];	// the IR, then zeros, so the
		unsigned char bytes[1 << 18];	// page cache reads whole
	} mem;					// windows of 64 KiB
	struct irs_target t;
	struct irs_layout *lo;
	struct irs_memory *m;
	struct irs_session_config cfg;
	struct irs_session *s;
	int nframes;			// frames the fake backtrace has
	int frame_error_at;		// frame index that fails with IO, or -1
};

static struct irs_error *
fake_read(void *arg, uint64_t address, void *buf, uint64_t count)
{
	struct fixture *f = arg;
	if (address < BASE || address + count > BASE + sizeof(f->mem) ||
	    address + count < address)
		return irs_error_fault(address, "cannot access memory at "
				       "0x%llx", (unsigned long long)address);
	memcpy(buf, f->mem.bytes + (address - BASE), count);
	return NULL;
}

static struct irs_error *
fake_type_size(void *arg, const char *type, uint64_t *ret)
{
	(void)arg;
	if (strcmp(type, "Node"))
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no type %s", type);
	*ret = sizeof(struct node);
	return NULL;
}

static struct irs_error *
fake_field(void *arg, const char *type, const char *path,
	   struct irs_field_info *ret)
{
	(void)arg;
	memset(ret, 0, sizeof(*ret));
	if (!strcmp(type, "Node") && !strcmp(path, "value")) {
		ret->offset = offsetof(struct node, value);
		ret->size = 4;
		ret->kind = IRS_TYPE_UINT;
		strcpy(ret->type_name, "uint32_t");
		return NULL;
	}
	if (!strcmp(type, "Node") && !strcmp(path, "next")) {
		ret->offset = offsetof(struct node, next);
		ret->size = 8;
		ret->kind = IRS_TYPE_POINTER;
		strcpy(ret->type_name, "Node *");
		strcpy(ret->target_name, "Node");
		return NULL;
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "no field %s.%s", type,
				path);
}

static struct irs_error *
fake_frame(void *arg, uint32_t index, struct irs_frame_info *ret)
{
	struct fixture *f = arg;
	if ((int)index == f->frame_error_at)
		return irs_error_format(IRS_ERROR_IO, "frame %u: unwinder lost",
					index);
	if ((int)index >= f->nframes)
		return irs_error_format(IRS_ERROR_NOT_FOUND, "no frame %u", index);
	ret->pc = 0x401000 + index;
	if (index % 2 == 0) {	// odd frames have no debug info
		snprintf(ret->function, sizeof(ret->function), "fn%u", index);
		snprintf(ret->file, sizeof(ret->file), "passes.c");
		ret->line = 10 + index;
	}
	return NULL;
}

static void
mem_reset(struct fixture *f)
{
	for (int i = 0; i < NNODES; i++) {
		f->mem.nodes[i].value = 10 * (uint32_t)(i + 1);
		f->mem.nodes[i].next = i + 1 < NNODES ?
				 BASE + (i + 1) * sizeof(struct node) : 0;
	}
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	unit_tmpdir(f->dir, sizeof(f->dir), "session");
	mem_reset(f);
	f->t.arg = f;
	f->t.read = fake_read;
	f->t.type_size = fake_type_size;
	f->t.field = fake_field;
	f->t.frame = fake_frame;
	f->nframes = 3;
	f->frame_error_at = -1;
	struct irs_error *err = irs_layout_create(tiny_layout,
						  sizeof(tiny_layout) - 1,
						  "tiny.lua", &f->t, &f->lo);
	if (err) {
		fprintf(stderr, "layout: %s\n", err->message);
		return -1;
	}
	if (irs_memory_create_target(&f->t, &f->m))
		return -1;
	f->cfg = (struct irs_session_config){
		.dir = f->dir,
		.debugger = "fake 1.0",
		.debuggee = "/opt/my compiler/toyc",
		.args = "--passes=cse in.ir",
		.pid = 0,
		.layout_path = "/layouts/tiny.lua",
		.write_text = true,
		.write_json = true,
	};
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	irs_session_destroy(f->s);
	irs_memory_destroy(f->m);
	irs_layout_destroy(f->lo);
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

/* }====================================================================
** Helpers: reading back what the session wrote
** ===================================================================== */

static void
create(struct fixture *f)
{
	struct irs_error *err = irs_session_create(&f->cfg, f->lo, &f->s);
	if (err)
		fail_msg("create: %s", err->message);
}

static char *
run_file(const struct fixture *f, const char *rel)
{
	char *p = irs_path_join(irs_session_dir(f->s), rel);
	assert_non_null(p);
	return p;
}

// Makes @p src (a layout file named @p name) the fixture's layout.
static void
use_layout(struct fixture *f, const char *src, const char *name)
{
	struct irs_layout *lo;
	struct irs_error *err = irs_layout_create(src, strlen(src), name,
						  &f->t, &lo);
	if (err)
		fail_msg("layout: %s", err->message);
	irs_layout_destroy(f->lo);
	f->lo = lo;
}

static json_t *
load(const char *path)
{
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je);
	if (!j)
		fail_msg("%s: %s", path, je.text);
	return j;
}

// The run as readers see it: manifest.json with the events of its
// events.jsonl as "events".
static json_t *
manifest(const struct fixture *f)
{
	json_t *j;
	struct irs_event_log_info info;
	struct irs_error *err = irs_run_load(irs_session_dir(f->s), &j, &info);
	if (err)
		fail_msg("%s", err->message);
	assert_int_equal(info.torn_bytes, 0);
	assert_int_equal(info.nbad, 0);
	return j;
}

static bool
exists(const struct fixture *f, const char *rel)
{
	struct stat st;
	char *p = run_file(f, rel);
	bool ok = stat(p, &st) == 0;
	free(p);
	return ok;
}

// The run directory passes `irsnap validate` with no problem.
static void
assert_valid_dir(const char *dir)
{
	struct irs_buf out;
	uint32_t n = 0;
	irs_buf_init(&out);
	struct irs_error *err = irs_validate_path(dir, &out, &n, NULL);
	if (err)
		fail_msg("validate %s: %s", dir, err->message);
	if (n)
		fail_msg("validate %s: %u problems:\n%s", dir, n, out.data);
	irs_buf_deinit(&out);
}

static void
assert_valid(const struct fixture *f)
{
	assert_valid_dir(irs_session_dir(f->s));
}

// No "*.tmp.*" file anywhere under @p dir: every write was atomic.
static void
assert_no_temp_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (strstr(e->d_name, ".tmp."))
			fail_msg("temporary file left: %s/%s", dir, e->d_name);
		char *sub = irs_path_join(dir, e->d_name);
		struct stat st;
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			assert_no_temp_files(sub);
		free(sub);
	}
	closedir(d);
}

static uint32_t
begin(struct fixture *f, const char *pass)
{
	uint32_t seq = 0;
	struct irs_error *err = irs_session_pass_begin(f->s, f->m, pass, BASE,
						       &seq);
	if (err)
		fail_msg("begin %s: %s", pass, err->message);
	return seq;
}

static void
end(struct fixture *f, uint32_t seq)
{
	irs_memory_invalidate(f->m);	// the debuggee ran
	struct irs_error *err = irs_session_pass_end(f->s, f->m, seq);
	if (err)
		fail_msg("end %u: %s", seq, err->message);
}

static const char *
jstr(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* }====================================================================
** CPU time and names
** ===================================================================== */

static double
cpu_of(int64_t pid)
{
	double t = -1;
	struct irs_error *err = irs_proc_cpu_time(pid, &t);
	if (err)
		fail_msg("cpu time of %lld: %s", (long long)pid, err->message);
	return t;
}

// Our own busy loop shows up as CPU time; a sleeping child's does not.
static void
test_proc_cpu_time_counts_work_not_sleep(void **state)
{
	(void)state;
	// Burn 300 ms of our own CPU, however long that takes on a busy box.
	struct timespec p0, p1;
	volatile unsigned long x = 0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p0);
	double t0 = cpu_of(getpid());
	do {
		for (int i = 0; i < 1000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p1);
	} while ((p1.tv_sec - p0.tv_sec) * 1e9 + (p1.tv_nsec - p0.tv_nsec)
		 < 3e8);
	double spent = cpu_of(getpid()) - t0;
	assert_true(spent >= 0.29 && spent <= 0.35);

	// Finer than the 10 ms clock tick: 3 ms of our CPU reads as 3 ms.
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p0);
	t0 = cpu_of(getpid());
	do {
		for (int i = 0; i < 1000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p1);
	} while ((p1.tv_sec - p0.tv_sec) * 1e9 + (p1.tv_nsec - p0.tv_nsec)
		 < 3e6);
	spent = cpu_of(getpid()) - t0;
	assert_true(spent >= 0.0025 && spent <= 0.0045);

	pid_t child = fork();
	if (child == 0) {
		sleep(5);
		_exit(0);
	}
	double c0 = cpu_of(child);
	usleep(300000);
	assert_true(cpu_of(child) - c0 < 0.05);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

// No process: an error naming the /proc file; pid 0 is a state error.
static void
test_proc_cpu_time_errors(void **state)
{
	(void)state;
	double t;
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);	// reaped: the pid is free now
	struct irs_error *err = irs_proc_cpu_time(child, &t);
	assert_non_null(err);
	char want[64];
	snprintf(want, sizeof(want), "/proc/%d/stat", (int)child);
	assert_non_null(strstr(err->message, want));
	irs_error_destroy(err);
	err = irs_proc_cpu_time(0, &t);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_STATE);
	irs_error_destroy(err);
}

// A thread stopped at a breakpoint (int3 under ptrace, as a debugger has
// it): its stack pointer, from the kernel, lies in the frame it stopped
// in; a process that is gone has none.
static void
test_proc_thread_sp(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t child = fork();
	if (child == 0) {
		uint64_t frame = (uint64_t)(uintptr_t)__builtin_frame_address(0);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		if (write(fds[1], &frame, sizeof(frame)) != sizeof(frame))
			_exit(1);
#if defined(__x86_64__)
		__asm__ volatile("int3");
#else
		raise(SIGTRAP);
#endif
		_exit(0);
	}
	uint64_t frame = 0, sp = 0;
	assert_int_equal(read(fds[0], &frame, sizeof(frame)), sizeof(frame));
	close(fds[0]);
	close(fds[1]);
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFSTOPPED(status));
	uint64_t pc = 0;
	assert_true(irs_proc_thread_sp(NULL, child, (uint64_t)child, &sp,
				       &pc));
	assert_true(sp <= frame && frame - sp < 4096);
	// the pc where it stopped: in this test's own code
	assert_true(pc > (uint64_t)(uintptr_t)test_proc_thread_sp &&
		    pc - (uint64_t)(uintptr_t)test_proc_thread_sp < 4096);
#if defined(__x86_64__)
	// its tracer reads the same sp and pc among its registers; a thread
	// this process does not trace (its own) has none to give
	uint64_t regs[IRS_PROC_NREGS];
	assert_true(irs_proc_thread_regs((uint64_t)child, regs));
	assert_int_equal(regs[7], sp);
	assert_int_equal(regs[16], pc);
	assert_false(irs_proc_thread_regs((uint64_t)getpid(), regs));
	assert_false(irs_proc_thread_regs(0, regs));
#endif
	// kept open: the same answer read again, and none once it is gone
	struct irs_proc_sp keep = { 0, 0, -1 };
	uint64_t again = 0;
	assert_true(irs_proc_thread_sp(&keep, child, (uint64_t)child, &again,
				       NULL));
	assert_int_equal(keep.pid, child);
	assert_true(irs_proc_thread_sp(&keep, child, (uint64_t)child, &again,
				       NULL));
	assert_int_equal(again, sp);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	assert_false(irs_proc_thread_sp(&keep, child, (uint64_t)child, &sp,
					NULL));
	assert_int_equal(keep.pid, 0);	// closed, not kept on a dead thread
	assert_false(irs_proc_thread_sp(NULL, child, (uint64_t)child, &sp,
					NULL));
	assert_false(irs_proc_thread_sp(NULL, 0, 1, &sp, NULL));
	assert_false(irs_proc_thread_sp(NULL, getpid(), 0, &sp, NULL));
	irs_proc_sp_close(&keep);
}

struct code_at {
	uint64_t pc;
	char path[4096], perms[8];
};

static bool
holds_pc(const struct irs_proc_mapping *m, void *arg)
{
	struct code_at *w = arg;
	if (w->pc < m->start || w->pc >= m->end)
		return false;
	snprintf(w->path, sizeof(w->path), "%s", m->path);
	snprintf(w->perms, sizeof(w->perms), "%s", m->perms);
	return true;
}

// /proc/PID/maps as irs_proc_mappings() gives it: this test's own code
// lies in an executable mapping of this test's file, which is also among
// the ranges nothing writes; a process that is gone has no mappings.
static void
test_proc_mappings(void **state)
{
	(void)state;
	struct code_at w = { .pc = (uint64_t)(uintptr_t)test_proc_mappings };
	bool found = false;
	assert_null(irs_proc_mappings(getpid(), holds_pc, &w, &found));
	assert_true(found);
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = 0;
	assert_string_equal(w.path, self);
	assert_string_equal(w.perms, "r-xp");
	struct irs_proc_range *r;
	size_t nr;
	assert_null(irs_proc_fixed_ranges(getpid(), &r, &nr));
	bool fixed = false;
	for (size_t i = 0; i < nr; i++)
		fixed = fixed || (r[i].start <= w.pc && w.pc < r[i].end);
	free(r);
	assert_true(fixed);
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	struct irs_error *err = irs_proc_mappings(child, holds_pc, &w, &found);
	assert_non_null(err);
	assert_false(found);
	irs_error_destroy(err);
}

// A child forked while the pool's maker runs has none: it makes its
// files itself (take says none), and ending the pool there neither waits
// for a thread it does not have nor takes a lock that thread may hold.
static void
test_file_pool_in_a_forked_child(void **state)
{
	(void)state;
	char dir[64];
	struct irs_file_pool *p;
	unit_tmpdir(dir, sizeof(dir), "pool");
	assert_null(irs_file_pool_create(dir, 16, &p));
	int fd = irs_file_pool_take(p);
	assert_true(fd >= 0);
	close(fd);
	fflush(NULL);
	pid_t child = fork();
	if (child == 0) {
		bool ok = irs_file_pool_take(p) == -1;
		irs_file_pool_destroy(p);
		_exit(ok ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	fd = irs_file_pool_take(p);	// the parent's pool goes on
	assert_true(fd >= 0);
	close(fd);
	irs_file_pool_destroy(p);
	rmdir(dir);
}

static void
assert_name(uint32_t seq, const char *pass, const char *phase,
	    const char *ext, const char *want)
{
	char *got = irs_rundir_snapshot_name(seq, pass, phase, ext);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

// Pass names become one safe file name whatever bytes they hold.
static void
test_snapshot_names_are_safe(void **state)
{
	(void)state;
	assert_name(1, "cse", "before", "ir", "snapshots/0001-cse.before.ir");
	assert_name(12, "loop-unroll.v2", "after", "json",
		    "snapshots/0012-loop-unroll.v2.after.json");
	assert_name(3, "a/b c\xc3\xa9", "crash", "ir",
		    "snapshots/0003-a_b_c__.crash.ir");
	assert_name(4, "../../etc", "before", "ir",
		    "snapshots/0004-.._.._etc.before.ir");
	assert_name(5, "", "before", "ir", "snapshots/0005-_.before.ir");
	assert_name(12345, "x", "after", "ir", "snapshots/12345-x.after.ir");
	char long_name[300];
	memset(long_name, 'p', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	char *got = irs_rundir_snapshot_name(1, long_name, "before", "json");
	assert_true(strlen(strrchr(got, '/') + 1) < 255);
	free(got);
}

// Quoting survives a real shell: the words the reducer gets are exactly
// the debuggee path (with its space), the options and {}.
static void
test_reduce_command_survives_the_shell(void **state)
{
	(void)state;
	char *cmd = irs_failure_reduce_command("{exe} --passes={pass} {input}",
					       "/opt/my compiler/toyc", NULL,
					       "it's", "/r/0001-x.before.ir");
	assert_non_null(cmd);
	assert_string_equal(cmd, "irsnap reduce /r/0001-x.before.ir --crash "
			    "''\\''/opt/my compiler/toyc'\\'' "
			    "--passes='\\''it'\\''\\'\\'''\\''s'\\'' {}'");
	// Run it with `irsnap` printing its arguments, then run the --crash
	// command the same way.
	char script[1024];
	snprintf(script, sizeof(script),
		 "irsnap() { printf '[%%s]' \"$@\"; }; %s", cmd);
	char *argv_sh[] = { "sh", "-c", script, NULL };
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		execvp("sh", argv_sh);
		_exit(127);
	}
	close(pfd[1]);
	char out[1024] = "";
	ssize_t n = read(pfd[0], out, sizeof(out) - 1);
	close(pfd[0]);
	waitpid(pid, NULL, 0);
	assert_true(n > 0);
	out[n] = '\0';
	assert_string_equal(out, "[reduce][/r/0001-x.before.ir][--crash]"
			    "['/opt/my compiler/toyc' --passes='it'\\''s' {}]");
	free(cmd);
}

// reduce { input = "program" }: the program is the first word that is
// neither an option nor an option's value, as {flags} tells them apart.
static void
assert_program(const char *args, const char *want)
{
	char *p = irs_failure_program(args);
	if (want) {
		assert_non_null(p);
		assert_string_equal(p, want);
	} else {
		assert_null(p);
	}
	free(p);
}

static void
test_failure_program(void **state)
{
	(void)state;
	assert_program("-jdump=i,/tmp/d prog.lua 10", "prog.lua");
	assert_program("-O3 -e 'x = 1' prog.lua", "prog.lua");
	assert_program("prog.lua -e", "prog.lua");
	assert_program("-v 'a b.lua'", "a b.lua");
	assert_program("-v -- prog.lua", NULL);
	assert_program("-v", NULL);
	assert_program("", NULL);
	assert_program(NULL, NULL);
	assert_program("'unterminated", NULL);
}

// {flags} keeps the debuggee's one-word options (toyc --bug=crash must
// stay --bug=crash for the input to crash again), drops options that
// take the next word as their value and those the template sets itself,
// and quotes what needs it.
static void
assert_flags(const char *args, const char *want)
{
	char *cmd = irs_failure_reduce_command(
		"{exe} {flags} --passes={pass} {input}", "/b/toyc", args,
		"cse", "/r/in.ir");
	assert_non_null(cmd);
	assert_string_equal(cmd, want);
	free(cmd);
}

static void
test_reduce_command_flags(void **state)
{
	(void)state;
	assert_flags("--bug=crash demo.ir", "irsnap reduce /r/in.ir --crash "
		     "'/b/toyc --bug=crash --passes=cse {}'");
	// The program's own --passes is the template's business.
	assert_flags("--passes=dce,cse --bug=crash -v demo.ir",
		     "irsnap reduce /r/in.ir --crash "
		     "'/b/toyc --bug=crash -v --passes=cse {}'");
	// -o takes out.ir: neither goes; --verify before -o stays.
	assert_flags("--verify -o out.ir demo.ir", "irsnap reduce /r/in.ir "
		     "--crash '/b/toyc --verify --passes=cse {}'");
	assert_flags("demo.ir -o out.ir", "irsnap reduce /r/in.ir --crash "
		     "'/b/toyc --passes=cse {}'");
	// Nothing after "--" is an option; no flags leave no double space.
	assert_flags("demo.ir -- -x", "irsnap reduce /r/in.ir --crash "
		     "'/b/toyc --passes=cse {}'");
	assert_flags(NULL, "irsnap reduce /r/in.ir --crash "
		     "'/b/toyc --passes=cse {}'");
	// A flag with a space, as GDB's `show args` escapes it, is quoted.
	assert_flags("--name=a\\ b demo.ir", "irsnap reduce /r/in.ir --crash "
		     "'/b/toyc '\\''--name=a b'\\'' --passes=cse {}'");
}

/* }====================================================================
** Run directories
** ===================================================================== */

static bool
is_run_id(const char *id)
{
	int n = 0;
	unsigned pid;
	return sscanf(id, "%*8[0-9]-%*6[0-9]-%u%n", &pid, &n) == 1 &&
	       (id[n] == '\0' || id[n] == '-');
}

// A new session: a uniquely named run directory, a valid manifest saying
// "running", `latest` pointing at it, no temporary files.
static void
test_create_writes_valid_run(void **state)
{
	struct fixture *f = *state;
	create(f);
	const char *dir = irs_session_dir(f->s);
	assert_true(dir[0] == '/');
	assert_memory_equal(dir, f->dir, strlen(f->dir));
	const char *id = strrchr(dir, '/') + 1;
	assert_true(is_run_id(id));
	// Permissions as mkdir gives them (not a temporary folder's 0700).
	mode_t um = umask(022);
	umask(um);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0777 & ~um);
	assert_valid(f);
	json_t *m = manifest(f);
	assert_string_equal(jstr(m, "status"), "running");
	assert_string_equal(jstr(m, "run_id"), id);
	assert_string_equal(jstr(m, "debugger"), "fake 1.0");
	assert_string_equal(jstr(json_object_get(m, "layout"), "name"), "tiny");
	assert_true(json_is_null(json_object_get(json_object_get(m, "debuggee"),
						 "pid")));
	assert_int_equal(json_array_size(json_object_get(m, "events")), 0);
	json_decref(m);
	char link[256], *latest = irs_path_join(f->dir, "latest");
	ssize_t n = readlink(latest, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, id);
	free(latest);
	assert_no_temp_files(f->dir);
}

// Sessions started within one second by one process get "-1", "-2", ...
// and `latest` follows the newest.
static void
test_run_ids_are_unique(void **state)
{
	struct fixture *f = *state;
	struct irs_session *s[3];
	f->cfg.pid = 4242;
	for (int i = 0; i < 3; i++)
		assert_null(irs_session_create(&f->cfg, f->lo, &s[i]));
	const char *id0 = strrchr(irs_session_dir(s[0]), '/') + 1;
	for (int i = 1; i < 3; i++) {
		const char *id = strrchr(irs_session_dir(s[i]), '/') + 1;
		assert_true(is_run_id(id));
		assert_string_not_equal(id, id0);
		assert_string_not_equal(id, strrchr(irs_session_dir(s[3 - i]),
						    '/') + 1);
	}
	char link[256], *latest = irs_path_join(f->dir, "latest");
	ssize_t n = readlink(latest, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	assert_string_equal(link, strrchr(irs_session_dir(s[2]), '/') + 1);
	free(latest);
	for (int i = 0; i < 3; i++)
		irs_session_destroy(s[i]);
	assert_no_temp_files(f->dir);
}

// While runs are created one after another, a reader always finds
// `latest` pointing at a run with a manifest: the link is replaced, never
// removed and made again.
static void
test_latest_is_never_missing(void **state)
{
	struct fixture *f = *state;
	create(f);		// a first run, so `latest` exists
	// Its session's file maker thread ends before the fork: a child
	// forked while a thread starts can inherit ASan's allocator locked
	// (the sanitized test_session hung in the child's first malloc).
	irs_session_destroy(f->s);
	f->s = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 40; i++) {
			struct irs_session *s;
			if (irs_session_create(&f->cfg, f->lo, &s))
				_exit(1);
			irs_session_destroy(s);
		}
		_exit(0);
	}
	char *man = irs_path_join(f->dir, "latest/manifest.json");
	int misses = 0, looks = 0, status;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		struct stat st;
		misses += stat(man, &st) != 0;
		looks++;
	}
	free(man);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(looks > 0);
	assert_int_equal(misses, 0);
	assert_no_temp_files(f->dir);
}

// No dir in the config: $IRSNAP_DIR decides (created if missing).
static void
test_dir_from_environment(void **state)
{
	struct fixture *f = *state;
	char *env = irs_path_join(f->dir, "from-env/deeper");
	setenv("IRSNAP_DIR", env, 1);
	f->cfg.dir = NULL;
	create(f);
	unsetenv("IRSNAP_DIR");
	assert_memory_equal(irs_session_dir(f->s), env, strlen(env));
	free(env);
}

// An output root that cannot be made is one clear error naming it.
static void
test_unwritable_root_is_an_error(void **state)
{
	struct fixture *f = *state;
	char *file = irs_path_join(f->dir, "a-file");
	assert_null(irs_file_write(file, "x", 1));
	char *under = irs_path_join(file, "out");
	f->cfg.dir = under;
	struct irs_session *s = NULL;
	struct irs_error *err = irs_session_create(&f->cfg, f->lo, &s);
	assert_non_null(err);
	assert_null(s);
	assert_int_equal(err->code, IRS_ERROR_IO);
	assert_non_null(strstr(err->message, file));
	irs_error_destroy(err);
	free(under);
	free(file);
}

/* }====================================================================
** Pass events
** ===================================================================== */

// Every event leaves a valid manifest naming files that exist; the text is
// the IR; an after event knows whether the pass changed it.
static void
test_events_keep_the_run_valid(void **state)
{
	struct fixture *f = *state;
	create(f);
	uint32_t s1 = begin(f, "constfold");
	assert_int_equal(s1, 1);
	assert_valid(f);
	f->mem.nodes[1].value = 99;			// the pass changes the IR
	end(f, s1);
	assert_valid(f);
	uint32_t s2 = begin(f, "dce");
	assert_int_equal(s2, 2);
	end(f, s2);				// unchanged
	assert_valid(f);

	json_t *m = manifest(f);
	json_t *evs = json_object_get(m, "events");
	assert_int_equal(json_array_size(evs), 4);
	const char *phases[] = { "before", "after", "before", "after" };
	for (size_t i = 0; i < 4; i++) {
		json_t *ev = json_array_get(evs, i);
		assert_string_equal(jstr(ev, "phase"), phases[i]);
		assert_int_equal(json_integer_value(json_object_get(ev, "seq")),
				 i / 2 + 1);
		assert_int_equal(json_integer_value(json_object_get(ev, "nodes")),
				 NNODES);
	}
	json_t *a1 = json_array_get(evs, 1), *a2 = json_array_get(evs, 3);
	assert_true(json_is_true(json_object_get(a1, "changed")));
	assert_true(json_is_false(json_object_get(a2, "changed")));
	assert_string_equal(jstr(json_object_get(a1, "snapshot"), "text"),
			    "snapshots/0001-constfold.after.ir");
	assert_true(exists(f, "snapshots/0002-dce.after.ir"));
	// The text is the IR as the layout renders it, before and after.
	char *p = run_file(f, "snapshots/0001-constfold.after.ir"), *text;
	assert_null(irs_file_read(p, &text, NULL));
	assert_string_equal(text, "node 10\nnode 99\nnode 30\n");
	free(text);
	free(p);
	json_decref(m);
	assert_no_temp_files(f->dir);
}

// Passes nest: an inner pass begun and ended inside an outer one.
static void
test_nested_passes(void **state)
{
	struct fixture *f = *state;
	create(f);
	uint32_t outer = begin(f, "module-pm");
	uint32_t inner = begin(f, "fn-pass");
	end(f, inner);
	end(f, outer);
	assert_valid(f);
	struct irs_error *err = irs_session_pass_end(f->s, f->m, outer);
	assert_non_null(err);		// already ended
	assert_int_equal(err->code, IRS_ERROR_STATE);
	irs_error_destroy(err);
	err = irs_session_pass_end(f->s, f->m, 77);
	assert_non_null(err);
	irs_error_destroy(err);
}

// --changed-only: an unchanged pass leaves no after files and says so.
static void
test_changed_only_skips_unchanged(void **state)
{
	struct fixture *f = *state;
	f->cfg.changed_only = true;
	create(f);
	uint32_t s1 = begin(f, "dce");
	end(f, s1);
	uint32_t s2 = begin(f, "cse");
	f->mem.nodes[0].value = 1;
	end(f, s2);
	assert_valid(f);
	assert_false(exists(f, "snapshots/0001-dce.after.ir"));
	assert_false(exists(f, "snapshots/0001-dce.after.json"));
	assert_true(exists(f, "snapshots/0002-cse.after.ir"));
	json_t *m = manifest(f);
	json_t *evs = json_object_get(m, "events");
	json_t *a1 = json_array_get(evs, 1);
	assert_true(json_is_null(json_object_get(a1, "snapshot")));
	assert_true(json_is_false(json_object_get(a1, "changed")));
	assert_true(json_is_true(json_object_get(json_object_get(m, "options"),
						 "changed_only")));
	json_decref(m);
}

/* {====================================================================
** Snapshots of unchanged memory are copies of the last walk's files
** ===================================================================== */

static char *
read_run_file(const struct fixture *f, const char *rel)
{
	char *p = run_file(f, rel), *text = NULL;
	struct irs_error *err = irs_file_read(p, &text, NULL);
	if (err)
		fail_msg("%s: %s", p, err->message);
	free(p);
	return text;
}

static json_t *
load_run_file(const struct fixture *f, const char *rel)
{
	char *p = run_file(f, rel);
	json_t *j = load(p);
	free(p);
	return j;
}

// Event @p i of the manifest's "same_as", as "SEQ PHASE", or "-".
// Whether run files @p a and @p b are one file (hard links of it).
static bool
one_file(const struct fixture *f, const char *a, const char *b)
{
	struct stat sa, sb;
	char *pa = run_file(f, a), *pb = run_file(f, b);
	bool same = stat(pa, &sa) == 0 && stat(pb, &sb) == 0 &&
		    sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev;
	free(pa);
	free(pb);
	return same;
}

static void
same_as(const struct fixture *f, size_t i, char *out, size_t n)
{
	json_t *m = manifest(f);
	json_t *sa = json_object_get(json_array_get(json_object_get(m,
						"events"), i), "same_as");
	if (sa)
		snprintf(out, n, "%lld %s", (long long)json_integer_value(
				 json_object_get(sa, "seq")), jstr(sa, "phase"));
	else
		snprintf(out, n, "-");
	json_decref(m);
}

// Between one pass's after and the next one's before nothing ran: the
// before is the after's files, not a second walk, and says so.
static void
test_unchanged_memory_is_copied(void **state)
{
	struct fixture *f = *state;
	char sa[64];
	create(f);
	uint32_t s1 = begin(f, "constfold");
	f->mem.nodes[1].value = 99;
	end(f, s1);
	struct irs_memory_stats before, after;
	irs_memory_get_stats(f->m, &before);
	uint32_t s2 = begin(f, "dce");
	irs_memory_get_stats(f->m, &after);
	assert_int_equal(after.misses, before.misses);	// no walk: no fill
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "1 after");
	char *a = read_run_file(f, "snapshots/0001-constfold.after.ir");
	char *b = read_run_file(f, "snapshots/0002-dce.before.ir");
	assert_string_equal(a, "node 10\nnode 99\nnode 30\n");
	assert_string_equal(b, a);
	free(a);
	free(b);
	// The JSON is the same graph, naming its own text file.
	json_t *ja = load_run_file(f, "snapshots/0001-constfold.after.json");
	json_t *jb = load_run_file(f, "snapshots/0002-dce.before.json");
	assert_string_equal(jstr(jb, "text_file"), "0002-dce.before.ir");
	assert_int_equal(json_object_set_new(jb, "text_file",
			 json_string("0001-constfold.after.ir")), 0);
	assert_true(json_equal(ja, jb));
	json_decref(ja);
	json_decref(jb);
	// The pass changes nothing: its after is a copy too, unchanged.
	end(f, s2);
	same_as(f, 3, sa, sizeof(sa));
	assert_string_equal(sa, "1 after");
	json_t *m = manifest(f);
	json_t *a2 = json_array_get(json_object_get(m, "events"), 3);
	assert_true(json_is_false(json_object_get(a2, "changed")));
	assert_int_equal(json_integer_value(json_object_get(a2, "nodes")),
			 NNODES);
	json_decref(m);
	assert_valid(f);
	assert_no_temp_files(f->dir);
}

// Any byte the last walk read that changed, rendered or not, means a
// walk: the copy is only ever of what a walk would write.
static void
test_changed_memory_is_walked(void **state)
{
	struct fixture *f = *state;
	char sa[64];
	create(f);
	end(f, begin(f, "constfold"));
	f->mem.nodes[2].value = 7;		// ran between the passes
	uint32_t s2 = begin(f, "dce");
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	char *b = read_run_file(f, "snapshots/0002-dce.before.ir");
	assert_string_equal(b, "node 10\nnode 20\nnode 7\n");
	free(b);
	f->mem.nodes[0].pad = 1;		// read, never rendered
	end(f, s2);
	same_as(f, 3, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	// A page the walk read that became unreadable is a change too.
	uint32_t s3 = begin(f, "cse");
	same_as(f, 4, sa, sizeof(sa));
	assert_string_equal(sa, "2 after");
	f->mem.nodes[2].next = BASE + sizeof(f->mem) + 64;
	end(f, s3);
	same_as(f, 5, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	assert_valid(f);
}

// A pass's scratch buffers share pages with the IR: bytes on those pages
// that the walk never read changing is no change when the walk was of
// one unit, its root (text only, the unit cache's bytes); a byte it read
// is. With the JSON graph (no unit cache) the pages decide, as before.
static void
test_scratch_beside_the_ir_is_no_change(void **state)
{
	struct fixture *f = *state;
	char sa[64];
	f->cfg.write_json = false;
	create(f);
	uint32_t s1 = begin(f, "constfold");
	f->mem.bytes[1000] = 0x5a;		// scratch, same page, not read
	end(f, s1);
	same_as(f, 1, sa, sizeof(sa));
	assert_string_equal(sa, "1 before");
	assert_true(one_file(f, "snapshots/0001-constfold.before.ir",
			     "snapshots/0001-constfold.after.ir"));
	// the next before: the pages as they are now match
	uint32_t s2 = begin(f, "dce");
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "1 before");
	f->mem.bytes[1001] = 0x5a;
	f->mem.nodes[1].value = 21;		// and the IR itself
	end(f, s2);
	same_as(f, 3, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	char *text = read_run_file(f, "snapshots/0002-dce.after.ir");
	assert_string_equal(text, "node 10\nnode 21\nnode 30\n");
	free(text);
	// read, never rendered: still a change
	uint32_t s3 = begin(f, "cse");
	f->mem.nodes[0].pad = 3;
	end(f, s3);
	same_as(f, 5, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	assert_valid(f);
	assert_no_temp_files(f->dir);
}

// With the JSON graph, no unit cache: a scratch byte on the IR's page is
// a walk, as it always was.
static void
test_scratch_with_json_is_walked(void **state)
{
	struct fixture *f = *state;
	char sa[64];
	create(f);
	uint32_t s1 = begin(f, "constfold");
	f->mem.bytes[1000] = 0x5a;
	end(f, s1);
	same_as(f, 1, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	assert_valid(f);
}

// The files to copy are gone (deleted by hand): the session walks.
static void
test_missing_files_are_walked(void **state)
{
	struct fixture *f = *state;
	char sa[64];
	create(f);
	uint32_t s1 = begin(f, "constfold");
	f->mem.nodes[0].value = 3;
	end(f, s1);
	char *p = run_file(f, "snapshots/0001-constfold.after.json");
	assert_int_equal(unlink(p), 0);
	free(p);
	begin(f, "dce");
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	assert_true(exists(f, "snapshots/0002-dce.before.json"));
	assert_no_temp_files(f->dir);
}

// --changed-only deletes an unchanged after: later copies come from the
// files that are still there.
static void
test_changed_only_copies_what_is_kept(void **state)
{
	struct fixture *f = *state;
	char sa[64];
	f->cfg.changed_only = true;
	create(f);
	end(f, begin(f, "dce"));		// unchanged: after deleted
	assert_false(exists(f, "snapshots/0001-dce.after.ir"));
	uint32_t s2 = begin(f, "cse");
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "1 before");
	char *a = read_run_file(f, "snapshots/0001-dce.before.ir");
	char *b = read_run_file(f, "snapshots/0002-cse.before.ir");
	assert_string_equal(b, a);
	free(a);
	free(b);
	f->mem.nodes[0].value = 5;
	end(f, s2);
	uint32_t s3 = begin(f, "gvn");
	same_as(f, 4, sa, sizeof(sa));
	assert_string_equal(sa, "2 after");
	end(f, s3);
	assert_valid(f);
}

// A layout that renders with Lua may depend on more than memory: such a
// layout is walked every time.
static void
test_lua_rendering_is_always_walked(void **state)
{
	struct fixture *f = *state;
	static const char lua_layout[] =
		"layout { name = \"tiny\", root = \"Node\" }\n"
		"struct \"Node\" {\n"
		"  fields = { value = scalar \"value\", next = ptr(\"next\", \"Node\") },\n"
		"  text = function(n) return \"node \" .. n.value .. \"\\n\" end,\n"
		"}\n";
	use_layout(f, lua_layout, "lua.lua");
	char sa[64];
	create(f);
	end(f, begin(f, "constfold"));
	begin(f, "dce");
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	char *b = read_run_file(f, "snapshots/0002-dce.before.ir");
	assert_string_equal(b, "node 10\n");
	free(b);
}

// A pure function's node table reads the fields the function asks for,
// no more: memory only a field it leaves alone points to (a value
// behind a pointer the text never shows) changing between two passes
// leaves the next snapshot a copy (issue 27 item 11: the table read every
// field, and no before-snapshot was a copy).
static void
test_pure_lua_reads_only_what_it_uses(void **state)
{
	struct fixture *f = *state;
	static const char lua_layout[] =
		"layout { name = \"tiny\", root = \"Node\" }\n"
		"struct \"Val\" { ctype = \"Node\", node = false,\n"
		"  fields = { v = scalar \"value\" } }\n"
		"struct \"Node\" {\n"
		"  fields = { value = scalar \"value\", more = ptr(\"next\", "
		"\"Val\"),\n"
		"             twice = computed(pure(function(n) return n.value "
		"* 2 end)) },\n"
		"  text = \"{twice}\\n\",\n"
		"}\n";
	use_layout(f, lua_layout, "pure.lua");
	// what `more` points to lies in a read-ahead window of its own;
	// text only (a trace's default), as the JSON record has every field
	f->mem.nodes[0].next = BASE + 0x20000;
	f->cfg.write_json = false;
	char sa[64];
	create(f);
	end(f, begin(f, "constfold"));
	f->mem.bytes[0x20000] = 77;	// ran between the passes
	uint32_t s2 = begin(f, "dce");
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "1 before");
	char *b = read_run_file(f, "snapshots/0002-dce.before.ir");
	assert_string_equal(b, "20\n");
	free(b);
	f->mem.nodes[0].value = 4;	// what it uses: a walk
	end(f, s2);
	same_as(f, 3, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	b = read_run_file(f, "snapshots/0002-dce.after.ir");
	assert_string_equal(b, "8\n");
	free(b);
}

// A layout whose Lua text is declared pure renders from memory alone, as
// it promised: unchanged memory is copied, changed memory walked again.
static void
test_pure_lua_rendering_is_copied(void **state)
{
	struct fixture *f = *state;
	static const char lua_layout[] =
		"layout { name = \"tiny\", root = \"Node\" }\n"
		"struct \"Node\" {\n"
		"  fields = { value = scalar \"value\", next = ptr(\"next\", \"Node\"),\n"
		"             twice = computed(pure(function(n) return n.value * 2 end)) },\n"
		"  text = pure(function(n) return \"node \" .. n.value * 2 .. \"\\n\" end),\n"
		"}\n";
	use_layout(f, lua_layout, "pure.lua");
	char sa[64];
	create(f);
	end(f, begin(f, "constfold"));
	uint32_t s2 = begin(f, "dce");
	same_as(f, 1, sa, sizeof(sa));		// constfold changed nothing
	assert_string_equal(sa, "1 before");
	same_as(f, 2, sa, sizeof(sa));
	assert_string_equal(sa, "1 before");
	char *b = read_run_file(f, "snapshots/0002-dce.before.ir");
	assert_string_equal(b, "node 20\n");
	free(b);
	f->mem.nodes[0].value = 4;
	end(f, s2);
	same_as(f, 3, sa, sizeof(sa));
	assert_string_equal(sa, "-");
	b = read_run_file(f, "snapshots/0002-dce.after.ir");
	assert_string_equal(b, "node 8\n");
	free(b);
}

static char *
file_text(const struct fixture *f, const char *rel)
{
	char *p = run_file(f, rel), *text = NULL;
	if (irs_file_read(p, &text, NULL))
		text = NULL;
	free(p);
	return text;
}

// Each event is one line of events.jsonl, jansson's compact rendering of
// the event and a newline, appended in order; a verifier's result on an
// event begun long before is that event again, a later line the readers
// put in its place. manifest.json is not written per event (here never
// between the start and the end): the summary it gives at the end counts
// the lines.
static void
test_event_lines_are_the_events(void **state)
{
	struct fixture *f = *state;
	setenv("IRSNAP_MANIFEST_PERIOD", "1e9", 1);
	create(f);
	unsetenv("IRSNAP_MANIFEST_PERIOD");
	char *mpath = run_file(f, "manifest.json");
	char *first = file_text(f, "manifest.json");
	uint32_t outer = begin(f, "module-pm");
	for (int i = 0; i < 5; i++) {
		uint32_t seq = begin(f, "fn-pass");
		f->mem.nodes[i % NNODES].value += 1;
		end(f, seq);
	}
	assert_null(irs_session_verified(f->s, outer, "toyc_verify", 1,
					 "a \"quoted\"\nline\n"));
	char *still = file_text(f, "manifest.json");
	assert_string_equal(first, still);	// 12 lines later
	end(f, outer);
	assert_null(irs_session_finish(f->s, 0));

	char *log = file_text(f, "events.jsonl");
	size_t nlines = 0;
	for (char *line = log, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		nlines++;
		json_error_t je;
		json_t *ev = json_loadb(line, (size_t)(nl - line), 0, &je);
		assert_non_null(ev);
		char *want = json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER |
					JSON_REAL_PRECISION(10));
		assert_int_equal(strlen(want), (size_t)(nl - line));
		assert_memory_equal(want, line, strlen(want));
		free(want);
		json_decref(ev);
	}
	assert_int_equal(nlines, 13);	// 12 events and the outer one's
	assert_int_equal(log[strlen(log) - 1], '\n');	// before again
	json_t *m = manifest(f);
	json_t *evs = json_object_get(m, "events");
	assert_int_equal(json_array_size(evs), 12);
	json_t *outer_before = json_array_get(evs, 0);
	assert_string_equal(jstr(outer_before, "pass"), "module-pm");
	assert_int_equal(json_array_size(json_object_get(outer_before,
							 "verifiers")), 1);
	json_t *sum = json_object_get(m, "summary");
	assert_int_equal(json_integer_value(json_object_get(sum, "events")), 13);
	assert_int_equal(json_integer_value(json_object_get(sum, "passes")), 6);
	assert_string_equal(jstr(m, "schema"), "irsnap.manifest/2");
	assert_string_equal(jstr(m, "status"), "completed");
	// when each event was recorded, in the order they were
	double last = 0;
	size_t i;
	json_t *ev;
	json_array_foreach(evs, i, ev) {
		double at = json_number_value(json_object_get(ev, "at_s"));
		assert_true(json_is_real(json_object_get(ev, "at_s")));
		assert_true(at >= last);
		last = at;
	}
	json_decref(m);
	free(log);
	free(first);
	free(still);
	free(mpath);
	assert_valid(f);
}

// Only the formats asked for are written and named.
static void
test_text_only_format(void **state)
{
	struct fixture *f = *state;
	f->cfg.write_json = false;
	create(f);
	end(f, begin(f, "dce"));
	assert_valid(f);
	assert_true(exists(f, "snapshots/0001-dce.before.ir"));
	assert_false(exists(f, "snapshots/0001-dce.before.json"));
	json_t *m = manifest(f);
	json_t *snap = json_object_get(json_array_get(json_object_get(m, "events"),
						      0), "snapshot");
	assert_null(json_object_get(snap, "json"));
	json_decref(m);
}

// The CPU time of a live debuggee between begin and end is recorded.
static void
test_cpu_time_of_a_live_debuggee(void **state)
{
	struct fixture *f = *state;
	int go[2], done[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	pid_t child = fork();
	if (child == 0) {	// burns 250 ms of CPU once told to, then waits
		char c;
		struct timespec p0, p1;
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p0);
		volatile unsigned long x = 0;
		do {
			for (int i = 0; i < 1000; i++)
				x += (unsigned long)i;
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p1);
		} while ((p1.tv_sec - p0.tv_sec) * 1e9 +
			 (p1.tv_nsec - p0.tv_nsec) < 2.5e8);
		if (write(done[1], "d", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	f->cfg.pid = child;
	create(f);
	uint32_t seq = begin(f, "slow-pass");
	char c;
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(read(done[0], &c, 1), 1);
	end(f, seq);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	json_t *m = manifest(f);
	json_t *evs = json_object_get(m, "events");
	assert_true(json_is_null(json_object_get(json_array_get(evs, 0),
						 "cpu_s")));
	double cpu = json_number_value(json_object_get(json_array_get(evs, 1),
						       "cpu_s"));
	assert_true(cpu >= 0.25 && cpu <= 0.3);
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(m, "debuggee"), "pid")), child);
	json_decref(m);
	char *status;
	assert_null(irs_session_status(f->s, &status));
	assert_non_null(strstr(status, "0001 slow-pass"));
	assert_non_null(strstr(status, " ms"));
	irs_free(status);
}

// Verifier results go to the latest event of their seq.
static void
test_verifier_results_attach(void **state)
{
	struct fixture *f = *state;
	create(f);
	uint32_t seq = begin(f, "cse");
	assert_null(irs_session_verified(f->s, seq, "pre", 0, NULL));
	end(f, seq);
	assert_null(irs_session_verified(f->s, seq, "toyc_verify", 2,
					 "bad use\nbad def\n"));
	assert_valid(f);
	json_t *m = manifest(f);
	json_t *evs = json_object_get(m, "events");
	json_t *vb = json_object_get(json_array_get(evs, 0), "verifiers");
	json_t *va = json_object_get(json_array_get(evs, 1), "verifiers");
	assert_int_equal(json_array_size(vb), 1);
	assert_int_equal(json_array_size(va), 1);
	assert_string_equal(jstr(json_array_get(va, 0), "name"), "toyc_verify");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(va, 0),
							    "problems")), 2);
	assert_string_equal(jstr(json_array_get(va, 0), "output"),
			    "bad use\nbad def\n");
	json_decref(m);
	struct irs_error *err = irs_session_verified(f->s, 9, "x", 0, NULL);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_STATE);
	irs_error_destroy(err);
}

// Bad calls are errors, not crashes, and leave nothing behind.
static void
test_bad_begin_calls(void **state)
{
	struct fixture *f = *state;
	uint32_t seq = 0;
	create(f);
	struct irs_error *err = irs_session_pass_begin(f->s, f->m, NULL, BASE,
						       &seq);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_USAGE);
	irs_error_destroy(err);
	// An unreadable root: the walk fails, no event, no file.
	err = irs_session_pass_begin(f->s, f->m, "cse", 0xdead0000, &seq);
	assert_non_null(err);
	irs_error_destroy(err);
	assert_int_equal(seq, 0);
	assert_false(exists(f, "snapshots/0001-cse.before.ir"));
	json_t *m = manifest(f);
	assert_int_equal(json_array_size(json_object_get(m, "events")), 0);
	json_decref(m);
	// The next good event is still seq 1.
	assert_int_equal(begin(f, "cse"), 1);
	assert_valid(f);
}

static void
test_finish_completes_the_run(void **state)
{
	struct fixture *f = *state;
	create(f);
	end(f, begin(f, "dce"));
	assert_null(irs_session_finish(f->s, 3));
	assert_valid(f);
	json_t *m = manifest(f);
	assert_string_equal(jstr(m, "status"), "completed");
	assert_int_equal(json_integer_value(json_object_get(m, "exit_status")), 3);
	json_decref(m);
}

/* }====================================================================
** Failure reports
** ===================================================================== */

static json_t *
failure_doc(const struct fixture *f)
{
	char *p = run_file(f, "failure.json");
	json_t *j = load(p);
	free(p);
	return j;
}

// The bytes of file @p path, whole (NUL-terminated); freed with free().
static char *
slurp_file(const char *path, size_t *len)
{
	char *text = NULL;
	struct irs_error *err = irs_file_read(path, &text, len);
	if (err)
		fail_msg("%s: %s", path, err->message);
	return text;
}

// Format auto (write_json off, failure_json on): a crash in a pass whose
// IR the pass has already changed still gets the JSON graph of the pass's
// input, from the bytes kept at its entry, the same bytes a walk at the
// entry writes; the before event names it; the crash gets its graph too;
// the run validates.
static void
test_failure_graph_of_the_input(void **state)
{
	struct fixture *f = *state;
	f->cfg.write_json = false;
	f->cfg.failure_json = true;
	create(f);
	end(f, begin(f, "dce"));
	uint32_t seq = begin(f, "cse");
	assert_false(exists(f, "snapshots/0002-cse.before.json"));
	// The pass rewrites the IR before it dies: a new value, a shorter list.
	f->mem.nodes[0].value = 99;
	f->mem.nodes[1].next = 0;
	irs_memory_invalidate(f->m);
	struct irs_failure_info info = {
		.kind = "signal", .signo = 11, .signame = "SIGSEGV",
		.ir_root = BASE,
	};
	assert_null(irs_session_failure(f->s, &f->t, f->m, &info));
	assert_valid(f);
	json_t *d = failure_doc(f);
	assert_string_equal(jstr(json_object_get(d, "before_snapshot"), "json"),
			    "snapshots/0002-cse.before.json");
	assert_string_equal(jstr(json_object_get(d, "crash_snapshot"), "json"),
			    "snapshots/0002-cse.crash.json");
	json_decref(d);
	json_t *m = manifest(f);
	json_t *ev = json_array_get(json_object_get(m, "events"), 2);
	assert_int_equal(json_integer_value(json_object_get(ev, "seq")), seq);
	assert_string_equal(jstr(json_object_get(ev, "snapshot"), "json"),
			    "snapshots/0002-cse.before.json");
	json_decref(m);
	assert_false(exists(f, "snapshots/0001-dce.before.json"));

	// What a walk of the entry's IR writes, both formats.
	mem_reset(f);
	irs_memory_invalidate(f->m);
	char want[128];
	snprintf(want, sizeof(want), "%s/want.json", f->dir);
	struct irs_snapshot *snap;
	assert_null(irs_snapshot_write_json(f->lo, f->m, BASE, NULL,
					    &f->cfg.limits, want,
					    "0002-cse.before.ir", &snap));
	irs_snapshot_destroy(snap);
	size_t nw, ng;
	char *w = slurp_file(want, &nw);
	char *gp = run_file(f, "snapshots/0002-cse.before.json");
	char *g = slurp_file(gp, &ng);
	assert_int_equal(ng, nw);
	assert_memory_equal(g, w, nw);
	assert_non_null(strstr(g, "\"value\":10"));	// not the crash's 99
	free(w);
	free(g);
	free(gp);
	unlink(want);
}

// Live memory apart from the fixture's: 64 KiB at FAR, 0xee each (its
// first page, below, is memory nobody writes, as the program's .rodata).
#define FAR 0x900000u

static struct irs_error *
far_read(void *arg, uint64_t address, void *buf, uint64_t count)
{
	(void)arg;
	if (address < FAR || address + count > FAR + 0x10000)
		return irs_error_fault(address, "nothing at 0x%llx",
				       (unsigned long long)address);
	memset(buf, 0xee, count);
	return NULL;
}

// The bytes kept at a pass's entry (format auto's image) read as they
// were kept; a byte not kept reads from the live memory only inside the
// fixed ranges (issue 32, 10: a field the text did not show, a char *
// into .rodata, read as "unreadable" in the failure's graph), and
// anywhere else it faults saying it was not kept, not "unreadable".
static void
test_image_reads_fixed_memory_only(void **state)
{
	struct fixture *f = *state;
	struct irs_mem_print p = {0};
	uint8_t buf[8];
	irs_memory_record(f->m, &p);
	assert_null(irs_memory_read(f->m, BASE, buf, 4));
	irs_memory_record(f->m, NULL);
	struct irs_image *img;
	assert_null(irs_image_capture(f->m, &p, NULL, &img));
	irs_mem_print_deinit(&p);
	f->mem.nodes[0].value = 99;		// the pass changes the IR

	struct irs_target far = { .read = far_read };
	struct irs_memory *live, *im;
	assert_null(irs_memory_create_target(&far, &live));
	const struct irs_proc_range fixed[] = {{FAR, FAR + 4096}};
	assert_null(irs_image_memory(img, live, fixed, 1, &im));
	uint32_t v;
	assert_null(irs_memory_read(im, BASE, &v, 4));
	assert_int_equal(v, 10);		// as kept, not the 99
	assert_null(irs_memory_read(im, FAR + 100, buf, 8));
	assert_int_equal(buf[7], 0xee);		// fixed: read now
	struct irs_error *err = irs_memory_read(im, FAR + 4096, buf, 8);
	assert_non_null(err);			// live, but may change
	assert_int_equal(err->address, FAR + 4096);
	if (!strstr(err->message, "not kept from the pass's entry (format "
		    "auto keeps what its text read; format both keeps every "
		    "field)"))
		fail_msg("%s", err->message);
	irs_error_destroy(err);
	irs_memory_destroy(im);
	assert_null(irs_image_memory(img, NULL, NULL, 0, &im));
	err = irs_memory_read(im, FAR + 100, buf, 8);	// no live memory
	assert_non_null(err);
	irs_error_destroy(err);
	irs_memory_destroy(im);
	irs_memory_destroy(live);
	irs_image_unref(img);
}

// Format text (failure_json off): a failure writes no graph at all.
static void
test_failure_text_only(void **state)
{
	struct fixture *f = *state;
	f->cfg.write_json = false;
	create(f);
	begin(f, "cse");
	struct irs_failure_info info = {
		.kind = "signal", .signo = 11, .signame = "SIGSEGV",
		.ir_root = BASE,
	};
	assert_null(irs_session_failure(f->s, &f->t, f->m, &info));
	assert_valid(f);
	assert_true(exists(f, "snapshots/0001-cse.crash.ir"));
	assert_false(exists(f, "snapshots/0001-cse.before.json"));
	assert_false(exists(f, "snapshots/0001-cse.crash.json"));
}

// A copy of the previous after (same_as) is a hard link to its text.
static void
test_copy_is_a_hard_link(void **state)
{
	struct fixture *f = *state;
	create(f);
	end(f, begin(f, "dce"));
	begin(f, "cse");
	assert_true(one_file(f, "snapshots/0001-dce.after.ir",
			     "snapshots/0002-cse.before.ir"));
	json_t *m = manifest(f);
	json_t *ev = json_array_get(json_object_get(m, "events"), 2);
	assert_non_null(json_object_get(ev, "same_as"));
	json_decref(m);
	assert_valid(f);
}

// A crash inside a traced pass: signal, pass and seq, backtrace, the before
// snapshot, a crash snapshot, a reduce command; the manifest says failed.
static void
test_signal_failure_report(void **state)
{
	struct fixture *f = *state;
	create(f);
	end(f, begin(f, "dce"));
	uint32_t seq = begin(f, "cse");
	struct irs_failure_info info = {
		.kind = "signal", .signo = 11, .signame = "SIGSEGV",
		.ir_root = BASE,
	};
	assert_null(irs_session_failure(f->s, &f->t, f->m, &info));
	assert_valid(f);
	json_t *m = manifest(f);
	assert_string_equal(jstr(m, "status"), "failed");
	assert_string_equal(jstr(m, "failure"), "failure.json");
	json_decref(m);

	json_t *d = failure_doc(f);
	assert_string_equal(jstr(d, "kind"), "signal");
	json_t *sig = json_object_get(d, "signal");
	assert_int_equal(json_integer_value(json_object_get(sig, "number")), 11);
	assert_string_equal(jstr(sig, "name"), "SIGSEGV");
	json_t *pass = json_object_get(d, "pass");
	assert_string_equal(jstr(pass, "name"), "cse");
	assert_int_equal(json_integer_value(json_object_get(pass, "seq")), seq);
	json_t *bt = json_object_get(d, "backtrace");
	assert_int_equal(json_array_size(bt), 3);
	assert_string_equal(jstr(json_array_get(bt, 0), "function"), "fn0");
	assert_string_equal(jstr(json_array_get(bt, 0), "pc"), "0x401000");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(bt, 2),
							    "line")), 12);
	assert_true(json_is_null(json_object_get(json_array_get(bt, 1),
						 "function")));
	assert_null(json_object_get(d, "backtrace_error"));
	assert_string_equal(jstr(json_object_get(d, "before_snapshot"), "text"),
			    "snapshots/0002-cse.before.ir");
	json_t *crash = json_object_get(d, "crash_snapshot");
	assert_string_equal(jstr(crash, "text"), "snapshots/0002-cse.crash.ir");
	assert_int_equal(json_array_size(json_object_get(crash, "walk_errors")), 0);
	assert_true(exists(f, "snapshots/0002-cse.crash.ir"));
	char want[512];
	snprintf(want, sizeof(want), "irsnap reduce %s/snapshots/0002-cse."
		 "before.ir --crash ''\\''/opt/my compiler/toyc'\\'' "
		 "--passes=cse {}'", irs_session_dir(f->s));
	assert_string_equal(jstr(d, "reduce_command"), want);
	json_decref(d);
	char *status;
	assert_null(irs_session_status(f->s, &status));
	assert_non_null(strstr(status, "failure.json"));
	irs_free(status);
	// A later finish keeps the run failed.
	assert_null(irs_session_finish(f->s, 139));
	m = manifest(f);
	assert_string_equal(jstr(m, "status"), "failed");
	json_decref(m);
}

// The IR at the crash is unreadable: the report still comes, with the walk
// error in place of the crash snapshot.
static void
test_crash_snapshot_of_broken_ir(void **state)
{
	struct fixture *f = *state;
	create(f);
	begin(f, "cse");
	struct irs_failure_info info = {
		.kind = "signal", .signo = 6, .signame = "SIGABRT",
		.ir_root = 0xdead0000,
	};
	assert_null(irs_session_failure(f->s, &f->t, f->m, &info));
	assert_valid(f);
	json_t *d = failure_doc(f);
	json_t *crash = json_object_get(d, "crash_snapshot");
	assert_true(json_is_null(json_object_get(crash, "text")));
	json_t *errs = json_object_get(crash, "walk_errors");
	assert_int_equal(json_array_size(errs), 1);
	assert_non_null(strstr(json_string_value(json_array_get(errs, 0)),
			       "0xdead0000"));
	assert_false(exists(f, "snapshots/0001-cse.crash.ir"));
	json_decref(d);
}

// A verifier failure after the pass returned: kind verifier, the message,
// the pass's before snapshot; no crash snapshot without an IR root.
static void
test_verifier_failure_report(void **state)
{
	struct fixture *f = *state;
	create(f);
	uint32_t seq = begin(f, "cse");
	end(f, seq);
	struct irs_failure_info info = {
		.kind = "verifier", .pass = "cse",
		.message = "toyc_verify: use before def",
	};
	assert_null(irs_session_failure(f->s, &f->t, f->m, &info));
	assert_valid(f);
	json_t *d = failure_doc(f);
	assert_string_equal(jstr(d, "kind"), "verifier");
	assert_true(json_is_null(json_object_get(d, "signal")));
	assert_string_equal(jstr(d, "message"), "toyc_verify: use before def");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(d, "pass"), "seq")), seq);
	assert_true(json_is_null(json_object_get(d, "crash_snapshot")));
	json_decref(d);
}

// A crash outside any traced pass: no pass, no snapshots, no command.
static void
test_failure_outside_passes(void **state)
{
	struct fixture *f = *state;
	create(f);
	end(f, begin(f, "dce"));
	struct irs_failure_info info = {
		.kind = "signal", .signo = 11, .signame = "SIGSEGV",
	};
	assert_null(irs_session_failure(f->s, NULL, f->m, &info));
	assert_valid(f);
	json_t *d = failure_doc(f);
	assert_true(json_is_null(json_object_get(d, "pass")));
	assert_true(json_is_null(json_object_get(d, "before_snapshot")));
	assert_true(json_is_null(json_object_get(d, "reduce_command")));
	assert_int_equal(json_array_size(json_object_get(d, "backtrace")), 0);
	assert_non_null(jstr(d, "backtrace_error"));
	json_decref(d);
}

// The backtrace stops at 64 frames, and at an unwinder error (recorded).
static void
test_backtrace_limits(void **state)
{
	struct fixture *f = *state;
	struct irs_failure_info info = { .kind = "signal", .signo = 11 };
	create(f);
	f->nframes = 1000;
	assert_null(irs_session_failure(f->s, &f->t, f->m, &info));
	json_t *d = failure_doc(f);
	assert_int_equal(json_array_size(json_object_get(d, "backtrace")), 64);
	json_decref(d);
	f->frame_error_at = 5;
	assert_null(irs_session_failure(f->s, &f->t, f->m, &info));
	assert_valid(f);
	d = failure_doc(f);
	assert_int_equal(json_array_size(json_object_get(d, "backtrace")), 5);
	assert_non_null(strstr(jstr(d, "backtrace_error"), "unwinder lost"));
	json_decref(d);
}

static void
test_failure_kind_is_checked(void **state)
{
	struct fixture *f = *state;
	create(f);
	struct irs_failure_info no_signo = { .kind = "signal" };
	struct irs_failure_info odd = { .kind = "explosion", .signo = 11 };
	struct irs_error *err = irs_session_failure(f->s, &f->t, f->m, &no_signo);
	assert_non_null(err);
	assert_int_equal(err->code, IRS_ERROR_USAGE);
	irs_error_destroy(err);
	err = irs_session_failure(f->s, &f->t, f->m, &odd);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "explosion"));
	irs_error_destroy(err);
	assert_false(exists(f, "failure.json"));
}

/* }====================================================================
** Full disk and SIGKILL
** ===================================================================== */

// Runs @p fn(f) in a child with a file size limit of @p limit bytes and
// SIGXFSZ ignored, so writes past it fail with EFBIG as on a full disk.
// The child exits 0 when fn returns true.
static int
with_file_limit(struct fixture *f, rlim_t limit,
		bool (*fn)(struct fixture *f))
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl = { limit, limit };
		setrlimit(RLIMIT_FSIZE, &rl);
		_exit(fn(f) ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}


// What the error of begin_on_full_disk() must say, and whether the
// manifest stays as it was (it names the lost snapshot when it can).
static const char *full_disk_want;
static bool full_disk_manifest_same;

// In the child: a pass whose snapshot or event line cannot be written
// gives an error naming the file and changes nothing in the log.
static bool
begin_on_full_disk(struct fixture *f)
{
	char *before = file_text(f, "manifest.json");
	char *log = file_text(f, "events.jsonl");
	uint32_t seq = 0;
	f->mem.nodes[0].value = 123456789;	// a longer text than before
	struct irs_error *err = irs_session_pass_begin(f->s, f->m, "licm", BASE,
						       &seq);
	bool ok = err && err->code == IRS_ERROR_IO && seq == 0 &&
		  strstr(err->message, irs_session_dir(f->s)) &&
		  strstr(err->message, full_disk_want);
	if (!ok)
		fprintf(stderr, "child: %s\n", err ? err->message : "no error");
	irs_error_destroy(err);
	char *after = file_text(f, "manifest.json");
	char *log_after = file_text(f, "events.jsonl");
	ok = ok && before && after && log && log_after &&
	     !strcmp(log, log_after) &&
	     (!full_disk_manifest_same || !strcmp(before, after)) &&
	     (full_disk_manifest_same || strstr(after, "\"lost\"")) &&
	     (full_disk_manifest_same || strstr(after, "licm"));
	free(before);
	free(after);
	free(log);
	free(log_after);
	return ok;
}

static void
test_full_disk_keeps_the_log(void **state)
{
	struct fixture *f = *state;
	create(f);
	// a log longer than a snapshot's JSON (about a kilobyte)
	for (int i = 0; i < 4; i++)
		end(f, begin(f, "dce"));
	// Room for the snapshots but not the event line: the error names
	// the log, which keeps its lines whole; the manifest says what
	// was lost.
	char *log = file_text(f, "events.jsonl");
	size_t llen = strlen(log);
	free(log);
	full_disk_want = "/events.jsonl: write failed: File too large";
	full_disk_manifest_same = false;
	assert_int_equal(with_file_limit(f, llen + 10, begin_on_full_disk), 0);
	assert_valid(f);
	assert_no_temp_files(f->dir);
	assert_false(exists(f, "snapshots/0005-licm.before.ir"));
	// The snapshot's own files: the error names the one that could not
	// be written, and why. Its text is tens of bytes, its JSON about a
	// kilobyte: 8 bytes stop the text, 200 only the JSON.
	full_disk_manifest_same = true;
	full_disk_want = "/snapshots/0005-licm.before.ir: write failed: "
			 "File too large";
	assert_int_equal(with_file_limit(f, 8, begin_on_full_disk), 0);
	assert_valid(f);
	assert_no_temp_files(f->dir);
	full_disk_want = "/snapshots/0005-licm.before.json: write failed: "
			 "File too large";
	assert_int_equal(with_file_limit(f, 200, begin_on_full_disk), 0);
	assert_valid(f);
	assert_no_temp_files(f->dir);
	assert_false(exists(f, "snapshots/0005-licm.before.ir"));
	// With room again, the session goes on where it was.
	assert_int_equal(begin(f, "licm"), 5);
	assert_valid(f);
}

// In the child: failure.json cannot be written.
static bool
failure_on_full_disk(struct fixture *f)
{
	char *before = file_text(f, "manifest.json");
	struct irs_failure_info info = { .kind = "signal", .signo = 11,
					 .ir_root = BASE };
	struct irs_error *err = irs_session_failure(f->s, &f->t, f->m, &info);
	bool ok = err && strstr(err->message, "File too large");
	irs_error_destroy(err);
	char *after = file_text(f, "manifest.json");
	ok = ok && before && after && !strcmp(before, after);
	free(before);
	free(after);
	return ok;
}

static void
test_full_disk_during_failure(void **state)
{
	struct fixture *f = *state;
	create(f);
	begin(f, "cse");
	assert_int_equal(with_file_limit(f, 200, failure_on_full_disk), 0);
	assert_valid(f);
	assert_false(exists(f, "failure.json"));
	assert_false(exists(f, "snapshots/0001-cse.crash.ir"));
	assert_no_temp_files(f->dir);
}

// Whether @p dir holds a run directory yet.
static bool
has_run(const char *dir)
{
	DIR *d = opendir(dir);
	bool found = false;
	for (struct dirent *e; d && !found && (e = readdir(d));)
		found = is_run_id(e->d_name);
	if (d)
		closedir(d);
	return found;
}

// A child traces passes as fast as it can; we SIGKILL it at assorted
// moments. Whatever moment it died at, the run directory is valid and
// names only files that exist.
static void
test_sigkill_leaves_valid_run(void **state)
{
	struct fixture *f = *state;
	for (int round = 0; round < 12; round++) {
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			struct irs_session *s;
			if (irs_session_create(&f->cfg, f->lo, &s))
				_exit(2);
			for (uint32_t i = 0; ; i++) {
				uint32_t seq;
				f->mem.nodes[i % NNODES].value = i;
				if (irs_session_pass_begin(s, f->m, "p", BASE, &seq))
					_exit(3);
				irs_memory_invalidate(f->m);
				if (irs_session_pass_end(s, f->m, seq))
					_exit(4);
			}
		}
		usleep(2000 + (useconds_t)round * 3000);
		// The last one dies mid-trace, once its run has a name, however
		// slow the machine (a sanitized build on a loaded one named none
		// within 35 ms in all twelve rounds)
		for (int ms = 0; round == 11 && ms < 10000 && !has_run(f->dir);
		     ms++)
			usleep(1000);
		if (round == 11)
			usleep(5000);
		kill(pid, SIGKILL);
		int status;
		waitpid(pid, &status, 0);
		assert_true(WIFSIGNALED(status));
	}
	// Every run directory made (the latest one, and all the others); a
	// child killed before its run got a name left a hidden staging
	// directory instead, never a run without a manifest
	DIR *d = opendir(f->dir);
	struct dirent *e;
	int nruns = 0, nstaged = 0;
	while ((e = readdir(d))) {
		nstaged += !strncmp(e->d_name, ".new-", 5);
		if (!is_run_id(e->d_name))
			continue;
		char *run = irs_path_join(f->dir, e->d_name);
		assert_valid_dir(run);
		free(run);
		nruns++;
	}
	closedir(d);
	// (a child killed before it got that far left nothing at all)
	assert_true(nruns + nstaged <= 12);
	assert_true(nruns >= 1);
	assert_valid_dir(f->dir);	// through latest
}

/* }==================================================================== */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_cpu_time_counts_work_not_sleep),
		cmocka_unit_test(test_proc_cpu_time_errors),
		cmocka_unit_test(test_proc_thread_sp),
		cmocka_unit_test(test_proc_mappings),
		cmocka_unit_test(test_snapshot_names_are_safe),
		cmocka_unit_test(test_reduce_command_survives_the_shell),
		cmocka_unit_test(test_reduce_command_flags),
		cmocka_unit_test(test_failure_program),
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_create_writes_valid_run),
		T(test_run_ids_are_unique),
		T(test_latest_is_never_missing),
		T(test_dir_from_environment),
		T(test_unwritable_root_is_an_error),
		T(test_events_keep_the_run_valid),
		T(test_nested_passes),
		T(test_changed_only_skips_unchanged),
		T(test_text_only_format),
		T(test_event_lines_are_the_events),
		T(test_unchanged_memory_is_copied),
		T(test_pure_lua_rendering_is_copied),
		T(test_pure_lua_reads_only_what_it_uses),
		T(test_changed_memory_is_walked),
		T(test_scratch_beside_the_ir_is_no_change),
		T(test_scratch_with_json_is_walked),
		cmocka_unit_test(test_file_pool_in_a_forked_child),
		T(test_missing_files_are_walked),
		T(test_changed_only_copies_what_is_kept),
		T(test_lua_rendering_is_always_walked),
		T(test_cpu_time_of_a_live_debuggee),
		T(test_verifier_results_attach),
		T(test_bad_begin_calls),
		T(test_finish_completes_the_run),
		T(test_signal_failure_report),
		T(test_failure_graph_of_the_input),
		T(test_failure_text_only),
		T(test_image_reads_fixed_memory_only),
		T(test_copy_is_a_hard_link),
		T(test_crash_snapshot_of_broken_ir),
		T(test_verifier_failure_report),
		T(test_failure_outside_passes),
		T(test_backtrace_limits),
		T(test_failure_kind_is_checked),
		T(test_full_disk_keeps_the_log),
		T(test_full_disk_during_failure),
		T(test_sigkill_leaves_valid_run),
#undef T
	};
	return cmocka_run_group_tests_name("session", tests, NULL, NULL);
}
