// SPDX-License-Identifier: GPL-2.0
/*
 * frame-resolver.c - callchains and addresses resolved once, cached at two levels:
 *
 *   chain cache (CHAIN_SLOTS, direct mapped)
 *     key: hash(raw words, deferred flag, thread maps, maps_gen) + the words themselves
 *          (+ the unwinder's per-word origins, when the chain is the unwinder's)
 *     value: the resolved frames, and an id naming that content
 *          |  miss: each word through
 *          v
 *   address cache (ADDR_SLOTS, direct mapped)
 *     key: ip, the maps it is resolved in (thread's or kernel's), maps_gen, cpumode
 *     value: map, symbol, sym_addr
 *          |  miss
 *          v
 *   machine__resolve()
 *
 * With inline frames, the first chains also start opening the DWARF of their user DSOs on
 * threads of their own before the walk: a chain's kernel frames come first and load the
 * kernel's symbols, its user frames' inline lookups then open the DWARF (decompressing a
 * libc's debug sections takes as long as reading kallsyms); so the two overlap.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "callchain.h"
#include "dso.h"
#include "dwarf-inline.h"
#include "frame-resolver.h"
#include "hash.h"
#include "machine.h"

#define ADDR_SLOT_BITS		14
/* chain misses that look for DWARF to open ahead, and threads started for it at most */
#define PREFETCH_CHAINS		1024
#define PREFETCH_THREADS	8
#define CHAIN_SLOT_BITS		9
/* longer chains are resolved every time: their copies would crowd the cache */
#define CHAIN_MAX_WORDS		512

struct addr_slot {
	u64			ip;
	const void		*space;		/* the maps it was resolved in */
	u64			gen;		/* machine->maps_gen after resolving */
	struct map		*map;
	const struct symbol	*sym;
	u64			sym_addr;
	u8			cpumode;
	bool			valid;
};

struct chain_slot {
	u64			hash;
	u64			gen;
	const void		*space;		/* the thread's maps */
	u64			*words;		/* the raw callchain, nr_words */
	u8			*origins;	/* its callchain_origin, words_alloc of them */
	u32			nr_words, words_alloc;
	struct resolved_frame	*frames;	/* nr_frames, frames_alloc */
	u32			nr_frames, frames_alloc;
	u64			id;		/* 0: empty */
	bool			deferred;
	bool			has_origins;
};

struct frame_resolver {
	struct machine		*machine;
	struct addr_slot	*addrs;		/* 1 << ADDR_SLOT_BITS */
	struct chain_slot	*chains;	/* 1 << CHAIN_SLOT_BITS */
	struct chain_slot	scratch;	/* chains that are not cached */
	struct resolved_frame	addr_frame;	/* frame_resolver__addr()'s answer */
	u64			next_id;
	u32			prefetch_chains, prefetch_threads;	/* left */
	bool			inline_frames;
	FILE			*warn;		/* where unreadable DWARF is said; NULL: nowhere */
};

struct frame_resolver *frame_resolver__new(struct machine *machine)
{
	struct frame_resolver *fr = calloc(1, sizeof(*fr));

	if (!fr)
		return NULL;
	fr->machine = machine;
	fr->next_id = FRAME_CHAIN_ID_EMPTY + 1;
	fr->prefetch_chains = PREFETCH_CHAINS;
	fr->prefetch_threads = PREFETCH_THREADS;
	fr->addrs = calloc(1U << ADDR_SLOT_BITS, sizeof(*fr->addrs));
	fr->chains = calloc(1U << CHAIN_SLOT_BITS, sizeof(*fr->chains));
	if (!fr->addrs || !fr->chains) {
		frame_resolver__delete(fr);
		return NULL;
	}
	return fr;
}

void frame_resolver__set_inline(struct frame_resolver *fr, bool on, FILE *warn)
{
	fr->inline_frames = on;
	fr->warn = warn;
}

static void chain_slot__exit(struct chain_slot *cs)
{
	free(cs->words);
	free(cs->origins);
	free(cs->frames);
}

