// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"
#include "map.h"

struct map *map__new(u64 start, u64 len, u64 pgoff, struct dso *dso)
{
	struct map *map = calloc(1, sizeof(*map));

	if (!map)
		return NULL;
	map->start = start;
	map->end = start + len;
	map->pgoff = pgoff;
	map->dso = dso ? dso__get(dso) : NULL;
	map->refcnt = 1;
	return map;
}

struct map *map__get(struct map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void map__put(struct map *map)
{
	if (!map || --map->refcnt > 0)
		return;
	dso__put(map->dso);
	free(map);
}

/* a copy of map covering [start, end) of it, for splitting around an overlap */
static struct map *map__clone_range(const struct map *map, u64 start, u64 end)
{
	struct map *n = map__new(start, end - start, map->pgoff + (start - map->start), map->dso);

	if (n) {
		n->prot = map->prot;
		n->flags = map->flags;
		n->ino = map->ino;
		n->ino_valid = map->ino_valid;
		n->reloc = map->reloc;
		n->identity = map->identity;
	}
	return n;
}

struct maps *maps__new(void)
{
	struct maps *maps = calloc(1, sizeof(*maps));

	if (maps)
		maps->refcnt = 1;
	return maps;
}

struct maps *maps__get(struct maps *maps)
{
	if (maps)
		maps->refcnt++;
	return maps;
}

void maps__put(struct maps *maps)
{
	if (!maps || --maps->refcnt > 0)
		return;
	for (size_t i = 0; i < maps->nr; i++)
		map__put(maps->entries[i]);
	free(maps->entries);
	free(maps);
}

struct maps *maps__clone(const struct maps *maps)
{
	struct maps *n = maps__new();

	if (!n)
		return NULL;
	if (maps->nr) {
		n->entries = malloc(maps->nr * sizeof(*n->entries));
		if (!n->entries) {
			free(n);
			return NULL;
		}
		for (size_t i = 0; i < maps->nr; i++)
			n->entries[i] = map__get(maps->entries[i]);
		n->nr = n->alloc = maps->nr;
	}
	return n;
}

static int maps__reserve(struct maps *maps, size_t extra)
{
	struct map **n;
	size_t want = maps->nr + extra;

	if (want <= maps->alloc)
		return 0;
	want = want < 16 ? 16 : want * 2;
	n = realloc(maps->entries, want * sizeof(*n));
	if (!n)
		return -ENOMEM;
	maps->entries = n;
	maps->alloc = want;
	return 0;
}

/* index of the first map whose end is above addr */
static size_t maps__lower(const struct maps *maps, u64 addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (maps->entries[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int maps__insert(struct maps *maps, struct map *map)
{
	size_t first = maps__lower(maps, map->start), last = first;
	struct map *head = NULL, *tail = NULL;
	size_t nr_new;

	/* [first, last) are the maps the new one overlaps */
	while (last < maps->nr && maps->entries[last]->start < map->end)
		last++;
	if (first < last && maps->entries[first]->start < map->start) {
		head = map__clone_range(maps->entries[first], maps->entries[first]->start, map->start);
		if (!head)
			return -ENOMEM;
	}
	if (first < last && maps->entries[last - 1]->end > map->end) {
		tail = map__clone_range(maps->entries[last - 1], map->end, maps->entries[last - 1]->end);
		if (!tail) {
			map__put(head);
			return -ENOMEM;
		}
	}
	nr_new = 1 + !!head + !!tail;
	if (maps__reserve(maps, nr_new)) {
		map__put(head);
		map__put(tail);
		return -ENOMEM;
	}
	for (size_t i = first; i < last; i++)
		map__put(maps->entries[i]);
	memmove(&maps->entries[first + nr_new], &maps->entries[last],
		(maps->nr - last) * sizeof(*maps->entries));
	maps->nr = maps->nr - (last - first) + nr_new;
	if (head)
		maps->entries[first++] = head;
	maps->entries[first++] = map__get(map);
	if (tail)
		maps->entries[first] = tail;
	maps->last = NULL;
	return 0;
}

int maps__insert_clipped(struct maps *maps, struct map *map)
{
	size_t i = maps__lower(maps, map->start);

	if (i < maps->nr && maps->entries[i]->start < map->start) {
		maps->entries[i]->end = map->start;
		i++;
	}
	if (i < maps->nr && maps->entries[i]->start == map->start) {
		if (i + 1 < maps->nr && maps->entries[i + 1]->start < map->end)
			map->end = maps->entries[i + 1]->start;
		map__put(maps->entries[i]);
		maps->entries[i] = map__get(map);
		maps->last = NULL;
		return 0;
	}
	if (i < maps->nr && maps->entries[i]->start < map->end)
		map->end = maps->entries[i]->start;
	if (maps__reserve(maps, 1))
		return -ENOMEM;
	memmove(&maps->entries[i + 1], &maps->entries[i], (maps->nr - i) * sizeof(*maps->entries));
	maps->entries[i] = map__get(map);
	maps->nr++;
	maps->last = NULL;
	return 0;
}

struct map *maps__find(struct maps *maps, u64 addr)
{
	size_t i;

	if (maps->last && addr >= maps->last->start && addr < maps->last->end)
		return maps->last;
	i = maps__lower(maps, addr);
	if (i < maps->nr && maps->entries[i]->start <= addr) {
		maps->last = maps->entries[i];
		return maps->last;
	}
	return NULL;
}

void maps__set_range(struct maps *maps, struct map *map, u64 start, u64 end)
{
	size_t i;

	for (i = 0; i < maps->nr && maps->entries[i] != map; i++)
		;
	if (i == maps->nr || start >= end)
		return;
	if (i > 0 && start < maps->entries[i - 1]->end)
		start = maps->entries[i - 1]->end;
	if (i + 1 < maps->nr && end > maps->entries[i + 1]->start)
		end = maps->entries[i + 1]->start;
	if (start >= end)
		return;
	/* kernel maps translate by address (pgoff == start): keep them the identity */
	if (map->pgoff == map->start)
		map->pgoff = start;
	map->start = start;
	map->end = end;
	maps->last = NULL;
}
