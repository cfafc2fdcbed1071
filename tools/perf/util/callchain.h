/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callchain.h - walking a sample's raw callchain (context markers + ips) as perf does:
 * addresses innermost first, markers removed, each with the cpumode the last marker set.
 * frame-resolver.h resolves the addresses (and caches whole chains).
 */
#ifndef PERF_UTIL_CALLCHAIN_H
#define PERF_UTIL_CALLCHAIN_H

#include <perf/error.h>
#include <perf/event.h>
#include "machine.h"

/*
 * Walking a raw callchain: markers switch the cpumode and are skipped, at most max_stack
 * addresses come out (perf's count), and an unstitched deferred cookie is left out (cookie
 * says whether it would be the next entry). Use callchain__valid() first: perf drops the
 * whole chain when it meets a marker it does not know.
 */
struct callchain_iter {
	const struct perf_sample *sample;
	u64		i, nr;
	u64		context;	/* the last marker seen, 0 before the first */
	unsigned int	max_stack, nr_entries;
	u8		cpumode;
	bool		cookie;
};

void callchain_iter__init(struct callchain_iter *it, const struct perf_sample *sample,
			  unsigned int max_stack);
bool callchain_iter__next(struct callchain_iter *it, u64 *ip, u8 *cpumode);
bool callchain__valid(const struct perf_sample *sample, struct perf_err *err);
/* a context marker's cpumode (PERF_CONTEXT_GUEST: none, *cpumode kept); false: unknown */
bool callchain__context_cpumode(u64 ip, u8 *cpumode);

/*
 * A sample of a --call-graph dwarf recording: the kernel leaves the user part out of the
 * callchain and dumps the user stack for the reader to unwind. Until we unwind, the session
 * counts these samples to say so once.
 */
bool callchain__user_stack_only(const struct perf_sample *sample);
/*
 * Such a sample taken in user mode: its callchain is empty, and the frame resolver makes it
 * the sample's ip alone, what the file has (a kernel-mode one keeps its kernel part).
 */
bool callchain__user_not_unwound(const struct perf_sample *sample);

#endif
