// SPDX-License-Identifier: GPL-2.0
/*
 * Ordered events: runs from several "CPU buffers" come out in (timestamp, arrival) order,
 * round flushes hold back what a later round may still precede, and the memory cap forces
 * the older half out.
 */
#include <stdlib.h>
#include <string.h>
#include <perf/abi.h>
#include "tests.h"
#include "util/ordered-events.h"

struct seen {
	u64	ts[4096];
	u64	seq[4096];
	size_t	nr;
};

static int record(void *arg, const struct ordered_event *e)
{
	struct seen *s = arg;

	if (s->nr < 4096) {
		s->ts[s->nr] = e->timestamp;
		s->seq[s->nr++] = e->seq;
	}
	return 0;
}

static int queue(struct ordered_events *oe, u64 ts, bool stable)
{
	static struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(h) };

	return ordered_events__queue(oe, &h, ts, 0, stable);
}

DEFINE_SUITE(ordered_events)
{
	struct ordered_events oe;
	struct seen *s = calloc(1, sizeof(*s));

	TEST_ASSERT(env, s, "out of memory");
	ordered_events__init(&oe, 0, record, s);
	/* round 1: three CPU buffers, each sorted, interleaved in time; equal stamps too */
	for (u64 cpu = 0; cpu < 3; cpu++)
		for (u64 t = 10 + cpu; t < 100; t += 3)
			TEST_ASSERT(env, queue(&oe, t, cpu != 1) == 0, "queue");
	TEST_ASSERT(env, queue(&oe, 50, true) == 0, "queue");
	TEST_ASSERT(env, ordered_events__flush(&oe, OE_FLUSH__ROUND) == 0, "flush");
	/* the first round flush delivers nothing: a later buffer may still hold older events */
	TEST_ASSERT(env, s->nr == 0, "%zu delivered by the first round", s->nr);
	for (u64 t = 95; t < 120; t++)
		TEST_ASSERT(env, queue(&oe, t, false) == 0, "queue");
	TEST_ASSERT(env, ordered_events__flush(&oe, OE_FLUSH__ROUND) == 0, "flush");
	/* now everything up to round 1's maximum (99) is out, and nothing later */
	TEST_ASSERT(env, s->nr > 0 && s->ts[s->nr - 1] <= 99, "round flush went past 99: %llu",
		    (unsigned long long)s->ts[s->nr - 1]);
	TEST_ASSERT(env, ordered_events__flush(&oe, OE_FLUSH__FINAL) == 0, "final");
	for (size_t i = 1; i < s->nr; i++) {
		TEST_ASSERT(env, s->ts[i - 1] <= s->ts[i], "out of order at %zu", i);
		if (s->ts[i - 1] == s->ts[i])
			TEST_ASSERT(env, s->seq[i - 1] < s->seq[i], "equal stamps reordered at %zu", i);
	}
	TEST_ASSERT(env, s->nr == 30 + 30 + 30 + 1 + 25, "%zu delivered", s->nr);
	/* a record older than what was delivered is still delivered, and counted */
	TEST_ASSERT(env, queue(&oe, 5, false) == 0 && oe.nr_late == 1, "late record not counted");
	ordered_events__flush(&oe, OE_FLUSH__FINAL);
	ordered_events__exit(&oe);

	/* a tiny cap: the older half goes out without any round */
	memset(s, 0, sizeof(*s));
	ordered_events__init(&oe, 64 * 100, record, s);
	for (u64 t = 1000; t > 0; t--)
		TEST_ASSERT(env, queue(&oe, t, false) == 0, "queue");
	TEST_ASSERT(env, oe.nr_half_flushes > 0 && s->nr > 0, "the cap never flushed");
	TEST_ASSERT(env, oe.mem_used <= 64 * 100, "over the cap: %zu", oe.mem_used);
	ordered_events__exit(&oe);
	free(s);
	return TEST_OK;
}
