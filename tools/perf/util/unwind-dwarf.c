// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-dwarf.c - DWARF CFI per DSO through libdw, rows cached per address, and our own
 * evaluation of them over a sample's user registers and stack dump (unwind-dwarf.h).
 *
 * libdw finds the row (dwarf_cfi_addrframe: CIE + FDE instructions up to the address, with
 * the ABI's initial rules); we copy it into a compact struct cfi_row once per (DSO, address)
 * and evaluate it ourselves, so that every read of the untrusted dump is ours to bound.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <perf/event.h>
#include "dso.h"
#include "dso-file.h"
#include "hash.h"
#include "hashmap.h"
#include "map.h"
#include "thread.h"
#include "unwind-dwarf.h"
#include "unwind-step.h"

/* DWARF register numbers of x86-64 (psABI): the 16 general registers, then the RA column */
#define DW_NR_REGS	17
#define DW_REG_RBP	6
#define DW_REG_RSP	7
#define DW_REG_RA	16

/* perf_event_x86_regs bit of each DWARF register; the RA column's value is the ip */
static const u8 perf_reg_of_dwarf[DW_NR_REGS] = {
	PERF_REG_X86_AX, PERF_REG_X86_DX, PERF_REG_X86_CX, PERF_REG_X86_BX,
	PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP,
	PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
	PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
	PERF_REG_X86_IP,
};

/* a DWARF expression has no business being longer; the CFI is untrusted */
#define EXPR_MAX_OPS	64
#define EXPR_STACK	16

/* ---- rows ---- */

enum reg_rule_kind {
	RULE_UNDEF,		/* not recoverable (call-clobbered, or the outermost RA) */
	RULE_SAME,		/* unchanged from the frame being left */
	RULE_OFFSET,		/* saved at CFA + off */
	RULE_VAL_OFFSET,	/* is CFA + off */
	RULE_REGISTER,		/* in register reg of the frame being left */
	RULE_EXPR,		/* saved at the address ops compute (CFA pushed first) */
	RULE_VAL_EXPR,		/* is the value ops compute */
};

struct reg_rule {
	u8	kind;		/* enum reg_rule_kind */
	u8	reg;		/* RULE_REGISTER */
	u16	nops;		/* RULE_EXPR, RULE_VAL_EXPR: ops[first, first + nops) of the row */
	u16	first;
	s32	off;		/* RULE_OFFSET, RULE_VAL_OFFSET */
};

/* how to find the caller's registers at one address */
struct row_rules {
	bool			signal;		/* the FDE's CIE has 'S': a signal trampoline */
	bool			cfa_is_expr;
	u8			cfa_reg;	/* !cfa_is_expr: CFA = reg + cfa_off */
	s32			cfa_off;
	u16			cfa_nops;	/* cfa_is_expr: the row's ops[0, cfa_nops) */
	struct reg_rule		regs[DW_NR_REGS];
};

/* one row of the CFI, cached */
struct cfi_row {
	struct hashmap_node	node;
	const struct dso_cfi	*cd;		/* key: DSO ... */
	u64			vaddr;		/* ... and ELF address */
	int			err;		/* 0: a row; -ENOENT: no CFI covers vaddr */
	struct row_rules	r;
	u16			nops;
	Dwarf_Op		ops[];		/* the expressions' operations */
};

struct unwind_dwarf {
	const struct symbol_conf *conf;
	struct hashmap	rows;		/* struct cfi_row, by (dso_cfi, vaddr) */
};

struct unwind_dwarf *unwind_dwarf__new(const struct symbol_conf *conf)
{
	struct unwind_dwarf *ud = calloc(1, sizeof(*ud));

	if (!ud)
		return NULL;
	ud->conf = conf;
	hashmap__init(&ud->rows, 64);
	elf_version(EV_CURRENT);
	return ud;
}

static void cfi_row__free(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct cfi_row, node));
}

static void unwind_dwarf__clear_rows(struct unwind_dwarf *ud)
{
	hashmap__clear(&ud->rows, cfi_row__free, NULL);
}

