// SPDX-License-Identifier: GPL-2.0
/*
 * script-data-src.c - perf script -F data_src: the raw value and its decoding, as upstream
 * perf 7.2 prints them.
 *
 * The input is the corpus' pf.data (page faults recorded with -d, whose samples carry
 * PERF_SAMPLE_DATA_SRC, always the same value there) with its samples replaced by copies of
 * one, each with another data_src: a few picked values whose text is written below, every
 * flag of every part alone, every level number and hop count, combinations a real PMU
 * reports, and random values. The picked ones come first and are checked here, with the
 * width rule (the text padded to the longest so far, cut at 99 characters); with upstream
 * perf at hand (root), all of the output equals its, alone and among other fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "rewrite.h"
#include "run-helpers.h"
#include "tests.h"

#define M(part, flag)	PERF_MEM_S(part, flag)
/* level number n, or hops n (the numbered parts) */
#define LVLNUM(n)	((u64)(n) << PERF_MEM_LVLNUM_SHIFT)
#define HOPS(n)		((u64)(n) << PERF_MEM_HOPS_SHIFT)

/* upstream's line stops at 99 characters (a 100-byte buffer) */
#define TEXT_MAX	99

static const struct {
	u64		val;
	const char	*text;
} picked[] = {
	{ 0, "               0 |OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
	/* a load that hit L1, as the level mask says it */
	{ M(OP, LOAD) | M(LVL, HIT) | M(LVL, L1) | M(SNOOP, NONE) | M(TLB, HIT) | M(TLB, L1) |
	  M(LOCK, NA) | M(BLK, NA),
	  "     10029100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A" },
	/*
	 * a level number wins over the mask; "Remote" and hops only come with it. 101
	 * characters: cut at 99
	 */
	{ M(OP, LOAD) | M(LVL, HIT) | M(LVL, REM_CCE1) | M(SNOOP, HITM) | M(REMOTE, REMOTE) |
	  LVLNUM(PERF_MEM_LVLNUM_ANY_CACHE) | HOPS(PERF_MEM_HOPS_1),
	  "    103600808042 |OP LOAD|LVL Remote node, same socket Any cache hit|SNP HitM|TLB N/A|LCK No|BLK  N/A" },
	/* the same remote HITM from the mask alone: no "Remote" */
	{ M(OP, LOAD) | M(LVL, HIT) | M(LVL, REM_CCE1) | M(SNOOP, HITM) | M(REMOTE, REMOTE),
	  "      2000808042 |OP LOAD|LVL Remote Cache (1 hop) hit|SNP HitM|TLB N/A|LCK No|BLK  N/A" },
	/* an L3 miss, then the local RAM that served it */
	{ M(OP, LOAD) | M(LVL, MISS) | M(LVL, L3) | M(SNOOP, MISS) | M(TLB, MISS) | M(TLB, WK),
	  "        90400882 |OP LOAD|LVL L3 miss|SNP Miss|TLB Walker miss|LCK No|BLK  N/A" },
	{ M(OP, LOAD) | M(LVL, HIT) | M(LVL, LOC_RAM) | LVLNUM(PERF_MEM_LVLNUM_RAM) |
	  M(SNOOP, MISS),
	  "      1a00401042 |OP LOAD|LVL RAM hit|SNP Miss|TLB N/A|LCK No|BLK  N/A" },
	/* the first op bit wins; lock: NA before LOCKED */
	{ M(OP, STORE) | M(OP, PFETCH) | M(LVL, MISS) | M(LVL, L1) | M(LOCK, LOCKED),
	  "         200018c |OP STORE|LVL L1 miss|SNP N/A|TLB N/A|LCK Yes|BLK  N/A" },
	{ M(OP, NA) | M(OP, EXEC) | M(LOCK, NA) | M(LOCK, LOCKED),
	  "         3000011 |OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A" },
	/* a level without hit or miss keeps the space before them */
	{ M(LVL, L3), "             800 |OP No|LVL L3 |SNP N/A|TLB N/A|LCK No|BLK  N/A" },
	{ LVLNUM(7) | M(LVL, HIT),
	  "       e00000040 |OP No|LVL Unknown level 7 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
	/* hops past upstream's table: what its printf makes of NULL */
	{ LVLNUM(PERF_MEM_LVLNUM_L3) | M(REMOTE, REMOTE) | HOPS(6) | M(LVL, HIT),
	  "    302600000040 |OP No|LVL Remote (null) L3 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
	/* snoop and snoopx in one list */
	{ M(SNOOP, HIT) | M(SNOOPX, FWD) | M(SNOOPX, PEER),
	  "      c000200000 |OP No|LVL N/A|SNP Hit or Fwd or Peer|TLB N/A|LCK No|BLK  N/A" },
	/* the TLB's NA is a name among the others, hit and miss both said */
	{ M(TLB, NA) | M(TLB, HIT) | M(TLB, MISS) | M(TLB, L2) | M(TLB, OS),
	  "       15c000000 |OP No|LVL N/A|SNP N/A|TLB N/A or L2 or Fault hit miss|LCK No|BLK  N/A" },
	{ M(BLK, DATA) | M(BLK, ADDR),
	  "     60000000000 |OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  Data Addr" },
	/* every level of the mask: the line is cut */
	{ M(OP, LOAD) | ((u64)0x3fff << PERF_MEM_LVL_SHIFT),
	  "           7ffe2 |OP LOAD|LVL L1 or LFB/MAB or L2 or L3 or Local RAM or Remote RAM (1 hop) or Remot" },
	{ 1, "               1 |OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
};

/*
 * Where each part sits. A numbered part has every value 0..max tried alone and inside
 * "around" (a remote hit load: the hops show only with a level number, and "Remote" too)
 */
#define REMOTE_HIT_LOAD	(M(OP, LOAD) | M(LVL, HIT) | M(REMOTE, REMOTE))

static const struct {
	unsigned int	shift, bits;
	bool		number;		/* a value, not flags */
	u64		around;
} parts[] = {
	{ PERF_MEM_OP_SHIFT, PERF_MEM_OP_BITS, false, 0 },
	{ PERF_MEM_LVL_SHIFT, PERF_MEM_LVL_BITS, false, 0 },
	{ PERF_MEM_SNOOP_SHIFT, PERF_MEM_SNOOP_BITS, false, 0 },
	{ PERF_MEM_LOCK_SHIFT, PERF_MEM_LOCK_BITS, false, 0 },
	{ PERF_MEM_TLB_SHIFT, PERF_MEM_TLB_BITS, false, 0 },
	{ PERF_MEM_LVLNUM_SHIFT, PERF_MEM_LVLNUM_BITS, true,
	  REMOTE_HIT_LOAD | HOPS(PERF_MEM_HOPS_0) },
	{ PERF_MEM_REMOTE_SHIFT, PERF_MEM_REMOTE_BITS, false, 0 },
	{ PERF_MEM_SNOOPX_SHIFT, PERF_MEM_SNOOPX_BITS, false, 0 },
	{ PERF_MEM_BLK_SHIFT, PERF_MEM_BLK_BITS, false, 0 },
	{ PERF_MEM_HOPS_SHIFT, PERF_MEM_HOPS_BITS, true,
	  REMOTE_HIT_LOAD | LVLNUM(PERF_MEM_LVLNUM_L3) },
};

static const u64 combos[] = {
	M(OP, LOAD) | M(LVL, HIT) | M(LVL, LFB) | LVLNUM(PERF_MEM_LVLNUM_LFB) | M(TLB, HIT) |
		M(TLB, L2),
	M(OP, LOAD) | M(LVL, HIT) | M(LVL, L2) | LVLNUM(PERF_MEM_LVLNUM_L2) | M(SNOOPX, PEER),
	M(OP, LOAD) | M(LVL, HIT) | M(LVL, L3) | LVLNUM(PERF_MEM_LVLNUM_L3) | M(SNOOP, HITM),
	M(OP, LOAD) | M(LVL, HIT) | M(LVL, REM_RAM1) | M(SNOOP, HIT) | M(REMOTE, REMOTE) |
		LVLNUM(PERF_MEM_LVLNUM_RAM),
	M(OP, LOAD) | M(LVL, MISS) | M(LVL, REM_RAM2) | M(LVL, REM_CCE2),
	M(OP, LOAD) | M(LVL, HIT) | M(LVL, IO) | M(LVL, UNC) | LVLNUM(PERF_MEM_LVLNUM_IO),
	M(OP, STORE) | M(LVL, HIT) | M(LVL, L1) | M(LOCK, LOCKED) | M(BLK, DATA),
	M(OP, STORE) | M(LVL, NA) | M(SNOOP, NA) | M(TLB, NA) | M(LOCK, NA) | M(BLK, NA),
	M(OP, PFETCH) | LVLNUM(PERF_MEM_LVLNUM_NA) | M(LVL, L2) | M(LVL, MISS),
	M(OP, EXEC) | M(TLB, MISS) | M(TLB, OS) | M(BLK, ADDR),
	/* perf record's value for a page fault, as in pf.data */
	M(OP, NA) | M(LVL, NA) | M(SNOOP, NA) | M(LOCK, NA) | M(TLB, NA) |
		LVLNUM(PERF_MEM_LVLNUM_NA),
};

#define NR_RANDOM	300

struct values {
	u64	v[512];
	size_t	nr;
};

static int values__add(struct values *vals, u64 v)
{
	if (vals->nr == ARRAY_SIZE(vals->v))
		return -ENOSPC;
	vals->v[vals->nr++] = v;
	return 0;
}

/* xorshift64*: the same random values on every run, so a failure shows again */
static u64 next_random(u64 *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

static int values__fill(struct values *vals)
{
	u64 state = 0x9e3779b97f4a7c15ULL;
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(picked) && !ret; i++)
		ret = values__add(vals, picked[i].val);
	for (size_t i = 0; i < ARRAY_SIZE(parts) && !ret; i++) {
		u64 max = (1ULL << parts[i].bits) - 1;

		if (!parts[i].number) {
			for (unsigned int b = 0; b < parts[i].bits && !ret; b++)
				ret = values__add(vals, 1ULL << (parts[i].shift + b));
			continue;
		}
		for (u64 n = 0; n <= max && !ret; n++) {
			ret = values__add(vals, n << parts[i].shift);
			if (!ret)
				ret = values__add(vals, parts[i].around | n << parts[i].shift);
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(combos) && !ret; i++)
		ret = values__add(vals, combos[i]);
	/* whole words, and the defined parts alone (bits 0..45), whose texts are shorter */
	for (size_t i = 0; i < NR_RANDOM && !ret; i++) {
		u64 v = next_random(&state);

		ret = values__add(vals, i % 2 ? v : v & ((1ULL << 46) - 1));
	}
	return ret;
}

/*
 * The byte offset of data_src in a sample of this type, -1 when a field of varying size
 * comes before it (read values, callchain, raw, branches, user regs and stack)
 */
static int data_src_offset(u64 type)
{
	const u64 fixed = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			  PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	const u64 varying = PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			    PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			    PERF_SAMPLE_STACK_USER;

	if (!(type & PERF_SAMPLE_DATA_SRC) || (type & varying))
		return -1;
	/* WEIGHT and WEIGHT_STRUCT are one u64 */
	return (int)(sizeof(struct perf_event_header) +
		     8 * (__builtin_popcountll(type & fixed) + !!(type & PERF_SAMPLE_WEIGHT_TYPE)));
}

struct craft {
	const struct values	*vals;
	bool			done;	/* the first sample was copied */
};

/* the first sample once for each value, the other samples left out */
static int craft__record(struct perf_writer *w, struct perf_data *in,
			 const struct perf_data_record *r, void *ctx, struct perf_err *err)
{
	struct craft *c = ctx;
	struct perf_evattr *ea;
	u8 buf[512];
	int off;

	if (!r)
		return 0;
	if (r->header->type != PERF_RECORD_SAMPLE)
		return perf_writer__write(w, r->header, err);
	if (c->done)
		return 0;
	c->done = true;
	ea = perf_data__attr_of(in, r->header);
	off = ea ? data_src_offset(ea->attr.sample_type) : -1;
	if (off < 0 || r->header->size > sizeof(buf) || (size_t)off + 8 > r->header->size)
		return perf_err__set(err, EINVAL, "the first sample has no data_src at a fixed place");
	memcpy(buf, r->header, r->header->size);
	for (size_t i = 0; i < c->vals->nr; i++) {
		struct perf_sample s;
		int ret;

		memcpy(buf + off, &c->vals->v[i], 8);
		/* the offset computed is the one the reader takes */
		if (perf_evattr__parse_sample(ea, (const void *)buf, false, NULL, &s, err))
			return -EINVAL;
		if (s.data_src != c->vals->v[i])
			return perf_err__set(err, EINVAL, "data_src written at %d is not read there", off);
		ret = perf_writer__write(w, (const void *)buf, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* the next line of *p (its newline cut), NULL at the end */
static char *next_line(char **p)
{
	char *line = *p, *eol;

	if (!*line)
		return NULL;
	eol = strchrnul(line, '\n');
	*p = *eol ? eol + 1 : eol;
	*eol = '\0';
	return line;
}

/*
 * -F comm,data_src's lines: the picked values' texts, cut and padded as upstream does, and
 * one line per value. got is changed (lines cut out). 0, or why not
 */
static const char *check_picked(char *got, size_t nr_vals, char *why, size_t size)
{
	size_t width = 0, nr = 0;
	char *p = got, *line;

	while ((line = next_line(&p))) {
		size_t len;

		/* "%16s " of the comm, then the data_src text */
		if (strlen(line) < 17) {
			snprintf(why, size, "line %zu is too short: '%s'", nr + 1, line);
			return why;
		}
		line += 17;
		if (nr < ARRAY_SIZE(picked)) {
			len = strlen(picked[nr].text);
			if (len > TEXT_MAX)
				len = TEXT_MAX;
			if (width < len)
				width = len;
			if (strlen(line) != width || strncmp(line, picked[nr].text, len) ||
			    strspn(line + len, " ") != width - len) {
				snprintf(why, size, "%#llx: '%s', not '%.*s' padded to %zu",
					 (unsigned long long)picked[nr].val, line, (int)len,
					 picked[nr].text, width);
				return why;
			}
		}
		nr++;
	}
	if (nr != nr_vals) {
		snprintf(why, size, "%zu lines for %zu values", nr, nr_vals);
		return why;
	}
	return NULL;
}

/* perf script -F fields of crafted into out, 0 when it ran well */
static int run_script(const char *perf, const char *fields, const char *crafted,
		      const char *out)
{
	const char *argv[] = { perf, "script", "-F", fields, "-i", crafted, NULL };

	return test_run_argv(argv, out, NULL);
}

/* the comm alone, and among the other fields pf.data's samples have */
static const char *const field_sets[] = {
	"comm,data_src",
	"comm,tid,time,addr,data_src,ip,period",
};

DEFINE_SUITE(script_data_src)
{
	char in[4200], crafted[4200], upstream[4200], ours[4300], theirs[4300], why[512];
	static struct values vals;
	struct craft c = { .vals = &vals };
	size_t nr_compared = 0;
	bool have_upstream;
	struct perf_err err;
	const char *bad;
	char *got;

	snprintf(in, sizeof(in), "%s/tools/perf/tests/data/corpus/pf.data", env->srcdir);
	snprintf(crafted, sizeof(crafted), "%s/data-src.data", env->tmpdir);
	have_upstream = test_upstream_perf(env, upstream, sizeof(upstream));
	TEST_ASSERT(env, !values__fill(&vals), "more values than %zu", ARRAY_SIZE(vals.v));
	TEST_ASSERT(env, !test_rewrite(in, crafted, craft__record, &c, &err), "crafting from %s: %s",
		    in, err.msg);
	TEST_ASSERT(env, c.done, "%s has no sample", in);

	snprintf(ours, sizeof(ours), "%s/ours", env->tmpdir);
	TEST_ASSERT(env, !run_script(env->perf, field_sets[0], crafted, ours),
		    "perf script -F %s failed", field_sets[0]);
	TEST_ASSERT(env, !test_read_file(ours, &got, &(size_t){ 0 }), "cannot read %s", ours);
	bad = check_picked(got, vals.nr, why, sizeof(why));
	free(got);
	TEST_ASSERT(env, !bad, "%s", bad);

	for (size_t i = 0; have_upstream && i < ARRAY_SIZE(field_sets); i++) {
		char *want = NULL;
		bool same;

		got = NULL;
		snprintf(ours, sizeof(ours), "%s/%zu.ours", env->tmpdir, i);
		snprintf(theirs, sizeof(theirs), "%s/%zu.upstream", env->tmpdir, i);
		if (run_script(upstream, field_sets[i], crafted, theirs))
			continue;	/* not compared: the partial pass below says so */
		same = !run_script(env->perf, field_sets[i], crafted, ours) &&
		       !test_read_file(ours, &got, &(size_t){ 0 }) &&
		       !test_read_file(theirs, &want, &(size_t){ 0 }) && !strcmp(got, want);
		if (!same && env->verbose)
			fprintf(stderr, "-F %s differs from upstream's (%s, %s)\n", field_sets[i],
				ours, theirs);
		free(want);
		free(got);
		TEST_ASSERT(env, same, "-F %s: ours differs from upstream's", field_sets[i]);
		nr_compared++;
	}
	if (env->verbose)
		fprintf(stderr, "%zu data_src values, %zu field sets compared with upstream\n",
			vals.nr, nr_compared);
	if (nr_compared < ARRAY_SIZE(field_sets))
		return test__partial(env, "%zu of %zu cases: %s", 1 + nr_compared,
				     1 + ARRAY_SIZE(field_sets), have_upstream ?
				     "upstream perf did not run, not compared with it" :
				     TEST_NO_UPSTREAM_PERF ", not compared with it");
	return TEST_OK;
}
