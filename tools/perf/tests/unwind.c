// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder's parts on synthetic input: the prologue/epilogue decoder at every state of
 * hand-assembled functions, the validated step on good and corrupt frame chains (loop,
 * misaligned, outside the dump, FP below SP, save slots outside the frame, FP unknown, RA
 * and FP as values, cut by dyn_size, too many frames), the dump read in both byte orders, a compat
 * (4-byte word) stack, the walk with a top-frame rule, and the join with the kernel's chain.
 */
#include <errno.h>
#include <string.h>
#include "../util/unwind-insn.h"
#include "../util/unwind-walk.h"
#include "tests.h"

/* the rule the decoder must give at ip_off: base, cfa_off, fp_saved/fp_off, source */
struct insn_want {
	size_t	ip_off;
	int	ret;
	u8	base;
	s32	cfa_off;
	bool	fp_saved;
	s32	fp_off;
	u8	source;
};

static int check_insn(const struct test_env *env, const char *name, const u8 *code, size_t len,
		      u32 ws, const struct insn_want *w, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct unwind_rule r = { 0 };
		int ret = unwind_insn__rule(code, len, w[i].ip_off, ws, &r);
		bool fp_saved;

		TEST_ASSERT(env, ret == w[i].ret, "%s at %#zx: returned %d, want %d", name,
			    w[i].ip_off, ret, w[i].ret);
		if (ret)
			continue;
		fp_saved = r.fp == UNWIND_LOC_CFA;

		TEST_ASSERT(env, r.base == w[i].base && r.cfa_off == w[i].cfa_off &&
			    r.ra == UNWIND_LOC_CFA && r.ra_off == -(s32)ws &&
			    (fp_saved || r.fp == UNWIND_LOC_SAME) && fp_saved == w[i].fp_saved &&
			    (!fp_saved || r.fp_off == w[i].fp_off) && r.source == w[i].source,
			    "%s at %#zx: base %u cfa %d fp %u fp_off %d source %u", name,
			    w[i].ip_off, r.base, r.cfa_off, r.fp, r.fp_off, r.source);
	}
	return TEST_OK;
}

#define SP	UNWIND_BASE_SP
#define FP	UNWIND_BASE_FP
#define ENTRY	UNWIND_SRC_ENTRY
#define INSN	UNWIND_SRC_INSN

