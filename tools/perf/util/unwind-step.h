/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-step.h - the one validated step of the user-stack unwinder, for --unwind=fp and
 * --unwind=dwarf alike: a frame's registers {ip, sp, fp} and a rule (unwind-rule.h) give
 * the caller's, read from the sample's stack dump. Every rule, whoever produced it (FP
 * frame, entry frame, decoded prologue, CFI row), goes through unwind_step(), which checks:
 *   - at most UNWIND_MAX_FRAMES frames (the sampled one counts; the state counts steps);
 *   - RA undefined: the outermost frame;
 *   - a rule based on FP: FP known, not 0 (the outermost frame), not below SP;
 *   - CFA strictly above SP (the stack only grows back towards the caller: no loops);
 *   - CFA aligned to the word size (8, or 4 for a compat process);
 *   - every save slot in [SP, CFA), and inside the dump's valid bytes, the dump being
 *     the memory at [base, base + size) where base is the sampled SP.
 * The dump and the registers are untrusted; nothing here reads outside the dump.
 */
#ifndef PERF_UTIL_UNWIND_STEP_H
#define PERF_UTIL_UNWIND_STEP_H

#include <stdbool.h>
#include <string.h>
#include <perf/abi.h>
#include "unwind-rule.h"

/* the kernel's and perf's limit on a callchain's user part */
#define UNWIND_MAX_FRAMES	510

/*
 * The sampled user stack: size valid bytes starting at address base, in file byte order
 * (swapped: the other order than the host's). size is at most what data holds: the caller
 * clamps the sample's dyn_size to the dump's own size.
 */
struct unwind_stack {
	const u8	*data;
	u64		base;
	u64		size;
	bool		swapped;
};

/* one frame's registers; values are truncated to 32 bits for word size 4 */
struct unwind_state {
	u64	ip, sp, fp;
	/* the values of a rule's UNWIND_LOC_VAL, set by the provider for the next step */
	u64	ra_val, fp_val;
	u32	ws;		/* word size: 8, or 4 for compat */
	u32	nr;		/* steps taken */
	bool	fp_unknown;	/* fp holds no value (the sample has no bp, or a rule lost it) */
};

/* why a step, or a walk, did not give a caller (UNWIND_OK: it did) */
enum unwind_stop {
	UNWIND_OK,
	UNWIND_STOP_END,		/* RA undefined or 0, or FP 0 for an FP-based rule */
	UNWIND_STOP_FP_UNKNOWN,		/* an FP-based rule, and FP has no value */
	UNWIND_STOP_FP_BELOW_SP,
	UNWIND_STOP_LOOP,		/* CFA not above SP */
	UNWIND_STOP_MISALIGNED,		/* CFA not a multiple of the word size */
	UNWIND_STOP_SLOT,		/* a save slot outside [SP, CFA) */
	UNWIND_STOP_OUTSIDE_DUMP,	/* a read outside the dump (or past its dyn_size) */
	UNWIND_STOP_MAX_FRAMES,		/* UNWIND_MAX_FRAMES frames */
	UNWIND_STOP_NO_RULE,		/* dwarf: the CFI row cannot be evaluated here */
	UNWIND_STOP_UNMAPPED,		/* fp: the RA is in no executable mapping */
	UNWIND_STOP_NR,
};

/* a short phrase for statistics ("read outside the stack dump", ...) */
const char *unwind_stop__name(enum unwind_stop why);

/* the three rules everything starts from (unwind-rule.h), for word size ws */
struct unwind_rule unwind_rule__fp(u32 ws);
struct unwind_rule unwind_rule__entry(u32 ws);

/*
 * The size bytes (1..8) at addr as a number, in the dump's byte order: false when
 * [addr, addr + size) is not wholly inside the dump. Inline: both walks read every saved
 * register through it, several times a frame.
 */
static inline bool unwind_stack__read(const struct unwind_stack *stack, u64 addr, u32 size, u64 *val)
{
	const bool host_le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	u64 off = addr - stack->base, v = 0;
	const u8 *p;

	/* unsigned: an address below base wraps to a huge offset */
	if (addr < stack->base || off > stack->size || stack->size - off < size || !size ||
	    size > 8)
		return false;
	p = stack->data + off;
	if (size == 8 && !stack->swapped) {
		memcpy(&v, p, 8);
	} else if (host_le != stack->swapped) {
		/* the dump is the traced machine's memory: its byte order is the file's */
		for (u32 i = size; i-- > 0;)
			v = v << 8 | p[i];
	} else {
		for (u32 i = 0; i < size; i++)
			v = v << 8 | p[i];
	}
	*val = v;
	return true;
}

/*
 * Applies rule to st: on UNWIND_OK st holds the caller's frame (ip = the return address,
 * sp = CFA, fp as the rule says) and st->nr is one more; on any other result st is
 * unchanged.
 */
enum unwind_stop unwind_step(struct unwind_state *st, const struct unwind_rule *rule,
			     const struct unwind_stack *stack);

#endif
