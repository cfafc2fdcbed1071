// SPDX-License-Identifier: GPL-2.0
/*
 * The deferred-callchain fixture files (fixture-defer.c) through the writer and back through
 * the reader, in every layout and variant: the records read back must be the records the
 * scenario describes, and stitching them in time order, as the session does, must give every
 * sample the chain the scenario says and the stats it predicts. Then, when the perf binary
 * has a working `perf script`, its merged output of each deferred file must equal its output
 * of the equivalent inline recording.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/writer.h>
#include "util/deferred.h"
#include "fixture-defer.h"
#include "tests.h"

#define MAX_CHAIN	(FX_MAX_KERNEL + FX_MAX_USER + 8)

static const char *const scenario_names[] = { "main", "dup", "noattr" };
static const char *const layout_names[] = { "task", "cpu" };

/* a record read back, copied (pipe and decompressed records do not stay put) */
struct rec {
	struct perf_event_header *h;
	struct perf_evattr	*ea;
	u64			time;
	size_t			seq;
};

struct check {
	const struct test_env		*env;
	const struct defer_scenario	*sc;
	const char			*path;
	enum fx_layout			layout;
	bool				deferred;
	struct perf_data		*data;
	struct rec			*recs;
	size_t				nr_recs;
	u64				scratch[8192];
	/* stitching */
	bool				*seen;		/* per scenario event */
	int				failed;
};

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void check__exit(struct check *c)
{
	for (size_t i = 0; i < c->nr_recs; i++)
		free(c->recs[i].h);
	free(c->recs);
	free(c->seen);
	perf_data__close(c->data);
}

static bool swapped(const struct check *c)
{
	return perf_data__needs_swap(c->data);
}

/* read every kernel record, in time order (stable: duplicates keep their file order) */
static int check__read(struct check *c)
{
	const struct test_env *env = c->env;
	struct perf_err err = { "" };
	struct perf_data_record r;
	size_t alloc = 0;
	int ret;

	c->data = perf_data__open(c->path, &err);
	TEST_ASSERT(env, c->data, "%s: %s", c->path, err.msg);
	while ((ret = perf_data__next(c->data, &r, &err)) > 0) {
		const struct perf_event_header *h = r.header;
		struct perf_sample s;
		struct rec *n;

		if (h->type == PERF_RECORD_FINISHED_ROUND || h->type >= PERF_RECORD_USER_TYPE_START)
			continue;
		if (c->nr_recs == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			n = realloc(c->recs, alloc * sizeof(*n));
			TEST_ASSERT(env, n, "out of memory");
			c->recs = n;
		}
		n = &c->recs[c->nr_recs];
		n->ea = perf_data__attr_of(c->data, h);
		TEST_ASSERT(env, n->ea, "%s: record of type %u at %#llx matches no attr", c->path, h->type,
			    (unsigned long long)r.file_offset);
		TEST_ASSERT(env, !perf_evattr__parse_sample(n->ea, h, swapped(c), c->scratch, &s, &err),
			    "%s: record at %#llx: %s", c->path, (unsigned long long)r.file_offset, err.msg);
		n->h = malloc(h->size);
		TEST_ASSERT(env, n->h, "out of memory");
		memcpy(n->h, h, h->size);
		n->time = s.time;
		n->seq = c->nr_recs++;
	}
	TEST_ASSERT(env, ret == 0, "%s: %s", c->path, err.msg);
	qsort(c->recs, c->nr_recs, sizeof(*c->recs), rec_cmp);
	return TEST_OK;
}

