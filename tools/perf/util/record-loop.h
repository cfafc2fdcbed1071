/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-loop.h - perf record's main loop: poll the rings, drain them into the writer, end
 * each pass with FINISHED_ROUND (so readers may flush their time ordering up to it), stop on
 * the workload's exit, on the targets' exit (-p) or when *stop is set (SIGINT, SIGTERM),
 * then drain one last time.
 *
 * Every record goes to the writer as the kernel wrote it. On the way, record_stats counts
 * what perf record reports at the end: samples, LOST and LOST_SAMPLES, deferred samples and
 * the records that answer them (defer-pending.h), and the first and last sample's time (the
 * rings are drained one after the other, so these are the least and greatest seen). The first write error stops the loop;
 * write_errno keeps it (the caller salvages the file and says what happened).
 *
 * The loop owns nothing: rings, writer, workload and attrs are the caller's.
 */
#ifndef PERF_UTIL_RECORD_LOOP_H
#define PERF_UTIL_RECORD_LOOP_H

#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <perf/abi.h>
#include <perf/data.h>
#include <perf/error.h>
#include <perf/writer.h>
#include "defer-pending.h"
#include "evlist-open.h"
#include "uid-filter.h"
#include "workload.h"

struct record_stats {
	u64			samples;
	u64			lost_records, lost;		/* PERF_RECORD_LOST: records, events */
	u64			lost_samples;			/* PERF_RECORD_LOST_SAMPLES */
	u64			deferred_samples, deferred_records;
	u64			first_time, last_time;	/* of the samples (HEADER_SAMPLE_TIME), 0: none */
	struct defer_pending	pending;
};

/* what is seen of each record besides writing it: 0 or a negative errno that stops the loop */
typedef int (*record_hook_fn)(void *ctx, const struct perf_event_header *ev);

struct record_loop;
/*
 * Called after every pass over the rings and when poll() returns: 0 goes on, 1 stops the
 * recording (the last drain follows), a negative errno stops it with err set. It may set
 * tick_timeout_ms, the values of tick_fds and w (a new output file) for what follows.
 */
typedef int (*record_tick_fn)(void *ctx, struct record_loop *rl, struct perf_err *err);
struct record_overwrite;

struct record_loop {
	struct evlist_open	*el;
	struct perf_writer	*w;
	struct workload		*wl;		/* NULL: no workload */
	const struct perf_evattr *attrs;	/* with positions and ids, for the stats */
	size_t			nr_attrs;
	/* -a/-C --uid: the samples of other users are not written (nor counted); may be NULL */
	struct uid_filter	*uid_filter;
	record_hook_fn		hook;		/* may be NULL */
	void			*hook_ctx;
	volatile sig_atomic_t	*stop;		/* set by the signal handlers */
	record_tick_fn		tick;		/* may be NULL; then the tick_ fields are unused */
	void			*tick_ctx;
	const int		*tick_fds;	/* polled for POLLIN too (-1s skipped): the tick's */
	size_t			nr_tick_fds;	/* fixed for a run; the values may change */
	int			tick_timeout_ms; /* the longest poll() may wait, -1: no limit */
	/* --overwrite: the rings are read (dumped) only by record_loop__dump() and at the end */
	struct record_overwrite	*ow;
	u64			flush_min;	/* a ring is read once it holds this many bytes */
	/*
	 * NULL: poll(). Else ppoll() with this signal mask: a signal the caller blocks
	 * elsewhere (SIGUSR2 of --switch-output) then interrupts the wait however late it
	 * came, instead of waiting for the next timeout when it lands between tick and poll.
	 */
	const sigset_t		*poll_mask;
	struct record_stats	stats;
	u64			wakeups;	/* poll returns with data, as perf's "Woken up" */
	int			write_errno;	/* the writer's first failure, 0 none */
	struct perf_err		write_err;
};

void record_stats__init(struct record_stats *st);
void record_stats__exit(struct record_stats *st);
/* counts ev into st; attrs as in struct record_loop */
void record_stats__account(struct record_stats *st, const struct perf_evattr *attrs,
			   size_t nr_attrs, const struct perf_event_header *ev);

/*
 * perf record -v's line on deferred callchains: samples that asked for a deferred user
 * callchain, CALLCHAIN_DEFERRED records seen, samples they answered (by tid and cookie, in
 * whatever order the rings gave them) and samples left unanswered
 */
void record_stats__fprintf_deferred(const struct record_stats *st, FILE *fp);

/* runs until a stop condition; 0, or a negative errno (write failure: write_errno is set) */
int record_loop__run(struct record_loop *rl, struct perf_err *err);
/*
 * Everything in the rings now, whatever flush_min, and a FINISHED_ROUND after it (with ow:
 * one dump of the backward rings): what a file gets before it is finished. 0 or -errno.
 */
int record_loop__dump(struct record_loop *rl, struct perf_err *err);

#endif
