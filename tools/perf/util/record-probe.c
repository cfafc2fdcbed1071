// SPDX-License-Identifier: GPL-2.0
/* Feature probes before a recording opens its events. See record-probe.h. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "record-probe.h"

static int probe__sys_open(const struct perf_event_attr *attr)
{
	return (int)syscall(SYS_perf_event_open, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* opens attr and closes it again: 0, or the errno of the refusal */
static int probe__try(probe_open_fn open, const struct perf_event_attr *attr)
{
	int fd = open(attr);

	if (fd < 0)
		return errno ? errno : EINVAL;
	close(fd);
	return 0;
}

enum probe_result probe__defer_callchain(probe_open_fn open)
{
	struct perf_event_attr attr;
	int err;

	if (!open)
		open = probe__sys_open;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = 0;	/* cpu-clock: every kernel has it */
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	/* user only and disabled: allowed at any perf_event_paranoid, never counts */
	attr.flags = PERF_ATTR_FLAG(DISABLED) | PERF_ATTR_FLAG(EXCLUDE_KERNEL) |
		     PERF_ATTR_FLAG(EXCLUDE_HV) | PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	err = probe__try(open, &attr);
	if (!err)
		return PROBE_PRESENT;
	if (err != EINVAL)
		return PROBE_UNKNOWN;
	attr.flags &= ~PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	return probe__try(open, &attr) ? PROBE_UNKNOWN : PROBE_MISSING;
}
