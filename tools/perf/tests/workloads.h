/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads.h - small programs built into the perf binary, run with `perf test -w NAME [ARGS]`,
 * so that tests and benchmarks can record a process whose code shape is known exactly (which
 * functions, which call chain) without needing a compiler at test time.
 *
 * The table is const and static; names are stable because shell tests use them. A workload
 * returns its exit status (0 on success); argv holds only the workload's own arguments.
 *
 *   noploop [SECONDS]          spins in one function (default 1 s)
 *   leafloop [SECONDS]         spins in leaf(), called from parent() (default 1 s)
 *   calls [SECONDS] [DEPTH]    spins at the bottom of a fixed chain of frame-pointer frames:
 *                              calls_level1 -> ... -> calls_level8 -> DEPTH x calls_recurse
 *                              -> calls_leaf (default 1 s, DEPTH 0)
 *   forkexec [SECONDS]         two threads spin in forkexec_thread_spin(); a forked child
 *                              spins in forkexec_child_spin(), then execs leafloop SECONDS
 *   threadexit [SECONDS] [MAIN_SECONDS]
 *                              a worker spins in threadexit_worker() for SECONDS while the
 *                              main thread spins MAIN_SECONDS (default 0.25) in
 *                              threadexit_main(), then calls pthread_exit()
 *   defer-fixtures DIR         writes the synthetic deferred-callchain perf.data files of the
 *                              test suite into DIR (not a CPU workload)
 *   unwind-convert IN OUT [DUMP_BYTES]
 *                              rewrites a --call-graph dwarf recording into our fallback form
 *                              (fixture-unwind.h; not a CPU workload)
 *   syscalls [SECONDS]         read(), write() and memset() of libc (frameless wrappers),
 *                              from sys_read_one, sys_write_one, sys_touch <- sys_loop
 *   stdio, pread, condwait,    libc's fread/fwrite/fflush, pread64/readv/preadv,
 *   nanosleep, poll, malloc    pthread_cond_wait/signal, nanosleep/clock_nanosleep,
 *     [SECONDS]                poll/epoll_wait, malloc/free, each from one known function
 *                              of ours (workloads-libc.c has each one's call structure)
 *   cxx [SECONDS]              libstdc++'s ostream and string code from known functions
 *                              (workload-cxx.cc)
 *   python3 [SECONDS]          execs the first python3 in PATH on a loop of os.read() of
 *                              /dev/zero: libc's read called from the interpreter
 *   jitmap [SECONDS]           jit_outer -> jit_inner, machine code in anonymous executable
 *                              memory named by /tmp/perf-PID.map (workload-jit.c; x86-64)
 *   thloop [SECONDS] [THREADS] upstream's (workloads-upstream.c): THREADS - 1 (default 1)
 *                              threads in thfunc -> test_loop, the main one in test_loop
 *   sqrtloop [SECONDS]         upstream's: libm's sqrt() from sqrtloop_spin()
 *   brstack [LOOPS]            upstream's: brstack -> brstack_bench -> brstack_foo/_bar
 *   datasym [SECONDS]          upstream's: loads and stores of the global buf1's fields
 *   inlineloop [SECONDS]       upstream's: inlined_leaf and inlined_parent inlined into
 *                              inlineloop(), at fixed lines of inlineloop.c
 *
 * SECONDS is CPU-bound wall time; 0 runs a single iteration of the inner loop, which lets a
 * test check the workload exists without burning time.
 */
#ifndef PERF_TESTS_WORKLOADS_H
#define PERF_TESTS_WORKLOADS_H

#include <stddef.h>
#include <stdio.h>

struct test_workload {
	const char	*name;
	const char	*usage;		/* its arguments, listed by -v --list-workloads */
	int		(*run)(int argc, const char **argv);
};

/* NULL when there is no workload of that name; the result points into a static table */
const struct test_workload *workload__find(const char *name);

/* one name a line as upstream; with verbose, each name followed by its arguments */
void workloads__fprintf_list(FILE *fp, int verbose);

#endif
