// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of deferred user-callchain stitching (util/deferred.c), driven directly with records
 * built in memory: every case of the matching rules with the exact chain each sample must
 * be delivered with, the memory cap, and the memory bound for samples whose records never
 * come. The fixture-file round trips are in deferred-fixtures.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "util/deferred.h"
#include "fixture-defer.h"
#include "tests.h"

#define K	PERF_CONTEXT_KERNEL
#define U	PERF_CONTEXT_USER
#define D	PERF_CONTEXT_USER_DEFERRED

#define CHAIN(...)	((const u64[]){ __VA_ARGS__ })
#define NR(...)		(sizeof((const u64[]){ __VA_ARGS__ }) / sizeof(u64))
#define C(...)		CHAIN(__VA_ARGS__), NR(__VA_ARGS__)

#define MAX_CHAIN	64

struct delivery {
	u32	tid;
	u64	time;
	int	ev;
	bool	unmerged;	/* sample->deferred_callchain at delivery */
	u64	nr;
	u64	chain[MAX_CHAIN];
};

struct tctx {
	const struct test_env	*env;
	struct perf_evattr	ea[2];
	struct deferred_stitcher *ds;
	bool			swapped;	/* samples in the other byte order */
	/* deliveries */
	struct delivery		*log;
	size_t			nr_log, alloc_log;
	bool			count_only;
	u64			delivered;
	u64			fail_at;	/* delivery number that returns -EIO, 0: never */
	bool			order_broken;
	u64			last_time;
	u64			buf[1024];
	u64			scratch[1024];
};

static int tctx__deliver(void *arg, const struct deferred_sample *from, struct perf_sample *s)
{
	const struct perf_event_header *event = from->event;
	struct perf_evattr *ea = from->evattr;
	struct tctx *t = arg;
	struct delivery *d;

	(void)event;
	t->delivered++;
	if (t->fail_at && t->delivered == t->fail_at)
		return -EIO;
	if (t->count_only) {
		/* the cap releases oldest first: times must come out increasing */
		if (s->time < t->last_time)
			t->order_broken = true;
		t->last_time = s->time;
		return 0;
	}
	if (t->nr_log == t->alloc_log) {
		size_t n = t->alloc_log ? t->alloc_log * 2 : 64;
		struct delivery *nl = realloc(t->log, n * sizeof(*nl));

		if (!nl)
			return -ENOMEM;
		t->log = nl;
		t->alloc_log = n;
	}
	d = &t->log[t->nr_log++];
	d->tid = s->tid;
	d->time = s->time;
	d->ev = ea ? ea->idx : -1;
	d->unmerged = s->deferred_callchain;
	d->nr = s->callchain_nr;
	if (d->nr > MAX_CHAIN)
		return -E2BIG;
	memcpy(d->chain, s->callchain, d->nr * sizeof(u64));
	return 0;
}

/* two events sharing one sample_id layout, as `perf record -e a,b --call-graph fp,defer` */
static int tctx__init(struct tctx *t, const struct test_env *env, size_t max_mem, bool defer_attr)
{
	memset(t, 0, sizeof(*t));
	t->env = env;
	for (int i = 0; i < 2; i++) {
		struct perf_evattr *ea = &t->ea[i];

		ea->attr.type = PERF_TYPE_SOFTWARE;
		ea->attr.size = PERF_WRITER_DEFAULT_ATTR_SIZE;
		ea->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
				       PERF_SAMPLE_CALLCHAIN;
		ea->attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL);
		if (defer_attr)
			ea->attr.flags |= PERF_ATTR_FLAG(DEFER_CALLCHAIN);
		if (defer_attr && i == 0)
			ea->attr.flags |= PERF_ATTR_FLAG(DEFER_OUTPUT);
		ea->idx = i;
		perf_evattr__init_positions(ea);
	}
	t->ds = deferred_stitcher__new(max_mem, tctx__deliver, t);
	return t->ds ? 0 : -ENOMEM;
}

static void tctx__exit(struct tctx *t)
{
	deferred_stitcher__delete(t->ds);
	free(t->log);
}