void frame_resolver__delete(struct frame_resolver *fr)
{
	if (!fr)
		return;
	if (fr->chains)
		for (size_t i = 0; i < (1U << CHAIN_SLOT_BITS); i++)
			chain_slot__exit(&fr->chains[i]);
	chain_slot__exit(&fr->scratch);
	free(fr->chains);
	free(fr->addrs);
	free(fr);
}

/* machine__resolve() looks kernel-side cpumodes up in the kernel maps, the rest in the thread's */
static bool cpumode_is_kernel(u8 cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       cpumode == PERF_RECORD_MISC_HYPERVISOR;
}

static const void *thread_space(const struct thread *thread)
{
	return thread ? (const void *)thread->maps : NULL;
}

static u32 addr_slot_of(u64 ip, const void *space)
{
	return hash_64(ip ^ (u64)(uintptr_t)space, ADDR_SLOT_BITS);
}

static const struct addr_slot *frame_resolver__lookup(struct frame_resolver *fr,
						      struct thread *thread, u8 cpumode, u64 ip)
{
	struct machine *machine = fr->machine;
	const void *space = cpumode_is_kernel(cpumode) ? (const void *)machine->kmaps
						       : thread_space(thread);
	struct addr_slot *slot = &fr->addrs[addr_slot_of(ip, space)];
	struct addr_location al;

	if (slot->valid && slot->ip == ip && slot->space == space &&
	    slot->gen == machine->maps_gen && slot->cpumode == cpumode)
		return slot;
	machine__resolve(machine, thread, cpumode, ip, &al);
	/* resolution may load symbols: keep the generation it ended with */
	*slot = (struct addr_slot){
		.ip = ip, .space = space, .gen = machine->maps_gen, .map = al.map, .sym = al.sym,
		.sym_addr = al.sym_addr, .cpumode = cpumode, .valid = true,
	};
	return slot;
}

static void frame__fill(struct resolved_frame *f, const struct addr_slot *slot, u8 origin)
{
	*f = (struct resolved_frame){
		.ip = slot->ip, .map = slot->map, .dso = slot->map ? slot->map->dso : NULL,
		.sym = slot->sym, .sym_addr = slot->sym_addr,
		.map_ip = slot->map ? map__map_ip(slot->map, slot->ip) : slot->ip,
		.cpumode = slot->cpumode, .origin = origin,
	};
}

const struct resolved_frame *frame_resolver__addr(struct frame_resolver *fr,
						  struct thread *thread, u8 cpumode, u64 ip)
{
	frame__fill(&fr->addr_frame, frame_resolver__lookup(fr, thread, cpumode, ip),
		    FRAME_ORIGIN_SAMPLE);
	return &fr->addr_frame;
}

/* four independent lanes: a chain's words are hashed at the multiplier's throughput */
static u64 chain_hash(const struct perf_sample *sample, const void *space, u64 gen)
{
	u64 h[4] = { (u64)(uintptr_t)space, gen, sample->deferred_callchain, sample->callchain_nr };
	const u64 *w = sample->callchain;
	u64 i = 0, n = sample->callchain_nr;

	for (; i + 4 <= n; i += 4) {
		h[0] = hash__step(h[0], w[i]);
		h[1] = hash__step(h[1], w[i + 1]);
		h[2] = hash__step(h[2], w[i + 2]);
		h[3] = hash__step(h[3], w[i + 3]);
	}
	for (; i < n; i++)
		h[i & 3] = hash__step(h[i & 3], w[i]);
	if (sample->callchain_origin) {
		const u8 *o = sample->callchain_origin;

		for (i = 0; i < n; i++)
			h[i & 3] = hash__step(h[i & 3], (u64)o[i] << 56);
	}
	h[0] = hash__step(h[0], (h[1] >> 29) ^ (h[2] << 17) ^ (h[3] >> 41));
	return hash__fold(h[0]) ^ h[1] ^ h[2] ^ h[3];
}

