/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - one pass over a perf.data input: reader -> validation -> ordered events ->
 * deferred stitching -> the tool's callbacks, with the machine kept up to date.
 *
 * The session owns the perf_data, the machine and the ordered-events queue; the tool and the
 * symbol_conf are borrowed and must outlive it. Two sessions in one process are independent.
 */
#ifndef PERF_UTIL_SESSION_H
#define PERF_UTIL_SESSION_H

#include <stdio.h>
#include <perf/data.h>
#include "machine.h"
#include "ordered-events.h"
#include "tool.h"

struct deferred_stitcher;

/* anomalies, counted and reported once at the end (perf_session__warn_about_errors) */
struct session_stats {
	u64	nr_events[PERF_RECORD_HEADER_MAX];	/* [0]: all records */
	u64	nr_unknown_events;	/* record types we do not know: skipped */
	u64	nr_lost_events;		/* LOST records */
	u64	total_lost;		/* samples they say were lost */
	u64	total_lost_samples;	/* LOST_SAMPLES */
	u64	nr_throttle, nr_unthrottle;
	u64	total_period;
	u64	nr_samples;
	u64	nr_unknown_id;		/* samples whose id matches no attr */
	u64	nr_late_events;		/* older than the last ordered-events flush */
};

struct session_opts {
	const char		*path;		/* "-" for standard input */
	const struct symbol_conf *symbol_conf;
	bool			dump_trace;	/* -D: print every record as it is read */
	FILE			*dump_fp;
	size_t			ordered_max_mem;	/* 0: default */
	size_t			deferred_max_mem;	/* 0: default */
	int			verbose;
	/*
	 * -D: record types the command has no handler for; perf's default handler adds
	 * ": unhandled!" after them (bit type % 64 of word type / 64). Zero: perf script's set.
	 */
	u64			dump_unhandled[2];
};

struct perf_session {
	struct perf_data	*data;
	struct machine		machine;
	const struct perf_tool	*tool;
	struct session_opts	opts;
	struct ordered_events	oe;
	struct deferred_stitcher *stitcher;	/* NULL unless the tool merges */
	struct session_stats	stats;
	u64			*scratch;	/* host-order arrays of cross-endian samples */
	struct perf_err		err;		/* why process() failed */
	bool			has_deferred;	/* some attr has defer_callchain */
};

/* returns NULL with err filled (the reader's message) */
struct perf_session *perf_session__new(const struct session_opts *opts, const struct perf_tool *tool,
				       struct perf_err *err);
void perf_session__delete(struct perf_session *session);
/* reads to the end; 0 or a negative errno with session->err set */
int perf_session__process_events(struct perf_session *session);
/* prints the end-of-run warnings perf prints (lost events, unknown records, ...) */
void perf_session__warn_about_errors(const struct perf_session *session, FILE *fp);
/* the attr's display name ("cpu-clock", "sched:sched_switch") */
const char *perf_session__evattr_name(struct perf_session *session, struct perf_evattr *ea);

#endif
