// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred samples wait across the reuse of their tid: the samples the stitcher holds keep
 * the thread they were taken in (a reference), so when they come out, after the old thread
 * left the machine and a new one took its tid and a new comm, they still carry the old
 * thread's comm; the new thread's samples carry the new one. Under ASan (make test) a held
 * thread freed by the machine would be a use-after-free here.
 *
 * The file, in time order (one event, deferred callchains, sample_id_all):
 *   tid 100  COMM old100, a deferred sample (cookie 7), no EXIT (lost), FORK of a new 100 and
 *            COMM new100, a record of cookie 9 (releases the old sample: newer cookie), a
 *            sample of the new thread with cookie 9 (stitched from that record)
 *   tid 200  COMM old200, a deferred sample (cookie 5), EXIT (it waits on for a record the
 *            kernel may write after EXIT; none comes: released at the end), FORK of a new
 *            200 and COMM new200, a plain sample
 *   tid 300  COMM old300, a deferred sample (cookie 3), FORK of a new 300 and COMM new300,
 *            no record: released at the end of input
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/data.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "util/session.h"
#include "fixture-defer.h"
#include "tests.h"

#define KIP	0xffffffff81000100ULL
#define UIP	0x401000ULL

struct seen {
	u64		time;
	s32		tid;
	char		comm[32];
	bool		stitched;	/* the chain ends in user ips, not a cookie */
};

struct reuse_tool {
	struct perf_tool	tool;
	struct seen		seen[16];
	size_t			nr;
};

static int reuse__sample(const struct perf_tool *tool, struct perf_session *session,
			 const struct perf_event_header *event, struct perf_sample *sample,
			 struct perf_evattr *evattr)
{
	struct reuse_tool *rt = (struct reuse_tool *)container_of(tool, struct reuse_tool, tool);
	struct thread *thread = perf_session__sample_thread(session, sample);
	struct seen *s;

	(void)event;
	(void)evattr;
	if (!thread || rt->nr == ARRAY_SIZE(rt->seen))
		return -ENOMEM;
	s = &rt->seen[rt->nr++];
	s->time = sample->time;
	s->tid = thread->tid;
	snprintf(s->comm, sizeof(s->comm), "%s", thread__comm_str(thread, sample->time));
	s->stitched = !sample->deferred_callchain;
	return 0;
}

struct builder {
	struct perf_writer	*w;
	struct perf_event_attr	attr;
	u64			buf[256];
	struct perf_err		*err;
};

static struct perf_sample ids(u32 tid, u64 time)
{
	return (struct perf_sample){ .pid = tid, .tid = tid, .time = time, .id = 1 };
}

static int put(struct builder *b, int size)
{
	return size < 0 ? size : perf_writer__write(b->w, (void *)b->buf, b->err);
}

static int put_comm(struct builder *b, u32 tid, u64 time, const char *comm)
{
	struct perf_sample id = ids(tid, time);

	return put(b, perf_record_comm__synthesize(b->buf, sizeof(b->buf), &b->attr, &id, comm,
						   false));
}

static int put_task(struct builder *b, u32 type, u32 tid, u64 time)
{
	struct perf_sample id = ids(tid, time);

	/* forked by pid 1 */
	return put(b, perf_record_task__synthesize(b->buf, sizeof(b->buf), &b->attr, &id, type,
						   type == PERF_RECORD_FORK ? 1 : tid,
						   type == PERF_RECORD_FORK ? 1 : tid));
}

/* cookie 0: a plain sample with its user ip inline */
static int put_sample(struct builder *b, u32 tid, u64 time, u64 cookie)
{
	u64 chain[] = { PERF_CONTEXT_KERNEL, KIP, cookie ? PERF_CONTEXT_USER_DEFERRED : PERF_CONTEXT_USER,
			cookie ? cookie : UIP };
	struct perf_sample id = ids(tid, time);

	id.misc = PERF_RECORD_MISC_KERNEL;
	id.ip = KIP;
	id.period = 1;
	id.callchain = chain;
	id.callchain_nr = 4;
	return put(b, perf_sample__synthesize(&b->attr, &id, false, b->buf, sizeof(b->buf), NULL));
}

static int put_deferred(struct builder *b, u32 tid, u64 time, u64 cookie)
{
	u64 ips[] = { UIP, UIP + 0x40 };
	struct perf_sample id = ids(tid, time);

	return put(b, perf_record_callchain_deferred__synthesize(b->buf, sizeof(b->buf), &b->attr,
								 &id, cookie, ips, 2));
}

/* the file's records, in time order (the header comment tells the story) */
struct step {
	u32		type;
	u32		tid;
	u64		time;
	u64		cookie;		/* SAMPLE (0: not deferred), CALLCHAIN_DEFERRED */
	const char	*comm;		/* COMM */
};

