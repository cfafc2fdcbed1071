// SPDX-License-Identifier: GPL-2.0
/* perf record -e: event names and modifiers into attrs. See parse-events.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "parse-events.h"

struct event_name {
	const char	*name;
	u32		type;
	u64		config;
};

/* the generic events' ABI numbers (PERF_COUNT_HW_*, PERF_COUNT_SW_*), aliases included */
static const struct event_name event_names[] = {
	{ "cycles",			PERF_TYPE_HARDWARE, 0 },
	{ "cpu-cycles",			PERF_TYPE_HARDWARE, 0 },
	{ "instructions",		PERF_TYPE_HARDWARE, 1 },
	{ "cache-references",		PERF_TYPE_HARDWARE, 2 },
	{ "cache-misses",		PERF_TYPE_HARDWARE, 3 },
	{ "branches",			PERF_TYPE_HARDWARE, 4 },
	{ "branch-instructions",	PERF_TYPE_HARDWARE, 4 },
	{ "branch-misses",		PERF_TYPE_HARDWARE, 5 },
	{ "bus-cycles",			PERF_TYPE_HARDWARE, 6 },
	{ "stalled-cycles-frontend",	PERF_TYPE_HARDWARE, 7 },
	{ "stalled-cycles-backend",	PERF_TYPE_HARDWARE, 8 },
	{ "ref-cycles",			PERF_TYPE_HARDWARE, 9 },
	{ "cpu-clock",			PERF_TYPE_SOFTWARE, 0 },
	{ "task-clock",			PERF_TYPE_SOFTWARE, 1 },
	{ "page-faults",		PERF_TYPE_SOFTWARE, 2 },
	{ "faults",			PERF_TYPE_SOFTWARE, 2 },
	{ "context-switches",		PERF_TYPE_SOFTWARE, 3 },
	{ "cs",				PERF_TYPE_SOFTWARE, 3 },
	{ "cpu-migrations",		PERF_TYPE_SOFTWARE, 4 },
	{ "migrations",			PERF_TYPE_SOFTWARE, 4 },
	{ "minor-faults",		PERF_TYPE_SOFTWARE, 5 },
	{ "major-faults",		PERF_TYPE_SOFTWARE, 6 },
	{ "alignment-faults",		PERF_TYPE_SOFTWARE, 7 },
	{ "emulation-faults",		PERF_TYPE_SOFTWARE, 8 },
	{ "dummy",			PERF_TYPE_SOFTWARE, 9 },
};

static const struct event_name *event_name__find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_names); i++)
		if (strlen(event_names[i].name) == len && !strncmp(event_names[i].name, name, len))
			return &event_names[i];
	return NULL;
}

/* perf's modifier letters; u and k narrow the privilege levels, the rest leave the attr */
static int modifiers__apply(struct perf_event_attr *attr, const char *mod)
{
	bool u = false, k = false, h = false;
	int precise = 0;

	for (const char *p = mod; *p; p++) {
		switch (*p) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'p': precise++; break;
		case 'P': case 'H': case 'G': case 'S': case 'D': case 'I': case 'W':
			break;
		default:
			return -EINVAL;
		}
	}
	if (precise > 3)
		return -EINVAL;
	if (u || k || h) {
		if (!u)
			attr->flags |= PERF_ATTR_FLAG(EXCLUDE_USER);
		if (!k)
			attr->flags |= PERF_ATTR_FLAG(EXCLUDE_KERNEL);
		if (!h)
			attr->flags |= PERF_ATTR_FLAG(EXCLUDE_HV);
	}
	return 0;
}

static int parsed_events__push(struct parsed_events *evs, struct parsed_event *ev,
			       struct perf_err *err)
{
	struct parsed_event *n = realloc(evs->ev, (evs->nr + 1) * sizeof(*n));

