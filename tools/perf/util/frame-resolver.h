/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame-resolver.h - a sample's callchain (context markers + ips), or one address, turned
 * into resolved frames: map, dso, symbol and the offsets each consumer prints. perf script
 * and perf report both resolve through it; what they do with the frames (--max-stack, -U,
 * caller order, text) is theirs.
 *
 * Invariants:
 *  - A chain's frames are innermost first, markers removed, each resolved in the cpumode the
 *    last marker set (user before any marker), in the thread's maps for user cpumodes and in
 *    the kernel maps otherwise, exactly as machine__resolve() would resolve them now.
 *  - A chain with a context marker perf does not know resolves to no frames (perf drops it
 *    whole). An unstitched deferred cookie is the last frame (FRAME_ORIGIN_COOKIE), resolved
 *    as a user address, which is what upstream's report makes of it; script prints it as a
 *    cookie line instead.
 *  - Nothing is truncated here: every frame of the chain comes back.
 *  - With inline frames on (frame_resolver__set_inline), a frame at whose address DWARF
 *    names inlined functions is replaced by one frame per function (dwarf-inline.h),
 *    innermost first, all with the frame's ip, map and offsets: each but the last has
 *    FRAME_ORIGIN_INLINE, so counting the frames of other origins counts the recorded
 *    addresses (upstream's --max-stack counts those). Their symbols are the frame's own or
 *    ones with ->inlined set.
 *
 * Caching: a repeated chain (same raw words, same thread maps, same machine->maps_gen) costs
 * one hash lookup and one compare of its words; a new chain is resolved frame by frame
 * through a cache of single addresses. A map change (maps_gen) makes both caches miss.
 * Resolution that itself changes the maps (kallsyms loaded on the first kernel address) is
 * returned but not kept, so the next sample resolves against the maps as they are then.
 *
 * Ownership: the resolver owns its caches. Returned frames (and chains) point into them and
 * stay valid until the next call on the resolver. Maps, dsos and symbols are borrowed from
 * the machine the resolver was made for, which must outlive it.
 */
#ifndef PERF_UTIL_FRAME_RESOLVER_H
#define PERF_UTIL_FRAME_RESOLVER_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/abi.h>
#include <perf/event.h>

struct machine;
struct thread;
struct map;
struct dso;
struct symbol;

/* where a frame came from */
enum frame_origin {
	FRAME_ORIGIN_SAMPLE,	/* the sample's own ip (no callchain) */
	FRAME_ORIGIN_KERNEL,	/* the kernel's callchain walk (kernel, guest kernel, hv) */
	FRAME_ORIGIN_USER_FP,	/* the kernel's user frame-pointer walk */
	FRAME_ORIGIN_DEFERRED,	/* user frames from a PERF_RECORD_CALLCHAIN_DEFERRED */
	FRAME_ORIGIN_DWARF,	/* unwound from the user stack with DWARF CFI */
	FRAME_ORIGIN_INLINE,	/* a function inlined at the next frame's ip, same ip */
	FRAME_ORIGIN_COOKIE,	/* an unstitched deferred cookie: not an address */
	/* the report-side unwinder's frames (unwind.h), by the rule that found each */
	FRAME_ORIGIN_REGS,	/* the sampled user registers' ip */
	FRAME_ORIGIN_STACK_FP,	/* the frame-pointer rule over the stack dump */
	FRAME_ORIGIN_ENTRY,	/* the function-entry frame (CFA = SP + W, RA = [SP]) */
	FRAME_ORIGIN_CFI,	/* a row of the DSO's CFI turned into a frame rule */
	FRAME_ORIGIN_INSN,	/* a rule decoded from the function's instructions */
	FRAME_ORIGIN_NR,
};

/* a short name for each origin, as perf script --show-unwind prints it */
const char *frame_origin__name(u8 origin);

struct resolved_frame {
	u64			ip;		/* the address as recorded */
	struct map		*map;		/* NULL: no map covers ip */
	struct dso		*dso;		/* the map's dso, NULL without one */
	const struct symbol	*sym;		/* NULL: unresolved */
	u64			sym_addr;	/* ip in the symbol's space: symoff = sym_addr - sym->start */
	u64			map_ip;		/* ip relative to the map (map__map_ip), ip without a map */
	/*
	 * With inline frames on, the frame's source line from the DWARF ("file:line", see
	 * dwarf-inline.h) for the frames of an inline expansion; NULL otherwise.
	 */
	const char		*srcline;
	u8			cpumode;	/* PERF_RECORD_MISC_* it was resolved in */
	u8			origin;		/* enum frame_origin */
};

struct resolved_chain {
	const struct resolved_frame *frames;	/* nr frames, innermost first */
	u32			nr;
	/*
	 * Nonzero: any chain returned with the same id (by this resolver) has the same frames,
	 * so consumers can key their own caches by it; FRAME_CHAIN_ID_EMPTY for every chain
	 * without frames. 0: resolved but not cached (too long, or the maps changed while
	 * resolving).
	 */
	u64			id;
};

#define FRAME_CHAIN_ID_EMPTY	1

struct frame_resolver;

/* NULL on allocation failure */
struct frame_resolver *frame_resolver__new(struct machine *machine);
/*
 * Inline frames in chains from now on (off after __new); warn (may be NULL) gets one line
 * per DSO whose DWARF cannot be read. Set it before the first chain: cached chains keep
 * what they were resolved with.
 */
void frame_resolver__set_inline(struct frame_resolver *fr, bool on, FILE *warn);
void frame_resolver__delete(struct frame_resolver *fr);

/*
 * The sample's callchain for thread (may be NULL: user frames stay unresolved). Always
 * succeeds: a chain that cannot be cached is resolved into scratch space, and when even
 * that cannot be allocated the chain comes back empty with -ENOMEM.
 */
int frame_resolver__chain(struct frame_resolver *fr, struct thread *thread,
			  const struct perf_sample *sample, struct resolved_chain *chain);

/* one address in cpumode (PERF_RECORD_MISC_*); the frame is the resolver's (see above) */
const struct resolved_frame *frame_resolver__addr(struct frame_resolver *fr,
						  struct thread *thread, u8 cpumode, u64 ip);

/* how frame__srcline() names a frame without a line */
enum {
	FRAME_SRCLINE_SYM	= 1 << 0,	/* "sym+<offset>" when it has a symbol */
	FRAME_SRCLINE_OFF	= 1 << 1,	/* "+<offset>" then */
	FRAME_SRCLINE_UNKNOWN	= 1 << 2,	/* "??:0", whatever it has */
	/* the address as recorded names it, in "dso[addr]" and the offset (upstream's callers) */
	FRAME_SRCLINE_RECORDED	= 1 << 3,
	/* and is looked up (upstream's callers without inline frames) */
	FRAME_SRCLINE_AT_RECORDED = 1 << 4,
};

/*
 * The frame's source line as upstream prints it, into buf (NUL-terminated, cut to size):
 * the expansion's own line for frames of an inline expansion, else the DWARF's line for
 * the address ("file:line", ":0", see dwarf-inline.h); without one, "sym+<decimal offset>"
 * when FRAME_SRCLINE_SYM is in how and the frame has a symbol, else "dso[addr]" (the ELF
 * address; the ip for kernel dsos); the flags below change that. Returns buf. A frame
 * without a map is "??:0".
 */
const char *frame__srcline(const struct resolved_frame *f, const struct machine *machine,
			   unsigned int how, char *buf, size_t size);

#endif
