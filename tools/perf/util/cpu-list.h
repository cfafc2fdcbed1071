/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu-list.h - the one reader of CPU (and NUMA node) lists: perf record -C, perf script and
 * report -C, and the lists of sysfs (devices/system/cpu/online, node/online).
 *
 * perf's syntax, as its cpu map reads it: numbers (strtoul base 0, so "0x1" is 1), ranges
 * "a-b" with a <= b, separated by commas or newlines ("0-3,5", sysfs's "0-1\n"); a CPU named
 * twice is refused. The list must start with a digit; it ends quietly at the first entry that
 * does not ("1,x" is CPU 1), as perf's does.
 */
#ifndef PERF_UTIL_CPU_LIST_H
#define PERF_UTIL_CPU_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

/*
 * the largest CPU number a list may hold: perf refuses INT_MAX and above, this a million
 * (no machine has more CPUs; a typo like 0-99999999 is not a 400 MB list)
 */
#define CPU_LIST_MAX	((1u << 20) - 1)

/*
 * The CPUs of spec, ascending, into *cpus (owned by the caller, NULL when none). 0, -EINVAL
 * with err saying what is wrong where (no prefix: the caller names the option), or -ENOMEM.
 */
int cpu_list__cpus(const char *spec, u32 **cpus, size_t *nr, struct perf_err *err);
/*
 * The highest number + 1 and the count of a sysfs list (an empty line: none, 0 and 0);
 * -EINVAL when it is not one. Either out pointer may be NULL.
 */
int cpu_list__parse(const char *list, u32 *max_plus_one, u32 *count);
/* is n in the list (false too when it is not a list) */
bool cpu_list__has(const char *list, u32 n);

#endif /* PERF_UTIL_CPU_LIST_H */
