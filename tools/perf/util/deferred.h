/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deferred.h - stitching PERF_RECORD_CALLCHAIN_DEFERRED user stacks onto the samples that
 * carry their cookie (callchain [..., PERF_CONTEXT_USER_DEFERRED, cookie]).
 *
 * The session feeds it, in delivery (time) order: every sample with
 * sample->deferred_callchain, every type-22 record, every EXIT, and the end of the input.
 * The stitcher calls deliver() for each sample exactly once: with the merged callchain
 * (kernel part, the PERF_CONTEXT_USER_DEFERRED marker, then the record's user ips), or, when
 * no record can be had, unmerged (the original chain, ending in marker + cookie).
 *
 * Matching is by (tid, cookie) through a hash index, never by event id:
 *  - a sample whose record already went by (the thread's latest record has its cookie) is
 *    stitched at once: each thread's latest record is kept until its next record or exit;
 *  - a record stitches every pending sample of its (tid, cookie), of any event;
 *  - a newer record of a tid with another cookie releases that tid's older pending samples
 *    unmerged (they lost theirs);
 *  - a duplicate record (same tid and cookie again) is ignored: the first one wins;
 *  - EXIT of a tid and the end of input release what is pending, unmerged;
 *  - pending samples are capped by max_mem bytes: past it the oldest are released unmerged,
 *    with one warning.
 *
 * Ownership: the stitcher copies each queued sample record (the caller's buffer may be
 * reused) and frees the copy after deliver() returns. The perf_sample and callchain passed
 * to deliver() are only valid during the call.
 */
#ifndef PERF_UTIL_DEFERRED_H
#define PERF_UTIL_DEFERRED_H

#include <stdio.h>
#include <perf/data.h>

struct deferred_stitcher;

/* event is the original sample record (file byte order as the reader gave it) */
typedef int (*deferred_deliver_t)(void *arg, const struct perf_event_header *event,
				  struct perf_sample *sample, struct perf_evattr *evattr);

enum deferred_release_reason {
	DEFERRED_RELEASE_NEWER_COOKIE,	/* a later record of the tid had another cookie */
	DEFERRED_RELEASE_EXIT,		/* the thread exited first */
	DEFERRED_RELEASE_EOF,		/* the input ended first */
	DEFERRED_RELEASE_MEMORY,	/* the pending-sample cap was reached */
	DEFERRED_RELEASE_NR,
};

struct deferred_stats {
	u64	stitched;		/* samples that got their user stack from a later record */
	u64	stitched_early;		/* ... from a record that arrived before them */
	u64	released[DEFERRED_RELEASE_NR];	/* samples delivered without user stack */
	u64	records;		/* type-22 records seen */
	u64	records_duplicate;	/* ignored: same tid+cookie as the thread's latest */
	u64	records_unused;		/* stitched no sample at all */
	u64	pending_peak;		/* most samples pending at once */
};

/* max_mem: cap on pending sample copies in bytes (0 = default, 64 MB) */
struct deferred_stitcher *deferred_stitcher__new(size_t max_mem, deferred_deliver_t deliver,
						 void *arg);
void deferred_stitcher__delete(struct deferred_stitcher *ds);

/*
 * A sample with sample->deferred_callchain set. Delivers it now (stitched from the thread's
 * latest record) or queues a copy. swapped: the event's body is in the other byte order
 * (re-parsed with perf_evattr__parse_sample when delivered).
 */
int deferred_stitcher__sample(struct deferred_stitcher *ds, const struct perf_event_header *event,
			      struct perf_sample *sample, struct perf_evattr *evattr, bool swapped);

/* a PERF_RECORD_CALLCHAIN_DEFERRED (host order) and its parsed sample_id (for tid) */
int deferred_stitcher__record(struct deferred_stitcher *ds,
			      const struct perf_record_callchain_deferred *rec,
			      const struct perf_sample *id);

/* the thread exited: release its pending samples and forget its latest record */
int deferred_stitcher__thread_exit(struct deferred_stitcher *ds, u32 tid);

/* end of input: release everything pending, oldest first */
int deferred_stitcher__flush(struct deferred_stitcher *ds);

const struct deferred_stats *deferred_stitcher__stats(const struct deferred_stitcher *ds);
/* the --stitch-stats block */
void deferred_stats__fprintf(const struct deferred_stats *st, FILE *fp);

/* record validation shared with -D and the stitcher: nr fits the record (minus trailer) */
int perf_record_callchain_deferred__check(const struct perf_event_header *h, u16 trailer_size,
					  struct perf_err *err);

#endif
