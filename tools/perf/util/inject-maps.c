// SPDX-License-Identifier: GPL-2.0
/*
 * The MMAP records a stitched user chain needs before its sample (inject-maps.h): copies
 * by (pid, start) in a hash map, and a record rebuilt with the sample's time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/event.h>
#include <perf/synthesize.h>
#include "hash.h"
#include "hashmap.h"
#include "inject-maps.h"
#include "map.h"
#include "thread.h"

struct kept_mmap {
	struct hashmap_node	node;
	u32			pid;
	u64			start;
	struct perf_sample	id;		/* its sample_id: pid/tid, time, id, cpu */
	const struct perf_evattr *ea;		/* borrowed from the session's data */
	u64			written_at;	/* time of the last copy written; ~0: none */
	struct perf_event_header *event;	/* the record, owned */
};

struct inject_maps {
	struct hashmap	map;
	u64		buf[65536 / 8];	/* a copy being rebuilt */
};

struct inject_maps *inject_maps__new(void)
{
	struct inject_maps *im = calloc(1, sizeof(*im));

	if (im)
		hashmap__init(&im->map, 256);
	return im;
}

static void kept_mmap__free(struct hashmap_node *node, void *arg)
{
	struct kept_mmap *k = container_of(node, struct kept_mmap, node);

	(void)arg;
	free(k->event);
	free(k);
}

void inject_maps__delete(struct inject_maps *im)
{
	if (!im)
		return;
	hashmap__clear(&im->map, kept_mmap__free, NULL);
	hashmap__exit(&im->map);
	free(im);
}

static struct kept_mmap *inject_maps__find(struct inject_maps *im, u32 pid, u64 start)
{
	size_t h = (size_t)hash__u64x2(pid, start);
	struct hashmap_node *pos;

	hashmap__for_each_hash(&im->map, pos, h) {
		struct kept_mmap *k = container_of(pos, struct kept_mmap, node);

		if (k->pid == pid && k->start == start)
			return k;
	}
	return NULL;
}

int inject_maps__remember(struct inject_maps *im, const struct perf_event_header *event,
			  const struct perf_sample *id, const struct perf_evattr *ea)
{
	const struct perf_record_mmap *m = (const void *)event;	/* pid and start lead MMAP2 too */
	struct kept_mmap *k = inject_maps__find(im, m->pid, m->start);
	struct perf_event_header *copy;

	/* a record without a time cannot have come after any sample */
	if (!id->time)
		return 0;
	copy = malloc(event->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, event, event->size);
	if (!k) {
		k = calloc(1, sizeof(*k));
		if (!k) {
			free(copy);
			return -ENOMEM;
		}
		k->pid = m->pid;
		k->start = m->start;
		if (hashmap__add(&im->map, &k->node, (size_t)hash__u64x2(m->pid, m->start))) {
			free(k);
			free(copy);
			return -ENOMEM;
		}
	}
	free(k->event);
	k->event = copy;
	k->id = *id;
	k->ea = ea;
	k->written_at = ~0ULL;
	return 0;
}

/* the record again with time t in its sample_id */
static int inject_maps__write_at(struct inject_maps *im, struct kept_mmap *k, u64 t,
				 inject_maps_write_t write, void *arg)
{
	struct perf_event_header *h = (struct perf_event_header *)im->buf;
	u16 trailer = k->ea ? k->ea->id_hdr_size : 0;
	struct perf_sample id = k->id;
	int n;

	if (!trailer || trailer > k->event->size)
		return 0;	/* no time to move: nothing a reader orders by */
	memcpy(h, k->event, k->event->size - trailer);
	id.time = t;
	n = perf_sample__synthesize_id(&k->ea->attr, &id, false,
				       (u8 *)h + k->event->size - trailer, trailer);
	if (n != trailer)
		return n < 0 ? n : -EINVAL;
	k->written_at = t;
	return write(arg, h);
}

int inject_maps__before(struct inject_maps *im, struct thread *thread,
			const struct perf_sample *sample, const u64 *chain, u64 nr,
			inject_maps_write_t write, void *arg)
{
	struct map *prev = NULL;

	if (!thread || !thread->maps || !sample->time || (s32)sample->pid == -1)
		return 0;
	for (u64 i = 0; i < nr; i++) {
		struct map *map;
		struct kept_mmap *k;
		int ret;

		if (chain[i] >= PERF_CONTEXT_MAX)
			continue;
		map = maps__find(thread->maps, chain[i]);
		if (!map || map == prev)
			continue;
		prev = map;
		k = inject_maps__find(im, (u32)sample->pid, map->start);
		if (!k || k->id.time <= sample->time || k->written_at <= sample->time)
			continue;
		ret = inject_maps__write_at(im, k, sample->time, write, arg);
		if (ret)
			return ret;
	}
	return 0;
}
