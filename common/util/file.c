// Files written atomically (temporary name, then rename) so that killing the
// debugger at any moment leaves either the old file or the new one.
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

static atomic_uint tmp_counter;

// What a file that is not a regular one is, for messages.
static const char *
file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode) ? "a character device"
	       : S_ISBLK(mode) ? "a block device"
	       : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

static void
atomic_free(struct irs_atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	memset(af, 0, sizeof(*af));
}

// Where a write to @p path goes. *real_ret (freed with free()) is the file
// to write: @p path, or a symlink's target, which is then written as any
// file is (atomically, the link kept). *in_place_ret when it is a
// character device or a FIFO: written in place, never renamed over.
// Anything else that is there already (a directory, a block device, a
// socket, a link to nothing) is refused rather than replaced.
static struct irs_error *
write_target(const char *path, char **real_ret, bool *in_place_ret)
{
	struct stat st, lst;
	bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);

	*in_place_ret = false;
	if (stat(path, &st) != 0) {
		if (errno == ENOENT && link)
			return irs_error_format(IRS_ERROR_IO, "%s: a symbolic "
				"link to a file that does not exist: irsnap "
				"creates no file through a link", path);
		*real_ret = strdup(path);	// a new file (or the open says)
		return *real_ret ? NULL : &irs_enomem;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		*in_place_ret = true;	// /dev/null, /dev/stdout, a pipe
		*real_ret = strdup(path);
		return *real_ret ? NULL : &irs_enomem;
	}
	if (!S_ISREG(st.st_mode))
		return irs_error_format(IRS_ERROR_IO, "%s: %s: irsnap writes "
			"regular files, character devices and FIFOs only",
			path, file_kind(st.st_mode));
	*real_ret = link ? realpath(path, NULL) : strdup(path);
	if (!*real_ret && link)
		return irs_error_format(IRS_ERROR_IO, "%s: cannot resolve the "
					"link: %s", path, strerror(errno));
	return *real_ret ? NULL : &irs_enomem;
}

// Opens device or FIFO @p path to write in place; a FIFO nobody reads is
// an error, not a wait (O_NONBLOCK makes open() say ENXIO).
static struct irs_error *
open_in_place(struct irs_atomic_file *af, const char *path)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return irs_error_format(IRS_ERROR_IO, "%s: cannot open: %s",
					path, errno == ENXIO ? "a FIFO nobody "
					"reads" : strerror(errno));
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (!(af->fp = fdopen(fd, "w"))) {
		close(fd);
		return &irs_enomem;
	}
	return NULL;
}

struct irs_error *
irs_atomic_open(struct irs_atomic_file *af, const char *path)
{
	struct irs_error *err;
	bool in_place;

	memset(af, 0, sizeof(*af));
	if ((err = write_target(path, &af->path, &in_place)))
		return err;
	if (in_place) {
		err = open_in_place(af, af->path);
		if (err)
			atomic_free(af);
		return err;
	}
	if (asprintf(&af->tmp, "%s.tmp.%d.%u", af->path, (int)getpid(),
		     atomic_fetch_add(&tmp_counter, 1)) < 0) {
		free(af->path);
		af->path = NULL;
		return &irs_enomem;
	}
	af->fp = fopen(af->tmp, "w");
	if (!af->fp) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot create: %s",
				       path, strerror(errno));
		atomic_free(af);
		return err;
	}
	return NULL;
}

struct irs_error *
irs_atomic_open_pool(struct irs_atomic_file *af, const char *path,
		     struct irs_file_pool *pool)
{
	int fd = irs_file_pool_take(pool);
	if (fd < 0)
		return irs_atomic_open(af, path);
	memset(af, 0, sizeof(*af));
	if (!(af->path = strdup(path)) || !(af->fp = fdopen(fd, "w"))) {
		close(fd);
		free(af->path);
		af->path = NULL;
		return &irs_enomem;
	}
	af->unnamed = true;
	return NULL;
}

