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
