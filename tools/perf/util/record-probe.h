/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-probe.h - what the running kernel accepts, asked with a minimal attr of its own (as
 * perf's missing-feature probes do) before the recording's events are opened, so that a
 * refusal of those events is blamed on its real cause.
 *
 * Deferred user callchains (attr.defer_callchain, bit 38, Linux >= 6.19): a software
 * cpu-clock event of the calling thread, user-only, with PERF_SAMPLE_CALLCHAIN, is opened
 * with bit 38 and, if that is refused with EINVAL, once more without it: only when the second
 * open succeeds does the kernel lack the feature. Every descriptor is closed again.
 */
#ifndef PERF_UTIL_RECORD_PROBE_H
#define PERF_UTIL_RECORD_PROBE_H

#include <perf/abi.h>

enum probe_result {
	PROBE_UNKNOWN = -1,	/* the plain attr was refused too: no conclusion */
	PROBE_MISSING = 0,
	PROBE_PRESENT = 1,
};

/* perf_event_open(attr, pid 0, cpu -1): a descriptor or -1 with errno set (tests fake it) */
typedef int (*probe_open_fn)(const struct perf_event_attr *attr);

/* the kernel's answer on bit 38; open NULL: the real syscall */
enum probe_result probe__defer_callchain(probe_open_fn open);

#endif