static const struct step script[] = {
	{ PERF_RECORD_COMM, 100, 100, 0, "old100" },
	{ PERF_RECORD_COMM, 200, 110, 0, "old200" },
	{ PERF_RECORD_COMM, 300, 120, 0, "old300" },
	{ PERF_RECORD_SAMPLE, 100, 200, 7, NULL },
	{ PERF_RECORD_SAMPLE, 200, 210, 5, NULL },
	{ PERF_RECORD_SAMPLE, 300, 220, 3, NULL },
	{ PERF_RECORD_EXIT, 200, 300, 0, NULL },
	{ PERF_RECORD_FORK, 100, 400, 0, NULL },
	{ PERF_RECORD_FORK, 200, 410, 0, NULL },
	{ PERF_RECORD_FORK, 300, 420, 0, NULL },
	{ PERF_RECORD_COMM, 100, 450, 0, "new100" },
	{ PERF_RECORD_COMM, 200, 460, 0, "new200" },
	{ PERF_RECORD_COMM, 300, 470, 0, "new300" },
	{ PERF_RECORD_CALLCHAIN_DEFERRED, 100, 500, 9, NULL },
	{ PERF_RECORD_SAMPLE, 100, 550, 9, NULL },
	{ PERF_RECORD_SAMPLE, 200, 560, 0, NULL },
};

static int write_reuse_file(const char *path, struct perf_err *err)
{
	struct builder b = { .err = err };
	u64 id = 1;
	int ret;

	b.attr.type = PERF_TYPE_SOFTWARE;
	b.attr.config = 0;
	b.attr.sample_period = 4000;
	b.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			     PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	b.attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(COMM) | PERF_ATTR_FLAG(TASK) |
		       PERF_ATTR_FLAG(DEFER_CALLCHAIN) | PERF_ATTR_FLAG(DEFER_OUTPUT);
	b.attr.sample_max_stack = 127;
	b.w = perf_writer__new(path, NULL, err);
	if (!b.w)
		return -EIO;
	ret = perf_writer__add_attr(b.w, &b.attr, &id, 1, "cpu-clock", err);
	for (size_t i = 0; ret >= 0 && i < ARRAY_SIZE(script); i++) {
		const struct step *st = &script[i];

		switch (st->type) {
		case PERF_RECORD_COMM:
			ret = put_comm(&b, st->tid, st->time, st->comm);
			break;
		case PERF_RECORD_SAMPLE:
			ret = put_sample(&b, st->tid, st->time, st->cookie);
			break;
		case PERF_RECORD_CALLCHAIN_DEFERRED:
			ret = put_deferred(&b, st->tid, st->time, st->cookie);
			break;
		default:
			ret = put_task(&b, st->type, st->tid, st->time);
			break;
		}
	}
	if (ret >= 0)
		ret = perf_writer__finish(b.w, err);
	perf_writer__delete(b.w);
	return ret;
}

/* an observer of delivered records (as -D is): the stitcher then gets samples parsed */
static void observe_nothing(void *arg, const struct perf_event_header *event, u64 file_offset,
			    const struct perf_sample *sample, struct perf_evattr *evattr,
			    const char *why)
{
	(void)arg;
	(void)event;
	(void)file_offset;
	(void)sample;
	(void)evattr;
	(void)why;
}

static int run(const struct test_env *env, const char *path, bool observed, struct reuse_tool *rt)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts opts = { .path = path, .symbol_conf = &conf, .merge_deferred = true };
	static const struct session_observer quiet = { .event = observe_nothing };
	struct perf_session *session;
	struct perf_err err;
	int ret;

	perf_tool__init(&rt->tool);
	rt->tool.sample = reuse__sample;
	rt->nr = 0;
	session = perf_session__new(&opts, &rt->tool, &err);
	TEST_ASSERT(env, session, "%s: %s", path, err.msg);
	perf_session__set_observer(session, observed ? &quiet : NULL);
	ret = perf_session__process_events(session);
	if (ret && env->verbose)
		fprintf(stderr, "%s\n", session->err.msg);
	perf_session__delete(session);
	return ret ? TEST_FAIL : TEST_OK;
}

DEFINE_SUITE(deferred_tid_reuse)
{
	/* in delivery order: a held sample comes out when its release comes */
	static const struct seen want[] = {
		{ 200, 100, "old100", false },	/* released by the new 100's record */
		{ 550, 100, "new100", true },	/* stitched from it */
		{ 560, 200, "new200", true },	/* a plain sample */
		/* its record never came after its EXIT: released at the end, the oldest first */
		{ 210, 200, "old200", false },
		{ 220, 300, "old300", false },	/* released at the end */
	};
	struct reuse_tool rt;
	struct perf_err err;
	char path[4096];

	snprintf(path, sizeof(path), "%s/tid-reuse.data", env->tmpdir);
	TEST_ASSERT(env, write_reuse_file(path, &err) == 0, "writing %s: %s", path, err.msg);
	/* the peek path (samples claimed raw) and the parsed one (an observer is installed) */
	for (int observed = 0; observed < 2; observed++) {
		TEST_ASSERT(env, run(env, path, observed, &rt) == TEST_OK, "processing failed");
		TEST_ASSERT(env, rt.nr == ARRAY_SIZE(want), "%zu samples delivered", rt.nr);
		for (size_t i = 0; i < rt.nr; i++) {
			const struct seen *g = &rt.seen[i], *w = &want[i];

			TEST_ASSERT(env, g->time == w->time && g->tid == w->tid &&
				    !strcmp(g->comm, w->comm) && g->stitched == w->stitched,
				    "%s path, sample %zu: time %llu tid %d comm %s %s, want time %llu tid %d comm %s %s",
				    observed ? "parsed" : "peek", i, (unsigned long long)g->time, g->tid,
				    g->comm, g->stitched ? "stitched" : "unmerged",
				    (unsigned long long)w->time, w->tid, w->comm,
				    w->stitched ? "stitched" : "unmerged");
		}
	}
	return TEST_OK;
}
