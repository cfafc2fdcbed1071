// SPDX-License-Identifier: GPL-2.0
/* perf record's tracking event. See record-sideband.h. */
#include "record-sideband.h"

void sideband__config_tracking(struct perf_event_attr *a, const struct sideband_opts *o)
{
	a->flags |= PERF_ATTR_FLAG(MMAP) | PERF_ATTR_FLAG(COMM) | PERF_ATTR_FLAG(TASK) |
		    PERF_ATTR_FLAG(MMAP2) | PERF_ATTR_FLAG(COMM_EXEC);
	if (o->build_id)
		a->flags |= PERF_ATTR_FLAG(BUILD_ID);
	if (o->switch_events)
		a->flags |= PERF_ATTR_FLAG(CONTEXT_SWITCH);
	if (o->namespaces)
		a->flags |= PERF_ATTR_FLAG(NAMESPACES);
	if (o->cgroup)
		a->flags |= PERF_ATTR_FLAG(CGROUP);
	if (o->bpf)
		a->flags |= PERF_ATTR_FLAG(KSYMBOL) | PERF_ATTR_FLAG(BPF_EVENT);
	if (o->defer_output)
		a->flags |= PERF_ATTR_FLAG(DEFER_OUTPUT);
}

void sideband__config_dummy(struct perf_event_attr *a, bool immediate)
{
	a->sample_period = 1;
	a->sample_type &= ~PERF_SAMPLE_PERIOD;
	a->flags &= ~(PERF_ATTR_FLAG(FREQ) | PERF_ATTR_FLAG(EXCLUDE_GUEST));
	/* it never samples: only its side-band matters, from the moment it is opened */
	if (immediate)
		a->flags &= ~(PERF_ATTR_FLAG(DISABLED) | PERF_ATTR_FLAG(ENABLE_ON_EXEC));
	else
		a->flags |= PERF_ATTR_FLAG(ENABLE_ON_EXEC);
}
