// SPDX-License-Identifier: GPL-2.0
/*
 * The deferred stitcher (deferred.c) as a sample stage: the adapter between the session's
 * records and the stitcher, and the thread references of the samples it holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <perf/kernel.h>
#include "deferred.h"
#include "deferred-stage.h"
#include "sample-stage.h"

struct deferred_stage {
	struct sample_stage		stage;
	struct deferred_stitcher	*ds;
};

static struct deferred_stage *deferred_stage_of(const struct sample_stage *st)
{
	return (struct deferred_stage *)container_of(st, struct deferred_stage, stage);
}

/* a sample the stitcher is done with goes on, with the thread it was taken in */
static int deferred_stage__deliver(void *arg, const struct deferred_sample *from,
				   struct perf_sample *sample)
{
	struct deferred_stage *dst = arg;
	struct thread *thread = from->priv;
	struct stage_sample s = {
		.event = from->event, .sample = sample, .evattr = from->evattr, .thread = thread,
		.file_offset = from->file_offset, .stable = from->stable, .swapped = from->swapped,
	};
	int ret = sample_stage__emit(&dst->stage, &s);

	/* ownership: the reference taken when the sample was queued ends here */
	thread__put(thread);
	return ret;
}

static void deferred_stage__put(void *arg, void *priv)
{
	(void)arg;
	thread__put(priv);
}

static int deferred_stage__parse(void *arg, const struct perf_event_header *event,
				 u64 file_offset, struct perf_evattr *ea, bool swapped, u64 *scratch,
				 struct perf_sample *sample)
{
	struct deferred_stage *dst = arg;
	struct perf_err *err = dst->stage.env.err;
	const struct stage_record r = {
		.event = event, .evattr = ea, .file_offset = file_offset, .swapped = swapped,
	};
	struct perf_err why;
	int ret = stage_record__parse(&r, scratch, sample, &why);

	/* several held samples can fail in one go: the first one is the one to report */
	if (ret && !err->msg[0])
		*err = why;
	return ret;
}

/* the stitcher may keep the sample: it keeps a reference on its thread with it */
static int deferred_stage__queue(struct deferred_stage *dst, const struct perf_event_header *event,
				 u64 file_offset, struct perf_evattr *ea, bool stable, bool swapped,
				 u32 tid, u64 cookie, struct thread *thread)
{
	struct deferred_sample q = {
		.event = event, .evattr = ea, .file_offset = file_offset, .cookie = cookie,
		.tid = tid, .swapped = swapped, .stable = stable,
	};

	if (!thread)
		thread = machine__find_thread(dst->stage.env.machine, (s32)tid);
	/* unknown yet: the tool finds or makes it by pid/tid when the sample is delivered */
	q.priv = thread__get(thread);
	return deferred_stitcher__queue(dst->ds, &q);
}

static int deferred_stage__claim(struct sample_stage *st, const struct stage_record *r)
{
	struct deferred_stage *dst = deferred_stage_of(st);
	u64 cookie;
	u32 tid;

	if (r->event->type == PERF_RECORD_SAMPLE) {
		/* the peek: tid and cookie, no full parse */
		if (!r->evattr ||
		    !perf_evattr__peek_deferred(r->evattr, r->event, r->swapped, &tid, &cookie))
			return 1;
		return deferred_stage__queue(dst, r->event, r->file_offset, r->evattr, r->stable,
					     r->swapped, tid, cookie, NULL);
	}
	/* a CALLCHAIN_DEFERRED, checked by the session: it only needs its tid */
	if (!r->evattr || perf_evattr__parse_tid(r->evattr, r->event, r->swapped, &tid))
		tid = (u32)-1;
	return deferred_stitcher__record(dst->ds, (const void *)r->event, tid, r->stable);
}

static int deferred_stage__sample(struct sample_stage *st, struct stage_sample *s)
{
	struct deferred_stage *dst = deferred_stage_of(st);
	const struct perf_sample *ps = s->sample;

	/* the parser only says deferred for nr >= 2; anything else is not ours to merge */
	if (!ps->deferred_callchain || ps->callchain_nr < 2)
		return sample_stage__emit(st, s);
	return deferred_stage__queue(dst, s->event, s->file_offset, s->evattr, s->stable, s->swapped,
				     ps->tid, ps->deferred_cookie, s->thread);
}

static int deferred_stage__record(struct sample_stage *st, const struct perf_event_header *event,
				  struct perf_sample *sample, struct perf_evattr *evattr, bool stable)
{
	(void)evattr;
	return deferred_stitcher__record(deferred_stage_of(st)->ds, (const void *)event, sample->tid,
					 stable);
}

static int deferred_stage__thread_exit(struct sample_stage *st, u32 tid)
{
	return deferred_stitcher__thread_exit(deferred_stage_of(st)->ds, tid);
}

static int deferred_stage__flush(struct sample_stage *st)
{
	return deferred_stitcher__flush(deferred_stage_of(st)->ds);
}

static void deferred_stage__fprintf_stats(const struct sample_stage *st, FILE *fp, bool full)
{
	const struct deferred_stats *stats = deferred_stitcher__stats(deferred_stage_of(st)->ds);

	/* the cap warning is always said: samples lost their user part */
	deferred_stats__fprintf_warning(stats, fp);
	if (full)
		deferred_stats__fprintf(stats, fp);
}

static void deferred_stage__delete(struct sample_stage *st)
{
	struct deferred_stage *dst = deferred_stage_of(st);

	deferred_stitcher__delete(dst->ds);
	free(dst);
}

static const struct sample_stage_ops deferred_stage_ops = {
	.name		= "deferred",
	.kind		= SAMPLE_STAGE_DEFERRED,
	.consumes	= 1ULL << PERF_RECORD_CALLCHAIN_DEFERRED,
	.claim		= deferred_stage__claim,
	.sample		= deferred_stage__sample,
	.record		= deferred_stage__record,
	.thread_exit	= deferred_stage__thread_exit,
	.flush		= deferred_stage__flush,
	.fprintf_stats	= deferred_stage__fprintf_stats,
	.delete		= deferred_stage__delete,
};

struct sample_stage *deferred_stage__new(const struct sample_stage_env *env, size_t max_mem)
{
	struct deferred_stage *dst = calloc(1, sizeof(*dst));

	if (!dst)
		return NULL;
	sample_stage__init(&dst->stage, &deferred_stage_ops, env);
	dst->ds = deferred_stitcher__new(max_mem, deferred_stage__deliver, dst);
	if (!dst->ds) {
		free(dst);
		return NULL;
	}
	deferred_stitcher__set_parse(dst->ds, deferred_stage__parse);
	deferred_stitcher__set_put(dst->ds, deferred_stage__put);
	return &dst->stage;
}
