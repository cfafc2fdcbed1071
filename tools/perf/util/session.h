/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - one pass over a perf.data input: reader -> validation -> ordered events ->
 * sample stages (deferred stitching, ...) -> the tool's callbacks, with the machine kept up
 * to date.
 *
 * The session owns the perf_data, the machine, the ordered-events queue, the sample stages
 * the options ask for and the trace_event built from the input's tracing data; the tool, the
 * symbol_conf and an observer are borrowed and must outlive it. Two sessions in one process
 * are independent.
 *
 * The stages never see the session: it hands each one a struct sample_stage_env (its
 * machine, its input's attrs, the symbol_conf, its err, the unknown-id counter) and keeps
 * their order. A tool callback that fails says why with perf_session__tool_error().
 */
#ifndef PERF_UTIL_SESSION_H
#define PERF_UTIL_SESSION_H

#include <stdio.h>
#include <perf/data.h>
#include "machine.h"
#include "ordered-events.h"
#include "progress.h"
#include "sample-stage.h"
#include "tool.h"
#include "trace-event.h"
#include "unwind.h"

/* anomalies, counted and reported once at the end (perf_session__warn_about_errors) */
struct session_stats {
	u64	nr_events[PERF_RECORD_HEADER_MAX];	/* [0]: all records */
	u64	nr_unknown_events;	/* kernel record types we do not know: skipped */
	u64	nr_lost_events;		/* LOST records */
	u64	total_lost;		/* samples they say were lost */
	u64	total_lost_samples;	/* LOST_SAMPLES */
	u64	nr_throttle, nr_unthrottle;
	u64	total_period;
	u64	nr_samples;
	u64	nr_unknown_id;		/* samples whose id matches no attr */
	u64	nr_late_events;		/* older than the last ordered-events flush */
	u64	nr_user_stack_only;	/* callchain samples whose user stack is not unwound */
	/* MMAP2 records with the build-id bit over a device and inode body, the first's offset */
	u64	nr_stray_build_id_bit;
	u64	stray_build_id_offset;
};

struct session_opts {
	const char		*path;		/* "-" for standard input */
	const struct symbol_conf *symbol_conf;
	size_t			ordered_max_mem;	/* 0: default */
	/* the sample stages, in this order */
	bool			merge_deferred;		/* stitch deferred user callchains */
	size_t			deferred_max_mem;	/* 0: default */
	enum unwind_mode	unwind_mode;		/* user stacks (regs + dump); 0: none */
	/* a sample with read values goes to the tool whole (perf inject), not one per value */
	bool			keep_read_values;
	/*
	 * Kernel symbols of tracepoint fields (%pS, function fields), as perf script has them
	 * (report does not); priv is the session. NULL: addresses print in hex.
	 */
	trace_event__resolver_t	trace_resolver;
	/* a progress line on stderr while a long load runs (progress.h), when it is a terminal */
	bool			progress;
};

/*
 * Sees what the session reads, for -D (dump.h); either callback may be NULL. record(): every
 * record as read, before ordering (also those the session then skips). event(): every
 * kernel record (types 1..PERF_RECORD_MAX-1) at delivery, after time ordering and before
 * the stages and the tool: sample is its parse, NULL when that failed (why: the reason).
 * With an event() the stages get every record parsed, none raw: each one is seen parsed.
 */
struct session_observer {
	void	(*record)(void *arg, const struct perf_data_record *rec);
	void	(*event)(void *arg, const struct perf_event_header *event, u64 file_offset,
			 const struct perf_sample *sample, struct perf_evattr *evattr,
			 const char *why);
	void	*arg;
};

struct perf_session {
	struct perf_data	*data;
	struct machine		machine;
	struct helper_budget	*helpers;	/* the helper threads' budget, lent to data and machine */
	const struct perf_tool	*tool;
	struct session_opts	opts;
	struct ordered_events	oe;
	struct sample_pipeline	pipe;
	const struct session_observer *observer;	/* NULL: none */
	struct trace_event	*tevent;	/* NULL until the tracing data is known */
	struct thread		*sample_thread;	/* the delivered sample's held thread, or NULL */
	struct session_stats	stats;
	size_t			nr_build_ids_applied;	/* the env's build ids the dsos got */
	u32			*unsupported;	/* user record types past perf's: warned at the end */
	size_t			nr_unsupported, unsupported_alloc;
	u64			*scratch;	/* host-order arrays of cross-endian samples */
	bool			swapped;	/* the input is in the other byte order */
	struct progress		progress;	/* of process_events() */
	u64			nr_flushed;	/* events delivered by the final flush */
	bool			final_flush;
	/* why process() failed; read it, tools write theirs with perf_session__tool_error() */
	struct perf_err		err;
};

/* returns NULL with err filled (the reader's message) */
struct perf_session *perf_session__new(const struct session_opts *opts, const struct perf_tool *tool,
				       struct perf_err *err);
void perf_session__delete(struct perf_session *session);
/* obs (may be NULL) is borrowed until the session is deleted or another is set */
void perf_session__set_observer(struct perf_session *session, const struct session_observer *obs);
/*
 * Reads to the end; 0 or a negative errno with session->err set. -ENODATA: the input (a
 * pipe) ended inside a record, everything before the cut was delivered (as upstream does).
 */
int perf_session__process_events(struct perf_session *session);
/*
 * The exit status of a command that read the input: 0 when ret is 0, 255 when the input
 * could not be read or was cut short (upstream says 0 for a cut stream: a half profile
 * must not pass for a whole one), 1 when writing the output failed (output_failed, said by
 * perf_stdout__finish()).
 */
int perf_session__exit_code(int ret, bool output_failed);
/* prints the end-of-run warnings perf prints (lost events, unknown records, ...) */
void perf_session__warn_about_errors(const struct perf_session *session, FILE *fp);
/*
 * Every stage's end-of-run lines, in stage order: its warnings always, its statistics when
 * full has its bit (1 << enum sample_stage_kind; SAMPLE_STAGE_ALL for all, 0 for none).
 */
void perf_session__fprintf_stage_stats(const struct perf_session *session, FILE *fp,
				       unsigned int full);

/*
 * The thread of the sample being delivered to the tool: the one a stage held for it (tid
 * reuse while it waited does not change it), else the machine's for its pid/tid. Borrowed
 * for the callback; NULL when out of memory.
 */
struct thread *perf_session__sample_thread(struct perf_session *session,
					   const struct perf_sample *sample);

/*
 * A tool callback's reason for the error it returns: the session's err says why (the
 * record's name and offset would blame the input) and the callback returns what this
 * returns, -errnum. why is copied; a later failure of the session does not replace it.
 */
int perf_session__tool_error(struct perf_session *session, int errnum, const char *why);

/*
 * The tracepoint formats of the input (file header, or a pipe's TRACING_DATA record once it
 * went by), owned by the session; NULL when the input has none (yet). The session renames
 * tracepoint attrs from it as soon as it is built.
 */
struct trace_event *perf_session__trace_event(const struct perf_session *session);

#endif