void unwind_dwarf__delete(struct unwind_dwarf *ud)
{
	if (!ud)
		return;
	unwind_dwarf__clear_rows(ud);
	hashmap__exit(&ud->rows);
	free(ud);
}

/* ---- turning libdw's frame into a row ---- */

struct row_draft {
	struct row_rules	r;
	const Dwarf_Op	*expr[DW_NR_REGS];	/* RULE_EXPR / RULE_VAL_EXPR ops, libdw's */
	const Dwarf_Op	*cfa_ops;
};

static bool fits_s32(s64 v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static int draft_register(struct row_draft *d, Dwarf_Frame *frame, int regno)
{
	struct reg_rule *rule = &d->r.regs[regno];
	Dwarf_Op mem[3], *ops;
	size_t nops;

	/* libdw cannot say: treat it as lost, as libdwfl does */
	if (dwarf_frame_register(frame, regno, mem, &ops, &nops)) {
		rule->kind = RULE_UNDEF;
		return 0;
	}
	if (!nops) {
		rule->kind = ops ? RULE_UNDEF : RULE_SAME;
		return 0;
	}
	/* libdw's forms of offset(N) and val_offset(N): CFA [+ N] [stack_value] */
	if (ops[0].atom == DW_OP_call_frame_cfa) {
		size_t i = 1;
		s64 off = 0;

		if (i < nops && ops[i].atom == DW_OP_plus_uconst)
			off = (s64)ops[i++].number;
		if (fits_s32(off) && (i == nops || (i + 1 == nops &&
						   ops[i].atom == DW_OP_stack_value))) {
			rule->kind = i == nops ? RULE_OFFSET : RULE_VAL_OFFSET;
			rule->off = (s32)off;
			return 0;
		}
	}
	if (nops == 1 && ops[0].atom == DW_OP_regx) {
		if (ops[0].number >= DW_NR_REGS) {
			rule->kind = RULE_UNDEF;
			return 0;
		}
		rule->kind = RULE_REGISTER;
		rule->reg = (u8)ops[0].number;
		return 0;
	}
	if (ops[nops - 1].atom == DW_OP_stack_value) {
		rule->kind = RULE_VAL_EXPR;
		nops--;
	} else {
		rule->kind = RULE_EXPR;
	}
	if (nops > EXPR_MAX_OPS)
		return -EINVAL;
	rule->nops = (u16)nops;
	d->expr[regno] = ops;
	return 0;
}

static struct cfi_row *row_from_frame(Dwarf_Frame *frame)
{
	struct row_draft d = { .r = { .signal = false } };
	struct cfi_row *row;
	Dwarf_Op *ops;
	size_t nops, total;
	bool signal = false;
	int ra;

	ra = dwarf_frame_info(frame, NULL, NULL, &signal);
	if (ra != DW_REG_RA || dwarf_frame_cfa(frame, &ops, &nops) || !nops)
		return NULL;
	d.r.signal = signal;
	if (nops == 1 && ops[0].atom == DW_OP_bregx && ops[0].number < DW_NR_REGS &&
	    fits_s32((s64)ops[0].number2)) {
		d.r.cfa_reg = (u8)ops[0].number;
		d.r.cfa_off = (s32)ops[0].number2;
	} else {
		if (nops > EXPR_MAX_OPS)
			return NULL;
		d.r.cfa_is_expr = true;
		d.r.cfa_nops = (u16)nops;
		d.cfa_ops = ops;
	}
	total = d.r.cfa_nops;
	for (int r = 0; r < DW_NR_REGS; r++) {
		if (draft_register(&d, frame, r))
			return NULL;
		if (d.expr[r]) {
			d.r.regs[r].first = (u16)total;
			total += d.r.regs[r].nops;
		}
	}
	row = malloc(sizeof(*row) + total * sizeof(row->ops[0]));
	if (!row)
		return NULL;
	memset(row, 0, sizeof(*row));
	row->r = d.r;
	row->nops = (u16)total;
	if (d.cfa_ops)
		memcpy(row->ops, d.cfa_ops, row->r.cfa_nops * sizeof(row->ops[0]));
	for (int r = 0; r < DW_NR_REGS; r++)
		if (d.expr[r])
			memcpy(row->ops + row->r.regs[r].first, d.expr[r],
			       row->r.regs[r].nops * sizeof(row->ops[0]));
	return row;
}

static size_t row_key_hash(const struct dso_cfi *cd, u64 vaddr)
{
	return (size_t)hash__u64x2((u64)(uintptr_t)cd, vaddr);
}

/* .eh_frame first, then .debug_frame, as libdwfl's unwinder looks */
static struct cfi_row *cfi_dso__make_row(const struct dso_cfi *cd, u64 vaddr)
{
	Dwarf_CFI *cfis[2] = { cd->eh, cd->debug };

	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *frame;
		struct cfi_row *row;

		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], vaddr, &frame))
			continue;
		row = row_from_frame(frame);
		free(frame);
		if (row)
			return row;
	}
	return NULL;
}

