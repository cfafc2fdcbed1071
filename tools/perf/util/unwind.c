// SPDX-License-Identifier: GPL-2.0
/*
 * unwind.c - the unwinder stage: which samples it unwinds and how (unwind.h), the rule
 * provider of the frame walk (CFI, decoded instructions), the join with the kernel's user
 * chain, and the statistics.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <perf/kernel.h>
#include "frame-resolver.h"
#include "hash.h"
#include "parse-options.h"
#include "sample-stage.h"
#include "unwind.h"
#include "dso-file.h"
#include "unwind-dwarf.h"
#include "unwind-insn.h"
#include "unwind-walk.h"

/* a function is decoded up to this far into it; past it the FP rule is as good a guess */
#define INSN_MAX_DECODE		16384
/* an instruction is at most 15 bytes: the ip's own, to find its end */
#define INSN_MAX_LEN		15
/*
 * sample_regs_user bits x86 reserves (between its last general register and XMM0): a mask
 * with one is another architecture's (arm64 records x0-x30, sp and pc as bits 0-32)
 */
#define X86_REGS_RESERVED	(((1ULL << 32) - 1) & ~((1ULL << PERF_REG_X86_64_MAX) - 1))
/* the part of a stack dump fetched into the cache before the walk: its first frames */
#define PREFETCH_DUMP_BYTES	512
/* slots of the walk's memo (direct-mapped): a profile's distinct frame addresses are few */
#define MEMO_BITS		12

struct unwind_stats {
	u64	samples[UNWIND_MODE_NR];	/* by the mode used: [FP], [DWARF] */
	u64	top_rule[UNWIND_SRC_NR];	/* fp walks: the top frame's rule */
	u64	repaired[UNWIND_SRC_NR];	/* ... that put another caller than the kernel's */
	u64	stops[UNWIND_STOP_NR];		/* why fp walks ended */
	u64	dwarf_stops[UNWIND_STOP_NR];	/* why dwarf walks ended */
	u64	joined;				/* went on with the kernel's chain */
	u64	joined_above;			/* ... above the walk, across a gap */
	u64	ended_early;			/* neither outermost frame nor joined */
	u64	dwarf_failed;			/* dwarf walks that gave no frame: fp instead */
	u64	foreign;			/* samples of another architecture: as recorded */
};

/* whether the file's samples are x86's, the only registers the rules know */
enum {
	ARCH_UNCHECKED,
	ARCH_X86,
	ARCH_FOREIGN,
};

/*
 * The walk asks the same questions of the same addresses sample after sample: which rule
 * (a CFI row lookup: the map, the DSO's CFI, the row cache) and whether a return address is
 * code (the map again). The answers depend on the address and the maps only, so they are
 * kept under the frame resolver's key: ip, the thread's maps, machine->maps_gen.
 */
struct walk_memo {
	u64			ip;
	const void		*space;		/* the thread's maps */
	u64			gen;
	struct unwind_rule	rule;
	s32			ret;		/* the rule provider's result */
	u8			kind;		/* MEMO_* */
};

enum {
	MEMO_EMPTY,
	MEMO_TOP,	/* rule for the sampled ip */
	MEMO_CALLER,	/* rule for a return address */
	MEMO_CODE_YES,	/* is_code answers */
	MEMO_CODE_NO,
};

struct unwind_stage {
	struct sample_stage	stage;
	enum unwind_mode	mode;
	struct unwind_dwarf	*ud;		/* CFI rows and DWARF walks */
	struct thread		*thread;	/* the sample being unwound's, for the provider */
	u64			*chain;		/* the chain handed on, chain_alloc words */
	u8			*origins;	/* one per chain word */
	size_t			chain_alloc;
	u64			ips[UNWIND_MAX_FRAMES];
	u8			sources[UNWIND_MAX_FRAMES];
	struct walk_memo	*rules, *code_memo;	/* 1 << MEMO_BITS each */
	u8			arch;		/* ARCH_* of the file's HEADER_ARCH */
	const char		*foreign_arch;	/* ARCH_FOREIGN: which (static or the env's) */
	struct unwind_stats	stats;
};

