// SPDX-License-Identifier: GPL-2.0
/*
 * The `-g` to `--call-graph fp,defer` converter (see defer-convert.h).
 *
 * Three passes over the whole recording, held in memory (test inputs are small):
 *   1. read every record into a private copy, with its time and tid;
 *   2. walk them in time order and cut each thread's samples into kernel entries;
 *   3. decide where each entry's record goes (after its last sample, before its last sample,
 *      after another thread's record, or nowhere), then write the records in file order,
 *      each entry's record right behind the record it is anchored to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/data.h>
#include "defer-convert.h"
#include <perf/writer.h>
#include <perf/synthesize.h>
#include <perf/kernel.h>
#include "util/hash.h"
#include "util/hashmap.h"

#define NONE	((size_t)-1)

struct cv_rec {
	struct perf_event_header *h;	/* owned copy, host order */
	struct perf_evattr	*ea;	/* NULL for perf's own records */
	u64			time;
	u32			pid, tid, cpu;
	u64			id;
	bool			has_tid;
	size_t			entry;		/* the entry of a converted sample, or NONE */
	u64			user_at;	/* index of its PERF_CONTEXT_USER marker */
	u64			next_time;	/* the thread's next event after this one, or ~0 */
	size_t			anchored;	/* entry whose record follows this one, or NONE */
};

enum cv_how {
	CV_NORMAL,
	CV_DROP,
	CV_EARLY,
	CV_DELAY,
};

struct cv_entry {
	u64		cookie;
	size_t		first, prev, last;	/* sample records; prev: the one before last */
	size_t		nr_samples;
	bool		kernel;			/* kernel-mode samples (else one user-mode sample) */
	u64		rtime;			/* the record's time */
	enum cv_how	how;
	size_t		delayed_head;		/* DELAY entries anchored behind this record */
	size_t		delayed_next;
};

struct cv {
	struct perf_data	*data;
	unsigned		flags;
	struct cv_rec		*recs;
	size_t			nr_recs, alloc_recs;
	struct cv_entry		*entries;
	size_t			nr_entries, alloc_entries;
	struct perf_evattr	*dea;		/* the attr with defer_output */
	struct perf_defer_convert_stats *stats;
	u32			cpu_cnt[4096];	/* per-CPU cookie counters */
	u64			buf[8192];
	u64			chain[8192];	/* a rewritten callchain: fits a record */
};

/* a small tid -> value map (no deletion) */
struct tid_map {
	struct hashmap	map;		/* struct tid_val by tid, owned */
};

struct tid_val {
	struct hashmap_node	node;
	u32			tid;
	u64			val;
};

static void tid_map__init(struct tid_map *m)
{
	hashmap__init(&m->map, 256);
}

/* the value slot of tid, created with init when missing; NULL on allocation failure */
static u64 *tid_map__slot(struct tid_map *m, u32 tid, u64 init)
{
	u64 h = hash__u64(tid);
	struct hashmap_node *pos;
	struct tid_val *v;

	hashmap__for_each_hash(&m->map, pos, h) {
		v = container_of(pos, struct tid_val, node);
		if (v->tid == tid)
			return &v->val;
	}
	v = malloc(sizeof(*v));
	if (!v)
		return NULL;
	v->tid = tid;
	v->val = init;
	if (hashmap__add(&m->map, &v->node, h)) {
		free(v);
		return NULL;
	}
	return &v->val;
}

static void tid_val__free(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct tid_val, node));
}

static void tid_map__exit(struct tid_map *m)
{
	hashmap__clear(&m->map, tid_val__free, NULL);
	hashmap__exit(&m->map);
}

static void cv__exit(struct cv *cv)
{
	for (size_t i = 0; i < cv->nr_recs; i++)
		free(cv->recs[i].h);
	free(cv->recs);
	free(cv->entries);
	perf_data__close(cv->data);
}