static int check__attrs(struct check *c, const struct perf_writer_opts *wo)
{
	const struct test_env *env = c->env;
	struct perf_event_attr want[2];
	const struct perf_env *penv = perf_data__env(c->data);
	u32 i;

	TEST_ASSERT(env, perf_data__is_pipe(c->data) == wo->pipe, "%s: pipe mode %d", c->path,
		    perf_data__is_pipe(c->data));
	TEST_ASSERT(env, perf_data__needs_swap(c->data) == wo->cross_endian, "%s: byte order", c->path);
	TEST_ASSERT(env, perf_data__nr_attrs(c->data) == 2, "%s: %zu attrs", c->path,
		    perf_data__nr_attrs(c->data));
	defer_scenario__attrs(c->sc, c->layout, want);
	for (int ev = 0; ev < 2; ev++) {
		const struct perf_evattr *ea = perf_data__attr(c->data, (size_t)ev);
		const char *name = ev ? "task-clock" : "cpu-clock";

		/* the flag word survives the bit mirroring of the cross-endian layout */
		TEST_ASSERT(env, ea->attr.flags == want[ev].flags, "%s: attr %d flags %#llx, want %#llx",
			    c->path, ev, (unsigned long long)ea->attr.flags,
			    (unsigned long long)want[ev].flags);
		TEST_ASSERT(env, ea->attr.sample_type == want[ev].sample_type &&
			    ea->attr.config == want[ev].config &&
			    ea->attr.sample_period == want[ev].sample_period &&
			    ea->attr.sample_max_stack == want[ev].sample_max_stack,
			    "%s: attr %d fields", c->path, ev);
		TEST_ASSERT(env, ea->name && !strcmp(ea->name, name), "%s: attr %d named '%s'", c->path, ev,
			    ea->name ? ea->name : "(none)");
		TEST_ASSERT(env, ea->nr_ids == (c->layout == FX_PER_CPU ? 4u : 6u) &&
			    ea->ids[1] == 1000ULL * (u64)(ev + 1) + 1, "%s: attr %d ids", c->path, ev);
	}
	TEST_ASSERT(env, penv->hostname && !strcmp(penv->hostname, "defer-fixture"), "%s: hostname", c->path);
	TEST_ASSERT(env, penv->nr_cpus_online == 4 && penv->nr_cpus_avail == 4, "%s: nrcpus", c->path);
	for (i = 0; i < penv->nr_cmdline && !strstr(penv->cmdline[i], "fp,defer"); i++)
		;
	TEST_ASSERT(env, i < penv->nr_cmdline, "%s: cmdline", c->path);
	if (wo->zstd_level && !wo->pipe)
		TEST_ASSERT(env, penv->comp_type == 1 && penv->comp_level == (u32)wo->zstd_level,
			    "%s: compressed feature", c->path);
	return TEST_OK;
}

