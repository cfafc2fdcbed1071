// SPDX-License-Identifier: GPL-2.0
/*
 * perf_sample__synthesize() against perf_evattr__parse_sample(): parse(synthesize(s)) == s in
 * host order and in the other byte order, the cross-endian bytes turned back by
 * perf_sample__swap() equal the host-order ones, and a second synthesis of the parsed sample
 * gives the same bytes.
 *
 * Which sample_type combinations: the 25 bits the parser knows have 2^25 subsets, too many to
 * run with every shape of the variable-length fields in a test of seconds. A fixed-size field
 * (ip, time, ..., code_page_size) only moves the fields after it, so:
 *   - every subset of the 17 fixed-size bits, with the variable-length fields all absent and
 *     all present (in their first shapes);
 *   - every subset of the 8 variable-length bits (READ CALLCHAIN RAW BRANCH_STACK REGS_USER
 *     STACK_USER REGS_INTR AUX), each with every shape of every field (SHAPES rounds in which
 *     each field steps through its shapes on its own), under three fixed-field sets (none,
 *     all, every other);
 *   - RANDOM_CASES random subsets of all 25 bits with random shapes (a fixed seed).
 * Each case runs in both byte orders. Then the sample_id trailer, for every subset of its six
 * fields with and without sample_id_all, and the errors: a sample that does not fit.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include <perf/kernel.h>
#include "sample-cmp.h"
#include "tests.h"

#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)

#define FIXED_BITS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |		\
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |			\
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |		\
			 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |	\
			 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |				\
			 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE |		\
			 PERF_SAMPLE_WEIGHT_STRUCT)
#define VAR_BITS	(PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |		\
			 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |			\
			 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

_Static_assert((FIXED_BITS | VAR_BITS) == PERF_SAMPLE_MAX - 1, "every sample_type bit is tested");
_Static_assert(!(FIXED_BITS & VAR_BITS), "the groups are disjoint");

/* the most shapes any one field has below: every field goes through all of its in this many rounds */
#define SHAPES		8
#define RANDOM_CASES	20000

/* ---- shapes of the variable-length fields -------------------------------------------------- */

static const u64 read_formats[] = {
	0,
	PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	PERF_FORMAT_ID,
	PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_RUNNING,
	PERF_FORMAT_GROUP,
	PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED,
	PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED |
		PERF_FORMAT_TOTAL_TIME_RUNNING,
	PERF_FORMAT_GROUP | PERF_FORMAT_LOST,	/* with nr 0 */
};
#define NR_READ		(ARRAY_SIZE(read_formats))

static const u64 chain_plain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, 0xffffffff81000020ULL,
				   PERF_CONTEXT_USER, 0x401000, 0x402000 };
static const u64 chain_deferred[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
				      PERF_CONTEXT_USER_DEFERRED, 0x500000003ULL };
#define NR_CHAIN	4	/* none, one ip, plain, deferred */

#define NR_RAW		4	/* sizes 0, 4 (no padding), 12, 1 */
static const u32 raw_sizes[NR_RAW] = { 0, 4, 12, 1 };

#define NR_BRANCH	5	/* nr 0; nr 3 with nothing, hw_idx, counters, both */
static const u64 branch_types[NR_BRANCH] = {
	0, 0, PERF_SAMPLE_BRANCH_HW_INDEX, PERF_SAMPLE_BRANCH_COUNTERS,
	PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS,
};

#define NR_REGS		3	/* abi NONE; 64-bit with perf's x86-64 mask; 32-bit with 2 regs */
#define NR_STACK	3	/* size 0; 64 bytes of which 40 valid; 16 all valid */
#define NR_AUX		3	/* size 0, 8, 24 */

struct shape {
	unsigned read, chain, raw, branch, uregs, stack, iregs, aux;
};

/* round k: field i takes shape (k + i) % its count, so every shape meets every subset */
static struct shape shape__round(unsigned k)
{
	struct shape sh = {
		.read = k % NR_READ, .chain = (k + 1) % NR_CHAIN, .raw = (k + 2) % NR_RAW,
		.branch = (k + 3) % NR_BRANCH, .uregs = (k + 4) % NR_REGS,
		.stack = (k + 5) % NR_STACK, .iregs = (k + 6) % NR_REGS, .aux = (k + 7) % NR_AUX,
	};

	return sh;
}

