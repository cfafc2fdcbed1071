// SPDX-License-Identifier: GPL-2.0
/*
 * symbol.c - symbol tables with upstream perf's exact lookup results.
 *
 * perf keeps a DSO's symbols in a red-black tree keyed by start address and never removes
 * overlaps: when symbols overlap (nested asm entry points, PLT entries added after the
 * fixups, sized objects), which one a lookup returns depends on the tree's shape, and so on
 * the insertion order and on the duplicates erased in between. To return the same symbol,
 * the build phase replays those operations on a red-black tree of indices with the same
 * insert/erase rules. Sealing turns it into a sorted array; when nothing overlaps, a binary
 * search over it is provably the same as the tree search, otherwise the answer of the tree
 * search is tabulated once per elementary address range (both are O(log n) per lookup).
 *
 * Most tables arrive sorted (kallsyms, a sealed table reopened): while every symbol added
 * starts at or after the previous one, the tree is not built at all. Its in-order walk is
 * then the insertion order (equal starts go right), so the fixups walk the array and log
 * their erasures; the tree is built (inserts in order, then the logged erasures) only when
 * its shape matters: a lookup or removal while adding, an out-of-order or post-erasure
 * insert, or overlaps left when sealing.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rbtree.h"
#include "symbol.h"

#define NIL UINT32_MAX

struct sym_node {
	u32	name_off;
	u8	in_tree;
	u8	ifunc_alias;
};

struct symbols_build {
	struct sym_node	*nodes;		/* parallel to syms[], in insertion order */
	size_t		alloc;
	/* the tree's links, parallel to nodes[]: only once the tree is built (not lazy) */
	struct rbnode	*rb;
	struct rbroot	root;
	bool		failed;		/* no memory for the links: sealing gives an empty table */
	/* no tree yet: nodes[0 .. nr) sorted by start; in_tree says which are not erased */
	bool		lazy;
	u32		*erased;	/* while lazy: erasures in order, replayed on the tree */
	size_t		nr_erased, erased_alloc;
};

void symbols__init(struct symbols *s)
{
	memset(s, 0, sizeof(*s));
}

static void build__free(struct symbols *s)
{
	if (s->build) {
		free(s->build->nodes);
		free(s->build->rb);
		free(s->build->erased);
		free(s->build);
		s->build = NULL;
	}
}

void symbols__exit(struct symbols *s)
{
	build__free(s);
	free(s->syms);
	free(s->arena);
	free(s->keys);
	free(s->key_sym);
	symbols__init(s);
}

/* ---- the tree: perf's rb_root of symbols, over the nodes parallel to syms[] ---- */

static inline struct sym_node *N(const struct symbols *s, u32 i)
{
	return &s->build->nodes[i];
}

/* the index of a tree node; NIL for NULL */
static inline u32 idx_of(const struct symbols *s, const struct rbnode *n)
{
	return n ? (u32)(n - s->build->rb) : NIL;
}

static void tree_insert(struct symbols *s, u32 z)
{
	struct rbnode **link = &s->build->root.node, *parent = NULL;
	u64 start = s->syms[z].start;

	/* equal starts go right: a later symbol sorts after the earlier ones */
	while (*link) {
		parent = *link;
		link = start < s->syms[idx_of(s, parent)].start ? &parent->left : &parent->right;
	}
	N(s, z)->in_tree = 1;
	N(s, z)->ifunc_alias = 0;
	rbtree__insert(&s->build->root, &s->build->rb[z], parent, link);
}

static u32 tree_first(const struct symbols *s)
{
	return idx_of(s, rbtree__first(&s->build->root));
}

static u32 tree_next(const struct symbols *s, u32 n)
{
	return idx_of(s, rbtree__next(&s->build->rb[n]));
}

static void tree_erase(struct symbols *s, u32 z)
{
	rbtree__erase(&s->build->root, &s->build->rb[z]);
	N(s, z)->in_tree = 0;
}

