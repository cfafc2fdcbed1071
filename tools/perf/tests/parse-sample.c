// SPDX-License-Identifier: GPL-2.0
/*
 * Round trip of every sample_type field through perf_evattr__parse_sample(), in host and
 * in the other byte order, the bounds checks on counts that exceed the record, and the
 * stitcher's peek (perf_evattr__peek_deferred()) against the full parse.
 */
#include <byteswap.h>
#include <string.h>
#include <perf/data.h>
#include <perf/kernel.h>
#include "tests.h"

struct builder {
	u64 words[512];
	size_t n;
};

static void put(struct builder *b, u64 v)
{
	b->words[b->n++] = v;
}

static void put_pair(struct builder *b, u32 lo, u32 hi)
{
	u8 *p = (u8 *)&b->words[b->n++];

	memcpy(p, &lo, 4);
	memcpy(p + 4, &hi, 4);
}

static const u64 all_types = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
	PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
	PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
	PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR |
	PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE |
	PERF_SAMPLE_AUX;

/* builds a sample with every field; raw and stack bytes are the same in either order */
static size_t build(struct builder *b, bool swap)
{
	const u64 chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, PERF_CONTEXT_USER, 0x401000 };
	u32 raw_size = 12;
	u8 raw[16] = "tracepoint!";

	b->n = 1;	/* header */
	put(b, 77);			/* identifier */
	put(b, 0x401234);		/* ip */
	put_pair(b, 100, 101);		/* pid, tid */
	put(b, 123456789);		/* time */
	put(b, 0xdead);			/* addr */
	put(b, 77);			/* id */
	put(b, 78);			/* stream_id */
	put_pair(b, 3, 0);		/* cpu, res */
	put(b, 4000);			/* period */
	put(b, 555);			/* read: value (read_format 0) */
	put(b, 4);			/* callchain nr */
	for (int i = 0; i < 4; i++)
		put(b, chain[i]);
	/* raw: u32 size + 12 bytes = 16, already u64 aligned */
	memcpy(&b->words[b->n], &raw_size, 4);
	memcpy((u8 *)&b->words[b->n] + 4, raw, 12);
	b->n += 2;
	put(b, 1);			/* branch nr */
	put(b, 0x1000);
	put(b, 0x2000);
	put(b, 0);
	put(b, PERF_SAMPLE_REGS_ABI_64);	/* user regs abi, mask 0x3 -> 2 regs */
	put(b, 11);
	put(b, 22);
	put(b, 16);			/* stack size */
	put(b, 0x1111111111111111ULL);
	put(b, 0x2222222222222222ULL);
	put(b, 8);			/* dyn size */
	put(b, 42);			/* weight */
	put(b, 0x5);			/* data_src */
	put(b, 0x6);			/* transaction */
	put(b, PERF_SAMPLE_REGS_ABI_64);	/* intr regs, mask 0x1 */
	put(b, 33);
	put(b, 0x7000);			/* phys addr */
	put(b, 9);			/* cgroup */
	put(b, 4096);			/* data page size */
	put(b, 8192);			/* code page size */
	put(b, 8);			/* aux size */
	put(b, 0xabcdef);
	if (swap) {
		/* what a big-endian kernel would have written: words swapped, u32 pairs per half */
		for (size_t i = 1; i < b->n; i++) {
			u8 *p = (u8 *)&b->words[i];
			bool pair = i == 3 || i == 8;
			bool bytes = i == 16 || i == 17 || i == 26 || i == 27;

			if (pair) {
				u32 lo, hi;

				memcpy(&lo, p, 4);
				memcpy(&hi, p + 4, 4);
				lo = bswap_32(lo);
				hi = bswap_32(hi);
				memcpy(p, &lo, 4);
				memcpy(p + 4, &hi, 4);
			} else if (i == 16) {
				u32 sz;

				memcpy(&sz, p, 4);
				sz = bswap_32(sz);
				memcpy(p, &sz, 4);
			} else if (!bytes) {
				b->words[i] = bswap_64(b->words[i]);
			}
		}
	}
	b->words[0] = 0;
	{
		struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (u16)(b->n * 8) };

		memcpy(&b->words[0], &h, sizeof(h));
	}
	return b->n * 8;
}