static int test_insn(const struct test_env *env)
{
	/* -fcf-protection with a frame pointer, a saved register and locals */
	static const u8 cet[] = {
		0xf3, 0x0f, 0x1e, 0xfa,		/* 0: endbr64 */
		0x55,				/* 4: push %rbp */
		0x48, 0x89, 0xe5,		/* 5: mov %rsp,%rbp */
		0x53,				/* 8: push %rbx */
		0x48, 0x83, 0xec, 0x18,		/* 9: sub $0x18,%rsp */
		0x89, 0xf8,			/* d: mov %edi,%eax */
		0x48, 0x8b, 0x5d, 0xf8,		/* f: mov -0x8(%rbp),%rbx */
		0xc9,				/* 13: leave */
		0xc3,				/* 14: ret */
	};
	static const struct insn_want cet_want[] = {
		{ 0x00, 0, SP, 8, false, 0, ENTRY },		/* first instruction */
		{ 0x04, 0, SP, 8, false, 0, ENTRY },		/* right after endbr64 */
		{ 0x05, 0, SP, 16, true, -16, INSN },		/* between push and mov */
		{ 0x08, 0, FP, 16, true, -16, INSN },
		{ 0x09, 0, FP, 16, true, -16, INSN },
		{ 0x0d, 0, FP, 16, true, -16, INSN },
		{ 0x13, 0, FP, 16, true, -16, INSN },		/* at leave */
		{ 0x14, 0, SP, 8, false, 0, ENTRY },		/* at ret, after leave */
		{ 0x01, -ENOENT },				/* inside endbr64 */
		{ 0x15, -ENOENT },				/* past the code */
	};
	/* gcc schedules other instructions between push %rbp and mov %rsp,%rbp */
	static const u8 sched[] = {
		0x55,				/* 0: push %rbp */
		0x48, 0x89, 0xfa,		/* 1: mov %rdi,%rdx */
		0x8d, 0x44, 0x3f, 0x01,		/* 4: lea 0x1(%rdi,%rdi,1),%eax */
		0x48, 0x89, 0xe5,		/* 8: mov %rsp,%rbp */
		0x5d,				/* b: pop %rbp */
		0xc3,				/* c: ret */
	};
	static const struct insn_want sched_want[] = {
		{ 0x1, 0, SP, 16, true, -16, INSN }, { 0x4, 0, SP, 16, true, -16, INSN },
		{ 0x8, 0, SP, 16, true, -16, INSN }, { 0xb, 0, FP, 16, true, -16, INSN },
		{ 0xc, 0, SP, 8, false, 0, ENTRY },
	};
	/* a frameless leaf with a stack adjustment, and a second exit after a mid-body ret */
	static const u8 leaf[] = {
		0x48, 0x83, 0xec, 0x28,		/* 0: sub $0x28,%rsp */
		0x48, 0x89, 0x3c, 0x24,		/* 4: mov %rdi,(%rsp) */
		0xe8, 0, 0, 0, 0,		/* 8: call */
		0x48, 0x83, 0xc4, 0x28,		/* d: add $0x28,%rsp */
		0xc3,				/* 11: ret */
		0x0f, 0x1f, 0x44, 0x00, 0x00,	/* 12: nopl 0x0(%rax,%rax,1) (reached by a branch) */
		0x48, 0x81, 0xc4, 0x28, 0, 0, 0,	/* 17: add $0x28,%rsp */
		0xc3,				/* 1e: ret */
	};
	static const struct insn_want leaf_want[] = {
		{ 0x04, 0, SP, 0x30, false, 0, INSN }, { 0x0d, 0, SP, 0x30, false, 0, INSN },
		{ 0x11, 0, SP, 8, false, 0, ENTRY }, { 0x12, 0, SP, 0x30, false, 0, INSN },
		{ 0x17, 0, SP, 0x30, false, 0, INSN }, { 0x1e, 0, SP, 8, false, 0, ENTRY },
	};
	/* a saved callee register around VEX and EVEX instructions (a libc string function) */
	static const u8 vex[] = {
		0x41, 0x54,				/* 0: push %r12 */
		0xc5, 0xfd, 0x6f, 0x06,			/* 2: vmovdqa (%rsi),%ymm0 */
		0x62, 0xf1, 0x7c, 0x48, 0x10, 0x06,	/* 6: vmovups (%rsi),%zmm0 */
		0xc4, 0xe3, 0x7d, 0x18, 0xc1, 0x01,	/* c: vinsertf128 $1,%xmm1,%ymm0,%ymm0 */
		0x41, 0x5c,				/* 12: pop %r12 */
		0xc3,					/* 14: ret */
	};
	static const struct insn_want vex_want[] = {
		{ 0x02, 0, SP, 16, false, 0, INSN }, { 0x06, 0, SP, 16, false, 0, INSN },
		{ 0x0c, 0, SP, 16, false, 0, INSN }, { 0x12, 0, SP, 16, false, 0, INSN },
		{ 0x14, 0, SP, 8, false, 0, ENTRY },
	};
	/* a stack realignment without a frame pointer cannot be followed */
	static const u8 realign[] = {
		0x48, 0x83, 0xe4, 0xf0,		/* 0: and $-16,%rsp */
		0xc3,				/* 4: ret */
	};
	static const struct insn_want realign_want[] = { { 0x4, -EOPNOTSUPP } };
	/* 32-bit code (compat): no REX, 4-byte words */
	static const u8 code32[] = {
		0x55,				/* 0: push %ebp */
		0x89, 0xe5,			/* 1: mov %esp,%ebp */
		0x83, 0xec, 0x08,		/* 3: sub $8,%esp */
		0x40,				/* 6: inc %eax (a REX prefix in 64-bit mode) */
		0xc9,				/* 7: leave */
		0xc3,				/* 8: ret */
	};
	static const struct insn_want code32_want[] = {
		{ 0x1, 0, SP, 8, true, -8, INSN }, { 0x3, 0, FP, 8, true, -8, INSN },
		{ 0x7, 0, FP, 8, true, -8, INSN }, { 0x8, 0, SP, 4, false, 0, ENTRY },
	};

	if (check_insn(env, "cet", cet, sizeof(cet), 8, cet_want, 10) ||
	    check_insn(env, "sched", sched, sizeof(sched), 8, sched_want, 5) ||
	    check_insn(env, "leaf", leaf, sizeof(leaf), 8, leaf_want, 6) ||
	    check_insn(env, "vex", vex, sizeof(vex), 8, vex_want, 5) ||
	    check_insn(env, "realign", realign, sizeof(realign), 8, realign_want, 1) ||
	    check_insn(env, "code32", code32, sizeof(code32), 4, code32_want, 4))
		return TEST_FAIL;
	/* a cut instruction is no instruction: the decoder never reads past len */
	{
		struct unwind_rule r;

		TEST_ASSERT(env, unwind_insn__rule(cet, 7, 6, 8, &r) == -EOPNOTSUPP,
			    "an instruction cut by len");
	}
	return TEST_OK;
}