/* ---- one case ------------------------------------------------------------------------------ */

struct tcase {
	struct perf_evattr	ea;
	struct perf_sample	s;
	u64			group[3 * 4];
	u64			branches[3 * 3];
	u64			counters[3];
	u64			uregs[24], iregs[24];
	u8			raw[16], stack[64], aux[24];
};

static void regs__shape(unsigned shape, u64 *mask, u64 *abi, const u64 **regs, u64 *vals, u64 seed)
{
	static const u64 masks[NR_REGS] = { 0, PERF_REGS_X86_64_USER_MASK, 0x3 };
	static const u64 abis[NR_REGS] = { PERF_SAMPLE_REGS_ABI_NONE, PERF_SAMPLE_REGS_ABI_64,
					   PERF_SAMPLE_REGS_ABI_32 };

	*mask = masks[shape];
	*abi = abis[shape];
	for (int i = 0; i < 24; i++)
		vals[i] = seed + 0x100 * (u64)i;
	/* the parser gives no regs (and mask 0) without an abi */
	*regs = shape ? vals : NULL;
}

static void tcase__init(struct tcase *t, u64 sample_type, const struct shape *sh)
{
	struct perf_event_attr *attr = &t->ea.attr;
	struct perf_sample *s = &t->s;
	u64 rf = read_formats[sh->read];
	u64 uregs_mask, iregs_mask;

	memset(t, 0, sizeof(*t));
	memset(s, 0, sizeof(*s));
	attr->sample_type = sample_type;
	attr->read_format = rf;
	attr->branch_sample_type = branch_types[sh->branch];
	attr->flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	if (sample_type & PERF_SAMPLE_REGS_USER) {
		regs__shape(sh->uregs, &uregs_mask, &s->user_regs_abi, &s->user_regs, t->uregs, 0x7000);
		attr->sample_regs_user = uregs_mask;
		s->user_regs_mask = s->user_regs_abi ? uregs_mask : 0;
	}
	if (sample_type & PERF_SAMPLE_REGS_INTR) {
		regs__shape(sh->iregs, &iregs_mask, &s->intr_regs_abi, &s->intr_regs, t->iregs, 0x9000);
		attr->sample_regs_intr = iregs_mask;
		s->intr_regs_mask = s->intr_regs_abi ? iregs_mask : 0;
	}
	perf_evattr__init_positions(&t->ea);

	/* what the parser leaves for absent fields */
	s->pid = s->tid = s->cpu = (u32)-1;
	s->period = 1;
	s->misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP;
	s->cpumode = PERF_RECORD_MISC_USER;
	if (sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		s->id = 0x1234;
	if (sample_type & PERF_SAMPLE_IP)
		s->ip = 0x401234;
	if (sample_type & PERF_SAMPLE_TID) {
		s->pid = 100;
		s->tid = 101;
	}
	if (sample_type & PERF_SAMPLE_TIME) {
		s->time = 123456789012ULL;
		s->has_time = true;
	}
	s->addr = sample_type & PERF_SAMPLE_ADDR ? 0xdead0000 : 0;
	s->stream_id = sample_type & PERF_SAMPLE_STREAM_ID ? 0x4321 : 0;
	if (sample_type & PERF_SAMPLE_CPU)
		s->cpu = 3;
	if (sample_type & PERF_SAMPLE_PERIOD)
		s->period = 4000;
	if (sample_type & PERF_SAMPLE_READ) {
		struct perf_sample_read *r = &s->read;

		r->time_enabled = rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 1111 : 0;
		r->time_running = rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 999 : 0;
		if (rf & PERF_FORMAT_GROUP) {
			u64 per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

			r->nr = sh->read == NR_READ - 1 ? 0 : 3;
			for (u64 i = 0; i < r->nr * per; i++)
				t->group[i] = 0x5000 + i;
			r->group = (const u8 *)t->group;
		} else {
			r->nr = 1;
			r->one.value = 555;
			r->one.id = rf & PERF_FORMAT_ID ? 0x1234 : 0;
			r->one.lost = rf & PERF_FORMAT_LOST ? 2 : 0;
		}
	}
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		switch (sh->chain) {
		case 0:
			break;
		case 1:
			s->callchain = chain_plain + 1;
			s->callchain_nr = 1;
			break;
		case 2:
			s->callchain = chain_plain;
			s->callchain_nr = ARRAY_SIZE(chain_plain);
			break;
		default:
			s->callchain = chain_deferred;
			s->callchain_nr = ARRAY_SIZE(chain_deferred);
			s->deferred_callchain = true;
			s->deferred_cookie = chain_deferred[3];
			break;
		}
	}
	if (sample_type & PERF_SAMPLE_RAW) {
		s->raw_size = raw_sizes[sh->raw];
		memcpy(t->raw, "tracepoint!!", 12);
		s->raw_data = t->raw;
	}
	if (sample_type & PERF_SAMPLE_BRANCH_STACK) {
		s->branch_nr = sh->branch ? 3 : 0;
		for (int i = 0; i < 9; i++)
			t->branches[i] = 0x400000 + 0x10 * (u64)i;
		s->branches = (const struct perf_branch_entry *)t->branches;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_has_hw_idx = true;
			s->branch_hw_idx = 7;
		}
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS) {
			t->counters[0] = 1;
			t->counters[1] = 2;
			t->counters[2] = 3;
			s->branch_counters = t->counters;
		}
	}
	if (sample_type & PERF_SAMPLE_STACK_USER) {
		for (int i = 0; i < 64; i++)
			t->stack[i] = (u8)(0xa0 + i);
		s->user_stack = t->stack;
		s->user_stack_size = sh->stack == 0 ? 0 : sh->stack == 1 ? 64 : 16;
		s->user_stack_dyn_size = sh->stack == 0 ? 0 : sh->stack == 1 ? 40 : 16;
	}
	if (sample_type & PERF_SAMPLE_WEIGHT_TYPE) {
		s->weight = 250;
		if (sample_type & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->ins_lat = 31;
			s->p_stage_cyc = 17;
		} else {
			s->weight = 0x1234567890ULL;	/* a u64: all of it */
		}
	}
	s->data_src = sample_type & PERF_SAMPLE_DATA_SRC ? 0x29080142ULL : 0;
	s->transaction = sample_type & PERF_SAMPLE_TRANSACTION ? 6 : 0;
	s->phys_addr = sample_type & PERF_SAMPLE_PHYS_ADDR ? 0x12345000 : 0;
	s->cgroup = sample_type & PERF_SAMPLE_CGROUP ? 42 : 0;
	s->data_page_size = sample_type & PERF_SAMPLE_DATA_PAGE_SIZE ? 4096 : 0;
	s->code_page_size = sample_type & PERF_SAMPLE_CODE_PAGE_SIZE ? 2097152 : 0;
	if (sample_type & PERF_SAMPLE_AUX) {
		for (int i = 0; i < 24; i++)
			t->aux[i] = (u8)(0x30 + i);
		s->aux_size = sh->aux * 8 + (sh->aux == 2 ? 8 : 0);
		s->aux_data = t->aux;
	}
}

