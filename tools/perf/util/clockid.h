/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clockid.h - the clocks of perf record -k/--clockid, by perf 6.1's names and numbers:
 * monotonic (mono), monotonic_raw (raw), realtime (real), boottime (boot), tai, each also
 * with a CLOCK_ prefix, case-insensitive, or a clockid_t number (clock_gettime(2)).
 */
#ifndef PERF_UTIL_CLOCKID_H
#define PERF_UTIL_CLOCKID_H

#include <stdbool.h>

/* a name or a whole non-negative decimal number into *clockid: 0 or -EINVAL */
int clockid__parse(const char *arg, int *clockid);
/* the clocks the kernel stamps samples with (perf_event_open's use_clockid): the five above */
bool clockid__kernel_supported(int clockid);

#endif
