// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic recordings with deferred user callchains: a deterministic scenario of threads
 * entering and leaving the kernel, and its renderings into perf.data files.
 *
 * The scenario is the truth: each sample knows its whole stack (kernel ips, user ips) and
 * what the stitcher must do with it (enum fx_fate), worked out while generating it, from
 * what the kernel would do, not from the stitcher's code. Every case of the issue appears:
 * samples sharing a cookie across both events, records on another CPU later in time
 * (migration), samples taken after their record, lost records released by the thread's
 * next record, by its exit and by the end of input, records whose samples were lost, empty
 * records, user-mode samples, kernel threads, exiting tasks with inline user stacks, one
 * chain of one entry, and a cookie value reused by another thread.
 *
 * Renderings put the records into per-thread or per-CPU streams cut into rounds closed by
 * FINISHED_ROUND, as perf record drains its buffers, so per-CPU files are not in time order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "fixture-defer.h"

#define FX_NR_CPUS	4
#define FX_T0		1000000000ULL	/* first timestamp: 1 s */
#define FX_ROUND_NS	500000ULL	/* a round of the renderings: 0.5 ms */
#define FX_ENTRIES	24		/* kernel entries or user samples per thread */

#define FX_APP_BASE	0x400000ULL
#define FX_LIB_BASE	0x7f3a00000000ULL
#define FX_KERNEL_BASE	0xffffffff81000000ULL

struct fx_gen {
	struct defer_scenario	*sc;
	size_t			alloc;
	u64			rng;
	u32			cpu_cnt[FX_NR_CPUS];	/* per-CPU entry counters */
	int			err;
};

/* a fixed-seed LCG: the fixtures must be the same on every run */
static u32 fx_rand(struct fx_gen *g, u32 n)
{
	g->rng = g->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(g->rng >> 33) % n;
}

static struct fx_event *fx_add(struct fx_gen *g, enum fx_kind kind, u64 time, u32 pid, u32 tid, u32 cpu)
{
	struct defer_scenario *sc = g->sc;
	struct fx_event *e;

