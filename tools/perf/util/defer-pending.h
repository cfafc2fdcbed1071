/* SPDX-License-Identifier: GPL-2.0 */
/*
 * defer-pending.h - which deferred samples of a recording still wait for their
 * PERF_RECORD_CALLCHAIN_DEFERRED, so that perf record can say at the end how many never got
 * their user callchain (the task was still in the kernel when recording stopped, or the
 * record was lost).
 *
 * Keyed by (tid, cookie): all samples of one kernel entry share a cookie and one record
 * answers them all, also those read after it (the buffers are read CPU by CPU, not in time
 * order, and the kernel may write a record before a sample of its entry); a second copy of
 * a record is ignored. Owns its table; no pointer passed in is kept.
 */
#ifndef PERF_UTIL_DEFER_PENDING_H
#define PERF_UTIL_DEFER_PENDING_H

#include <perf/abi.h>
#include "hashmap.h"

struct defer_pending {
	struct hashmap			keys;		/* struct defer_pending_entry, owned */
	u64				waiting;	/* samples under all keys */
	u64				answered;	/* samples a record answered */
	u32				nr_answered_keys;	/* answered entries kept */
	bool				oom;		/* a sample could not be kept: counts are low */
};

void defer_pending__init(struct defer_pending *dp);
void defer_pending__exit(struct defer_pending *dp);
/* a deferred sample of tid with cookie */
void defer_pending__sample(struct defer_pending *dp, u32 tid, u64 cookie);
/* a CALLCHAIN_DEFERRED record of tid with cookie: its samples are answered */
void defer_pending__record(struct defer_pending *dp, u32 tid, u64 cookie);

#endif