// Names the unnamed file open as @p fd @p path: a new name at once, over
// an old file through a temporary name and a rename.
static int
name_unnamed(int fd, const char *path)
{
	char proc[64], *tmp;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	if (asprintf(&tmp, "%s.tmp.%d.%u", path, (int)getpid(),
		     atomic_fetch_add(&tmp_counter, 1)) < 0)
		return -1;
	int rc = linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
	if (rc == 0 && (rc = rename(tmp, path)) != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

struct irs_error *
irs_atomic_link(const char *from, const char *path)
{
	// A new name, the usual case (a snapshot copied under its own
	// name): one link. Over a file that is there: a link under a
	// temporary name, renamed over it.
	if (link(from, path) == 0)
		return NULL;
	if (errno != EEXIST)
		return irs_error_format(IRS_ERROR_IO, "%s: cannot link to %s: "
					"%s", path, from, strerror(errno));
	char *tmp;
	if (asprintf(&tmp, "%s.tmp.%d.%u", path, (int)getpid(),
		     atomic_fetch_add(&tmp_counter, 1)) < 0)
		return &irs_enomem;
	struct irs_error *err = NULL;
	if (link(from, tmp) != 0)
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot link to %s: "
				       "%s", path, from, strerror(errno));
	else if (rename(tmp, path) != 0) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot rename: %s",
				       path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return err;
}

struct irs_error *
irs_atomic_commit(struct irs_atomic_file *af)
{
	struct irs_error *err = NULL;
	int bad = ferror(af->fp);
	int saved = errno;
	if (af->unnamed && !bad && fflush(af->fp) != 0) {
		bad = 1;
		saved = errno;
	}
	if (af->unnamed && !bad && name_unnamed(fileno(af->fp), af->path)) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot name it: %s",
				       af->path, strerror(errno));
		fclose(af->fp);	// the unnamed file goes with it
		af->fp = NULL;
		atomic_free(af);
		return err;
	}
	if (fclose(af->fp) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	af->fp = NULL;
	if (bad) {
		err = irs_error_format(IRS_ERROR_IO, "%s: write failed: %s",
				       af->path, strerror(saved ? saved : EIO));
		if (af->tmp)
			unlink(af->tmp);
		else if (af->unnamed)
			unlink(af->path);	// named before the close failed
	} else if (af->tmp && rename(af->tmp, af->path) != 0) {
		err = irs_error_format(IRS_ERROR_IO, "%s: rename failed: %s",
				       af->path, strerror(errno));
		unlink(af->tmp);
	}
	atomic_free(af);
	return err;
}

// Copies @p in's bytes from its current offset to the end into @p out.
static int
copy_fd(int in, int out)
{
	for (;;) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
		if (n > 0)
			continue;
		if (n == 0)
			return 0;
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
		    errno != EOPNOTSUPP)
			return -1;
		break;		// not between these files: copy by hand
	}
	char buf[1 << 16];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno != EINTR)
				return -1;
			done += w > 0 ? w : 0;
		}
	}
}

struct irs_error *
irs_atomic_append_file(struct irs_atomic_file *af, const char *src,
		       uint64_t offset)
{
	int in;
	struct irs_error *err = irs_file_open_regular(src, &in, NULL);
	if (err)
		return err;
	if (fflush(af->fp) != 0)
		err = irs_error_format(IRS_ERROR_IO, "%s: write failed: %s",
				       af->path, strerror(errno));
	else if (lseek(in, (off_t)offset, SEEK_SET) < 0)
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot seek to %llu: "
				       "%s", src, (unsigned long long)offset,
				       strerror(errno));
	// The stream's buffer is empty: write behind it, then move it on.
	else if (copy_fd(in, fileno(af->fp)) != 0 ||
		 ((af->tmp || af->unnamed) && fseeko(af->fp, 0, SEEK_END) != 0))
		err = irs_error_format(IRS_ERROR_IO, "%s: copying %s failed: %s",
				       af->path, src, strerror(errno));
	close(in);
	return err;
}

void
irs_atomic_abort(struct irs_atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	atomic_free(af);
}

struct irs_error *
irs_file_write(const char *path, const void *data, size_t len)
{
	struct irs_atomic_file af;
	struct irs_error *err = irs_atomic_open(&af, path);
	if (err)
		return err;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		err = irs_error_format(IRS_ERROR_IO, "%s: write failed: %s",
				       path, strerror(errno));
		irs_atomic_abort(&af);
		return err;
	}
	return irs_atomic_commit(&af);
}

// "16 MiB", "1 GiB": a cap as people say it.
static void
cap_text(char *buf, size_t len, uint64_t max)
{
	if (max >= (1u << 30) && max % (1u << 30) == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(max >> 30));
	else if (max >= (1u << 20) && max % (1u << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(max >> 20));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)max);
}

uint64_t
irs_file_read_cap(void)
{
	// A hostile run directory may hold a sparse file of any size: what
	// is read whole is capped, and a user with bigger snapshots raises
	// the cap.
	const char *env = getenv("IRSNAP_MAX_READ_MB");
	char *end;
	unsigned long long mb = env && *env ? strtoull(env, &end, 10) : 0;
	if (mb && !*end && mb < (1ull << 40))
		return mb << 20;
	return IRS_FILE_READ_CAP;
}

