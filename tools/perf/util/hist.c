// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - perf report's histogram: samples aggregated into entries by the sort keys (found
 * by hash, walked as upstream's trees), children accumulation, the repeat fast path, the
 * collapse and the output order. The key comparisons are sort.c's, the table hist-output.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "dso.h"
#include "hash.h"
#include "hashmap.h"
#include "hist-internal.h"
#include "machine.h"
#include "symbol.h"
#include "thread.h"

/* ---- interned strings ---- */

struct strset_entry {
	struct hashmap_node	node;
	char			str[];
};

struct strset {
	struct hashmap		map;
};

static struct strset *strset__new(void)
{
	struct strset *set = calloc(1, sizeof(*set));

	if (set)
		hashmap__init(&set->map, 64);
	return set;
}

static void strset__delete(struct strset *set)
{
	struct hashmap_node *pos, *tmp;
	size_t bkt;

	if (!set)
		return;
	hashmap__for_each_safe(&set->map, pos, tmp, bkt)
		free(container_of(pos, struct strset_entry, node));
	hashmap__exit(&set->map);
	free(set);
}

/* the set's copy of s (equal strings share one), NULL on allocation failure */
static const char *strset__intern(struct strset *set, const char *s)
{
	size_t len = strlen(s);
	u64 h = hash__bytes(HASH_FNV_OFFSET, s, len);
	struct hashmap_node *pos;
	struct strset_entry *e;

	hashmap__for_each_hash(&set->map, pos, h) {
		e = container_of(pos, struct strset_entry, node);
		if (!strcmp(e->str, s))
			return e->str;
	}
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->str, s, len + 1);
	if (hashmap__add(&set->map, &e->node, h)) {
		free(e);
		return NULL;
	}
	return e->str;
}

/* h and the text of s, NULL included */
static u64 hash_str(u64 h, const char *s)
{
	return hash__step(h, s ? hash__str(s) : 0);
}

#define HIST_WALK_MEMO	4096
#define HIST_REPEAT_BITS	10

/* an entry a sample fed, and the callchain node its chain ended at there (NULL: none) */
struct hist_step {
	struct hist_entry	*he;
	struct chain_node	*end;
	u64			shape_gen;	/* he's callchain shape when remembered */
};

/* one remembered sample (see hists__add_repeat()) */
struct hist_repeat {
	u64			chain_key;	/* 0: empty slot */
	const char		*comm;		/* interned */
	s32			tid, cpu, par;	/* 0 unless a sort key uses them */
	struct dso		*dso;
	const struct symbol	*sym;
	u64			ip;
	char			level;
	bool			has_callchain;
	u64			tree_gen;
	struct hist_step	*steps;		/* the entries fed, the sample's own first */
	u32			nr_steps, alloc;
	u64			pending_period, pending_nr;	/* repeats not yet applied */
	u64			pending_latency;
	u64			checked;	/* hists->nr_slow when the steps were last checked */
};


/* the entry a tree walk found for a key, while the tree is as it was (tree_gen) */
struct hist_walk_memo {
	struct hist_entry	*entry;
	u64			hash;
	u64			gen;
};

