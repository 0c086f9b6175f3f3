// irsnap donor LAYOUT: builds the layout's type donor with the system C++
// compiler into the cache layout/donor.c reads (see there). This is the one
// place irsnap compiles a donor: the user runs it, a layout never does.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "layout/layout.h"
#include "tools/tools.h"

extern char **environ;

// The compiler's absolute path, found on PATH as execvp would.
static bool
which(const char *cxx, char out[PATH_MAX])
{
	if (strchr(cxx, '/'))
		return realpath(cxx, out) != NULL;
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		char cand[4096];
		snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, p, cxx);
		if (access(cand, X_OK) == 0 && realpath(cand, out))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

// Runs @p argv, its stdout into @p out_path (NULL: inherited); returns its
// exit status, or -1 when it could not be started.
static int
run(char *const *argv, const char *out_path)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status;
	posix_spawn_file_actions_init(&fa);
	if (out_path)
		posix_spawn_file_actions_addopen(&fa, 1, out_path,
						 O_WRONLY | O_CREAT | O_TRUNC,
						 0644);
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 +
		WTERMSIG(status);
}

// The first line of `CXX --version`.
static void
version_of(const char *cxx, const char *tmp, char *out, size_t len)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/version", tmp);
	char *argv[] = { (char *)cxx, "--version", NULL };
	out[0] = 0;
	if (run(argv, path) != 0)
		return;
	FILE *fp = fopen(path, "r");
	if (fp && fgets(out, (int)len, fp))
		out[strcspn(out, "\n")] = 0;
	if (fp)
		fclose(fp);
	unlink(path);
}

// The files a make rule from -MD lists ("donor.o: a.h b\ c.h \<newline>").
static struct irs_error *
stamp_deps(FILE *stamp, const char *dfile)
{
	char *text;
	size_t len;
	struct irs_error *err = irs_file_read_max(dfile, 256 << 20, false,
						  &text, &len);
	if (err)
		return err;
	char *p = strchr(text, ':');
	p = p ? p + 1 : text + len;
	char word[4096];
	size_t n = 0;
	for (;; p++) {
		bool end = !*p || *p == ' ' || *p == '\n' || *p == '\t';
		if (*p == '\\' && p[1] == '\n') {
			p++;
			end = true;
		} else if (*p == '\\' && p[1] == ' ') {
			p++;
			end = false;
		}
		if (!end) {
			if (n + 1 < sizeof(word))
				word[n++] = *p;
			continue;
		}
		if (n) {
			word[n] = 0;
			struct stat st;
			char real[4096];
			if (realpath(word, real) && !stat(real, &st))
				fprintf(stamp, "file %llu %lld.%09ld %s\n",
					(unsigned long long)st.st_size,
					(long long)st.st_mtim.tv_sec,
					st.st_mtim.tv_nsec, real);
			n = 0;
		}
		if (!*p)
			break;
	}
	free(text);
	return NULL;
}