/* a sample as the session hands it over: parsed, then to the stitcher if deferred */
static int push_sample(struct tctx *t, int ev, u32 tid, u64 time, const u64 *chain, u64 nr)
{
	struct perf_sample ids = {
		.pid = tid, .tid = tid, .time = time, .id = 100 + ev, .stream_id = 100 + ev,
		.cpu = tid % 4, .misc = PERF_RECORD_MISC_KERNEL, .ip = nr ? chain[nr > 1] : 0,
		.period = 1000, .callchain = chain, .callchain_nr = nr,
	};
	struct perf_event_header *h = (void *)t->buf;
	struct perf_sample s;
	int ret;

	ret = perf_sample__synthesize(&t->ea[ev].attr, &ids, false, t->buf, sizeof(t->buf), NULL);
	if (ret < 0)
		return ret;
	/* the body in the other order, the header as the reader leaves it: in host order */
	if (t->swapped) {
		ret = perf_sample__swap(&t->ea[ev].attr, h, false, NULL);
		if (ret)
			return ret;
	}
	ret = perf_evattr__parse_sample(&t->ea[ev], h, t->swapped, t->scratch, &s, NULL);
	if (ret)
		return ret;
	if (!s.deferred_callchain)
		return tctx__deliver(t, &(struct deferred_sample){ .event = h, .evattr = &t->ea[ev] }, &s);
	ret = deferred_stitcher__sample(t->ds, h, &s, &t->ea[ev], t->swapped);
	/* the reader reuses its buffer: the stitcher must have taken a copy */
	memset(t->buf, 0xa5, sizeof(t->buf));
	memset(t->scratch, 0x5a, sizeof(t->scratch));
	return ret;
}

static int push_record(struct tctx *t, int ev, u32 tid, u64 time, u64 cookie, const u64 *ips, u64 nr)
{
	struct perf_sample ids = { .pid = tid, .tid = tid, .time = time, .id = 100 + ev, .cpu = 3 };
	struct perf_event_header *h = (void *)t->buf;
	struct perf_sample id;
	int ret;

	ret = perf_record_callchain_deferred__synthesize(t->buf, sizeof(t->buf), &t->ea[ev].attr, &ids, cookie, ips, nr);
	if (ret < 0)
		return ret;
	ret = perf_record_callchain_deferred__check(h, t->ea[ev].id_hdr_size, NULL);
	if (ret)
		return ret;
	ret = perf_evattr__parse_sample(&t->ea[ev], h, false, NULL, &id, NULL);
	if (ret)
		return ret;
	return deferred_stitcher__record(t->ds, (const void *)h, id.tid, false);
}

static bool chain_eq(const struct delivery *d, const u64 *chain, u64 nr)
{
	return d->nr == nr && !memcmp(d->chain, chain, nr * sizeof(u64));
}

static void dump_delivery(const struct tctx *t, const struct delivery *d)
{
	if (!t->env->verbose)
		return;
	fprintf(stderr, "  delivered tid %u time %llu %s nr %llu:", d->tid, (unsigned long long)d->time,
		d->unmerged ? "unmerged" : "merged", (unsigned long long)d->nr);
	for (u64 i = 0; i < d->nr; i++)
		fprintf(stderr, " %llx", (unsigned long long)d->chain[i]);
	fputc('\n', stderr);
}

/* delivery number idx is the sample of (tid, time) with exactly this chain */
#define EXPECT(t, idx, tid_, time_, unmerged_, ...)					\
	do {										\
		const struct delivery *d_;						\
		TEST_ASSERT((t)->env, (t)->nr_log > (idx), "only %zu deliveries, want #%d",	\
			    (t)->nr_log, (idx));					\
		d_ = &(t)->log[idx];							\
		if (d_->tid != (tid_) || d_->time != (time_) || d_->unmerged != (unmerged_) || \
		    !chain_eq(d_, CHAIN(__VA_ARGS__), NR(__VA_ARGS__)))			\
			dump_delivery(t, d_);						\
		TEST_ASSERT((t)->env, d_->tid == (tid_) && d_->time == (time_),		\
			    "delivery #%d is tid %u time %llu, want %u %llu", (idx), d_->tid,	\
			    (unsigned long long)d_->time, (u32)(tid_), (unsigned long long)(time_)); \
		TEST_ASSERT((t)->env, d_->unmerged == (unmerged_), "delivery #%d: unmerged %d", \
			    (idx), d_->unmerged);					\
		TEST_ASSERT((t)->env, chain_eq(d_, CHAIN(__VA_ARGS__), NR(__VA_ARGS__)),	\
			    "delivery #%d: wrong chain", (idx));			\
	} while (0)

