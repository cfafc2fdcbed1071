// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-step.c - applying one frame rule to a frame, with every check in one place.
 */
#include <string.h>
#include "unwind-step.h"

static const char *const stop_names[UNWIND_STOP_NR] = {
	[UNWIND_OK]			= "unwound",
	[UNWIND_STOP_END]		= "outermost frame",
	[UNWIND_STOP_FP_BELOW_SP]	= "frame pointer below the stack pointer",
	[UNWIND_STOP_LOOP]		= "CFA not above the stack pointer (loop)",
	[UNWIND_STOP_MISALIGNED]	= "misaligned CFA",
	[UNWIND_STOP_OUTSIDE_DUMP]	= "read outside the stack dump",
	[UNWIND_STOP_MAX_FRAMES]	= "too many frames",
	[UNWIND_STOP_NO_RULE]		= "no unwinding rule for the address",
	[UNWIND_STOP_UNMAPPED]		= "return address in no executable mapping",
};

const char *unwind_stop__name(enum unwind_stop why)
{
	return why < UNWIND_STOP_NR ? stop_names[why] : "unknown";
}

struct unwind_rule unwind_rule__fp(u32 ws)
{
	return (struct unwind_rule){
		.base = UNWIND_BASE_FP, .cfa_off = 2 * (s32)ws, .ra_off = -(s32)ws,
		.fp_saved = true, .fp_off = -2 * (s32)ws, .source = UNWIND_SRC_FP,
	};
}

struct unwind_rule unwind_rule__entry(u32 ws)
{
	return (struct unwind_rule){
		.base = UNWIND_BASE_SP, .cfa_off = (s32)ws, .ra_off = -(s32)ws,
		.source = UNWIND_SRC_ENTRY,
	};
}

static u64 word_mask(u32 ws)
{
	return ws == 4 ? 0xffffffffULL : ~0ULL;
}

bool unwind_stack__read(const struct unwind_stack *stack, u64 addr, u32 ws, u64 *val)
{
	u64 off = addr - stack->base;
	u32 v32;
	u64 v64;

	/* unsigned: an address below base wraps to a huge offset */
	if (addr < stack->base || off > stack->size || stack->size - off < ws)
		return false;
	if (ws == 4) {
		memcpy(&v32, stack->data + off, 4);
		*val = stack->swapped ? __builtin_bswap32(v32) : v32;
	} else {
		memcpy(&v64, stack->data + off, 8);
		*val = stack->swapped ? __builtin_bswap64(v64) : v64;
	}
	return true;
}

enum unwind_stop unwind_step(struct unwind_state *st, const struct unwind_rule *rule,
			     const struct unwind_stack *stack)
{
	u64 mask = word_mask(st->ws), cfa, ra, fp = st->fp;

	if (st->nr >= UNWIND_MAX_FRAMES)
		return UNWIND_STOP_MAX_FRAMES;
	/* the ABI's outermost frame: _start clears the frame pointer */
	if (rule->base == UNWIND_BASE_FP && !st->fp)
		return UNWIND_STOP_END;
	if (rule->base == UNWIND_BASE_FP && st->fp < st->sp)
		return UNWIND_STOP_FP_BELOW_SP;
	/* CFA: the caller's SP, the address just above the return address */
	cfa = ((rule->base == UNWIND_BASE_FP ? st->fp : st->sp) + (u64)(s64)rule->cfa_off) & mask;
	if (cfa <= st->sp)
		return UNWIND_STOP_LOOP;
	if (cfa & (st->ws - 1))
		return UNWIND_STOP_MISALIGNED;
	/* RA: where the call left it */
	if (!unwind_stack__read(stack, (cfa + (u64)(s64)rule->ra_off) & mask, st->ws, &ra))
		return UNWIND_STOP_OUTSIDE_DUMP;
	/* FP: restored from its save slot, or still the caller's own */
	if (rule->fp_saved &&
	    !unwind_stack__read(stack, (cfa + (u64)(s64)rule->fp_off) & mask, st->ws, &fp))
		return UNWIND_STOP_OUTSIDE_DUMP;
	if (!ra)
		return UNWIND_STOP_END;
	st->ip = ra & mask;
	st->sp = cfa;
	st->fp = fp & mask;
	st->nr++;
	return UNWIND_OK;
}