	if (sc->nr_events == g->alloc) {
		size_t n = g->alloc ? g->alloc * 2 : 512;
		struct fx_event *ne = realloc(sc->events, n * sizeof(*ne));

		if (!ne) {
			g->err = -ENOMEM;
			return NULL;
		}
		sc->events = ne;
		g->alloc = n;
	}
	e = &sc->events[sc->nr_events++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->time = time;
	e->pid = pid;
	e->tid = tid;
	e->cpu = cpu;
	return e;
}

/* the kernel's cookie: (odd per-CPU counter << 32) | (cpu + 1) */
static u64 fx_cookie(struct fx_gen *g, u32 cpu)
{
	u32 cnt = g->cpu_cnt[cpu];

	g->cpu_cnt[cpu] += 2;
	return ((u64)cnt << 32) | (cpu + 1);
}

struct fx_thread {
	u32		pid, tid;
	const char	*comm;
	u32		cpu;
	u64		t;		/* its clock */
	int		nr_stacks;
	u64		stacks[3][FX_MAX_USER];
	u16		stack_len[3];
	/* samples whose record was lost, waiting for what releases them */
	size_t		lost[64];
	int		nr_lost;
	enum fx_fate	end;		/* how the thread ends: EXIT, EOF or normally (PLAIN) */
};

static void fx_thread_init(struct fx_gen *g, struct fx_thread *th, u32 pid, u32 tid,
			   const char *comm, u32 cpu, u64 t)
{
	memset(th, 0, sizeof(*th));
	th->pid = pid;
	th->tid = tid;
	th->comm = comm;
	th->cpu = cpu;
	th->t = t;
	th->nr_stacks = 3;
	for (int s = 0; s < 3; s++) {
		/* innermost in the library, callers in the program */
		u16 len = (u16)(2 + fx_rand(g, FX_MAX_USER - 1));

		th->stack_len[s] = len;
		for (u16 i = 0; i < len; i++)
			th->stacks[s][i] = i < 2 ? FX_LIB_BASE + 0x1000 + 0x40 * (tid % 16) + 0x300 * s + 0x10 * i
						 : FX_APP_BASE + 0x1100 + 0x100 * (len - i) + 0x8 * s;
	}
	th->end = FX_PLAIN;
}

static void fx_release_lost(struct fx_gen *g, struct fx_thread *th, enum fx_fate fate)
{
	for (int i = 0; i < th->nr_lost; i++)
		g->sc->events[th->lost[i]].fate = fate;
	th->nr_lost = 0;
}

static void fx_kernel_ips(struct fx_gen *g, struct fx_event *e)
{
	e->nk = (u16)(1 + fx_rand(g, FX_MAX_KERNEL));
	for (u16 i = 0; i < e->nk; i++)
		e->k[i] = FX_KERNEL_BASE + 0x10000 * (i + 1) + 0x40 * fx_rand(g, 8);
}

static void fx_user_ips(struct fx_event *e, const struct fx_thread *th, int stack)
{
	e->nu = th->stack_len[stack];
	memcpy(e->u, th->stacks[stack], e->nu * sizeof(u64));
}

/* a deferred record for th's kernel entry (ips = stack, or none) */
static struct fx_event *fx_record(struct fx_gen *g, struct fx_thread *th, u64 cookie, int stack,
				  bool empty)
{
	struct fx_event *e = fx_add(g, FX_DEFERRED, th->t, th->pid, th->tid, th->cpu);

	if (!e)
		return NULL;
	e->cookie = cookie;
	e->ev = 0;
	if (!empty)
		fx_user_ips(e, th, stack);
	/* a record releases the thread's samples whose own record was lost */
	fx_release_lost(g, th, FX_RELEASE_NEWER);
	return e;
}

static struct fx_event *fx_sample(struct fx_gen *g, struct fx_thread *th, bool user_mode,
				  u64 cookie, int stack)
{
	struct fx_event *e = fx_add(g, FX_SAMPLE, th->t, th->pid, th->tid, th->cpu);

	if (!e)
		return NULL;
	e->ev = (int)fx_rand(g, 2);
	e->user_mode = user_mode;
	e->cookie = cookie;
	if (!user_mode)
		fx_kernel_ips(g, e);
	fx_user_ips(e, th, stack);
	e->fate = FX_STITCH;
	return e;
}

/*
 * One kernel entry (a syscall): samples on the thread's CPU sharing a cookie, then the
 * return to user, maybe on another CPU, where the record is written; maybe a sample or two
 * after the record with the same cookie; maybe the record lost, or the samples.
 */
static void fx_kernel_entry(struct fx_gen *g, struct fx_thread *th, bool force_lost,
			    const u64 *force_cookie)
{
	int stack = (int)fx_rand(g, (u32)th->nr_stacks);
	u64 cookie = force_cookie ? *force_cookie : fx_cookie(g, th->cpu);
	bool lost = force_lost || fx_rand(g, 8) == 0;
	bool samples_lost = !lost && fx_rand(g, 16) == 0;
	bool empty = fx_rand(g, 12) == 0;
	int n = 1 + (int)fx_rand(g, 4);
	struct fx_event *e;

	for (int i = 0; i < n && !samples_lost; i++) {
		th->t += 10000 + fx_rand(g, 40000);
		e = fx_sample(g, th, false, cookie, stack);
		if (!e)
			return;
		if (empty)
			e->nu = 0;
		if (lost && th->nr_lost < (int)(ARRAY_SIZE(th->lost)))
			th->lost[th->nr_lost++] = (size_t)(e - g->sc->events);
		else if (lost)
			g->err = -E2BIG;
	}
	/* the unwind runs on the way out to user, wherever the task was scheduled */
	th->t += 20000 + fx_rand(g, 80000);
	if (fx_rand(g, 3) == 0)
		th->cpu = (th->cpu + 1 + fx_rand(g, FX_NR_CPUS - 1)) % FX_NR_CPUS;
	if (lost)
		return;
	if (!fx_record(g, th, cookie, stack, empty))
		return;
	/* samples in task_work or schedule() after the record: same cookie, no new record */
	if (fx_rand(g, 4) == 0) {
		int late = 1 + (int)fx_rand(g, 2);

		for (int i = 0; i < late; i++) {
			th->t += 1000 + fx_rand(g, 4000);
			e = fx_sample(g, th, false, cookie, stack);
			if (!e)
				return;
			if (empty)
				e->nu = 0;
			e->fate = FX_STITCH_EARLY;
		}
	}
}

/* a sample in user mode: its own cookie, the record on the way back from the interrupt */
static void fx_user_sample(struct fx_gen *g, struct fx_thread *th)
{
	int stack = (int)fx_rand(g, (u32)th->nr_stacks);
	u64 cookie = fx_cookie(g, th->cpu);
	struct fx_event *e;

	th->t += 30000 + fx_rand(g, 60000);
	e = fx_sample(g, th, true, cookie, stack);
	if (!e)
		return;
	th->t += 2000 + fx_rand(g, 8000);
	if (fx_rand(g, 10) == 0) {
		if (th->nr_lost == (int)(ARRAY_SIZE(th->lost)))
			g->err = -E2BIG;
		else
			th->lost[th->nr_lost++] = (size_t)(e - g->sc->events);
		return;
	}
	fx_record(g, th, cookie, stack, false);
}

static void fx_thread_start(struct fx_gen *g, struct fx_thread *th, bool main_thread)
{
	struct fx_event *e = fx_add(g, FX_COMM, th->t, th->pid, th->tid, th->cpu);

	if (!e)
		return;
	e->name = th->comm;
	if (!main_thread)
		return;
	e = fx_add(g, FX_MMAP2, th->t + 1, th->pid, th->pid, th->cpu);
	if (!e)
		return;
	e->name = "/defer-fixture/app";
	e->start = FX_APP_BASE;
	e->len = 0x100000;
	e = fx_add(g, FX_MMAP2, th->t + 2, th->pid, th->pid, th->cpu);
	if (!e)
		return;
	e->name = "/defer-fixture/libc.so.6";
	e->start = FX_LIB_BASE;
	e->len = 0x200000;
}

static void fx_thread_run(struct fx_gen *g, struct fx_thread *th, const u64 *first_cookie)
{
	for (int i = 0; i < FX_ENTRIES && !g->err; i++) {
		u32 r = fx_rand(g, 10);

		if (r < 6) {
			fx_kernel_entry(g, th, false, i == 0 ? first_cookie : NULL);
		} else if (r < 9) {
			fx_user_sample(g, th);
		} else {
			/* a quiet stretch in user space, no sample */
			th->t += 100000 + fx_rand(g, 200000);
		}
	}
	if (th->end == FX_RELEASE_EXIT) {
		struct fx_event *e;

		/* its last record is lost: it dies in the kernel before returning to user */
		fx_kernel_entry(g, th, true, NULL);
		th->t += 5000;
		/* in do_exit the kernel unwinds user inline, no deferral */
		e = fx_sample(g, th, false, 0, 0);
		if (e) {
			e->exiting = true;
			e->fate = FX_PLAIN;
		}
		th->t += 5000;
		fx_release_lost(g, th, FX_RELEASE_EXIT);
		e = fx_add(g, FX_EXIT, th->t, th->pid, th->tid, th->cpu);
		if (e)
			e->ev = 0;
	} else if (th->end == FX_RELEASE_EOF) {
		fx_kernel_entry(g, th, true, NULL);
		fx_release_lost(g, th, FX_RELEASE_EOF);
	} else {
		/* a thread whose last record went missing must still get its samples out */
		fx_release_lost(g, th, FX_RELEASE_EOF);
	}
}

static void fx_kthread(struct fx_gen *g, u32 tid)
{
	struct fx_thread th;
	struct fx_event *e;

	fx_thread_init(g, &th, tid, tid, "kworker/1:1", 1, FX_T0 + 7000);
	fx_thread_start(g, &th, false);
	for (int i = 0; i < FX_ENTRIES && !g->err; i++) {
		th.t += 50000 + fx_rand(g, 200000);
		e = fx_add(g, FX_SAMPLE, th.t, tid, tid, th.cpu);
		if (!e)
			return;
		e->ev = (int)fx_rand(g, 2);
		e->kthread = true;
		fx_kernel_ips(g, e);
		/* sometimes just one ip, nothing to mark it: never deferred */
		e->short_chain = fx_rand(g, 5) == 0;
		e->fate = FX_PLAIN;
	}
}

static int fx_event_cmp(const void *a, const void *b)
{
	const struct fx_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* a thread's own times strictly increase: (time, tid) names one event */
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

struct defer_scenario *defer_scenario__new(enum defer_scenario_kind kind)
{
	struct fx_gen g = { .rng = 0x5eedULL };
	struct fx_thread th[5];
	u64 shared_cookie;
	struct defer_scenario *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	g.sc = sc;
	sc->nr_cpus = FX_NR_CPUS;
	sc->defer_attr = kind != DEFER_SCENARIO_NOATTR;
	sc->dup_output = kind == DEFER_SCENARIO_DUP;
	for (int c = 0; c < FX_NR_CPUS; c++)
		g.cpu_cnt[c] = 3;

	fx_thread_init(&g, &th[0], 100, 100, "app", 0, FX_T0);
	fx_thread_init(&g, &th[1], 100, 101, "app-w1", 1, FX_T0 + 1000);
	fx_thread_init(&g, &th[2], 100, 102, "app-w2", 2, FX_T0 + 2000);
	fx_thread_init(&g, &th[3], 200, 200, "srv", 3, FX_T0 + 3000);
	fx_thread_init(&g, &th[4], 200, 201, "srv-io", 0, FX_T0 + 4000);
	th[1].end = FX_RELEASE_EXIT;
	th[2].end = FX_RELEASE_EOF;
	fx_thread_start(&g, &th[0], true);
	fx_thread_start(&g, &th[1], false);
	fx_thread_start(&g, &th[2], false);
	fx_thread_start(&g, &th[3], true);
	fx_thread_start(&g, &th[4], false);
	/* tid 201 starts with the cookie value tid 200 starts with, as after a counter wrap */
	shared_cookie = fx_cookie(&g, 3);
	for (int i = 0; i < 5; i++) {
		th[i].t += 10000;
		fx_thread_run(&g, &th[i], i >= 3 ? &shared_cookie : NULL);
	}
	fx_kthread(&g, 9);
	if (g.err)
		goto out_delete;

	/* time order, and strictly increasing times so that a time names one event */
	qsort(sc->events, sc->nr_events, sizeof(*sc->events), fx_event_cmp);
	for (size_t i = 1; i < sc->nr_events; i++)
		if (sc->events[i].time <= sc->events[i - 1].time)
			sc->events[i].time = sc->events[i - 1].time + 1;

	/* what the stitcher must count */
	for (size_t i = 0; i < sc->nr_events; i++) {
		struct fx_event *e = &sc->events[i];

		if (e->kind == FX_DEFERRED) {
			sc->nr_records += sc->dup_output ? 2 : 1;
			sc->nr_duplicates += sc->dup_output ? 1 : 0;
			continue;
		}
		if (e->kind != FX_SAMPLE)
			continue;
		if (!sc->defer_attr && e->cookie)
			e->fate = FX_PLAIN;
		switch (e->fate) {
		case FX_STITCH:
			sc->nr_stitched++;
			break;
		case FX_STITCH_EARLY:
			sc->nr_stitched_early++;
			break;
		case FX_RELEASE_NEWER:
			sc->nr_released[0]++;
			break;
		case FX_RELEASE_EXIT:
			sc->nr_released[1]++;
			break;
		case FX_RELEASE_EOF:
			sc->nr_released[2]++;
			break;
		case FX_PLAIN:
			break;
		default:
			break;
		}
	}
	/* a record is unused when no sample has its tid and cookie */
	for (size_t i = 0; i < sc->nr_events; i++) {
		const struct fx_event *r = &sc->events[i];
		bool used = false;

		if (r->kind != FX_DEFERRED)
			continue;
		for (size_t k = 0; k < sc->nr_events && !used; k++) {
			const struct fx_event *s = &sc->events[k];

			used = s->kind == FX_SAMPLE && s->tid == r->tid && s->cookie == r->cookie &&
			       (s->fate == FX_STITCH || s->fate == FX_STITCH_EARLY);
		}
		sc->nr_unused += !used;
	}
	return sc;

out_delete:
	defer_scenario__delete(sc);
	return NULL;
}

void defer_scenario__delete(struct defer_scenario *sc)
{
	if (!sc)
		return;
	free(sc->events);
	free(sc);
}

/* ---- renderings ---------------------------------------------------------------------------- */

/* the thread order of the per-task streams */
static const u32 fx_stream_tids[] = { 100, 101, 102, 200, 201, 9 };
#define FX_NR_TASK_STREAMS	(int)(ARRAY_SIZE(fx_stream_tids))

static int fx_stream(const struct defer_scenario *sc, enum fx_layout layout, const struct fx_event *e)
{
	(void)sc;
	if (layout == FX_PER_CPU)
		return (int)e->cpu;
	for (int i = 0; i < FX_NR_TASK_STREAMS; i++)
		if (fx_stream_tids[i] == e->tid)
			return i;
	return 0;
}

static int fx_nr_streams(const struct defer_scenario *sc, enum fx_layout layout)
{
	return layout == FX_PER_CPU ? sc->nr_cpus : FX_NR_TASK_STREAMS;
}

u64 defer_scenario__id(const struct defer_scenario *sc, enum fx_layout layout,
		       const struct fx_event *e, int ev)
{
	return 1000ULL * (u64)(ev + 1) + (u64)fx_stream(sc, layout, e);
}

int defer_scenario__attrs(const struct defer_scenario *sc, enum fx_layout layout,
			  struct perf_event_attr attrs[2])
{
	for (int ev = 0; ev < 2; ev++) {
		struct perf_event_attr *a = &attrs[ev];

		memset(a, 0, sizeof(*a));
		a->type = PERF_TYPE_SOFTWARE;
		a->config = ev;		/* cpu-clock, task-clock */
		a->sample_period = 4000;
		a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				 PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
		if (layout == FX_PER_CPU)
			a->sample_type |= PERF_SAMPLE_CPU;
		a->flags = PERF_ATTR_FLAG(DISABLED) | PERF_ATTR_FLAG(FREQ) |
			   PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(EXCLUDE_GUEST);
		if (ev == 0)
			a->flags |= PERF_ATTR_FLAG(MMAP) | PERF_ATTR_FLAG(COMM) | PERF_ATTR_FLAG(TASK) |
				    PERF_ATTR_FLAG(MMAP2) | PERF_ATTR_FLAG(COMM_EXEC);
		if (sc->defer_attr)
			a->flags |= PERF_ATTR_FLAG(DEFER_CALLCHAIN);
		/* perf puts defer_output on the tracking event only */
		if (sc->defer_attr && (ev == 0 || sc->dup_output))
			a->flags |= PERF_ATTR_FLAG(DEFER_OUTPUT);
		a->sample_max_stack = 127;
	}
	return 0;
}

static size_t fx_put(u64 *chain, size_t n, size_t max, u64 v)
{
	if (n < max)
		chain[n] = v;
	return n + 1;
}

size_t defer_scenario__chain(const struct fx_event *e, bool deferred, u64 *chain, size_t max)
{
	bool inline_user = !deferred && (e->fate == FX_STITCH || e->fate == FX_STITCH_EARLY);
	size_t n = 0;

	if (e->short_chain)
		return fx_put(chain, n, max, e->k[0]);
	if (!e->user_mode) {
		n = fx_put(chain, n, max, PERF_CONTEXT_KERNEL);
		for (u16 i = 0; i < e->nk; i++)
			n = fx_put(chain, n, max, e->k[i]);
	}
	if (e->kthread)
		return n;
	if (e->exiting || inline_user) {
		n = fx_put(chain, n, max, PERF_CONTEXT_USER);
		for (u16 i = 0; i < e->nu; i++)
			n = fx_put(chain, n, max, e->u[i]);
		return n;
	}
	n = fx_put(chain, n, max, PERF_CONTEXT_USER_DEFERRED);
	return fx_put(chain, n, max, e->cookie);
}

size_t defer_scenario__expected(const struct fx_event *e, u64 *chain, size_t max, bool *unmerged)
{
	size_t n;

	*unmerged = false;
	switch (e->fate) {
	case FX_STITCH:
	case FX_STITCH_EARLY:
		/* the deferred chain without its cookie, then the record's ips */
		n = defer_scenario__chain(e, true, chain, max) - 1;
		for (u16 i = 0; i < e->nu; i++)
			n = fx_put(chain, n, max, e->u[i]);
		return n;
	case FX_RELEASE_NEWER:
	case FX_RELEASE_EXIT:
	case FX_RELEASE_EOF:
		*unmerged = true;
		return defer_scenario__chain(e, true, chain, max);
	case FX_PLAIN:
	default:
		return defer_scenario__chain(e, true, chain, max);
	}
}

/* one scenario event as records (a duplicated deferred record gives two) */
static int fx_render_event(const struct defer_scenario *sc, const struct defer_render_opts *opts,
			   const struct perf_event_attr attrs[2], const struct fx_event *e,
			   struct perf_writer *w, u64 *buf, size_t len, struct perf_err *err)
{
	struct perf_sample ids = { .pid = e->pid, .tid = e->tid, .time = e->time, .cpu = e->cpu };
	u64 chain[FX_MAX_KERNEL + FX_MAX_USER + 4];
	int size = 0, ret;
	size_t nr;

	ids.id = defer_scenario__id(sc, opts->layout, e, e->ev);
	ids.stream_id = ids.id;
	switch (e->kind) {
	case FX_COMM:
		size = perf_record_comm__synthesize(buf, len, &attrs[0], &ids, e->name, false);
		break;
	case FX_MMAP2:
		size = perf_record_mmap2__synthesize(buf, len, &attrs[0], &ids, &(struct perf_record_mmap2){
			.header.misc = PERF_RECORD_MISC_USER, .pid = e->pid, .tid = e->tid,
			.start = e->start, .len = e->len, .maj = 8, .min = 1, .ino = 4242,
			.prot = 5, .flags = 2,	/* PROT_READ|PROT_EXEC, MAP_PRIVATE */
		}, e->name);
		break;
	case FX_EXIT:
		size = perf_record_task__synthesize(buf, len, &attrs[0], &ids, PERF_RECORD_EXIT, e->pid, e->tid);
		break;
	case FX_SAMPLE:
		nr = defer_scenario__chain(e, opts->deferred, chain, ARRAY_SIZE(chain));
		ids.misc = e->user_mode ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
		ids.ip = e->user_mode ? e->u[0] : e->k[0];
		ids.period = 4000;
		ids.callchain = chain;
		ids.callchain_nr = nr;
		size = perf_sample__synthesize(&attrs[e->ev], &ids, false, buf, len, NULL);
		break;
	case FX_DEFERRED:
		if (!opts->deferred)
			return 0;
		for (int copy = 0; copy < (sc->dup_output ? 2 : 1); copy++) {
			ids.id = ids.stream_id = defer_scenario__id(sc, opts->layout, e, copy);
			size = perf_record_callchain_deferred__synthesize(buf, len, &attrs[copy], &ids, e->cookie, e->u, e->nu);
			if (size < 0)
				break;
			ret = perf_writer__write(w, (void *)buf, err);
			if (ret)
				return ret;
		}
		return size < 0 ? perf_err__set(err, -size, "cannot build a deferred record") : 0;
	default:
		break;
	}
	if (size < 0)
		return perf_err__set(err, -size, "cannot build a record of kind %d", e->kind);
	return perf_writer__write(w, (void *)buf, err);
}

int defer_scenario__write(const struct defer_scenario *sc, const char *path,
			  const struct defer_render_opts *opts, struct perf_err *err)
{
	static const char *const names[2] = { "cpu-clock", "task-clock" };
	static const char *const argv[] = { "perf", "record", "-e", "cpu-clock,task-clock",
					    "--call-graph", "fp,defer", "--", "fixture" };
	int nr_streams = fx_nr_streams(sc, opts->layout);
	struct perf_event_attr attrs[2];
	struct perf_writer *w;
	u64 ids[2][FX_NR_TASK_STREAMS > FX_NR_CPUS ? FX_NR_TASK_STREAMS : FX_NR_CPUS];
	u64 buf[1024];
	int ret = 0;
	size_t round_start = 0;

	defer_scenario__attrs(sc, opts->layout, attrs);
	w = perf_writer__new(path, &opts->writer, err);
	if (!w)
		return -EIO;
	for (int ev = 0; ev < 2 && !ret; ev++) {
		for (int s = 0; s < nr_streams; s++)
			ids[ev][s] = 1000ULL * (u64)(ev + 1) + (u64)s;
		ret = perf_writer__add_attr(w, &attrs[ev], ids[ev], (size_t)nr_streams, names[ev], err);
		ret = ret < 0 ? ret : 0;
	}
	if (!ret)
		ret = perf_writer__set_string(w, HEADER_HOSTNAME, "defer-fixture", err);
	if (!ret)
		ret = perf_writer__set_string(w, HEADER_OSRELEASE, "7.2.13-fixture", err);
	if (!ret)
		ret = perf_writer__set_string(w, HEADER_VERSION, "7.2.13", err);
	if (!ret)
		ret = perf_writer__set_string(w, HEADER_ARCH, "x86_64", err);
	if (!ret)
		ret = perf_writer__set_nrcpus(w, (u32)sc->nr_cpus, (u32)sc->nr_cpus, err);
	if (!ret)
		ret = perf_writer__set_cmdline(w, (int)(ARRAY_SIZE(argv)), argv, err);

	/*
	 * Rounds of FX_ROUND_NS: within one, each stream's records in time order, the streams
	 * one after the other (last stream first, so the file is out of time order), then a
	 * FINISHED_ROUND, as perf record drains its buffers.
	 */
	while (!ret && round_start < sc->nr_events) {
		u64 round_end = (sc->events[round_start].time / FX_ROUND_NS + 1) * FX_ROUND_NS;
		size_t end = round_start;

		while (end < sc->nr_events && sc->events[end].time < round_end)
			end++;
		for (int s = nr_streams - 1; s >= 0 && !ret; s--)
			for (size_t i = round_start; i < end && !ret; i++)
				if (fx_stream(sc, opts->layout, &sc->events[i]) == s)
					ret = fx_render_event(sc, opts, attrs, &sc->events[i], w, buf,
							      sizeof(buf), err);
		if (!ret) {
			int size = perf_record_finished_round__synthesize(buf, sizeof(buf));

			ret = size < 0 ? size : perf_writer__write(w, (void *)buf, err);
		}
		round_start = end;
	}
	if (!ret)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
	return ret;
}

static const struct defer_fixture_variant fx_variants[] = {
	{ "file",		{ 0 } },
	{ "pipe",		{ .pipe = true } },
	{ "zstd",		{ .zstd_level = 3 } },
	{ "zstd-pipe",		{ .pipe = true, .zstd_level = 1 } },
	{ "swap",		{ .cross_endian = true } },
	{ "swap-zstd-pipe",	{ .cross_endian = true, .pipe = true, .zstd_level = 3 } },
};

const struct defer_fixture_variant *defer_fixture__variants(size_t *nr)
{
	*nr = ARRAY_SIZE(fx_variants);
	return fx_variants;
}

int defer_fixtures__write(const char *dir, struct perf_err *err)
{
	static const char *const scenarios[] = { "main", "dup", "noattr" };
	static const char *const layouts[] = { "task", "cpu" };
	char path[4096];
	int ret = 0;

	for (int k = 0; k < 3 && !ret; k++) {
		struct defer_scenario *sc = defer_scenario__new((enum defer_scenario_kind)k);

		if (!sc)
			return perf_err__set(err, ENOMEM, "out of memory generating the %s scenario", scenarios[k]);
		for (int l = 0; l < 2 && !ret; l++) {
			struct defer_render_opts ro = { .layout = (enum fx_layout)l };

			snprintf(path, sizeof(path), "%s/inline-%s-%s.data", dir, scenarios[k], layouts[l]);
			ret = defer_scenario__write(sc, path, &ro, err);
			ro.deferred = true;
			for (size_t v = 0; v < ARRAY_SIZE(fx_variants) && !ret; v++) {
				ro.writer = fx_variants[v].opts;
				snprintf(path, sizeof(path), "%s/defer-%s-%s-%s.data", dir, scenarios[k],
					 layouts[l], fx_variants[v].name);
				ret = defer_scenario__write(sc, path, &ro, err);
			}
		}
		defer_scenario__delete(sc);
	}
	return ret;
}