static int check(const struct test_env *env, bool swap)
{
	struct perf_evattr ea = { 0 };
	struct builder b;
	struct perf_sample s;
	struct perf_err err;
	u64 scratch[512];

	ea.attr.sample_type = all_types;
	ea.attr.sample_regs_user = 0x3;
	ea.attr.sample_regs_intr = 0x1;
	ea.attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL);
	perf_evattr__init_positions(&ea);
	build(&b, swap);
	TEST_ASSERT(env, perf_evattr__parse_sample(&ea, (void *)b.words, swap, scratch, &s, &err) == 0,
		    "parse failed: %s", err.msg);
	TEST_ASSERT(env, s.id == 77 && s.ip == 0x401234, "id/ip %llu %llx", (unsigned long long)s.id, (unsigned long long)s.ip);
	TEST_ASSERT(env, s.pid == 100 && s.tid == 101, "pid/tid %u/%u", s.pid, s.tid);
	TEST_ASSERT(env, s.time == 123456789 && s.addr == 0xdead && s.stream_id == 78, "time/addr");
	TEST_ASSERT(env, s.cpu == 3 && s.period == 4000 && s.read.one.value == 555, "cpu/period/read");
	TEST_ASSERT(env, s.callchain_nr == 4 && s.callchain[1] == 0xffffffff81000010ULL &&
		    s.callchain[3] == 0x401000, "callchain");
	TEST_ASSERT(env, s.raw_size == 12 && !memcmp(s.raw_data, "tracepoint!", 12), "raw %u", s.raw_size);
	TEST_ASSERT(env, s.branch_nr == 1 && s.branches[0].from == 0x1000 && s.branches[0].to == 0x2000, "branch");
	TEST_ASSERT(env, s.user_regs_abi == 2 && s.user_regs[0] == 11 && s.user_regs[1] == 22, "user regs");
	TEST_ASSERT(env, s.user_stack_size == 16 && s.user_stack_dyn_size == 8 && s.user_stack[0] == 0x11, "stack");
	TEST_ASSERT(env, s.weight == 42 && s.data_src == 5 && s.transaction == 6, "weight/data_src/txn");
	TEST_ASSERT(env, s.intr_regs[0] == 33 && s.phys_addr == 0x7000 && s.cgroup == 9, "intr/phys/cgroup");
	TEST_ASSERT(env, s.data_page_size == 4096 && s.code_page_size == 8192, "page sizes");
	TEST_ASSERT(env, s.aux_size == 8, "aux");
	TEST_ASSERT(env, !s.deferred_callchain, "no marker, no deferral");
	return TEST_OK;
}

/* counts larger than the record must be refused, not read */
static int check_bounds(const struct test_env *env)
{
	struct perf_evattr ea = { 0 };
	u64 rec[4];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec) };
	struct perf_sample s;
	struct perf_err err;

	ea.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	perf_evattr__init_positions(&ea);
	memcpy(rec, &h, sizeof(h));
	rec[1] = 0x1000;
	rec[2] = 1ULL << 60;	/* callchain nr */
	rec[3] = 0;
	TEST_ASSERT(env, perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err) == -22,
		    "huge callchain nr accepted");
	TEST_ASSERT(env, strstr(err.msg, "callchain") != NULL, "message names the field: %s", err.msg);
	ea.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	perf_evattr__init_positions(&ea);
	rec[2] = 4096;		/* stack size larger than the record */
	TEST_ASSERT(env, perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err) == -22,
		    "huge stack size accepted");
	ea.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	perf_evattr__init_positions(&ea);
	rec[2] = 1000;
	TEST_ASSERT(env, perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err) == -22,
		    "huge branch nr accepted");
	return TEST_OK;
}

/* a deferred marker counts only with attr.defer_callchain, nr >= 2, marker second to last */
static int check_deferred_marker(const struct test_env *env)
{
	struct perf_evattr ea = { 0 };
	u64 rec[6];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec) };
	struct perf_sample s;
	struct perf_err err;

	ea.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	perf_evattr__init_positions(&ea);
	memcpy(rec, &h, sizeof(h));
	rec[1] = 0x1000;
	rec[2] = 3;
	rec[3] = 0xffffffff81000000ULL;
	rec[4] = PERF_CONTEXT_USER_DEFERRED;
	rec[5] = 0xb00000006ULL;
	TEST_ASSERT(env, perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err) == 0, "%s", err.msg);
	TEST_ASSERT(env, !s.deferred_callchain, "marker without defer_callchain taken");
	ea.attr.flags |= PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	TEST_ASSERT(env, perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err) == 0, "%s", err.msg);
	TEST_ASSERT(env, s.deferred_callchain && s.deferred_cookie == 0xb00000006ULL, "marker missed");
	rec[2] = 1;	/* nr < 2: never deferred */
	h.size = 4 * 8;
	memcpy(rec, &h, sizeof(h));
	TEST_ASSERT(env, perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err) == 0, "%s", err.msg);
	TEST_ASSERT(env, !s.deferred_callchain, "nr 1 taken as deferred");
	return TEST_OK;
}

static const u64 fields_before_callchain[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_READ,
};