/*
 * Rows kept at most: a profile's distinct addresses are far fewer (its hot code), but a
 * corrupt or hostile file can name any; past this the cache starts over (~16 MB).
 */
#define ROWS_MAX	65536

/*
 * The row of (cd, vaddr), made on first use; NULL only when out of memory. Valid until the
 * next call (a full cache starts over).
 */
static const struct cfi_row *unwind_dwarf__row(struct unwind_dwarf *ud, const struct dso_cfi *cd,
					       u64 vaddr)
{
	size_t hash = row_key_hash(cd, vaddr);
	struct hashmap_node *pos;
	struct cfi_row *row;

	hashmap__for_each_hash(&ud->rows, pos, hash) {
		row = container_of(pos, struct cfi_row, node);
		if (row->cd == cd && row->vaddr == vaddr)
			return row;
	}
	if (hashmap__nr(&ud->rows) >= ROWS_MAX)
		unwind_dwarf__clear_rows(ud);
	row = cfi_dso__make_row(cd, vaddr);
	if (!row) {
		row = calloc(1, sizeof(*row));
		if (!row)
			return NULL;
		row->err = -ENOENT;
	}
	row->cd = cd;
	row->vaddr = vaddr;
	if (hashmap__add(&ud->rows, &row->node, hash)) {
		free(row);
		return NULL;
	}
	return row;
}

/* the row for a sampled address in thread's maps: -ENOENT without map, DSO file or CFI */
static int unwind_dwarf__find_row(struct unwind_dwarf *ud, struct thread *thread, u64 ip,
				  const struct cfi_row **rowp)
{
	const struct cfi_row *row;
	const struct dso_cfi *cd;
	struct dso_file *df;
	struct map *map;

	map = thread && thread->maps ? maps__find(thread->maps, ip) : NULL;
	if (!map || !map->dso)
		return -ENOENT;
	/* the DSO's CFI, opened with its first row: the dso keeps it for its lifetime */
	df = dso__file(map->dso);
	if (!df)
		return -ENOMEM;
	cd = dso_file__cfi(df, ud->conf);
	if (!cd->eh && !cd->debug)
		return -ENOENT;
	row = unwind_dwarf__row(ud, cd, dso_file__vaddr(df, map__map_ip(map, ip)));
	if (!row)
		return -ENOMEM;
	if (row->err)
		return row->err;
	*rowp = row;
	return 0;
}

int unwind_dwarf__rule(struct unwind_dwarf *ud, struct thread *thread, u64 ip,
		       struct unwind_rule *rule)
{
	const struct reg_rule *ra, *fp, *sp;
	const struct cfi_row *row;
	int err;

