/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - perf report's histogram of one event: samples aggregated into entries by the
 * sort keys (comm, dso, symbol by default; sort.h parses them), with self and accumulated
 * ("children") periods and the merged callchains of each entry, then ordered for output as
 * upstream perf 7.2's `perf report --stdio` orders them (hist-output.h prints them).
 *
 * Life cycle: hists__new() -> hists__add_sample() per sample -> hists__output_resort() ->
 * hists__fprintf(), or the same lines one at a time for the browser (hist-output.h). Entries
 * are found by hash; the order they are walked in for output is the order of upstream's
 * red-black trees (see report-callchain.h for why that matters).
 *
 * Ownership: struct hists owns its entries, their callchain trees, and copies of every comm
 * and trace string. It borrows dsos and symbols from the session's machine, which must
 * outlive it (dsos are never freed before the machine is). The options are borrowed too.
 */
#ifndef PERF_UTIL_HIST_H
#define PERF_UTIL_HIST_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "hashmap.h"
#include "report-callchain.h"
#include "sbuf.h"
#include "sort.h"

struct dso;
struct symbol;
struct machine;

struct hists;
/* s kept as long as hists, one copy per text; NULL when out of memory */
const char *hists__intern(struct hists *hists, const char *s);

/* what the parent, cgroup and cgroup_id sort keys take of a sample */
struct hist_sample_keys {
	const struct symbol	*parent;	/* SORT_KEY_PARENT: NULL for "[other]" */
	u64			cgroup;		/* PERF_SAMPLE_CGROUP id, 0 for none */
	const char		*cgroup_name;	/* its CGROUP record's path, NULL when unknown */
	u64			cgroup_ns_dev, cgroup_ns_ino;	/* from NAMESPACES, 0 when none */
	/*
	 * SORT_KEY_SYMOFF: the sample's address in its symbol's space, when symoff is to be
	 * taken from it (an ET_EXEC image: there ip, map-relative, and the symbols' vaddrs
	 * differ by the load address)
	 */
	u64			sym_addr;
	bool			has_sym_addr;
	/*
	 * SORT_KEY_SRCLINE: the sample address's source line as upstream names it (copied):
	 * entries are told apart by address and dso, then merged by this text
	 */
	const char		*srcline;
};

/* what one sample contributes; the frames are in the order the callchain is shown */
struct hist_sample {
	const char		*comm;		/* comm of the thread (copied if new) */
	s32			pid, tid;
	s32			cpu;
	s32			parallelism;	/* with latency: the threads running, 1 or more */
	struct dso		*dso;		/* NULL: no map covers the ip */
	const struct symbol	*sym;
	u64			ip;		/* map-relative address of the sample */
	char			level;		/* '.', 'k', ... */
	const char		*trace;		/* the trace text of a tracepoint sample, or NULL */
	const struct hist_sample_keys *keys;	/* NULL unless a sort key needs them */

	u64			period;
	u64			latency;	/* period * 1000 / parallelism, 0 without latency */
	const struct chain_frame *frames;	/* callchain, NULL/0 when none */
	u32			nr_frames;
	bool			has_callchain;	/* the event records callchains */
	/*
	 * 0, or a name for the frames: samples with the same nonzero chain_key have the same
	 * frames (and nr_frames), which lets hists__add_repeat() skip comparing them.
	 */
	u64			chain_key;
	/*
	 * Children mode with the srcline key: frame i's source line as upstream names the
	 * entry of that caller (an inlined function's own line, else its address's), asked
	 * only when the frame's entry is new; the text may be written to buf.
	 */
	const char		*(*frame_srcline)(void *arg, u32 i, char *buf, size_t size);
	void			*frame_srcline_arg;
};

struct hist_entry;
struct hist_walk_memo;
struct hist_step;
struct hist_repeat;

struct hists {
	const struct hist_opts	*opts;
	struct hist_entry	*all;		/* every entry (owned), newest first */
	struct hashmap		map;		/* entries found by hash (see hist.c) */
	size_t			nr_entries;
	bool			has_sym_key;	/* a sort key compares symbols */
	bool			has_inlined;	/* an entry has an inlined function's symbol */
	/*
	 * entries_in holds unresolved symbols of two dsos: symbol keys compare in no order
	 * (see hist.c), every one walks; symless_dso is the dso of the last one added
	 */
	bool			sym_walk;
	bool			has_symless;
	const struct dso	*symless_dso;
	bool			need_collapse;	/* a sort key collapses (comm) */
	struct hist_walk_memo	*memo;		/* walks of unresolved keys (see hist.c) */
	u64			tree_gen;	/* entries_in changes */
	struct rbroot		entries_in;	/* as upstream adds them */
	struct rbroot		collapsed;	/* entries_in walked and merged: output input order */
	struct rbroot		entries;	/* output order */
	struct hist_step	*cache;		/* entries the current sample fed */
	size_t			cache_alloc;
	struct hist_repeat	*repeats;	/* what recent samples fed, by sample (see hist.c) */
	u32			*dirty;		/* repeats with counts not yet applied */
	u32			nr_dirty;
	u64			nr_slow;	/* samples that took hists__add_sample() */
	bool			repeat_comm, repeat_tid, repeat_cpu;	/* sort keys use them */
	bool			repeat_par;
	struct strset		*strings;	/* comm and trace texts */
	u64			stamp;		/* counts samples, marks entries a sample fed */
	u64			nr_samples;
	u64			total_period;
	u64			total_latency;	/* of the entries, set by hists__output_resort() */
	u64			nr_filtered, filtered_period, filtered_latency;	/* hists__add_filtered */
	/* the entries --symbol-filter hid, by hists__output_resort() */
	u64			sym_hidden_period, sym_hidden_latency;
	u64			callchain_period;	/* min threshold base of the graph */
	u16			col_len[SORT_KEY__NR];
};

struct hists *hists__new(const struct hist_opts *opts);
void hists__delete(struct hists *hists);

/* 0 or -ENOMEM */
int hists__add_sample(struct hists *hists, const struct hist_sample *s);

/*
 * The hook for sample filters (--comms, --pid, --tid, --dsos, ...): a sample of this event
 * a filter left out. It makes no entry, but with --percentage absolute (the default) it
 * still counts in the totals percentages are of and in the header's sample and event
 * counts, as upstream; with relative (hist_opts.filter_relative) those are of the samples
 * kept. latency: what the sample would have had in hist_sample.latency.
 */
void hists__add_filtered(struct hists *hists, u64 period, u64 latency);

/* the totals percentages and the header lines are of, as --percentage says */
u64 hists__total_period(const struct hists *hists);
/* the base of the callchains' percentages: the same, but with the entries --symbol-filter hid */
u64 hists__chain_total(const struct hists *hists);
u64 hists__total_samples(const struct hists *hists);
u64 hists__total_latency(const struct hists *hists);

/*
 * The fast path of hists__add_sample() for a sample that repeats an earlier one (same
 * chain_key and key fields, no trace text): true when it was added, with the same effect
 * hists__add_sample() would have had; false when it must go through hists__add_sample().
 * s->frames is not read, so the caller may fill it only when this fails.
 */
bool hists__add_repeat(struct hists *hists, const struct hist_sample *s);


/*
 * Sort entries for output, prune and sort their callchains and size the columns. machine
 * gives the threads' final comms (upstream sizes the comm column by them). 0 or -ENOMEM.
 */
int hists__output_resort(struct hists *hists, struct machine *machine);

#endif