/* perf's symbols__find(): note a zero-sized symbol matches its start */
static u32 tree_search(const struct symbols *s, u64 ip)
{
	const struct rbnode *n = s->build->root.node;

	while (n) {
		const struct symbol *sym = &s->syms[idx_of(s, n)];

		if (ip < sym->start)
			n = n->left;
		else if (ip > sym->end || (ip == sym->end && ip != sym->start))
			n = n->right;
		else
			return idx_of(s, n);
	}
	return NIL;
}

/* ---- the tree not built yet ---- */

static bool tree_build(struct symbols *s);

/* the order the tree would have: insertion order without the erased */
static u32 order_first(const struct symbols *s)
{
	if (!s->build->lazy)
		return tree_first(s);
	for (u32 i = 0; i < s->nr; i++)
		if (N(s, i)->in_tree)
			return i;
	return NIL;
}

static u32 order_next(const struct symbols *s, u32 n)
{
	if (!s->build->lazy)
		return tree_next(s, n);
	for (u32 i = n + 1; i < s->nr; i++)
		if (N(s, i)->in_tree)
			return i;
	return NIL;
}

static void order_erase(struct symbols *s, u32 z)
{
	struct symbols_build *b = s->build;

	if (!b->lazy) {
		tree_erase(s, z);
		return;
	}
	if (b->nr_erased == b->erased_alloc) {
		size_t n = b->erased_alloc ? b->erased_alloc * 2 : 64;
		u32 *e = realloc(b->erased, n * sizeof(*e));

		if (!e) {
			/* out of memory: erase on the real tree instead (slower, same result) */
			if (tree_build(s))
				tree_erase(s, z);
			N(s, z)->in_tree = 0;
			return;
		}
		b->erased = e;
		b->erased_alloc = n;
	}
	b->erased[b->nr_erased++] = z;
	N(s, z)->in_tree = 0;
}

/*
 * build the tree the operations so far would have made: all inserts came before the erasures.
 * false: no memory for it (failed is set: the table seals empty)
 */
static bool tree_build(struct symbols *s)
{
	struct symbols_build *b = s->build;

	if (!b->lazy)
		return true;
	if (b->failed)
		return false;
	b->rb = malloc((b->alloc ? b->alloc : 1) * sizeof(*b->rb));
	if (!b->rb) {
		b->failed = true;
		return false;
	}
	b->lazy = false;
	b->root.node = NULL;
	for (u32 i = 0; i < s->nr; i++) {
		u8 alias = N(s, i)->ifunc_alias;

		tree_insert(s, i);
		N(s, i)->ifunc_alias = alias;
	}
	for (size_t i = 0; i < b->nr_erased; i++)
		tree_erase(s, b->erased[i]);
	free(b->erased);
	b->erased = NULL;
	b->nr_erased = b->erased_alloc = 0;
	return true;
}

/* ---- adding ---- */

static int arena__add(struct symbols *s, const char *name, u32 *off)
{
	size_t len = strlen(name) + 1;

	if (s->arena_len + len > UINT32_MAX)
		return -E2BIG;
	if (s->arena_len + len > s->arena_alloc) {
		size_t n = s->arena_alloc ? s->arena_alloc * 2 : 4096;
		char *a;

		while (n < s->arena_len + len)
			n *= 2;
		a = realloc(s->arena, n);
		if (!a)
			return -ENOMEM;
		s->arena = a;
		s->arena_alloc = n;
	}
	memcpy(s->arena + s->arena_len, name, len);
	*off = (u32)s->arena_len;
	s->arena_len += len;
	return 0;
}

