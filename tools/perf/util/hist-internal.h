/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist-internal.h - what hist.c (aggregation), sort.c (key comparisons) and hist-output.c
 * (the stdio table) share: an entry and its key. Not for other users: they see struct
 * hist_entry only through struct hists.
 *
 * Ownership: entries belong to their struct hists (hist.c allocates and frees them); the
 * texts in a key are the hists' interned copies, its dso and symbols the machine's.
 */
#ifndef PERF_UTIL_HIST_INTERNAL_H
#define PERF_UTIL_HIST_INTERNAL_H

#include "dso.h"
#include "hist.h"

struct hist_key {
	const char		*comm;		/* interned */
	s32			pid, tid, cpu;
	s32			parallelism;
	struct dso		*dso;
	const struct symbol	*sym;
	u64			ip;
	const char		*trace;		/* interned, NULL for other events */
	char			level;
	/* the rarely used keys last, off the cache line the common ones share */
	const struct symbol	*parent;
	u64			cgroup;
	const char		*cgroup_name;	/* interned */
	u64			cgroup_ns_dev, cgroup_ns_ino;
	u64			sym_off;	/* symoff's offset; key.ip - sym->start without one */
	bool			has_sym_off;
	const char		*srcline;	/* interned, SORT_KEY_SRCLINE only */
};

struct hist_entry {
	struct hist_key		key;
	struct hashmap_node	node;		/* in hists->map: only entries found by hash */
	struct hist_entry	*all_next;	/* every entry, for freeing */
	struct rbnode		rb_in, rb_collapsed, rb_out;
	const char		*thread_comm;	/* the thread's last comm, set for output */
	u64			period, nr_events;		/* own samples */
	u64			period_acc, nr_events_acc;	/* own and callees' samples */
	u64			latency, latency_acc;		/* their latency weights */
	u64			period_sys, period_us;		/* own, kernel and user mode */
	bool			has_callchain;
	bool			merged;		/* folded into an equal entry by the collapse */
	u64			stamp;		/* hists->stamp of the last sample that fed it */
	struct chain_root	callchain;
};

/* upstream's -v compares and prints the dsos' full paths */
static inline const char *hist_opts__dso_name(const struct hist_opts *o, const struct dso *dso)
{
	if (!dso)
		return NULL;
	if (!o->verbose)
		return dso->short_name;
	/* upstream names the kernel (and its sections) by the vmlinux they came from (-k) */
	if (dso->kind == DSO_KIND_KERNEL && dso->symsrc_path)
		return dso->symsrc_path;
	/* or by the kcore that gave its maps (kcore.h) */
	if (dso->kcore_path)
		return dso->kcore_path;
	return dso->long_name;
}

static inline int hist_u64_cmp(u64 a, u64 b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

/* sort.c: upstream's se_cmp (sort == false) or se_sort (sort == true) of one key */
int hist_key__cmp(const struct hist_opts *o, int key, const struct hist_key *l,
		  const struct hist_key *r, bool sort);
/*
 * sort.c: upstream's se_collapse of one key: srcline by its text (entries of one line at
 * other addresses merge), the others as hist_key__cmp()
 */
int hist_key__collapse(const struct hist_opts *o, int key, const struct hist_key *l,
		       const struct hist_key *r);
/*
 * sort.c: hist_entry__cmp (collapse false), the identity of an entry in entries_in, or
 * hist_entry__collapse (true); hists__key_cmp() is the first
 */
int hists__key_cmp_mode(const struct hists *hists, const struct hist_key *l,
			const struct hist_key *r, bool collapse);
int hists__key_cmp(const struct hists *hists, const struct hist_key *l, const struct hist_key *r);
/* sort.c: hist_entry__sort, the output order (< 0: a first) */
int hists__entry_sort(const struct hists *hists, const struct hist_entry *a,
		      const struct hist_entry *b);

/* hist-output.c: widen the columns to fit he, as upstream sizes them */
void hists__calc_col_len(struct hists *hists, const struct hist_entry *he);
/* hist-output.c: widen each key column to its header (idempotent) */
void hists__calc_header_len(struct hists *hists);

#endif