/* an unstitched sample's cookie is its chain's last word: comparing the words covers it */
static bool chain_slot__matches(const struct chain_slot *cs, const struct perf_sample *sample,
				u64 hash, const void *space, u64 gen)
{
	return cs->id && cs->hash == hash && cs->gen == gen && cs->space == space &&
	       cs->deferred == sample->deferred_callchain && cs->nr_words == sample->callchain_nr &&
	       !memcmp(cs->words, sample->callchain, cs->nr_words * sizeof(u64)) &&
	       cs->has_origins == !!sample->callchain_origin &&
	       (!cs->has_origins || !memcmp(cs->origins, sample->callchain_origin, cs->nr_words));
}

static int chain_slot__reserve(struct chain_slot *cs, u32 nr_words, u32 nr_frames)
{
	if (nr_words > cs->words_alloc) {
		u64 *w = realloc(cs->words, nr_words * sizeof(*w));
		u8 *o;

		if (!w)
			return -ENOMEM;
		cs->words = w;
		o = realloc(cs->origins, nr_words);
		if (!o)
			return -ENOMEM;
		cs->origins = o;
		cs->words_alloc = nr_words;
	}
	if (nr_frames > cs->frames_alloc) {
		struct resolved_frame *f = realloc(cs->frames, nr_frames * sizeof(*f));

		if (!f)
			return -ENOMEM;
		cs->frames = f;
		cs->frames_alloc = nr_frames;
	}
	return 0;
}

static u8 origin_of(u64 context, u8 cpumode)
{
	if (cpumode_is_kernel(cpumode))
		return FRAME_ORIGIN_KERNEL;
	/* the stitcher keeps the marker in front of the record's user ips */
	return context == PERF_CONTEXT_USER_DEFERRED ? FRAME_ORIGIN_DEFERRED : FRAME_ORIGIN_USER_FP;
}

/* every frame of the sample's chain into cs->frames (sized for callchain_nr + 1) */
static void frame_resolver__walk(struct frame_resolver *fr, struct thread *thread,
				 const struct perf_sample *sample, struct chain_slot *cs)
{
	struct callchain_iter it;
	u32 n = 0;
	u64 ip;
	u8 cpumode;

	callchain_iter__init(&it, sample, UINT32_MAX);
	while (callchain_iter__next(&it, &ip, &cpumode))
		frame__fill(&cs->frames[n++], frame_resolver__lookup(fr, thread, cpumode, ip),
			    sample->callchain_origin ? sample->callchain_origin[it.i - 1] :
			    origin_of(it.context, cpumode));
	if (it.cookie)
		frame__fill(&cs->frames[n++],
			    frame_resolver__lookup(fr, thread, PERF_RECORD_MISC_USER,
						   sample->deferred_cookie),
			    FRAME_ORIGIN_COOKIE);
	cs->nr_frames = n;
}

/*
 * The user frames' lookups done ahead of the walk (the same lookups: the walk finds them in
 * the address cache, or repeats them if loading kallsyms changed the maps since), and the
 * DWARF of the DSOs whose inline lookups will open it started now.
 */
static void frame_resolver__prefetch(struct frame_resolver *fr, struct thread *thread,
				     const struct perf_sample *sample)
{
	struct callchain_iter it;
	u64 ip;
	u8 cpumode;

	fr->prefetch_chains--;
	callchain_iter__init(&it, sample, UINT32_MAX);
	while (fr->prefetch_threads && callchain_iter__next(&it, &ip, &cpumode)) {
		const struct addr_slot *slot;
		struct dso *dso;

		if (cpumode_is_kernel(cpumode))
			continue;
		slot = frame_resolver__lookup(fr, thread, cpumode, ip);
		dso = slot->map ? slot->map->dso : NULL;
		/* as frame__inlines() asks: a symbol in a user DSO */
		if (slot->sym && dso && dso->kind == DSO_KIND_USER &&
		    dso__dwarf_prefetch(dso, fr->machine->helpers))
			fr->prefetch_threads--;
	}
}

static const struct inline_entry *frame__inlines(struct frame_resolver *fr,
						 const struct resolved_frame *f, u32 *nr)
{
	const struct inline_entry *e;
	const char *err;

	*nr = 0;
	if (!f->sym || !f->dso || f->dso->kind != DSO_KIND_USER || f->origin == FRAME_ORIGIN_COOKIE)
		return NULL;
	e = dso__inlines(f->dso, f->sym, f->sym_addr, nr);
	err = dso_dwarf__error(f->dso);
	if (err && fr->warn)
		fprintf(fr->warn, "Warning:\n%s\n", err);
	return e;
}