static struct unwind_stage *unwind_stage_of(const struct sample_stage *st)
{
	return (struct unwind_stage *)container_of(st, struct unwind_stage, stage);
}

int unwind_mode__parse(const char *name, enum unwind_mode *mode)
{
	static const char *const names[] = {
		[UNWIND_MODE_AUTO] = "auto", [UNWIND_MODE_FP] = "fp",
		[UNWIND_MODE_DWARF] = "dwarf", [UNWIND_MODE_NONE] = "none",
	};

	if (!name) {
		*mode = UNWIND_MODE_AUTO;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(name, names[i])) {
			*mode = (enum unwind_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

int unwind__opt_style(const struct option *opt, const char *arg, bool unset)
{
	if (unset || !strcmp(arg, "libdw"))
		return 0;
	if (!strcmp(arg, "libunwind"))
		return parse_options__error(opt, false,
					    "libunwind is not supported: this perf unwinds with its own unwinder over libdw's CFI; use libdw");
	return parse_options__error(opt, false, "unknown unwind style '%s' (libdw, libunwind)",
				    arg);
}

/* the user register of perf_event_x86_regs number bit, if the sample has it */
static bool sample__user_reg(const struct perf_sample *s, int bit, u64 *val)
{
	if (!s->user_regs || !((s->user_regs_mask >> bit) & 1))
		return false;
	*val = s->user_regs[__builtin_popcountll(s->user_regs_mask & ((1ULL << bit) - 1))];
	return true;
}

/* the top frame's rule from its function's instructions, where the CFI has none */
static int unwind_stage__insn_rule(struct unwind_stage *ust, u64 ip, u32 ws,
				   struct unwind_rule *rule)
{
	struct addr_location al;
	struct dso_file *df;
	const u8 *code;
	size_t len;
	u64 ip_off;

	machine__resolve(ust->stage.env.machine, ust->thread, PERF_RECORD_MISC_USER, ip, &al);
	if (!al.map || !al.map->dso || !al.sym || al.sym_addr < al.sym->start)
		return -ENOENT;
	ip_off = al.sym_addr - al.sym->start;
	if (ip_off > INSN_MAX_DECODE || map__map_ip(al.map, ip) < ip_off)
		return -ENOENT;
	/* the DSO's own file, build id checked: a rebuilt binary's bytes are not the code run */
	df = dso__file(al.map->dso);
	code = df ? dso_file__code(df, ust->stage.env.symbol_conf,
				   map__map_ip(al.map, ip) - ip_off, ip_off + INSN_MAX_LEN, &len) :
		    NULL;
	if (!code)
		return -ENOENT;
	return unwind_insn__rule(code, len, ip_off, ws, rule);
}

static int unwind_stage__find_rule(struct unwind_stage *ust, u64 ip, bool top, u32 ws,
				   struct unwind_rule *rule)
{
	/* the CFI knows 64-bit code only; a caller's row is the call's, at RA - 1 */
	if (ws == 8 && !unwind_dwarf__rule(ust->ud, ust->thread, top ? ip : ip - 1, rule))
		return 0;
	/* callers' frames are past their prologue: the FP rule is theirs */
	if (!top)
		return -ENOENT;
	return unwind_stage__insn_rule(ust, ip, ws, rule);
}

static const void *unwind_stage__space(const struct unwind_stage *ust)
{
	return ust->thread ? (const void *)ust->thread->maps : NULL;
}

static struct walk_memo *memo__slot(struct walk_memo *memo, u64 ip, const void *space)
{
	return &memo[hash_64(ip ^ (u64)(uintptr_t)space, MEMO_BITS)];
}

static bool memo__hit(const struct walk_memo *m, const struct unwind_stage *ust, u64 ip,
		      const void *space)
{
	return m->kind != MEMO_EMPTY && m->ip == ip && m->space == space &&
	       m->gen == ust->stage.env.machine->maps_gen;
}

static int unwind_stage__rule(void *arg, u64 ip, bool top, u32 ws, struct unwind_rule *rule)
{
	struct unwind_stage *ust = arg;
	const void *space = unwind_stage__space(ust);
	u8 kind = top ? MEMO_TOP : MEMO_CALLER;
	struct walk_memo *m;
	int ret;

	/* word size 4 (compat) is rare and takes other paths: not kept */
	if (ws != 8)
		return unwind_stage__find_rule(ust, ip, top, ws, rule);
	m = memo__slot(ust->rules, ip * 2 + top, space);
	if (memo__hit(m, ust, ip, space) && m->kind == kind) {
		*rule = m->rule;
		return m->ret;
	}
	ret = unwind_stage__find_rule(ust, ip, top, ws, rule);
	/* out of memory is no answer to keep; the generation is the one it ended with */
	if (ret != -ENOMEM)
		*m = (struct walk_memo){ .ip = ip, .space = space, .kind = kind, .ret = ret,
					 .gen = ust->stage.env.machine->maps_gen,
					 .rule = ret ? (struct unwind_rule){ 0 } : *rule };
	return ret;
}

/* a return address in a file's executable mapping (anonymous memory: JIT or garbage) */
static bool unwind_stage__find_code(struct unwind_stage *ust, u64 ip)
{
	struct map *map = ust->thread ? maps__find(ust->thread->maps, ip) : NULL;

	if (!map || !map->dso || map->dso->kind == DSO_KIND_ANON)
		return false;
	/* MMAP (not MMAP2) records carry no protection: take them for code */
	return !map->prot || (map->prot & PROT_EXEC);
}

static bool unwind_stage__is_code(void *arg, u64 ip)
{
	struct unwind_stage *ust = arg;
	const void *space = unwind_stage__space(ust);
	struct walk_memo *m = memo__slot(ust->code_memo, ip, space);
	bool code;

	if (memo__hit(m, ust, ip, space))
		return m->kind == MEMO_CODE_YES;
	code = unwind_stage__find_code(ust, ip);
	*m = (struct walk_memo){ .ip = ip, .space = space, .gen = ust->stage.env.machine->maps_gen,
				 .kind = code ? MEMO_CODE_YES : MEMO_CODE_NO };
	return code;
}

static int unwind_stage__reserve(struct unwind_stage *ust, size_t words)
{
	u64 *chain;
	u8 *origins;

	if (words <= ust->chain_alloc)
		return 0;
	chain = realloc(ust->chain, words * sizeof(*chain));
	if (!chain)
		return -ENOMEM;
	ust->chain = chain;
	origins = realloc(ust->origins, words);
	if (!origins)
		return -ENOMEM;
	ust->origins = origins;
	ust->chain_alloc = words;
	return 0;
}

static u8 origin_of_source(u8 source)
{
	switch (source) {
	case UNWIND_SRC_FP:	return FRAME_ORIGIN_STACK_FP;
	case UNWIND_SRC_ENTRY:	return FRAME_ORIGIN_ENTRY;
	case UNWIND_SRC_CFI:	return FRAME_ORIGIN_CFI;
	case UNWIND_SRC_INSN:	return FRAME_ORIGIN_INSN;
	default:
		break;
	}
	return FRAME_ORIGIN_REGS;
}

/* the origin of each word of the kept prefix, as the frame resolver gives it */
static void prefix__origins(const u64 *words, size_t n, u8 *origins)
{
	u8 origin = FRAME_ORIGIN_USER_FP;

	for (size_t i = 0; i < n; i++) {
		switch (words[i]) {
		case PERF_CONTEXT_KERNEL: case PERF_CONTEXT_GUEST_KERNEL: case PERF_CONTEXT_HV:
			origin = FRAME_ORIGIN_KERNEL;
			break;
		case PERF_CONTEXT_USER: case PERF_CONTEXT_GUEST_USER:
			origin = FRAME_ORIGIN_USER_FP;
			break;
		case PERF_CONTEXT_USER_DEFERRED:
			origin = FRAME_ORIGIN_DEFERRED;
			break;
		default:
			break;
		}
		origins[i] = origin;
	}
}

/*
 * ust->ips[0..n) goes on with kern[] from where they line up (ours[i] = kern[i + d]). When
 * the walk found nothing past the ip and the kernel missed the caller (n + d < 1), the
 * caller is lost: the kernel's frames follow the ip, and the sample counts as ended early.
 */
static u32 unwind_stage__join(struct unwind_stage *ust, u32 n, u32 max, const u64 *kern, u32 k,
			      int d, u8 kern_origin)
{
	s64 from = (s64)n + d;

	if (from < 1) {
		from = 1;
		ust->stats.ended_early++;
	} else {
		ust->stats.joined++;
	}
	for (s64 j = from; j < k && n < max; j++) {
		ust->ips[n] = kern[j];
		ust->sources[n++] = kern_origin;
	}
	return n;
}

/*
 * The kernel's chain past the walk's last frame from where unwind_chain__above() says it is
 * the callers'; a kernel frame outside code ends it.
 */
static u32 unwind_stage__join_above(struct unwind_stage *ust, const struct unwind_state *last,
				    const struct unwind_stack *stack, u64 fp0, bool fp0_unknown,
				    u32 n, u32 max, const u64 *kern, u32 k, u8 kern_origin)
{
	u32 from = n;

	for (u32 j = unwind_chain__above(last, stack, fp0, fp0_unknown, kern, k);
	     j && j < k && n < max; j++) {
		if (!unwind_stage__is_code(ust, kern[j]))
			break;
		ust->ips[n] = kern[j];
		ust->sources[n++] = kern_origin;
	}
	if (n > from)
		ust->stats.joined_above++;
	return n;
}

/* fp mode: ours, joined with kern where the dump ends; the frames in ust->ips */
static u32 unwind_stage__fp(struct unwind_stage *ust, struct unwind_state *st,
			    const struct unwind_stack *stack, const u64 *kern, u32 k, u32 max,
			    u8 kern_origin)
{
	struct unwind_walk_ops ops = {
		.rule = unwind_stage__rule, .is_code = unwind_stage__is_code, .arg = ust,
	};
	struct unwind_stats *stats = &ust->stats;
	struct unwind_rule top = unwind_rule__fp(st->ws);
	const u64 fp0 = st->fp;
	const bool fp0_unknown = st->fp_unknown;
	enum unwind_stop why;
	u32 n, walked;
	int d;

	n = unwind_walk(&ops, st, stack, ust->ips, ust->sources, max, &top, &why);
	for (u32 i = 0; i < n; i++)
		ust->sources[i] = origin_of_source(ust->sources[i]);
	stats->samples[UNWIND_MODE_FP]++;
	stats->top_rule[top.source]++;
	stats->stops[why]++;
	/* at the frame cap the chain is as long as one can be: nothing to join */
	if (why == UNWIND_STOP_MAX_FRAMES) {
		stats->ended_early++;
	} else if (why != UNWIND_STOP_END && why != UNWIND_OK) {
		if (k && unwind_chain__align(ust->ips, n, kern, k, &top, &d)) {
			n = unwind_stage__join(ust, n, max, kern, k, d, kern_origin);
		} else {
			walked = n;
			n = unwind_stage__join_above(ust, st, stack, fp0, fp0_unknown, n, max,
						     kern, k, kern_origin);
			if (n == walked)
				stats->ended_early++;
		}
	}
	/* the caller is what the kernel's FP walk gets wrong: inserted or replaced */
	if (k && n >= 2 && (k < 2 || ust->ips[1] != kern[1]))
		stats->repaired[top.source]++;
	return n;
}

/*
 * dwarf mode: the CFI walk over the dump, joined with the kernel's chain (a fallback
 * recording's) where it ends early. Callers' ips are RA - 1 (upstream's), the kernel's RAs:
 * compared one up. 0: no frame, the caller unwinds with fp instead.
 */
static u32 unwind_stage__dwarf(struct unwind_stage *ust, const struct perf_sample *ps,
			       bool swapped, const u64 *kern, u32 k, u8 kern_origin)
{
	struct unwind_stats *stats = &ust->stats;
	struct unwind_rule top = unwind_rule__fp(8);
	enum unwind_stop why = UNWIND_STOP_END;
	u64 ras[UNWIND_MAX_FRAMES];
	int ret, d;
	u32 n;

	ret = unwind_dwarf__walk(ust->ud, ust->thread, ps, swapped, ust->ips, UNWIND_MAX_FRAMES,
				 &why);
	if (ret <= 0) {
		stats->dwarf_failed++;
		return 0;
	}
	n = (u32)ret;
	stats->samples[UNWIND_MODE_DWARF]++;
	ust->sources[0] = FRAME_ORIGIN_REGS;
	for (u32 i = 1; i < n; i++)
		ust->sources[i] = FRAME_ORIGIN_DWARF;
	if (why == UNWIND_STOP_END || why == UNWIND_OK)
		return n;
	stats->dwarf_stops[why]++;
	if (why == UNWIND_STOP_MAX_FRAMES) {
		stats->ended_early++;
		return n;
	}
	/* the offset is for the frames to say: an FP top tries 0, then -1 and 1 */
	ras[0] = ust->ips[0];
	for (u32 i = 1; i < n; i++)
		ras[i] = ust->ips[i] + 1;
	if (k && unwind_chain__align(ras, n, kern, k, &top, &d))
		n = unwind_stage__join(ust, n, UNWIND_MAX_FRAMES, kern, k, d, kern_origin);
	else
		stats->ended_early++;
	return n;
}

/* x86's names for its machines, as uname -m (HEADER_ARCH) says them */
static bool arch_is_x86(const char *arch)
{
	static const char *const names[] = { "x86_64", "x86", "i386", "i486", "i586", "i686" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arch, names[i]))
			return true;
	return false;
}

/*
 * Whether the samples of attr are another architecture's: the file's HEADER_ARCH (known
 * once the header features are, so looked at with the first sample: a pipe sends them
 * first), or a register mask x86 cannot have. A file without HEADER_ARCH is taken for x86.
 */
static bool unwind_stage__foreign(struct unwind_stage *ust, const struct perf_event_attr *attr)
{
	if (ust->arch == ARCH_UNCHECKED) {
		const struct perf_env *env = perf_data__env(ust->stage.env.data);
		const char *arch = env && env->arch ? env->arch : "";

		ust->arch = !*arch || arch_is_x86(arch) ? ARCH_X86 : ARCH_FOREIGN;
		ust->foreign_arch = arch;
	}
	if (ust->arch == ARCH_X86 && (attr->sample_regs_user & X86_REGS_RESERVED)) {
		ust->arch = ARCH_FOREIGN;
		ust->foreign_arch = "its user register mask is not x86's";
	}
	return ust->arch == ARCH_FOREIGN;
}

static int unwind_stage__sample(struct sample_stage *st, struct stage_sample *s)
{
	struct unwind_stage *ust = unwind_stage_of(st);
	const struct perf_sample *ps = s->sample;
	const struct perf_event_attr *attr = &s->evattr->attr;
	const u64 need = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	enum unwind_mode mode = ust->mode;
	struct perf_sample out;
	struct stage_sample next;
	struct unwind_state ust_regs = { 0 };
	struct unwind_stack stack;
	size_t prefix = ps->callchain_nr, user_at = ps->callchain_nr;
	u8 kern_origin = FRAME_ORIGIN_USER_FP;
	bool marked = false;	/* the chain has a user context marker */
	u32 ws, n;
	int ret;

	if ((attr->sample_type & need) != need || ps->deferred_callchain || !ps->user_stack_size)
		return sample_stage__emit(st, s);
	/* x86 rules on another machine's registers would make up frames: as recorded */
	if (unwind_stage__foreign(ust, attr)) {
		ust->stats.foreign++;
		return sample_stage__emit(st, s);
	}
	if (mode == UNWIND_MODE_REPAIR) {
		if (attr->flags & PERF_ATTR_FLAG(EXCLUDE_CALLCHAIN_USER))
			return sample_stage__emit(st, s);
		mode = UNWIND_MODE_FP;
	}
	ws = ps->user_regs_abi == PERF_SAMPLE_REGS_ABI_64 ? 8 :
	     ps->user_regs_abi == PERF_SAMPLE_REGS_ABI_32 ? 4 : 0;
	if (!ws || !sample__user_reg(ps, PERF_REG_X86_IP, &ust_regs.ip) ||
	    !sample__user_reg(ps, PERF_REG_X86_SP, &ust_regs.sp))
		return sample_stage__emit(st, s);
	/*
	 * Each frame's read depends on the previous one's: the dump's cache misses (it was
	 * never read before) would come one after another. Its first lines hold most frames.
	 */
	for (u64 off = 0; off < ps->user_stack_dyn_size && off < ps->user_stack_size &&
			  off < PREFETCH_DUMP_BYTES; off += 64)
		__builtin_prefetch(ps->user_stack + off);
	/* not 0, which would be the outermost frame: the FP rule cannot be applied */
	ust_regs.fp_unknown = !sample__user_reg(ps, PERF_REG_X86_BP, &ust_regs.fp);
	if (ws == 4) {
		ust_regs.ip &= 0xffffffff;
		ust_regs.sp &= 0xffffffff;
		ust_regs.fp &= 0xffffffff;
	}
	ust_regs.ws = ws;
	if (mode == UNWIND_MODE_AUTO)
		mode = attr->flags & PERF_ATTR_FLAG(EXCLUDE_CALLCHAIN_USER) ? UNWIND_MODE_DWARF
									 : UNWIND_MODE_FP;
	/* the kernel's user chain: after the last user context marker */
	for (size_t i = 0; i < ps->callchain_nr; i++) {
		u64 w = ps->callchain[i];

		if (w == PERF_CONTEXT_USER || w == PERF_CONTEXT_USER_DEFERRED) {
			prefix = i + 1;
			user_at = i + 1;
			marked = true;
			kern_origin = w == PERF_CONTEXT_USER_DEFERRED ? FRAME_ORIGIN_DEFERRED
								      : FRAME_ORIGIN_USER_FP;
		}
	}
	ust->thread = sample_stage__thread(st, s);
	if (!ust->thread)
		return sample_stage__emit(st, s);
	/* the reader checks dyn_size against the dump too; the reads here rest on this one */
	stack = (struct unwind_stack){
		.data = ps->user_stack, .base = ust_regs.sp, .swapped = s->swapped,
		.size = ps->user_stack_dyn_size < ps->user_stack_size ? ps->user_stack_dyn_size
								       : ps->user_stack_size,
	};
	n = 0;
	if (mode == UNWIND_MODE_DWARF)
		n = unwind_stage__dwarf(ust, ps, s->swapped, ps->callchain + user_at,
					(u32)(ps->callchain_nr - user_at), kern_origin);
	if (!n)
		n = unwind_stage__fp(ust, &ust_regs, &stack, ps->callchain + user_at,
				     (u32)(ps->callchain_nr - user_at), UNWIND_MAX_FRAMES,
				     kern_origin);
	ret = unwind_stage__reserve(ust, prefix + 1 + n);
	if (ret)
		return ret;
	memcpy(ust->chain, ps->callchain, prefix * sizeof(u64));
	prefix__origins(ps->callchain, prefix, ust->origins);
	/* a --call-graph dwarf chain is the kernel's part alone: the user part gets its marker */
	if (!marked) {
		ust->chain[prefix] = PERF_CONTEXT_USER;
		ust->origins[prefix++] = FRAME_ORIGIN_USER_FP;
	}
	memcpy(ust->chain + prefix, ust->ips, n * sizeof(u64));
	memcpy(ust->origins + prefix, ust->sources, n);
	out = *ps;
	out.callchain = ust->chain;
	out.callchain_nr = prefix + n;
	out.callchain_origin = ust->origins;
	next = *s;
	next.sample = &out;
	ret = sample_stage__emit(st, &next);
	ust->thread = NULL;
	return ret;
}

static void unwind_stats__fprintf(const struct unwind_stats *stats, FILE *fp)
{
	static const char *const src[UNWIND_SRC_NR] = {
		[UNWIND_SRC_FP] = "fp", [UNWIND_SRC_ENTRY] = "entry",
		[UNWIND_SRC_CFI] = "cfi", [UNWIND_SRC_INSN] = "insn",
	};

	fprintf(fp, "unwind: %" PRIu64 " samples unwound: %" PRIu64 " fp, %" PRIu64 " dwarf\n",
		stats->samples[UNWIND_MODE_FP] + stats->samples[UNWIND_MODE_DWARF],
		stats->samples[UNWIND_MODE_FP], stats->samples[UNWIND_MODE_DWARF]);
	if (!stats->samples[UNWIND_MODE_FP])
		goto out_dwarf;
	fprintf(fp, "unwind: top frame rule:");
	for (int i = 0; i < UNWIND_SRC_NR; i++)
		fprintf(fp, " %s %" PRIu64, src[i], stats->top_rule[i]);
	fprintf(fp, "\nunwind: caller repaired (not the kernel's), by top frame rule:");
	for (int i = 0; i < UNWIND_SRC_NR; i++)
		fprintf(fp, " %s %" PRIu64, src[i], stats->repaired[i]);
	fprintf(fp, "\n");
	for (int i = UNWIND_STOP_END; i < UNWIND_STOP_NR; i++)
		if (stats->stops[i])
			fprintf(fp, "unwind: walks ended: %s: %" PRIu64 "\n",
				unwind_stop__name((enum unwind_stop)i), stats->stops[i]);
out_dwarf:
	fprintf(fp, "unwind: joined with the kernel's user chain: %" PRIu64 "\n", stats->joined);
	if (stats->joined_above)
		fprintf(fp, "unwind: joined with the kernel's user chain above the walk (callers between may be missing): %" PRIu64 "\n",
			stats->joined_above);
	fprintf(fp, "unwind: ended early (not at the outermost frame): %" PRIu64 "\n",
		stats->ended_early);
	for (int i = UNWIND_STOP_FP_UNKNOWN; i < UNWIND_STOP_NR; i++)
		if (stats->dwarf_stops[i])
			fprintf(fp, "unwind: dwarf walks ended: %s: %" PRIu64 "\n",
				unwind_stop__name((enum unwind_stop)i), stats->dwarf_stops[i]);
	if (stats->dwarf_failed)
		fprintf(fp, "unwind: dwarf unwinding gave no frame (fp walk instead): %" PRIu64 "\n",
			stats->dwarf_failed);
}

static void unwind_stage__fprintf_stats(const struct sample_stage *st, FILE *fp, bool full)
{
	const struct unwind_stage *ust = unwind_stage_of(st);

	if (ust->stats.foreign)
		fprintf(fp, "Warning: %" PRIu64 " samples of another architecture (%s) keep their "
			"recorded callchains: the user-stack unwinder knows x86 only\n",
			ust->stats.foreign, ust->foreign_arch);
	if (full)
		unwind_stats__fprintf(&ust->stats, fp);
}

static void unwind_stage__delete(struct sample_stage *st)
{
	struct unwind_stage *ust = unwind_stage_of(st);

	unwind_dwarf__delete(ust->ud);
	free(ust->chain);
	free(ust->origins);
	free(ust->rules);
	free(ust->code_memo);
	free(ust);
}

static const struct sample_stage_ops unwind_stage_ops = {
	.name		= "unwind",
	.kind		= SAMPLE_STAGE_UNWIND,
	.consumes	= 0,
	.claim		= NULL,
	.sample		= unwind_stage__sample,
	/* it holds no sample past its call: nothing to flush or to drop at an exit */
	.record		= NULL,
	.thread_exit	= NULL,
	.flush		= NULL,
	.fprintf_stats	= unwind_stage__fprintf_stats,
	.delete		= unwind_stage__delete,
};

struct sample_stage *unwind_stage__new(const struct sample_stage_env *env, enum unwind_mode mode)
{
	struct unwind_stage *ust = calloc(1, sizeof(*ust));

	if (!ust)
		return NULL;
	sample_stage__init(&ust->stage, &unwind_stage_ops, env);
	ust->mode = mode;
	ust->ud = unwind_dwarf__new(env->symbol_conf);
	ust->rules = calloc(1u << MEMO_BITS, sizeof(*ust->rules));
	ust->code_memo = calloc(1u << MEMO_BITS, sizeof(*ust->code_memo));
	if (!ust->ud || !ust->rules || !ust->code_memo) {
		unwind_dwarf__delete(ust->ud);
		free(ust->rules);
		free(ust->code_memo);
		free(ust);
		return NULL;
	}
	return &ust->stage;
}