/*
 * A sample with the fields of mask (bits index fields_before_callchain) and then chain
 * (nr first; an nr past the record is written as nr alone plus two words), in the other
 * byte order when swap. Sets ea to match.
 */
static void build_peek_sample(struct builder *b, struct perf_evattr *ea, unsigned mask,
			      const u64 *chain, bool swap)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };
	size_t pair_at = 0, cpu_at = 0, nr_words = chain[0] < 4 ? (size_t)chain[0] + 1 : 3;

	memset(ea, 0, sizeof(*ea));
	b->n = 1;
	for (size_t f = 0; f < ARRAY_SIZE(fields_before_callchain); f++) {
		u64 field = fields_before_callchain[f];

		if (!(mask & (1u << f)))
			continue;
		ea->attr.sample_type |= field;
		if (field == PERF_SAMPLE_TID) {
			pair_at = b->n;
			put_pair(b, 100, 101);		/* pid, tid */
		} else if (field == PERF_SAMPLE_CPU) {
			cpu_at = b->n;
			put_pair(b, 3, 0);		/* cpu, res */
		} else {
			put(b, 0x1000 + f);
		}
	}
	ea->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	ea->attr.flags = PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	perf_evattr__init_positions(ea);
	for (size_t w = 0; w < nr_words; w++)
		put(b, chain[w]);
	for (size_t w = 1; swap && w < b->n; w++) {
		u32 *half = (u32 *)&b->words[w];

		if (w == pair_at || w == cpu_at) {
			half[0] = bswap_32(half[0]);
			half[1] = bswap_32(half[1]);
		} else {
			b->words[w] = bswap_64(b->words[w]);
		}
	}
	h.size = (u16)(b->n * 8);
	memcpy(&b->words[0], &h, sizeof(h));
}

/*
 * The stitcher's peek must agree with the full parse: for every combination of the fields
 * before the callchain, in both byte orders, and for chains that are deferred, user-only,
 * not deferred, too short or longer than the record. With PERF_SAMPLE_READ it must decline.
 */
static int check_peek(const struct test_env *env)
{
	const u64 chains[][4] = {
		{ 3, 0xffffffff81000000ULL, PERF_CONTEXT_USER_DEFERRED, 0xb00000006ULL },
		{ 2, PERF_CONTEXT_USER_DEFERRED, 0xd00000002ULL },
		{ 3, PERF_CONTEXT_KERNEL, PERF_CONTEXT_USER, 0x401000 },
		{ 1, PERF_CONTEXT_USER_DEFERRED },
		{ 1ULL << 40, PERF_CONTEXT_USER_DEFERRED, 7 },
	};
	unsigned nr_peeked = 0;

	/* k: the 10-bit field mask, a 3-bit chain index, the byte order */
	for (unsigned k = 0; k < 1u << (10 + 3 + 1); k++) {
		unsigned mask = k >> 4, c = (k >> 1) & 7;
		bool swap = k & 1, peeked, parsed;
		struct perf_evattr ea;
		struct builder b;
		struct perf_sample smp;
		struct perf_err err;
		u64 scratch[16], cookie = 0;
		u32 tid = 0;

		if (c >= ARRAY_SIZE(chains))
			continue;
		build_peek_sample(&b, &ea, mask, chains[c], swap);
		peeked = perf_evattr__peek_deferred(&ea, (void *)b.words, swap, &tid, &cookie);
		parsed = !perf_evattr__parse_sample(&ea, (void *)b.words, swap, scratch, &smp, &err) &&
			 smp.deferred_callchain;
		if (ea.attr.sample_type & PERF_SAMPLE_READ) {
			TEST_ASSERT(env, !peeked, "peeked past PERF_SAMPLE_READ (mask %#x)", mask);
			continue;
		}
		TEST_ASSERT(env, peeked == parsed, "peek %d, parse %d: mask %#x chain %u swap %d",
			    peeked, parsed, mask, c, swap);
		if (!peeked)
			continue;
		nr_peeked++;
		TEST_ASSERT(env, cookie == smp.deferred_cookie && tid == smp.tid,
			    "peek got tid %u cookie %#llx, parse %u %#llx (mask %#x)", tid,
			    (unsigned long long)cookie, smp.tid,
			    (unsigned long long)smp.deferred_cookie, mask);
	}
	/* two deferred chains, both byte orders, the 512 masks without PERF_SAMPLE_READ */
	TEST_ASSERT(env, nr_peeked == 2 * 2 * 512, "%u samples peeked", nr_peeked);
	return TEST_OK;
}

DEFINE_SUITE(parse_sample)
{
	if (check(env, false) || check(env, true))
		return TEST_FAIL;
	if (check_bounds(env) || check_deferred_marker(env) || check_peek(env))
		return TEST_FAIL;
	return TEST_OK;
}