/* 0, or the line number of the first check that failed; *what says more */
static int tcase__run(const struct tcase *t, struct perf_err *err, const char **what)
{
	const struct perf_event_attr *attr = &t->ea.attr;
	u64 host[4096], cross[4096], again[4096], scratch[4096];
	struct perf_event_header *hh = (void *)host, *ch = (void *)cross;
	struct perf_sample p, q, r;
	int n, m, k;

	*what = "";
	n = perf_sample__synthesize(attr, &t->s, false, host, sizeof(host), err);
	if (n < 0 || n != hh->size)
		return *what = err->msg, __LINE__;
	if (perf_evattr__parse_sample(&t->ea, (void *)host, false, NULL, &p, err))
		return *what = err->msg, __LINE__;
	if (!sample__same(attr, &t->s, &p, what))
		return __LINE__;

	m = perf_sample__synthesize(attr, &t->s, true, cross, sizeof(cross), err);
	if (m != n)
		return *what = err->msg, __LINE__;
	/* the reader swaps the header of every record before the parser sees it */
	ch->type = bswap_32(ch->type);
	ch->misc = bswap_16(ch->misc);
	ch->size = bswap_16(ch->size);
	if (ch->size != n)
		return *what = "cross-endian header", __LINE__;
	if (perf_evattr__parse_sample(&t->ea, (void *)cross, true, scratch, &q, err))
		return *what = err->msg, __LINE__;
	if (!sample__same(attr, &t->s, &q, what))
		return __LINE__;

	/* a parsed sample synthesizes to the same bytes */
	k = perf_sample__synthesize(attr, &p, false, again, sizeof(again), err);
	if (k != n || memcmp(again, host, (size_t)n))
		return *what = "second synthesis", __LINE__;
	/* the file-to-host swap of the cross-endian body gives the host-order bytes */
	if (perf_sample__swap(attr, (void *)cross, true, err))
		return *what = err->msg, __LINE__;
	if (memcmp(cross, host, (size_t)n))
		return *what = "swapped to host", __LINE__;
	/* and so does the parse of those */
	if (perf_evattr__parse_sample(&t->ea, (void *)cross, false, NULL, &r, err) ||
	    !sample__same(attr, &p, &r, what))
		return __LINE__;
	return 0;
}