struct irs_error *
irs_donor_build(const char *layout, const char *cxx_arg,
		const char *const *extra_inc, size_t nextra, char **obj_ret,
		double *secs_ret)
{
	struct irs_error *err;
	struct irs_donor_spec d;
	char cxx[PATH_MAX], version[512], key[17], dir[4096];
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((err = irs_layout_donor_spec(layout, &d)))
		return err;
	const char *want = cxx_arg ? cxx_arg : getenv("CXX");
	if (!want || !*want)
		want = "c++";
	if (!which(want, cxx)) {
		irs_donor_spec_deinit(&d);
		return irs_error_format(IRS_ERROR_USAGE, "no C++ compiler "
			"'%s' (give one with --cxx, e.g. --cxx clang++-14; "
			"Debian: apt-get install g++)", want);
	}
	if ((err = irs_donor_key(&d, key)) ||
	    (err = irs_donor_cache_dir(dir, sizeof(dir))) ||
	    (err = irs_mkdirs(dir))) {
		irs_donor_spec_deinit(&d);
		return err;
	}
	char tmp[4300];
	snprintf(tmp, sizeof(tmp), "%s/.build-%s-%ld", dir, d.layout_name,
		 (long)getpid());
	if ((err = irs_mkdirs(tmp))) {
		irs_donor_spec_deinit(&d);
		return err;
	}
	version_of(cxx, tmp, version, sizeof(version));
	bool clang = strstr(version, "clang") != NULL;
	char cc_key[17];
	snprintf(cc_key, sizeof(cc_key), "%016llx", (unsigned long long)
		 XXH64(version, strlen(version), XXH64(cxx, strlen(cxx), 0)));

	// the compile: DWARF of every type named, nothing else used
	char obj[4400], dfile[4400];
	snprintf(obj, sizeof(obj), "%s/donor.o", tmp);
	snprintf(dfile, sizeof(dfile), "%s/donor.d", tmp);
	size_t max = 16 + 2 * (d.ninclude + nextra) + d.nflags;
	char **argv = calloc(max, sizeof(*argv));
	char **incs = calloc(d.ninclude + nextra + 1, sizeof(*incs));
	size_t n = 0, ni = 0;
	if (!argv || !incs) {
		free(argv);
		free(incs);
		irs_donor_spec_deinit(&d);
		return &irs_enomem;
	}
	argv[n++] = cxx;
	argv[n++] = "-g";
	if (clang)	// g++ emits whole types already, and knows no such flag
		argv[n++] = "-fstandalone-debug";
	argv[n++] = "-fno-eliminate-unused-debug-types";
	for (uint32_t i = 0; i < d.nflags; i++)
		argv[n++] = d.flags[i];
	for (size_t i = 0; i < d.ninclude + nextra; i++) {
		const char *inc = i < d.ninclude ? d.include[i] :
			extra_inc[i - d.ninclude];
		if (asprintf(&incs[ni], "-I%s", inc) < 0)
			break;
		argv[n++] = incs[ni++];
	}
	argv[n++] = "-MD";
	argv[n++] = "-MF";
	argv[n++] = dfile;
	argv[n++] = "-c";
	argv[n++] = d.source;
	argv[n++] = "-o";
	argv[n++] = obj;
	argv[n] = NULL;
	int rc = run(argv, NULL);
	for (size_t i = 0; i < ni; i++)
		free(incs[i]);
	free(incs);
	free(argv);
	if (rc != 0) {
		err = irs_error_format(IRS_ERROR_FORMAT, "%s failed (exit "
			"status %d) compiling %s; its messages are above",
			cxx, rc, d.source);
		goto fail;
	}
	char stamp[4400];
	snprintf(stamp, sizeof(stamp), "%s/donor.stamp", tmp);
	FILE *fp = fopen(stamp, "w");
	if (!fp) {
		err = irs_error_format(IRS_ERROR_IO, "cannot write %s",
				       stamp);
		goto fail;
	}
	fprintf(fp, "irsnap-donor 1\nlayout %s\ncompiler %s\nversion %s\n",
		d.layout_name, cxx, version);
	struct stat st;
	if (!stat(cxx, &st))
		fprintf(fp, "file %llu %lld.%09ld %s\n",
			(unsigned long long)st.st_size,
			(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, cxx);
	err = stamp_deps(fp, dfile);
	if (fclose(fp) && !err)
		err = irs_error_format(IRS_ERROR_IO, "cannot write %s",
				       stamp);
	if (err)
		goto fail;
	unlink(dfile);
	char final[4400];
	snprintf(final, sizeof(final), "%s/%s-%s-%s", dir, d.layout_name, key,
		 cc_key);
	char old[4500];
	snprintf(old, sizeof(old), "%s.old-%ld", final, (long)getpid());
	bool had = rename(final, old) == 0;
	if (rename(tmp, final)) {
		err = irs_error_format(IRS_ERROR_IO, "cannot move %s to %s: %s",
				       tmp, final, strerror(errno));
		goto fail;
	}
	if (had) {
		char o[4600];
		snprintf(o, sizeof(o), "%s/donor.o", old);
		unlink(o);
		snprintf(o, sizeof(o), "%s/donor.stamp", old);
		unlink(o);
		rmdir(old);
	}
	irs_donor_spec_deinit(&d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*secs_ret = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (asprintf(obj_ret, "%s/donor.o", final) < 0)
		return &irs_enomem;
	return NULL;
fail:
	unlink(obj);
	unlink(dfile);
	snprintf(obj, sizeof(obj), "%s/donor.stamp", tmp);
	unlink(obj);
	rmdir(tmp);
	irs_donor_spec_deinit(&d);
	return err;
}
