/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sort.h - perf report's sort keys and period columns, as upstream's sort.c: the --sort and
 * --fields lists parsed into columns and sort steps (struct hist_opts), and the comparisons
 * of two entries' keys by them (declared in hist-internal.h, for hist.c and hist-output.c).
 *
 * Owns nothing: a struct hist_opts is the caller's, filled by hist_opts__setup() and only
 * read afterwards; the struct hists made with it borrows it.
 */
#ifndef PERF_UTIL_SORT_H
#define PERF_UTIL_SORT_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "report-callchain.h"

/* sort keys, by their --sort names */
enum sort_key {
	SORT_KEY_PID,		/* "pid": tid:comm */
	SORT_KEY_COMM,		/* "comm" */
	SORT_KEY_DSO,		/* "dso" */
	SORT_KEY_SYM,		/* "sym", "symbol" */
	SORT_KEY_CPU,		/* "cpu" */
	SORT_KEY_TRACE,		/* "trace": a tracepoint's formatted fields */
	SORT_KEY_IPC_NULL,	/* upstream adds it behind "symbol" when there is no LBR data */
	SORT_KEY_PARENT,	/* "parent": the first callchain symbol matching -p */
	SORT_KEY_SYMOFF,	/* "symoff": symbol and the offset into it */
	SORT_KEY_CGROUP,	/* "cgroup": the sample's cgroup, named by CGROUP records */
	SORT_KEY_CGROUP_ID,	/* "cgroup_id": the thread's cgroup namespace (dev/inode) */
	SORT_KEY_SRCLINE,	/* "srcline": the sample address's source line (keys->srcline) */
	SORT_KEY_PARALLELISM,	/* "parallelism": how many threads ran when it was taken */
	SORT_KEY__NR,
};

/* the period columns, by their -F names */
enum hist_column {
	HIST_COL_OVERHEAD_ACC,	/* "Children" */
	HIST_COL_OVERHEAD,	/* "Overhead", "Self" in children mode */
	HIST_COL_SAMPLES,	/* -n */
	HIST_COL_PERIOD,	/* --show-total-period */
	HIST_COL_LATENCY,	/* "latency": the period divided by the parallelism */
	HIST_COL_LATENCY_ACC,	/* "latency_children" */
	HIST_COL_OVERHEAD_SYS,	/* "overhead_sys": the kernel-mode share (--showcpuutilization) */
	HIST_COL_OVERHEAD_US,	/* "overhead_us": the user-mode share */
	HIST_COL__NR,
};

#define HIST_MAX_FIELDS	16

/* one output column or sort step: a period column or a sort key */
struct hist_field {
	bool		is_key;
	int		id;		/* enum sort_key or enum hist_column */
};

struct hist_opts {
	struct hist_field	sort[HIST_MAX_FIELDS];	/* order of output, then tie breaks */
	unsigned int		nr_sort;
	struct hist_field	out[HIST_MAX_FIELDS];	/* columns, left to right */
	unsigned int		nr_out;
	bool			children;	/* accumulate callers (--children) */
	bool			cpu_util;	/* --showcpuutilization: sys and usr columns */
	bool			use_callchain;	/* keep and print callchains */
	struct chain_params	chain;
	bool			skip_first_frame;	/* sort order starts with "sym" */
	/*
	 * --sort names dso: upstream's symbol key then compares symbols alone, else the
	 * dso name first (a key that comes from --fields does not count)
	 */
	bool			dso_sort_key;
	bool			verbose;	/* long dso names */
	bool			hide_unresolved;	/* -U */
	double			min_percent;	/* --percent-limit */
	const char		*field_sep;	/* -t, NULL for aligned columns */
	bool			show_header;	/* the column header lines */
	/*
	 * Latency columns (set before hist_opts__setup()): latency when the file has context
	 * switch records, as upstream enables it then; prefer_latency (--latency) puts them
	 * first. hist_opts__drop_latency() takes them out again.
	 */
	bool			latency;
	bool			prefer_latency;
	bool			self_named;	/* "Overhead" is "Self" (children, no strict -F) */
	/*
	 * --hierarchy: one level per sort key, each entry under the one of the key before;
	 * in children mode each node's children period is that of the entry that made it,
	 * as upstream's.
	 */
	bool			hierarchy;
	/* children columns shown without values ("N/A"): upstream's --hierarchy of a pipe */
	bool			acc_na;
	bool			filter_relative;	/* --percentage relative (see hists__add_filtered) */
	/*
	 * --symbol-filter: the entries whose symbol's name lacks this text are hidden, as
	 * upstream hides them in its collapse: so only when a sort key collapses (comm,
	 * srcline); NULL: none
	 */
	const char		*symbol_filter;
};

/*
 * Build the columns and sort steps from --sort / --fields strings as upstream does (the
 * period columns first unless --fields is given, sort keys appended to the columns and
 * columns to the sort steps). sort_order NULL: the default for the session's events (trace
 * when every event is a tracepoint). 0, -ENOENT with err naming a key that is none of
 * ours or upstream's (upstream then shows the option's usage), or -EINVAL (a key we do not
 * support, a bad list).
 */
int hist_opts__setup(struct hist_opts *o, const char *sort_order, const char *field_order,
		     bool all_tracepoints, bool show_nr_samples, bool show_total_period,
		     struct perf_err *err);

/*
 * Upstream hides the latency columns of a profile that was not parallel (see report.h),
 * unless -F or --sort named them. They leave the columns only: upstream's sort keeps its own
 * latency steps, so equal overheads still order by latency (a few samples that ran in
 * parallel make their entries' latency lower without showing the column).
 */
void hist_opts__drop_latency(struct hist_opts *o, const char *sort_order, const char *field_order);

/* whether a sort step is key k */
bool hist_opts__has_key(const struct hist_opts *o, enum sort_key k);

#endif