	err = unwind_dwarf__find_row(ud, thread, ip, &row);
	if (err)
		return err;
	ra = &row->r.regs[DW_REG_RA];
	fp = &row->r.regs[DW_REG_RBP];
	sp = &row->r.regs[DW_REG_RSP];
	/* the rule's shape: CFA from SP or FP, RA in memory, FP kept or in memory, SP' = CFA */
	if (row->r.cfa_is_expr || (row->r.cfa_reg != DW_REG_RSP && row->r.cfa_reg != DW_REG_RBP) ||
	    ra->kind != RULE_OFFSET || (fp->kind != RULE_SAME && fp->kind != RULE_OFFSET) ||
	    sp->kind != RULE_VAL_OFFSET || sp->off != 0)
		return -EOPNOTSUPP;
	*rule = (struct unwind_rule){
		.base = row->r.cfa_reg == DW_REG_RSP ? UNWIND_BASE_SP : UNWIND_BASE_FP,
		.cfa_off = row->r.cfa_off,
		.ra = UNWIND_LOC_CFA,
		.ra_off = ra->off,
		.fp = fp->kind == RULE_OFFSET ? UNWIND_LOC_CFA : UNWIND_LOC_SAME,
		.fp_off = fp->kind == RULE_OFFSET ? fp->off : 0,
		.source = UNWIND_SRC_CFI,
	};
	/* rbp's slot below SP: popped already, rbp is the caller's (as in the walk below) */
	if (rule->fp == UNWIND_LOC_CFA && rule->base == UNWIND_BASE_SP &&
	    (s64)rule->cfa_off + rule->fp_off < 0) {
		rule->fp = UNWIND_LOC_SAME;
		rule->fp_off = 0;
	}
	return 0;
}

/* ---- the walk ---- */

struct uregs {
	u64	v[DW_NR_REGS];
	u32	valid;		/* bit n: v[n] is known */
};

static bool reg_get(const struct uregs *r, unsigned long reg, u64 *val)
{
	if (reg >= DW_NR_REGS || !(r->valid & (1U << reg)))
		return false;
	*val = r->v[reg];
	return true;
}

/*
 * A DWARF expression of the CFI (no control flow, no calls: none of x86-64's CFI needs
 * them), over the frame's registers and the dump. cfa: pushed for DW_OP_call_frame_cfa,
 * when have_cfa.
 */
