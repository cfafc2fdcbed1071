// SPDX-License-Identifier: GPL-2.0
/* The (process, map) pairs perf inject -B has written. See inject-lazy-mmaps.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <perf/kernel.h>
#include "hash.h"
#include "hashmap.h"
#include "inject-lazy-mmaps.h"
#include "map.h"

struct hit_map {
	struct hashmap_node	node;
	s32			pid;
	struct map		*map;		/* a reference */
};

struct lazy_mmaps {
	struct hashmap	hits;
};

struct lazy_mmaps *lazy_mmaps__new(void)
{
	struct lazy_mmaps *l = calloc(1, sizeof(*l));

	if (l)
		hashmap__init(&l->hits, 0);
	return l;
}

static void hit_map__free(struct hashmap_node *node, void *arg)
{
	struct hit_map *h = container_of(node, struct hit_map, node);

	(void)arg;
	map__put(h->map);
	free(h);
}

void lazy_mmaps__delete(struct lazy_mmaps *l)
{
	if (!l)
		return;
	hashmap__clear(&l->hits, hit_map__free, NULL);
	hashmap__exit(&l->hits);
	free(l);
}

int lazy_mmaps__first_hit(struct lazy_mmaps *l, s32 pid, struct map *map)
{
	size_t h = (size_t)hash__u64x2((u64)(u32)pid, (u64)(uintptr_t)map);
	struct hashmap_node *pos;
	struct hit_map *e;

	hashmap__for_each_hash(&l->hits, pos, h) {
		e = container_of(pos, struct hit_map, node);
		if (e->pid == pid && e->map == map)
			return 0;
	}
	e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->pid = pid;
	e->map = map__get(map);
	if (hashmap__add(&l->hits, &e->node, h)) {
		hit_map__free(&e->node, NULL);
		return -ENOMEM;
	}
	return 1;
}
