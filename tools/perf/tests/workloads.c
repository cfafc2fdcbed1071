// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in workloads of `perf test -w` and their table; those that spend their time in
 * libc or libstdc++ from known callers are in workloads-libc.c and workload-cxx.cc. Every
 * function of a known chain is a WORKLOAD_FN (workload.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "defer-convert.h"
#include "fixture-defer.h"
#include "fixture-unwind.h"
#include "workloads.h"
/* last: it sets the optimisation flags of what follows */
#include "workload.h"

/* the longest run we accept: a mistyped argument should not hang a test for days */
#define MAX_SECONDS	86400.0

/* the fixed part of the `calls` chain is calls_level1 .. calls_level8 */
#define CALLS_MAX_DEPTH	100000

static int parse_seconds(const char *wl, const char *arg, double *secs)
{
	char *end;

	errno = 0;
	*secs = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*secs) || *secs < 0 || *secs > MAX_SECONDS) {
		fprintf(stderr, "perf test -w %s: SECONDS must be a number from 0 to %.0f, not '%s'\n",
			wl, MAX_SECONDS, arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_depth(const char *wl, const char *arg, unsigned long *depth)
{
	char *end;

	errno = 0;
	*depth = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || *depth > CALLS_MAX_DEPTH) {
		fprintf(stderr, "perf test -w %s: DEPTH must be an integer from 0 to %d, not '%s'\n",
			wl, CALLS_MAX_DEPTH, arg);
		return -EINVAL;
	}
	return 0;
}

int spin__init(struct spin *s, const char *wl, int argc, const char **argv)
{
	double secs = 1.0;

	if (argc > 0 && parse_seconds(wl, argv[0], &secs))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->once = secs == 0;
	clock_gettime(SPIN_CLOCK, &s->end);
	s->end.tv_sec += (time_t)secs;
	s->end.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
	if (s->end.tv_nsec >= 1000000000L) {
		s->end.tv_sec++;
		s->end.tv_nsec -= 1000000000L;
	}
	return 0;
}

/* noploop: all samples in one function */

static WORKLOAD_FN int noploop(struct spin *s)
{
	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc++;
	} while (!spin__expired(s));
	return 0;
}

static int workload__noploop(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "noploop", argc, argv))
		return 1;
	return noploop(&s);
}

/* clockloop: samples in the vDSO's clock_gettime, called from clockloop() */

static WORKLOAD_FN int clockloop(struct spin *s)
{
	struct timespec ts;

	do {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s->acc += (unsigned long)ts.tv_nsec;
	} while (!spin__expired(s));
	return 0;
}

static int workload__clockloop(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "clockloop", argc, argv))
		return 1;
	return clockloop(&s);
}

/* leafloop: samples in leaf(), whose caller is always parent() */

static WORKLOAD_FN int leaf(struct spin *s, unsigned long step)
{
	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc += step;
	} while (!spin__expired(s));
	return 0;
}

static WORKLOAD_FN int parent(struct spin *s, unsigned long step)
{
	/* the addition keeps the call from becoming a jump that would hide this frame */
	return leaf(s, step) + 1;
}

static int workload__leafloop(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "leafloop", argc, argv))
		return 1;
	return parent(&s, 1) == 1 ? 0 : 1;
}

/*
 * calls: a chain of distinct functions, so a callchain can be checked frame by frame, then
 * optionally DEPTH frames of one recursive function (for max-stack and truncation tests).
 *
 *   workload__calls -> calls_level1 -> ... -> calls_level8 -> calls_recurse x DEPTH
 *                   -> calls_leaf (spins)
 *
 * Each level returns its callee's result plus one, which forces a real call and return.
 */

static WORKLOAD_FN int calls_leaf(struct spin *s)
{
	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc += 3;
	} while (!spin__expired(s));
	return 0;
}

/* depth >= 1: the number of calls_recurse frames from this one down */
static WORKLOAD_FN int calls_recurse(struct spin *s, unsigned long depth)
{
	if (depth == 1)
		return calls_leaf(s) + 1;
	return calls_recurse(s, depth - 1) + 1;
}