/* a synthetic stack: words at BASE, BASE + ws, ... */
#define BASE	0x7ffd0000ULL
#define NWORDS	64

struct fake_stack {
	u64	words[NWORDS];
	u32	w32[NWORDS];
};

static struct unwind_stack stack_of(const struct fake_stack *fs, u32 ws, u64 size)
{
	return (struct unwind_stack){
		.data = ws == 8 ? (const u8 *)fs->words : (const u8 *)fs->w32, .base = BASE,
		.size = size, .swapped = false,
	};
}

static void put(struct fake_stack *fs, u32 ws, u32 idx, u64 v)
{
	if (ws == 8)
		fs->words[idx] = v;
	else
		fs->w32[idx] = (u32)v;
}

/*
 * A frame-pointer chain of three frames: fp0 = word 2, [fp0] = word 6, [fp0 + ws] = RA1,
 * [word 6] = word 12, [word 6 + 1] = RA2, [word 12] = 0 (outermost), [word 13] = RA3.
 */
static void build_chain(struct fake_stack *fs, u32 ws)
{
	memset(fs, 0, sizeof(*fs));
	put(fs, ws, 2, BASE + 6 * ws);
	put(fs, ws, 3, 0x401010);
	put(fs, ws, 6, BASE + 12 * ws);
	put(fs, ws, 7, 0x402020);
	put(fs, ws, 12, 0);
	put(fs, ws, 13, 0x403030);
}

struct fake_provider {
	struct unwind_rule	top;
	bool			have_top;
};

static int fake_rule(void *arg, u64 ip, bool top, u32 ws, struct unwind_rule *rule)
{
	struct fake_provider *p = arg;

	(void)ip, (void)ws;
	if (!top || !p->have_top)
		return -ENOENT;
	*rule = p->top;
	return 0;
}

