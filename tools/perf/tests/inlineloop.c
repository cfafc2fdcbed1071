// SPDX-License-Identifier: GPL-2.0
/*
 * inlineloop [SECONDS]: two functions inlined into a third, for upstream's
 * addr2line_inlines.sh, which reads the source lines of the frames: an inlined frame's
 * line must be in 20..29 of this file and its caller's in 30..39, so the code below
 * keeps its place (the blank lines and this comment are part of the layout).
 */
#include "workloads.h"
/* last: it sets the optimisation flags of what follows */
#include "workload.h"









static inline __attribute__((always_inline)) void inlined_leaf(struct spin *s)
{
	for (unsigned int i = 0; i < SPIN_BATCH; i++)
		s->acc += i;
}

static inline __attribute__((always_inline)) void inlined_parent(struct spin *s)
{
	inlined_leaf(s);
}

static WORKLOAD_FN void inlineloop(struct spin *s)
{
	do {
		inlined_parent(s);
	} while (!spin__expired(s));
}

int workload__inlineloop(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "inlineloop", argc, argv))
		return 1;
	inlineloop(&s);
	return 0;
}
