// SPDX-License-Identifier: GPL-2.0
/*
 * The sample pipeline's contract (sample-stage.h) with two recording stages, whatever the
 * stages do: raw claims pass the leading claiming stages only, a sample that passed them
 * enters after them, consumed records go to their consumer, exit and flush run in stage
 * order with what a stage emits passing the later ones, stats follow the mask, and the
 * pipeline owns its stages (deleted even when adding fails).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "util/sample-stage.h"
#include "tests.h"

struct log {
	char	buf[512];
	int	deleted;
};

struct rec_stage {
	struct sample_stage	stage;
	struct log		*log;
	char			name;
	bool			hold;		/* claim()/sample() keep the sample for flush() */
	bool			held;
	struct stage_sample	kept;
};

static void log_add(struct log *log, char name, const char *what)
{
	size_t n = strlen(log->buf);

	snprintf(log->buf + n, sizeof(log->buf) - n, "%s%c.%s", n ? " " : "", name, what);
}

static struct rec_stage *rec_of(const struct sample_stage *st)
{
	return (struct rec_stage *)container_of(st, struct rec_stage, stage);
}

static int rec__claim(struct sample_stage *st, const struct stage_record *r)
{
	struct rec_stage *rs = rec_of(st);

	log_add(rs->log, rs->name, r->event->type == PERF_RECORD_SAMPLE ? "claim" : "claim-record");
	if (r->event->type != PERF_RECORD_SAMPLE)
		return 0;
	if (!rs->hold)
		return 1;
	rs->held = true;
	return 0;
}

static int rec__sample(struct sample_stage *st, struct stage_sample *s)
{
	struct rec_stage *rs = rec_of(st);

	log_add(rs->log, rs->name, "sample");
	if (rs->hold) {
		rs->kept = *s;
		rs->held = true;
		return 0;
	}
	return sample_stage__emit(st, s);
}

static int rec__record(struct sample_stage *st, const struct perf_event_header *event,
		       struct perf_sample *sample, struct perf_evattr *evattr, bool stable)
{
	struct rec_stage *rs = rec_of(st);

	(void)event;
	(void)sample;
	(void)evattr;
	(void)stable;
	log_add(rs->log, rs->name, "record");
	return 0;
}

static int rec__thread_exit(struct sample_stage *st, u32 tid)
{
	struct rec_stage *rs = rec_of(st);

	(void)tid;
	log_add(rs->log, rs->name, "exit");
	return 0;
}

static int rec__flush(struct sample_stage *st)
{
	struct rec_stage *rs = rec_of(st);

	log_add(rs->log, rs->name, "flush");
	if (!rs->held)
		return 0;
	rs->held = false;
	return sample_stage__emit(st, &rs->kept);
}

static void rec__fprintf_stats(const struct sample_stage *st, FILE *fp, bool full)
{
	fprintf(fp, "%c%s", rec_of(st)->name, full ? "+" : "-");
}

static void rec__delete(struct sample_stage *st)
{
	rec_of(st)->log->deleted++;
}

static const struct sample_stage_ops claiming_ops = {
	.name = "claiming", .kind = SAMPLE_STAGE_DEFERRED,
	.consumes = 1ULL << PERF_RECORD_CALLCHAIN_DEFERRED,
	.claim = rec__claim, .sample = rec__sample, .record = rec__record,
	.thread_exit = rec__thread_exit, .flush = rec__flush,
	.fprintf_stats = rec__fprintf_stats, .delete = rec__delete,
};

static const struct sample_stage_ops parsed_ops = {
	.name = "parsed", .kind = SAMPLE_STAGE_DEFERRED,
	.sample = rec__sample, .thread_exit = rec__thread_exit, .flush = rec__flush,
	.fprintf_stats = rec__fprintf_stats, .delete = rec__delete,
};

static int sink(void *arg, struct stage_sample *s)
{
	(void)s;
	log_add(arg, '>', "tool");
	return 0;
}

#define EXPECT_LOG(env, log, want)							\
	do {										\
		TEST_ASSERT(env, !strcmp((log)->buf, want), "log \"%s\", want \"%s\"",	\
			    (log)->buf, want);						\
		(log)->buf[0] = '\0';							\
	} while (0)

