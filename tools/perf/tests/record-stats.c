// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's end-of-run counters (util/record-loop.c, util/defer-pending.c), fed with
 * records built in memory as a deferring kernel writes them: deferred samples answered by
 * their CALLCHAIN_DEFERRED record (one record for a kernel entry's samples, matched by tid
 * and cookie, not by cpu), samples whose record never comes, records that answer nobody,
 * and LOST / LOST_SAMPLES sums. A kernel that defers is not needed.
 */
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include "util/record-loop.h"
#include "util/record-lost.h"
#include "tests.h"

#define K	PERF_CONTEXT_KERNEL
#define D	PERF_CONTEXT_USER_DEFERRED

struct rs_ctx {
	struct perf_evattr	ea;
	struct record_stats	st;
	u64			buf[512];
};

static int rs__sample(struct rs_ctx *t, u32 tid, u64 time, u64 cookie, bool deferred)
{
	const u64 deferred_chain[] = { K, 0xffffffff81000010ULL, D, cookie };
	const u64 inline_chain[] = { K, 0xffffffff81000010ULL, PERF_CONTEXT_USER, 0x401000 };
	struct perf_sample s = {
		.ip = 0xffffffff81000010ULL, .pid = tid, .tid = tid, .time = time, .period = 1,
		.callchain_nr = 4, .callchain = deferred ? deferred_chain : inline_chain,
	};
	int ret = perf_sample__synthesize(&t->ea.attr, &s, false, t->buf, sizeof(t->buf), NULL);

	if (ret < 0)
		return ret;
	record_stats__account(&t->st, &t->ea, 1, (const void *)t->buf);
	return 0;
}

static int rs__record(struct rs_ctx *t, u32 tid, u64 time, u64 cookie)
{
	const u64 ips[] = { 0x401000, 0x401100 };
	struct perf_sample id = { .pid = tid, .tid = tid, .time = time };
	int ret = perf_record_callchain_deferred__synthesize(t->buf, sizeof(t->buf), &t->ea.attr,
							     &id, cookie, ips, 2);

	if (ret < 0)
		return ret;
	record_stats__account(&t->st, &t->ea, 1, (const void *)t->buf);
	return 0;
}

/*
 * Two events (-e cpu-clock,task-clock): each record and sample is told apart by its id, the
 * record's at the end of its sample_id trailer; the record comes through the event with
 * defer_output and answers the other event's samples of its kernel entry too
 */
/* the lost counts perf record turns into LOST_SAMPLES: a single read and a group's (:S) */
static int lost_reads(const struct test_env *env)
{
	const u64 rf = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	/* value, id, lost */
	const u64 one[] = { 100, 7, 3 };
	/* nr, time_enabled, then value, id, lost per member */
	const u64 group[] = { 2, 555, 100, 7, 0, 200, 8, 4 };
	u64 id, lost;

	TEST_ASSERT(env, !read_format__lost(rf, one, sizeof(one), &lost) && lost == 3,
		    "single read: lost %llu", (unsigned long long)lost);
	TEST_ASSERT(env, read_format__lost(rf, one, 2 * sizeof(u64), &lost) == -EINVAL,
		    "a short single read was taken");
	TEST_ASSERT(env, read_format__lost(rf | PERF_FORMAT_GROUP, group, sizeof(group), &lost) ==
			 -EINVAL, "a group read was taken as a single one");
	TEST_ASSERT(env, !read_format__group_lost(rf | PERF_FORMAT_GROUP |
						  PERF_FORMAT_TOTAL_TIME_ENABLED, group,
						  sizeof(group), 1, &id, &lost) &&
			 id == 8 && lost == 4, "group member 1: id %llu lost %llu",
		    (unsigned long long)id, (unsigned long long)lost);
	TEST_ASSERT(env, read_format__group_lost(rf | PERF_FORMAT_GROUP |
						 PERF_FORMAT_TOTAL_TIME_ENABLED, group,
						 sizeof(group), 2, &id, &lost) == -EINVAL,
		    "a member past the read's count was taken");
	TEST_ASSERT(env, read_format__group_lost(rf | PERF_FORMAT_GROUP |
						 PERF_FORMAT_TOTAL_TIME_ENABLED, group,
						 sizeof(group) - 8, 1, &id, &lost) == -EINVAL,
		    "a cut group read was taken");
	TEST_ASSERT(env, read_format__group_lost(PERF_FORMAT_GROUP | PERF_FORMAT_LOST, group,
						 sizeof(group), 0, &id, &lost) == -EINVAL,
		    "a group read without ids was taken");
	return TEST_OK;
}

