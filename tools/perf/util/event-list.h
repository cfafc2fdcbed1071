/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event-list.h - the events this machine can count and perf record -e can name, for perf
 * list: the generic hardware and cache events (when the CPU has a PMU), the software ones,
 * the events sysfs lists for each PMU (/sys/bus/event_source/devices/PMU/events), the
 * tracepoints of tracefs, and the raw descriptors. Names are the ones parse-events.c takes.
 *
 * Owns nothing past a call: every string handed to the callback is valid during the call.
 */
#ifndef PERF_UTIL_EVENT_LIST_H
#define PERF_UTIL_EVENT_LIST_H

enum event_kind {
	EVENT_KIND_HW,
	EVENT_KIND_SW,
	EVENT_KIND_CACHE,
	EVENT_KIND_PMU,
	EVENT_KIND_RAW,
	EVENT_KIND_TRACEPOINT,
};

struct event_info {
	enum event_kind	kind;
	const char	*name;		/* as -e takes it: "cpu-clock", "msr/tsc/", "sched:sched_switch" */
	const char	*alias;		/* another name for it, or NULL */
	const char	*unit;		/* the PMU: "cpu", "software", "msr", "tracepoint" */
	const char	*type;		/* perf list's bracket: "Software event", ... */
	const char	*desc;		/* a sentence, or NULL */
	const char	*encoding;	/* "software/config=0/", "msr/event=0x00/", or NULL */
};

/* returns non-zero to stop the walk, which then returns it */
typedef int (*event_list_fn)(const struct event_info *ev, void *arg);

/*
 * Every event, kind by kind in the enum's order, names sorted within a kind. sysfs and
 * tracefs: NULL for this machine's (tests point them elsewhere); a missing one lists none of
 * its events. 0, the callback's non-zero return, or -ENOMEM.
 */
int event_list__walk(const char *sysfs, const char *tracefs, event_list_fn fn, void *arg);

#endif