static int symbols__grow(struct symbols *s)
{
	size_t n = s->alloc ? s->alloc * 2 : 64;
	struct symbol *syms;
	struct sym_node *nodes;

	if (n >= NIL)
		return -E2BIG;
	syms = realloc(s->syms, n * sizeof(*syms));
	if (!syms)
		return -ENOMEM;
	s->syms = syms;
	nodes = realloc(s->build->nodes, n * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	s->build->nodes = nodes;
	if (s->build->rb) {
		/* the tree's links point into the old array: copied, then moved over */
		struct rbnode *rb = malloc(n * sizeof(*rb));

		if (!rb)
			return -ENOMEM;
		memcpy(rb, s->build->rb, s->nr * sizeof(*rb));
		rbtree__move(&s->build->root, s->build->rb, rb);
		free(s->build->rb);
		s->build->rb = rb;
	}
	s->alloc = s->build->alloc = n;
	return 0;
}

/* back from sealed to adding: re-insert in sorted order (names already in the arena) */
static int symbols__reopen(struct symbols *s)
{
	s->build = calloc(1, sizeof(*s->build));
	if (!s->build)
		return -ENOMEM;
	s->build->lazy = true;
	free(s->keys);
	free(s->key_sym);
	s->keys = NULL;
	s->key_sym = NULL;
	s->nr_keys = 0;
	if (s->alloc) {
		s->build->nodes = malloc(s->alloc * sizeof(*s->build->nodes));
		if (!s->build->nodes) {
			build__free(s);
			return -ENOMEM;
		}
		s->build->alloc = s->alloc;
	}
	/* sealed tables are sorted: the nodes stay out of a tree until one is needed */
	for (size_t i = 0; i < s->nr; i++) {
		*N(s, (u32)i) = (struct sym_node){ .in_tree = 1,
						   .name_off = (u32)(s->syms[i].name - s->arena) };
		s->syms[i].name = NULL;
	}
	return 0;
}

long symbols__insert(struct symbols *s, u64 start, u64 end, const char *name, u8 binding,
		     u8 type)
{
	u32 off;
	int err;

	if (!s->build) {
		err = symbols__reopen(s);
		if (err)
			return err;
	}
	if (s->nr == s->alloc) {
		err = symbols__grow(s);
		if (err)
			return err;
	}
	err = arena__add(s, name, &off);
	if (err)
		return err;
	/* end 0 is "unknown", which perf represents as a zero-sized symbol */
	s->syms[s->nr] = (struct symbol){ .start = start, .end = end ? end : start,
					  .binding = binding, .type = type };
	N(s, (u32)s->nr)->name_off = off;
	N(s, (u32)s->nr)->ifunc_alias = 0;
	if (s->build->lazy && !s->build->nr_erased &&
	    (!s->nr || start >= s->syms[s->nr - 1].start)) {
		N(s, (u32)s->nr)->in_tree = 1;
		return (long)s->nr++;
	}
	if (!tree_build(s))
		return -ENOMEM;
	tree_insert(s, (u32)s->nr);
	return (long)s->nr++;
}

int symbols__add(struct symbols *s, u64 start, u64 end, const char *name, u8 binding, u8 type)
{
	long idx = symbols__insert(s, start, end, name, binding, type);

	return idx < 0 ? (int)idx : 0;
}

long symbols__find_idx(struct symbols *s, u64 addr)
{
	u32 n;

	if (!s->build || !tree_build(s))
		return -1;
	n = tree_search(s, addr);
	return n == NIL ? -1 : (long)n;
}

struct symbol *symbols__at(struct symbols *s, long idx)
{
	return &s->syms[idx];
}

const char *symbols__name(const struct symbols *s, long idx)
{
	return s->build ? s->arena + N(s, (u32)idx)->name_off : s->syms[idx].name;
}

bool symbols__is_ifunc(const struct symbols *s, long idx)
{
	return s->syms[idx].type == STT_GNU_IFUNC || (s->build && N(s, (u32)idx)->ifunc_alias);
}

void symbols__remove(struct symbols *s, long idx)
{
	if (s->build && N(s, (u32)idx)->in_tree) {
		if (tree_build(s))
			tree_erase(s, (u32)idx);
		N(s, (u32)idx)->in_tree = 0;
	}
}

/* ---- perf's fixups ---- */

static u64 page_roundup(u64 x)
{
	return (x + 4095) / 4096 * 4096;
}

static void fixup_end(struct symbols *s, bool is_kallsyms)
{
	u32 prev, curr = order_first(s);

	if (curr == NIL)
		return;
	for (u32 nd = order_next(s, curr); nd != NIL; nd = order_next(s, nd)) {
		struct symbol *p;
		const char *prev_mod, *curr_mod;

		prev = curr;
		curr = nd;
		p = &s->syms[prev];
		if (p->end != p->start)
			continue;
		if (!is_kallsyms) {
			p->end = s->syms[curr].start;
			continue;
		}
		/* the last symbol of the kernel or of a module must not swallow the gap after it */
		prev_mod = strchr(symbols__name(s, prev), '[');
		curr_mod = strchr(symbols__name(s, curr), '[');
		if (!prev_mod != !curr_mod)
			p->end = page_roundup(p->end + 4096);
		else if (prev_mod && strcmp(prev_mod, curr_mod))
			p->end = page_roundup(p->end + 4096);
		else
			p->end = s->syms[curr].start;
	}
	if (s->syms[curr].end == s->syms[curr].start)
		s->syms[curr].end = page_roundup(s->syms[curr].start) + 4096;
}

static size_t leading_underscores(const char *name)
{
	size_t n = 0;

	while (name[n] == '_')
		n++;
	return n;
}

/* true: keep a, false: keep b; perf's choose_best_symbol() criteria in its order */
static bool choose_first(const struct symbols *s, u32 ia, u32 ib)
{
	const struct symbol *a = &s->syms[ia], *b = &s->syms[ib];
	const char *na = symbols__name(s, ia), *nb = symbols__name(s, ib);
	s64 la = (s64)(a->end - a->start), lb = (s64)(b->end - b->start);
	size_t ua, ub;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	if (a->type != b->type) {
		if (a->type == STT_NOTYPE)
			return false;
		if (b->type == STT_NOTYPE)
			return true;
	}
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	ua = leading_underscores(na);
	ub = leading_underscores(nb);
	if (ua != ub)
		return ua < ub;
	ua = strlen(na);
	ub = strlen(nb);
	if (ua != ub)
		return ua > ub;
	/* the kernel's "SyS" syscall aliases lose the final tie */
	if (!strncmp(na, "SyS", 3) || !strncmp(na, "compat_SyS", 10))
		return false;
	return true;
}

static void fixup_duplicate(struct symbols *s)
{
	u32 curr = order_first(s);

	while (curr != NIL) {
		u32 next = order_next(s, curr);

		if (next == NIL)
			break;
		if (s->syms[curr].start != s->syms[next].start) {
			curr = next;
			continue;
		}
		if (choose_first(s, curr, next)) {
			if (s->syms[next].type == STT_GNU_IFUNC)
				N(s, curr)->ifunc_alias = 1;
			order_erase(s, next);
		} else {
			if (s->syms[curr].type == STT_GNU_IFUNC)
				N(s, next)->ifunc_alias = 1;
			order_erase(s, curr);
			curr = next;
		}
	}
}

void symbols__fixup(struct symbols *s, bool is_kallsyms)
{
	if (!s->build)
		return;
	fixup_end(s, is_kallsyms);
	fixup_duplicate(s);
}

/* ---- sealing ---- */

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static bool needs_ranges(const struct symbol *syms, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (syms[i].end < syms[i].start)
			return true;
		if (i + 1 < nr && (syms[i + 1].start == syms[i].start ||
				   syms[i].end > syms[i + 1].start))
			return true;
	}
	return false;
}