static WORKLOAD_FN int calls_level8(struct spin *s, unsigned long depth)
{
	return (depth ? calls_recurse(s, depth) : calls_leaf(s)) + 1;
}

static WORKLOAD_FN int calls_level7(struct spin *s, unsigned long depth)
{
	return calls_level8(s, depth) + 1;
}

static WORKLOAD_FN int calls_level6(struct spin *s, unsigned long depth)
{
	return calls_level7(s, depth) + 1;
}

static WORKLOAD_FN int calls_level5(struct spin *s, unsigned long depth)
{
	return calls_level6(s, depth) + 1;
}

static WORKLOAD_FN int calls_level4(struct spin *s, unsigned long depth)
{
	return calls_level5(s, depth) + 1;
}

static WORKLOAD_FN int calls_level3(struct spin *s, unsigned long depth)
{
	return calls_level4(s, depth) + 1;
}

static WORKLOAD_FN int calls_level2(struct spin *s, unsigned long depth)
{
	return calls_level3(s, depth) + 1;
}

static WORKLOAD_FN int calls_level1(struct spin *s, unsigned long depth)
{
	return calls_level2(s, depth) + 1;
}

static int workload__calls(int argc, const char **argv)
{
	unsigned long depth = 0;
	struct spin s;
	int levels;

	if (spin__init(&s, "calls", argc, argv))
		return 1;
	if (argc > 1 && parse_depth("calls", argv[1], &depth))
		return 1;
	if (argc > 2) {
		fprintf(stderr, "perf test -w calls: too many arguments (usage: calls [SECONDS] [DEPTH])\n");
		return 1;
	}
	levels = calls_level1(&s, depth);
	/* 8 fixed levels plus one per recursive frame: anything else means a broken chain */
	return levels == 8 + (int)depth ? 0 : 1;
}

/* writes the synthetic deferred-callchain perf.data files of the test suite into DIR */
static int workload__defer_fixtures(int argc, const char **argv)
{
	struct perf_err err;

	if (argc != 1) {
		fprintf(stderr, "perf test -w defer-fixtures: usage: defer-fixtures DIR\n");
		return 1;
	}
	if (defer_fixtures__write(argv[0], &err)) {
		fprintf(stderr, "perf test -w defer-fixtures: %s\n", err.msg);
		return 1;
	}
	return 0;
}

/* rewrites a -g recording into the deferred form (the converter of the deferred tests) */
static int workload__defer_convert(int argc, const char **argv)
{
	struct perf_err err;
	unsigned flags = 0;

	/* each: one record per sample, kernel-mode ones too (the benchmark's worst case) */
	if (argc == 3 && !strcmp(argv[2], "each")) {
		flags |= PERF_DEFER_CONVERT_EACH;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "perf test -w defer-convert: usage: defer-convert IN OUT [each]\n");
		return 1;
	}
	if (perf_defer_convert(argv[0], argv[1], flags, &err)) {
		fprintf(stderr, "perf test -w defer-convert: %s\n", err.msg);
		return 1;
	}
	return 0;
}

/* ---- the unwinder's workloads --------------------------------------------------------- */

/* a --call-graph dwarf recording as our fallback recording would be (fixture-unwind.h) */
static int workload__unwind_convert(int argc, const char **argv)
{
	struct unwind_convert_stats stats;
	unsigned long dump = 512;
	struct perf_err err;
	char *end;

	if (argc == 3) {
		dump = strtoul(argv[2], &end, 0);
		if (*end || !dump || dump > 65528 || dump % 8) {
			fprintf(stderr, "perf test -w unwind-convert: DUMP_BYTES must be a multiple of 8 up to 65528, not '%s'\n",
				argv[2]);
			return 1;
		}
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "perf test -w unwind-convert: usage: unwind-convert IN OUT [DUMP_BYTES]\n");
		return 1;
	}
	if (unwind_fixture__convert(argv[0], argv[1], (unsigned int)dump, &stats, &err)) {
		fprintf(stderr, "perf test -w unwind-convert: %s\n", err.msg);
		return 1;
	}
	return 0;
}