static int run_case(const struct test_env *env, u64 sample_type, const struct shape *sh,
		    unsigned long *count)
{
	struct perf_err err = { "" };
	struct tcase t;
	const char *what;
	int line;

	tcase__init(&t, sample_type, sh);
	line = tcase__run(&t, &err, &what);
	(*count)++;
	TEST_ASSERT(env, !line, "sample_type %#llx read_format %#llx branch_sample_type %#llx shape %u%u%u%u%u%u%u%u: check at line %d: %s",
		    (unsigned long long)sample_type, (unsigned long long)t.ea.attr.read_format,
		    (unsigned long long)t.ea.attr.branch_sample_type, sh->read, sh->chain,
		    sh->raw, sh->branch, sh->uregs, sh->stack, sh->iregs, sh->aux, line, what);
	return TEST_OK;
}

/* the bits of mask, in order, as a list for enumerating subsets */
static int bits_of(u64 mask, u64 *bits)
{
	int n = 0;

	for (int b = 0; b < 64; b++)
		if (mask & (1ULL << b))
			bits[n++] = 1ULL << b;
	return n;
}

static u64 subset(const u64 *bits, int n, u64 index)
{
	u64 v = 0;

	for (int i = 0; i < n; i++)
		if (index & (1ULL << i))
			v |= bits[i];
	return v;
}

static int test_fixed_subsets(const struct test_env *env, unsigned long *count)
{
	struct shape first = shape__round(0);
	u64 bits[64];
	int n = bits_of(FIXED_BITS, bits);

	for (u64 i = 0; i < (1ULL << n); i++) {
		u64 type = subset(bits, n, i);

		if (run_case(env, type, &first, count) || run_case(env, type | VAR_BITS, &first, count))
			return TEST_FAIL;
	}
	return TEST_OK;
}

static int test_var_subsets(const struct test_env *env, unsigned long *count)
{
	const u64 fixed_sets[] = { 0, FIXED_BITS,
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_STREAM_ID |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR |
		PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT };
	u64 bits[64];
	int n = bits_of(VAR_BITS, bits);

	for (u64 i = 0; i < (1ULL << n); i++)
		for (unsigned k = 0; k < SHAPES; k++)
			for (size_t f = 0; f < ARRAY_SIZE(fixed_sets); f++) {
				struct shape sh = shape__round(k);

				if (run_case(env, subset(bits, n, i) | fixed_sets[f], &sh, count))
					return TEST_FAIL;
			}
	return TEST_OK;
}

static u32 lcg(u64 *state, u32 n)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(*state >> 33) % n;
}

static int test_random(const struct test_env *env, unsigned long *count)
{
	u64 state = 0x5a3d1e;	/* fixed: a failure is reproducible */

	for (int i = 0; i < RANDOM_CASES; i++) {
		u64 type = ((u64)lcg(&state, 1u << 25)) & (PERF_SAMPLE_MAX - 1);
		struct shape sh = {
			lcg(&state, NR_READ), lcg(&state, NR_CHAIN), lcg(&state, NR_RAW),
			lcg(&state, NR_BRANCH), lcg(&state, NR_REGS), lcg(&state, NR_STACK),
			lcg(&state, NR_REGS), lcg(&state, NR_AUX),
		};

		if (run_case(env, type, &sh, count))
			return TEST_FAIL;
	}
	return TEST_OK;
}

