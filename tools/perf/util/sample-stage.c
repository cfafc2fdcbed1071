// SPDX-License-Identifier: GPL-2.0
/*
 * The sample pipeline: stages in order, then the sink. Nothing here knows what a stage does.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "sample-stage.h"

int stage_record__parse_failed(const struct stage_record *r, const struct perf_err *why,
			       struct perf_err *err)
{
	return perf_err__set(err, EINVAL, "%s (%u) record at offset %#" PRIx64 ": %s",
			     perf_record_type__name(r->event->type), r->event->type, r->file_offset, why->msg);
}

void sample_pipeline__init(struct sample_pipeline *pipe, sample_sink_t sink, void *sink_arg)
{
	memset(pipe, 0, sizeof(*pipe));
	pipe->sink = sink;
	pipe->sink_arg = sink_arg;
}

void sample_pipeline__exit(struct sample_pipeline *pipe)
{
	for (unsigned int i = 0; i < pipe->nr_stages; i++)
		pipe->stages[i]->ops->delete(pipe->stages[i]);
	pipe->nr_stages = 0;
	pipe->nr_claiming = 0;
	pipe->consumes = 0;
}

int sample_pipeline__add(struct sample_pipeline *pipe, struct sample_stage *st)
{
	if (pipe->nr_stages == SAMPLE_STAGES_MAX) {
		st->ops->delete(st);
		return -ENOSPC;
	}
	st->pipe = pipe;
	st->idx = pipe->nr_stages;
	pipe->stages[pipe->nr_stages++] = st;
	/* the raw path ends at the first stage that wants parsed samples only */
	if (st->ops->claim && pipe->nr_claiming == st->idx)
		pipe->nr_claiming++;
	pipe->consumes |= st->ops->consumes;
	return 0;
}

int sample_pipeline__claim(struct sample_pipeline *pipe, const struct stage_record *r)
{
	for (unsigned int i = 0; i < pipe->nr_claiming; i++) {
		struct sample_stage *st = pipe->stages[i];
		int ret;

		/* a consumed record type stops at its consumer, as on the parsed path */
		if (r->event->type != PERF_RECORD_SAMPLE &&
		    !((st->ops->consumes >> r->event->type) & 1))
			continue;
		ret = st->ops->claim(st, r);
		if (ret <= 0 || r->event->type != PERF_RECORD_SAMPLE)
			return ret;
	}
	return 1;
}

int sample_pipeline__record(struct sample_pipeline *pipe, const struct perf_event_header *event,
			    struct perf_sample *sample, struct perf_evattr *evattr, bool stable)
{
	for (unsigned int i = 0; i < pipe->nr_stages; i++) {
		struct sample_stage *st = pipe->stages[i];

		if ((st->ops->consumes >> event->type) & 1)
			return st->ops->record(st, event, sample, evattr, stable);
	}
	return -EINVAL;
}

int sample_pipeline__thread_exit(struct sample_pipeline *pipe, u32 tid)
{
	for (unsigned int i = 0; i < pipe->nr_stages; i++) {
		struct sample_stage *st = pipe->stages[i];

		if (st->ops->thread_exit) {
			int ret = st->ops->thread_exit(st, tid);

			if (ret)
				return ret;
		}
	}
	return 0;
}

int sample_pipeline__flush(struct sample_pipeline *pipe)
{
	for (unsigned int i = 0; i < pipe->nr_stages; i++) {
		struct sample_stage *st = pipe->stages[i];

		if (st->ops->flush) {
			int ret = st->ops->flush(st);

			if (ret)
				return ret;
		}
	}
	return 0;
}

void sample_pipeline__fprintf_stats(const struct sample_pipeline *pipe, FILE *fp, unsigned int full)
{
	for (unsigned int i = 0; i < pipe->nr_stages; i++) {
		const struct sample_stage *st = pipe->stages[i];

		if (st->ops->fprintf_stats)
			st->ops->fprintf_stats(st, fp, (full >> st->ops->kind) & 1);
	}
}
