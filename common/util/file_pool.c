// Files made ahead: a thread keeps a few unnamed files (O_TMPFILE) open
// in a directory, so a caller that writes many small files one after the
// other (a trace's snapshots, one at each pass boundary, while the
// debuggee waits) does not wait for the file system to make each one.
// Making a file is the costly part of writing a small one: ext4 allocates
// an inode, and without a journal it skips the inodes freed in the last
// minutes one by one (a run directory deleted just before: 365 us a file,
// against 20 us). An unnamed file gets its name when it is complete
// (linkat), so nothing half written is ever seen under a name, and a
// process killed meanwhile leaves nothing behind.
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

enum { POOL_MAX = 16 };

struct irs_file_pool {
	char *dir;
	pthread_mutex_t lock;
	pthread_cond_t want;	// the maker may make more, or must stop
	int fds[POOL_MAX];	// made, not taken
	unsigned n, depth;
	bool stop;
	bool failing;		// the last file could not be made: wait
	bool started;
	bool asleep;		// the maker waits for want
	pthread_t thread;
	pid_t pid;		// the process whose maker made fds
};

static int
make(const char *dir)
{
	return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
}

static void *
maker(void *arg)
{
	struct irs_file_pool *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		if (p->n >= p->depth || p->failing) {
			p->asleep = true;
			pthread_cond_wait(&p->want, &p->lock);
			p->asleep = false;
			continue;
		}
		pthread_mutex_unlock(&p->lock);
		int fd = make(p->dir);
		pthread_mutex_lock(&p->lock);
		if (fd < 0)
			p->failing = true;	// take() tries itself
		else if (p->stop || p->n >= p->depth)
			close(fd);
		else
			p->fds[p->n++] = fd;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct irs_error *
irs_file_pool_create(const char *dir, unsigned depth,
		     struct irs_file_pool **ret)
{
	struct irs_file_pool *p = calloc(1, sizeof(*p));
	if (!p)
		return &irs_enomem;
	if (!(p->dir = strdup(dir))) {
		free(p);
		return &irs_enomem;
	}
	p->depth = depth > POOL_MAX ? POOL_MAX : depth;
	p->pid = getpid();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->want, NULL);
	// Unnamed files are named through /proc/self/fd (linkat with
	// AT_EMPTY_PATH needs a capability); without it, or where the file
	// system makes none (NFS, older kernels), there is no pool: callers
	// write named temporary files as before.
	int fd = access("/proc/self/fd", X_OK) == 0 ? make(dir) : -1;
	if (fd < 0) {
		p->failing = true;
		*ret = p;
		return NULL;
	}
	p->fds[p->n++] = fd;
	// The maker takes no signal: the debugger's (SIGINT, SIGCHLD) are
	// its main thread's.
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->started = pthread_create(&p->thread, NULL, maker, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	*ret = p;
	return NULL;
}

void
irs_file_pool_destroy(struct irs_file_pool *p)
{
	if (!p)
		return;
	if (getpid() != p->pid) {
		// A forked child: no maker to stop, and fds that may not be
		// its (see take), left to its exit or exec (O_CLOEXEC).
		free(p->dir);
		free(p);
		return;
	}
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->want);
	pthread_mutex_unlock(&p->lock);
	if (p->started)
		pthread_join(p->thread, NULL);
	for (unsigned i = 0; i < p->n; i++)
		close(p->fds[i]);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->want);
	free(p->dir);
	free(p);
}

int
irs_file_pool_take(struct irs_file_pool *p)
{
	// A child forked while the maker opened a file has the fd in fds
	// (its memory was copied after) but not in its table (copied
	// before), and the lock maybe held by a thread it does not have:
	// it makes its files by name.
	if (!p || getpid() != p->pid)
		return -1;
	pthread_mutex_lock(&p->lock);
	int fd = p->n ? p->fds[--p->n] : -1;
	bool failing = p->failing;
	// The maker is woken when half the pool is gone and refills it
	// whole: a wake-up (a futex call) at every take was a tenth of what
	// writing a trace's snapshot cost (issue 26).
	if (p->asleep && p->n <= p->depth / 2)
		pthread_cond_signal(&p->want);
	pthread_mutex_unlock(&p->lock);
	if (fd >= 0 || !p->started)
		return fd;
	// None ready (or the maker failed): one made here, which also says
	// whether the file system makes them again (a disk no longer full).
	fd = make(p->dir);
	if (fd >= 0 && failing) {
		pthread_mutex_lock(&p->lock);
		p->failing = false;
		pthread_cond_signal(&p->want);
		pthread_mutex_unlock(&p->lock);
	}
	return fd;
}
