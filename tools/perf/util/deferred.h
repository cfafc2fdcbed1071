/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deferred.h - stitching PERF_RECORD_CALLCHAIN_DEFERRED user stacks onto the samples that
 * carry their cookie (callchain [..., PERF_CONTEXT_USER_DEFERRED, cookie]).
 *
 * The session's first sample stage (deferred-stage.c) feeds it, in delivery (time) order:
 * every sample whose callchain ends in the marker + cookie, every type-22 record, every
 * EXIT, and the end of the input.
 * The stitcher calls deliver() for each sample exactly once: with the merged callchain
 * (kernel part, the PERF_CONTEXT_USER_DEFERRED marker, then the record's user ips), or, when
 * no record can be had, unmerged (the original chain, ending in marker + cookie).
 *
 * Matching is by (tid, cookie), never by event id, through a hash of threads keyed by tid,
 * each holding its pending samples in arrival order and its latest record; a record consumes
 * its thread's whole list, so every sample and record costs O(1) amortized:
 *  - a sample whose record already went by (the thread's latest record has its cookie) is
 *    stitched at once: each thread's latest record is kept until its next record or exit;
 *  - a record stitches every pending sample of its (tid, cookie), of any event;
 *  - a newer record of a tid with another cookie releases that tid's older pending samples
 *    unmerged (they lost theirs);
 *  - a duplicate record (same tid and cookie again) is ignored: the first one wins;
 *  - EXIT of a tid forgets its latest record; its pending samples wait on, since the kernel
 *    writes the record of the last kernel entry while the task exits, which may come after
 *    the EXIT record: stitched when it comes, released unmerged (counted as lost to the exit)
 *    at the end of input otherwise;
 *  - the end of input releases what is pending, unmerged;
 *  - pending samples are capped by max_mem bytes: past it the oldest are released unmerged,
 *    with one warning.
 *
 * What deliver() gets:
 *  - stitched: sample->callchain is the merged chain (the sample's ips up to and including
 *    the marker, then the record's ips), callchain_nr its length, deferred_callchain false;
 *    deferred_cookie still says which cookie it was;
 *  - released: the sample as parsed, deferred_callchain true (the last ip is the cookie),
 *    whatever the reason. (Upstream perf clears the flag when a newer record releases a
 *    sample, so it prints that cookie as an unknown user address; we print it as the cookie
 *    in every case, as upstream does for the samples it flushes at the end.)
 * A queued sample is delivered from inside the call that resolves it (a record, an exit, the
 * flush, or a later sample pushing the memory cap), so delivery follows the time of that
 * event, as upstream perf does, not the sample's own time.
 *
 * Memory: max_mem caps what is really held for pending samples: the arena chunks the copies
 * live in (a chunk is a sixteenth of the cap, 4 KB to 1 MB) plus a small fixed-size index
 * entry per sample. Nothing is allocated per sample. The cap is checked before a copy is
 * made, so what is held never exceeds it; under a cap smaller than one chunk nothing can
 * wait and every sample whose record has not come yet is released at once.
 *
 * Ownership: the stitcher copies each queued sample record unless it is stable (the
 * caller's buffer may be reused) and frees the copy after deliver() returns. A sample's
 * priv goes to deliver() or put(), exactly once, also when queue() fails. The
 * perf_sample and callchain passed to deliver() are only valid during the call; deliver()
 * must not call back into the stitcher. evattr pointers are kept with queued samples: the
 * attrs must outlive the stitcher (the session's perf_data owns them). Errors: deliver()'s
 * and parse()'s negative returns are passed up (after the lists were made consistent);
 * -ENOMEM; -EINVAL for a record whose nr does not fit it. The library never prints except
 * through the fprintf helpers below.
 */
#ifndef PERF_UTIL_DEFERRED_H
#define PERF_UTIL_DEFERRED_H

#include <stdio.h>
#include <perf/data.h>

struct deferred_stitcher;

/* a queued sample's priv that will not reach deliver() (its parse failed, the stitcher goes) */
typedef void (*deferred_put_t)(void *arg, void *priv);

/*
 * The full parse of a sample the stitcher is about to deliver (perf_evattr__parse_sample()
 * with scratch by default). The session's stage sets its own to put file_offset in the
 * error message: a queued sample was only peeked at, so a field past its end is found here.
 */
typedef int (*deferred_parse_t)(void *arg, const struct perf_event_header *event,
				u64 file_offset, struct perf_evattr *evattr, bool swapped,
				u64 *scratch, struct perf_sample *sample);

/* a sample whose callchain ends in the marker + cookie (perf_evattr__peek_deferred()) */
struct deferred_sample {
	const struct perf_event_header	*event;
	struct perf_evattr		*evattr;
	u64				file_offset;
	u64				cookie;
	u32				tid;
	bool				swapped;	/* the body is in the other byte order */
	bool				stable;		/* event outlives the stitcher: kept by reference */
	/*
	 * The caller's, kept with the sample (the session's stage: a thread reference), then
	 * handed to deliver(), or to put() when the sample is dropped undelivered; NULL: none.
	 */
	void				*priv;
};

/*
 * One sample out: from says where it came from (from->event is the original sample record,
 * in file byte order as the reader gave it), sample is its parse, stitched or not. The
 * ownership of from->priv (NULL from deferred_stitcher__sample()) passes to deliver(),
 * whatever it returns.
 */
typedef int (*deferred_deliver_t)(void *arg, const struct deferred_sample *from,
				  struct perf_sample *sample);

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
	u64	bytes_peak;		/* most bytes held at once (copies + index) */
	size_t	max_mem;		/* the cap in force */
	bool	mem_cap_hit;		/* the cap released samples: warn once at the end */
};

/* max_mem: cap on pending sample copies in bytes (0 = default, 64 MB) */
struct deferred_stitcher *deferred_stitcher__new(size_t max_mem, deferred_deliver_t deliver,
						 void *arg);
void deferred_stitcher__delete(struct deferred_stitcher *ds);
/* NULL restores the default */
void deferred_stitcher__set_parse(struct deferred_stitcher *ds, deferred_parse_t parse);
/* how privs that will not be delivered are given back (NULL: they are not owned) */
void deferred_stitcher__set_put(struct deferred_stitcher *ds, deferred_put_t put);

/*
 * A deferred sample: delivered now (stitched from the thread's latest record) or queued, as
 * a copy unless s->stable (the bytes outlive the stitcher: perf.data's file mapping), which
 * saves a copy per sample on large files. Its full parse happens once, at delivery.
 */
int deferred_stitcher__queue(struct deferred_stitcher *ds, const struct deferred_sample *s);

/*
 * The same for a sample already parsed (tests, fuzzers): delivered as it is unless
 * sample->deferred_callchain; queued as a copy otherwise (re-parsed when delivered).
 */
int deferred_stitcher__sample(struct deferred_stitcher *ds, const struct perf_event_header *event,
			      struct perf_sample *sample, struct perf_evattr *evattr, bool swapped);

/*
 * A PERF_RECORD_CALLCHAIN_DEFERRED (host order) and the tid of its sample_id. stable: the
 * record outlives the stitcher (perf.data's file mapping), its ips are kept by reference.
 */
int deferred_stitcher__record(struct deferred_stitcher *ds,
			      const struct perf_record_callchain_deferred *rec, u32 tid, bool stable);

/* the thread exited: release its pending samples and forget its latest record */
int deferred_stitcher__thread_exit(struct deferred_stitcher *ds, u32 tid);

/* end of input: release everything pending, oldest first */
int deferred_stitcher__flush(struct deferred_stitcher *ds);

const struct deferred_stats *deferred_stitcher__stats(const struct deferred_stitcher *ds);
/* bytes held now for pending samples (what max_mem caps), and how many are pending */
size_t deferred_stitcher__bytes_held(const struct deferred_stitcher *ds);
u64 deferred_stitcher__nr_pending(const struct deferred_stitcher *ds);
/* the --stitch-stats block */
void deferred_stats__fprintf(const struct deferred_stats *st, FILE *fp);
/* the one warning line when the cap released samples (nothing otherwise); print it always */
void deferred_stats__fprintf_warning(const struct deferred_stats *st, FILE *fp);

/*
 * Record validation shared with -D and the stitcher: the record holds cookie and nr, and nr
 * ips fit before its trailer_size-byte sample_id. -EINVAL with err saying what is wrong
 * ("claims 5 user ips, room for 2"); the caller adds which record and where.
 */
int perf_record_callchain_deferred__check(const struct perf_event_header *h, u16 trailer_size,
					  struct perf_err *err);

#endif