/*
 * The syscall-heavy workload: its time goes to libc's frameless wrappers read(), write()
 * and memset(), each called from one known function of ours (never tail-called, see the
 * pragma above): sys_read_one, sys_write_one, sys_touch <- sys_loop <- workload__syscalls.
 */
static char sys_buf[1 << 16];

WORKLOAD_FN static long sys_read_one(int fd)
{
	return read(fd, sys_buf, sizeof(sys_buf));
}

WORKLOAD_FN static long sys_write_one(int fd)
{
	return write(fd, sys_buf, 4096);
}

WORKLOAD_FN static long sys_touch(void)
{
	memset(sys_buf, (int)(sys_buf[7] + 1), sizeof(sys_buf));
	return sys_buf[100];
}

WORKLOAD_FN static long sys_loop(int in, int out, struct spin *sp)
{
	long s = 0;

	do {
		for (int i = 0; i < 64; i++) {
			s += sys_read_one(in);
			s += sys_write_one(out);
			s += sys_touch();
		}
	} while (!spin__expired(sp));
	return s;
}

static int workload__syscalls(int argc, const char **argv)
{
	struct spin sp;
	int in, out;

	if (spin__init(&sp, "syscalls", argc, argv))
		return 1;
	in = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (in < 0 || out < 0) {
		fprintf(stderr, "perf test -w syscalls: cannot open /dev/zero or /dev/null\n");
		return 1;
	}
	sp.acc = (unsigned long)sys_loop(in, out, &sp);
	close(in);
	close(out);
	return 0;
}

/*
 * forkexec: threads, a fork and an exec, for perf record's inheritance. Two threads
 * spin in forkexec_thread_spin(); meanwhile a child is forked that spins in
 * forkexec_child_spin() and then execs this binary's `test -w leafloop`, so one recording
 * holds three comms' worth of threads, a FORK, an EXEC'd COMM and new MMAP2s.
 *
 *   workload__forkexec -> forkexec_threads -> pthread x 2 -> forkexec_thread_spin
 *                      -> fork -> forkexec_child_spin, then exec leafloop
 */

#define FORKEXEC_THREADS	2

static WORKLOAD_FN void *forkexec_thread_spin(void *arg)
{
	struct spin *s = arg;

	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc++;
	} while (!spin__expired(s));
	return NULL;
}

static WORKLOAD_FN int forkexec_child_spin(struct spin *s)
{
	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc += 2;
	} while (!spin__expired(s));
	return 0;
}

static WORKLOAD_FN int forkexec_threads(struct spin *s, const char *secs)
{
	pthread_t th[FORKEXEC_THREADS];
	int n = 0, st, ret = 0;
	pid_t child;

	for (; n < FORKEXEC_THREADS; n++)
		if (pthread_create(&th[n], NULL, forkexec_thread_spin, s))
			break;
	child = fork();
	if (!child) {
		const char *args[] = { "perf", "test", "-w", "leafloop", secs, NULL };

		forkexec_child_spin(s);
		execv("/proc/self/exe", (char *const *)args);
		_exit(127);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (child < 0 || waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		ret = 1;
	return (n == FORKEXEC_THREADS ? ret : 1) + 0;
}

static int workload__forkexec(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "forkexec", argc, argv))
		return 1;
	return forkexec_threads(&s, argc > 0 ? argv[0] : "1");
}

/*
 * threadexit: the main thread leaves first. A worker spins in threadexit_worker() for
 * SECONDS (default 1) while the main thread spins in threadexit_main() for MAIN_SECONDS
 * (default 0.25) and then calls pthread_exit(): the process lives on in its worker, as a
 * daemon whose first thread exits does. perf record -p must follow it to its last thread.
 *
 *   workload__threadexit -> threadexit_main, then pthread_exit
 *                        -> pthread -> threadexit_worker
 */

static WORKLOAD_FN void *threadexit_worker(void *arg)
{
	struct spin *s = arg;

	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc++;
	} while (!spin__expired(s));
	return NULL;
}