	if (!n) {
		free(ev->name);
		free(ev->tp_sys);
		free(ev->tp_name);
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	evs->ev = n;
	evs->ev[evs->nr++] = *ev;
	return 0;
}

static int parse_one(struct parsed_events *evs, const char *term, tracepoint_id_fn tp_id,
		     void *tp_ctx, struct perf_err *err)
{
	struct parsed_event ev = { .attr = { .size = sizeof(struct perf_event_attr) } };
	const char *colon = strchr(term, ':');
	size_t len = colon ? (size_t)(colon - term) : strlen(term);
	const struct event_name *en = event_name__find(term, len);
	int ret;

	if (en) {
		ev.attr.type = en->type;
		ev.attr.config = en->config;
		if (colon && modifiers__apply(&ev.attr, colon + 1))
			return perf_err__set(err, EINVAL,
					     "event syntax error: '%s': unknown modifier '%s' (Run 'perf list' for a list of valid events)",
					     term, colon + 1);
		ev.name = strdup(term);
		if (!ev.name)
			return perf_err__set(err, ENOMEM, "out of memory");
		return parsed_events__push(evs, &ev, err);
	}
	if (!colon || !len || !colon[1] || strchr(colon + 1, ':') || strchr(term, '/'))
		return perf_err__set(err, ENOENT,
				     "event syntax error: unknown event '%s' (Run 'perf list' for a list of valid events)",
				     term);
	if (!tp_id)
		return perf_err__set(err, ENOENT, "tracepoint '%s': tracepoints are not supported here",
				     term);
	ev.tp_sys = strndup(term, len);
	ev.tp_name = strdup(colon + 1);
	ev.name = strdup(term);
	if (!ev.tp_sys || !ev.tp_name || !ev.name) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	ev.attr.type = PERF_TYPE_TRACEPOINT;
	ret = tp_id(tp_ctx, term, &ev.attr.config, err);
	if (ret)
		goto out_free;
	return parsed_events__push(evs, &ev, err);

out_free:
	free(ev.tp_sys);
	free(ev.tp_name);
	free(ev.name);
	return ret;
}

int parse_events__add(struct parsed_events *evs, const char *spec, tracepoint_id_fn tp_id,
		      void *tp_ctx, struct perf_err *err)
{
	char *copy = strdup(spec), *save = NULL, *term;
	int ret = 0;

	if (!copy)
		return perf_err__set(err, ENOMEM, "out of memory");
	if (!*spec)
		ret = perf_err__set(err, EINVAL, "event syntax error: empty event list");
	for (term = strtok_r(copy, ",", &save); term && !ret; term = strtok_r(NULL, ",", &save))
		ret = parse_one(evs, term, tp_id, tp_ctx, err);
	free(copy);
	return ret;
}

int parse_events__add_default(struct parsed_events *evs, struct perf_err *err)
{
	int ret = parse_events__add(evs, "cycles", NULL, NULL, err);

	if (!ret)
		evs->ev[evs->nr - 1].is_default = true;
	return ret;
}

bool parse_events__fallback(struct parsed_event *ev, int errnum, char *msg, size_t msg_size)
{
	char *name;

	/* no PMU: the kernel says ENOENT (no such hardware event), ENODEV or EOPNOTSUPP */
	if (ev->attr.type != PERF_TYPE_HARDWARE ||
	    (errnum != ENOENT && errnum != ENODEV && errnum != EOPNOTSUPP && errnum != EINVAL))
		return false;
	name = strdup("cpu-clock");
	if (!name)
		return false;
	snprintf(msg, msg_size, "The %s event is not supported, trying to fall back to cpu-clock-ticks",
		 ev->name);
	free(ev->name);
	ev->name = name;
	ev->attr.type = PERF_TYPE_SOFTWARE;
	ev->attr.config = 0;
	ev->fell_back = true;
	return true;
}

void parsed_events__exit(struct parsed_events *evs)
{
	for (size_t i = 0; i < evs->nr; i++) {
		free(evs->ev[i].name);
		free(evs->ev[i].tp_sys);
		free(evs->ev[i].tp_name);
	}
	free(evs->ev);
	evs->ev = NULL;
	evs->nr = 0;
}