/*
 * Each frame with functions inlined at its address becomes one frame per function, as
 * upstream replaces the frame by its inline list: the innermost first, each with the
 * frame's ip, the last one keeping the frame's origin, the others FRAME_ORIGIN_INLINE.
 */
static int frame_resolver__expand(struct frame_resolver *fr, struct chain_slot *cs)
{
	u32 total = 0, n = cs->nr_frames, nr, expanded = 0;

	for (u32 i = 0; i < n; i++) {
		frame__inlines(fr, &cs->frames[i], &nr);
		total += nr ? nr : 1;
		expanded += nr > 0;
	}
	if (!expanded)
		return 0;
	if (chain_slot__reserve(cs, 0, total))
		return -ENOMEM;
	cs->nr_frames = total;
	/* from the end, so that no frame is overwritten before it is copied */
	for (u32 i = n, out = total; i-- > 0;) {
		struct resolved_frame f = cs->frames[i];
		const struct inline_entry *e = frame__inlines(fr, &f, &nr);

		if (!nr) {
			cs->frames[--out] = f;
			continue;
		}
		for (u32 k = nr; k-- > 0;) {
			struct resolved_frame *o = &cs->frames[--out];

			*o = f;
			o->sym = e[k].sym;
			o->srcline = e[k].srcline;
			if (k != nr - 1)
				o->origin = FRAME_ORIGIN_INLINE;
		}
	}
	return 0;
}

static const char *const origin_names[FRAME_ORIGIN_NR] = {
	[FRAME_ORIGIN_SAMPLE]	= "sample",
	[FRAME_ORIGIN_KERNEL]	= "kernel",
	[FRAME_ORIGIN_USER_FP]	= "user-fp",
	[FRAME_ORIGIN_DEFERRED]	= "deferred",
	[FRAME_ORIGIN_DWARF]	= "dwarf",
	[FRAME_ORIGIN_INLINE]	= "inline",
	[FRAME_ORIGIN_COOKIE]	= "cookie",
	[FRAME_ORIGIN_REGS]	= "regs",
	[FRAME_ORIGIN_STACK_FP]	= "fp",
	[FRAME_ORIGIN_ENTRY]	= "entry",
	[FRAME_ORIGIN_CFI]	= "cfi",
	[FRAME_ORIGIN_INSN]	= "insn",
};

const char *frame_origin__name(u8 origin)
{
	return origin < FRAME_ORIGIN_NR && origin_names[origin] ? origin_names[origin] : "?";
}

