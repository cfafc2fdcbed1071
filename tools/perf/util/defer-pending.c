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
	bool			answered;	/* its record came: later samples are answered */
	u64			samples;	/* waiting ones (none once answered) */
};

/*
 * Records answered before their samples were read (another CPU's buffer read first, or a
 * record the kernel wrote before a sample of the same entry) are kept as answered keys, at
 * most this many: past it they are forgotten all at once, so memory stays bounded.
 */
#define MAX_ANSWERED_KEYS	(1u << 16)

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

static int defer_pending__add(struct defer_pending *dp, u32 tid, u64 cookie, size_t h,
			      struct defer_pending_entry **out)
{
	struct defer_pending_entry *e = calloc(1, sizeof(*e));

	if (!e || hashmap__add(&dp->keys, &e->node, h)) {
		free(e);
		dp->oom = true;
		return -1;
	}
	e->tid = tid;
	e->cookie = cookie;
	*out = e;
	return 0;
}

void defer_pending__sample(struct defer_pending *dp, u32 tid, u64 cookie)
{
	size_t h = key_hash(tid, cookie);
	struct defer_pending_entry *e = defer_pending__find(dp, tid, cookie, h);

	if (e && e->answered) {
		dp->answered++;
		return;
	}
	if (!e && defer_pending__add(dp, tid, cookie, h, &e))
		return;
	e->samples++;
	dp->waiting++;
}

static void defer_pending__forget_answered(struct defer_pending *dp)
{
	struct hashmap_node *pos, *tmp;
	size_t b;

	hashmap__for_each_safe(&dp->keys, pos, tmp, b) {
		struct defer_pending_entry *e = container_of(pos, struct defer_pending_entry, node);

		if (e->answered) {
			hashmap__remove(&dp->keys, &e->node);
			free(e);
		}
	}
	dp->nr_answered_keys = 0;
}

void defer_pending__record(struct defer_pending *dp, u32 tid, u64 cookie)
{
	size_t h = key_hash(tid, cookie);
	struct defer_pending_entry *e = defer_pending__find(dp, tid, cookie, h);

	if (e && e->answered)
		return;		/* defer_output on several events: a copy */
	if (!e) {
		if (dp->nr_answered_keys >= MAX_ANSWERED_KEYS)
			defer_pending__forget_answered(dp);
		if (defer_pending__add(dp, tid, cookie, h, &e))
			return;
	}
	dp->waiting -= e->samples;
	dp->answered += e->samples;
	e->samples = 0;
	e->answered = true;
	dp->nr_answered_keys++;
}