#define OK(env, expr)									\
	do {										\
		int ret_ = (expr);							\
		TEST_ASSERT(env, ret_ == 0, "%s returned %d", #expr, ret_);		\
	} while (0)

static const u64 user1[] = { 0x401000, 0x402000, 0x403000 };
static const u64 user2[] = { 0x7f0000001000, 0x7f0000002000 };

/* one sample, its record later: chain = kernel part, marker, user ips */
static int case_basic(const struct test_env *env, bool swapped)
{
	struct tctx t;
	int ret = TEST_FAIL;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	t.swapped = swapped;
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xffff1, 0xffff2, D, 0xb00000006)));
	TEST_ASSERT(env, t.nr_log == 0, "a sample waiting for its record was delivered");
	OK(env, push_record(&t, 0, 10, 150, 0xb00000006, user1, 3));
	EXPECT(&t, 0, 10, 100, false, K, 0xffff1, 0xffff2, D, 0x401000, 0x402000, 0x403000);
	TEST_ASSERT(env, deferred_stitcher__stats(t.ds)->stitched == 1, "stitched count");
	TEST_ASSERT(env, deferred_stitcher__nr_pending(t.ds) == 0, "left pending");
	ret = TEST_OK;
	tctx__exit(&t);
	return ret;
}

/* several samples of two events share one cookie (one kernel entry): all get the stack */
static int case_shared_cookie(const struct test_env *env)
{
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, D, 0x300000002)));
	OK(env, push_sample(&t, 1, 10, 101, C(K, 0xa2, 0xa3, D, 0x300000002)));
	OK(env, push_sample(&t, 0, 10, 102, C(K, 0xa4, D, 0x300000002)));
	OK(env, push_record(&t, 0, 10, 110, 0x300000002, user2, 2));
	TEST_ASSERT(env, t.nr_log == 3, "%zu deliveries", t.nr_log);
	EXPECT(&t, 0, 10, 100, false, K, 0xa1, D, 0x7f0000001000, 0x7f0000002000);
	EXPECT(&t, 1, 10, 101, false, K, 0xa2, 0xa3, D, 0x7f0000001000, 0x7f0000002000);
	EXPECT(&t, 2, 10, 102, false, K, 0xa4, D, 0x7f0000001000, 0x7f0000002000);
	TEST_ASSERT(env, t.log[1].ev == 1, "the second event's sample lost its attr");
	tctx__exit(&t);
	return TEST_OK;
}

/* a sample taken after its record was written: stitched from the thread's latest record */
static int case_record_first(const struct test_env *env)
{
	const struct deferred_stats *st;
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, D, 0x500000001)));
	OK(env, push_record(&t, 0, 10, 110, 0x500000001, user1, 3));
	/* another thread's record in between must not make it forget */
	OK(env, push_record(&t, 0, 11, 111, 0x700000001, user2, 2));
	OK(env, push_sample(&t, 1, 10, 112, C(K, 0xa9, D, 0x500000001)));
	TEST_ASSERT(env, t.nr_log == 2, "the late sample was not delivered at once");
	EXPECT(&t, 1, 10, 112, false, K, 0xa9, D, 0x401000, 0x402000, 0x403000);
	st = deferred_stitcher__stats(t.ds);
	TEST_ASSERT(env, st->stitched == 1 && st->stitched_early == 1, "stitched %llu early %llu",
		    (unsigned long long)st->stitched, (unsigned long long)st->stitched_early);
	OK(env, deferred_stitcher__flush(t.ds));
	/* tid 11's record stitched nothing */
	TEST_ASSERT(env, st->records_unused == 1, "unused records %llu", (unsigned long long)st->records_unused);
	tctx__exit(&t);
	return TEST_OK;
}