/*
 * With overlaps, tabulate the tree search: its outcome only changes at a start, an end, or
 * just after a zero-sized symbol's start, so one search per such point covers everything.
 */
static int build_ranges(struct symbols *s, const u32 *new_idx)
{
	size_t nb = 0, nr = 0;
	u64 *pts = malloc((3 * s->nr + 1) * sizeof(*pts));
	u32 *hits;

	if (!pts)
		return -ENOMEM;
	/* the search below is the tree's: its shape decides among overlaps */
	if (!tree_build(s)) {
		free(pts);
		return -ENOMEM;
	}
	pts[nb++] = 0;
	for (u32 i = tree_first(s); i != NIL; i = tree_next(s, i)) {
		pts[nb++] = s->syms[i].start;
		pts[nb++] = s->syms[i].end;
		if (s->syms[i].end == s->syms[i].start && s->syms[i].start != UINT64_MAX)
			pts[nb++] = s->syms[i].start + 1;
	}
	qsort(pts, nb, sizeof(*pts), cmp_u64);
	hits = malloc(nb * sizeof(*hits));
	if (!hits) {
		free(pts);
		return -ENOMEM;
	}
	/* in place: entry nr is written only after entry i >= nr was read */
	for (size_t i = 0; i < nb; i++) {
		u32 hit;

		if (i && pts[i] == pts[i - 1])
			continue;
		hit = tree_search(s, pts[i]);
		hit = hit == NIL ? NIL : new_idx[hit];
		if (nr && hits[nr - 1] == hit)
			continue;
		pts[nr] = pts[i];
		hits[nr++] = hit;
	}
	/* give back what merging saved; shrinking cannot fail in a way that matters */
	s->keys = realloc(pts, nr * sizeof(*pts)) ?: pts;
	s->key_sym = realloc(hits, nr * sizeof(*hits)) ?: hits;
	s->nr_keys = nr;
	return 0;
}