static WORKLOAD_FN void threadexit_main(struct spin *s)
{
	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc += 2;
	} while (!spin__expired(s));
}

static int workload__threadexit(int argc, const char **argv)
{
	/* static: the worker reads its deadline after the main thread is gone */
	static struct spin worker, main_spin;
	const char *main_secs[] = { argc > 1 ? argv[1] : "0.25" };
	pthread_t th;

	if (spin__init(&worker, "threadexit", argc, argv) ||
	    spin__init(&main_spin, "threadexit", 1, main_secs))
		return 1;
	if (pthread_create(&th, NULL, threadexit_worker, &worker)) {
		fprintf(stderr, "perf test -w threadexit: cannot create a thread\n");
		return 1;
	}
	threadexit_main(&main_spin);
	/* the process exits with status 0 when its worker returns */
	pthread_exit(NULL);
}

/*
 * bpfprog: loads the smallest BPF program (a socket filter: r0 = 0; exit), named
 * "perf_test", keeps it SECONDS (default 0.2) and unloads it. With the JIT on, the kernel
 * announces it to perf (PERF_RECORD_KSYMBOL of bpf_prog_TAG_perf_test, PERF_RECORD_BPF_EVENT
 * PROG_LOAD), and its unload later. Needs CAP_BPF (root): exit 2 otherwise.
 */
static int workload__bpfprog(int argc, const char **argv)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	struct timespec ts;
	double secs = 0.2;
	int fd;

	if (argc > 0 && parse_seconds("bpfprog", argv[0], &secs))
		return 1;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (unsigned long)"GPL";
	strncpy(attr.prog_name, "perf_test", sizeof(attr.prog_name) - 1);
	fd = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0) {
		fprintf(stderr, "perf test -w bpfprog: cannot load a BPF program: %s\n",
			strerror(errno));
		return 2;
	}
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	close(fd);
	return 0;
}

static const struct test_workload workloads[] = {
	{ "bpfprog",	"[SECONDS]",		workload__bpfprog },
	{ "noploop",	"[SECONDS]",		workload__noploop },
	{ "leafloop",	"[SECONDS]",		workload__leafloop },
	{ "clockloop",	"[SECONDS]",		workload__clockloop },
	{ "calls",	"[SECONDS] [DEPTH]",	workload__calls },
	{ "defer-fixtures", "DIR",		workload__defer_fixtures },
	{ "defer-convert", "IN OUT [each]",	workload__defer_convert },
	{ "unwind-convert", "IN OUT [DUMP_BYTES]", workload__unwind_convert },
	{ "syscalls",	"[SECONDS]",		workload__syscalls },
	{ "forkexec",	"[SECONDS]",		workload__forkexec },
	{ "threadexit",	"[SECONDS] [MAIN_SECONDS]", workload__threadexit },
	{ "stdio",	"[SECONDS]",		workload__stdio },
	{ "pread",	"[SECONDS]",		workload__pread },
	{ "condwait",	"[SECONDS]",		workload__condwait },
	{ "nanosleep",	"[SECONDS]",		workload__nanosleep },
	{ "poll",	"[SECONDS]",		workload__poll },
	{ "malloc",	"[SECONDS]",		workload__malloc },
	{ "cxx",	"[SECONDS]",		workload__cxx },
	{ "python3",	"[SECONDS]",		workload__python3 },
	{ "jitmap",	"[SECONDS]",		workload__jitmap },
	{ "thloop",	"[SECONDS] [THREADS]",	workload__thloop },
	{ "sqrtloop",	"[SECONDS]",		workload__sqrtloop },
	{ "brstack",	"[LOOPS]",		workload__brstack },
	{ "datasym",	"[SECONDS]",		workload__datasym },
	{ "inlineloop",	"[SECONDS]",		workload__inlineloop },
};

const struct test_workload *workload__find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

void workloads__fprintf_list(FILE *fp, int verbose)
{
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++) {
		if (verbose)
			fprintf(fp, "%-16s %s\n", workloads[i].name, workloads[i].usage);
		else
			fprintf(fp, "%s\n", workloads[i].name);
	}
}