int frame_resolver__chain(struct frame_resolver *fr, struct thread *thread,
			  const struct perf_sample *sample, struct resolved_chain *chain)
{
	struct machine *machine = fr->machine;
	const void *space = thread_space(thread);
	u64 gen = machine->maps_gen, hash = 0;
	struct chain_slot *cs = &fr->scratch;
	struct perf_sample ip_only;
	u64 ip_words[2];
	struct perf_err err;
	bool cache = sample->callchain_nr <= CHAIN_MAX_WORDS, not_unwound;

	*chain = (struct resolved_chain){ .frames = NULL, .nr = 0, .id = FRAME_CHAIN_ID_EMPTY };
	not_unwound = callchain__user_not_unwound(sample);
	if (not_unwound) {
		/* the user stack is not unwound: the chain is what the sample has, its ip */
		ip_words[0] = PERF_CONTEXT_USER;
		ip_words[1] = sample->ip;
		ip_only = *sample;
		ip_only.callchain = ip_words;
		ip_only.callchain_nr = 2;
		sample = &ip_only;
	}
	if (!sample->callchain_nr)
		return 0;
	if (cache) {
		hash = chain_hash(sample, space, gen);
		cs = &fr->chains[hash >> (64 - CHAIN_SLOT_BITS)];
		/* only valid chains are kept: the same words are valid again */
		if (chain_slot__matches(cs, sample, hash, space, gen))
			goto out;
	}
	/* perf drops a chain with an unknown context marker, frames and all */
	if (!callchain__valid(sample, &err))
		return 0;
	cs->id = 0;
	if (chain_slot__reserve(cs, cache ? (u32)sample->callchain_nr : 0,
				(u32)sample->callchain_nr + 1)) {
		chain->id = 0;
		return -ENOMEM;
	}
	/* the openers hold the budget's slots: the walk's loads (kallsyms) then read inline */
	if (fr->inline_frames && fr->prefetch_chains && fr->prefetch_threads)
		frame_resolver__prefetch(fr, thread, sample);
	frame_resolver__walk(fr, thread, sample, cs);
	if (not_unwound)
		cs->frames[0].origin = FRAME_ORIGIN_SAMPLE;
	if (fr->inline_frames && frame_resolver__expand(fr, cs)) {
		chain->id = 0;
		return -ENOMEM;
	}
	/* loading symbols changed the maps half way: frames before it may be stale next time */
	if (cache && machine->maps_gen == gen) {
		memcpy(cs->words, sample->callchain, sample->callchain_nr * sizeof(u64));
		cs->nr_words = (u32)sample->callchain_nr;
		cs->hash = hash;
		cs->gen = gen;
		cs->space = space;
		cs->deferred = sample->deferred_callchain;
		cs->has_origins = sample->callchain_origin;
		if (cs->has_origins)
			memcpy(cs->origins, sample->callchain_origin, cs->nr_words);
		cs->id = fr->next_id++;
	}
out:
	chain->frames = cs->frames;
	chain->nr = cs->nr_frames;
	chain->id = cs->id;
	return 0;
}

const char *frame__srcline(const struct resolved_frame *f, const struct machine *machine,
			   unsigned int how, char *buf, size_t size)
{
	bool with_sym = how & FRAME_SRCLINE_SYM;
	struct dso *dso = f->dso;
	const char *line = NULL;
	u64 addr = f->ip, recorded = f->ip;

	if (!f->map) {
		snprintf(buf, size, "??:0");
		return buf;
	}
	if (f->srcline) {
		snprintf(buf, size, "%s", f->srcline);
		return buf;
	}
	/*
	 * Upstream takes a caller's recorded address for an offset into its user DSO and
	 * moves it by the DSO's .text address less offset (0 in most shared objects, the
	 * image base of a non-PIE executable): that address names the caller, and is
	 * looked up, in the DSO's ELF space only when it is loaded at its own vaddrs
	 */
	if (dso && dso->kind == DSO_KIND_USER)
		recorded += dso->text_offset;
	if (dso && dso->kind == DSO_KIND_USER && (how & FRAME_SRCLINE_AT_RECORDED)) {
		line = dso__srcline(dso, recorded);
	} else if (dso && dso->kind == DSO_KIND_USER) {
		addr = f->sym_addr;
		if (!f->sym)
			dso__find_symbol_by_offset(dso, machine->conf, f->map_ip, &addr);
		line = dso__srcline(dso, addr);
	} else if (dso && dso->kind != DSO_KIND_KERNEL && dso->kind != DSO_KIND_KMODULE) {
		addr = f->map_ip;
	}
	/* upstream names a caller without a line by the address as recorded */
	if (!line && (how & FRAME_SRCLINE_RECORDED))
		addr = recorded;
	if (line)
		snprintf(buf, size, "%s", line);
	else if (how & FRAME_SRCLINE_UNKNOWN)
		snprintf(buf, size, "??:0");
	else if ((how & (FRAME_SRCLINE_SYM | FRAME_SRCLINE_OFF)) && f->sym)
		snprintf(buf, size, "%s+%llu", with_sym ? f->sym->name : "",
			 (unsigned long long)((how & FRAME_SRCLINE_RECORDED ? recorded : f->sym_addr) -
					      f->sym->start));
	else
		snprintf(buf, size, "%s[%llx]", dso ? dso->short_name : "[unknown]",
			 (unsigned long long)addr);
	return buf;
}
