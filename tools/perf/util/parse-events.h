/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-events.h - perf record's -e list: event names into perf_event_attrs.
 *
 * Syntax, as perf's (Documentation/perf-record.txt, "EVENT SYNTAX"):
 *  - the generic hardware events (cycles, instructions, ...), the software ones (cpu-clock,
 *    task-clock, page-faults, ...), the hardware cache events (L1-dcache-load-misses,
 *    LLC-loads, dTLB-stores, ...: PERF_TYPE_HW_CACHE), raw events rNNNN (hex, PERF_TYPE_RAW),
 *    PMU events pmu/term=value,.../ (pmu-terms.h), tracepoints sys:name (the id comes from a
 *    lookup function the caller passes, so that this module does not read tracefs);
 *  - each with perf's modifiers: u k h (privilege levels), G H (guest, host), I (no idle),
 *    p pp ppp (precise_ip) and P (the highest precise_ip the kernel takes), S (sample the
 *    group's counts: PERF_SAMPLE_READ), D (pinned), e (exclusive), W (weak group);
 *  - groups {a,b,...}[:modifiers]: opened with the first as the leader; the group's
 *    modifiers apply to every member on top of its own;
 *  - comma-separated, and -e may be given again.
 *
 * The attrs carry type, config words, the exclude bits, precise_ip, pinned and exclusive;
 * the recording's sample layout (and what :S and a group imply for it) is the command's
 * business, from the fields below. Modifiers follow perf's quirks exactly, so that the attrs
 * equal perf's: an event without any has exclude_guest set; a modifier on one event starts
 * from nothing (so cpu-clock:k has exclude_guest clear, cpu-clock:u has it set), a group's
 * from what the members have.
 *
 * Only cycles (the default event, or named) is replaced by cpu-clock once opening it fails
 * on a machine without a CPU PMU (parse_events__fallback), as perf does.
 */
#ifndef PERF_UTIL_PARSE_EVENTS_H
#define PERF_UTIL_PARSE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <perf/abi.h>
#include <perf/error.h>

struct parsed_event {
	struct perf_event_attr	attr;
	char			*name;		/* as written to EVENT_DESC; owned */
	char			*tp_sys;	/* tracepoints: "sched"; else NULL; owned */
	char			*tp_name;	/* tracepoints: "sched_switch"; owned */
	char			*filter;	/* tracepoints: --filter / --exclude-perf; owned */
	int			leader;		/* index of its group's leader (itself alone) */
	int			nr_members;	/* a leader: its group's size (1 alone); else 0 */
	bool			is_default;	/* no -e was given: perf's own choice */
	bool			sample_read;	/* :S */
	bool			precise_max;	/* :P: lower precise_ip until the kernel takes it */
	bool			precise_rearm;	/* :P tried down to 0: again after a fallback */
	bool			weak_group;	/* :W: a group the kernel refuses opens ungrouped */
	bool			exclude_GH;	/* G or H given (perf's rule for a later u or p) */
	bool			has_period;	/* pmu term period=N: its own sample_period */
	bool			has_freq;	/* pmu term freq=N: its own sample_freq */
	u64			period;		/* that N */
};

struct parsed_events {
	struct parsed_event	*ev;
	size_t			nr;
	size_t			last_first;	/* the first event of the last -e */
};

/* tracepoint "sys:name" -> its id in tracefs; 0 or a negative errno with err set */
typedef int (*tracepoint_id_fn)(void *ctx, const char *name, u64 *id, struct perf_err *err);

/*
 * Appends the events of spec (one -e argument) to evs. tp_id (called with tp_ctx) may be
 * NULL: tracepoints are then refused. Errors: -ENOENT (an unknown name or PMU), -EINVAL (a
 * syntax error, a bad modifier or term), with err naming the event and `perf list`.
 */
int parse_events__add(struct parsed_events *evs, const char *spec, tracepoint_id_fn tp_id,
		      void *tp_ctx, struct perf_err *err);
/* the default event when -e is absent: cycles:P, as perf (cpu-clock:ppp without a PMU) */
int parse_events__add_default(struct parsed_events *evs, struct perf_err *err);
/*
 * --filter: filter goes to every tracepoint of the last -e, joined to one it has already as
 * perf does ("(old) && (new)"). -EINVAL when that -e has no tracepoint (or there is no -e).
 */
int parse_events__add_filter(struct parsed_events *evs, const char *filter, struct perf_err *err);
/* --exclude-perf: the filter "common_pid != pid" on the last -e's tracepoints, as above */
int parse_events__exclude_perf(struct parsed_events *evs, pid_t pid, struct perf_err *err);
/*
 * When opening ev failed with errnum: true when ev is cycles, which this machine lacks, and
 * it is now cpu-clock (msg gets perf's note); false: the error stands.
 */
bool parse_events__fallback(struct parsed_event *ev, int errnum, char *msg, size_t msg_size);
/*
 * perf's message for an event the kernel refused with errnum, when it has a specific one
 * (unsupported event, precise request, a PMU that counts only per CPU when the target is
 * threads: cpu_wide false): true and msg set; false: say the errno.
 */
bool parse_events__open_strerror(const struct parsed_events *evs, size_t ev, int errnum,
				 bool cpu_wide, char *msg, size_t msg_size);
/* a weak group the kernel refused: every member of ev's group becomes its own leader */
void parse_events__ungroup(struct parsed_events *evs, size_t ev);
/* the modifiers perf appends to an event name it makes from an attr (":uH", ":ppp", "") */
void parse_events__modifier_name(const struct perf_event_attr *attr, char *buf, size_t size);
void parsed_events__exit(struct parsed_events *evs);

#endif