static bool cv__keep_user_record(u32 type, bool swap)
{
	/* the writer knows how to swap these; the rest only matter to other tools */
	if (swap)
		return type == PERF_RECORD_FINISHED_ROUND || type == PERF_RECORD_FINISHED_INIT ||
		       type == PERF_RECORD_ID_INDEX || type == PERF_RECORD_TIME_CONV ||
		       type == PERF_RECORD_THREAD_MAP || type == PERF_RECORD_HEADER_BUILD_ID;
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return false;	/* the writer makes its own from the attrs and features */
	default:
		return true;
	}
}

/*
 * Where the user part of a sample starts: the index of its PERF_CONTEXT_USER marker, with
 * only plain ips after it and no deferred or guest marker anywhere. NONE: nothing to defer.
 */
static u64 chain__user_at(const struct perf_sample *s)
{
	u64 at = NONE;

	for (u64 i = 0; i < s->callchain_nr; i++) {
		u64 ip = s->callchain[i];

		if (ip < PERF_CONTEXT_MAX)
			continue;
		if (ip == PERF_CONTEXT_USER && at == NONE)
			at = i;
		else if (ip != PERF_CONTEXT_KERNEL || at != NONE)
			return NONE;
	}
	return at;
}

static int cv__read(struct cv *cv, const char *in, struct perf_err *err)
{
	struct perf_err perr = { "" };
	struct perf_data_record r;
	int ret;

	cv->data = perf_data__open(in, err);
	if (!cv->data)
		return -EINVAL;
	if (perf_data__needs_swap(cv->data))
		return perf_err__set(err, EOPNOTSUPP, "%s: cross-endian input is not supported", in);
	while ((ret = perf_data__next(cv->data, &r, err)) > 0) {
		const struct perf_event_header *h = r.header;
		struct cv_rec *c;
		struct perf_sample s;

		if (h->type >= PERF_RECORD_USER_TYPE_START &&
		    !cv__keep_user_record(h->type, cv->flags & PERF_DEFER_CONVERT_SWAP))
			continue;
		if (cv->nr_recs == cv->alloc_recs) {
			size_t n = cv->alloc_recs ? cv->alloc_recs * 2 : 4096;
			struct cv_rec *nr = realloc(cv->recs, n * sizeof(*nr));

			if (!nr)
				return perf_err__set(err, ENOMEM, "out of memory");
			cv->recs = nr;
			cv->alloc_recs = n;
		}
		c = &cv->recs[cv->nr_recs];
		memset(c, 0, sizeof(*c));
		c->entry = c->anchored = NONE;
		c->user_at = NONE;
		c->next_time = ~0ULL;
		c->h = malloc(h->size);
		if (!c->h)
			return perf_err__set(err, ENOMEM, "out of memory");
		memcpy(c->h, h, h->size);
		cv->nr_recs++;
		if (h->type >= PERF_RECORD_USER_TYPE_START)
			continue;
		c->ea = perf_data__attr_of(cv->data, h);
		/* synthesized side-band records may carry an id of no event: the layout is shared */
		if (!c->ea && h->type != PERF_RECORD_SAMPLE)
			c->ea = perf_data__attr(cv->data, 0);
		if (!c->ea)
			return perf_err__set(err, EINVAL, "%s: record at offset %#llx (type %u) matches no attr",
					     in, (unsigned long long)r.file_offset, h->type);
		ret = perf_evattr__parse_sample(c->ea, c->h, false, NULL, &s, &perr);
		if (ret)
			return perf_err__set(err, ret, "%s: record at offset %#llx: %s", in,
					     (unsigned long long)r.file_offset, perr.msg);
		if (h->type == PERF_RECORD_SAMPLE && !s.has_time)
			return perf_err__set(err, EOPNOTSUPP, "%s: samples without PERF_SAMPLE_TIME cannot be ordered", in);
		c->time = s.time;
		c->pid = s.pid;
		c->tid = s.tid;
		c->cpu = s.cpu == (u32)-1 ? 0 : s.cpu;
		c->id = s.id;
		c->has_tid = (c->ea->attr.sample_type & PERF_SAMPLE_TID) &&
			     (h->type == PERF_RECORD_SAMPLE ||
			      perf_attr__has(&c->ea->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL));
		if (h->type == PERF_RECORD_SAMPLE && (c->ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
			c->user_at = chain__user_at(&s);
	}
	return ret;
}

static int time_cmp(const void *a, const void *b, void *arg)
{
	const struct cv_rec *recs = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (recs[x].time != recs[y].time)
		return recs[x].time < recs[y].time ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* the kernel records in (time, file position) order, NONE-terminated */
static size_t *cv__time_order(struct cv *cv)
{
	size_t *ord = malloc((cv->nr_recs + 1) * sizeof(*ord));
	size_t n = 0;

	if (!ord)
		return NULL;
	for (size_t i = 0; i < cv->nr_recs; i++)
		if (cv->recs[i].ea)
			ord[n++] = i;
	qsort_r(ord, n, sizeof(*ord), time_cmp, cv->recs);
	for (size_t i = n; i <= cv->nr_recs; i++)
		ord[i] = NONE;
	return ord;
}

static int cv__new_entry(struct cv *cv, size_t first, bool kernel)
{
	const struct cv_rec *c = &cv->recs[first];
	struct cv_entry *e;
	u32 cpu = c->cpu % (ARRAY_SIZE(cv->cpu_cnt));

	if (cv->nr_entries == cv->alloc_entries) {
		size_t n = cv->alloc_entries ? cv->alloc_entries * 2 : 1024;
		struct cv_entry *ne = realloc(cv->entries, n * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		cv->entries = ne;
		cv->alloc_entries = n;
	}
	e = &cv->entries[cv->nr_entries];
	memset(e, 0, sizeof(*e));
	/* the kernel's counter is odd and starts past 1 */
	if (!cv->cpu_cnt[cpu])
		cv->cpu_cnt[cpu] = 3;
	e->cookie = ((u64)cv->cpu_cnt[cpu] << 32) | (cpu + 1);
	cv->cpu_cnt[cpu] += 2;
	e->first = e->last = first;
	e->prev = NONE;
	e->nr_samples = 1;
	e->kernel = kernel;
	e->delayed_head = e->delayed_next = NONE;
	cv->recs[first].entry = cv->nr_entries++;
	return 0;
}

/* the callchain of a converted sample: its nr and ips inside the record copy */
static const u64 *rec__chain(const struct cv_rec *c, u64 *nr)
{
	struct perf_sample s;

	if (perf_evattr__parse_sample(c->ea, c->h, false, NULL, &s, NULL))
		return NULL;
	*nr = s.callchain_nr;
	return s.callchain;
}

static bool user_parts_equal(const struct cv_rec *a, const struct cv_rec *b)
{
	u64 na, nb;
	const u64 *ca = rec__chain(a, &na), *cb = rec__chain(b, &nb);

	if (!ca || !cb || na - a->user_at != nb - b->user_at)
		return false;
	return !memcmp(ca + a->user_at, cb + b->user_at, (na - a->user_at) * sizeof(u64));
}

/* pass 2: each thread's samples, in time order, cut into kernel entries */
static int cv__entries(struct cv *cv, const size_t *ord, struct perf_err *err)
{
	struct tid_map cur, next;
	int ret = 0;

	tid_map__init(&cur);
	tid_map__init(&next);

	/* the time of each record's thread's next event, walking backwards */
	for (size_t k = cv->nr_recs; k-- > 0;) {
		struct cv_rec *c;
		u64 *slot;

		if (ord[k] == NONE)
			continue;	/* the tail past the kernel records */
		c = &cv->recs[ord[k]];
		if (!c->has_tid)
			continue;
		slot = tid_map__slot(&next, c->tid, ~0ULL);
		if (!slot) {
			ret = -ENOMEM;
			goto out;
		}
		c->next_time = *slot;
		*slot = c->time;
	}
	for (size_t k = 0; k < cv->nr_recs && ord[k] != NONE; k++) {
		size_t i = ord[k];
		struct cv_rec *c = &cv->recs[i];
		bool kernel;
		u64 *slot;

		if (!c->has_tid)
			continue;
		slot = tid_map__slot(&cur, c->tid, NONE);
		if (!slot) {
			ret = -ENOMEM;
			goto out;
		}
		if (c->h->type != PERF_RECORD_SAMPLE || c->user_at == NONE) {
			/* anything else the thread does ends its entry */
			*slot = NONE;
			continue;
		}
		kernel = c->user_at > 0;
		if (*slot != NONE && kernel && !(cv->flags & PERF_DEFER_CONVERT_EACH) &&
		    cv->entries[*slot].kernel &&
		    user_parts_equal(&cv->recs[cv->entries[*slot].first], c)) {
			struct cv_entry *e = &cv->entries[*slot];

			e->prev = e->last;
			e->last = i;
			e->nr_samples++;
			c->entry = *slot;
			continue;
		}
		if (cv__new_entry(cv, i, kernel)) {
			ret = -ENOMEM;
			goto out;
		}
		/* a user-mode sample's entry ends with it: the record follows at once */
		*slot = kernel ? cv->nr_entries - 1 : NONE;
	}
out:
	tid_map__exit(&cur);
	tid_map__exit(&next);
	return ret ? perf_err__set(err, ret, "out of memory") : 0;
}

static int rtime_cmp(const void *a, const void *b, void *arg)
{
	const struct cv_entry *e = arg;
	u64 x = e[*(const size_t *)a].rtime, y = e[*(const size_t *)b].rtime;

	return x < y ? -1 : x > y;
}

/* pass 3a: where each entry's record goes and when */
static int cv__place(struct cv *cv, struct perf_err *err)
{
	size_t *by_time;

	size_t nr_multi = 0;	/* entries of two samples or more so far */

	for (size_t i = 0; i < cv->nr_entries; i++) {
		struct cv_entry *e = &cv->entries[i];
		const struct cv_rec *last = &cv->recs[e->last];
		bool multi = e->prev != NONE && cv->recs[e->last].time > cv->recs[e->prev].time + 1;

		/* 1 ns after the entry, but never at or after the thread's next event */
		e->rtime = last->next_time > last->time + 1 ? last->time + 1 : last->time;
		e->how = CV_NORMAL;
		if ((cv->flags & PERF_DEFER_CONVERT_DROP) && i % 5 == 4) {
			e->how = CV_DROP;
			cv->stats->dropped++;
			cv->stats->dropped_samples += e->nr_samples;
		} else if ((cv->flags & PERF_DEFER_CONVERT_EARLY) && multi && nr_multi++ % 3 == 0) {
			/* written after the sample before last: the last one comes after its record */
			e->how = CV_EARLY;
			e->rtime = cv->recs[e->prev].time + 1;
			cv->stats->early++;
		}
	}
	if (!(cv->flags & PERF_DEFER_CONVERT_DELAY))
		goto out_anchor;
	by_time = malloc((cv->nr_entries ? cv->nr_entries : 1) * sizeof(*by_time));
	if (!by_time)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < cv->nr_entries; i++)
		by_time[i] = i;
	qsort_r(by_time, cv->nr_entries, sizeof(*by_time), rtime_cmp, cv->entries);
	for (size_t k = 0; k < cv->nr_entries; k++) {
		size_t i = by_time[k];
		struct cv_entry *e = &cv->entries[i];
		u64 next = cv->recs[e->last].next_time;
		u32 tid = cv->recs[e->last].tid;

		if (e->how != CV_NORMAL || i % 4 != 2)
			continue;
		/* the next normal record of another thread, if it still precedes our next event */
		for (size_t m = k + 1; m < cv->nr_entries; m++) {
			struct cv_entry *o = &cv->entries[by_time[m]];

			if (o->rtime + 1 >= next)
				break;
			if (o->how != CV_NORMAL || cv->recs[o->last].tid == tid || o->rtime <= e->rtime)
				continue;
			e->how = CV_DELAY;
			e->rtime = o->rtime + 1;
			e->delayed_next = o->delayed_head;
			o->delayed_head = i;
			cv->stats->delayed++;
			break;
		}
	}
	free(by_time);
out_anchor:
	for (size_t i = 0; i < cv->nr_entries; i++) {
		struct cv_entry *e = &cv->entries[i];

		if (e->how == CV_NORMAL)
			cv->recs[e->last].anchored = i;
		else if (e->how == CV_EARLY)
			cv->recs[e->prev].anchored = i;
	}
	return 0;
}

/* the sample with its user part replaced by marker + cookie */
static int cv__write_sample(struct cv *cv, struct perf_writer *w, const struct cv_rec *c,
			    struct perf_err *err)
{
	const struct cv_entry *e = &cv->entries[c->entry];
	u64 *chain = cv->chain;
	struct perf_sample s;
	int size;

	if (perf_evattr__parse_sample(c->ea, c->h, false, NULL, &s, NULL))
		return perf_err__set(err, EINVAL, "a sample no longer parses");
	/* the kernel part, then the marker and the cookie in place of the user part */
	if (c->user_at + 2 > ARRAY_SIZE(cv->chain))
		return perf_err__set(err, E2BIG, "a kernel callchain of %llu entries is longer than the kernel writes",
				     (unsigned long long)c->user_at);
	memcpy(chain, s.callchain, c->user_at * sizeof(u64));
	chain[c->user_at] = PERF_CONTEXT_USER_DEFERRED;
	chain[c->user_at + 1] = e->cookie;
	s.callchain = chain;
	s.callchain_nr = c->user_at + 2;
	size = perf_sample__synthesize(&c->ea->attr, &s, false, cv->buf, sizeof(cv->buf), err);
	if (size < 0)
		return size;
	cv->stats->samples++;
	return perf_writer__write(w, (void *)cv->buf, err);
}

/* the id the defer_output event has where the sample's event has the sample's id */
static u64 cv__record_id(const struct cv *cv, const struct cv_rec *c)
{
	if (c->ea == cv->dea)
		return c->id;
	for (size_t k = 0; k < c->ea->nr_ids; k++)
		if (c->ea->ids[k] == c->id && k < cv->dea->nr_ids)
			return cv->dea->ids[k];
	return cv->dea->nr_ids ? cv->dea->ids[0] : 0;
}

static int cv__write_record(struct cv *cv, struct perf_writer *w, size_t idx, struct perf_err *err)
{
	const struct cv_entry *e = &cv->entries[idx];
	const struct cv_rec *c = &cv->recs[e->first];
	struct perf_sample ids = { .pid = c->pid, .tid = c->tid, .time = e->rtime,
				   .cpu = cv->recs[e->last].cpu, .id = cv__record_id(cv, c) };
	u64 nr;
	const u64 *chain = rec__chain(c, &nr);
	int size;

	if (!chain)
		return perf_err__set(err, EINVAL, "a sample no longer parses");
	ids.stream_id = ids.id;
	size = perf_record_callchain_deferred__synthesize(cv->buf, sizeof(cv->buf), &cv->dea->attr,
							  &ids, e->cookie, chain + c->user_at + 1,
							  nr - c->user_at - 1);
	if (size < 0)
		return perf_err__set(err, -size, "cannot build the deferred record of cookie %#llx",
				     (unsigned long long)e->cookie);
	return perf_writer__write(w, (void *)cv->buf, err);
}

static int cv__write_anchored(struct cv *cv, struct perf_writer *w, size_t idx, struct perf_err *err)
{
	int ret = cv__write_record(cv, w, idx, err);

	for (size_t d = cv->entries[idx].delayed_head; !ret && d != NONE; d = cv->entries[d].delayed_next)
		ret = cv__write_record(cv, w, d, err);
	return ret;
}

/* defer_callchain where there are callchains, defer_output on the tracking event */
static int cv__set_attrs(struct cv *cv, struct perf_err *err)
{
	const u64 tracking = PERF_ATTR_FLAG(MMAP) | PERF_ATTR_FLAG(MMAP2) | PERF_ATTR_FLAG(COMM) |
			     PERF_ATTR_FLAG(TASK);
	size_t n = perf_data__nr_attrs(cv->data);

	for (size_t i = 0; i < n; i++) {
		struct perf_evattr *ea = perf_data__attr(cv->data, i);

		if ((ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
		    !perf_attr__has(&ea->attr, PERF_ATTR_BIT_EXCLUDE_CALLCHAIN_USER))
			ea->attr.flags |= PERF_ATTR_FLAG(DEFER_CALLCHAIN);
		if (!cv->dea && (ea->attr.flags & tracking))
			cv->dea = ea;
	}
	if (!cv->dea)
		cv->dea = perf_data__attr(cv->data, 0);
	for (size_t i = 0; i < n && (cv->flags & PERF_DEFER_CONVERT_SWAP); i++)
		if (perf_data__attr(cv->data, i)->attr.sample_type & PERF_SAMPLE_RAW)
			return perf_err__set(err, EOPNOTSUPP, "tracepoint payloads (PERF_SAMPLE_RAW) cannot be written in the other byte order: their fields are not known here");
	if (!perf_attr__has(&cv->dea->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL) ||
	    !(cv->dea->attr.sample_type & PERF_SAMPLE_TID))
		return perf_err__set(err, EOPNOTSUPP, "the recording has no sample_id with a tid: deferred records could not be matched");
	if (!(cv->flags & PERF_DEFER_CONVERT_EXPECTED))
		cv->dea->attr.flags |= PERF_ATTR_FLAG(DEFER_OUTPUT);
	return 0;
}

static int cv__write(struct cv *cv, const char *out, struct perf_err *err)
{
	struct perf_writer_opts wo = {
		.pipe = cv->flags & PERF_DEFER_CONVERT_PIPE,
		.cross_endian = cv->flags & PERF_DEFER_CONVERT_SWAP,
		.zstd_level = cv->flags & PERF_DEFER_CONVERT_ZSTD ? 3 : 0,
	};
	bool expected = cv->flags & PERF_DEFER_CONVERT_EXPECTED;
	struct perf_writer *w;
	int ret;

	for (size_t i = 0; i < perf_data__nr_attrs(cv->data); i++) {
		u32 size = perf_data__attr(cv->data, i)->attr.size;

		if (size > wo.attr_size)
			wo.attr_size = size > sizeof(struct perf_event_attr) ? sizeof(struct perf_event_attr)
								    : (size + 7) & ~7u;
	}
	if (wo.attr_size < PERF_ATTR_SIZE_VER0)
		wo.attr_size = 0;
	w = perf_writer__new(out, &wo, err);
	if (!w)
		return -EIO;
	ret = perf_writer__copy_header(w, cv->data, err);
	for (size_t i = 0; i < cv->nr_recs && !ret; i++) {
		const struct cv_rec *c = &cv->recs[i];
		const struct cv_entry *e = c->entry != NONE ? &cv->entries[c->entry] : NULL;

		/* the expected output keeps a sample as it was unless its record is gone */
		if (e && (!expected || e->how == CV_DROP))
			ret = cv__write_sample(cv, w, c, err);
		else
			ret = perf_writer__write(w, c->h, err);
		if (!ret && !expected && c->anchored != NONE)
			ret = cv__write_anchored(cv, w, c->anchored, err);
	}
	if (!ret)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
	return ret;
}

int perf_defer_convert__stats(const char *in, const char *out, unsigned flags,
			 struct perf_defer_convert_stats *stats, struct perf_err *err)
{
	struct perf_defer_convert_stats unused;
	struct cv *cv = calloc(1, sizeof(*cv));
	size_t *ord = NULL;
	int ret;

	if (!cv)
		return perf_err__set(err, ENOMEM, "out of memory");
	cv->flags = flags;
	cv->stats = stats ? stats : &unused;
	memset(cv->stats, 0, sizeof(*cv->stats));
	ret = cv__read(cv, in, err);
	if (!ret)
		ret = cv__set_attrs(cv, err);
	if (!ret) {
		ord = cv__time_order(cv);
		ret = ord ? cv__entries(cv, ord, err) : perf_err__set(err, ENOMEM, "out of memory");
	}
	if (!ret)
		ret = cv__place(cv, err);
	cv->stats->entries = cv->nr_entries;
	if (!ret)
		ret = cv__write(cv, out, err);
	free(ord);
	cv__exit(cv);
	free(cv);
	return ret;
}

int perf_defer_convert(const char *in, const char *out, unsigned flags, struct perf_err *err)
{
	return perf_defer_convert__stats(in, out, flags, NULL, err);
}
