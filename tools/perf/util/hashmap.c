// SPDX-License-Identifier: GPL-2.0
/* The one hash map: intrusive chains, doubling at one node per bucket. See hashmap.h. */
#include <errno.h>
#include <stdlib.h>
#include "hashmap.h"

#define HASHMAP_DEFAULT_BUCKETS	64

void hashmap__init(struct hashmap *map, size_t min_buckets)
{
	size_t n = HASHMAP_DEFAULT_BUCKETS;

	if (min_buckets)
		for (n = 1; n < min_buckets; n <<= 1)
			;
	*map = (struct hashmap){ .min_buckets = n };
}

void hashmap__exit(struct hashmap *map)
{
	free(map->buckets);
	hashmap__init(map, map->min_buckets);
}

void hashmap__clear(struct hashmap *map, void (*fn)(struct hashmap_node *node, void *arg),
		    void *arg)
{
	for (size_t b = 0; b < map->nr_buckets; b++) {
		struct hashmap_node *pos = map->buckets[b], *next;

		map->buckets[b] = NULL;
		/* without fn the nodes are not read: they may be gone (their array moved) */
		for (; fn && pos; pos = next) {
			next = pos->next;
			pos->next = NULL;
			fn(pos, arg);
		}
	}
	map->nr = 0;
}

/* a failed allocation keeps the table it has: chains get longer, lookups stay correct */
static void hashmap__grow(struct hashmap *map)
{
	size_t n = map->nr_buckets ? map->nr_buckets * 2 : map->min_buckets;
	struct hashmap_node **b = calloc(n, sizeof(*b));

	if (!b)
		return;
	for (size_t i = 0; i < map->nr_buckets; i++) {
		struct hashmap_node *pos = map->buckets[i], *next;

		for (; pos; pos = next) {
			next = pos->next;
			pos->next = b[pos->hash & (n - 1)];
			b[pos->hash & (n - 1)] = pos;
		}
	}
	free(map->buckets);
	map->buckets = b;
	map->nr_buckets = n;
}

int hashmap__add(struct hashmap *map, struct hashmap_node *node, size_t hash)
{
	struct hashmap_node **head;

	if (map->nr >= map->nr_buckets)
		hashmap__grow(map);
	if (!map->nr_buckets)
		return -ENOMEM;
	head = &map->buckets[hash & (map->nr_buckets - 1)];
	node->hash = hash;
	node->next = *head;
	*head = node;
	map->nr++;
	return 0;
}

void hashmap__remove(struct hashmap *map, struct hashmap_node *node)
{
	struct hashmap_node **pp = &map->buckets[node->hash & (map->nr_buckets - 1)];

	for (; *pp; pp = &(*pp)->next) {
		if (*pp == node) {
			*pp = node->next;
			node->next = NULL;
			map->nr--;
			return;
		}
	}
}
