// SPDX-License-Identifier: GPL-2.0
/*
 * hist-walk.c - the histogram's hash shortcut finds what upstream's tree walk finds.
 *
 * Upstream looks every sample's entry up by walking its entries_in tree, and some keys
 * compare in no consistent order: an unresolved address compares with another by address
 * alone, with a symbol by dso name first. Its walk can then pass an equal entry by and add a
 * second one (a live `-s sym` report once showed libc's write twice, 14.35% and 2.29%).
 * hist.c finds entries by hash where that gives the walk's answer, and walks elsewhere.
 *
 * Random sample sequences over a few symbols and unresolved addresses of three dsos go into
 * hists under several sort orders, and into a plain walk of the same tree kept here (the
 * kernel's rbtree, hists' own comparison): both must hold the same entries in the same
 * order with the same periods.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "util/dso.h"
#include "util/hist-internal.h"
#include "util/rbtree.h"
#include "util/symbol.h"
#include "tests.h"

struct ref_entry {
	struct hist_key	key;
	u64		period;
	struct rbnode	rb;
};

/* the walk upstream takes: no hash, a new entry where the descent ends */
static int ref__add(struct rbroot *root, struct ref_entry *pool, size_t *nr,
		    const struct hists *h, const struct hist_key *key)
{
	struct rbnode **link = &root->node, *parent = NULL;

	while (*link) {
		struct ref_entry *e = rbtree__entry(*link, struct ref_entry, rb);
		int cmp = hists__key_cmp_mode(h, &e->key, key, false);

		if (!cmp) {
			e->period++;
			return 0;
		}
		parent = *link;
		link = cmp < 0 ? &parent->left : &parent->right;
	}
	pool[*nr] = (struct ref_entry){ .key = *key, .period = 1 };
	rbtree__insert(root, &pool[*nr].rb, parent, link);
	(*nr)++;
	return 0;
}

#define NR_SAMPLES	14

static const struct symbol syms[] = {
	{ .start = 0x1000, .end = 0x1100, .name = "write" },
	{ .start = 0x1100, .end = 0x1200, .name = "read" },
	{ .start = 0x1000, .end = 0x1080, .name = "main" },
	/* write's range in another dso: -s sym,dso tells them apart by the dso key */
	{ .start = 0x1000, .end = 0x1100, .name = "usage" },
};

/* what a sample resolved to: a dso (index), a symbol (index or -1), an address */
static const struct { int dso, sym; u64 ip; } picks[] = {
	{ 1, 0, 0x1010 }, { 1, 1, 0x1110 }, { 2, 2, 0x1010 }, { 2, 3, 0x1020 },
	{ 0, -1, 0xf040 }, { 0, -1, 0x3000 }, { 2, -1, 0x2511 }, { 2, -1, 0x5249 },
	{ 1, -1, 0x9000 },
};

/*
 * NR_SAMPLES random picks into hists sorted by order and into the plain walk: 1 when both
 * hold the same entries, 0 when they differ, -1 when hists could not be set up
 */
static int walk_agrees(const char *order, struct dso *const *dsos, unsigned int *seed,
		       size_t *nr_entries, size_t *nr_walk)
{
	struct hist_opts opts = { .show_header = false };
	struct ref_entry pool[NR_SAMPLES];
	struct rbroot ref = { NULL };
	struct rbnode *a, *b;
	struct perf_err err;
	struct hists *h;
	bool same = true;

	*nr_walk = 0;
	chain_params__init(&opts.chain);
	if (hist_opts__setup(&opts, order, NULL, false, false, false, &err))
		return -1;
	h = hists__new(&opts);
	if (!h)
		return -1;
	for (int i = 0; i < NR_SAMPLES; i++) {
		struct hist_sample s;
		struct hist_key k;
		int p;

		*seed = *seed * 1103515245 + 12345;
		p = (int)((*seed >> 16) % ARRAY_SIZE(picks));
		s = (struct hist_sample){
			.comm = (*seed >> 8) & 1 ? "sh" : "yes", .pid = 1, .tid = 1, .level = '.',
			.period = 1, .dso = dsos[picks[p].dso], .ip = picks[p].ip,
			.sym = picks[p].sym < 0 ? NULL : &syms[picks[p].sym],
		};
		if (hists__add_sample(h, &s)) {
			hists__delete(h);
			return -1;
		}
		k = (struct hist_key){ .comm = hists__intern(h, s.comm), .pid = 1, .tid = 1,
				       .dso = s.dso, .sym = s.sym, .ip = s.ip, .level = '.' };
		ref__add(&ref, pool, nr_walk, h, &k);
	}
	for (a = rbtree__first(&h->entries_in), b = rbtree__first(&ref); a && b;
	     a = rbtree__next(a), b = rbtree__next(b)) {
		const struct hist_entry *he = rbtree__entry(a, struct hist_entry, rb_in);
		const struct ref_entry *re = rbtree__entry(b, struct ref_entry, rb);

		same &= he->key.comm == re->key.comm && he->key.dso == re->key.dso &&
			he->key.sym == re->key.sym && he->key.ip == re->key.ip &&
			he->period == re->period;
	}
	*nr_entries = h->nr_entries;
	same &= !a && !b && h->nr_entries == *nr_walk;
	hists__delete(h);
	return same;
}

DEFINE_SUITE(hist_walk)
{
	static const char *const orders[] = { "sym", "sym,dso", "dso,sym", "comm,sym", "sym,comm" };
	struct dso *dsos[3] = {
		dso__new("/usr/bin/dash", DSO_KIND_USER),
		dso__new("/usr/lib/libc.so.6", DSO_KIND_USER),
		dso__new("/usr/bin/yes", DSO_KIND_USER),
	};
	unsigned int seed = 1, run = 0;
	size_t o = 0, nr = 0, nr_walk = 0;
	int agrees = dsos[0] && dsos[1] && dsos[2] ? 1 : -1;

	for (; o < ARRAY_SIZE(orders) && agrees == 1; o++)
		for (run = 0; run < 3000 && agrees == 1; run++)
			agrees = walk_agrees(orders[o], dsos, &seed, &nr, &nr_walk);
	for (size_t d = 0; d < ARRAY_SIZE(dsos); d++)
		dso__put(dsos[d]);
	TEST_ASSERT(env, agrees >= 0, "setting up hists for -s %s failed", orders[o - 1]);
	TEST_ASSERT(env, agrees, "-s %s, sequence %u: %zu entries, the walk's %zu (or in another order)",
		    orders[o - 1], run - 1, nr, nr_walk);
	return TEST_OK;
}
