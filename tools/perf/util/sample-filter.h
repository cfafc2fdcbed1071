/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample-filter.h - the sample filters perf users type, shared by perf script and perf
 * report: --comms, --pid, --tid, -S/--symbols, -d/--dsos (the "hide" filters) and -C/--cpu,
 * --time (the "drop" filters), parsed and applied as upstream perf 7.2 does.
 *
 * Two kinds, because upstream's report treats them differently:
 *   - drop (cpu, time): the sample is skipped before anything counts it;
 *   - hide (comm, pid, tid, dso, symbol): report still counts the sample in the event's
 *     "# Samples:", "Event count" and the percentage base, it only shows no entry for it;
 *     script prints nothing for it. The comm is the thread's at sample time, the dso and
 *     symbol those of the sample's ip.
 * Side-band records are not filtered by these, except that perf script's --show-*-events
 * skip those of other cpus than -C's (sample_filter__drops_cpu()), as upstream.
 *
 * The options store their strings as typed (borrowed from argv); sample_filter__setup()
 * parses them all once the input is known (the cpu count and the first/last sample times
 * come from its header). The filter owns what it parsed; sample_filter__exit() frees it.
 * Errors: 0 or a negative errno with upstream's words in err.
 */
#ifndef PERF_UTIL_SAMPLE_FILTER_H
#define PERF_UTIL_SAMPLE_FILTER_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>

struct perf_data;
struct dso;
struct symbol;

/* a comma separated list of names, as upstream's strlist: an entry twice is refused */
struct name_list {
	char		**names;
	size_t		nr;
};

struct id_list {
	s32		*ids;
	size_t		nr;
	bool		set;
};

/* one --time range, in ns; 0 at either end: open */
struct time_range {
	u64		start, end;
};

struct sample_filter {
	/* the options as typed, NULL when not given */
	const char		*comm_str, *dso_str, *sym_str, *pid_str, *tid_str;
	const char		*cpu_str, *time_str;
	/* parsed by sample_filter__setup() */
	struct name_list	comms, dsos, syms;	/* syms: the names of -S */
	u64			*sym_addrs;	/* the hex numbers of -S: sample addresses */
	size_t			nr_sym_addrs;
	struct id_list		pids, tids;
	u64			*cpus;		/* bitmap of the cpus kept, NULL: all */
	u32			nr_cpus;	/* bits in cpus */
	struct time_range	*ranges;
	size_t			nr_ranges;
};

/*
 * The option table entries both commands take, in upstream's words (the builtin includes
 * parse-options.h); --comms (whose help differs) and report's -d are the commands' own.
 */
#define OPT_SAMPLE_FILTER(f)									\
	OPT_STRING(0, "pid", &(f)->pid_str, "pid[,pid...]", "only consider symbols in these pids"),	\
	OPT_STRING(0, "tid", &(f)->tid_str, "tid[,tid...]", "only consider symbols in these tids"),	\
	OPT_STRING('C', "cpu", &(f)->cpu_str, "cpu", "list of cpus to profile"),		\
	OPT_STRING(0, "time", &(f)->time_str, "str", "Time span of interest (start,stop)"),	\
	OPT_STRING('S', "symbols", &(f)->sym_str, "symbol[,symbol...]", "only consider these symbols")

void sample_filter__init(struct sample_filter *f);
void sample_filter__exit(struct sample_filter *f);

/* which option sample_filter__setup() refused */
enum sample_filter_fail {
	SAMPLE_FILTER_FAIL_LIST,	/* --comms, --pid, ...: upstream exits 255 */
	SAMPLE_FILTER_FAIL_CPU,		/* -C: 255 */
	SAMPLE_FILTER_FAIL_TIME,	/* --time: upstream exits 234 (-EINVAL) */
};

/*
 * Parses the name lists (comma separated, as upstream's strlist), the pid and tid lists
 * ("problems parsing pid list"), -C against the input's cpu count and event sample types
 * ("Invalid cpu_list", "Requested CPU 5 too large. Consider raising MAX_NR_CPUS", "File
 * does not contain CPU events. Remove -C option to proceed.") and --time against its first
 * and last sample times ("Invalid time string"); err may hold several lines. Returns 0 or
 * -EINVAL (-ENOMEM) with *failed saying which option it was.
 */
int sample_filter__setup(struct sample_filter *f, struct perf_data *data,
			 enum sample_filter_fail *failed, struct perf_err *err);

/* -C / --time: whether the sample is skipped before anything counts it */
bool sample_filter__drops(const struct sample_filter *f, u32 cpu, u64 time);

/*
 * -C alone: upstream's script filters side-band records by it too (by the cpu they are
 * printed with), not by --time
 */
bool sample_filter__drops_cpu(const struct sample_filter *f, u32 cpu);

/* any of the hide filters is set (callers skip resolving the ip when none is) */
bool sample_filter__has_hide(const struct sample_filter *f);
/* any filter at all: a command without one skips the per-sample checks */
bool sample_filter__active(const struct sample_filter *f);

/*
 * --comms / --pid / --tid / -d / -S: whether the sample is hidden. dso and sym may be NULL
 * (unresolved); ip is the sample's address, which the hex entries of -S match when a map
 * covers it (has_map).
 */
bool sample_filter__hides(const struct sample_filter *f, const char *comm, s32 pid, s32 tid,
			  const struct dso *dso, const struct symbol *sym, u64 ip, bool has_map);

/*
 * What upstream's script does with a sample: skip it when --cpu/--time drop it or a hide
 * filter hides it (its thread's comm, pid and tid; its ip's dso and symbol for -d/-S)
 */
struct perf_session;
struct perf_sample;
bool sample_filter__skips(const struct sample_filter *f, struct perf_session *session,
			  const struct perf_sample *sample);

/*
 * Upstream's report hides a column whose filter has exactly one entry, and prints
 * "# <name>: <entry>" above the report for it: the entry, or NULL when not so. str: the
 * option as typed (NULL: not given).
 */
const char *name_list__single(const struct name_list *list, const char *str);

#endif
