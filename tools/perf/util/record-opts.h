/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-opts.h - perf record's small output options that have no module of their own:
 * --mmap-flush, --affinity, -r. Their option callbacks (parse-options.h) refuse a bad value
 * with one line; the helpers apply them once the recording is set up.
 *
 * --affinity is accepted and checked only: perf moves its reading threads to the CPU or node
 * of the ring they read; we read every ring from one thread (see perf-record.txt).
 */
#ifndef PERF_UTIL_RECORD_OPTS_H
#define PERF_UTIL_RECORD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>

struct option;
/* opt->value: a u64, the bytes (0: perf's default, 1) */
int record_opts__mmap_flush(const struct option *opt, const char *arg, bool unset);
/* opt->value: a const char *, "node" or "cpu" (NULL: not given) */
int record_opts__affinity(const struct option *opt, const char *arg, bool unset);

/* --mmap-flush for rings of pages pages: at most a quarter of one, as perf (verbose: say so) */
u64 record_opts__flush_min(u64 flush, size_t pages, bool verbose);
/* -r: 0 or -errno, having said why; prio 0 is none. The check of its range: */
int record_opts__realtime(int prio);
/* 0, or -EINVAL with the line printed: prio outside 0 .. the SCHED_FIFO maximum */
int record_opts__check_realtime(int prio);

#endif
