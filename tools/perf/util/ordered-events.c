// SPDX-License-Identifier: GPL-2.0
/*
 * Ordered events as an array in arrival order that is sorted when flushed.
 *
 * perf.data holds each CPU buffer's records in time order, one buffer after the other, so
 * what a round queues is a handful of sorted runs. A flush sorts the queue with a natural
 * merge sort (find the runs, merge neighbours: O(n log runs), sequential memory access,
 * stable so equal timestamps keep their arrival order), delivers the prefix up to the
 * limit and keeps the sorted rest, which is a single run for the next flush.
 *
 *   queue(): append ──► [ run | run | run ... ] ──► flush(limit): sort, deliver ts <= limit
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/abi.h>
#include "ordered-events.h"

#define OE_DEFAULT_MAX_MEM	(1ULL << 30)

void ordered_events__init(struct ordered_events *oe, size_t max_mem,
			  ordered_events__deliver_t deliver, void *arg)
{
	memset(oe, 0, sizeof(*oe));
	oe->max_mem = max_mem ? max_mem : OE_DEFAULT_MAX_MEM;
	oe->deliver = deliver;
	oe->arg = arg;
	oe->sorted = true;
}

void ordered_events__exit(struct ordered_events *oe)
{
	for (size_t i = 0; i < oe->nr; i++)
		if (oe->q[i].owned)
			free((void *)oe->q[i].event);
	free(oe->q);
	free(oe->tmp);
	oe->q = oe->tmp = NULL;
	oe->nr = oe->alloc = 0;
}

static bool before(const struct ordered_event *a, const struct ordered_event *b)
{
	return a->timestamp < b->timestamp || (a->timestamp == b->timestamp && a->seq < b->seq);
}

/* merge the sorted runs [lo, mid) and [mid, hi) of src into dst */
static void merge(const struct ordered_event *src, struct ordered_event *dst, size_t lo,
		  size_t mid, size_t hi)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = before(&src[j], &src[i]) ? src[j++] : src[i++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

static int ordered_events__sort(struct ordered_events *oe)
{
	size_t *runs, nr_runs = 0;
	struct ordered_event *src = oe->q, *dst;

	if (oe->sorted || oe->nr < 2) {
		oe->sorted = true;
		return 0;
	}
	if (oe->tmp_alloc < oe->alloc) {
		free(oe->tmp);
		oe->tmp = malloc(oe->alloc * sizeof(*oe->tmp));
		if (!oe->tmp) {
			oe->tmp_alloc = 0;
			return -ENOMEM;
		}
		oe->tmp_alloc = oe->alloc;
	}
	/* run starts, then the end: run r is [runs[r], runs[r + 1]) */
	runs = malloc((oe->nr + 1) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	runs[nr_runs++] = 0;
	for (size_t i = 1; i < oe->nr; i++)
		if (before(&src[i], &src[i - 1]))
			runs[nr_runs++] = i;
	runs[nr_runs] = oe->nr;
	dst = oe->tmp;
	while (nr_runs > 1) {
		size_t out = 0, r;

		for (r = 0; r + 1 < nr_runs; r += 2) {
			merge(src, dst, runs[r], runs[r + 1], runs[r + 2]);
			runs[out++] = runs[r];
		}
		if (r < nr_runs) {	/* an odd run out: copied as it is */
			memcpy(&dst[runs[r]], &src[runs[r]], (runs[r + 1] - runs[r]) * sizeof(*dst));
			runs[out++] = runs[r];
		}
		runs[out] = oe->nr;
		nr_runs = out;
		src = dst;
		dst = src == oe->q ? oe->tmp : oe->q;
	}
	free(runs);
	if (src != oe->q) {
		/* the result sits in tmp: swap the arrays rather than copy */
		struct ordered_event *t = oe->q;

		oe->q = oe->tmp;
		oe->tmp = t;
	}
	oe->sorted = true;
	return 0;
}

static int deliver_one(struct ordered_events *oe, const struct ordered_event *e)
{
	int ret;

	oe->mem_used -= sizeof(*e) + (e->owned ? e->size : 0);
	if (e->timestamp > oe->last_flush)
		oe->last_flush = e->timestamp;
	ret = oe->deliver(oe->arg, e);
	if (e->owned)
		free((void *)e->event);
	return ret;
}

/*
 * Sorting leaves the records in time order, not file order: each delivery would start with
 * a cache miss on a record read a whole round ago. Fetching a few ahead hides that.
 */
#define OE_PREFETCH_AHEAD	8
/* a sample with a stack dump can be 64 KB: its parse reads the front */
#define OE_PREFETCH_BYTES	512

static void prefetch_event(const struct ordered_event *e)
{
	const char *p = (const char *)e->event;
	size_t end = e->size < OE_PREFETCH_BYTES ? e->size : OE_PREFETCH_BYTES;

	for (size_t off = 0; off < end; off += 64)
		__builtin_prefetch(p + off);
}

/* sort, deliver the first n (n = SIZE_MAX: those up to limit), keep the rest in front */
static int flush_first(struct ordered_events *oe, size_t n, u64 limit)
{
	size_t done = 0;
	int ret = ordered_events__sort(oe);

	if (ret)
		return ret;
	while (done < oe->nr && done < n && oe->q[done].timestamp <= limit) {
		if (done + OE_PREFETCH_AHEAD < oe->nr)
			prefetch_event(&oe->q[done + OE_PREFETCH_AHEAD]);
		/* counted as delivered before the call: a failing deliver still frees it */
		ret = deliver_one(oe, &oe->q[done++]);
		if (ret)
			break;
	}
	/* an input without kernel records never allocated q: memmove(NULL, ...) is undefined */
	if (done)
		memmove(oe->q, oe->q + done, (oe->nr - done) * sizeof(*oe->q));
	oe->nr -= done;
	return ret;
}

int ordered_events__flush(struct ordered_events *oe, enum oe_flush how)
{
	int ret;

	switch (how) {
	case OE_FLUSH__FINAL:
		return flush_first(oe, SIZE_MAX, ~0ULL);
	case OE_FLUSH__HALF:
		/* deliver the older half by count: enough to get back under the cap */
		oe->nr_half_flushes++;
		return flush_first(oe, oe->nr - oe->nr / 2, ~0ULL);
	case OE_FLUSH__ROUND:
	default:
		ret = flush_first(oe, SIZE_MAX, oe->next_flush);
		oe->next_flush = oe->max_timestamp;
		return ret;
	}
}

int ordered_events__queue(struct ordered_events *oe, const struct perf_event_header *event,
			  u64 timestamp, u64 file_offset, bool stable)
{
	struct ordered_event *e;
	const void *keep = event;

	/* records without a time (synthesized at the start) go out at once, as in perf */
	if (!timestamp || timestamp == ~0ULL) {
		struct ordered_event now = {
			.timestamp = timestamp, .file_offset = file_offset,
			.seq = oe->seq++, .event = event, .stable = stable,
		};

		return oe->deliver(oe->arg, &now);
	}
	/* older than what was already delivered: still queued, but counted */
	if (timestamp < oe->last_flush)
		oe->nr_late++;
	if (oe->nr == oe->alloc) {
		size_t n = oe->alloc ? oe->alloc * 2 : 4096;
		struct ordered_event *q = realloc(oe->q, n * sizeof(*q));

		if (!q)
			return -ENOMEM;
		oe->q = q;
		oe->alloc = n;
	}
	/* a record that outlives the reader's next call (the file mapping) is not copied */
	if (!stable) {
		void *copy = malloc(event->size);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, event, event->size);
		keep = copy;
		oe->mem_used += event->size;
	}
	/* the entry counts too: a file without rounds must not grow the queue unbounded */
	oe->mem_used += sizeof(*e);
	e = &oe->q[oe->nr];
	*e = (struct ordered_event){
		.timestamp = timestamp, .file_offset = file_offset, .seq = oe->seq++, .event = keep,
		.size = event->size, .owned = !stable, .stable = stable,
	};
	if (oe->nr && before(e, &oe->q[oe->nr - 1]))
		oe->sorted = false;
	oe->nr++;
	if (timestamp > oe->max_timestamp)
		oe->max_timestamp = timestamp;
	if (oe->mem_used > oe->max_mem)
		return ordered_events__flush(oe, OE_FLUSH__HALF);
	return 0;
}
