// SPDX-License-Identifier: GPL-2.0
/*
 * read-stage.c - one sample per read value that grew (read-stage.h).
 *
 * The previous values live in one open-addressing table keyed by (id, tid), tid -1 where
 * the attr does not keep them per thread: perf keeps one per sample id, or one per id and
 * thread for inherited counters, whose children read their own copies.
 */
#include <errno.h>
#include <stdlib.h>
#include <perf/abi.h>
#include <perf/data.h>
#include <perf/kernel.h>
#include "hash.h"
#include "hashmap.h"
#include "read-stage.h"
#include "sample-stage.h"

struct read_prev {
	struct hashmap_node	node;
	u64			id;
	s64			tid;		/* -1: shared by every thread */
	u64			value;
};

struct read_stage {
	struct sample_stage	st;
	struct hashmap		prev;		/* struct read_prev by (id, tid), owned */
};

/* the entry of (id, tid), made at value 0 on first use; NULL on allocation failure */
static struct read_prev *read_stage__prev(struct read_stage *rs, u64 id, s64 tid)
{
	u64 h = hash__u64x2(id, (u64)tid);
	struct hashmap_node *pos;
	struct read_prev *p;

	hashmap__for_each_hash(&rs->prev, pos, h) {
		p = container_of(pos, struct read_prev, node);
		if (p->id == id && p->tid == tid)
			return p;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->id = id;
	p->tid = tid;
	if (hashmap__add(&rs->prev, &p->node, h)) {
		free(p);
		return NULL;
	}
	return p;
}

/* the value's growth since the previous one of (id, tid), which it becomes */
static int read_stage__delta(struct read_stage *rs, u64 id, s64 tid, u64 value, u64 *delta)
{
	struct read_prev *p = read_stage__prev(rs, id, tid);

	if (!p)
		return -ENOMEM;
	*delta = value - p->value;
	p->value = value;
	return 0;
}

static int read_stage__value(struct read_stage *rs, struct stage_sample *s, s64 tid, u64 value,
			     u64 id)
{
	struct perf_evattr *ea = perf_data__attr_by_id(rs->st.env.data, id);
	struct perf_sample m;
	struct stage_sample out;
	u64 delta;
	int ret;

	if (!ea) {
		(*rs->st.env.nr_unknown_id)++;
		return 0;
	}
	ret = read_stage__delta(rs, id, tid, value, &delta);
	if (ret || !delta)
		return ret;
	m = *s->sample;
	m.id = id;
	m.period = delta;
	out = *s;
	out.sample = &m;
	out.evattr = ea;
	return sample_stage__emit(&rs->st, &out);
}

static int read_stage__sample(struct sample_stage *st, struct stage_sample *s)
{
	struct read_stage *rs = (struct read_stage *)st;
	const struct perf_event_attr *attr = &s->evattr->attr;
	const struct perf_sample_read *r = &s->sample->read;
	u64 per, fmt = attr->read_format;
	s64 tid = -1;
	int ret = 0;

	if (!(attr->sample_type & PERF_SAMPLE_READ))
		return sample_stage__emit(st, s);
	if (perf_attr__has(attr, PERF_ATTR_BIT_INHERIT) && (attr->sample_type & PERF_SAMPLE_TID))
		tid = s->sample->tid;
	if (!(fmt & PERF_FORMAT_GROUP))
		return read_stage__value(rs, s, tid, r->one.value, r->one.id);
	per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	for (u64 i = 0; i < r->nr && !ret; i++) {
		const u64 *v = (const u64 *)r->group + i * per;

		/* without PERF_FORMAT_ID a value names no event: perf drops it as unknown */
		ret = read_stage__value(rs, s, tid, v[0], fmt & PERF_FORMAT_ID ? v[1] : 0);
	}
	return ret;
}

static void read_stage__delete(struct sample_stage *st)
{
	struct read_stage *rs = (struct read_stage *)st;

	struct hashmap_node *pos, *tmp;
	size_t bkt;

	hashmap__for_each_safe(&rs->prev, pos, tmp, bkt)
		free(container_of(pos, struct read_prev, node));
	hashmap__exit(&rs->prev);
	free(rs);
}

static const struct sample_stage_ops read_stage_ops = {
	.name	= "read",
	.kind	= SAMPLE_STAGE_READ,
	.sample	= read_stage__sample,
	.delete	= read_stage__delete,
};

struct sample_stage *read_stage__new(const struct sample_stage_env *env)
{
	struct read_stage *rs = calloc(1, sizeof(*rs));

	if (!rs)
		return NULL;
	hashmap__init(&rs->prev, 64);
	sample_stage__init(&rs->st, &read_stage_ops, env);
	return &rs->st;
}