static u64 key_hash(const struct hists *hists, const struct hist_key *k)
{
	const struct hist_opts *o = hists->opts;
	u64 h = 0;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		if (!o->sort[i].is_key)
			continue;
		switch (o->sort[i].id) {
		case SORT_KEY_PID:
			h = hash__step(h, (u64)(u32)k->tid);
			break;
		case SORT_KEY_COMM:
			h = hash__step(h, (u64)(uintptr_t)k->comm);
			break;
		case SORT_KEY_DSO:
			h = hash_str(h, hist_opts__dso_name(o, k->dso));
			break;
		case SORT_KEY_SYM:
		case SORT_KEY_IPC_NULL:
			if (k->sym)
				h = hash__step(hash__step(h, k->sym->start), k->sym->end);
			else
				h = hash__step(h, k->ip);
			break;
		case SORT_KEY_CPU:
			h = hash__step(h, (u64)(u32)k->cpu);
			break;
		case SORT_KEY_PARALLELISM:
			h = hash__step(h, (u64)(u32)k->parallelism);
			break;
		case SORT_KEY_TRACE:
			h = hash__step(h, (u64)(uintptr_t)k->trace);
			break;
		case SORT_KEY_PARENT:
			h = hash_str(h, k->parent ? k->parent->name : "");
			break;
		case SORT_KEY_SYMOFF:
			h = hash__step(h, k->ip);
			break;
		case SORT_KEY_SRCLINE:
			h = hash_str(hash__step(h, k->ip), hist_opts__dso_name(o, k->dso));
			break;
		case SORT_KEY_CGROUP:
			h = hash__step(h, k->cgroup);
			break;
		case SORT_KEY_CGROUP_ID:
			h = hash__step(hash__step(h, k->cgroup_ns_dev), k->cgroup_ns_ino);
			break;
		default:
			break;
		}
	}
	return hash__fold(h);
}

static bool dso_name_eq(const struct hist_opts *o, const struct dso *l, const struct dso *r)
{
	if (l == r)
		return true;
	return l && r && !strcmp(hist_opts__dso_name(o, l), hist_opts__dso_name(o, r));
}

/*
 * hist_key__cmp(...) == 0 for every key, the cheap way: comm and trace strings are interned, so
 * equal texts are one pointer (the hot path of children mode compares keys a lot).
 */