static int two_events(const struct test_env *env)
{
	const u64 chain[] = { K, 0xffffffff81000010ULL, D, 0x500000001ULL };
	const u64 ips[] = { 0x401000 };
	struct perf_evattr ea[2] = { 0 };
	u64 ids[2] = { 101, 202 }, buf[256];
	struct record_stats st;

	for (int i = 0; i < 2; i++) {
		ea[i].attr.type = PERF_TYPE_SOFTWARE;
		ea[i].attr.size = sizeof(ea[i].attr);
		ea[i].attr.config = (u64)i;
		ea[i].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
					 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD;
		ea[i].attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(DEFER_CALLCHAIN) |
				   (i ? 0 : PERF_ATTR_FLAG(DEFER_OUTPUT));
		ea[i].ids = &ids[i];
		ea[i].nr_ids = 1;
		perf_evattr__init_positions(&ea[i]);
	}
	record_stats__init(&st);
	for (int i = 0; i < 2; i++) {
		struct perf_sample s = {
			.ip = 0xffffffff81000010ULL, .pid = 7, .tid = 7, .time = 10 + (u64)i,
			.cpu = 1, .period = 1, .id = ids[i], .callchain_nr = 4, .callchain = chain,
		};

		TEST_ASSERT(env, perf_sample__synthesize(&ea[i].attr, &s, false, buf, sizeof(buf),
							 NULL) >= 0, "sample");
		record_stats__account(&st, ea, 2, (const void *)buf);
	}
	{
		struct perf_sample id = { .pid = 7, .tid = 7, .time = 20, .cpu = 1, .id = ids[0] };

		TEST_ASSERT(env, perf_record_callchain_deferred__synthesize(buf, sizeof(buf),
				&ea[0].attr, &id, 0x500000001ULL, ips, 1) >= 0, "record");
		record_stats__account(&st, ea, 2, (const void *)buf);
	}
	TEST_ASSERT(env, st.deferred_samples == 2 && st.deferred_records == 1,
		    "two events: %llu deferred samples, %llu records",
		    (unsigned long long)st.deferred_samples, (unsigned long long)st.deferred_records);
	TEST_ASSERT(env, st.pending.waiting == 0 && st.pending.answered == 2,
		    "two events: %llu waiting, %llu answered",
		    (unsigned long long)st.pending.waiting, (unsigned long long)st.pending.answered);
	record_stats__exit(&st);
	return TEST_OK;
}

