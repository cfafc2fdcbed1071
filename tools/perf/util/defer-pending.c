// SPDX-License-Identifier: GPL-2.0
/* Deferred samples still waiting for their record, by (tid, cookie). See defer-pending.h. */
#include <stdbool.h>
#include <stdlib.h>
#include "defer-pending.h"

struct defer_pending_entry {
	struct defer_pending_entry	*next;
	u64				cookie;
	u32				tid;
	u64				samples;
};

static size_t key_hash(u32 tid, u64 cookie, size_t nr_buckets)
{
	u64 h = (cookie ^ ((u64)tid << 32 | tid)) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (nr_buckets - 1);
}

void defer_pending__init(struct defer_pending *dp)
{
	*dp = (struct defer_pending){ 0 };
}

void defer_pending__exit(struct defer_pending *dp)
{
	for (size_t b = 0; b < dp->nr_buckets; b++)
		while (dp->buckets[b]) {
			struct defer_pending_entry *e = dp->buckets[b];

			dp->buckets[b] = e->next;
			free(e);
		}
	free(dp->buckets);
	defer_pending__init(dp);
}

static bool defer_pending__grow(struct defer_pending *dp)
{
	size_t n = dp->nr_buckets ? dp->nr_buckets * 2 : 256;
	struct defer_pending_entry **nb = calloc(n, sizeof(*nb));

	if (!nb)
		return false;
	for (size_t b = 0; b < dp->nr_buckets; b++)
		while (dp->buckets[b]) {
			struct defer_pending_entry *e = dp->buckets[b];
			size_t h = key_hash(e->tid, e->cookie, n);

			dp->buckets[b] = e->next;
			e->next = nb[h];
			nb[h] = e;
		}
	free(dp->buckets);
	dp->buckets = nb;
	dp->nr_buckets = n;
	return true;
}

void defer_pending__sample(struct defer_pending *dp, u32 tid, u64 cookie)
{
	struct defer_pending_entry *e;
	size_t h;

	if (dp->nr_keys >= dp->nr_buckets && !defer_pending__grow(dp) && !dp->nr_buckets) {
		dp->oom = true;
		return;
	}
	h = key_hash(tid, cookie, dp->nr_buckets);
	for (e = dp->buckets[h]; e; e = e->next)
		if (e->tid == tid && e->cookie == cookie)
			break;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e) {
			dp->oom = true;
			return;
		}
		e->tid = tid;
		e->cookie = cookie;
		e->next = dp->buckets[h];
		dp->buckets[h] = e;
		dp->nr_keys++;
	}
	e->samples++;
	dp->waiting++;
}

void defer_pending__record(struct defer_pending *dp, u32 tid, u64 cookie)
{
	struct defer_pending_entry **pp;

	if (!dp->nr_buckets)
		return;
	for (pp = &dp->buckets[key_hash(tid, cookie, dp->nr_buckets)]; *pp; pp = &(*pp)->next) {
		struct defer_pending_entry *e = *pp;

		if (e->tid != tid || e->cookie != cookie)
			continue;
		*pp = e->next;
		dp->waiting -= e->samples;
		dp->answered += e->samples;
		dp->nr_keys--;
		free(e);
		return;
	}
}
