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

#include "internal.h"

static atomic_uint tmp_counter;

struct irs_error *
irs_atomic_open(struct irs_atomic_file *af, const char *path)
{
	memset(af, 0, sizeof(*af));
	af->path = strdup(path);
	if (!af->path)
		return &irs_enomem;
	if (asprintf(&af->tmp, "%s.tmp.%d.%u", path, (int)getpid(),
		     atomic_fetch_add(&tmp_counter, 1)) < 0) {
		free(af->path);
		af->path = NULL;
		return &irs_enomem;
	}
	af->fp = fopen(af->tmp, "w");
	if (!af->fp) {
		struct irs_error *err = irs_error_format(IRS_ERROR_IO,
			"%s: cannot create: %s", path, strerror(errno));
		free(af->path);
		free(af->tmp);
		memset(af, 0, sizeof(*af));
		return err;
	}
	return NULL;
}

static void
atomic_free(struct irs_atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	memset(af, 0, sizeof(*af));
}

struct irs_error *
irs_atomic_commit(struct irs_atomic_file *af)
{
	struct irs_error *err = NULL;
	int bad = ferror(af->fp);
	int saved = errno;
	if (fclose(af->fp) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	af->fp = NULL;
	if (bad) {
		err = irs_error_format(IRS_ERROR_IO, "%s: write failed: %s",
				       af->path, strerror(saved ? saved : EIO));
		unlink(af->tmp);
	} else if (rename(af->tmp, af->path) != 0) {
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
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return irs_error_format(IRS_ERROR_IO, "%s: cannot open: %s",
					src, strerror(errno));
	struct irs_error *err = NULL;
	if (fflush(af->fp) != 0)
		err = irs_error_format(IRS_ERROR_IO, "%s: write failed: %s",
				       af->path, strerror(errno));
	else if (lseek(in, (off_t)offset, SEEK_SET) < 0)
		err = irs_error_format(IRS_ERROR_IO, "%s: cannot seek to %llu: "
				       "%s", src, (unsigned long long)offset,
				       strerror(errno));
	// The stream's buffer is empty: write behind it, then move it on.
	else if (copy_fd(in, fileno(af->fp)) != 0 ||
		 fseeko(af->fp, 0, SEEK_END) != 0)
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

struct irs_error *
irs_file_read(const char *path, char **ret, size_t *len_ret)
{
	struct irs_error *err;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return irs_error_format(errno == ENOENT ? IRS_ERROR_NOT_FOUND
					: IRS_ERROR_IO, "%s: cannot open: %s",
					path, strerror(errno));
	struct irs_buf b;
	irs_buf_init(&b);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		irs_buf_append(&b, chunk, n);
	if (ferror(fp)) {
		err = irs_error_format(IRS_ERROR_IO, "%s: read failed: %s",
				       path, strerror(errno));
		fclose(fp);
		irs_buf_deinit(&b);
		return err;
	}
	fclose(fp);
	if (b.oom) {
		irs_buf_deinit(&b);
		return &irs_enomem;
	}
	size_t len = b.len;
	*ret = irs_buf_steal(&b);
	if (len_ret)
		*len_ret = len;
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
