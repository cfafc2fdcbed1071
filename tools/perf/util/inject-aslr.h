/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject-aslr.h - perf inject --aslr: every address of the recording moved as another
 * address-space layout would have placed it, so that a file can be shared without the
 * layout of the machine it was recorded on (the ASLR and KASLR offsets) while every sample
 * still resolves to the same symbols.
 *
 * The layout, drawn at random for each run:
 *  - the kernel half (top bit set) moves down by one slide, a multiple of 2 MB, as KASLR
 *    slides the kernel and its modules together;
 *  - the user half is rotated: the addresses below a cut point W move to the top of the
 *    user range and those above it to its bottom, (addr - W) mod the range. W lies in the
 *    hole between where executables and where libraries are placed (x86-64: 0x6000... to
 *    0x7000..., of 2^47), so the executable, the libraries and the stack land elsewhere
 *    and in another order, while every mapping keeps its size and the maps' overlaps stay
 *    what they were. A mapping across W (none in the usual layouts) would be cut in two:
 *    such maps are counted for -v. User addresses at or past the range and 0 (no address)
 *    stay.
 * A user map keeps its pgoff (a file offset): readers resolve ip - start + pgoff, which the
 * move does not change. The kernel map's pgoff is the address _text had, from which readers
 * relocate kallsyms (its _text now against that one): it moves with the map, and the
 * kernel's symbols with it.
 *
 * What moves: MMAP and MMAP2 starts, KSYMBOL and TEXT_POKE addresses; in samples the ip,
 * the callchain (not its context markers and deferred cookie), the branch stack and the
 * data address. What would tell the layout and cannot move goes: samples with physical
 * addresses or user stack dumps are dropped, and user and interrupt registers leave the
 * samples (the caller's attrs).
 *
 * Owns nothing but its numbers. No global state.
 */
#ifndef PERF_UTIL_INJECT_ASLR_H
#define PERF_UTIL_INJECT_ASLR_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/event.h>

struct inject_aslr {
	u64	user_end;	/* the user range: [0, user_end) */
	u64	cut;		/* W, page aligned */
	u64	kernel_slide;	/* subtracted from the kernel half's addresses */
	u64	dropped;	/* samples dropped */
	u64	straddling;	/* maps across W */
};

/*
 * The layout for a recording of arch (the header's, NULL: x86_64's), from seed (random
 * bits: the caller's getrandom)
 */
void inject_aslr__init(struct inject_aslr *a, const char *arch, u64 seed);
/* an address where the new layout puts it */
u64 inject_aslr__addr(const struct inject_aslr *a, u64 addr);
/*
 * A sample moved: its ip, addr, callchain (into chain, room for callchain_nr) and branches
 * (into branches, room for branch_nr) rewritten, s pointing at them
 */
void inject_aslr__sample(const struct inject_aslr *a, struct perf_sample *s, u64 *chain,
			 struct perf_branch_entry *branches);
/* a side-band record moved in place (MMAP, MMAP2, KSYMBOL, TEXT_POKE; others as they are) */
void inject_aslr__record(struct inject_aslr *a, struct perf_event_header *h);

#endif
