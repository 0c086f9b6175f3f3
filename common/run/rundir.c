// Run directories: unique names, the `latest` link, snapshot file names.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/run.h"

// Pass names from C++ compilers can be long; a file name has 255 bytes.
enum { MAX_PASS_IN_NAME = 100 };

static atomic_uint link_counter;	// temporary names: latest, staging

const char *
irs_rundir_root(const char *dir)
{
	if (dir && *dir)
		return dir;
	const char *env = getenv("IRSNAP_DIR");
	return env && *env ? env : "./irsnap-out";
}

char *
irs_path_join(const char *dir, const char *rel)
{
	char *p;
	size_t n = strlen(dir);
	bool slash = n && dir[n - 1] == '/';
	if (asprintf(&p, "%s%s%s", dir, slash ? "" : "/", rel) < 0)
		return NULL;
	return p;
}

// The base name of @p path (NULL for NULL).
static const char *
base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : path;
}

// Whether @p msg begins with "@p name:".
static bool
names_first(const char *msg, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	return n && !strncmp(msg, name, n) && msg[n] == ':';
}

struct irs_error *
irs_rundir_name_error(struct irs_error *err, const char *text,
		      const char *json)
{
	if (!err || err->is_static || err->code != IRS_ERROR_IO ||
	    names_first(err->message, text) || names_first(err->message, json))
		return err;
	const struct { const char *name, *path; } calls[] = {
		{"JSON output", json}, {"text output", text},
		{base_name(json), json}, {base_name(text), text},
	};
	for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
		if (!calls[i].path || !names_first(err->message,
						   calls[i].name))
			continue;
		char *msg;
		if (asprintf(&msg, "%s%s", calls[i].path,
			     err->message + strlen(calls[i].name)) < 0)
			return err;	// the writer's words, rather than none
		free(err->message);
		err->message = msg;
		return err;
	}
	return err;
}

struct irs_error *
irs_rundir_file(const char *dir, const char *rel, char **ret)
{
	struct stat st;

	if (!rel || !*rel || rel[0] == '/')
		return irs_error_format(IRS_ERROR_FORMAT, "%s: names %s%s%s, "
			"which is not a path inside the run directory", dir,
			rel ? "\"" : "no file", rel ? rel : "",
			rel ? "\"" : "");
	for (const char *p = rel; p; p = strchr(p, '/')) {
		p += *p == '/';
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return irs_error_format(IRS_ERROR_FORMAT, "%s/%s: "
				"leaves the run directory (\"..\")", dir,
				rel);
	}
	char *path = irs_path_join(dir, rel);
	if (!path)
		return &irs_enomem;
	// Every component below dir, the file last: none may be a link.
	size_t base = strlen(path) - strlen(rel);
	for (char *s = path + base; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		bool link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
		*s = c;
		if (link) {
			struct irs_error *err = irs_error_format(
				IRS_ERROR_FORMAT, "%.*s: a symbolic link: "
				"irsnap follows no link inside a run "
				"directory", (int)(s - path), path);
			free(path);
			return err;
		}
		if (!c)
			break;
	}
	*ret = path;
	return NULL;
}

struct irs_error *
irs_rundir_latest(const char *root, char **ret)
{
	char target[256];
	char *latest = irs_path_join(root, "latest");
	if (!latest)
		return &irs_enomem;
	ssize_t n = readlink(latest, target, sizeof(target) - 1);
	if (n < 0) {
		struct irs_error *err = irs_error_format(errno == ENOENT ?
			IRS_ERROR_NOT_FOUND : IRS_ERROR_FORMAT, "%s: %s",
			latest, errno == EINVAL ? "not a symbolic link"
			: strerror(errno));
		free(latest);
		return err;
	}
	target[n] = '\0';
	// irsnap points it at a run beside it, by name (irs_rundir_link_latest)
	struct stat st;
	bool plain = n > 0 && !strchr(target, '/') && strcmp(target, ".") &&
		     strcmp(target, "..");
	char *dir = plain ? irs_path_join(root, target) : NULL;
	struct irs_error *err = NULL;
	if (plain && !dir)
		err = &irs_enomem;
	else if (!plain)
		err = irs_error_format(IRS_ERROR_FORMAT, "%s: points at "
				       "\"%s\", not at a run directory beside "
				       "it", latest, target);
	else if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		err = irs_error_format(IRS_ERROR_NOT_FOUND, "%s: points at "
				       "\"%s\", which is no directory", latest,
				       target);
	free(latest);
	if (err) {
		free(dir);
		return err;
	}
	*ret = dir;
	return NULL;
}

void
irs_rundir_unlink(const char *dir, const char *rel)
{
	if (!rel)
		return;
	char *p = irs_path_join(dir, rel);
	if (p)
		unlink(p);
	free(p);
}

// The run id's time part, "20261130-051500", in UTC like the manifest's
// timestamps, so the two always agree.
static void
stamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y%m%d-%H%M%S", &tm);
}

static struct irs_error *
absolute_root(const char *root, char **ret)
{
	struct irs_error *err = irs_mkdirs(root);
	if (err)
		return err;
	char *abs = realpath(root, NULL);
	if (!abs)
		return irs_error_format(IRS_ERROR_IO, "%s: %s", root,
					strerror(errno));
	*ret = abs;
	return NULL;
}

