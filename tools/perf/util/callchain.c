// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "callchain.h"

bool callchain__context_cpumode(u64 ip, u8 *cpumode)
{
	switch (ip) {
	case PERF_CONTEXT_HV:
		*cpumode = PERF_RECORD_MISC_HYPERVISOR;
		return true;
	case PERF_CONTEXT_KERNEL:
		*cpumode = PERF_RECORD_MISC_KERNEL;
		return true;
	case PERF_CONTEXT_USER:
	case PERF_CONTEXT_USER_DEFERRED:
		*cpumode = PERF_RECORD_MISC_USER;
		return true;
	case PERF_CONTEXT_GUEST_KERNEL:
		*cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
		return true;
	case PERF_CONTEXT_GUEST_USER:
		*cpumode = PERF_RECORD_MISC_GUEST_USER;
		return true;
	case PERF_CONTEXT_GUEST:
		return true;
	default:
		return false;
	}
}

bool callchain__valid(const struct perf_sample *sample, struct perf_err *err)
{
	u8 cpumode;

	for (u64 i = 0; i < sample->callchain_nr; i++) {
		u64 ip = sample->callchain[i];

		if (sample->deferred_callchain && i == sample->callchain_nr - 1)
			break;
		if (ip >= PERF_CONTEXT_MAX && !callchain__context_cpumode(ip, &cpumode)) {
			perf_err__set(err, EINVAL, "invalid callchain context: %lld", (long long)ip);
			return false;
		}
	}
	return true;
}

bool callchain__user_stack_only(const struct perf_sample *sample)
{
	if (!sample->user_stack_size)
		return false;
	for (u64 i = 0; i < sample->callchain_nr; i++) {
		/* a stitched deferred chain has its user part after USER_DEFERRED */
		if (sample->callchain[i] == PERF_CONTEXT_USER ||
		    (sample->callchain[i] == PERF_CONTEXT_USER_DEFERRED && !sample->deferred_callchain))
			return false;
	}
	return true;
}

bool callchain__user_not_unwound(const struct perf_sample *sample)
{
	return !sample->callchain_nr && sample->cpumode == PERF_RECORD_MISC_USER &&
	       callchain__user_stack_only(sample);
}

void callchain_iter__init(struct callchain_iter *it, const struct perf_sample *sample,
			  unsigned int max_stack)
{
	it->sample = sample;
	it->i = 0;
	/* an unstitched deferred sample: its cookie is not an address */
	it->nr = sample->callchain_nr - (sample->deferred_callchain ? 1 : 0);
	it->max_stack = max_stack;
	it->nr_entries = 0;
	/* perf starts in user mode: a chain without markers is a user chain */
	it->cpumode = PERF_RECORD_MISC_USER;
	it->cookie = false;
	it->context = 0;
}

bool callchain_iter__next(struct callchain_iter *it, u64 *ip, u8 *cpumode)
{
	while (it->i < it->nr && it->nr_entries < it->max_stack) {
		u64 v = it->sample->callchain[it->i++];

		if (v >= PERF_CONTEXT_MAX) {
			callchain__context_cpumode(v, &it->cpumode);
			it->context = v;
			continue;
		}
		it->nr_entries++;
		*ip = v;
		*cpumode = it->cpumode;
		return true;
	}
	it->cookie = it->sample->deferred_callchain && it->nr_entries < it->max_stack;
	return false;
}
