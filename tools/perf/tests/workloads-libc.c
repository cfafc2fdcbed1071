// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads that spend their time in libc's functions without frame pointers, each called
 * from exactly one known function of ours: what the unwinder must see through to name a
 * library function's caller. The structure of each is in the comment above it, innermost
 * last, and in the table of the callchain judge (tests/shell/lib/callers.awk), which must
 * change with it. Every loop also calls clock_gettime() from spin__expired(), inlined.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
/* last: it sets the optimisation flags of what follows */
#include "workload.h"

/* what a loop does between two looks at the clock: the clock's samples stay rare */
#define LIBC_BATCH	64

static char libc_buf[1 << 16];

/*
 * stdio: a FILE's buffered paths down to the system call.
 *
 *   workload__stdio -> stdio_loop -> stdio_read_one  -> fread  -> _IO_file_xsgetn
 *                                                                -> _IO_file_read -> read
 *                                 -> stdio_write_one -> fwrite -> _IO_new_file_xsputn
 *                                                    -> fflush -> _IO_new_file_sync ... -> write
 *
 * The FILEs' buffers are STDIO_BUF bytes: each fread() asks for more than that, so glibc
 * reads straight into libc_buf with one read(); each fwrite() fits the buffer and the
 * fflush() after it makes the write().
 */
#define STDIO_BUF	4096
#define STDIO_WRITE	1024

static char stdio_inbuf[STDIO_BUF], stdio_outbuf[STDIO_BUF];

static WORKLOAD_FN size_t stdio_read_one(FILE *in)
{
	return fread(libc_buf, 1, sizeof(libc_buf), in);
}

static WORKLOAD_FN size_t stdio_write_one(FILE *out)
{
	size_t n = fwrite(libc_buf, 1, STDIO_WRITE, out);

	return fflush(out) ? 0 : n;
}

static WORKLOAD_FN size_t stdio_loop(FILE *in, FILE *out, struct spin *s)
{
	size_t n = 0;

	do {
		for (int i = 0; i < LIBC_BATCH; i++) {
			n += stdio_read_one(in);
			n += stdio_write_one(out);
		}
	} while (!spin__expired(s));
	return n;
}

int workload__stdio(int argc, const char **argv)
{
	FILE *in, *out;
	struct spin s;
	int ret = 1;

	if (spin__init(&s, "stdio", argc, argv))
		return 1;
	in = fopen("/dev/zero", "re");
	out = fopen("/dev/null", "we");
	if (!in || !out) {
		fprintf(stderr, "perf test -w stdio: cannot open /dev/zero or /dev/null\n");
		goto out_close;
	}
	setvbuf(in, stdio_inbuf, _IOFBF, sizeof(stdio_inbuf));
	setvbuf(out, stdio_outbuf, _IOFBF, sizeof(stdio_outbuf));
	s.acc = stdio_loop(in, out, &s);
	ret = 0;
out_close:
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return ret;
}

/*
 * pread: the positional and vector reads, each a system call of its own in libc.
 *
 *   workload__pread -> pread_loop -> pread_one  -> pread64
 *                                 -> readv_one  -> readv
 *                                 -> preadv_one -> preadv
 */
static WORKLOAD_FN long pread_one(int fd)
{
	return pread64(fd, libc_buf, sizeof(libc_buf), 0);
}

static WORKLOAD_FN long readv_one(int fd)
{
	struct iovec iov[2] = {
		{ libc_buf, sizeof(libc_buf) / 2 },
		{ libc_buf + sizeof(libc_buf) / 2, sizeof(libc_buf) / 2 },
	};

	return readv(fd, iov, 2);
}

static WORKLOAD_FN long preadv_one(int fd)
{
	struct iovec iov[2] = {
		{ libc_buf, sizeof(libc_buf) / 4 },
		{ libc_buf + sizeof(libc_buf) / 4, sizeof(libc_buf) / 4 },
	};

	return preadv(fd, iov, 2, 4096);
}

static WORKLOAD_FN long pread_loop(int fd, struct spin *s)
{
	long n = 0;

	do {
		for (int i = 0; i < LIBC_BATCH; i++) {
			n += pread_one(fd);
			n += readv_one(fd);
			n += preadv_one(fd);
		}
	} while (!spin__expired(s));
	return n;
}

int workload__pread(int argc, const char **argv)
{
	struct spin s;
	int fd;

	if (spin__init(&s, "pread", argc, argv))
		return 1;
	fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "perf test -w pread: cannot open /dev/zero\n");
		return 1;
	}
	s.acc = (unsigned long)pread_loop(fd, &s);
	close(fd);
	return 0;
}

