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

/* the expected offset first; nothing to compare: only the expected one is believed */
bool unwind_chain__align(const u64 *ours, u32 n, const u64 *kern, u32 k,
			  const struct unwind_rule *top, int *d_out)
{
	int first = top->base == UNWIND_BASE_FP ? 0 : -1;
	int tries[3] = { first, first ? 0 : -1, 1 };

	for (int t = 0; t < 3; t++) {
		int d = tries[t];
		u32 checked = 0;
		bool ok = true;

		for (u32 i = 1; i < n && ok; i++) {
			s64 j = (s64)i + d;

			if (j < 1 || j >= k)
				continue;
			ok = ours[i] == kern[j];
			checked++;
		}
		if (ok && (checked || t == 0)) {
			*d_out = d;
			return true;
		}
	}
	return false;
}
