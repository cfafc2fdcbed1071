// SPDX-License-Identifier: GPL-2.0
/* The recording's side of the event syntax: groups, :S, filters. See record-events.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/env.h>
#include <perf/writer.h>
#include "record-events.h"

#define ATTR_PRECISE_MASK	(3ULL << PERF_ATTR_BIT_PRECISE_IP)

void record_events__config(const struct parsed_events *evs, struct perf_event_attr *attrs,
			   bool pipe)
{
	bool same = true;

	for (size_t i = 0; i < evs->nr; i++) {
		const struct parsed_event *ev = &evs->ev[i];
		struct perf_event_attr *a = &attrs[i];

		/* perf: a period of the event's own needs no PERIOD in its samples */
		if (ev->has_period) {
			a->sample_period = ev->period;
			a->flags &= ~PERF_ATTR_FLAG(FREQ);
			a->sample_type &= ~PERF_SAMPLE_PERIOD;
		} else if (ev->has_freq) {
			a->sample_period = ev->period;
			a->flags |= PERF_ATTR_FLAG(FREQ);
			a->sample_type |= PERF_SAMPLE_PERIOD;
		}
		if (ev->sample_read) {
			a->sample_type |= PERF_SAMPLE_READ | PERF_SAMPLE_ID;
			a->read_format |= PERF_FORMAT_ID;
			if (evs->ev[ev->leader].nr_members > 1) {
				a->read_format |= PERF_FORMAT_GROUP;
				a->flags &= ~PERF_ATTR_FLAG(INHERIT);
			}
		}
		if (ev->leader != (int)i)
			a->flags &= ~(PERF_ATTR_FLAG(DISABLED) | PERF_ATTR_FLAG(ENABLE_ON_EXEC));
	}
	/* the leader's samples carry the members' counts: the members do not sample */
	for (size_t i = 0; i < evs->nr; i++) {
		const struct parsed_event *ev = &evs->ev[i];
		struct perf_event_attr *a = &attrs[i];

		if (ev->leader == (int)i || !evs->ev[ev->leader].sample_read)
			continue;
		if (!ev->has_period && !ev->has_freq) {
			a->sample_period = 0;
			a->flags &= ~PERF_ATTR_FLAG(FREQ);
		}
		a->flags &= ~PERF_ATTR_FLAG(WRITE_BACKWARD);
		a->sample_type = attrs[ev->leader].sample_type;
	}
	if (evs->nr < 2) {
		/* a reader of a pipe learns the event's name from EVENT_DESC's ids, as perf */
		if (pipe && evs->nr == 1)
			attrs[0].sample_type |= PERF_SAMPLE_ID;
		return;
	}
	for (size_t i = 1; i < evs->nr; i++)
		same = same && attrs[i].sample_type == attrs[0].sample_type;
	for (size_t i = 0; i < evs->nr; i++) {
		struct perf_event_attr *a = &attrs[i];

		if (same) {
			a->sample_type |= PERF_SAMPLE_ID;
		} else {
			a->sample_type &= ~PERF_SAMPLE_ID;
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		}
		a->read_format |= PERF_FORMAT_ID;
	}
}

int record_events__open(struct evlist_open *el, const struct parsed_events *evs,
			const struct perf_event_attr *attrs, const struct evlist_target *target,
			size_t mmap_pages, struct perf_err *err)
{
	int *leaders = malloc(evs->nr * sizeof(*leaders));
	int ret;

	if (!leaders)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < evs->nr; i++)
		leaders[i] = evs->ev[i].leader;
	ret = evlist_open__open_groups(el, attrs, leaders, evs->nr, target, mmap_pages, err);
	free(leaders);
	return ret;
}

bool record_events__retry(struct parsed_events *evs, struct perf_event_attr *attrs, size_t idx,
			  int errnum)
{
	struct parsed_event *ev = &evs->ev[idx];
	struct perf_event_attr *a = &attrs[idx];
	u64 precise = (a->flags & ATTR_PRECISE_MASK) >> PERF_ATTR_BIT_PRECISE_IP;
	int leader = ev->leader;

	/*
	 * :P asks for the most precise the kernel takes, so any refusal tries one lower; when
	 * even 0 is refused, precise was not the cause: back to 3 (perf's attr then, e.g. for
	 * the cpu-clock fallback of cycles:P) and the error or fallback stands
	 */
	if (ev->precise_max) {
		u64 next = precise ? precise - 1 : 3;

		a->flags = (a->flags & ~ATTR_PRECISE_MASK) | next << PERF_ATTR_BIT_PRECISE_IP;
		ev->attr.flags = (ev->attr.flags & ~ATTR_PRECISE_MASK) |
				 next << PERF_ATTR_BIT_PRECISE_IP;
		if (precise)
			return true;
		ev->precise_max = false;
		ev->precise_rearm = true;
	}
	/* perf's weak group: a member the kernel will not put in the group (EINVAL, EBADF) */
	if ((errnum != EINVAL && errnum != EBADF) || leader == (int)idx ||
	    !evs->ev[leader].weak_group)
		return false;
	for (size_t i = (size_t)leader; i < evs->nr && evs->ev[i].leader == leader; i++) {
		/* alone, each starts and stops as its former leader did */
		attrs[i].flags |= attrs[leader].flags &
				  (PERF_ATTR_FLAG(DISABLED) | PERF_ATTR_FLAG(ENABLE_ON_EXEC));
		attrs[i].read_format &= ~PERF_FORMAT_GROUP;
	}
	parse_events__ungroup(evs, idx);
	return true;
}

int record_events__set_filters(const struct parsed_events *evs, struct evlist_open *el,
			       struct perf_err *err)
{
	for (size_t i = 0; i < evs->nr; i++) {
		const struct parsed_event *ev = &evs->ev[i];
		int ret;

		if (!ev->filter)
			continue;
		ret = evlist_open__set_filter(el, i, ev->filter, err);
		if (ret)
			return perf_err__set(err, -ret, "failed to set filter \"%s\" on event %s with %d (%s)",
					     ev->filter, ev->name, -ret, strerror(-ret));
	}
	return 0;
}

int record_events__write_groups(const struct parsed_events *evs, struct perf_writer *w,
				struct perf_err *err)
{
	struct perf_env_group *groups;
	u32 nr = 0;
	int ret;

	for (size_t i = 0; i < evs->nr; i++)
		nr += evs->ev[i].nr_members > 1;
	if (!nr)
		return 0;
	groups = calloc(nr, sizeof(*groups));
	if (!groups)
		return perf_err__set(err, ENOMEM, "out of memory");
	nr = 0;
	for (size_t i = 0; i < evs->nr; i++)
		if (evs->ev[i].nr_members > 1) {
			groups[nr].leader = (u32)i;
			groups[nr++].nr_members = (u32)evs->ev[i].nr_members;
		}
	ret = perf_writer__set_group_desc(w, groups, nr, err);
	free(groups);
	return ret;
}