static int build_keys(struct symbols *s, const struct symbol *syms, size_t nr)
{
	s->keys = malloc((nr ? nr : 1) * sizeof(*s->keys));
	if (!s->keys)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		s->keys[i] = syms[i].start;
	s->nr_keys = nr;
	return 0;
}

void symbols__seal(struct symbols *s)
{
	struct symbol *syms = NULL;
	char *arena = NULL;
	u32 *new_idx = NULL;
	size_t nr = 0, len = 0;

	if (!s->build)
		return;
	if (s->build->failed)
		goto out_fail;
	for (u32 i = order_first(s); i != NIL; i = order_next(s, i)) {
		nr++;
		len += strlen(symbols__name(s, i)) + 1;
	}
	syms = malloc((nr ? nr : 1) * sizeof(*syms));
	arena = malloc(len ? len : 1);
	new_idx = malloc((s->nr ? s->nr : 1) * sizeof(*new_idx));
	if (!syms || !arena || !new_idx)
		goto out_fail;

	/* names are copied in address order, which also keeps the arena free of dead names */
	nr = len = 0;
	for (u32 i = order_first(s); i != NIL; i = order_next(s, i)) {
		const char *name = symbols__name(s, i);
		size_t l = strlen(name) + 1;

		memcpy(arena + len, name, l);
		syms[nr] = s->syms[i];
		syms[nr].name = arena + len;
		new_idx[i] = (u32)nr++;
		len += l;
	}
	if (needs_ranges(syms, nr) ? build_ranges(s, new_idx) : build_keys(s, syms, nr))
		goto out_fail;
	free(new_idx);
	build__free(s);
	free(s->syms);
	free(s->arena);
	s->syms = syms;
	s->nr = s->alloc = nr;
	s->arena = arena;
	s->arena_len = s->arena_alloc = len;
	return;

out_fail:
	/* out of memory: an empty table is wrong but safe; every lookup misses */
	free(syms);
	free(arena);
	free(new_idx);
	symbols__exit(s);
}

void symbols__finish(struct symbols *s)
{
	symbols__fixup(s, false);
	symbols__seal(s);
}

static bool sym_matches(const struct symbol *sym, u64 addr)
{
	return addr >= sym->start &&
	       (addr < sym->end || (addr == sym->end && addr == sym->start));
}

/* the last key <= addr, or -1; without branches on the data, which samples make random */
static long last_key_le(const u64 *keys, size_t nr, u64 addr)
{
	const u64 *base = keys;
	size_t n = nr;

	if (!nr || addr < keys[0])
		return -1;
	while (n > 1) {
		size_t half = n / 2;

		base = base[half] <= addr ? base + half : base;
		n -= half;
	}
	return base - keys;
}

const struct symbol *symbols__find(const struct symbols *s, u64 addr)
{
	long i;

	/* not sealed: names are not valid yet, so rather miss than hand out a NULL name */
	if (s->build)
		return NULL;
	i = last_key_le(s->keys, s->nr_keys, addr);
	if (i < 0)
		return NULL;
	if (s->key_sym)
		return s->key_sym[i] == NIL ? NULL : &s->syms[s->key_sym[i]];
	/* disjoint symbols: only the last one starting at or before addr can contain it */
	return sym_matches(&s->syms[i], addr) ? &s->syms[i] : NULL;
}
