/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hashmap.h - the one hash map: intrusive, chained, growing by doubling.
 *
 * The user embeds a struct hashmap_node in its own entry (as the kernel's hlist_node) and
 * supplies the hash; equality is the user's code, inlined into its lookup loop (no callback
 * per probe on the hot paths). A node keeps its hash, so the map rehashes without calling
 * back. The LOW bits of the hash pick the bucket: a hash must mix them (a multiplicative
 * hash folded down, FNV, ...).
 *
 * Ownership: the map owns its bucket array only. Entries are the user's: the map never
 * allocates or frees one; hashmap__exit() frees the buckets and forgets the nodes, so free
 * the entries first (hashmap__for_each_safe + free, or hashmap__clear with a callback).
 * Entries do not move while in the map: pointers to them stay valid until removed.
 *
 * Invariants: nr_buckets is 0 (nothing allocated yet) or a power of two; a growth that
 * fails keeps the smaller table (longer chains, still correct). Adding may grow the table:
 * no add during an iteration. Removal is allowed during hashmap__for_each_safe.
 *
 * Converting a hand-written table:
 *
 *	struct entry { struct hashmap_node node; u32 key; ... };
 *
 *	hashmap__init(&map, 256);
 *	hashmap__for_each_hash(&map, pos, h)		// lookup: only nodes with hash h
 *		if (container_of(pos, struct entry, node)->key == key)
 *			return container_of(pos, struct entry, node);
 *	if (hashmap__add(&map, &e->node, h))		// -ENOMEM: the first table failed
 *		...
 *	hashmap__remove(&map, &e->node);
 */
#ifndef PERF_UTIL_HASHMAP_H
#define PERF_UTIL_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/kernel.h>

struct hashmap_node {
	struct hashmap_node	*next;		/* the bucket's chain, newest first */
	size_t			hash;
};

struct hashmap {
	struct hashmap_node	**buckets;	/* nr_buckets chains; NULL until the first add */
	size_t			nr_buckets;
	size_t			nr;		/* nodes in the map */
	size_t			min_buckets;	/* the first table's size, a power of two */
};

/* min_buckets: the first table's size (rounded up to a power of two; 0: 64). No allocation */
void hashmap__init(struct hashmap *map, size_t min_buckets);
/* frees the buckets; the entries stay the user's (see above). The map is empty again */
void hashmap__exit(struct hashmap *map);
/*
 * fn on every node, which it may free; the map keeps its buckets, empty. fn NULL: the nodes
 * are forgotten without being read (they may be gone: an array of entries that moved)
 */
void hashmap__clear(struct hashmap *map, void (*fn)(struct hashmap_node *node, void *arg),
		    void *arg);

/*
 * node under hash (a duplicate key is not checked: look it up first). Grows the table at one
 * node per bucket. 0, or -ENOMEM when the map has no table yet and cannot get one.
 */
int hashmap__add(struct hashmap *map, struct hashmap_node *node, size_t hash);
/* node must be in the map */
void hashmap__remove(struct hashmap *map, struct hashmap_node *node);

/* the chain where nodes of hash live (other hashes too); NULL when empty */
static inline struct hashmap_node *hashmap__chain(const struct hashmap *map, size_t hash)
{
	return map->nr_buckets ? map->buckets[hash & (map->nr_buckets - 1)] : NULL;
}

/* every node of the map with this hash: pos is a struct hashmap_node * */
#define hashmap__for_each_hash(map, pos, h) \
	for ((pos) = hashmap__chain(map, h); (pos); (pos) = (pos)->next) \
		if ((pos)->hash != (h)) {} else

/*
 * the first node of hash that eq() accepts, or NULL: for lookups off the hot paths (eq is
 * a call per candidate unless the compiler inlines it)
 */
static inline struct hashmap_node *
hashmap__find(const struct hashmap *map, size_t hash,
	      bool (*eq)(const struct hashmap_node *node, const void *key), const void *key)
{
	struct hashmap_node *pos;

	hashmap__for_each_hash(map, pos, hash)
		if (eq(pos, key))
			return pos;
	return NULL;
}

/* every node, in bucket order (not insertion order); bkt is a size_t */
#define hashmap__for_each(map, pos, bkt) \
	for ((bkt) = 0; (bkt) < (map)->nr_buckets; (bkt)++) \
		for ((pos) = (map)->buckets[bkt]; (pos); (pos) = (pos)->next)

/* the same, and pos may be removed (or freed after its removal) in the body */
#define hashmap__for_each_safe(map, pos, tmp, bkt) \
	for ((bkt) = 0; (bkt) < (map)->nr_buckets; (bkt)++) \
		for ((pos) = (map)->buckets[bkt]; (pos) && ((tmp) = (pos)->next, 1); (pos) = (tmp))

static inline size_t hashmap__nr(const struct hashmap *map)
{
	return map->nr;
}

#endif
