// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-step.c - applying one frame rule to a frame, with every check in one place.
 */
#include <string.h>
#include "unwind-step.h"

static const char *const stop_names[UNWIND_STOP_NR] = {
	[UNWIND_OK]			= "unwound",
	[UNWIND_STOP_END]		= "outermost frame",
	[UNWIND_STOP_FP_UNKNOWN]	= "frame pointer unknown",
	[UNWIND_STOP_FP_BELOW_SP]	= "frame pointer below the stack pointer",
	[UNWIND_STOP_LOOP]		= "CFA not above the stack pointer (loop)",
	[UNWIND_STOP_MISALIGNED]	= "misaligned CFA",
	[UNWIND_STOP_SLOT]		= "save slot outside the frame",
	[UNWIND_STOP_OUTSIDE_DUMP]	= "read outside the stack dump",
	[UNWIND_STOP_MAX_FRAMES]	= "too many frames",
	[UNWIND_STOP_NO_RULE]		= "CFI row not computable (register lost or expression failed)",
	[UNWIND_STOP_UNMAPPED]		= "return address in no executable mapping",
};

const char *unwind_stop__name(enum unwind_stop why)
{
	return why < UNWIND_STOP_NR ? stop_names[why] : "unknown";
}

struct unwind_rule unwind_rule__fp(u32 ws)
{
	return (struct unwind_rule){
		.base = UNWIND_BASE_FP, .cfa_off = 2 * (s32)ws,
		.ra = UNWIND_LOC_CFA, .ra_off = -(s32)ws,
		.fp = UNWIND_LOC_CFA, .fp_off = -2 * (s32)ws, .source = UNWIND_SRC_FP,
	};
}

struct unwind_rule unwind_rule__entry(u32 ws)
{
	return (struct unwind_rule){
		.base = UNWIND_BASE_SP, .cfa_off = (s32)ws, .ra = UNWIND_LOC_CFA, .ra_off = -(s32)ws,
		.fp = UNWIND_LOC_SAME, .source = UNWIND_SRC_ENTRY,
	};
}

static u64 word_mask(u32 ws)
{
	return ws == 4 ? 0xffffffffULL : ~0ULL;
}

/* the word at CFA + off, a slot of the frame being left: inside [SP, CFA) and the dump */
static enum unwind_stop read_slot(const struct unwind_state *st, const struct unwind_stack *stack,
				  u64 cfa, s32 off, u64 *val)
{
	u64 addr = (cfa + (u64)(s64)off) & word_mask(st->ws);

	if (addr < st->sp || addr >= cfa || cfa - addr < st->ws)
		return UNWIND_STOP_SLOT;
	return unwind_stack__read(stack, addr, st->ws, val) ? UNWIND_OK : UNWIND_STOP_OUTSIDE_DUMP;
}

enum unwind_stop unwind_step(struct unwind_state *st, const struct unwind_rule *rule,
			     const struct unwind_stack *stack)
{
	u64 mask = word_mask(st->ws), cfa, ra, fp = st->fp;
	bool fp_unknown = st->fp_unknown;
	enum unwind_stop ret;

	/* the sampled frame is the first */
	if (st->nr + 1 >= UNWIND_MAX_FRAMES)
		return UNWIND_STOP_MAX_FRAMES;
	if (rule->ra != UNWIND_LOC_CFA && rule->ra != UNWIND_LOC_VAL)
		return UNWIND_STOP_END;
	if (rule->base == UNWIND_BASE_FP) {
		if (st->fp_unknown)
			return UNWIND_STOP_FP_UNKNOWN;
		/* the ABI's outermost frame: _start clears the frame pointer */
		if (!st->fp)
			return UNWIND_STOP_END;
		if (st->fp < st->sp)
			return UNWIND_STOP_FP_BELOW_SP;
	}
	/* CFA: the caller's SP, the address just above the return address */
	cfa = ((rule->base == UNWIND_BASE_FP ? st->fp : st->sp) + (u64)(s64)rule->cfa_off) & mask;
	if (cfa <= st->sp)
		return UNWIND_STOP_LOOP;
	if (cfa & (st->ws - 1))
		return UNWIND_STOP_MISALIGNED;
	/* RA: where the call left it */
	if (rule->ra == UNWIND_LOC_VAL)
		ra = st->ra_val;
	else if ((ret = read_slot(st, stack, cfa, rule->ra_off, &ra)))
		return ret;
	/* FP: restored from its save slot, given, still the caller's own, or lost */
	switch (rule->fp) {
	case UNWIND_LOC_CFA:
		if ((ret = read_slot(st, stack, cfa, rule->fp_off, &fp)))
			return ret;
		fp_unknown = false;
		break;
	case UNWIND_LOC_VAL:
		fp = st->fp_val;
		fp_unknown = false;
		break;
	case UNWIND_LOC_UNDEF:
		fp = 0;
		fp_unknown = true;
		break;
	default:
		/* UNWIND_LOC_SAME: the frame's own FP, as it came */
		break;
	}
	if (!ra)
		return UNWIND_STOP_END;
	st->ip = ra & mask;
	st->sp = cfa;
	st->fp = fp & mask;
	st->fp_unknown = fp_unknown;
	st->nr++;
	return UNWIND_OK;
}
