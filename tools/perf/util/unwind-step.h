/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-step.h - the one validated step of the user-stack unwinder: a frame's registers
 * {ip, sp, fp} and a rule (unwind-rule.h) give the caller's registers, read from the sample's
 * stack dump. Every rule, whoever produced it (FP frame, entry frame, CFI row, decoded
 * prologue), goes through unwind_step(), which checks:
 *   - a rule based on FP: FP not below SP;
 *   - CFA strictly above SP (the stack only grows back towards the caller: no loops);
 *   - CFA aligned to the word size (8, or 4 for a compat process);
 *   - every read inside the dump's valid bytes (dyn_size), the dump being the memory at
 *     [base, base + size) where base is the sampled SP;
 *   - at most UNWIND_MAX_FRAMES steps (the walk counts them in the state).
 * The dump and the registers are untrusted; nothing here reads outside the dump.
 */
#ifndef PERF_UTIL_UNWIND_STEP_H
#define PERF_UTIL_UNWIND_STEP_H

#include <stdbool.h>
#include <perf/abi.h>
#include "unwind-rule.h"

/* the kernel's and perf's limit on a callchain's user part */
#define UNWIND_MAX_FRAMES	510

/* the sampled user stack: size valid bytes starting at address base, in file byte order */
struct unwind_stack {
	const u8	*data;
	u64		base;
	u64		size;
	bool		swapped;
};

/* one frame's registers; values are truncated to 32 bits for word size 4 */
struct unwind_state {
	u64	ip, sp, fp;
	u32	ws;		/* word size: 8, or 4 for compat */
	u32	nr;		/* steps taken */
};

/* why a step did not give a caller (UNWIND_OK: it did) */
enum unwind_stop {
	UNWIND_OK,
	UNWIND_STOP_END,		/* RA 0, or FP 0 for an FP-based rule: the outermost frame */
	UNWIND_STOP_FP_BELOW_SP,
	UNWIND_STOP_LOOP,		/* CFA not above SP */
	UNWIND_STOP_MISALIGNED,		/* CFA not a multiple of the word size */
	UNWIND_STOP_OUTSIDE_DUMP,	/* a read outside the dump (or past its dyn_size) */
	UNWIND_STOP_MAX_FRAMES,
	UNWIND_STOP_NO_RULE,		/* no rule for the ip (unknown code, unreadable) */
	UNWIND_STOP_UNMAPPED,		/* the RA is in no executable mapping */
	UNWIND_STOP_NR,
};

/* a short phrase for statistics ("read outside the stack dump", ...) */
const char *unwind_stop__name(enum unwind_stop why);

/* the three rules everything starts from (unwind-rule.h), for word size ws */
struct unwind_rule unwind_rule__fp(u32 ws);
struct unwind_rule unwind_rule__entry(u32 ws);

/* the word at addr: false when [addr, addr + ws) is not wholly inside the dump */
bool unwind_stack__read(const struct unwind_stack *stack, u64 addr, u32 ws, u64 *val);

/*
 * Applies rule to st: on UNWIND_OK st holds the caller's frame (ip = the return address,
 * sp = CFA, fp as the rule says) and st->nr is one more; on any other result st is
 * unchanged (UNWIND_STOP_END: the RA read was 0, st unchanged too).
 */
enum unwind_stop unwind_step(struct unwind_state *st, const struct unwind_rule *rule,
			     const struct unwind_stack *stack);

#endif
