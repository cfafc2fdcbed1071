/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-output.h - perf script's sample lines: which fields each event type prints (perf's
 * defaults, -F), and printing one sample with its callchain in upstream perf's layout.
 *
 * Owns its frame resolver and text cache; the FILE and the session are the caller's, and
 * -F cgroup's names the session's machine's (machine__find_cgroup()). Time stamps print absolute, or relative to the
 * first (--reltime) or the previous line (--deltatime): that state is the output's too.
 */
#ifndef PERF_UTIL_SCRIPT_OUTPUT_H
#define PERF_UTIL_SCRIPT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/data.h>
#include "frame-resolver.h"
#include "sbuf.h"
#include "session.h"

enum script_field {
	SF_COMM		= 1U << 0,
	SF_TID		= 1U << 1,
	SF_PID		= 1U << 2,
	SF_TIME		= 1U << 3,
	SF_CPU		= 1U << 4,
	SF_EVNAME	= 1U << 5,
	SF_TRACE	= 1U << 6,
	SF_IP		= 1U << 7,
	SF_SYM		= 1U << 8,
	SF_DSO		= 1U << 9,
	SF_ADDR		= 1U << 10,
	SF_SYMOFFSET	= 1U << 11,
	SF_PERIOD	= 1U << 12,
	SF_SRCLINE	= 1U << 13,
	SF_DSOFF	= 1U << 14,
	SF_CGROUP	= 1U << 15,
	SF_IREGS	= 1U << 16,
	SF_UREGS	= 1U << 17,
	SF_WEIGHT	= 1U << 18,
	SF_PHYS_ADDR	= 1U << 19,
	SF_DATA_PAGE_SIZE = 1U << 20,
	SF_CODE_PAGE_SIZE = 1U << 21,
	SF_DATA_SRC	= 1U << 22,
	SF_INS_LAT	= 1U << 23,
	SF_RETIRE_LAT	= 1U << 24,
};

/* output kinds, indexed like perf's output[] table */
enum script_type {
	ST_HARDWARE, ST_SOFTWARE, ST_TRACEPOINT, ST_HW_CACHE, ST_RAW, ST_BREAKPOINT, ST_NR,
};

struct script_fields {
	unsigned int	fields[ST_NR];
	bool		user_set[ST_NR];	/* -F named the whole list (no +/-) */
	bool		typed[ST_NR];		/* ... in a list for this type alone (TYPE:) */
	/*
	 * -F changed this type at all (a list, +x or -x, for it or for every type): perf then
	 * no longer adds the callchain fields to its tracepoints
	 */
	bool		touched[ST_NR];
	unsigned int	user_add[ST_NR], user_del[ST_NR];
};

struct trace_event;

/*
 * The frame lines of a resolved chain, as printed with fields: a pure text cache on top of
 * the frame resolver, keyed by the chain's id (equal ids, equal frames).
 */
#define CHAIN_TEXT_BITS	9

struct chain_text {
	u64		id;		/* resolved_chain id, 0: empty */
	unsigned int	fields;
	char		*text;
	u32		len, alloc;
};

struct script_output {
	FILE			*fp;
	struct script_fields	sel;
	bool			nanosecs;
	bool			reltime;	/* --reltime: since the first timestamp */
	bool			deltatime;	/* --deltatime: since the previous line's */
	u64			first_time, previous_time;
	unsigned int		max_stack;
	bool			inline_frames;	/* expand inlined functions from DWARF */
	int			name_width;	/* longest event name (perf aligns on it) */
	size_t			data_src_width;	/* longest -F data_src text so far */
	struct sbuf		sb;		/* the sample being printed */
	struct frame_resolver	*resolver;	/* made on the first sample, for its machine */
	struct chain_text	*texts;		/* 1 << CHAIN_TEXT_BITS entries */
	struct trace_event	*tevent;	/* NULL when the file has no tracing data */
	bool			use_callchain;
	bool			show_unwind;	/* --show-unwind: each frame's origin */
	/*
	 * records in file order (--show-round-events): a sample's comm is its thread's latest
	 * read, as perf prints it there, not the comm at the sample's time (the default: the
	 * same in time order, and right for samples held for their deferred callchain)
	 */
	bool			comm_as_read;
	struct perf_err		err;
};

void script_fields__init_defaults(struct script_fields *sel);
/*
 * Parses one -F argument ("comm,tid", "+period", "trace:comm,tid,time", ...). A field an
 * event type cannot have (trace for all but tracepoints) is left out of those types with one
 * warning line each to warn (perf's words) when no type was named, an error when one was.
 */
int script_fields__parse(struct script_fields *sel, const char *arg, FILE *warn,
			 struct perf_err *err);

enum script_type script_type_of(const struct perf_event_attr *attr);

void script_output__init(struct script_output *out, FILE *fp, const struct script_fields *sel);
/*
 * Fixes the effective field set per type against the session's attrs (fields the samples
 * cannot have are dropped from defaults, and an error for user-set ones), as perf does.
 * Called again whenever pipe mode brings new attrs.
 */
int script_output__setup(struct script_output *out, struct perf_session *session);
void script_output__exit(struct script_output *out);

int script_output__sample(struct script_output *out, struct perf_session *session,
			  struct perf_sample *sample, struct perf_evattr *ea);

/* --no-merge-callchains: a deferred record with its user frames, as upstream prints it */
int script_output__deferred_record(struct script_output *out, struct perf_session *session,
				   const struct perf_record_callchain_deferred *rec,
				   struct perf_sample *id, struct perf_evattr *ea);

/*
 * "comm tid [cpu] time: " prefix for side-band lines (--show-mmap-events etc.); like a
 * sample's, it moves the --deltatime reference
 */
void script_output__fprintf_start(struct script_output *out, struct perf_session *session,
				  struct thread *thread, const struct perf_sample *sample,
				  struct perf_evattr *ea);

#endif
