// An in-process benchmark of the walk (not part of `make test`): builds a
// toyc module of N instructions with toyc's generator in this process,
// then snapshots it R times as text, text + JSON, or JSON, and prints CPU
// time, wall time, nodes/s and the growth of peak RSS during each dump.
// Memory is read as a debugger front end would: through the process
// reader (process_vm_readv on ourselves, as GDB's ir-dump reads the
// debuggee), or with --target through the read callback. With --units,
// text walks keep a per-unit render cache as a text-only trace does: the
// first walk records every function, the later ones (nothing changed)
// emit them from it; -o then names a real file (default
// /tmp/walk_bench.ir), written as a trace's snapshots are. With --fork
// (implied by --units, whose page hashes would see the walk's own heap
// change) the reader reads a forked, waiting copy of this process, as a
// debugger reads its debuggee.
//
// build/bench/walk_bench [-n N] [-s SEED] [-r R] [-f text|both|json]
//     [-o PATH] [-l LAYOUT] [--target] [--check] [--units] [--record]
//     [--fork]
// (--record: --units, but every walk records, as after a pass that
// changed every function)
// (run from the source tree, or with IRSNAP_ROOT set to it).
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/run.h"
#include "toyc.h"
#include "toyc_fake.h"
#include "unit_util.h"

static double
clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

// The kB figure of /proc/self/status's line @p key ("VmRSS:"); -1 when
// there is none.
static long
status_kb(const char *key)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, key, strlen(key)))
			kb = atol(line + strlen(key));
	if (fp)
		fclose(fp);
	return kb;
}

// Peak resident set since the last reset_peak(), in kB.
static long
peak_kb(void)
{
	return status_kb("VmHWM:");
}

static long
rss_kb(void)
{
	return status_kb("VmRSS:");
}

static void
reset_peak(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "5", 1) != 1)
			perror("clear_refs");
		close(fd);
	}
}

static void
bench_die(struct irs_error *err, const char *what)
{
	fprintf(stderr, "walk_bench: %s: %s\n", what, err->message);
	exit(1);
}