/*
 * The record of an earlier kernel entry was lost: the next record of the tid (another cookie)
 * releases the older samples without user part, in arrival order, and stitches its own.
 */
static int case_newer_cookie(const struct test_env *env)
{
	const struct deferred_stats *st;
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, D, 0x100000001)));
	OK(env, push_sample(&t, 0, 20, 101, C(K, 0xb1, D, 0x100000002)));
	OK(env, push_sample(&t, 0, 10, 102, C(K, 0xa2, D, 0x100000001)));
	OK(env, push_sample(&t, 1, 10, 200, C(K, 0xa3, D, 0x300000001)));
	OK(env, push_record(&t, 0, 10, 210, 0x300000001, user1, 3));
	TEST_ASSERT(env, t.nr_log == 3, "%zu deliveries, tid 20 must still wait", t.nr_log);
	EXPECT(&t, 0, 10, 100, true, K, 0xa1, D, 0x100000001);
	EXPECT(&t, 1, 10, 102, true, K, 0xa2, D, 0x100000001);
	EXPECT(&t, 2, 10, 200, false, K, 0xa3, D, 0x401000, 0x402000, 0x403000);
	st = deferred_stitcher__stats(t.ds);
	TEST_ASSERT(env, st->released[DEFERRED_RELEASE_NEWER_COOKIE] == 2, "released %llu",
		    (unsigned long long)st->released[DEFERRED_RELEASE_NEWER_COOKIE]);
	TEST_ASSERT(env, deferred_stitcher__nr_pending(t.ds) == 1, "tid 20 is pending");
	tctx__exit(&t);
	return TEST_OK;
}

/* defer_output on two events: the second copy of a record changes nothing */
static int case_duplicate(const struct test_env *env)
{
	const struct deferred_stats *st;
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, D, 0x900000003)));
	OK(env, push_record(&t, 0, 10, 110, 0x900000003, user2, 2));
	OK(env, push_record(&t, 1, 10, 110, 0x900000003, user2, 2));
	OK(env, push_sample(&t, 1, 10, 111, C(K, 0xa2, D, 0x900000003)));
	/* a duplicate after the last sample: it must not pass for a record that stitched nothing */
	OK(env, push_sample(&t, 0, 11, 112, C(D, 0xb00000003)));
	OK(env, push_record(&t, 0, 11, 113, 0xb00000003, user1, 1));
	OK(env, push_record(&t, 1, 11, 113, 0xb00000003, user1, 1));
	TEST_ASSERT(env, t.nr_log == 3, "%zu deliveries", t.nr_log);
	EXPECT(&t, 0, 10, 100, false, K, 0xa1, D, 0x7f0000001000, 0x7f0000002000);
	EXPECT(&t, 1, 10, 111, false, K, 0xa2, D, 0x7f0000001000, 0x7f0000002000);
	st = deferred_stitcher__stats(t.ds);
	EXPECT(&t, 2, 11, 112, false, D, 0x401000);
	TEST_ASSERT(env, st->records == 4 && st->records_duplicate == 2, "records %llu dup %llu",
		    (unsigned long long)st->records, (unsigned long long)st->records_duplicate);
	/* the duplicate must not have replaced the record that stitched both samples */
	OK(env, deferred_stitcher__flush(t.ds));
	TEST_ASSERT(env, st->records_unused == 0, "unused %llu", (unsigned long long)st->records_unused);
	tctx__exit(&t);
	return TEST_OK;
}