static bool expr_eval(const Dwarf_Op *ops, u16 nops, const struct uregs *r,
		      const struct unwind_stack *st, u64 cfa, bool have_cfa, u64 *out)
{
	u64 s[EXPR_STACK], a, b;
	unsigned int n = 0;

#define NEED(k)		do { if (n < (k)) return false; } while (0)
#define PUSH(x)		do { u64 x_ = (x); if (n == EXPR_STACK) return false; s[n++] = x_; } while (0)
	for (u16 i = 0; i < nops; i++) {
		const Dwarf_Op *op = &ops[i];
		u8 atom = op->atom;

		if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
			PUSH((u64)(atom - DW_OP_lit0));
			continue;
		}
		if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
			if (!reg_get(r, atom - DW_OP_breg0, &a))
				return false;
			PUSH(a + op->number);
			continue;
		}
		switch (atom) {
		case DW_OP_addr:
		case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
		case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
		case DW_OP_constu: case DW_OP_consts:
			/* libdw keeps the signed forms sign-extended in number */
			PUSH(op->number);
			break;
		case DW_OP_bregx:
			if (!reg_get(r, op->number, &a))
				return false;
			PUSH(a + op->number2);
			break;
		case DW_OP_call_frame_cfa:
			if (!have_cfa)
				return false;
			PUSH(cfa);
			break;
		case DW_OP_dup:
			NEED(1);
			PUSH(s[n - 1]);
			break;
		case DW_OP_drop:
			NEED(1);
			n--;
			break;
		case DW_OP_over:
			NEED(2);
			PUSH(s[n - 2]);
			break;
		case DW_OP_pick:
			if (op->number >= n)
				return false;
			a = s[n - 1 - op->number];
			PUSH(a);
			break;
		case DW_OP_swap:
			NEED(2);
			a = s[n - 1];
			s[n - 1] = s[n - 2];
			s[n - 2] = a;
			break;
		case DW_OP_rot:
			NEED(3);
			a = s[n - 1];
			s[n - 1] = s[n - 2];
			s[n - 2] = s[n - 3];
			s[n - 3] = a;
			break;
		case DW_OP_deref:
			NEED(1);
			if (!unwind_stack__read(st, s[n - 1], 8, &s[n - 1]))
				return false;
			break;
		case DW_OP_deref_size:
			NEED(1);
			if (op->number < 1 || op->number > 8 ||
			    !unwind_stack__read(st, s[n - 1], (u32)op->number, &s[n - 1]))
				return false;
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			s[n - 1] += op->number;
			break;
		case DW_OP_abs:
			NEED(1);
			if ((s64)s[n - 1] < 0)
				s[n - 1] = -s[n - 1];
			break;
		case DW_OP_neg:
			NEED(1);
			s[n - 1] = -s[n - 1];
			break;
		case DW_OP_not:
			NEED(1);
			s[n - 1] = ~s[n - 1];
			break;
		case DW_OP_nop:
			break;
		case DW_OP_and: case DW_OP_div: case DW_OP_minus: case DW_OP_mod: case DW_OP_mul:
		case DW_OP_or: case DW_OP_plus: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
		case DW_OP_xor: case DW_OP_eq: case DW_OP_ge: case DW_OP_gt: case DW_OP_le:
		case DW_OP_lt: case DW_OP_ne:
			NEED(2);
			b = s[--n];
			a = s[n - 1];
			switch (atom) {
			case DW_OP_and:		a &= b; break;
			case DW_OP_div:
				if (!b || ((s64)a == INT64_MIN && (s64)b == -1))
					return false;
				a = (u64)((s64)a / (s64)b);
				break;
			case DW_OP_minus:	a -= b; break;
			case DW_OP_mod:
				if (!b)
					return false;
				a %= b;
				break;
			case DW_OP_mul:		a *= b; break;
			case DW_OP_or:		a |= b; break;
			case DW_OP_plus:	a += b; break;
			case DW_OP_shl:		a = b < 64 ? a << b : 0; break;
			case DW_OP_shr:		a = b < 64 ? a >> b : 0; break;
			case DW_OP_shra:
				a = (u64)((s64)a >> (b < 64 ? b : 63));
				break;
			case DW_OP_xor:		a ^= b; break;
			case DW_OP_eq:		a = a == b; break;
			case DW_OP_ge:		a = (s64)a >= (s64)b; break;
			case DW_OP_gt:		a = (s64)a > (s64)b; break;
			case DW_OP_le:		a = (s64)a <= (s64)b; break;
			case DW_OP_lt:		a = (s64)a < (s64)b; break;
			default:		a = a != b; break;
			}
			s[n - 1] = a;
			break;
		default:
			return false;
		}
	}
#undef NEED
#undef PUSH
	if (!n)
		return false;
	*out = s[n - 1];
	return true;
}

/*
 * A register's value in the caller by its rule (not RA's or rbp's slot: the step reads
 * those). false: lost, which only matters if a later rule needs it. Always inlined: it runs
 * for every register of every frame, where a call cost about a tenth of the walk.
 */
static inline __attribute__((always_inline))
bool reg_value(const struct cfi_row *row, int i, const struct uregs *cur,
	       const struct unwind_stack *st, u64 cfa, u64 *val)
{
	const struct reg_rule *rule = &row->r.regs[i];
	u64 v;

	switch (rule->kind) {
	case RULE_SAME:
		return reg_get(cur, i, val);
	case RULE_OFFSET:
		v = cfa + (u64)(s64)rule->off;
		/*
		 * A slot below this frame's SP was popped already: gcc's epilogues keep the
		 * "saved at CFA-16" rule for rbp after `pop %rbp` up to the `ret`, while the
		 * register holds the caller's value again. (libdwfl reads the dead slot, outside
		 * the dump, and loses rbp and every frame above.)
		 */
		if ((cur->valid & (1U << DW_REG_RSP)) && v < cur->v[DW_REG_RSP])
			return reg_get(cur, i, val);
		return unwind_stack__read(st, v, 8, val);
	case RULE_VAL_OFFSET:
		*val = cfa + (u64)(s64)rule->off;
		return true;
	case RULE_REGISTER:
		return reg_get(cur, rule->reg, val);
	case RULE_EXPR:
		return expr_eval(row->ops + rule->first, rule->nops, cur, st, cfa, true, &v) &&
		       unwind_stack__read(st, v, 8, val);
	case RULE_VAL_EXPR:
		return expr_eval(row->ops + rule->first, rule->nops, cur, st, cfa, true, val);
	case RULE_UNDEF:
	default:
		return false;
	}
}