int
main(int argc, char **argv)
{
	uint64_t n = 1000000, seed = 1;
	int reps = 5;
	const char *format = "text", *out = "/dev/null", *layout = NULL;
	bool target = false, check = false, units = false, fork_copy = false;
	bool record = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-f") && i + 1 < argc)
			format = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-l") && i + 1 < argc)
			layout = argv[++i];
		else if (!strcmp(argv[i], "--target"))
			target = true;
		else if (!strcmp(argv[i], "--units"))
			units = fork_copy = true;
		else if (!strcmp(argv[i], "--record"))
			units = fork_copy = record = true;
		else if (!strcmp(argv[i], "--fork"))
			fork_copy = true;
		else if (!strcmp(argv[i], "--check"))
			check = true;
		else {
			fprintf(stderr, "usage: walk_bench [-n N] [-s SEED] "
				"[-r R] [-f text|both|json] [-o PATH] "
				"[-l LAYOUT] [--target] [--check] [--units] [--record] [--fork]\n");
			return 2;
		}
	}
	struct fake_target ft;
	struct irs_layout *lo;
	struct irs_error *err;
	char path[4096];
	fake_target_init(&ft);
	toyc_fake_register(&ft);
	if (!layout)
		layout = toyc_fake_path("tests/fixtures/toyc/toyc.lua", path,
					sizeof(path));
	if ((err = irs_layout_load(layout, &ft.target, &lo)))
		bench_die(err, "toyc.lua");
	// The copy forks before the module is made and makes its own, at the
	// same addresses (the same allocations from the same heap), so that
	// nothing this process writes later is shared with it. It sends its
	// module's address and waits to be killed (at the latest when this
	// process ends).
	pid_t child = 0;
	int fds[2];
	if (fork_copy && (pipe(fds) || (child = fork()) < 0)) {
		perror("walk_bench: fork");
		return 1;
	}
	if (fork_copy && !child)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	Module *m = unit_generated_module(n, seed);
	if (fork_copy && !child) {
		uintptr_t at = (uintptr_t)m;
		if (write(fds[1], &at, sizeof(at)) != sizeof(at))
			_exit(1);
		for (;;)
			pause();
	}
	if (fork_copy) {
		uintptr_t at = 0;
		if (read(fds[0], &at, sizeof(at)) != sizeof(at) ||
		    at != (uintptr_t)m) {
			fprintf(stderr, "walk_bench: the copy's module is not "
				"at this one's address\n");
			kill(child, SIGKILL);
			return 1;
		}
	}
	if (!m)
		return 1;

	// toyc's own printer, the baseline
	FILE *fp = fopen(out, "w");
	double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	toyc_print(m, fp);
	fclose(fp);
	double c_print = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("toyc_print: %.3f s CPU\n", c_print);

	struct irs_memory *mem;
	if (target)
		err = irs_memory_create_target(&ft.target, &mem);
	else
		err = irs_memory_create_pid(child ? child : getpid(), &mem);
	if (err)
		bench_die(err, "memory");
	bool text = strcmp(format, "json") != 0;
	bool json = strcmp(format, "text") != 0;
	struct irs_unit_cache *ucache = NULL;
	if (units) {
		const struct ltype *ut;
		if (json || !lo->nunits)
			bench_die(irs_error_format(IRS_ERROR_USAGE, "--units "
				  "needs -f text and a layout with units"),
				  "units");
		if ((err = irs_layout_type_for(lo, lo->units[0], &ut)) ||
		    (err = irs_unit_cache_create(lo, ut->index, &ucache)))
			bench_die(err, "units");
		if (!strcmp(out, "/dev/null"))
			out = "/tmp/walk_bench.ir";
	}
	char jpath[4200];
	snprintf(jpath, sizeof(jpath), "%s%s", out,
		 strcmp(out, "/dev/null") ? ".json" : "");
	for (int r = 0; r < reps; r++) {
		irs_memory_invalidate(mem);
		if (record)
			irs_unit_cache_forget(ucache);
		FILE *tf = text && !ucache ? fopen(out, "w") : NULL;
		FILE *jf = json ? fopen(jpath, "w") : NULL;
		struct irs_snapshot *snap;
		long rss0 = rss_kb();
		reset_peak();
		double w0 = clock_s(CLOCK_MONOTONIC);
		c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		const char *base = strrchr(out, '/');
		if (ucache)
			err = irs_snapshot_write_units(lo, mem, (uintptr_t)m,
						       NULL, NULL, out, NULL,
						       ucache, &snap);
		else
			err = irs_snapshot_stream(lo, mem, (uintptr_t)m, NULL,
						  NULL, tf, jf, text ? (base ?
						  base + 1 : out) : NULL,
						  &snap);
		double c = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
		double w = clock_s(CLOCK_MONOTONIC) - w0;
		long peak = peak_kb();
		if (err)
			bench_die(err, "walk");
		if (tf)
			fclose(tf);
		if (jf)
			fclose(jf);
		struct irs_snapshot_stats st;
		irs_snapshot_get_stats(snap, &st);
		irs_snapshot_destroy(snap);
		if (ucache) {
			uint64_t reused, walked;
			irs_unit_cache_stats(ucache, &reused, &walked);
			printf("units: %llu from the cache, %llu walked; ",
			       (unsigned long long)reused,
			       (unsigned long long)walked);
		}
		printf("%s: %llu nodes, %.1f MB text, %.1f MB JSON: %.3f s CPU"
		       " (%.2fx toyc_print), %.3f s wall, %.0f nodes/s CPU, "
		       "peak RSS +%.1f MB, %u errors\n", format,
		       (unsigned long long)st.nodes, st.text_bytes / 1e6,
		       st.json_bytes / 1e6, c, c / c_print, w, st.nodes / c,
		       (peak - rss0) / 1024.0, st.nerrors);
		fflush(stdout);
	}
	if (check && text) {
		// the text must be toyc's, byte for byte
		char *want, *got;
		size_t wlen;
		FILE *mf = open_memstream(&want, &wlen);
		toyc_print(m, mf);
		fclose(mf);
		struct irs_snapshot *snap;
		irs_memory_invalidate(mem);
		if ((err = irs_snapshot_text(lo, mem, (uintptr_t)m, NULL, NULL,
					     &got, &snap)))
			bench_die(err, "walk");
		bool same = strlen(got) == wlen && !memcmp(got, want, wlen);
		printf("check: text %s toyc_print\n", same ? "==" : "!=");
		irs_snapshot_destroy(snap);
		free(got);
		free(want);
		if (!same)
			return 1;
	}
	irs_unit_cache_destroy(ucache);
	irs_memory_destroy(mem);
	if (child) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	module_destroy(m);
	irs_layout_destroy(lo);
	fake_target_deinit(&ft);
	return 0;
}
