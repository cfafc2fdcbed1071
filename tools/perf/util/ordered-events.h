/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ordered-events.h - delivering records in timestamp order across CPU buffers.
 *
 * Records are queued with their timestamp and file position and delivered in (timestamp,
 * arrival) order when flushed:
 *
 *   ROUND  on FINISHED_ROUND: everything up to the largest timestamp of the round before
 *          (perf writes a round marker after draining every buffer once, so nothing older
 *          can still come);
 *   HALF   when the queue passes its memory cap: the older half;
 *   FINAL  at the end of the input: everything.
 *
 * The queue copies the records the reader may reuse (pipe, decompressed, aligned copies)
 * and points at the others (the file mapping outlives the queue). A record without a timestamp (0) is delivered at once; one
 * older than the last flush is still queued and counted in nr_late.
 */
#ifndef PERF_UTIL_ORDERED_EVENTS_H
#define PERF_UTIL_ORDERED_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

struct perf_event_header;

struct ordered_event {
	u64				timestamp;
	u64				file_offset;
	u64				seq;		/* arrival order, breaks ties */
	const struct perf_event_header	*event;
	u16				size;
	bool				owned;		/* event is our copy, freed after delivery */
	bool				stable;		/* event outlives the queue (file mapping) */
};

/* delivers one record; a negative return stops the flush and is passed up */
typedef int (*ordered_events__deliver_t)(void *arg, const struct ordered_event *oe);

enum oe_flush {
	OE_FLUSH__ROUND,
	OE_FLUSH__HALF,
	OE_FLUSH__FINAL,
};

struct ordered_events {
	struct ordered_event	*q;		/* arrival order, sorted when flushed */
	size_t			nr, alloc;
	struct ordered_event	*tmp;		/* merge sort scratch */
	size_t			tmp_alloc;
	bool			sorted;		/* q is in (timestamp, seq) order */
	u64			seq;
	u64			max_timestamp;	/* largest queued so far */
	u64			next_flush;	/* ROUND flushes up to here */
	u64			last_flush;	/* everything <= this was delivered */
	size_t			mem_used;
	size_t			max_mem;
	ordered_events__deliver_t deliver;
	void			*arg;
	u64			nr_late;	/* records older than last_flush */
	u64			nr_half_flushes;
};

void ordered_events__init(struct ordered_events *oe, size_t max_mem,
			  ordered_events__deliver_t deliver, void *arg);
void ordered_events__exit(struct ordered_events *oe);
/*
 * Queue event: a copy of it unless stable (its bytes outlive the queue). Returns 0, a delivery error from a flush the cap forced or from an
 * immediate delivery (timestamp 0), or -ENOMEM.
 */
int ordered_events__queue(struct ordered_events *oe, const struct perf_event_header *event,
			  u64 timestamp, u64 file_offset, bool stable);
int ordered_events__flush(struct ordered_events *oe, enum oe_flush how);

#endif
