/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-walk.h - the frame walk over a sample's stack dump: from the sampled registers,
 * one validated step (unwind-step.h) per frame, each with the rule the caller's provider
 * gives for the frame's ip (CFI row, decoded prologue, entry frame), else the plain
 * frame-pointer rule the kernel uses.
 *
 * The walk knows nothing of DSOs or maps: the provider answers "which rule here" and "is
 * this a code address", so tests and the fuzz target drive it with synthetic stacks.
 */
#ifndef PERF_UTIL_UNWIND_WALK_H
#define PERF_UTIL_UNWIND_WALK_H

#include <stdbool.h>
#include "unwind-step.h"

struct unwind_walk_ops {
	/*
	 * The rule for the frame at ip (top: the sampled ip itself, else a return address,
	 * so the call is at ip - 1): 0 with *rule set, or a negative errno for "no rule here"
	 * (the walk then uses the frame-pointer rule). Required.
	 */
	int	(*rule)(void *arg, u64 ip, bool top, u32 ws, struct unwind_rule *rule);
	/* whether a return address is in code; NULL: every nonzero address is */
	bool	(*is_code)(void *arg, u64 ip);
	void	*arg;
};

/* frame 0 is the sampled registers' ip: no rule found it */
#define UNWIND_SRC_REGS	UNWIND_SRC_NR

/*
 * Walks from st (the sampled registers) over stack: ips[0] = st->ip, ips[i] the return
 * address the rule of frame i - 1 found, sources[i] that rule's source (sources[0] =
 * UNWIND_SRC_REGS; sources may be NULL). At most max frames (1 <= max <= UNWIND_MAX_FRAMES).
 * *top: the rule applied to the top frame (may be NULL); *why: why the walk ended
 * (UNWIND_STOP_END for a normal end, UNWIND_STOP_MAX_FRAMES at UNWIND_MAX_FRAMES frames,
 * UNWIND_OK when a smaller max was reached). Returns the number of frames; st is left at
 * the last frame.
 */
u32 unwind_walk(const struct unwind_walk_ops *ops, struct unwind_state *st,
		const struct unwind_stack *stack, u64 *ips, u8 *sources, u32 max,
		struct unwind_rule *top, enum unwind_stop *why);

/*
 * Where the kernel's user chain kern[0..k) (kern[0] the sampled ip) lines up with ours[0..n)
 * from unwind_walk(), for going on with the kernel's frames past the end of the dump:
 * ours[i] is kern[i + *d]. The kernel's FP walk misses the caller (d = -1) where the top
 * rule is not FP-based (entry, prologue before mov %rsp,%rbp, epilogue after pop %rbp: FP
 * is still the caller's there) and agrees (d = 0) otherwise. Frames without a frame pointer
 * above the top (libc's since glibc 2.41: read -> __syscall_cancel -> the syscall) are
 * missed too, one each: then the smallest shift further down that fits. Every frame both
 * have must match. false: no offset fits, the chains cannot be joined.
 */
bool unwind_chain__align(const u64 *ours, u32 n, const u64 *kern, u32 k,
			 const struct unwind_rule *top, int *d);

/*
 * When no offset fits (the dump ended inside frames without frame pointers, or the kernel
 * missed frames in the middle: libc's read -> __syscall_cancel -> __internal_syscall_cancel
 * since glibc 2.41, clock_gettime between the vDSO and its caller), where the kernel's chain
 * goes on with callers of the walk's last frame `last`. The kernel's frame-pointer walk is
 * replayed over the dump from the sampled fp0: from frame pointer f it took kern[i + 1] at
 * f + W and the next f at f. Where f is the last frame's frame pointer (no frame of the walk
 * moved it, or one restored it there) and lies at or above its SP, the kernel walked on from
 * the frame record of that frame or of one of its callers: kern[i + 1..] are callers. The
 * frames between (the last frame's direct caller, when the dump did not hold its return
 * address) are missing; the rest are right. Each replayed step must read what the kernel
 * read, where the dump holds it. The index i + 1 (>= 1), or 0: nothing of kern is believed.
 */
u32 unwind_chain__above(const struct unwind_state *last, const struct unwind_stack *stack,
			u64 fp0, bool fp0_unknown, const u64 *kern, u32 k);

#endif