/*
 * condwait: two threads hand a turn to each other under one mutex and condition variable,
 * so their time goes to the futex paths of libc and the kernel (cpu-clock samples land
 * only on a running thread: the wake-ups and the hand-overs, not the sleeps).
 *
 *   workload__condwait -> condwait_run -> condwait_player -> condwait_wait -> pthread_cond_wait
 *                                                         -> condwait_signal -> pthread_cond_signal
 *                                                         -> pthread_mutex_lock, _unlock
 *   (thread) condwait_thread -> condwait_player -> the same
 *
 * The starting thread's CPU time ends the game; the other thread's chains end at
 * condwait_thread, below which is libc's start_thread.
 */
struct condwait {
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	int		turn;	/* the player whose move it is: 0 (starter) or 1 */
	bool		done;
	struct spin	*spin;
};

static WORKLOAD_FN int condwait_wait(struct condwait *c)
{
	return pthread_cond_wait(&c->cond, &c->lock);
}

static WORKLOAD_FN int condwait_signal(struct condwait *c)
{
	return pthread_cond_signal(&c->cond);
}

static WORKLOAD_FN unsigned long condwait_player(struct condwait *c, int me)
{
	unsigned long moves = 0;

	pthread_mutex_lock(&c->lock);
	while (!c->done) {
		while (c->turn != me && !c->done)
			condwait_wait(c);
		if (c->done)
			break;
		c->turn = !me;
		moves++;
		if (me == 0 && !(moves % LIBC_BATCH) && spin__expired(c->spin))
			c->done = true;
		condwait_signal(c);
	}
	pthread_mutex_unlock(&c->lock);
	return moves;
}

static WORKLOAD_FN void *condwait_thread(void *arg)
{
	struct condwait *c = arg;

	c->spin->acc += condwait_player(c, 1);
	return NULL;
}

static WORKLOAD_FN int condwait_run(struct condwait *c)
{
	pthread_t th;

	if (pthread_create(&th, NULL, condwait_thread, c)) {
		fprintf(stderr, "perf test -w condwait: cannot start a thread\n");
		return 1;
	}
	c->spin->acc += condwait_player(c, 0);
	pthread_join(th, NULL);
	return 0;
}

int workload__condwait(int argc, const char **argv)
{
	struct condwait c = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	struct spin s;

	if (spin__init(&s, "condwait", argc, argv))
		return 1;
	c.spin = &s;
	return condwait_run(&c);
}

/*
 * nanosleep: sleeps of no length, which the kernel ends without leaving the CPU.
 *
 *   workload__nanosleep -> nap_loop -> nap_one       -> nanosleep -> clock_nanosleep
 *                                   -> nap_clock_one -> clock_nanosleep
 */
static WORKLOAD_FN int nap_one(void)
{
	struct timespec ts = { 0, 0 };

	return nanosleep(&ts, NULL);
}

static WORKLOAD_FN int nap_clock_one(void)
{
	struct timespec ts = { 0, 0 };

	return clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

static WORKLOAD_FN int nap_loop(struct spin *s)
{
	int n = 0;

	do {
		for (int i = 0; i < LIBC_BATCH; i++) {
			n += nap_one();
			n += nap_clock_one();
		}
	} while (!spin__expired(s));
	return n;
}

int workload__nanosleep(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "nanosleep", argc, argv))
		return 1;
	return nap_loop(&s) ? 1 : 0;
}

/*
 * poll: readiness checks with no timeout on an eventfd that stays readable (its count is
 * never read).
 *
 *   workload__poll -> poll_loop -> poll_one  -> poll
 *                               -> epoll_one -> epoll_wait
 */
static WORKLOAD_FN int poll_one(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0);
}

static WORKLOAD_FN int epoll_one(int ep)
{
	struct epoll_event ev;

	return epoll_wait(ep, &ev, 1, 0);
}

static WORKLOAD_FN int poll_loop(int fd, int ep, struct spin *s)
{
	int n = 0;

	do {
		for (int i = 0; i < LIBC_BATCH; i++) {
			n += poll_one(fd);
			n += epoll_one(ep);
		}
	} while (!spin__expired(s));
	return n;
}

int workload__poll(int argc, const char **argv)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct spin s;
	int fd, ep, ret = 1;

	if (spin__init(&s, "poll", argc, argv))
		return 1;
	fd = eventfd(1, EFD_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "perf test -w poll: eventfd: %s\n", strerror(errno));
		return 1;
	}
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
		fprintf(stderr, "perf test -w poll: epoll: %s\n", strerror(errno));
		goto out_close;
	}
	/* both report the fd ready on every call: two per iteration */
	ret = poll_loop(fd, ep, &s) > 0 ? 0 : 1;
out_close:
	if (ep >= 0)
		close(ep);
	close(fd);
	return ret;
}

/*
 * malloc: allocations of varied sizes freed in another order, so that tcache, the bins and
 * the top chunk all serve some, and the large ones are mmap'ed and munmap'ed each time
 * (M_MMAP_THRESHOLD set: otherwise glibc raises it after the first free of a large block
 * and serves them from the heap).
 *
 *   workload__malloc -> malloc_loop -> malloc_one -> malloc
 *                                   -> free_one   -> free
 */
