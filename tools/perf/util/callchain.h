/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callchain.h - turning a sample's raw callchain (context markers + ips) into resolved frames.
 *
 * Frames are innermost first, markers removed, each resolved in the cpumode the last marker
 * set. The frames array belongs to the caller (struct callchain_cursor, reused per sample).
 */
#ifndef PERF_UTIL_CALLCHAIN_H
#define PERF_UTIL_CALLCHAIN_H

#include <perf/error.h>
#include <perf/event.h>
#include "machine.h"

struct callchain_frame {
	u64			ip;
	struct map		*map;		/* borrowed from the machine, may be NULL */
	const struct symbol	*sym;		/* may be NULL */
	u64			sym_addr;	/* ip in the symbol's address space */
	u8			cpumode;
	bool			cookie;		/* an unstitched deferred cookie (printed as "(cookie)") */
};

struct callchain_cursor {
	struct callchain_frame	*frames;
	size_t			nr, alloc;
};

/*
 * Walking a raw callchain: markers switch the cpumode and are skipped, at most max_stack
 * addresses come out (perf's count), and an unstitched deferred cookie is left out (cookie
 * says whether it would be the next entry). Use callchain__valid() first: perf drops the
 * whole chain when it meets a marker it does not know.
 */
struct callchain_iter {
	const struct perf_sample *sample;
	u64		i, nr;
	unsigned int	max_stack, nr_entries;
	u8		cpumode;
	bool		cookie;
};

void callchain_iter__init(struct callchain_iter *it, const struct perf_sample *sample,
			  unsigned int max_stack);
bool callchain_iter__next(struct callchain_iter *it, u64 *ip, u8 *cpumode);
bool callchain__valid(const struct perf_sample *sample, struct perf_err *err);

void callchain_cursor__init(struct callchain_cursor *c);
void callchain_cursor__exit(struct callchain_cursor *c);

/*
 * Resolve sample->callchain for thread into c (reset first), at most max_stack frames.
 * Returns 0, or -EINVAL for an unknown context marker (err says which).
 */
int callchain__resolve(struct machine *machine, struct thread *thread,
		       const struct perf_sample *sample, unsigned int max_stack,
		       struct callchain_cursor *c, struct perf_err *err);

#endif
