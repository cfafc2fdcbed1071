// SPDX-License-Identifier: GPL-2.0
/*
 * Ordered events as a binary min-heap keyed on (timestamp, arrival). Each queued record is a
 * private malloc'd copy, freed after delivery.
 *
 *   queue():  push copy ──► heap ──► flush(how) pops while top.timestamp <= limit ──► deliver
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
}

void ordered_events__exit(struct ordered_events *oe)
{
	for (size_t i = 0; i < oe->nr; i++)
		free((void *)oe->heap[i].event);
	free(oe->heap);
	oe->heap = NULL;
	oe->nr = oe->alloc = 0;
}

static bool before(const struct ordered_event *a, const struct ordered_event *b)
{
	return a->timestamp < b->timestamp || (a->timestamp == b->timestamp && a->seq < b->seq);
}

static void sift_up(struct ordered_event *h, size_t i)
{
	struct ordered_event e = h[i];

	while (i) {
		size_t parent = (i - 1) / 2;

		if (!before(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

static void sift_down(struct ordered_event *h, size_t n, size_t i)
{
	struct ordered_event e = h[i];

	for (;;) {
		size_t l = 2 * i + 1, best;

		if (l >= n)
			break;
		best = l + 1 < n && before(&h[l + 1], &h[l]) ? l + 1 : l;
		if (!before(&h[best], &e))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = e;
}

static int deliver_top(struct ordered_events *oe)
{
	struct ordered_event top = oe->heap[0];
	int ret;

	oe->heap[0] = oe->heap[--oe->nr];
	if (oe->nr)
		sift_down(oe->heap, oe->nr, 0);
	oe->mem_used -= ((const struct perf_event_header *)top.event)->size;
	if (top.timestamp > oe->last_flush)
		oe->last_flush = top.timestamp;
	ret = oe->deliver(oe->arg, &top);
	free((void *)top.event);
	return ret;
}

static int flush_upto(struct ordered_events *oe, u64 limit)
{
	while (oe->nr && oe->heap[0].timestamp <= limit) {
		int ret = deliver_top(oe);

		if (ret)
			return ret;
	}
	return 0;
}

int ordered_events__flush(struct ordered_events *oe, enum oe_flush how)
{
	int ret;

	switch (how) {
	case OE_FLUSH__FINAL:
		return flush_upto(oe, ~0ULL);
	case OE_FLUSH__HALF: {
		/* deliver the older half by count: enough to get back under the cap */
		size_t target = oe->nr / 2;

		oe->nr_half_flushes++;
		while (oe->nr > target) {
			ret = deliver_top(oe);
			if (ret)
				return ret;
		}
		return 0;
	}
	case OE_FLUSH__ROUND:
	default:
		ret = flush_upto(oe, oe->next_flush);
		oe->next_flush = oe->max_timestamp;
		return ret;
	}
}

int ordered_events__queue(struct ordered_events *oe, const struct perf_event_header *event,
			  u64 timestamp, u64 file_offset)
{
	struct ordered_event *e;
	void *copy;

	/* records without a time (synthesized at the start) go out at once, as in perf */
	if (!timestamp || timestamp == ~0ULL) {
		struct ordered_event now = {
			.timestamp = timestamp, .file_offset = file_offset,
			.seq = oe->seq++, .event = event,
		};

		return oe->deliver(oe->arg, &now);
	}
	/* older than what was already delivered: still queued, but counted */
	if (timestamp < oe->last_flush)
		oe->nr_late++;
	if (oe->nr == oe->alloc) {
		size_t n = oe->alloc ? oe->alloc * 2 : 4096;
		struct ordered_event *h = realloc(oe->heap, n * sizeof(*h));

		if (!h)
			return -ENOMEM;
		oe->heap = h;
		oe->alloc = n;
	}
	copy = malloc(event->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, event, event->size);
	e = &oe->heap[oe->nr];
	*e = (struct ordered_event){
		.timestamp = timestamp, .file_offset = file_offset, .seq = oe->seq++, .event = copy,
	};
	sift_up(oe->heap, oe->nr++);
	oe->mem_used += event->size;
	if (timestamp > oe->max_timestamp)
		oe->max_timestamp = timestamp;
	if (oe->mem_used > oe->max_mem)
		return ordered_events__flush(oe, OE_FLUSH__HALF);
	return 0;
}
