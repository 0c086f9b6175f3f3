// Type donors: a C++ source shipped beside a layout, compiled with -g
// against the compiler's installed headers by `irsnap donor LAYOUT` (the
// user's command: loading a layout never runs one), whose DWARF types
// the debugger loads for a release build that has none.
//
// The cache: $IRSNAP_CACHE, else $XDG_CACHE_HOME/irsnap, else
// ~/.cache/irsnap, then donors/NAME-KEY-CC/, NAME the layout's name, KEY a
// hash of the donor source's bytes and the layout's flags and include
// directories, CC a hash of the compiler and its version. Each holds
// donor.o and donor.stamp: the compiler, and every file the compile read
// (the source and each header, from the compiler's -MD list) with its
// size and time. A donor is fresh while all of them are unchanged; so a
// newer llvm-14-dev makes it stale, and `ir-layout load` says which file
// changed and which command builds it again.
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <xxhash.h>

#include "layout/layout.h"

void
irs_donor_spec_deinit(struct irs_donor_spec *d)
{
	free(d->layout_name);
	free(d->layout_file);
	free(d->source);
	for (uint32_t i = 0; i < d->ninclude; i++)
		free(d->include[i]);
	free(d->include);
	for (uint32_t i = 0; i < d->nflags; i++)
		free(d->flags[i]);
	free(d->flags);
	free(d->fits);
	memset(d, 0, sizeof(*d));
}

struct irs_error *
irs_donor_cache_dir(char *buf, size_t len)
{
	const char *env = getenv("IRSNAP_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;
	if (env && *env)
		n = snprintf(buf, len, "%s/donors", env);
	else if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/irsnap/donors", xdg);
	else if (home && *home == '/')
		n = snprintf(buf, len, "%s/.cache/irsnap/donors", home);
	else
		return irs_error_format(IRS_ERROR_IO, "no cache directory "
					"for type donors: set IRSNAP_CACHE or "
					"HOME");
	if (n < 0 || (size_t)n >= len)
		return irs_error_format(IRS_ERROR_IO, "the cache directory's "
					"path is too long");
	return NULL;
}

struct irs_error *
irs_donor_key(const struct irs_donor_spec *d, char out[17])
{
	char *src;
	size_t len;
	struct irs_error *err = irs_file_read_max(d->source, 16 << 20, false,
						  &src, &len);
	if (err)
		return irs_error_prefix(err, "donor");
	XXH64_state_t *st = XXH64_createState();
	if (!st) {
		free(src);
		return &irs_enomem;
	}
	XXH64_reset(st, 0);
	XXH64_update(st, d->layout_name, strlen(d->layout_name) + 1);
	XXH64_update(st, src, len);
	for (uint32_t i = 0; i < d->ninclude; i++)
		XXH64_update(st, d->include[i], strlen(d->include[i]) + 1);
	XXH64_update(st, "\n", 1);
	for (uint32_t i = 0; i < d->nflags; i++)
		XXH64_update(st, d->flags[i], strlen(d->flags[i]) + 1);
	snprintf(out, 17, "%016llx", (unsigned long long)XXH64_digest(st));
	XXH64_freeState(st);
	free(src);
	return NULL;
}

// Whether the files a stamp lists are as they were: NULL when so, else
// the first that changed (freed by the caller).
static char *
stale_file(const char *stamp)
{
	char *text;
	size_t len;
	struct irs_error *err = irs_file_read_max(stamp, 64 << 20, false,
						  &text, &len);
	if (err) {
		irs_error_destroy(err);
		return strdup(stamp);
	}
	char *why = NULL;
	for (char *line = text, *next; line && *line && !why; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		unsigned long long size;
		long long sec, nsec;
		int at = 0;
		if (sscanf(line, "file %llu %lld.%lld %n", &size, &sec, &nsec,
			   &at) < 3 || !at)
			continue;
		struct stat st;
		const char *path = line + at;
		if (stat(path, &st) || (unsigned long long)st.st_size != size ||
		    st.st_mtim.tv_sec != sec || st.st_mtim.tv_nsec != nsec)
			why = strdup(path);
	}
	free(text);
	return why;
}

struct irs_error *
irs_donor_find(const struct irs_donor_spec *d, char **obj_ret)
{
	struct irs_error *err;
	char dir[4096], key[17], prefix[600];

	if ((err = irs_donor_cache_dir(dir, sizeof(dir))) ||
	    (err = irs_donor_key(d, key)))
		return err;
	snprintf(prefix, sizeof(prefix), "%s-%s-", d->layout_name, key);
	DIR *dp = opendir(dir);
	char best[4600] = "";
	int64_t best_time = -1;
	char *stale = NULL;
	for (struct dirent *e; dp && (e = readdir(dp));) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		char obj[4600], stamp[4600];
		snprintf(obj, sizeof(obj), "%s/%s/donor.o", dir, e->d_name);
		snprintf(stamp, sizeof(stamp), "%s/%s/donor.stamp", dir,
			 e->d_name);
		struct stat st;
		if (stat(obj, &st))
			continue;
		char *why = stale_file(stamp);
		if (why) {
			free(stale);
			stale = why;
			continue;
		}
		int64_t t = (int64_t)st.st_mtim.tv_sec * 1000000000 +
			    st.st_mtim.tv_nsec;
		if (t > best_time) {
			best_time = t;
			snprintf(best, sizeof(best), "%s", obj);
		}
	}
	if (dp)
		closedir(dp);
	if (*best) {
		free(stale);
		if (!(*obj_ret = strdup(best)))
			return &irs_enomem;
		return NULL;
	}
	if (stale) {
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "the type donor "
			"of layout '%s' is stale (%s changed since it was "
			"built): run `irsnap donor %s`", d->layout_name, stale,
			d->layout_file);
		free(stale);
		return err;
	}
	return irs_error_format(IRS_ERROR_NOT_FOUND, "no type donor built "
		"for layout '%s' (%s): run `irsnap donor %s`", d->layout_name,
		d->source, d->layout_file);
}
