/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-sample.h - perf record's sample-field and sampling options, read as perf 6.1 reads
 * them, and what each changes in an event's attr, so that a recording's attrs equal perf
 * 6.1's for the same command line:
 *
 *   -d/--data		ADDR and DATA_SRC; mmap_data on the side-band event (data mmaps)
 *   --phys-data, --data-page-size, --code-page-size	PHYS_ADDR, DATA_PAGE_SIZE and
 *			CODE_PAGE_SIZE
 *   -T/--timestamp	TIME even where perf leaves it out (--per-thread); --no-timestamp
 *			none where perf would add it
 *   -P/--period	PERIOD with -c too; --no-period none, even in frequency mode
 *   -W/--weight	WEIGHT_STRUCT (x86's form of the sample weight)
 *   -s/--stat		inherit_stat and read_format TOTAL_TIME_ENABLED|RUNNING|ID: the kernel
 *			writes a PERF_RECORD_READ of each inherited counter as its task exits
 *   -R/--raw-samples	RAW, TIME and CPU
 *   -n/--no-samples	sample_period/sample_freq 0: side-band only
 *   -k/--clockid	use_clockid and clockid (clockid.h); the header's clockid features
 *   --user-regs[=REGS], -I/--intr-regs[=REGS]	REGS_USER / REGS_INTR (perf-regs.h)
 *   -b/--branch-any, -j/--branch-filter	BRANCH_STACK and branch_sample_type
 *   --strict-freq	refuse -F above the limit instead of lowering it (record-rate.h)
 *
 * The option callbacks take a struct record_sample_opts as the option's value and report
 * a bad value the parse-options way (one " Error: option ..." line, then the usage).
 */
#ifndef PERF_UTIL_RECORD_SAMPLE_H
#define PERF_UTIL_RECORD_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>

struct option;

struct record_sample_opts {
	bool	data;				/* -d */
	bool	phys_data, data_page_size, code_page_size;
	bool	timestamp, timestamp_set;	/* -T or --no-timestamp given: which */
	bool	period, period_set;		/* -P or --no-period */
	bool	weight;				/* -W */
	bool	inherit_stat;			/* -s */
	bool	raw;				/* -R */
	bool	no_samples;			/* -n */
	bool	use_clockid;			/* -k */
	int	clockid;
	u64	user_regs, intr_regs;		/* 0: none */
	u64	branch;				/* branch_sample_type, 0: no branch stack */
	bool	strict_freq;
};

/* where an attr sits in the recording, for the rules that depend on it */
struct record_sample_where {
	bool	tracking;	/* the side-band event (mmap, comm, task records) */
	/*
	 * perf adds TIME by default unless the events are per-thread (--per-thread: no
	 * inherit, one ring per thread, whose records need no ordering by time)
	 */
	bool	time_by_default;
};

/* applies the options to a, built by the command (its sample_type, flags, period) */
void record_sample__config_attr(const struct record_sample_opts *o, struct perf_event_attr *a,
				const struct record_sample_where *where);

/* option callbacks: opt->value is a struct record_sample_opts */
int record_sample__opt_timestamp(const struct option *opt, const char *arg, bool unset);
int record_sample__opt_period(const struct option *opt, const char *arg, bool unset);
int record_sample__opt_clockid(const struct option *opt, const char *arg, bool unset);
int record_sample__opt_user_regs(const struct option *opt, const char *arg, bool unset);
int record_sample__opt_intr_regs(const struct option *opt, const char *arg, bool unset);
int record_sample__opt_branch_any(const struct option *opt, const char *arg, bool unset);
int record_sample__opt_branch_filter(const struct option *opt, const char *arg, bool unset);

/*
 * After the kernel refused an attr with errnum: one line saying why, when these options
 * are the reason (a branch stack on an event without LBR/BRS, a clock the kernel does not
 * stamp with); NULL when they are not.
 */
const char *record_sample__open_error(const struct record_sample_opts *o,
				      const struct perf_event_attr *a, int errnum, char *buf,
				      size_t size);

#endif