static int test_step(const struct test_env *env, u32 ws)
{
	struct fake_provider prov = { 0 };
	struct unwind_walk_ops ops = { .rule = fake_rule, .arg = &prov };
	struct fake_stack fs;
	struct unwind_stack stack;
	struct unwind_state st;
	struct unwind_rule fp = unwind_rule__fp(ws), bad;
	enum unwind_stop why;
	u64 ips[8];
	u8 src[8];
	u32 n;

	build_chain(&fs, ws);
	stack = stack_of(&fs, ws, NWORDS * ws);
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws };
	n = unwind_walk(&ops, &st, &stack, ips, src, 8, NULL, &why);
	TEST_ASSERT(env, n == 4 && ips[1] == 0x401010 && ips[2] == 0x402020 && ips[3] == 0x403030 &&
		    why == UNWIND_STOP_END && src[0] == UNWIND_SRC_REGS && src[1] == UNWIND_SRC_FP,
		    "ws %u: chain of %u frames, ended %d", ws, n, why);

	/* cut by dyn_size inside the second frame's save slots */
	stack = stack_of(&fs, ws, 7 * ws);
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws };
	n = unwind_walk(&ops, &st, &stack, ips, NULL, 8, NULL, &why);
	TEST_ASSERT(env, n == 2 && why == UNWIND_STOP_OUTSIDE_DUMP,
		    "ws %u: a dump cut at 7 words gives %u frames, %d", ws, n, why);
	/* a dump of nothing: not even the first frame's RA */
	stack = stack_of(&fs, ws, 0);
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws };
	n = unwind_walk(&ops, &st, &stack, ips, NULL, 8, NULL, &why);
	TEST_ASSERT(env, n == 1 && why == UNWIND_STOP_OUTSIDE_DUMP, "empty dump: %u %d", n, why);

	stack = stack_of(&fs, ws, NWORDS * ws);
	/* a loop: the frame's saved FP is the frame itself */
	put(&fs, ws, 6, BASE + 6 * ws);
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws };
	n = unwind_walk(&ops, &st, &stack, ips, NULL, 8, NULL, &why);
	TEST_ASSERT(env, n == 3 && why == UNWIND_STOP_FP_BELOW_SP, "loop: %u %d", n, why);
	/* FP below SP at the start */
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE + 8 * ws, .fp = BASE + 2 * ws, .ws = ws };
	TEST_ASSERT(env, unwind_step(&st, &fp, &stack) == UNWIND_STOP_FP_BELOW_SP, "FP below SP");
	TEST_ASSERT(env, st.sp == BASE + 8 * ws && st.nr == 0, "a failed step changes nothing");
	/* misaligned */
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws + 1, .ws = ws };
	TEST_ASSERT(env, unwind_step(&st, &fp, &stack) == UNWIND_STOP_MISALIGNED, "misaligned");
	/* pointing outside the dump, above and far below (wrapping) */
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + NWORDS * ws, .ws = ws };
	TEST_ASSERT(env, unwind_step(&st, &fp, &stack) == UNWIND_STOP_OUTSIDE_DUMP, "above the dump");
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = ws == 8 ? ~0ULL - 7 : 0xfffffff8,
				    .ws = ws };
	TEST_ASSERT(env, unwind_step(&st, &fp, &stack) != UNWIND_OK, "a wrapping CFA");
	/* a rule whose CFA does not move up: a loop the step refuses */
	bad = unwind_rule__entry(ws);
	bad.cfa_off = 0;
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = 0, .ws = ws };
	TEST_ASSERT(env, unwind_step(&st, &bad, &stack) == UNWIND_STOP_LOOP, "CFA == SP");
	/* save slots outside the frame being left, [SP, CFA): at the CFA, and below SP */
	bad = unwind_rule__entry(ws);
	bad.ra_off = 0;
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE + 4 * ws, .fp = 0, .ws = ws };
	TEST_ASSERT(env, unwind_step(&st, &bad, &stack) == UNWIND_STOP_SLOT, "RA at the CFA");
	bad = unwind_rule__entry(ws);
	bad.fp = UNWIND_LOC_CFA;
	bad.fp_off = -2 * (s32)ws;
	TEST_ASSERT(env, unwind_step(&st, &bad, &stack) == UNWIND_STOP_SLOT, "FP below SP");
	TEST_ASSERT(env, st.sp == BASE + 4 * ws && st.nr == 0, "a failed step changes nothing");
	/* FP unknown: an FP-based rule cannot start; an SP-based one keeps it unknown */
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws,
				    .fp_unknown = true };
	TEST_ASSERT(env, unwind_step(&st, &fp, &stack) == UNWIND_STOP_FP_UNKNOWN, "FP unknown");
	bad = unwind_rule__entry(ws);
	put(&fs, ws, 0, 0x404040);
	TEST_ASSERT(env, unwind_step(&st, &bad, &stack) == UNWIND_OK && st.fp_unknown &&
		    st.ip == 0x404040 && st.sp == BASE + ws, "entry rule, FP unknown");
	/* RA and FP as values (a CFI expression's), and RA undefined: the outermost frame */
	bad.ra = UNWIND_LOC_VAL;
	bad.fp = UNWIND_LOC_VAL;
	st.ra_val = 0x405050;
	st.fp_val = BASE + 8 * ws;
	TEST_ASSERT(env, unwind_step(&st, &bad, &stack) == UNWIND_OK && !st.fp_unknown &&
		    st.ip == 0x405050 && st.fp == BASE + 8 * ws && st.sp == BASE + 2 * ws,
		    "values");
	bad.ra = UNWIND_LOC_UNDEF;
	TEST_ASSERT(env, unwind_step(&st, &bad, &stack) == UNWIND_STOP_END, "RA undefined");
	build_chain(&fs, ws);
	/* too many frames */
	st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws,
				    .nr = UNWIND_MAX_FRAMES };
	TEST_ASSERT(env, unwind_step(&st, &fp, &stack) == UNWIND_STOP_MAX_FRAMES, "max frames");

	/*
	 * A frameless leaf: RA at [SP] (word 0), FP still the caller's frame (word 2). The
	 * kernel's chain misses the leaf's caller; the entry rule finds it and the rest joins.
	 */
	build_chain(&fs, ws);
	put(&fs, ws, 0, 0x405050);
	prov.top = unwind_rule__entry(ws);
	prov.have_top = true;
	{
		u64 kern[] = { 0x400000, 0x401010, 0x402020, 0x403030 };
		struct unwind_rule top;
		int d;

		stack = stack_of(&fs, ws, NWORDS * ws);
		st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws };
		n = unwind_walk(&ops, &st, &stack, ips, src, 8, &top, &why);
		TEST_ASSERT(env, n == 5 && ips[1] == 0x405050 && ips[2] == 0x401010 &&
			    src[1] == UNWIND_SRC_ENTRY && src[2] == UNWIND_SRC_FP && why == UNWIND_STOP_END,
			    "ws %u: frameless leaf: %u frames, caller %#llx", ws, n,
			    (unsigned long long)ips[1]);
		/* cut after two frames: the kernel's frames go on from the matching one */
		stack = stack_of(&fs, ws, 4 * ws);
		st = (struct unwind_state){ .ip = 0x400000, .sp = BASE, .fp = BASE + 2 * ws, .ws = ws };
		n = unwind_walk(&ops, &st, &stack, ips, src, 8, &top, &why);
		TEST_ASSERT(env, n == 3 && why == UNWIND_STOP_OUTSIDE_DUMP, "cut leaf: %u %d", n, why);
		TEST_ASSERT(env, unwind_chain__align(ips, n, kern, 4, &top, &d) && d == -1,
			    "leaf joins at d -1");
		/* FP-based top: the kernel agrees; a chain that disagrees does not join */
		top = unwind_rule__fp(ws);
		TEST_ASSERT(env, unwind_chain__align(kern, 2, kern, 4, &top, &d) && d == 0, "d 0");
		kern[2] = 0x999999;
		kern[1] = 0x888888;
		TEST_ASSERT(env, !unwind_chain__align(ips, n, kern, 4, &top, &d), "no join");
	}
	{
		/* three frames without frame pointers the kernel missed (glibc >= 2.41's read) */
		u64 ours[] = { 0x400000, 0x410000, 0x420000, 0x430000, 0x401010, 0x402020 };
		u64 kern[] = { 0x400000, 0x401010, 0x402020, 0x403030, 0x404040 };
		/* a recursion: the smallest shift, which repeats no frame */
		u64 rours[] = { 0x400000, 0x410000, 0x420000, 0x401010, 0x401010, 0x401010 };
		u64 rkern[] = { 0x400000, 0x401010, 0x401010, 0x401010, 0x401010, 0x401010,
				0x401010, 0x409090 };
		struct unwind_rule top = unwind_rule__entry(ws);
		struct unwind_state last;
		int d;

		TEST_ASSERT(env, unwind_chain__align(ours, 6, kern, 5, &top, &d) && d == -3,
			    "ws %u: three missed frames: d %d", ws, d);
		TEST_ASSERT(env, unwind_chain__align(rours, 6, rkern, 8, &top, &d) && d == -2,
			    "ws %u: recursion: d %d", ws, d);
		TEST_ASSERT(env, !unwind_chain__align(ours, 4, kern, 5, &top, &d),
			    "ws %u: nothing in common, no join", ws);
		/*
		 * Past the walk: the kernel's FP walk replayed from the sampled fp. Records at
		 * words 2 (-> 6, RA 0x403030) and 6 (-> 10, RA 0x404040), dump of 8 words.
		 */
		{
			u64 k2[] = { 0x400000, 0x403030, 0x404040, 0x405050 };
			const u64 f2 = BASE + 2 * ws, f6 = BASE + 6 * ws;

			memset(&fs, 0, sizeof(fs));
			put(&fs, ws, 2, f6);
			put(&fs, ws, 3, 0x403030);
			put(&fs, ws, 6, BASE + 10 * ws);
			put(&fs, ws, 7, 0x404040);
			stack = stack_of(&fs, ws, 8 * ws);
			/* the last frame kept the sampled fp: all of the kernel's frames */
			last = (struct unwind_state){ .sp = BASE + ws, .fp = f2, .ws = ws };
			TEST_ASSERT(env, unwind_chain__above(&last, &stack, f2, false, k2, 4) == 1,
				    "ws %u: fp unchanged", ws);
			TEST_ASSERT(env, !unwind_chain__above(&last, &stack, f2, true, k2, 4),
				    "ws %u: fp unknown", ws);
			/* the kernel missed a frame in the middle: on from the second record */
			last.sp = BASE + 5 * ws;
			last.fp = f6;
			TEST_ASSERT(env, unwind_chain__above(&last, &stack, f2, false, k2, 4) == 2,
				    "ws %u: on from the second record", ws);
			/* what the kernel read is not what the dump says: nothing */
			k2[1] = 0x999999;
			TEST_ASSERT(env, !unwind_chain__above(&last, &stack, f2, false, k2, 4),
				    "ws %u: the kernel read another RA", ws);
			k2[1] = 0x403030;
			/* a frame pointer below the last frame's SP, or no record to it */
			last.sp = BASE + 7 * ws;
			TEST_ASSERT(env, !unwind_chain__above(&last, &stack, f2, false, k2, 4),
				    "ws %u: fp below sp", ws);
			last.sp = BASE + 5 * ws;
			last.fp = BASE + 4 * ws;
			TEST_ASSERT(env, !unwind_chain__above(&last, &stack, f2, false, k2, 4),
				    "ws %u: fp on no record", ws);
			last.fp = f6;
			last.fp_unknown = true;
			TEST_ASSERT(env, !unwind_chain__above(&last, &stack, f2, false, k2, 4),
				    "ws %u: fp lost", ws);
		}
	}
	return TEST_OK;
}

