// SPDX-License-Identifier: GPL-2.0
/* Deferred samples still waiting for their record, by (tid, cookie). See defer-pending.h. */
#include <stdbool.h>
#include <stdlib.h>
#include "defer-pending.h"
#include "hash.h"

struct defer_pending_entry {
	struct hashmap_node	node;
	u64			cookie;
	u32			tid;
	u64			samples;
};

static size_t key_hash(u32 tid, u64 cookie)
{
	return (size_t)hash__u64x2(cookie, tid);
}

static struct defer_pending_entry *defer_pending__find(const struct defer_pending *dp,
							u32 tid, u64 cookie, size_t h)
{
	struct hashmap_node *pos;

	hashmap__for_each_hash(&dp->keys, pos, h) {
		struct defer_pending_entry *e = container_of(pos, struct defer_pending_entry, node);

		if (e->tid == tid && e->cookie == cookie)
			return e;
	}
	return NULL;
}

void defer_pending__init(struct defer_pending *dp)
{
	*dp = (struct defer_pending){ 0 };
	hashmap__init(&dp->keys, 256);
}

static void entry__free(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct defer_pending_entry, node));
}

void defer_pending__exit(struct defer_pending *dp)
{
	hashmap__clear(&dp->keys, entry__free, NULL);
	hashmap__exit(&dp->keys);
	defer_pending__init(dp);
}

void defer_pending__sample(struct defer_pending *dp, u32 tid, u64 cookie)
{
	size_t h = key_hash(tid, cookie);
	struct defer_pending_entry *e = defer_pending__find(dp, tid, cookie, h);

	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e || hashmap__add(&dp->keys, &e->node, h)) {
			free(e);
			dp->oom = true;
			return;
		}
		e->tid = tid;
		e->cookie = cookie;
	}
	e->samples++;
	dp->waiting++;
}

void defer_pending__record(struct defer_pending *dp, u32 tid, u64 cookie)
{
	struct defer_pending_entry *e = defer_pending__find(dp, tid, cookie, key_hash(tid, cookie));

	if (!e)
		return;
	hashmap__remove(&dp->keys, &e->node);
	dp->waiting -= e->samples;
	dp->answered += e->samples;
	free(e);
}
