/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture-defer.h - synthetic recordings with deferred user callchains, for the tests.
 *
 * The scenario (defer_scenario__*) is a deterministic set of threads whose kernel entries
 *    share cookies, lose records, migrate, exit, ..., kept as "truth" (what each sample's full
 *    stack is and what the stitcher must make of it), and rendered into perf.data files:
 *    the deferred form and the equivalent inline recording, per-task or per-CPU, in file,
 *    pipe, zstd and cross-endian variants (defer_fixtures__write). The records themselves are
 *    built by the library's synthesizers (perf/synthesize.h).
 *
 * Everything returned by defer_scenario__new() belongs to the scenario and is freed by
 * defer_scenario__delete().
 */
#ifndef PERF_TESTS_FIXTURE_DEFER_H
#define PERF_TESTS_FIXTURE_DEFER_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include <perf/writer.h>

/* ---- scenarios ---------------------------------------------------------------------------- */

/* what the stitcher must do with a sample */
enum fx_fate {
	FX_PLAIN,		/* not deferred: delivered as recorded */
	FX_STITCH,		/* its record comes later */
	FX_STITCH_EARLY,	/* its record came before it */
	FX_RELEASE_NEWER,	/* record lost; the thread's next record releases it */
	FX_RELEASE_EXIT,	/* record lost; the thread's exit releases it */
	FX_RELEASE_EOF,		/* record lost; the end of input releases it */
};

enum fx_kind {
	FX_COMM,
	FX_MMAP2,
	FX_SAMPLE,
	FX_DEFERRED,
	FX_EXIT,
};

#define FX_MAX_KERNEL	6
#define FX_MAX_USER	8

struct fx_event {
	enum fx_kind	kind;
	u64		time;
	u32		pid, tid;
	u32		cpu;		/* the CPU whose buffer it went to */
	int		ev;		/* attr index: the sample's event, the emitting event */
	/* FX_SAMPLE: the full truth; the renderers build the chains from it */
	bool		user_mode;	/* taken in user mode: no kernel part */
	bool		kthread;	/* kernel thread: no user part at all */
	bool		exiting;	/* in do_exit: the kernel unwinds user inline */
	bool		short_chain;	/* a one-entry chain, never deferred */
	u16		nk, nu;
	u64		k[FX_MAX_KERNEL];
	u64		u[FX_MAX_USER];
	u64		cookie;		/* also FX_DEFERRED */
	enum fx_fate	fate;
	/* FX_DEFERRED: its ips are u[0..nu) */
	bool		duplicate;	/* a second copy from another defer_output event */
	/* FX_COMM / FX_MMAP2 */
	const char	*name;
	u64		start, len;
};

enum fx_layout {
	FX_PER_TASK,		/* one buffer per thread, as `perf record -p` or per-thread mode */
	FX_PER_CPU,		/* one buffer per CPU: records land where the task returned */
};

struct defer_scenario {
	struct fx_event	*events;	/* in time order */
	size_t		nr_events;
	int		nr_cpus;
	bool		defer_attr;	/* the attrs carry defer_callchain (else: markers are noise) */
	bool		dup_output;	/* defer_output on both events: every record twice */
	/* expected stitcher outcome */
	u64		nr_stitched, nr_stitched_early;
	u64		nr_released[4];	/* by enum deferred_release_reason order */
	u64		nr_records, nr_duplicates, nr_unused;
};

enum defer_scenario_kind {
	DEFER_SCENARIO_MAIN,		/* every case, interleaved */
	DEFER_SCENARIO_DUP,		/* the same, defer_output on both events */
	DEFER_SCENARIO_NOATTR,		/* markers in chains, attrs without defer_callchain */
};

struct defer_scenario *defer_scenario__new(enum defer_scenario_kind kind);
void defer_scenario__delete(struct defer_scenario *sc);

/* the attrs of a rendering (2 events), ids per stream: 1000 * (ev + 1) + stream */
int defer_scenario__attrs(const struct defer_scenario *sc, enum fx_layout layout,
			  struct perf_event_attr attrs[2]);
u64 defer_scenario__id(const struct defer_scenario *sc, enum fx_layout layout,
		       const struct fx_event *e, int ev);

/*
 * The callchain a sample carries in a rendering: deferred (marker + cookie where the fate is
 * not FX_PLAIN) or inline (user ips after PERF_CONTEXT_USER for stitched fates, the deferred
 * form kept for released ones, which no inline recording could show otherwise). Returns nr.
 */
size_t defer_scenario__chain(const struct fx_event *e, bool deferred, u64 *chain, size_t max);
/* the chain the stitcher must deliver for it, and whether it is still deferred (unmerged) */
size_t defer_scenario__expected(const struct fx_event *e, u64 *chain, size_t max, bool *unmerged);

struct defer_render_opts {
	enum fx_layout		layout;
	bool			deferred;	/* else the inline equivalent */
	struct perf_writer_opts	writer;
};

int defer_scenario__write(const struct defer_scenario *sc, const char *path,
			  const struct defer_render_opts *opts, struct perf_err *err);

/* the writer variants of the deferred files, in defer_fixtures__write() order */
struct defer_fixture_variant {
	const char		*name;
	struct perf_writer_opts	opts;
};
const struct defer_fixture_variant *defer_fixture__variants(size_t *nr);

/*
 * Every fixture file into dir (which must exist):
 *   defer-<scenario>-<layout>-<variant>.data   variant: file pipe zstd zstd-pipe swap swap-zstd-pipe
 *   inline-<scenario>-<layout>.data            the inline equivalent (file mode)
 * scenario: main dup noattr; layout: task cpu. Returns 0 or a negative errno with err set.
 */
int defer_fixtures__write(const char *dir, struct perf_err *err);

#endif