#define MALLOC_MMAP_THRESHOLD	(128 * 1024)
#define MALLOC_HELD		16

/* one of each per round; the last two are above the mmap threshold */
static const size_t malloc_sizes[MALLOC_HELD] = {
	16, 24, 32, 48, 64, 100, 128, 200, 256, 520, 1000, 2000, 4000, 9000,
	2 * MALLOC_MMAP_THRESHOLD, 8 * MALLOC_MMAP_THRESHOLD,
};

static WORKLOAD_FN void *malloc_one(size_t size)
{
	volatile char *p = malloc(size);

	/* a byte a page: the large blocks' pages fault in, as a user's would */
	for (size_t i = 0; p && i < size; i += 4096)
		p[i] = (char)i;
	if (p)
		p[size - 1] = 1;
	return (void *)p;
}

static WORKLOAD_FN void free_one(void *p)
{
	free(p);
}

static WORKLOAD_FN unsigned long malloc_loop(struct spin *s)
{
	void *held[MALLOC_HELD] = { NULL };
	unsigned long n = 0;

	do {
		for (int i = 0; i < LIBC_BATCH; i++) {
			/* the large ones once a round in four: they cost far more */
			int count = i % 4 ? MALLOC_HELD - 2 : MALLOC_HELD;

			for (int j = 0; j < count; j++)
				n += (held[j] = malloc_one(malloc_sizes[(j + i) % count])) != NULL;
			/* every other one first, then the rest: neighbours coalesce in the bins */
			for (int j = 0; j < count; j += 2)
				free_one(held[j]);
			for (int j = 1; j < count; j += 2)
				free_one(held[j]);
		}
	} while (!spin__expired(s));
	return n;
}

int workload__malloc(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "malloc", argc, argv))
		return 1;
	mallopt(M_MMAP_THRESHOLD, MALLOC_MMAP_THRESHOLD);
	s.acc = malloc_loop(&s);
	return 0;
}

/*
 * python3: exec the first python3 in PATH on a script that reads /dev/zero 64 KB at a time
 * with os.read() and does a little pure-Python arithmetic, for SECONDS of its CPU time. At
 * the native level libc's read is then called from the interpreter (python3 or libpython:
 * os.read -> _Py_read -> read), and below it are the interpreter's frames down to main and
 * _start: a program of someone else's build, frame pointers or not. A wrapper script first
 * in PATH (pyenv's shims) is refused, since its shell would be another caller of read.
 */
static const char python3_script[] =
	"import os, sys, time\n"
	"secs = float(sys.argv[1])\n"
	"fd = os.open('/dev/zero', os.O_RDONLY)\n"
	"end = time.process_time() + secs\n"
	"n = 0\n"
	"while True:\n"
	"    for i in range(64):\n"
	"        n += len(os.read(fd, 65536))\n"
	"        n += sum(range(50))\n"
	"    if time.process_time() >= end:\n"
	"        break\n";

/* the first python3 in PATH, into path: 0 when it is an ELF program, else -ENOENT */
static int python3__find(char *path, size_t size)
{
	const char *dirs = getenv("PATH");
	char magic[4];
	int fd, len;
	ssize_t n;

	while (dirs && *dirs) {
		len = (int)strcspn(dirs, ":");
		if (snprintf(path, size, "%.*s/python3", len, len ? dirs : ".") < (int)size &&
		    !access(path, X_OK)) {
			fd = open(path, O_RDONLY | O_CLOEXEC);
			n = fd < 0 ? -1 : read(fd, magic, sizeof(magic));
			if (fd >= 0)
				close(fd);
			if (n == sizeof(magic) && !memcmp(magic, "\177ELF", 4))
				return 0;
			fprintf(stderr, "perf test -w python3: %s, first in PATH, is not an ELF program (a wrapper script?): put a python3 program first in PATH\n",
				path);
			return -ENOENT;
		}
		dirs += len + (dirs[len] == ':');
	}
	fprintf(stderr, "perf test -w python3: no python3 in PATH\n");
	return -ENOENT;
}

int workload__python3(int argc, const char **argv)
{
	char path[PATH_MAX];
	struct spin s;

	if (spin__init(&s, "python3", argc, argv))
		return 1;
	if (argc > 1) {
		fprintf(stderr, "perf test -w python3: too many arguments (usage: python3 [SECONDS])\n");
		return 1;
	}
	if (python3__find(path, sizeof(path)))
		return 1;
	fflush(NULL);
	execl(path, "python3", "-c", python3_script, argc ? argv[0] : "1", (char *)NULL);
	fprintf(stderr, "perf test -w python3: cannot run %s: %s\n", path, strerror(errno));
	return 1;
}