// Makes <root>/.new-PID-N/snapshots/, where the first manifest is written
// before the run directory gets its name. (Not mkdtemp: its 0700 would
// stay with the run; mkdir's 0777 minus the umask is what users expect.)
static struct irs_error *
stage(const char *root, char **ret)
{
	char *dir = NULL, *snaps = NULL;
	for (unsigned n = 0; ; n++) {
		free(dir);
		if (asprintf(&dir, "%s/.new-%d-%u", root, (int)getpid(),
			     atomic_fetch_add(&link_counter, 1)) < 0)
			return &irs_enomem;
		if (mkdir(dir, 0777) == 0)
			break;
		if (errno != EEXIST || n >= 1000) {
			struct irs_error *err = irs_error_format(IRS_ERROR_IO,
				"%s: cannot create a run directory: %s", root,
				strerror(errno));
			free(dir);
			return err;
		}
	}
	snaps = irs_path_join(dir, "snapshots");
	if (!snaps || mkdir(snaps, 0777) != 0) {
		struct irs_error *err = snaps ? irs_error_format(IRS_ERROR_IO,
			"%s: cannot create: %s", snaps, strerror(errno))
					      : &irs_enomem;
		rmdir(dir);
		free(dir);
		free(snaps);
		return err;
	}
	free(snaps);
	*ret = dir;
	return NULL;
}

// Renames @p from to @p to unless @p to exists (then EEXIST), atomically
// where the file system can; elsewhere a name taken in between is lost
// to the race, which one process per second per pid makes unlikely.
static int
publish(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	struct stat st;
	if (lstat(to, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	return rename(from, to);
}

void
irs_rundir_remove_empty(const char *dir)
{
	irs_rundir_unlink(dir, "manifest.json");
	char *snaps = irs_path_join(dir, "snapshots");
	if (snaps)
		rmdir(snaps);
	free(snaps);
	rmdir(dir);
}

struct irs_error *
irs_rundir_create(const char *root, int64_t pid,
		  irs_rundir_fill_fn fill, void *arg, char **dir_ret,
		  char **id_ret)
{
	struct irs_error *err;
	char when[32], *abs = NULL, *stage_dir = NULL, *id = NULL;
	char *dir = NULL;

	if ((err = absolute_root(root, &abs)) ||
	    (err = stage(abs, &stage_dir))) {
		free(abs);
		return err;
	}
	stamp(when, sizeof(when));
	if (pid <= 0)
		pid = getpid();	// no debuggee yet: still a unique number
	// The directory appears under its name complete, with its manifest,
	// so a reader (or a kill at any moment) never sees a run without one.
	// The rename is the uniqueness test: it fails with EEXIST for a taken
	// name, even when another debugger races us for it.
	for (unsigned n = 0; ; n++) {
		free(id);
		free(dir);
		dir = NULL;
		int r = n ? asprintf(&id, "%s-%lld-%u", when, (long long)pid, n)
			  : asprintf(&id, "%s-%lld", when, (long long)pid);
		if (r < 0 || !(dir = irs_path_join(abs, id))) {
			if (r < 0)
				id = NULL;
			err = &irs_enomem;
			break;
		}
		struct stat st;
		if (lstat(dir, &st) == 0)
			continue;	// taken: no need to write a manifest
		if ((err = fill(arg, stage_dir, dir, id)))
			break;
		if (publish(stage_dir, dir) == 0)
			break;
		if (errno != EEXIST || n >= 10000) {
			err = irs_error_format(IRS_ERROR_IO,
				"%s: cannot create run directory: %s", dir,
				strerror(errno));
			break;
		}
	}
	if (err) {
		irs_rundir_remove_empty(stage_dir);	// and what fill left
		free(dir);
		free(id);
	} else {
		*dir_ret = dir;
		*id_ret = id;
	}
	free(stage_dir);
	free(abs);
	return err;
}

struct irs_error *
irs_rundir_link_latest(const char *root, const char *id)
{
	struct irs_error *err = NULL;
	char *tmp = NULL;
	char *latest = irs_path_join(root, "latest");

	if (!latest || asprintf(&tmp, "%s.tmp.%d.%u", latest, (int)getpid(),
				atomic_fetch_add(&link_counter, 1)) < 0) {
		free(latest);
		return &irs_enomem;
	}
	// The link is relative, so the output folder can be moved whole.
	if (symlink(id, tmp) != 0) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot create "
				       "symlink: %s", tmp, strerror(errno));
	} else if (rename(tmp, latest) != 0) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot replace: %s",
				       latest, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	free(latest);
	return err;
}

bool
irs_rundir_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == '@';	// a pass's instance: ssa@main
}

char *
irs_rundir_snapshot_name(uint32_t seq, const char *pass, const char *phase,
			 const char *ext)
{
	char safe[MAX_PASS_IN_NAME + 1];
	size_t n = 0;
	char *name;

	for (const char *p = pass ? pass : ""; *p && n < MAX_PASS_IN_NAME;
	     p++) {
		safe[n++] = irs_rundir_name_char(*p) ? *p : '_';
	}
	if (n == 0)
		safe[n++] = '_';	// an unnamed pass still gets a name
	safe[n] = '\0';
	if (asprintf(&name, "snapshots/%04u-%s.%s.%s", seq, safe, phase,
		     ext) < 0)
		return NULL;
	return name;
}
