/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc-children.h - a process and every process descended from it, from the kernel's
 * /proc/PID/task/TID/children lists (CONFIG_PROC_CHILDREN; without them, the process alone).
 * perf record uses it to describe a workload's processes again at the start of each file
 * of --switch-output, since the kernel told their COMM and MMAP only once, in the first.
 *
 * A racy snapshot by nature: a process may fork or exit while the lists are read. Pure but
 * for the reads; the array is the caller's.
 */
#ifndef PERF_UTIL_PROC_CHILDREN_H
#define PERF_UTIL_PROC_CHILDREN_H

#include <stddef.h>
#include <sys/types.h>
#include <perf/error.h>

/* pid first, then the others parents before children; proc NULL: "/proc". 0 or -ENOMEM */
int proc__descendants(const char *proc, pid_t pid, pid_t **pids, size_t *nr,
		      struct perf_err *err);

#endif