/* interleaved threads, records in any order, one cookie value on two tids (a counter wrap) */
static int case_interleaved(const struct test_env *env)
{
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, D, 0x100000001)));
	OK(env, push_sample(&t, 0, 11, 101, C(K, 0xb1, D, 0x100000001)));
	OK(env, push_sample(&t, 0, 12, 102, C(D, 0x200000001)));
	OK(env, push_record(&t, 0, 11, 103, 0x100000001, user2, 2));
	EXPECT(&t, 0, 11, 101, false, K, 0xb1, D, 0x7f0000001000, 0x7f0000002000);
	TEST_ASSERT(env, t.nr_log == 1, "tid 11's record must not touch tid 10 or 12");
	OK(env, push_record(&t, 0, 12, 104, 0x200000001, user1, 3));
	EXPECT(&t, 1, 12, 102, false, D, 0x401000, 0x402000, 0x403000);
	OK(env, push_record(&t, 0, 10, 105, 0x100000001, user1, 1));
	EXPECT(&t, 2, 10, 100, false, K, 0xa1, D, 0x401000);
	tctx__exit(&t);
	return TEST_OK;
}

/*
 * Exit forgets the latest record, but pending samples wait for the record the kernel writes
 * while the thread exits (it may come after EXIT): stitched when it comes, else released at
 * the end of input as lost to the exit.
 */
static int case_exit_eof(const struct test_env *env)
{
	const struct deferred_stats *st;
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, D, 0x100000001)));
	OK(env, push_record(&t, 0, 11, 101, 0x300000001, user1, 3));
	OK(env, push_sample(&t, 0, 12, 102, C(K, 0xc1, D, 0x500000001)));
	OK(env, push_sample(&t, 0, 10, 103, C(K, 0xa2, D, 0x100000001)));
	OK(env, deferred_stitcher__thread_exit(t.ds, 10));
	TEST_ASSERT(env, t.nr_log == 0, "%zu deliveries at the exit", t.nr_log);
	OK(env, deferred_stitcher__thread_exit(t.ds, 11));
	/* tid 11's record went with its exit: a reused tid must not inherit it */
	OK(env, push_sample(&t, 0, 11, 104, C(K, 0xb1, D, 0x300000001)));
	OK(env, push_sample(&t, 0, 13, 105, C(D, 0x700000001)));
	/* tid 20's record comes after its EXIT: it still stitches */
	OK(env, push_sample(&t, 0, 20, 106, C(K, 0xd1, D, 0x900000001)));
	OK(env, deferred_stitcher__thread_exit(t.ds, 20));
	OK(env, push_record(&t, 0, 20, 107, 0x900000001, user1, 2));
	TEST_ASSERT(env, t.nr_log == 1, "%zu deliveries after the late record", t.nr_log);
	EXPECT(&t, 0, 20, 106, false, K, 0xd1, D, 0x401000, 0x402000);
	OK(env, deferred_stitcher__flush(t.ds));
	TEST_ASSERT(env, t.nr_log == 6, "%zu deliveries after the flush", t.nr_log);
	EXPECT(&t, 1, 10, 100, true, K, 0xa1, D, 0x100000001);
	EXPECT(&t, 2, 12, 102, true, K, 0xc1, D, 0x500000001);
	EXPECT(&t, 3, 10, 103, true, K, 0xa2, D, 0x100000001);
	EXPECT(&t, 4, 11, 104, true, K, 0xb1, D, 0x300000001);
	EXPECT(&t, 5, 13, 105, true, D, 0x700000001);
	st = deferred_stitcher__stats(t.ds);
	TEST_ASSERT(env, st->released[DEFERRED_RELEASE_EXIT] == 2 && st->released[DEFERRED_RELEASE_EOF] == 3,
		    "released exit %llu eof %llu", (unsigned long long)st->released[DEFERRED_RELEASE_EXIT],
		    (unsigned long long)st->released[DEFERRED_RELEASE_EOF]);
	TEST_ASSERT(env, st->stitched == 1, "stitched %llu", (unsigned long long)st->stitched);
	TEST_ASSERT(env, st->records_unused == 1, "unused %llu", (unsigned long long)st->records_unused);
	TEST_ASSERT(env, deferred_stitcher__nr_pending(t.ds) == 0, "left pending");
	tctx__exit(&t);
	return TEST_OK;
}

