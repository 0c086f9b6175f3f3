// A syntax's printer as a library in server processes: where the syntax
// names its printer's own library (LLVM IR: libLLVM's C API beside opt),
// each of -j servers loads it once and parses, verifies and prints the
// candidates it is sent, instead of a printer process per candidate (opt
// spends 0.1 s of CPU loading libLLVM before it reads a byte). A server
// is a fork of the reducer, so the library never runs in the reducer's
// own process: a crash or an exit() inside it (LLVM's fatal errors) ends
// that server only, and the candidate goes to the printer program, as
// every candidate did before. A server that dies three times is not
// started again.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reduce/reduce.h"

enum { MAX_DEATHS = 3 };

struct reduce_printsrv {
	pid_t pid;		/* 0: not running */
	int fd;			/* our end of its socket */
	uint32_t deaths;
};

// Reads or writes all @p len bytes of @p fd; false on EOF, an error, or
// (reading, @p ms >= 0) @p ms milliseconds without data.
static bool
io_all(int fd, void *p, size_t len, bool writing, int ms)
{
	char *c = p;
	while (len) {
		if (!writing && ms >= 0) {
			struct pollfd pf = {.fd = fd, .events = POLLIN};
			int k = poll(&pf, 1, ms);
			if (k <= 0)
				return false;	// timed out, or Ctrl-C
		}
		ssize_t n = writing ? send(fd, c, len, MSG_NOSIGNAL)
				    : read(fd, c, len);
		if (n < 0 && errno == EINTR && !reduce_interrupted())
			continue;
		if (n <= 0)
			return false;
		c += n;
		len -= (size_t)n;
	}
	return true;
}

// The server: loads the library, says whether it could (one byte), then
// answers each request (length, text) with (ok, length, printed text).
static void
serve(int fd, const struct reduce_lang *lang, const char *printer,
      const char *name)
{
	signal(SIGINT, SIG_IGN);	// the reducer ends us, Ctrl-C not
	signal(SIGPIPE, SIG_IGN);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {	// the library's warnings are not ours to show
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	void *lib = lang->lib_open(printer);
	uint8_t ok = lib != NULL;
	if (!io_all(fd, &ok, 1, true, -1) || !lib)
		_exit(0);
	for (;;) {
		uint64_t len;
		if (!io_all(fd, &len, sizeof(len), false, -1))
			_exit(0);
		char *text = malloc(len ? len : 1);
		if (!text || !io_all(fd, text, len, false, -1))
			_exit(1);
		struct irs_buf out;
		irs_buf_init(&out);
		ok = lang->lib_print(lib, text, len, name, &out) && !out.oom;
		free(text);
		uint64_t olen = ok ? out.len : 0;
		if (!io_all(fd, &ok, 1, true, -1) ||
		    !io_all(fd, &olen, sizeof(olen), true, -1) ||
		    (olen && !io_all(fd, out.data, olen, true, -1)))
			_exit(1);
		irs_buf_deinit(&out);
	}
}

static void
srv_kill(struct reduce_printsrv *s)
{
	if (!s->pid)
		return;
	close(s->fd);		// a server waiting for a request ends
	kill(s->pid, SIGKILL);	// one inside the library too
	while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
	s->fd = -1;
}

// Starts server @p i; false (and it counts a death) when it cannot load
// the library.
static bool
srv_start(struct reducer *r, uint32_t i)
{
	struct reduce_printsrv *s = &r->srv[i];
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return false;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return false;
	}
	if (!pid) {
		close(sv[0]);
		for (uint32_t k = 0; k < r->nsrv; k++)	// their EOF is theirs
			if (r->srv[k].pid)
				close(r->srv[k].fd);
		serve(sv[1], r->lang, r->printer, r->exec.filename);
		_exit(0);
	}
	close(sv[1]);
	s->pid = pid;
	s->fd = sv[0];
	uint8_t ok = 0;
	if (!io_all(s->fd, &ok, 1, false, (int)(r->exec.timeout * 1000)) ||
	    !ok) {
		srv_kill(s);
		s->deaths = MAX_DEATHS;		// no library: never again
		return false;
	}
	return true;
}

struct irs_error *
reduce_printsrv_start(struct reducer *r)
{
	if (!r->lang->lib_open || !r->printer)
		return NULL;
	uint32_t n = r->exec.jobs ? r->exec.jobs : 1;
	if (!(r->srv = calloc(n, sizeof(*r->srv))))
		return &irs_enomem;
	r->nsrv = n;
	for (uint32_t i = 0; i < n; i++)
		r->srv[i].fd = -1;
	for (uint32_t i = 0; i < n; i++)
		if (!srv_start(r, i)) {
			reduce_printsrv_stop(r);
			return NULL;
		}
	return NULL;
}

void
reduce_printsrv_stop(struct reducer *r)
{
	for (uint32_t i = 0; i < r->nsrv; i++)
		srv_kill(&r->srv[i]);
	free(r->srv);
	r->srv = NULL;
	r->nsrv = 0;
}

// Server @p s's answer: *out the printed text, NULL where the library
// rejects it; false when the server failed (it is then ended).
static bool
srv_answer(struct reducer *r, struct reduce_printsrv *s, char **out,
	   size_t *outlen)
{
	int ms = (int)(r->exec.timeout * 1000);
	uint8_t ok;
	uint64_t len;
	*out = NULL;
	if (!io_all(s->fd, &ok, 1, false, ms) ||
	    !io_all(s->fd, &len, sizeof(len), false, ms))
		goto dead;
	if (!ok)
		return true;
	char *t = malloc(len + 1);
	if (!t || !io_all(s->fd, t, len, false, ms)) {
		free(t);
		goto dead;
	}
	t[len] = 0;
	*out = t;
	*outlen = len;
	return true;
dead:
	srv_kill(s);
	s->deaths++;
	return false;
}

struct irs_error *
reduce_printsrv_canon(struct reducer *r, const char *const *texts,
		      const size_t *lens, uint32_t n, char **out,
		      size_t *outlen, bool *done)
{
	for (uint32_t i = 0; i < n; i++)
		done[i] = false;
	for (uint32_t i = 0; i < r->nsrv; i++)
		if (!r->srv[i].pid && r->srv[i].deaths < MAX_DEATHS &&
		    !srv_start(r, i))
			r->srv[i].deaths++;
	// each round sends one text to every live server, then reads the
	// answers: the servers print side by side
	for (uint32_t next = 0; next < n && !reduce_interrupted();) {
		uint32_t sent[64], nsent = 0;
		for (uint32_t i = 0; i < r->nsrv && i < 64 && next < n; i++) {
			struct reduce_printsrv *s = &r->srv[i];
			uint64_t len = lens[next];
			if (!s->pid)
				continue;
			if (!io_all(s->fd, &len, sizeof(len), true, -1) ||
			    !io_all(s->fd, (void *)texts[next], lens[next],
				    true, -1)) {
				srv_kill(s);
				s->deaths++;
				continue;
			}
			sent[nsent++] = i;
			next++;
		}
		if (!nsent)
			break;	// none left: the printer program does the rest
		for (uint32_t k = 0; k < nsent; k++) {
			uint32_t t = next - nsent + k;
			if (srv_answer(r, &r->srv[sent[k]], &out[t],
				       &outlen[t]))
				done[t] = true;
		}
	}
	return NULL;
}