/* the records read back are the scenario's, record for record */
static int check__records(struct check *c)
{
	const struct test_env *env = c->env;
	const struct defer_scenario *sc = c->sc;
	size_t r = 0;

	for (size_t i = 0; i < sc->nr_events; i++) {
		const struct fx_event *e = &sc->events[i];
		int copies = e->kind != FX_DEFERRED ? 1 : !c->deferred ? 0 : sc->dup_output ? 2 : 1;

		for (int copy = 0; copy < copies; copy++, r++) {
			const struct perf_event_header *h;
			struct perf_sample s;
			u64 chain[MAX_CHAIN];
			size_t nr;

			TEST_ASSERT(env, r < c->nr_recs, "%s: %zu records, the scenario has more", c->path,
				    c->nr_recs);
			h = c->recs[r].h;
			TEST_ASSERT(env, !perf_evattr__parse_sample(c->recs[r].ea, h, swapped(c), c->scratch,
								    &s, NULL), "parse");
			TEST_ASSERT(env, s.time == e->time && s.tid == e->tid && s.pid == e->pid,
				    "%s: record %zu (type %u) is %u/%u at %llu, want %u/%u at %llu", c->path, r,
				    h->type, s.pid, s.tid, (unsigned long long)s.time, e->pid, e->tid,
				    (unsigned long long)e->time);
			if (c->layout == FX_PER_CPU)
				TEST_ASSERT(env, s.cpu == e->cpu, "%s: record %zu on cpu %u, want %u", c->path,
					    r, s.cpu, e->cpu);
			switch (e->kind) {
			case FX_SAMPLE:
				TEST_ASSERT(env, h->type == PERF_RECORD_SAMPLE, "type %u", h->type);
				nr = defer_scenario__chain(e, c->deferred, chain, MAX_CHAIN);
				TEST_ASSERT(env, s.callchain_nr == nr &&
					    !memcmp(s.callchain, chain, nr * sizeof(u64)),
					    "%s: sample at %llu: chain differs", c->path,
					    (unsigned long long)e->time);
				TEST_ASSERT(env, s.period == 4000 && c->recs[r].ea->idx == e->ev &&
					    s.id == defer_scenario__id(sc, c->layout, e, e->ev),
					    "%s: sample at %llu: period/event/id", c->path,
					    (unsigned long long)e->time);
				TEST_ASSERT(env, s.deferred_callchain ==
					    (sc->defer_attr && c->deferred && e->cookie && !e->exiting) ||
					    (sc->defer_attr && !c->deferred && e->fate >= FX_RELEASE_NEWER),
					    "%s: sample at %llu: deferral detected wrongly", c->path,
					    (unsigned long long)e->time);
				break;
			case FX_DEFERRED: {
				const struct perf_record_callchain_deferred *d = (const void *)h;

				TEST_ASSERT(env, h->type == PERF_RECORD_CALLCHAIN_DEFERRED && d->cookie == e->cookie &&
					    d->nr == e->nu && !memcmp(d->ips, e->u, e->nu * sizeof(u64)),
					    "%s: deferred record at %llu differs", c->path,
					    (unsigned long long)e->time);
				TEST_ASSERT(env, h->misc == PERF_RECORD_MISC_USER &&
					    s.id == defer_scenario__id(sc, c->layout, e, copy),
					    "%s: deferred record at %llu: misc/id", c->path,
					    (unsigned long long)e->time);
				break;
			}
			case FX_COMM: {
				const struct perf_record_comm *cm = (const void *)h;

				TEST_ASSERT(env, h->type == PERF_RECORD_COMM && !strcmp(cm->comm, e->name),
					    "%s: comm at %llu", c->path, (unsigned long long)e->time);
				break;
			}
			case FX_MMAP2: {
				const struct perf_record_mmap2 *m = (const void *)h;

				TEST_ASSERT(env, h->type == PERF_RECORD_MMAP2 && m->start == e->start &&
					    m->len == e->len && m->ino == 4242 && m->prot == 5 &&
					    !strcmp(m->filename, e->name),
					    "%s: mmap2 at %llu", c->path, (unsigned long long)e->time);
				break;
			}
			case FX_EXIT: {
				const struct perf_record_fork *x = (const void *)h;

				TEST_ASSERT(env, h->type == PERF_RECORD_EXIT && x->tid == e->tid &&
					    x->time == e->time, "%s: exit at %llu", c->path,
					    (unsigned long long)e->time);
				break;
			}
			default:
				break;
			}
		}
	}
	TEST_ASSERT(env, r == c->nr_recs, "%s: %zu records, the scenario has %zu", c->path, c->nr_recs, r);
	return TEST_OK;
}

static const struct fx_event *find_sample(const struct defer_scenario *sc, u64 time, size_t *idx)
{
	size_t lo = 0, hi = sc->nr_events;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sc->events[mid].time < time)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sc->nr_events && sc->events[lo].time == time && sc->events[lo].kind == FX_SAMPLE) {
		*idx = lo;
		return &sc->events[lo];
	}
	return NULL;
}