/* empty records, user-mode samples, short chains, markers where the attr has no deferral */
static int case_edges(const struct test_env *env)
{
	struct tctx t, n;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	/* nr = 0 (the kernel could not unwind): the chain ends at the marker */
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, 0xa2, D, 0x100000001)));
	OK(env, push_record(&t, 0, 10, 101, 0x100000001, NULL, 0));
	EXPECT(&t, 0, 10, 100, false, K, 0xa1, 0xa2, D);
	/* a user-mode sample is only marker + cookie */
	OK(env, push_sample(&t, 0, 10, 102, C(D, 0x300000001)));
	OK(env, push_record(&t, 0, 10, 103, 0x300000001, user1, 3));
	EXPECT(&t, 1, 10, 102, false, D, 0x401000, 0x402000, 0x403000);
	/* nr < 2: never deferred, passes straight through */
	OK(env, push_sample(&t, 0, 10, 104, C(D)));
	EXPECT(&t, 2, 10, 104, false, D);
	OK(env, push_sample(&t, 0, 10, 105, C(0x401000)));
	EXPECT(&t, 3, 10, 105, false, 0x401000);
	/* the marker not second to last is no deferral either */
	OK(env, push_sample(&t, 0, 10, 106, C(K, 0xa1, D, 0x300000001, 0x5)));
	EXPECT(&t, 4, 10, 106, false, K, 0xa1, D, 0x300000001, 0x5);
	TEST_ASSERT(env, deferred_stitcher__nr_pending(t.ds) == 0, "nothing may wait");
	tctx__exit(&t);

	/* without defer_callchain in the attr, marker + cookie are plain chain entries */
	if (tctx__init(&n, env, 0, false))
		return TEST_FAIL;
	OK(env, push_record(&n, 0, 10, 99, 0x100000001, user1, 3));
	OK(env, push_sample(&n, 0, 10, 100, C(K, 0xa1, D, 0x100000001)));
	EXPECT(&n, 0, 10, 100, false, K, 0xa1, D, 0x100000001);
	TEST_ASSERT(env, deferred_stitcher__stats(n.ds)->stitched_early == 0, "stitched without the attr bit");
	tctx__exit(&n);
	return TEST_OK;
}

/* a record whose nr does not fit is an error, at the check and in the stitcher */
static int case_bad_record(const struct test_env *env)
{
	struct perf_err err = { "" };
	struct tctx t;
	struct perf_sample id;
	struct perf_event_header *h;
	struct perf_record_callchain_deferred *rec;
	int size;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	h = (void *)t.buf;
	rec = (void *)t.buf;
	size = perf_record_callchain_deferred__synthesize(t.buf, sizeof(t.buf), &t.ea[0].attr,
			    &(struct perf_sample){ .pid = 10, .tid = 10, .time = 5, .id = 100 }, 0x100000001,
			    user1, 3);
	TEST_ASSERT(env, size > 0, "building the record");
	OK(env, perf_record_callchain_deferred__check(h, t.ea[0].id_hdr_size, &err));
	/* one ip more than the record holds once the trailer is taken off */
	rec->nr = 4;
	TEST_ASSERT(env, perf_record_callchain_deferred__check(h, t.ea[0].id_hdr_size, &err) == -EINVAL,
		    "nr 4 in a record with room for 3 passed");
	TEST_ASSERT(env, strstr(err.msg, "claims 4 user ips, room for 3"),
		    "message '%s' does not give nr and the room", err.msg);
	rec->nr = 1ULL << 61;
	TEST_ASSERT(env, perf_record_callchain_deferred__check(h, t.ea[0].id_hdr_size, &err) == -EINVAL,
		    "a huge nr passed");
	TEST_ASSERT(env, perf_evattr__parse_sample(&t.ea[0], h, false, NULL, &id, NULL) == 0, "trailer");
	TEST_ASSERT(env, deferred_stitcher__record(t.ds, rec, id.tid, false) == -EINVAL,
		    "the stitcher read past the record");
	/* too short for even the cookie and nr */
	h->size = 16;
	TEST_ASSERT(env, perf_record_callchain_deferred__check(h, 0, &err) == -EINVAL, "16 bytes passed");
	tctx__exit(&t);
	return TEST_OK;
}