static struct irs_error *
too_large(const char *path, uint64_t size, bool at_least, uint64_t max)
{
	char cap[32];
	cap_text(cap, sizeof(cap), max);
	return irs_error_format(IRS_ERROR_LIMIT, "%s: too large to read "
				"(%s%llu bytes; the limit is %s%s)", path,
				at_least ? "more than " : "",
				(unsigned long long)size, cap,
				max == irs_file_read_cap() ?
				", IRSNAP_MAX_READ_MB raises it" : "");
}

struct irs_error *
irs_file_read_max(const char *path, uint64_t max, bool devices, char **ret,
		  size_t *len_ret)
{
	struct irs_error *err = NULL;
	struct stat st;

	if (!max)
		max = irs_file_read_cap();
	// O_NONBLOCK: opening a FIFO nobody writes would wait forever (and
	// SIGINT does not end an open() inside GDB); the type is checked on
	// what was opened, so a file swapped in between changes nothing.
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return irs_error_format(errno == ENOENT ? IRS_ERROR_NOT_FOUND
					: IRS_ERROR_IO, "%s: cannot open: %s",
					path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot stat: %s",
				       path, strerror(errno));
		goto out;
	}
	bool reg = S_ISREG(st.st_mode);
	bool dev = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
	if (!reg && !(devices && dev)) {
		err = irs_error_format(IRS_ERROR_FORMAT, "%s: %s, not a "
				       "regular file: irsnap reads only "
				       "regular files here", path,
				       file_kind(st.st_mode));
		goto out;
	}
	if (reg && (uint64_t)st.st_size > max) {
		err = too_large(path, (uint64_t)st.st_size, false, max);
		goto out;
	}
	// A pipe named on purpose is read as it comes, to its end (a FIFO
	// with no writer ends at once) or the cap.
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	struct irs_buf b;
	irs_buf_init(&b);
	// A regular file goes straight into one allocation of its size;
	// what comes past that (a file growing, procfs files that say size
	// 0, a pipe) through the chunk.
	if (reg && st.st_size > 0 && (b.data = malloc((size_t)st.st_size + 1)))
		b.cap = (size_t)st.st_size + 1;
	char chunk[65536];
	for (;;) {
		bool direct = b.cap > b.len + 1;
		char *dst = direct ? b.data + b.len : chunk;
		size_t room = direct ? b.cap - b.len - 1 : sizeof(chunk);
		ssize_t n = read(fd, dst, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = irs_error_format(IRS_ERROR_IO, "%s: read failed: "
					       "%s", path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		if (direct)
			b.len += (size_t)n;
		else if (!irs_buf_append(&b, chunk, (size_t)n))
			break;
		if (b.len > max) {	// grew while read, or a device
			err = too_large(path, max, true, max);
			break;
		}
	}
	if (!err && b.oom)
		err = &irs_enomem;
	if (!err && !irs_buf_reserve(&b, 0))
		err = &irs_enomem;	// an empty file: still a string
	if (err) {
		irs_buf_deinit(&b);
		goto out;
	}
	b.data[b.len] = '\0';
	size_t len = b.len;
	*ret = irs_buf_steal(&b);
	if (len_ret)
		*len_ret = len;
out:
	close(fd);
	return err;
}

struct irs_error *
irs_file_read(const char *path, char **ret, size_t *len_ret)
{
	return irs_file_read_max(path, 0, false, ret, len_ret);
}

struct irs_error *
irs_file_open_regular(const char *path, int *fd_ret, uint64_t *size_ret)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return irs_error_format(errno == ENOENT ? IRS_ERROR_NOT_FOUND
					: IRS_ERROR_IO, "%s: cannot open: %s",
					path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		struct irs_error *err = irs_error_format(IRS_ERROR_FORMAT,
			"%s: %s, not a regular file: irsnap reads only "
			"regular files here", path,
			fstat(fd, &st) != 0 ? strerror(errno)
					    : file_kind(st.st_mode));
		close(fd);
		return err;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*fd_ret = fd;
	if (size_ret)
		*size_ret = (uint64_t)st.st_size;
	return NULL;
}

struct irs_error *
irs_mkdirs(const char *path)
{
	char *p = strdup(path);
	if (!p)
		return &irs_enomem;
	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			struct irs_error *err = irs_error_format(IRS_ERROR_IO,
				"%s: cannot create directory: %s", p,
				strerror(errno));
			free(p);
			return err;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return NULL;
}
