// The stopped child of tests/unit/test_memory.c; see memory_child.h. The
// test links the parent's side; with MEMORY_CHILD_PROGRAM this file is the
// child program.
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memory_child.h"

#define PAGE 4096

uint64_t
memory_child_node_value(uint64_t i)
{
	return i * 0x9e3779b97f4a7c15u ^ 0x5555;
}

uint8_t
memory_child_array_byte(uint64_t i)
{
	return (uint8_t)(i * 131 + (i >> 12) * 17 + 1);
}

uint8_t
memory_child_file_byte(uint64_t i)
{
	return (uint8_t)((i * 7 + 3) ^ (i >> 12));
}

#ifdef MEMORY_CHILD_PROGRAM
// memory-child FILE FD MEMORY_CHILD_ARG: builds the known memory, writes
// its addresses to FD, and stops.
int
main(int argc, char **argv)
{
	if (argc != 4)
		return 1;
	const char *file = argv[1];
	int wfd = atoi(argv[2]);

	struct memory_child_info info = {0};
	struct memory_child_node *head = NULL, **tail = &head;

	for (uint64_t i = 0; i < MEMORY_CHILD_NODES; i++) {
		struct memory_child_node *n = calloc(1, sizeof(*n));
		if (!n)
			return 2;
		n->value = memory_child_node_value(i);
		snprintf(n->name, sizeof(n->name), "node%u", (unsigned)i);
		*tail = n;
		tail = &n->next;
	}
	uint8_t *array = malloc(MEMORY_CHILD_ARRAY);
	if (!array)
		return 2;
	for (uint64_t i = 0; i < MEMORY_CHILD_ARRAY; i++)
		array[i] = memory_child_array_byte(i);

	FILE *fp = fopen(file, "rb");
	if (!fp)
		return 3;
	void *mapped = mmap(NULL, MEMORY_CHILD_FILE, PROT_READ, MAP_PRIVATE,
			    fileno(fp), 0);
	if (mapped == MAP_FAILED)
		return 3;

	// Six pages: readable, a hole, readable, readable, PROT_NONE,
	// readable.
	uint8_t *area = mmap(NULL, 6 * PAGE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 4;
	memset(area, 0x5a, 6 * PAGE);
	if (munmap(area + PAGE, PAGE) || mprotect(area + 4 * PAGE, PAGE,
						  PROT_NONE))
		return 4;

	info.list = (uint64_t)(uintptr_t)head;
	info.array = (uint64_t)(uintptr_t)array;
	info.mapped = (uint64_t)(uintptr_t)mapped;
	info.hole = (uint64_t)(uintptr_t)(area + PAGE);
	info.guard = (uint64_t)(uintptr_t)(area + 4 * PAGE);
	info.code = (uint64_t)(uintptr_t)&memcpy;
	if (write(wfd, &info, sizeof(info)) != sizeof(info))
		return 5;
	close(wfd);
	raise(SIGSTOP);
	for (;;)
		pause();
}
#else

static int
write_file(const char *path)
{
	FILE *fp = fopen(path, "wb");
	if (!fp)
		return -1;
	for (uint64_t i = 0; i < MEMORY_CHILD_FILE; i++)
		fputc(memory_child_file_byte(i), fp);
	return fclose(fp);
}

int
memory_child_start(struct memory_child *c)
{
	int fds[2], status;
	char self[512], fdarg[16];

	memset(c, 0, sizeof(*c));
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return -1;
	self[len] = '\0';
	snprintf(c->exe, sizeof(c->exe), "%s/memory-child", dirname(self));
	if (access(c->exe, X_OK)) {
		perror(c->exe);
		return -1;
	}
	snprintf(c->dir, sizeof(c->dir), "/tmp/irsnap-memory-XXXXXX");
	if (!mkdtemp(c->dir)) {
		perror("mkdtemp");
		return -1;
	}
	snprintf(c->file, sizeof(c->file), "%s/mapped.bin", c->dir);
	if (write_file(c->file) || pipe(fds)) {
		perror(c->file);
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		perror("fork");
		return -1;
	}
	if (c->pid == 0) {
		// Dies with the test, and holds none of its output pipes.
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		close(fds[0]);
		snprintf(fdarg, sizeof(fdarg), "%d", fds[1]);
		execl(c->exe, c->exe, c->file, fdarg, MEMORY_CHILD_ARG,
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	ssize_t n = read(fds[0], &c->info, sizeof(c->info));
	close(fds[0]);
	if (n != sizeof(c->info)) {
		fprintf(stderr, "memory child: no addresses (read %zd)\n", n);
		return -1;
	}
	if (waitpid(c->pid, &status, WUNTRACED) != c->pid ||
	    !WIFSTOPPED(status)) {
		fprintf(stderr, "memory child did not stop (status %#x)\n",
			status);
		return -1;
	}
	return 0;
}

int
memory_child_gcore(struct memory_child *c)
{
	char cmd[512];

	snprintf(c->core, sizeof(c->core), "%s/child.core", c->dir);
	snprintf(cmd, sizeof(cmd),
		 "timeout 120 gdb -batch -nx -p %d -ex 'gcore %s' "
		 ">%s/gcore.log 2>&1", (int)c->pid, c->core, c->dir);
	int rc = system(cmd);
	struct stat st;
	if (rc != 0 || stat(c->core, &st) != 0) {
		fprintf(stderr, "gcore failed (%d; GDB comes with scripts/"
			"install-deps or apt-get install gdb):\n", rc);
		snprintf(cmd, sizeof(cmd), "cat %s/gcore.log >&2", c->dir);
		if (system(cmd))
			fprintf(stderr, "(no GDB log)\n");
		c->core[0] = '\0';
		return -1;
	}
	return 0;
}

bool
memory_child_stopped(const struct memory_child *c)
{
	char path[64], buf[512];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)c->pid);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');	// the name may hold spaces
	return p && (p[2] == 'T' || p[2] == 't');
}

void
memory_child_stop(struct memory_child *c)
{
	char path[160];

	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
	}
	if (!c->dir[0])
		return;
	const char *names[] = {"mapped.bin", "mapped.bin.away", "child.core",
			       "gcore.log", "cut.core", "notelf", "synth.core",
			       "synth.bin"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", c->dir, names[i]);
		unlink(path);
	}
	rmdir(c->dir);
	c->dir[0] = '\0';
}
#endif
