/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tool.h - the callback table a command hands to its session.
 *
 * Each command embeds one struct perf_tool in its state struct and fills every slot in one
 * init function (perf_tool__init gives the defaults, the command overrides what it handles);
 * the session takes it const. A callback returns 0 or a negative errno, which stops the
 * session; one that has a reason to give returns perf_session__tool_error(), so that the
 * command prints the tool's words rather than a record's offset. Which sample stages run
 * (deferred stitching, ...) is a session option (session_opts), not the tool's: samples
 * reach tool->sample after the stages.
 */
#ifndef PERF_UTIL_TOOL_H
#define PERF_UTIL_TOOL_H

#include <stdbool.h>
#include <perf/data.h>

struct perf_tool;
struct perf_session;

/*
 * event: the record (host order except sample bodies). sample: its parsed fields (sample_id
 * trailer for non-samples; zeroed when the file has none). evattr: the attr it belongs to, or
 * NULL for records that belong to none.
 */
typedef int (*perf_event_op)(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr);

struct perf_tool {
	perf_event_op	sample;
	perf_event_op	mmap;		/* MMAP and MMAP2 */
	perf_event_op	comm;
	perf_event_op	fork;
	perf_event_op	exit;
	perf_event_op	lost;		/* LOST and LOST_SAMPLES */
	perf_event_op	throttle;	/* THROTTLE and UNTHROTTLE */
	perf_event_op	ksymbol;
	perf_event_op	callchain_deferred;	/* only when no sample stage consumes them */
	perf_event_op	other;		/* every other kernel record type */
	perf_event_op	user_meta;	/* perf's own records (>= 64), after the reader applied them */
	bool		ordered_events;
};

/* defaults: machine updates for side-band records, nothing for samples, ordered */
void perf_tool__init(struct perf_tool *tool);

/* the default side-band handlers, for commands that override a slot and still want them */
int perf_event__process_mmap(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr);
int perf_event__process_comm(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr);
int perf_event__process_fork(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr);
int perf_event__process_exit(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr);
int perf_event__process_ksymbol(const struct perf_tool *tool, struct perf_session *session,
				const struct perf_event_header *event, struct perf_sample *sample,
				struct perf_evattr *evattr);
int perf_event__process_nop(const struct perf_tool *tool, struct perf_session *session,
			    const struct perf_event_header *event, struct perf_sample *sample,
			    struct perf_evattr *evattr);

#endif