/* a save slot the step reads (and checks): at CFA + off, not below the frame's SP */
static bool reg_slot(const struct cfi_row *row, int i, const struct uregs *cur, u64 cfa)
{
	const struct reg_rule *rule = &row->r.regs[i];

	return rule->kind == RULE_OFFSET && (!(cur->valid & (1U << DW_REG_RSP)) ||
					     cfa + (u64)(s64)rule->off >= cur->v[DW_REG_RSP]);
}

/*
 * The CFI provider of the walk: row evaluated over the frame's registers cur as a rule for
 * unwind_step(). The CFA, whatever its form, is handed over as an offset from the step's SP;
 * RA and rbp as their save slots where they are in one, else as values (st->ra_val,
 * fp_val); every other register into next, for the rules of the frames above. Returns
 * UNWIND_OK, or why the row cannot be applied here.
 */
static enum unwind_stop cfi_row__rule(const struct cfi_row *row, const struct uregs *cur,
				      const struct unwind_stack *stack, struct unwind_state *st,
				      struct unwind_rule *rule, struct uregs *next)
{
	u64 cfa, v;
	s64 delta;

	*rule = (struct unwind_rule){ .base = UNWIND_BASE_SP, .ra = UNWIND_LOC_UNDEF,
				      .fp = UNWIND_LOC_UNDEF, .source = UNWIND_SRC_CFI };
	if (row->r.cfa_is_expr) {
		if (!expr_eval(row->ops, row->r.cfa_nops, cur, stack, 0, false, &cfa))
			return UNWIND_STOP_NO_RULE;
	} else {
		if (!reg_get(cur, row->r.cfa_reg, &cfa))
			return UNWIND_STOP_NO_RULE;
		cfa += (u64)(s64)row->r.cfa_off;
	}
	/* the outermost frame: the step says so */
	if (row->r.regs[DW_REG_RA].kind == RULE_UNDEF)
		return UNWIND_OK;
	/* a CFA this far from SP is no frame of a dump (at most 64 KiB) */
	delta = (s64)(cfa - st->sp);
	if (delta < INT32_MIN)
		return UNWIND_STOP_LOOP;
	if (delta > INT32_MAX)
		return UNWIND_STOP_OUTSIDE_DUMP;
	rule->cfa_off = (s32)delta;
	next->valid = 0;
	for (int i = 0; i < DW_NR_REGS; i++) {
		if (i == DW_REG_RA || i == DW_REG_RBP)
			continue;
		if (reg_value(row, i, cur, stack, cfa, &v)) {
			next->v[i] = v;
			next->valid |= 1U << i;
		}
	}
	if (reg_slot(row, DW_REG_RA, cur, cfa)) {
		rule->ra = UNWIND_LOC_CFA;
		rule->ra_off = row->r.regs[DW_REG_RA].off;
	} else if (reg_value(row, DW_REG_RA, cur, stack, cfa, &st->ra_val)) {
		rule->ra = UNWIND_LOC_VAL;
	} else {
		return UNWIND_STOP_NO_RULE;
	}
	if (reg_slot(row, DW_REG_RBP, cur, cfa)) {
		rule->fp = UNWIND_LOC_CFA;
		rule->fp_off = row->r.regs[DW_REG_RBP].off;
	} else if (reg_value(row, DW_REG_RBP, cur, stack, cfa, &st->fp_val)) {
		rule->fp = UNWIND_LOC_VAL;
	}
	return UNWIND_OK;
}

/*
 * The registers of the sample: false without the ABI's ip and sp. A swapped file's
 * registers were swapped by the reader; its dump is the traced machine's memory.
 */
