/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-events.h - perf record's -e list: event names into perf_event_attrs.
 *
 * Known: the generic hardware events (cycles, instructions, ...), the software ones
 * (cpu-clock, task-clock, page-faults, context-switches, ...), tracepoints `subsys:name`
 * (the id comes from a lookup function the caller passes, so that this module does not read
 * tracefs), each with perf's modifiers :u :k :h :p... (u and k only change the attr).
 * Names are comma-separated. The attrs carry only type, config and the exclude bits; the
 * recording's sample layout is the command's business.
 *
 * A hardware event the machine has no PMU for is replaced, once opening it fails, by
 * cpu-clock (parse_events__fallback), as perf does.
 */
#ifndef PERF_UTIL_PARSE_EVENTS_H
#define PERF_UTIL_PARSE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

struct parsed_event {
	struct perf_event_attr	attr;
	char			*name;		/* as written to EVENT_DESC; owned */
	char			*tp_sys;	/* tracepoints: "sched"; else NULL; owned */
	char			*tp_name;	/* tracepoints: "sched_switch"; owned */
	bool			is_default;	/* no -e was given: perf's own choice */
	bool			fell_back;	/* a hardware event now cpu-clock (parse_events__fallback) */
};

struct parsed_events {
	struct parsed_event	*ev;
	size_t			nr;
};

/* tracepoint "sys:name" -> its id in tracefs; 0 or a negative errno with err set */
typedef int (*tracepoint_id_fn)(void *ctx, const char *name, u64 *id, struct perf_err *err);

/*
 * Appends the events of spec (one -e argument) to evs. tp_id (called with tp_ctx) may be
 * NULL: tracepoints are then refused. Unknown names: -ENOENT with err naming it and `perf list`.
 */
int parse_events__add(struct parsed_events *evs, const char *spec, tracepoint_id_fn tp_id,
		      void *tp_ctx, struct perf_err *err);
/* the default event when -e is absent: cycles, as perf */
int parse_events__add_default(struct parsed_events *evs, struct perf_err *err);
/*
 * When opening ev failed with errnum: true when ev was a hardware event that this machine
 * lacks and it is now cpu-clock (msg gets perf's note); false: the error stands.
 */
bool parse_events__fallback(struct parsed_event *ev, int errnum, char *msg, size_t msg_size);
void parsed_events__exit(struct parsed_events *evs);

#endif
