// SPDX-License-Identifier: GPL-2.0
/* perf record --switch-output-event's events. See record-sb.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record-sb.h"

/* a record or two at a time: one page of ring is plenty */
#define SB_MMAP_PAGES	1

void record_sb__init(struct record_sb *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void record_sb__exit(struct record_sb *sb)
{
	if (sb->opened)
		evlist_open__close(&sb->el);
	free(sb->attrs);
	parsed_events__exit(&sb->evs);
	record_sb__init(sb);
}

int record_sb__open(struct record_sb *sb, const struct evlist_target *target,
		    struct perf_err *err)
{
	struct evlist_target t;
	int ret;

	sb->attrs = calloc(sb->evs.nr, sizeof(*sb->attrs));
	if (!sb->attrs)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < sb->evs.nr; i++) {
		struct perf_event_attr *a = &sb->attrs[i];

		*a = sb->evs.ev[i].attr;
		a->size = sizeof(*a);
		a->sample_type |= PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		/* every record wakes the poll: the switch should follow the event at once */
		a->wakeup_events = 1;
		a->flags |= PERF_ATTR_FLAG(WATERMARK) | PERF_ATTR_FLAG(DISABLED) |
			    PERF_ATTR_FLAG(SAMPLE_ID_ALL);
		if (!a->sample_period)
			a->sample_period = 1;
		if (!target->per_thread && target->kind != EVLIST_TARGET_CPUS)
			a->flags |= PERF_ATTR_FLAG(INHERIT);
		if (target->kind == EVLIST_TARGET_WORKLOAD)
			a->flags |= PERF_ATTR_FLAG(ENABLE_ON_EXEC);
	}
	/* on the recorded events' cpus: the tracking event's wider set is not theirs */
	t = *target;
	t.wide = NULL;
	ret = evlist_open__open(&sb->el, sb->attrs, sb->evs.nr, &t, SB_MMAP_PAGES, err);
	if (ret) {
		if (sb->el.failed_event >= 0)
			perf_err__set(err, -ret, "--switch-output-event '%s': %s",
				      sb->evs.ev[sb->el.failed_event].name, strerror(-ret));
		return ret;
	}
	sb->opened = true;
	return 0;
}

int record_sb__enable(struct record_sb *sb, struct perf_err *err)
{
	return sb->opened ? evlist_open__enable(&sb->el, true, err) : 0;
}

size_t record_sb__fds(const struct record_sb *sb, int *fds, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; sb->opened && i < sb->el.nr_slots * sb->el.nr_events; i++) {
		if (sb->el.fds[i] < 0)
			continue;
		if (fds && n < max)
			fds[n] = sb->el.fds[i];
		n++;
	}
	return n;
}

static int sb__count(void *ctx, const struct perf_event_header *ev)
{
	(void)ev;
	(*(u64 *)ctx)++;
	return 0;
}

int record_sb__read(struct record_sb *sb, u64 *records, struct perf_err *err)
{
	*records = 0;
	for (size_t r = 0; sb->opened && r < sb->el.nr_rings; r++) {
		long n;

		if (sb->el.ring_fds[r] < 0)
			continue;
		n = ring_buffer__read(&sb->el.rings[r], sb__count, records, err);
		if (n < 0)
			return (int)n;
	}
	return 0;
}