/* deliver() failing: the error comes back, nothing leaks, the rest still flushes */
static int case_deliver_error(const struct test_env *env)
{
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	for (u64 i = 0; i < 4; i++)
		OK(env, push_sample(&t, 0, 10, 100 + i, C(K, 0xa1, D, 0x100000001)));
	OK(env, push_sample(&t, 0, 11, 110, C(K, 0xa1, D, 0x100000003)));
	t.fail_at = 2;
	TEST_ASSERT(env, push_record(&t, 0, 10, 120, 0x100000001, user1, 3) == -EIO,
		    "the delivery error was lost");
	TEST_ASSERT(env, t.nr_log == 3, "the other samples of the record were not delivered");
	TEST_ASSERT(env, deferred_stitcher__nr_pending(t.ds) == 1, "pending %llu",
		    (unsigned long long)deferred_stitcher__nr_pending(t.ds));
	OK(env, deferred_stitcher__flush(t.ds));
	EXPECT(&t, 3, 11, 110, true, K, 0xa1, D, 0x100000003);
	tctx__exit(&t);
	return TEST_OK;
}

DEFINE_SUITE(deferred_stitch)
{
	int (*const cases[])(const struct test_env *) = {
		case_shared_cookie, case_record_first, case_newer_cookie, case_duplicate,
		case_interleaved, case_exit_eof, case_edges, case_bad_record, case_deliver_error,
	};

	if (case_basic(env, false) != TEST_OK)
		return TEST_FAIL;
	/* the same from a cross-endian file: the copy is re-parsed swapped */
	if (case_basic(env, true) != TEST_OK)
		return TEST_FAIL;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (cases[i](env) != TEST_OK)
			return TEST_FAIL;
	return TEST_OK;
}

/* ---- memory ------------------------------------------------------------------------------- */

/* a tiny cap: oldest released first with the MEMORY reason, the holding never above the cap */
static int case_tiny_cap(const struct test_env *env)
{
	/* 64 KB: sixteen 4 KB chunks, some hundred samples */
	const size_t cap = 64 * 1024;
	const struct deferred_stats *st;
	struct tctx t;
	u64 n = 5000;

	if (tctx__init(&t, env, cap, true))
		return TEST_FAIL;
	t.count_only = true;
	for (u64 i = 0; i < n; i++) {
		/* 50 threads, every sample its own kernel entry whose record never comes */
		OK(env, push_sample(&t, (int)(i & 1), (u32)(10 + i % 50), 1000 + i,
				    C(K, 0xa1, 0xa2, 0xa3, D, (i << 32) | 1)));
		TEST_ASSERT(env, deferred_stitcher__bytes_held(t.ds) <= cap,
			    "%zu bytes held after sample %llu, cap %zu",
			    deferred_stitcher__bytes_held(t.ds), (unsigned long long)i, cap);
	}
	st = deferred_stitcher__stats(t.ds);
	TEST_ASSERT(env, st->mem_cap_hit && st->released[DEFERRED_RELEASE_MEMORY] > 0,
		    "the cap never released anything");
	TEST_ASSERT(env, st->bytes_peak <= cap, "peak %llu over the cap", (unsigned long long)st->bytes_peak);
	TEST_ASSERT(env, !t.order_broken, "the cap did not release the oldest first");
	OK(env, deferred_stitcher__flush(t.ds));
	TEST_ASSERT(env, t.delivered == n, "%llu of %llu samples delivered",
		    (unsigned long long)t.delivered, (unsigned long long)n);
	TEST_ASSERT(env, st->released[DEFERRED_RELEASE_MEMORY] + st->released[DEFERRED_RELEASE_EOF] == n,
		    "release reasons do not add up");
	TEST_ASSERT(env, !t.order_broken, "the flush did not release the oldest first");
	tctx__exit(&t);
	return TEST_OK;
}

/* the warning: one line when the cap released samples, nothing otherwise */
static int count_warning_lines(const struct deferred_stats *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int lines = 0;

	if (!fp)
		return -1;
	deferred_stats__fprintf_warning(st, fp);
	fclose(fp);
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (lines == 1 && !strstr(buf, "cap"))
		lines = -1;
	free(buf);
	return lines;
}