/* a dump of the other byte order: its words read as the traced machine stored them */
static int test_swapped_read(const struct test_env *env)
{
	static const u8 bytes[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	const bool host_le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	struct unwind_stack stack = { .data = bytes, .base = BASE, .size = 8 };
	u64 le = 0x8877665544332211ULL, be = 0x1122334455667788ULL, v;

	for (int swapped = 0; swapped < 2; swapped++) {
		bool little = host_le != swapped;

		stack.swapped = swapped;
		TEST_ASSERT(env, unwind_stack__read(&stack, BASE, 8, &v) && v == (little ? le : be),
			    "swapped %d: 8 bytes %#llx", swapped, (unsigned long long)v);
		TEST_ASSERT(env, unwind_stack__read(&stack, BASE + 4, 4, &v) &&
			    v == (little ? 0x88776655ULL : 0x55667788ULL),
			    "swapped %d: 4 bytes %#llx", swapped, (unsigned long long)v);
		TEST_ASSERT(env, unwind_stack__read(&stack, BASE + 1, 2, &v) &&
			    v == (little ? 0x3322ULL : 0x2233ULL),
			    "swapped %d: 2 bytes %#llx", swapped, (unsigned long long)v);
		TEST_ASSERT(env, !unwind_stack__read(&stack, BASE + 4, 5, &v) &&
			    !unwind_stack__read(&stack, BASE - 1, 1, &v) &&
			    !unwind_stack__read(&stack, BASE, 9, &v) &&
			    !unwind_stack__read(&stack, BASE, 0, &v), "swapped %d: bounds", swapped);
	}
	return TEST_OK;
}

DEFINE_SUITE(unwind)
{
	if (test_insn(env) || test_step(env, 8) || test_step(env, 4) || test_swapped_read(env))
		return TEST_FAIL;
	return TEST_OK;
}