static bool sample_regs(const struct perf_sample *sample, struct uregs *r)
{
	u64 vals[PERF_REG_X86_64_MAX] = { 0 };
	u64 mask = sample->user_regs_mask;
	u32 have = 0;
	unsigned int k = 0;

	if (sample->user_regs_abi != PERF_SAMPLE_REGS_ABI_64 || !sample->user_regs)
		return false;
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		if (bit < PERF_REG_X86_64_MAX) {
			vals[bit] = sample->user_regs[k];
			have |= 1U << bit;
		}
		k++;
	}
	r->valid = 0;
	for (int i = 0; i < DW_NR_REGS; i++) {
		if (have & (1U << perf_reg_of_dwarf[i])) {
			r->v[i] = vals[perf_reg_of_dwarf[i]];
			r->valid |= 1U << i;
		}
	}
	return (r->valid & (1U << DW_REG_RA)) && (r->valid & (1U << DW_REG_RSP));
}

int unwind_dwarf__walk(struct unwind_dwarf *ud, struct thread *thread,
		       const struct perf_sample *sample, bool swapped, u64 *ips, u32 max,
		       enum unwind_stop *why)
{
	struct uregs regs[2], *cur = &regs[0], *next = &regs[1], *tmp;
	struct unwind_stack stack;
	struct unwind_state st = { .ws = 8 };
	enum unwind_stop stop = UNWIND_OK;
	bool activation = true;	/* the top frame, or one a signal interrupted: pc is exact */
	bool decremented = false;	/* ips[n - 1] is pc - 1 */
	u32 n = 0;

	if (why)
		*why = UNWIND_STOP_END;
	if (!sample_regs(sample, cur))
		return -EINVAL;
	if (!max)
		return 0;
	stack = (struct unwind_stack){
		.data = sample->user_stack, .base = cur->v[DW_REG_RSP], .swapped = swapped,
		.size = sample->user_stack ? sample->user_stack_size : 0,
	};
	if (sample->user_stack_dyn_size < stack.size)
		stack.size = sample->user_stack_dyn_size;
	st.ip = cur->v[DW_REG_RA];
	st.sp = cur->v[DW_REG_RSP];
	st.fp = cur->v[DW_REG_RBP];
	st.fp_unknown = !(cur->valid & (1U << DW_REG_RBP));
	ips[n++] = st.ip;

	for (;;) {
		const struct cfi_row *row;
		struct unwind_rule rule;
		int ret;

		ret = unwind_dwarf__find_row(ud, thread, activation ? st.ip : st.ip - 1, &row);
		if (ret == -ENOMEM)
			return ret;
		if (!ret) {
			/*
			 * A signal trampoline's own address is exact too: said of a frame the
			 * walk goes on from (within the caller's max and the frame cap).
			 */
			if (row->r.signal && decremented && n < max &&
			    st.nr + 1 < UNWIND_MAX_FRAMES)
				ips[n - 1] = st.ip;
			stop = cfi_row__rule(row, cur, &stack, &st, &rule, next);
		} else {
			/*
			 * No CFI covers the ip (no map, no DSO file, code the CFI leaves out such
			 * as .init/.fini): the frame-pointer frame, which is what libdwfl
			 * (elfutils' x86-64 backend) falls back on and so what upstream perf
			 * prints; every register but RA, rsp and rbp is lost.
			 */
			row = NULL;
			rule = unwind_rule__fp(8);
			next->valid = 0;
		}
		if (stop == UNWIND_OK)
			stop = unwind_step(&st, &rule, &stack);
		if (stop != UNWIND_OK)
			break;
		/* the caller's room ends before the frame cap: no stop of the walk's own */
		if (n == max)
			break;
		next->v[DW_REG_RA] = st.ip;
		next->valid |= 1U << DW_REG_RA;
		if (!row) {
			next->v[DW_REG_RSP] = st.sp;
			next->valid |= 1U << DW_REG_RSP;
		}
		next->valid &= ~(1U << DW_REG_RBP);
		if (!st.fp_unknown) {
			next->v[DW_REG_RBP] = st.fp;
			next->valid |= 1U << DW_REG_RBP;
		}
		activation = row && row->r.signal;
		decremented = !activation;
		ips[n++] = activation ? st.ip : st.ip - 1;
		tmp = cur;
		cur = next;
		next = tmp;
	}
	if (why)
		*why = stop;
	return (int)n;
}
