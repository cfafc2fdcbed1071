/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-rule.h - one user stack frame's unwinding rule, as data: where the caller's frame
 * (CFA), return address and saved frame pointer are, relative to the registers of the frame
 * being left. The FP walk, the function-entry frame, a row of the DWARF CFI and a decoded
 * prologue/epilogue all produce one; a single validated step (the unwinder's) applies it.
 *
 * Applying a rule to a frame with registers {sp, fp} (word size W, 8 or 4):
 *   CFA      = (base == UNWIND_BASE_FP ? fp : sp) + cfa_off
 *   RA       = the word at CFA + ra_off
 *   FP'      = fp_saved ? the word at CFA + fp_off : fp (unchanged)
 *   SP'      = CFA
 * The three rules everything starts from (x86, word size W):
 *   frame-pointer frame:  base FP, cfa_off 2W, ra_off -W, fp_saved, fp_off -2W
 *   entry frame:          base SP, cfa_off W,  ra_off -W, fp unchanged
 *   after `push %rbp`:    base SP, cfa_off 2W, ra_off -W, fp_saved, fp_off -2W
 */
#ifndef PERF_UTIL_UNWIND_RULE_H
#define PERF_UTIL_UNWIND_RULE_H

#include <stdbool.h>
#include <perf/abi.h>

enum unwind_base {
	UNWIND_BASE_SP,
	UNWIND_BASE_FP,
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
	s32	ra_off;
	s32	fp_off;		/* meaningful when fp_saved */
	u8	base;		/* enum unwind_base */
	bool	fp_saved;
	u8	source;		/* enum unwind_rule_source */
};

#endif /* PERF_UTIL_UNWIND_RULE_H */
