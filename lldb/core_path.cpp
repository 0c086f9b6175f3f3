// Which core file LLDB is examining. LLDB 14's SB API does not say, so we
// look at what this very process has open: the elf-core plugin maps the
// core file whole, and only a core has ELF type ET_CORE.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "glue.h"

namespace irsnap_lldb {

static bool
is_elf_core(const std::string &path)
{
	unsigned char h[18];
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, h, sizeof(h));
	close(fd);
	// e_type is at byte 16, in the byte order EI_DATA (byte 5) says.
	if (n != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) != 0)
		return false;
	unsigned type = h[5] == 2 ? (h[16] << 8 | h[17]) : (h[17] << 8 | h[16]);
	return type == 4;	// ET_CORE
}

static void
add_unique(std::vector<std::string> &v, const std::string &s)
{
	for (const std::string &x : v)
		if (x == s)
			return;
	v.push_back(s);
}

// Files mapped from offset 0, in /proc/self/maps order.
static void
mapped_files(std::vector<std::string> &out)
{
	FILE *fp = fopen("/proc/self/maps", "re");
	char line[4608];

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long off;
		int path_at = 0;
		if (sscanf(line, "%*s %*s %llx %*s %*s %n", &off, &path_at) < 1)
			continue;
		if (off != 0 || path_at <= 0 || line[path_at] != '/')
			continue;
		std::string path = line + path_at;
		while (!path.empty() && path.back() == '\n')
			path.pop_back();
		add_unique(out, path);
	}
	fclose(fp);
}

static void
open_files(std::vector<std::string> &out)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char link[64], path[4096];
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(link, path, sizeof(path) - 1);
		if (n <= 0 || path[0] != '/')
			continue;
		path[n] = '\0';
		add_unique(out, path);
	}
	closedir(d);
}

std::string
core_file_path(lldb::SBProcess process)
{
	static uint32_t cached_uid;
	static std::string cached;
	std::vector<std::string> files;

	if (process.GetUniqueID() == cached_uid && !cached.empty())
		return cached;
	mapped_files(files);
	open_files(files);
	std::string found;
	// Several cores open at once (several core targets in one session)
	// are not told apart: the last one listed wins.
	for (const std::string &f : files)
		if (f.compare(0, 6, "/proc/") != 0 &&
		    f.compare(0, 5, "/dev/") != 0 && is_elf_core(f))
			found = f;
	cached_uid = process.GetUniqueID();
	cached = found;
	return found;
}

}  // namespace irsnap_lldb
