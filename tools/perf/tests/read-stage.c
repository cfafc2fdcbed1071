// SPDX-License-Identifier: GPL-2.0
/*
 * The read stage without a recording: a file written here with a sampling group (leader and
 * member, PERF_FORMAT_GROUP|ID) and an inherited single counter, and what the tool gets:
 * one sample per value that grew, of the member's attr, the growth as period, per thread for
 * the inherited one; an id no attr lists is dropped and counted. sample-read-upstream.sh
 * compares real recordings with upstream.
 */
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "util/session.h"
#include "tests.h"

#define TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_READ)

struct got {
	struct perf_tool	tool;
	struct { int idx; u64 id, period; u32 tid; } s[16];
	size_t			nr;
};

static int got__sample(const struct perf_tool *tool, struct perf_session *session,
		       const struct perf_event_header *event, struct perf_sample *sample,
		       struct perf_evattr *evattr)
{
	struct got *g = (struct got *)tool;

	(void)session;
	(void)event;
	if (g->nr == 16)
		return -ENOSPC;
	g->s[g->nr].idx = evattr->idx;
	g->s[g->nr].id = sample->id;
	g->s[g->nr].period = sample->period;
	g->s[g->nr++].tid = sample->tid;
	return 0;
}

/* a sample of id at time t by tid: nr values as { value, id } pairs (nr 0: one, no group) */
static int write_sample(struct perf_writer *w, u64 id, u64 t, u32 tid, const u64 *vals, u64 nr,
			struct perf_err *err)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER };
	u64 buf[32];
	size_t n = 1;

	buf[n++] = 0x1000;			/* ip */
	buf[n++] = (u64)tid << 32 | tid;	/* pid, tid */
	buf[n++] = t;
	buf[n++] = id;
	if (nr)
		buf[n++] = nr;
	for (u64 i = 0; i < (nr ? nr : 1); i++) {
		buf[n++] = vals[2 * i];
		buf[n++] = vals[2 * i + 1];
	}
	h.size = (u16)(n * 8);
	memcpy(buf, &h, sizeof(h));
	return perf_writer__write(w, (void *)buf, err);
}

DEFINE_SUITE(read_stage)
{
	struct perf_event_attr lead = {
		.type = PERF_TYPE_SOFTWARE, .config = 0, .sample_period = 4000, .sample_type = TYPE,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID, .size = sizeof(lead),
	}, memb = lead, single = lead;
	static const struct { int idx; u64 id, period; u32 tid; } want[] = {
		{ 0, 10, 100, 1 },		/* the member did not grow: only the leader */
		{ 0, 10, 150, 1 }, { 1, 11, 5, 1 },
		{ 1, 11, 4, 1 },		/* the leader did not grow */
		{ 2, 20, 10, 1 }, { 2, 20, 3, 2 }, { 2, 20, 5, 1 },	/* per thread */
	};
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts opts = { .symbol_conf = &conf };
	u64 id_lead = 10, id_memb = 11, id_single = 20;
	struct perf_session *session;
	struct perf_writer *w;
	struct perf_err err;
	struct got g = { .nr = 0 };
	char path[4096];
	int st;

	memb.config = 2;	/* page-faults */
	single.config = 2;
	single.read_format = PERF_FORMAT_ID;
	single.flags |= PERF_ATTR_FLAG(INHERIT);
	snprintf(path, sizeof(path), "%s/read.data", env->tmpdir);
	w = perf_writer__new(path, NULL, &err);
	TEST_ASSERT(env, w, "%s", err.msg);
	st = perf_writer__add_attr(w, &lead, &id_lead, 1, "cpu-clock", &err) < 0 ||
	     perf_writer__add_attr(w, &memb, &id_memb, 1, "page-faults", &err) < 0 ||
	     perf_writer__add_attr(w, &single, &id_single, 1, "page-faults:S", &err) < 0;
	st = st || write_sample(w, 10, 1, 1, (const u64[]){ 100, 10, 0, 11 }, 2, &err);
	st = st || write_sample(w, 10, 2, 1, (const u64[]){ 250, 10, 5, 11 }, 2, &err);
	st = st || write_sample(w, 10, 3, 1, (const u64[]){ 250, 10, 9, 11 }, 2, &err);
	st = st || write_sample(w, 10, 4, 1, (const u64[]){ 7, 99 }, 1, &err);
	st = st || write_sample(w, 20, 5, 1, (const u64[]){ 10, 20 }, 0, &err);
	st = st || write_sample(w, 20, 6, 2, (const u64[]){ 3, 20 }, 0, &err);
	st = st || write_sample(w, 20, 7, 1, (const u64[]){ 15, 20 }, 0, &err);
	st = st || perf_writer__finish(w, &err);
	perf_writer__delete(w);
	TEST_ASSERT(env, !st, "writing %s: %s", path, err.msg);

	opts.path = path;
	perf_tool__init(&g.tool);
	g.tool.sample = got__sample;
	session = perf_session__new(&opts, &g.tool, &err);
	TEST_ASSERT(env, session, "%s", err.msg);
	st = perf_session__process_events(session);
	if (st)
		err = session->err;
	else if (session->stats.nr_unknown_id != 1)
		st = perf_err__set(&err, EINVAL, "%llu unknown ids, not 1",
				   (unsigned long long)session->stats.nr_unknown_id);
	perf_session__delete(session);
	TEST_ASSERT(env, !st, "%s", err.msg);
	TEST_ASSERT(env, g.nr == ARRAY_SIZE(want), "%zu samples delivered", g.nr);
	for (size_t i = 0; i < g.nr; i++)
		TEST_ASSERT(env, g.s[i].idx == want[i].idx && g.s[i].id == want[i].id &&
			    g.s[i].period == want[i].period && g.s[i].tid == want[i].tid,
			    "sample %zu: attr %d id %llu period %llu tid %u", i, g.s[i].idx,
			    (unsigned long long)g.s[i].id, (unsigned long long)g.s[i].period, g.s[i].tid);
	return TEST_OK;
}