static int check__deliver(void *arg, const struct deferred_sample *from, struct perf_sample *s)
{
	const struct perf_event_header *event = from->event;
	struct perf_evattr *ea = from->evattr;
	struct check *c = arg;
	const struct fx_event *e;
	u64 chain[MAX_CHAIN];
	bool unmerged;
	size_t idx, nr;

	(void)event;
	(void)ea;
	e = find_sample(c->sc, s->time, &idx);
	if (!e || c->seen[idx]) {
		if (c->env->verbose)
			fprintf(stderr, "%s: sample at %llu %s\n", c->path, (unsigned long long)s->time,
				e ? "delivered twice" : "is not in the scenario");
		c->failed = 1;
		return 0;
	}
	c->seen[idx] = true;
	nr = defer_scenario__expected(e, chain, MAX_CHAIN, &unmerged);
	/* an inline recording has its user stack already, after PERF_CONTEXT_USER */
	if (!c->deferred && (e->fate == FX_STITCH || e->fate == FX_STITCH_EARLY))
		nr = defer_scenario__chain(e, false, chain, MAX_CHAIN);
	if (s->callchain_nr != nr || memcmp(s->callchain, chain, nr * sizeof(u64)) ||
	    s->deferred_callchain != unmerged) {
		/* the first few say enough */
		if (c->env->verbose && c->failed++ < 5) {
			fprintf(stderr, "%s: sample of %u at %llu (fate %d) delivered as", c->path, e->tid,
				(unsigned long long)e->time, e->fate);
			for (u64 i = 0; i < s->callchain_nr; i++)
				fprintf(stderr, " %llx", (unsigned long long)s->callchain[i]);
			fprintf(stderr, "%s\n  want", s->deferred_callchain ? " (unmerged)" : "");
			for (size_t i = 0; i < nr; i++)
				fprintf(stderr, " %llx", (unsigned long long)chain[i]);
			fputc('\n', stderr);
		}
		c->failed = 1;
	}
	return 0;
}

/* the session's part: time order, samples and records and exits to the stitcher */
static int check__stitch(struct check *c)
{
	const struct test_env *env = c->env;
	const struct defer_scenario *sc = c->sc;
	struct deferred_stitcher *ds;
	const struct deferred_stats *st;
	struct perf_err err = { "" };

	c->seen = calloc(sc->nr_events, sizeof(bool));
	ds = deferred_stitcher__new(0, check__deliver, c);
	TEST_ASSERT(env, c->seen && ds, "out of memory");
	for (size_t i = 0; i < c->nr_recs; i++) {
		const struct perf_event_header *h = c->recs[i].h;
		struct perf_evattr *ea = c->recs[i].ea;
		struct perf_sample s;
		int ret = 0;

		TEST_ASSERT(env, !perf_evattr__parse_sample(ea, h, swapped(c), c->scratch, &s, &err),
			    "%s", err.msg);
		if (h->type == PERF_RECORD_SAMPLE) {
			ret = s.deferred_callchain ?
			      deferred_stitcher__sample(ds, h, &s, ea, swapped(c)) :
			      check__deliver(c, &(struct deferred_sample){ .event = h, .evattr = ea }, &s);
		} else if (h->type == PERF_RECORD_CALLCHAIN_DEFERRED) {
			ret = perf_record_callchain_deferred__check(h, ea->id_hdr_size, &err);
			if (!ret)
				ret = deferred_stitcher__record(ds, (const void *)h, s.tid, false);
		} else if (h->type == PERF_RECORD_EXIT) {
			ret = deferred_stitcher__thread_exit(ds, ((const struct perf_record_fork *)h)->tid);
		}
		if (ret) {
			deferred_stitcher__delete(ds);
			TEST_ASSERT(env, 0, "%s: record %zu: %d %s", c->path, i, ret, err.msg);
		}
	}
	if (deferred_stitcher__flush(ds))
		c->failed = 1;
	st = deferred_stitcher__stats(ds);
	if (env->verbose > 1)
		deferred_stats__fprintf(st, stderr);
	for (size_t i = 0; i < sc->nr_events; i++)
		if (sc->events[i].kind == FX_SAMPLE && !c->seen[i]) {
			if (env->verbose)
				fprintf(stderr, "%s: sample at %llu never delivered\n", c->path,
					(unsigned long long)sc->events[i].time);
			c->failed = 1;
		}
	if (c->deferred && !c->failed &&
	    (st->stitched != sc->nr_stitched || st->stitched_early != sc->nr_stitched_early ||
	     st->released[DEFERRED_RELEASE_NEWER_COOKIE] != sc->nr_released[0] ||
	     st->released[DEFERRED_RELEASE_EXIT] != sc->nr_released[1] ||
	     st->released[DEFERRED_RELEASE_EOF] != sc->nr_released[2] ||
	     st->released[DEFERRED_RELEASE_MEMORY] || st->records != sc->nr_records ||
	     st->records_duplicate != sc->nr_duplicates || st->records_unused != sc->nr_unused)) {
		if (env->verbose) {
			fprintf(stderr, "%s: stats differ; want stitched %llu early %llu released %llu/%llu/%llu records %llu dup %llu unused %llu\n",
				c->path, (unsigned long long)sc->nr_stitched,
				(unsigned long long)sc->nr_stitched_early,
				(unsigned long long)sc->nr_released[0], (unsigned long long)sc->nr_released[1],
				(unsigned long long)sc->nr_released[2], (unsigned long long)sc->nr_records,
				(unsigned long long)sc->nr_duplicates, (unsigned long long)sc->nr_unused);
			deferred_stats__fprintf(st, stderr);
		}
		c->failed = 1;
	}
	deferred_stitcher__delete(ds);
	TEST_ASSERT(env, !c->failed, "%s: stitching went wrong", c->path);
	return TEST_OK;
}

