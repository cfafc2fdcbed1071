/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what the files of built-in workloads (workloads.c, workloads-libc.c,
 * workload-cxx.cc) share: the CPU-time deadline and the attribute that keeps a function a
 * frame of its own. Not an API for anything else: include it only from those files.
 *
 * Their value is a known code shape: callchain tests look for these exact function names in
 * this exact caller order, so a workload function may not be inlined, cloned
 * (foo.constprop.0), merged or turned into a tail jump, and every one must set up a frame
 * pointer even though the perf binary is built with -O2. Mark each with WORKLOAD_FN.
 *
 * Including this header changes the optimisation flags of everything after it in the file
 * (see below): include it last.
 */
#ifndef PERF_TESTS_WORKLOAD_H
#define PERF_TESTS_WORKLOAD_H

#include <stdbool.h>
#include <time.h>

#if defined(__clang__)
/* clang has no per-function frame-pointer switch: build with -fno-omit-frame-pointer */
#define WORKLOAD_FN	__attribute__((noinline, disable_tail_calls))
#else
/* -O2 would drop the frame pointer and turn the last call of each level into a jump */
#pragma GCC optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")
/* noipa: no inlining, no cloning with a renamed symbol, no identical-code folding */
#define WORKLOAD_FN	__attribute__((noipa))
#endif

/*
 * Iterations of the spin loop between two clock reads. At about a nanosecond each, the
 * clock is read roughly once a millisecond: precise enough for a deadline in seconds, and
 * rare enough that samples in clock_gettime() (a system call for a thread's CPU clock)
 * stay far below one in a thousand.
 */
#define SPIN_BATCH	(1u << 20)

/*
 * A workload runs for SECONDS of CPU time, not of wall time: a test counts the samples it
 * took (cpu-clock samples measure CPU time), and on a loaded machine a wall-time deadline
 * would leave it a fraction of them. Each thread reads its own CPU clock against the
 * deadline set from the starting thread's: a thread or child started later, whose clock
 * starts at 0, spins at most the few milliseconds the starter had used longer.
 */
#define SPIN_CLOCK	CLOCK_THREAD_CPUTIME_ID

struct spin {
	struct timespec	end;		/* on SPIN_CLOCK */
	bool		once;	/* SECONDS was 0: one batch, then return */
	volatile unsigned long acc;
};

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Sets the deadline from argv[0] (SECONDS, default 1) when argc > 0; on a bad value prints
 * one line naming workload wl and returns -EINVAL. Other arguments are the caller's.
 */
int spin__init(struct spin *s, const char *wl, int argc, const char **argv);

/*
 * Always inlined: the clock_gettime() it calls is then called from the workload's own loop,
 * which is what the callchain judge (tests/shell/lib/callers.awk) expects of every workload.
 */
static inline __attribute__((always_inline)) bool spin__expired(const struct spin *s)
{
	struct timespec now;

	if (s->once)
		return true;
	clock_gettime(SPIN_CLOCK, &now);
	return now.tv_sec > s->end.tv_sec ||
	       (now.tv_sec == s->end.tv_sec && now.tv_nsec >= s->end.tv_nsec);
}

/* the entries of the workloads in workloads-libc.c and workload-cxx.cc (see workloads.h) */
int workload__stdio(int argc, const char **argv);
int workload__jitmap(int argc, const char **argv);
int workload__pread(int argc, const char **argv);
int workload__condwait(int argc, const char **argv);
int workload__nanosleep(int argc, const char **argv);
int workload__poll(int argc, const char **argv);
int workload__malloc(int argc, const char **argv);
int workload__python3(int argc, const char **argv);
int workload__cxx(int argc, const char **argv);
/* upstream's workloads, under their names (workloads-upstream.c, inlineloop.c) */
int workload__thloop(int argc, const char **argv);
int workload__sqrtloop(int argc, const char **argv);
int workload__brstack(int argc, const char **argv);
int workload__datasym(int argc, const char **argv);
int workload__inlineloop(int argc, const char **argv);

#ifdef __cplusplus
}
#endif

#endif
