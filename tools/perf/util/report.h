/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - perf report's profile: each sample resolved (one frame resolver) and added to
 * the histogram of its event (util/hist.c), then the whole --stdio report printed as
 * upstream perf 7.2 prints it (header lines per event, the entries, the tip), or the
 * "Aggregated stats" of -D / --stats.
 *
 * The command fills struct report_opts from its options and the session's attrs; a report
 * borrows them and the session, which must outlive it. It owns its hists, its frame
 * resolver and its frame buffer. Errors: 0 or a negative errno, the reason in r->err.
 */
#ifndef PERF_UTIL_REPORT_H
#define PERF_UTIL_REPORT_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <perf/data.h>
#include "hist.h"

struct perf_session;
struct frame_resolver;
struct dump;
struct sample_filter;

/*
 * The options of one report. The command's option table writes into it (and into hopts)
 * directly: no field is kept twice. hopts.latency says whether samples are weighed by
 * parallelism, hopts.hide_unresolved is -U for the frames of callchains too.
 */
struct report_opts {
	struct hist_opts	hopts;		/* sort keys, columns, callchain parameters */
	int			max_stack;	/* frames kept per chain, < 0: all */
	bool			inline_frames;	/* callchains expand inlined functions (DWARF) */
	bool			quiet;		/* -q: no header lines, no tip */
	bool			skip_empty;	/* events without samples are not shown */
	const char		*exec_dir;	/* perf's directory: tips.txt is looked up beside it */
	const struct sample_filter *filter;	/* --comms, -C, --time, ...; NULL: none */
	const char		*parent_pattern;	/* -p: the regex of the parent sort key */
	bool			thread_counts;	/* -T: the per-thread counter table at the end */
	/*
	 * --parallelism: bit n set keeps the samples taken while n threads ran (1 to 63; a
	 * higher parallelism counts as 63); 0: all. The others are hidden, as -S hides.
	 */
	u64			parallelism_mask;
};

/* a thread's cgroup namespace, from its latest PERF_RECORD_NAMESPACES */
struct report_cgroup_ns {
	s32			tid;
	u64			dev, ino;
};

/* -T: the counts of PERF_RECORD_READ records (perf record -s), added up per thread */
struct report_counts {
	struct report_counts_thread {
		s32			pid, tid;
	}			*threads;	/* in the order they first came */
	size_t			nr_threads;
	struct report_counts_counter {
		const struct perf_evattr *ea;
		const char		*name;	/* the event's */
	}			*counters;	/* in the order they first came */
	size_t			nr_counters;
	struct report_counts_cell {
		u32			thread, counter;
		u64			value;
	}			*cells;
	size_t			nr_cells;
};

struct report {
	const struct report_opts *opts;
	struct perf_session	*session;
	const struct dump	*dump;		/* -D: each sample's resolution is shown; NULL */
	struct hists		**hists;	/* by attr index */
	size_t			nr_hists;
	struct frame_resolver	*resolver;
	struct chain_frame	*chain_frames;	/* the chain of the sample being added */
	const struct resolved_frame **chain_rf;	/* each one's resolved frame (in the chain) */
	size_t			frames_alloc;
	/*
	 * Parallelism, as upstream counts it for latency: the threads on CPUs, from context
	 * switch records (in +1, out -1) and EXIT records (-1), starting at 1 since no switch
	 * in precedes the first sample. A sample's is clamped to [1, nr_cpus].
	 */
	int			parallelism;
	u32			nr_cpus;
	u64			nr_weighed;	/* samples given a latency */
	u64			nr_single;	/* of those, taken at parallelism 1 */
	bool			want_parent;	/* the parent key: regex compiled */
	bool			extra_keys;	/* parent, cgroup, cgroup_id or srcline is a sort key */
	bool			srcline_key;	/* srcline is */
	regex_t			parent_regex;
	struct report_cgroup_ns	*cgroup_ns;
	size_t			nr_cgroup_ns;
	struct report_counts	counts;		/* -T */
	struct perf_err		err;
};

/* dump may be NULL; -ENOMEM */
int report__init(struct report *r, const struct report_opts *opts, struct perf_session *session,
		 const struct dump *dump);
void report__exit(struct report *r);
/*
 * After the sort is set up: notes which sample fields the sort keys need, compiles -p when
 * the parent key is used; 0 or -EINVAL.
 */
int report__setup_parent(struct report *r);

/*
 * The side-band records a report keeps something of: SWITCH and SWITCH_CPU_WIDE (misc
 * says in or out) for the parallelism, CGROUP for cgroup names (kept on the session's
 * machine: machine__process_cgroup()), NAMESPACES for cgroup_id.
 * Others are ignored. 0 or -ENOMEM (the reason in r->err); a record too short for what it
 * says is ignored.
 */
int report__side_record(struct report *r, const struct perf_event_header *event);
/* an EXIT record */
void report__task_exit(struct report *r);
/* -T: a PERF_RECORD_READ of the event ea; 0 or -ENOMEM */
int report__add_read(struct report *r, const struct perf_event_header *event,
		     struct perf_evattr *ea);

/*
 * Whether the latency columns are worth showing: upstream hides them when 99% or more of
 * the samples ran at parallelism 1 (and there were samples), unless --latency asked.
 */
bool report__was_parallel(const struct report *r);

/* one sample of evattr (NULL: a sample of no attr, ignored) into its event's histogram */
int report__add_sample(struct report *r, struct perf_sample *sample, struct perf_evattr *evattr);

/*
 * The --stdio report to fp: every event's entries in upstream's order and layout. Says
 * "The ... data has no samples!" on stderr (and returns 0) when there are none.
 */
int report__fprintf(struct report *r, FILE *fp);

/* one event the report shows, and its histogram (the report's) */
struct report_event {
	struct perf_evattr	*ea;
	struct hists		*hists;
	bool			leads_group;	/* of a group of several: "events" */
};

/*
 * What report__fprintf() and the browser show: every event's histogram sorted for output,
 * and the events shown (those with samples, unless !skip_empty), in file order, into
 * *events (the caller frees the array, not the hists). *nr_entries counts the entries,
 * hidden ones too: none means the data has no samples (then *events is NULL). 0 or -ENOMEM.
 */
int report__output_events(struct report *r, struct report_event **events, size_t *nr_events,
			  size_t *nr_entries);

/* "Samples: 6K of event 'cycles'", as the --stdio header and the browser's title say it */
void report_event__samples(const struct report_event *ev, char *buf, size_t size);

/*
 * --tasks: every thread the recording knew (exited ones too), as upstream lists them: a
 * tree by parent, siblings by tid, the idle task first; with_maps (--mmaps): each followed
 * by its maps at the end of the recording. 0, -ENOMEM or -EIO.
 */
int report__fprintf_tasks(struct report *r, FILE *fp, bool with_maps);

/* "Aggregated stats:" of -D and --stats: every record type seen, then samples per event */
void report__fprintf_stats(const struct report *r, FILE *fp);

#endif
