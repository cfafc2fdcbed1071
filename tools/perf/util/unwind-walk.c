// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-walk.c - rules chosen per frame, applied by the one validated step.
 */
#include "unwind-walk.h"

u32 unwind_walk(const struct unwind_walk_ops *ops, struct unwind_state *st,
		const struct unwind_stack *stack, u64 *ips, u8 *sources, u32 max,
		struct unwind_rule *top, enum unwind_stop *why)
{
	enum unwind_stop stop = UNWIND_OK;
	u32 n = 0;

	ips[n] = st->ip;
	if (sources)
		sources[n] = UNWIND_SRC_REGS;
	n++;
	for (;;) {
		struct unwind_rule rule;
		struct unwind_state next = *st;

		if (ops->rule(ops->arg, st->ip, n == 1, st->ws, &rule))
			rule = unwind_rule__fp(st->ws);
		if (n == 1 && top)
			*top = rule;
		stop = unwind_step(&next, &rule, stack);
		if (stop != UNWIND_OK)
			break;
		if (ops->is_code && !ops->is_code(ops->arg, next.ip)) {
			stop = UNWIND_STOP_UNMAPPED;
			break;
		}
		/* the caller's room ends before the frame cap: no stop of the walk's own */
		if (n == max)
			break;
		*st = next;
		ips[n] = st->ip;
		if (sources)
			sources[n] = rule.source;
		n++;
	}
	*why = stop;
	return n;
}

/* whether ours[i] == kern[i + d] wherever both have frame i (at least one unless must) */
static bool chain__fits(const u64 *ours, u32 n, const u64 *kern, u32 k, int d, bool any)
{
	u32 checked = 0;

	for (u32 i = 1; i < n; i++) {
		s64 j = (s64)i + d;

		if (j < 1 || j >= k)
			continue;
		if (ours[i] != kern[j])
			return false;
		checked++;
	}
	return checked || any;
}

/*
 * The expected offset first (nothing to compare: only it is believed), the other one-frame
 * offsets, then more frames the kernel missed: the smallest shift keeps the most overlap,
 * which in a recursion is the one that does not repeat frames.
 */
bool unwind_chain__align(const u64 *ours, u32 n, const u64 *kern, u32 k,
			  const struct unwind_rule *top, int *d_out)
{
	int first = top->base == UNWIND_BASE_FP ? 0 : -1;
	int tries[3] = { first, first ? 0 : -1, 1 };

	for (int t = 0; t < 3; t++) {
		if (chain__fits(ours, n, kern, k, tries[t], t == 0)) {
			*d_out = tries[t];
			return true;
		}
	}
	for (int d = -2; d > -(int)n; d--) {
		if (chain__fits(ours, n, kern, k, d, false)) {
			*d_out = d;
			return true;
		}
	}
	return false;
}

u32 unwind_chain__above(const struct unwind_state *last, const struct unwind_stack *stack,
			u64 fp0, bool fp0_unknown, const u64 *kern, u32 k)
{
	const u32 ws = last->ws;
	u64 f = fp0, ra, next;

	if (fp0_unknown || last->fp_unknown)
		return 0;
	for (u32 i = 0; i + 1 < k; i++) {
		if (f == last->fp)
			return f >= last->sp ? i + 1 : 0;
		if (!unwind_stack__read(stack, f + ws, ws, &ra) || ra != kern[i + 1] ||
		    !unwind_stack__read(stack, f, ws, &next) || next <= f)
			return 0;
		f = next;
	}
	return 0;
}