DEFINE_SUITE(sample_stages)
{
	struct perf_event_header sample_h = { PERF_RECORD_SAMPLE, 0, 8 };
	struct perf_event_header deferred_h = { PERF_RECORD_CALLCHAIN_DEFERRED, 0, 8 };
	struct perf_event_header mmap_h = { PERF_RECORD_MMAP, 0, 8 };
	struct stage_record raw = { .event = &sample_h };
	struct perf_sample ps = { 0 };
	struct stage_sample s = { .event = &sample_h, .sample = &ps };
	struct rec_stage a = { .stage.ops = &claiming_ops, .name = 'A' };
	struct rec_stage b = { .stage.ops = &parsed_ops, .name = 'B' };
	struct rec_stage extra[SAMPLE_STAGES_MAX];
	struct sample_pipeline pipe;
	struct log log = { "", 0 };
	char stats[64];
	FILE *fp;

	a.log = b.log = &log;
	sample_pipeline__init(&pipe, sink, &log);
	TEST_ASSERT(env, sample_pipeline__add(&pipe, &a.stage) == 0, "add A");
	TEST_ASSERT(env, sample_pipeline__add(&pipe, &b.stage) == 0, "add B");
	TEST_ASSERT(env, sample_pipeline__claims(&pipe) && pipe.nr_claiming == 1, "claiming stages");

	/* a sample A lets pass raw enters after it, parsed */
	TEST_ASSERT(env, sample_pipeline__claim(&pipe, &raw) == 1, "A took what it let pass");
	TEST_ASSERT(env, sample_pipeline__sample(&pipe, &s, true) == 0, "sample");
	EXPECT_LOG(env, &log, "A.claim B.sample >.tool");
	/* without the raw path (an observer), every stage sees it parsed */
	TEST_ASSERT(env, sample_pipeline__sample(&pipe, &s, false) == 0, "sample");
	EXPECT_LOG(env, &log, "A.sample B.sample >.tool");

	/* consumed records go to their consumer, raw or parsed; others are not claimed */
	raw.event = &deferred_h;
	TEST_ASSERT(env, sample_pipeline__consumes(&pipe, PERF_RECORD_CALLCHAIN_DEFERRED) &&
		    !sample_pipeline__consumes(&pipe, PERF_RECORD_MMAP), "consumed types");
	TEST_ASSERT(env, sample_pipeline__claim(&pipe, &raw) == 0, "A did not claim its record");
	TEST_ASSERT(env, sample_pipeline__record(&pipe, &deferred_h, &ps, NULL, false) == 0, "record");
	raw.event = &mmap_h;
	TEST_ASSERT(env, sample_pipeline__claim(&pipe, &raw) == 1, "an MMAP was claimed");
	EXPECT_LOG(env, &log, "A.claim-record A.record");

	/* a held sample comes out at A's flush and passes B; exits and flushes in order */
	a.hold = true;
	raw.event = &sample_h;
	TEST_ASSERT(env, sample_pipeline__claim(&pipe, &raw) == 0, "A did not hold");
	a.kept = s;
	TEST_ASSERT(env, sample_pipeline__thread_exit(&pipe, 7) == 0, "exit");
	TEST_ASSERT(env, sample_pipeline__flush(&pipe) == 0, "flush");
	EXPECT_LOG(env, &log, "A.claim A.exit B.exit A.flush B.sample >.tool B.flush");

	/* stats: every stage, full only where asked */
	fp = fmemopen(stats, sizeof(stats), "w");
	TEST_ASSERT(env, fp, "fmemopen");
	sample_pipeline__fprintf_stats(&pipe, fp, 0);
	sample_pipeline__fprintf_stats(&pipe, fp, SAMPLE_STAGE_ALL);
	fclose(fp);
	TEST_ASSERT(env, !strcmp(stats, "A-B-A+B+"), "stats \"%s\"", stats);

	/* past the maximum: refused and deleted; exit deletes the rest */
	for (int i = 0; i < SAMPLE_STAGES_MAX; i++)
		extra[i] = (struct rec_stage){ .stage.ops = &parsed_ops, .log = &log, .name = 'X' };
	for (int i = 0; i < SAMPLE_STAGES_MAX - 2; i++)
		TEST_ASSERT(env, sample_pipeline__add(&pipe, &extra[i].stage) == 0, "add %d", i);
	TEST_ASSERT(env, sample_pipeline__add(&pipe, &extra[SAMPLE_STAGES_MAX - 2].stage) == -ENOSPC,
		    "a stage past the maximum");
	TEST_ASSERT(env, log.deleted == 1, "the refused stage was not deleted");
	sample_pipeline__exit(&pipe);
	TEST_ASSERT(env, log.deleted == SAMPLE_STAGES_MAX + 1, "%d stages deleted", log.deleted);

	/* a parsed-only stage first: nothing is claimed raw, even by a claiming stage after it */
	sample_pipeline__init(&pipe, sink, &log);
	b.hold = false;
	a.hold = false;
	TEST_ASSERT(env, sample_pipeline__add(&pipe, &b.stage) == 0, "add B");
	TEST_ASSERT(env, sample_pipeline__add(&pipe, &a.stage) == 0, "add A");
	TEST_ASSERT(env, !sample_pipeline__claims(&pipe), "a raw path past a parsed-only stage");
	sample_pipeline__exit(&pipe);
	return TEST_OK;
}