static int check_file(const struct test_env *env, const struct defer_scenario *sc, const char *path,
		      enum fx_layout layout, bool deferred, const struct perf_writer_opts *wo)
{
	struct check *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return TEST_FAIL;
	c->env = env;
	c->sc = sc;
	c->path = path;
	c->layout = layout;
	c->deferred = deferred;
	ret = check__read(c);
	if (ret == TEST_OK)
		ret = check__attrs(c, wo);
	if (ret == TEST_OK)
		ret = check__records(c);
	if (ret == TEST_OK)
		ret = check__stitch(c);
	check__exit(c);
	free(c);
	return ret;
}

/* the scenario itself must hold every case, or the checks above prove little */
static int check_scenario(const struct test_env *env, const struct defer_scenario *sc)
{
	if (!sc->defer_attr)
		return TEST_OK;
	TEST_ASSERT(env, sc->nr_stitched > 20 && sc->nr_stitched_early > 2 && sc->nr_released[0] > 0 &&
		    sc->nr_released[1] > 0 && sc->nr_released[2] > 0 && sc->nr_unused > 0,
		    "the scenario lacks a case: stitched %llu early %llu released %llu/%llu/%llu unused %llu",
		    (unsigned long long)sc->nr_stitched, (unsigned long long)sc->nr_stitched_early,
		    (unsigned long long)sc->nr_released[0], (unsigned long long)sc->nr_released[1],
		    (unsigned long long)sc->nr_released[2], (unsigned long long)sc->nr_unused);
	return TEST_OK;
}

DEFINE_SUITE(deferred_fixtures)
{
	struct perf_err err = { "" };
	const struct defer_fixture_variant *variants;
	size_t nr_variants;
	char path[4096];

	variants = defer_fixture__variants(&nr_variants);
	TEST_ASSERT(env, defer_fixtures__write(env->tmpdir, &err) == 0, "writing the fixtures: %s", err.msg);
	for (int k = 0; k < 3; k++) {
		struct defer_scenario *sc = defer_scenario__new((enum defer_scenario_kind)k);
		int ret = TEST_OK;

		TEST_ASSERT(env, sc, "out of memory");
		ret = check_scenario(env, sc);
		for (int l = 0; l < 2 && ret == TEST_OK; l++) {
			struct perf_writer_opts wo = { 0 };

			snprintf(path, sizeof(path), "%s/inline-%s-%s.data", env->tmpdir, scenario_names[k],
				 layout_names[l]);
			ret = check_file(env, sc, path, (enum fx_layout)l, false, &wo);
			for (size_t v = 0; v < nr_variants && ret == TEST_OK; v++) {
				snprintf(path, sizeof(path), "%s/defer-%s-%s-%s.data", env->tmpdir,
					 scenario_names[k], layout_names[l], variants[v].name);
				ret = check_file(env, sc, path, (enum fx_layout)l, true, &variants[v].opts);
			}
		}
		defer_scenario__delete(sc);
		if (ret != TEST_OK)
			return ret;
	}
	return TEST_OK;
}