DEFINE_SUITE(record_stats)
{
	struct rs_ctx t = { 0 };
	struct perf_record_lost lost = {
		.header = { .type = PERF_RECORD_LOST, .size = sizeof(lost) }, .id = 1, .lost = 7,
	};
	struct perf_record_lost_samples ls = {
		.header = { .type = PERF_RECORD_LOST_SAMPLES, .size = sizeof(ls) }, .lost = 5,
	};

	t.ea.attr.type = PERF_TYPE_SOFTWARE;
	t.ea.attr.size = sizeof(t.ea.attr);
	t.ea.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD;
	t.ea.attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(DEFER_CALLCHAIN) |
			  PERF_ATTR_FLAG(DEFER_OUTPUT);
	perf_evattr__init_positions(&t.ea);
	record_stats__init(&t.st);

	/* tid 10: three samples of one kernel entry, one record answers them all */
	TEST_ASSERT(env, !rs__sample(&t, 10, 1, 0x100000003ULL, true), "sample");
	TEST_ASSERT(env, !rs__sample(&t, 10, 2, 0x100000003ULL, true), "sample");
	TEST_ASSERT(env, !rs__sample(&t, 10, 3, 0x100000003ULL, true), "sample");
	/* tid 11: same cookie value, another thread: not answered by tid 10's record */
	TEST_ASSERT(env, !rs__sample(&t, 11, 4, 0x100000003ULL, true), "sample");
	/* tid 12: still in the kernel when recording stops */
	TEST_ASSERT(env, !rs__sample(&t, 12, 5, 0x200000005ULL, true), "sample");
	TEST_ASSERT(env, !rs__sample(&t, 12, 6, 0x200000005ULL, true), "sample");
	/* an inline chain (an exiting task) waits for nothing */
	TEST_ASSERT(env, !rs__sample(&t, 13, 7, 0, false), "sample");
	TEST_ASSERT(env, t.st.samples == 7 && t.st.deferred_samples == 6,
		     "%llu samples, %llu deferred", (unsigned long long)t.st.samples,
		     (unsigned long long)t.st.deferred_samples);
	TEST_ASSERT(env, t.st.pending.waiting == 6, "%llu waiting",
		     (unsigned long long)t.st.pending.waiting);

	TEST_ASSERT(env, !rs__record(&t, 10, 8, 0x100000003ULL), "record");
	TEST_ASSERT(env, t.st.pending.waiting == 3 && t.st.pending.answered == 3,
		     "after tid 10's record: %llu waiting, %llu answered",
		     (unsigned long long)t.st.pending.waiting,
		     (unsigned long long)t.st.pending.answered);
	/* the same record again (defer_output on two events), and one nobody waits for */
	TEST_ASSERT(env, !rs__record(&t, 10, 9, 0x100000003ULL), "record");
	TEST_ASSERT(env, !rs__record(&t, 14, 10, 0x300000007ULL), "record");
	TEST_ASSERT(env, !rs__record(&t, 11, 11, 0x100000003ULL), "record");
	TEST_ASSERT(env, t.st.deferred_records == 4, "%llu records",
		     (unsigned long long)t.st.deferred_records);
	/* what perf record reports at the end: tid 12's two samples */
	TEST_ASSERT(env, t.st.pending.waiting == 2 && t.st.pending.answered == 4,
		     "at the end: %llu waiting, %llu answered",
		     (unsigned long long)t.st.pending.waiting,
		     (unsigned long long)t.st.pending.answered);

	record_stats__account(&t.st, &t.ea, 1, &lost.header);
	record_stats__account(&t.st, &t.ea, 1, &lost.header);
	record_stats__account(&t.st, &t.ea, 1, &ls.header);
	TEST_ASSERT(env, t.st.lost_records == 2 && t.st.lost == 14 && t.st.lost_samples == 5,
		     "lost: %llu records, %llu events, %llu samples",
		     (unsigned long long)t.st.lost_records, (unsigned long long)t.st.lost,
		     (unsigned long long)t.st.lost_samples);

	/*
	 * a record read before its samples (another CPU's buffer first, or written before a
	 * sample of its entry): the samples read after it are answered, not left waiting
	 */
	TEST_ASSERT(env, !rs__record(&t, 15, 12, 0x400000009ULL), "record");
	TEST_ASSERT(env, !rs__sample(&t, 15, 11, 0x400000009ULL, true), "sample");
	TEST_ASSERT(env, !rs__sample(&t, 15, 13, 0x400000009ULL, true), "sample");
	TEST_ASSERT(env, t.st.pending.waiting == 2 && t.st.pending.answered == 6,
		     "after a record read first: %llu waiting, %llu answered",
		     (unsigned long long)t.st.pending.waiting,
		     (unsigned long long)t.st.pending.answered);

	/* many keys: the table grows and keeps every count */
	for (u32 i = 0; i < 5000; i++)
		TEST_ASSERT(env, !rs__sample(&t, 100 + i % 50, 100 + i, 0x1000 + i, true), "sample");
	for (u32 i = 0; i < 5000; i += 2)
		TEST_ASSERT(env, !rs__record(&t, 100 + i % 50, 6000 + i, 0x1000 + i), "record");
	TEST_ASSERT(env, t.st.pending.waiting == 2 + 2500, "%llu waiting after 5000 keys",
		     (unsigned long long)t.st.pending.waiting);
	record_stats__exit(&t.st);
	if (two_events(env) != TEST_OK)
		return TEST_FAIL;
	return lost_reads(env);
}