static bool hists__key_equal(const struct hists *hists, const struct hist_key *l,
			     const struct hist_key *r)
{
	const struct hist_opts *o = hists->opts;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		if (!o->sort[i].is_key)
			continue;
		switch (o->sort[i].id) {
		case SORT_KEY_PID:
			if (l->tid != r->tid)
				return false;
			break;
		case SORT_KEY_COMM:
			if (l->comm != r->comm)
				return false;
			break;
		case SORT_KEY_DSO:
			if (!dso_name_eq(o, l->dso, r->dso))
				return false;
			break;
		case SORT_KEY_SYM:
		case SORT_KEY_IPC_NULL:
			if (!l->sym || !r->sym) {
				if (l->sym || r->sym || l->ip != r->ip)
					return false;
				break;
			}
			if (!dso_name_eq(o, l->dso, r->dso))
				return false;
			if (l->sym != r->sym && (l->sym->inlined || r->sym->inlined)) {
				if (hist_key__cmp(o, o->sort[i].id, l, r, false))
					return false;
			} else if (l->sym != r->sym &&
				   (l->sym->start != r->sym->start || l->sym->end != r->sym->end)) {
				return false;
			}
			break;
		case SORT_KEY_CPU:
			if (l->cpu != r->cpu)
				return false;
			break;
		case SORT_KEY_PARALLELISM:
			if (l->parallelism != r->parallelism)
				return false;
			break;
		case SORT_KEY_TRACE:
			/* not a tracepoint (NULL): upstream compares nothing */
			if (l->trace && r->trace && l->trace != r->trace)
				return false;
			break;
		case SORT_KEY_PARENT:
		case SORT_KEY_SYMOFF:
		case SORT_KEY_CGROUP:
		case SORT_KEY_CGROUP_ID:
		case SORT_KEY_SRCLINE:
			if (hist_key__cmp(o, o->sort[i].id, l, r, false))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

const char *hists__intern(struct hists *hists, const char *s)
{
	return strset__intern(hists->strings, s);
}

struct hists *hists__new(const struct hist_opts *opts)
{
	struct hists *hists = calloc(1, sizeof(*hists));

	if (!hists)
		return NULL;
	hists->opts = opts;
	hashmap__init(&hists->map, 1024);
	hists->strings = strset__new();
	hists->memo = calloc(HIST_WALK_MEMO, sizeof(*hists->memo));
	hists->repeats = calloc(1U << HIST_REPEAT_BITS, sizeof(*hists->repeats));
	hists->dirty = calloc(1U << HIST_REPEAT_BITS, sizeof(*hists->dirty));
	if (!hists->strings || !hists->memo || !hists->repeats || !hists->dirty) {
		hists__delete(hists);
		return NULL;
	}
	for (unsigned int i = 0; i < opts->nr_sort; i++) {
		if (!opts->sort[i].is_key)
			continue;
		if (opts->sort[i].id == SORT_KEY_SYM || opts->sort[i].id == SORT_KEY_IPC_NULL)
			hists->has_sym_key = true;
		/* upstream collapses only for keys with a collapse function of their own */
		if (opts->sort[i].id == SORT_KEY_COMM || opts->sort[i].id == SORT_KEY_SRCLINE)
			hists->need_collapse = true;
		hists->repeat_comm |= opts->sort[i].id == SORT_KEY_COMM;
		hists->repeat_tid |= opts->sort[i].id == SORT_KEY_PID;
		hists->repeat_cpu |= opts->sort[i].id == SORT_KEY_CPU;
		hists->repeat_par |= opts->sort[i].id == SORT_KEY_PARALLELISM;
		hists->has_sym_key |= opts->sort[i].id == SORT_KEY_SYMOFF;
		/* the repeat slots do not key on cgroups, which change without chain or tid */
		if (opts->sort[i].id == SORT_KEY_CGROUP || opts->sort[i].id == SORT_KEY_CGROUP_ID) {
			free(hists->repeats);
			hists->repeats = NULL;
		}
	}
	return hists;
}

void hists__delete(struct hists *hists)
{
	struct hist_entry *he, *next;

	if (!hists)
		return;
	for (he = hists->all; he; he = next) {
		next = he->all_next;
		chain_root__exit(&he->callchain);
		free(he);
	}
	hashmap__exit(&hists->map);
	free(hists->cache);
	free(hists->memo);
	if (hists->repeats)
		for (size_t i = 0; i < (1U << HIST_REPEAT_BITS); i++)
			free(hists->repeats[i].steps);
	free(hists->repeats);
	free(hists->dirty);
	strset__delete(hists->strings);
	free(hists);
}

/*
 * Finding an entry. Upstream walks its entries_in tree. Two unresolved symbols compare by
 * the wrapping difference of their addresses, which is no order at all for addresses more
 * than 2^63 apart (a kernel address against a user one, garbage frames): there the walk can
 * miss an equal entry and add a second one, and the tree's shape decides the output order.
 * Such keys take the same walk here. Unless --sort names dso, a symbol also compares by its
 * dso's name first, where two unresolved ones compare by address alone: once the tree
 * holds unresolved addresses of two dsos (a stripped program's and the shell's), a resolved
 * symbol's walk can pass its equal entry by too, and every symbol walks. Every other key
 * compares consistently, and a hash finds what the walk would.
 */
struct hist_slot {
	struct rbnode	**link, *parent;	/* where a new entry goes in entries_in */
	u64		hash;
	bool		by_hash;
};

static struct hist_entry *hists__lookup(struct hists *hists, const struct hist_key *key,
					struct hist_slot *slot)
{
	struct hist_entry *he;

	struct hist_walk_memo *memo = NULL;
	u64 h = key_hash(hists, key);

	/*
	 * an inlined function's symbol equals one of the same name whose range touches its
	 * own: no hash finds that, the walk does (and upstream's walk decides which merge).
	 * Once the tree holds one, symbols compare by name against it and by address against
	 * the others, no order at all: any symbol's walk can miss its equal entry and add a
	 * second one (the collapse of a comm key merges them again), so every symbol walks.
	 */
	slot->by_hash = !hists->has_sym_key ||
			(key->sym && !key->sym->inlined && !hists->has_inlined && !hists->sym_walk);
	slot->hash = h;
	slot->link = &hists->entries_in.node;
	slot->parent = NULL;
	if (slot->by_hash) {
		struct hashmap_node *pos;

		hashmap__for_each_hash(&hists->map, pos, h) {
			he = container_of(pos, struct hist_entry, node);
			if (hists__key_equal(hists, &he->key, key))
				return he;
		}
	} else if (hists->memo) {
		/* equal keys take the same walk: its result holds until the tree changes */
		memo = &hists->memo[h & (HIST_WALK_MEMO - 1)];
		if (memo->entry && memo->gen == hists->tree_gen && memo->hash == h &&
		    hists__key_equal(hists, &memo->entry->key, key))
			return memo->entry;
	}
	while (*slot->link) {
		int cmp;

		he = rbtree__entry(*slot->link, struct hist_entry, rb_in);
		cmp = hists__key_cmp(hists, &he->key, key);
		if (!cmp && !slot->by_hash) {
			if (memo)
				*memo = (struct hist_walk_memo){ .entry = he, .hash = h, .gen = hists->tree_gen };
			return he;
		}
		slot->parent = *slot->link;
		slot->link = cmp < 0 ? &slot->parent->left : &slot->parent->right;
	}
	return NULL;
}

static struct hist_entry *hists__add(struct hists *hists, const struct hist_key *key,
				     const struct hist_slot *slot, bool has_callchain)
{
	struct hist_entry *he = calloc(1, sizeof(*he));

	if (!he)
		return NULL;
	if (slot->by_hash && hashmap__add(&hists->map, &he->node, slot->hash)) {
		free(he);
		return NULL;
	}
	he->key = *key;
	if (key->sym && key->sym->inlined)
		hists->has_inlined = true;
	if (hists->has_sym_key && !key->sym && !hists->opts->dso_sort_key) {
		if (hists->has_symless && !dso_name_eq(hists->opts, hists->symless_dso, key->dso))
			hists->sym_walk = true;
		hists->has_symless = true;
		hists->symless_dso = key->dso;
	}
	he->has_callchain = has_callchain;
	chain_root__init(&he->callchain, hists->opts->chain.key);
	he->all_next = hists->all;
	hists->all = he;
	rbtree__insert(&hists->entries_in, &he->rb_in, slot->parent, slot->link);
	hists->tree_gen++;
	hists->nr_entries++;
	return he;
}

/* what a sample adds to an entry: as its own period (self) or only accumulated (a caller) */
/* the own period by the level of the samples, for --showcpuutilization */
static void hist_entry__feed_mode(struct hist_entry *he, char level, u64 period)
{
	if (level == 'k')
		he->period_sys += period;
	else if (level == '.')
		he->period_us += period;
}

static void hist_entry__feed(struct hists *hists, struct hist_entry *he, u64 period,
			     u64 latency, char level, bool self)
{
	if (self) {
		he->period += period;
		he->latency += latency;
		he->nr_events++;
		hist_entry__feed_mode(he, level, period);
	}
	he->period_acc += period;
	he->latency_acc += latency;
	he->nr_events_acc++;
	he->stamp = hists->stamp;
}

/* nr repeats of what a remembered sample fed, period their sum */
static void hist_repeat__apply(struct hist_repeat *r, u64 period, u64 latency, u64 nr)
{
	for (u32 i = 0; i < r->nr_steps; i++) {
		struct hist_step *st = &r->steps[i];
		struct hist_entry *he = st->he;

		if (i == 0) {
			he->period += period;
			he->latency += latency;
			he->nr_events += nr;
			hist_entry__feed_mode(he, r->level, period);
		}
		he->period_acc += period;
		he->latency_acc += latency;
		he->nr_events_acc += nr;
		if (st->end)
			chain_root__append_again(&he->callchain, st->end, period, nr);
	}
}

/*
 * Repeats are counted in their slot and added to the entries and trees here, before
 * anything reads those counts or changes a tree (a split moves a node's counts).
 */
static void hists__flush_repeats(struct hists *hists)
{
	for (u32 i = 0; i < hists->nr_dirty; i++) {
		struct hist_repeat *r = &hists->repeats[hists->dirty[i]];

		hist_repeat__apply(r, r->pending_period, r->pending_latency, r->pending_nr);
		r->pending_period = 0;
		r->pending_latency = 0;
		r->pending_nr = 0;
	}
	hists->nr_dirty = 0;
}

/*
 * hists__collapse_resort: entries_in walked in order into a second tree, where entries the
 * walk above kept apart but that compare equal now meet and are merged.
 */
static int hists__collapse(struct hists *hists)
{
	const struct hist_opts *o = hists->opts;

	hists->collapsed.node = NULL;
	if (!hists->need_collapse) {
		for (struct rbnode *n = rbtree__first(&hists->entries_in); n; n = rbtree__next(n))
			rbtree__entry(n, struct hist_entry, rb_in)->merged = false;
		return 0;
	}
	for (struct rbnode *n = rbtree__first(&hists->entries_in); n; n = rbtree__next(n)) {
		struct hist_entry *he = rbtree__entry(n, struct hist_entry, rb_in);
		struct rbnode **link = &hists->collapsed.node, *parent = NULL;

		he->merged = false;
		while (*link) {
			struct hist_entry *it = rbtree__entry(*link, struct hist_entry, rb_collapsed);
			int cmp = hists__key_cmp_mode(hists, &it->key, &he->key, true);

			if (!cmp) {
				it->period += he->period;
				it->period_sys += he->period_sys;
				it->period_us += he->period_us;
				it->nr_events += he->nr_events;
				it->period_acc += he->period_acc;
				it->latency += he->latency;
				it->latency_acc += he->latency_acc;
				it->nr_events_acc += he->nr_events_acc;
				if (he->has_callchain && o->use_callchain &&
				    chain_root__merge(&it->callchain, &he->callchain))
					return -ENOMEM;
				he->merged = true;
				break;
			}
			parent = *link;
			link = cmp < 0 ? &parent->left : &parent->right;
		}
		if (!he->merged)
			rbtree__insert(&hists->collapsed, &he->rb_collapsed, parent, link);
	}
	return 0;
}

static int hists__grow_cache(struct hists *hists, size_t n)
{
	struct hist_step *c;

	if (n <= hists->cache_alloc)
		return 0;
	c = realloc(hists->cache, n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	hists->cache = c;
	hists->cache_alloc = n;
	return 0;
}

/*
 * Repeats. A sample equal to an earlier one in everything hists__add_sample() looks at
 * (its key fields, comm text, callchain by chain_key) takes the same lookups and the same
 * walks down the same callchain trees, as long as no entry was added since (tree_gen) and
 * none of those trees changed shape (shape_gen): it feeds the same entries and ends at the
 * same chain nodes. Those are remembered, and the repeat only adds its period along them.
 * Output order cannot tell the difference: it depends on which keys and chain nodes were
 * added in which order, and a repeat adds none.
 */
/*
 * The fields of a sample the lookups depend on: those of the sort keys, the symbol (it
 * chooses between hash and tree walk) and the chain. Others (the tid under a comm,dso,sym
 * sort) are left out, so samples differing only there share one slot.
 */
static void hist_repeat__key(const struct hists *hists, const struct hist_sample *s,
			     struct hist_repeat *k)
{
	k->chain_key = s->chain_key;
	k->tid = hists->repeat_tid ? s->tid : 0;
	k->cpu = hists->repeat_cpu ? s->cpu : 0;
	k->par = hists->repeat_par ? s->parallelism : 0;
	k->dso = s->dso;
	k->sym = s->sym;
	k->ip = s->ip;
	k->level = s->level;
	k->has_callchain = s->has_callchain;
}

/* comm: the sample's text (its thread's, so one pointer per thread), or NULL to leave out */
static u32 hist_repeat__slot(const struct hist_repeat *k, const char *comm)
{
	u64 h = hash__step(k->chain_key, (u64)(uintptr_t)comm);

	h = hash__step(h, (u64)(u32)k->tid ^ ((u64)(u32)k->cpu << 32) ^ ((u64)(u32)k->par << 16));
	return hash_64(h ^ k->ip ^ (u64)(uintptr_t)k->sym, HIST_REPEAT_BITS);
}

static bool hist_repeat__matches(struct hist_repeat *r, const struct hists *hists,
				 const struct hist_repeat *k, const char *comm)
{
	if (r->chain_key != k->chain_key || r->tree_gen != hists->tree_gen || r->tid != k->tid ||
	    r->cpu != k->cpu || r->par != k->par || r->ip != k->ip || r->sym != k->sym || r->dso != k->dso ||
	    r->level != k->level || r->has_callchain != k->has_callchain ||
	    (hists->repeat_comm && strcmp(r->comm, comm)))
		return false;
	/* trees change only on the slow path: checked since the last one, still the same */
	if (r->checked == hists->nr_slow)
		return true;
	for (u32 i = 0; i < r->nr_steps; i++)
		if (r->steps[i].end && r->steps[i].he->callchain.shape_gen != r->steps[i].shape_gen)
			return false;
	r->checked = hists->nr_slow;
	return true;
}

bool hists__add_repeat(struct hists *hists, const struct hist_sample *s)
{
	const struct hist_opts *o = hists->opts;
	struct hist_repeat *r, k;

	if (!s->chain_key || s->trace || !hists->repeats)
		return false;
	hist_repeat__key(hists, s, &k);
	r = &hists->repeats[hist_repeat__slot(&k, hists->repeat_comm ? s->comm : NULL)];
	if (!hist_repeat__matches(r, hists, &k, s->comm))
		return false;
	hists->nr_samples++;
	hists->total_period += s->period;
	if (o->use_callchain)
		hists->callchain_period += s->period;
	if (!r->pending_nr++)
		hists->dirty[hists->nr_dirty++] = (u32)(r - hists->repeats);
	r->pending_period += s->period;
	r->pending_latency += s->latency;
	return true;
}

/* remember what the sample just added fed (hists->cache[0..nr)); no memory, no memo */
static void hists__remember(struct hists *hists, const struct hist_sample *s, const char *comm,
			    u32 nr)
{
	struct hist_repeat *r, k;

	if (!s->chain_key || s->trace || !hists->repeats)
		return;
	hist_repeat__key(hists, s, &k);
	r = &hists->repeats[hist_repeat__slot(&k, hists->repeat_comm ? s->comm : NULL)];
	r->chain_key = 0;
	if (nr > r->alloc) {
		struct hist_step *st = realloc(r->steps, nr * sizeof(*st));

		if (!st)
			return;
		r->steps = st;
		r->alloc = nr;
	}
	for (u32 i = 0; i < nr; i++) {
		r->steps[i] = hists->cache[i];
		r->steps[i].shape_gen = r->steps[i].he->callchain.shape_gen;
	}
	r->nr_steps = nr;
	r->comm = comm;
	r->tid = k.tid;
	r->cpu = k.cpu;
	r->par = k.par;
	r->dso = k.dso;
	r->sym = k.sym;
	r->ip = k.ip;
	r->level = k.level;
	r->has_callchain = k.has_callchain;
	r->tree_gen = hists->tree_gen;
	r->checked = hists->nr_slow;
	r->chain_key = k.chain_key;
}

int hists__add_sample(struct hists *hists, const struct hist_sample *s)
{
	const struct hist_opts *o = hists->opts;
	bool chains = o->use_callchain && s->has_callchain;
	struct hist_key key = {
		.pid = s->pid, .tid = s->tid, .cpu = s->cpu, .parallelism = s->parallelism,
		.dso = s->dso, .sym = s->sym,
		.ip = s->ip, .level = s->level,
	};
	struct chain_node *end = NULL;
	struct hist_entry *he;
	struct hist_slot slot;
	size_t nr_cached = 0;
	int ret;

	key.comm = strset__intern(hists->strings, s->comm);
	if (!key.comm)
		return -ENOMEM;
	if (s->trace) {
		key.trace = strset__intern(hists->strings, s->trace);
		if (!key.trace)
			return -ENOMEM;
	}
	if (s->keys) {
		key.parent = s->keys->parent;
		key.cgroup = s->keys->cgroup;
		key.cgroup_ns_dev = s->keys->cgroup_ns_dev;
		key.cgroup_ns_ino = s->keys->cgroup_ns_ino;
		if (s->keys->has_sym_addr && s->sym) {
			key.sym_off = s->keys->sym_addr - s->sym->start;
			key.has_sym_off = true;
		}
		if (s->keys->cgroup_name) {
			key.cgroup_name = strset__intern(hists->strings, s->keys->cgroup_name);
			if (!key.cgroup_name)
				return -ENOMEM;
		}
		if (s->keys->srcline) {
			key.srcline = strset__intern(hists->strings, s->keys->srcline);
			if (!key.srcline)
				return -ENOMEM;
		}
	}
	hists__flush_repeats(hists);
	hists->nr_slow++;
	ret = hists__grow_cache(hists, s->nr_frames + 1);
	if (ret)
		return ret;
	hists->stamp++;
	he = hists__lookup(hists, &key, &slot);
	if (!he)
		he = hists__add(hists, &key, &slot, s->has_callchain);
	if (!he)
		return -ENOMEM;
	hist_entry__feed(hists, he, s->period, s->latency, s->level, true);
	hists->nr_samples++;
	hists->total_period += s->period;
	if (o->use_callchain)
		hists->callchain_period += s->period;
	if (chains) {
		ret = chain_root__append(&he->callchain, s->frames, s->nr_frames, s->period, &end);
		if (ret)
			return ret;
	}
	hists->cache[nr_cached++] = (struct hist_step){ .he = he, .end = end };
	if (!o->children)
		goto out;

	/*
	 * Every function on the callchain gets the period as accumulated, once per sample
	 * however often it recurs, with the part of the chain from it on as its callchain.
	 */
	for (u32 i = 0; i < s->nr_frames; i++) {
		const struct chain_frame *f = &s->frames[i];
		bool dup = false;

		key.dso = f->dso;
		key.sym = f->sym;
		/* the address as recorded: upstream's symoff of a caller shows it so too */
		key.ip = f->ip;
		/*
		 * An ET_EXEC image's symbols are at file offsets in upstream: a caller's symoff
		 * is its address less that offset, the image's load bias included
		 */
		key.has_sym_off = f->sym && f->dso && f->dso->is_exec;
		if (key.has_sym_off)
			key.sym_off = f->ip - dso__vaddr_to_offset(f->dso, f->sym->start);
		/* upstream leaves the level of an unmapped frame as the previous one had it */
		if (f->sym || f->dso)
			key.level = '.';
		he = hists__lookup(hists, &key, &slot);
		if (slot.by_hash) {
			/* a consistent key has one entry: seen this sample if it was fed */
			dup = he && he->stamp == hists->stamp;
		} else {
			for (size_t j = 0; j < nr_cached && !dup; j++) {
				const struct hist_key *c = &hists->cache[j].he->key;

				/*
				 * an unresolved key equals only another unresolved one at its
				 * address, an inlined one only a symbol of its name: one function
				 * listed twice in an inline chain counts once, as upstream's
				 */
				if (key.sym ? !c->sym || (c->sym != key.sym &&
							  strcmp(c->sym->name, key.sym->name)) :
					      c->sym || c->ip != key.ip)
					continue;
				dup = hists__key_equal(hists, c, &key);
			}
		}
		if (dup)
			continue;
		if (!he && s->frame_srcline) {
			char line[4096];

			key.srcline = strset__intern(hists->strings,
						     s->frame_srcline(s->frame_srcline_arg, i, line,
								      sizeof(line)));
			if (!key.srcline)
				return -ENOMEM;
		}
		if (!he)
			he = hists__add(hists, &key, &slot, s->has_callchain);
		if (!he)
			return -ENOMEM;
		hist_entry__feed(hists, he, s->period, s->latency, s->level, false);
		end = NULL;
		if (chains) {
			ret = chain_root__append(&he->callchain, f, s->nr_frames - i, s->period, &end);
			if (ret)
				return ret;
		}
		hists->cache[nr_cached++] = (struct hist_step){ .he = he, .end = end };
	}
out:
	hists__remember(hists, s, key.comm, (u32)nr_cached);
	return 0;
}

void hists__add_filtered(struct hists *hists, u64 period, u64 latency)
{
	hists->nr_filtered++;
	hists->filtered_period += period;
	hists->filtered_latency += latency;
	/* upstream counts it as a sample it does not show, callchain threshold included */
	hists->nr_samples++;
	hists->total_period += period;
	hists->total_latency += latency;
	if (hists->opts->use_callchain)
		hists->callchain_period += period;
}

u64 hists__chain_total(const struct hists *hists)
{
	/* upstream's callchains count the entries --symbol-filter hid */
	return hists->total_period - (hists->opts->filter_relative ? hists->filtered_period : 0);
}

u64 hists__total_period(const struct hists *hists)
{
	return hists->total_period - (hists->opts->filter_relative ?
				      hists->filtered_period + hists->sym_hidden_period : 0);
}

u64 hists__total_samples(const struct hists *hists)
{
	/* upstream's header keeps the samples of entries --symbol-filter hid */
	return hists->nr_samples - (hists->opts->filter_relative ? hists->nr_filtered : 0);
}

u64 hists__total_latency(const struct hists *hists)
{
	return hists->total_latency - (hists->opts->filter_relative ?
				       hists->filtered_latency + hists->sym_hidden_latency : 0);
}

/* --symbol-filter: he is left out of the output, its counts kept in the totals */
static bool hists__sym_hidden(struct hists *hists, const struct hist_entry *he)
{
	const char *text = hists->opts->symbol_filter;

	if (!text || !hists->need_collapse ||
	    (he->key.sym && strstr(he->key.sym->name, text)))
		return false;
	hists->sym_hidden_period += he->period;
	hists->sym_hidden_latency += he->latency;
	hists->total_period += he->period;
	hists->total_latency += he->latency;
	return true;
}

int hists__output_resort(struct hists *hists, struct machine *machine)
{
	const struct hist_opts *o = hists->opts;
	u64 min_hit = (u64)((double)hists->callchain_period * (o->chain.min_percent / 100.0));
	const struct rbroot *in = hists->need_collapse ? &hists->collapsed : &hists->entries_in;
	int ret;

	hists__flush_repeats(hists);
	ret = hists__collapse(hists);

	hists->entries.node = NULL;
	/* what filters hid counts in the totals; --percentage relative takes it out again */
	hists->total_period = hists->filtered_period;
	hists->total_latency = hists->filtered_latency;
	hists->sym_hidden_period = hists->sym_hidden_latency = 0;
	memset(hists->col_len, 0, sizeof(hists->col_len));
	if (ret)
		return ret;
	for (struct rbnode *n = rbtree__first(in); n; n = rbtree__next(n)) {
		struct hist_entry *he = hists->need_collapse ?
					rbtree__entry(n, struct hist_entry, rb_collapsed) :
					rbtree__entry(n, struct hist_entry, rb_in);
		struct thread *t = machine ? machine__find_thread(machine, he->key.tid) : NULL;
		struct rbnode **link = &hists->entries.node, *parent = NULL;

		if (hists__sym_hidden(hists, he))
			continue;
		he->thread_comm = he->key.comm;
		if (t && t->nr_comms) {
			he->thread_comm = strset__intern(hists->strings, thread__comm_str(t, 0));
			if (!he->thread_comm)
				return -ENOMEM;
		}
		if (o->use_callchain)
			chain_root__sort(&he->callchain, &o->chain, min_hit);
		while (*link) {
			struct hist_entry *it = rbtree__entry(*link, struct hist_entry, rb_out);

			parent = *link;
			link = hists__entry_sort(hists, he, it) > 0 ? &parent->left : &parent->right;
		}
		rbtree__insert(&hists->entries, &he->rb_out, parent, link);
		hists->total_period += he->period;
		hists->total_latency += he->latency;
		hists__calc_col_len(hists, he);
	}
	hists__calc_header_len(hists);
	return 0;
}