/* every trailer layout on a COMM record, both byte orders */
static int test_trailer(const struct test_env *env)
{
	const u64 id_bits = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	u64 bits[64];
	int n = bits_of(id_bits, bits);

	for (int all = 0; all < 2; all++)
		for (u64 i = 0; i < (1ULL << n); i++) {
			struct perf_sample id = {
				.pid = 7, .tid = 8, .time = 99, .id = 0x77, .stream_id = 0x78, .cpu = 2,
			}, p, q;
			struct perf_evattr ea = {
				/* IP and ADDR are sample fields only: the trailer must leave them out */
				.attr = { .sample_type = subset(bits, n, i) | PERF_SAMPLE_IP | PERF_SAMPLE_ADDR },
			};
			struct perf_err err = { "" };
			u64 rec[32], trailer[8];
			int size, tsize;
			const char *what;

			ea.attr.flags = all ? PERF_ATTR_FLAG(SAMPLE_ID_ALL) : 0;
			perf_evattr__init_positions(&ea);
			size = perf_record_comm__synthesize(rec, sizeof(rec), &ea.attr, &id, "comm", false);
			TEST_ASSERT(env, size == 8 + 8 + 8 + ea.id_hdr_size, "record of %d bytes", size);
			TEST_ASSERT(env, !perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &p, &err),
				    "%s", err.msg);
			if (all) {
				/* the parser has no misc of a comm to compare: take the record's */
				id.misc = p.misc;
				id.cpumode = p.cpumode;
				id.has_time = ea.attr.sample_type & PERF_SAMPLE_TIME;
				TEST_ASSERT(env, sample__same(&ea.attr, &id, &p, &what), "trailer %#llx: %s",
					    (unsigned long long)ea.attr.sample_type, what);
			}
			tsize = perf_sample__synthesize_id(&ea.attr, &id, true, trailer, sizeof(trailer));
			TEST_ASSERT(env, tsize == ea.id_hdr_size, "trailer of %d bytes", tsize);
			memcpy((u8 *)rec + size - tsize, trailer, (size_t)tsize);
			TEST_ASSERT(env, !perf_evattr__parse_sample(&ea, (void *)rec, true, NULL, &q, &err),
				    "%s", err.msg);
			TEST_ASSERT(env, sample__same(&ea.attr, &p, &q, &what), "swapped trailer %#llx: %s",
				    (unsigned long long)ea.attr.sample_type, what);
			TEST_ASSERT(env, perf_sample__synthesize_id(&ea.attr, &id, false, trailer, 0) ==
				    (ea.id_hdr_size ? -E2BIG : 0), "a trailer larger than its buffer");
		}
	return TEST_OK;
}

/* samples no record can hold: an error naming the field, nothing written past the buffer */
static int test_errors(const struct test_env *env)
{
	struct perf_evattr ea = { .attr = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN } };
	static u64 big[9000];
	struct perf_sample s = { .ip = 1, .callchain = big, .callchain_nr = 9000 };
	struct perf_err err = { "" };
	u64 buf[16];
	struct perf_event_header *h = (void *)buf;

	TEST_ASSERT(env, perf_sample__synthesize(&ea.attr, &s, false, buf, sizeof(buf), &err) == -E2BIG,
		    "a callchain longer than the buffer");
	TEST_ASSERT(env, strstr(err.msg, "'callchain'"), "message: %s", err.msg);
	s.callchain_nr = 3;
	s.callchain = NULL;
	TEST_ASSERT(env, perf_sample__synthesize(&ea.attr, &s, false, buf, sizeof(buf), &err) == -E2BIG,
		    "a callchain without its ips");
	s.callchain = big;
	TEST_ASSERT(env, perf_sample__synthesize(&ea.attr, &s, false, buf, sizeof(buf), &err) == 48,
		    "header, ip, nr and 3 ips: %s", err.msg);
	/* a body cut short: the swap names the field and stops */
	h->size = 24;
	TEST_ASSERT(env, perf_sample__swap(&ea.attr, (void *)buf, false, &err) == -EINVAL,
		    "a callchain past the end of the record");
	TEST_ASSERT(env, strstr(err.msg, "'callchain'"), "message: %s", err.msg);
	return TEST_OK;
}

DEFINE_SUITE(sample_synthesize)
{
	unsigned long count = 0;

	if (test_fixed_subsets(env, &count) || test_var_subsets(env, &count) ||
	    test_random(env, &count) || test_trailer(env) || test_errors(env))
		return TEST_FAIL;
	if (env->verbose)
		fprintf(stderr, "%lu samples round-tripped in both byte orders\n", count);
	return TEST_OK;
}
