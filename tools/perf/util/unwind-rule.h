/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-rule.h - one user stack frame's unwinding rule, as data: where the caller's frame
 * (CFA), return address and frame pointer are, relative to the registers of the frame being
 * left. The FP walk, the function-entry frame, a decoded prologue/epilogue and a row of the
 * DWARF CFI all produce one; the single validated step (unwind-step.h) applies it.
 *
 * Applying a rule to a frame with registers {ip, sp, fp} (word size W, 8 or 4):
 *   CFA      = (base == UNWIND_BASE_FP ? fp : sp) + cfa_off
 *   RA       = ra: UNWIND_LOC_CFA the word at CFA + ra_off; UNWIND_LOC_VAL a value the
 *              provider computed; UNWIND_LOC_UNDEF none (the outermost frame)
 *   FP'      = fp: UNWIND_LOC_SAME fp; UNWIND_LOC_CFA the word at CFA + fp_off;
 *              UNWIND_LOC_VAL a computed value; UNWIND_LOC_UNDEF unknown
 *   SP'      = CFA
 * A save slot (UNWIND_LOC_CFA) lies in [SP, CFA): the frame being left owns those words.
 * The three rules everything starts from (x86, word size W):
 *   frame-pointer frame:  base FP, cfa_off 2W, RA at -W, FP at -2W
 *   entry frame:          base SP, cfa_off W,  RA at -W, FP same
 *   after `push %rbp`:    base SP, cfa_off 2W, RA at -W, FP at -2W
 * UNWIND_LOC_VAL is for the DWARF walk's rows that are not of this form (a CFA expression,
 * a register saved in another register, a signal frame restoring every register): the CFI
 * provider evaluates them over the frame's registers and hands the step the result.
 */
#ifndef PERF_UTIL_UNWIND_RULE_H
#define PERF_UTIL_UNWIND_RULE_H

#include <perf/abi.h>

enum unwind_base {
	UNWIND_BASE_SP,
	UNWIND_BASE_FP,
};

/* where the caller's RA or FP is */
enum unwind_loc {
	UNWIND_LOC_SAME,	/* FP only: unchanged, the frame being left's */
	UNWIND_LOC_CFA,		/* in the word at CFA + offset */
	UNWIND_LOC_VAL,		/* the value in the state (unwind_state's ra_val, fp_val) */
	UNWIND_LOC_UNDEF,	/* not recoverable */
};

/* which producer made a rule: frame provenance, and the statistics' rule names */
enum unwind_rule_source {
	UNWIND_SRC_FP,		/* the ordinary frame-pointer frame */
	UNWIND_SRC_ENTRY,	/* the function-entry frame (CFA = SP + W, RA = [SP]) */
	UNWIND_SRC_CFI,		/* a row of the DSO's .eh_frame / .debug_frame */
	UNWIND_SRC_INSN,	/* decoded from the function's instructions up to the ip */
	UNWIND_SRC_NR,
};

struct unwind_rule {
	s32	cfa_off;
	s32	ra_off;		/* ra == UNWIND_LOC_CFA */
	s32	fp_off;		/* fp == UNWIND_LOC_CFA */
	u8	base;		/* enum unwind_base */
	u8	ra;		/* enum unwind_loc */
	u8	fp;		/* enum unwind_loc */
	u8	source;		/* enum unwind_rule_source */
};

#endif /* PERF_UTIL_UNWIND_RULE_H */