/* a cap below one arena chunk: nothing can wait, a record seen first still stitches */
static int case_cap_below_chunk(const struct test_env *env)
{
	const struct deferred_stats *st;
	struct tctx t;

	if (tctx__init(&t, env, 1024, true))
		return TEST_FAIL;
	TEST_ASSERT(env, count_warning_lines(deferred_stitcher__stats(t.ds)) == 0, "a warning without cause");
	OK(env, push_sample(&t, 0, 10, 100, C(K, 0xa1, D, 0x100000001)));
	EXPECT(&t, 0, 10, 100, true, K, 0xa1, D, 0x100000001);
	OK(env, push_record(&t, 0, 10, 101, 0x100000001, user1, 1));
	OK(env, push_sample(&t, 0, 10, 102, C(K, 0xa2, D, 0x100000001)));
	EXPECT(&t, 1, 10, 102, false, K, 0xa2, D, 0x401000);
	st = deferred_stitcher__stats(t.ds);
	TEST_ASSERT(env, st->released[DEFERRED_RELEASE_MEMORY] == 1 && st->mem_cap_hit, "memory releases %llu",
		    (unsigned long long)st->released[DEFERRED_RELEASE_MEMORY]);
	TEST_ASSERT(env, deferred_stitcher__bytes_held(t.ds) == 0, "%zu bytes held under a 1 KB cap",
		    deferred_stitcher__bytes_held(t.ds));
	TEST_ASSERT(env, count_warning_lines(st) == 1, "not one warning line about the cap");
	tctx__exit(&t);
	return TEST_OK;
}

static long max_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/*
 * The bound: 10 million samples whose records never come stay under 256 MB of RSS.
 * Scaled to 2 million so it runs in seconds: that is already about three times what the
 * default 64 MB cap holds (a sample here takes 104 bytes of copy + 48 of index), so the cap
 * is what keeps it bounded, and more samples only repeat the same steady state.
 */
static int case_never_matched(const struct test_env *env)
{
	const size_t cap = 64ULL << 20;	/* the default */
	const u64 n = 2000000;
	const struct deferred_stats *st;
	long rss_before = max_rss_kb(), rss_after;
	struct tctx t;

	if (tctx__init(&t, env, 0, true))
		return TEST_FAIL;
	t.count_only = true;
	for (u64 i = 0; i < n; i++) {
		OK(env, push_sample(&t, 0, (u32)(1000 + i % 1000), i,
				    C(K, 0xffffffff81000000ULL + i, 0xa2, 0xa3, 0xa4, D, (i << 32) | 3)));
		if (i % 4096 == 0)
			TEST_ASSERT(env, deferred_stitcher__bytes_held(t.ds) <= cap,
				    "%zu bytes held after %llu samples", deferred_stitcher__bytes_held(t.ds),
				    (unsigned long long)i);
	}
	st = deferred_stitcher__stats(t.ds);
	TEST_ASSERT(env, st->bytes_peak <= cap, "peak %llu over the default cap", (unsigned long long)st->bytes_peak);
	TEST_ASSERT(env, st->max_mem == cap, "default cap %zu", st->max_mem);
	rss_after = max_rss_kb();
#ifndef UNDER_ASAN
	/* the sanitizer's shadow memory and quarantine are not ours to bound */
	TEST_ASSERT(env, rss_after - rss_before < 256 * 1024, "RSS grew by %ld KB", rss_after - rss_before);
#endif
	if (env->verbose)
		fprintf(stderr, "  %llu samples: peak %llu bytes held, %llu pending at most, RSS +%ld KB\n",
			(unsigned long long)n, (unsigned long long)st->bytes_peak,
			(unsigned long long)st->pending_peak, rss_after - rss_before);
	OK(env, deferred_stitcher__flush(t.ds));
	TEST_ASSERT(env, t.delivered == n && !t.order_broken, "%llu delivered", (unsigned long long)t.delivered);
	tctx__exit(&t);
	return TEST_OK;
}

DEFINE_SUITE(deferred_memory)
{
	if (case_tiny_cap(env) != TEST_OK || case_cap_below_chunk(env) != TEST_OK)
		return TEST_FAIL;
	return case_never_matched(env);
}
