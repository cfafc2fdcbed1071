// SPDX-License-Identifier: GPL-2.0
/*
 * Stitching deferred user callchains (PERF_RECORD_CALLCHAIN_DEFERRED) onto their samples.
 *
 * Pending samples live in two structures that never allocate per sample:
 *
 *   arena chunks   the copies of the sample records, appended in arrival order; a chunk is
 *                  freed (or kept as the one spare) when its last copy was delivered
 *   entry slab     one small fixed-size entry per pending sample, reused through a free
 *                  list, linked twice by slab index:
 *
 *       fifo:     oldest <-> ... <-> newest          (all threads; cap and EOF release)
 *       thread:   head -> ... -> tail                (one list per tid, arrival order)
 *
 * Threads sit in a hash map keyed by tid; a thread that leaves it is kept for the next one
 * (no allocation per thread churn, only up to the peak). A thread holds its pending list and
 * its latest record (cookie + ips). Every record delivers the whole pending list of its tid
 * (matching cookie: stitched; other cookie: released), so the cost is O(1) per sample and per
 * record, whatever the number of threads or pending samples.
 *
 * The memory cap counts what is really held (arena chunk bytes, spare included, plus live
 * entries), not the sum of record sizes: a few long-pending samples pinning half-empty chunks
 * are paid for, and then released oldest first like everything else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "deferred.h"
#include "hash.h"
#include "hashmap.h"

#define DEFERRED_DEFAULT_MAX_MEM	(64ULL << 20)
#define CHUNK_MIN			4096
#define CHUNK_MAX			(1U << 20)
#define NIL				UINT32_MAX

/* the largest record the 16-bit size field can describe, in u64 words */
#define MAX_RECORD_WORDS		(65536 / 8)

/* 64 bytes: the stats' byte counts (--stitch-stats, the cap tests) are in these units */
struct pending_sample {
	struct perf_evattr	*evattr;	/* borrowed: the session's attrs outlive us */
	u64			cookie;
	union {
		struct {
			u32	chunk;		/* arena chunk holding the copy */
			u32	offset;		/* of the copy inside the chunk */
		};
		const void	*ref;		/* the caller's record, when not copied */
	};
	u64			file_offset;	/* for the parse's error message */
	void			*priv;		/* the caller's, handed to deliver() or put() */
	u32			tid;
	u32			fifo_prev, fifo_next;
	u32			thread_next;
	bool			swapped;
	bool			copied;		/* chunk/offset, not ref */
};

_Static_assert(sizeof(struct pending_sample) == 64, "pending_sample grew: the stats change");

struct arena_chunk {
	u8	*base;		/* NULL: the slot is free */
	u32	size;
	u32	used;
	u32	live;		/* copies not yet delivered */
};

struct deferred_thread {
	struct hashmap_node node;	/* in threads; or the free list's link (node.next) */
	u32	tid;
	bool	has_record;
	bool	record_used;	/* the latest record stitched at least one sample */
	/* exited with samples pending: their record may still come (see thread_exit) */
	bool	exited;
	u32	pending_head, pending_tail;
	u64	cookie;		/* of the latest record */
	u64	nr_ips;
	const u64 *ips;		/* the latest record's user ips: in ips_buf, or in a stable record */
	u64	*ips_buf;	/* owned */
	size_t	ips_alloc;
};

struct deferred_stitcher {
	deferred_deliver_t	deliver;
	deferred_parse_t	parse;
	deferred_put_t		put;
	void			*arg;
	size_t			max_mem;
	size_t			bytes_held;
	u32			chunk_size;

	struct arena_chunk	*chunks;
	u32			nr_chunks;
	u32			cur_chunk;	/* where copies are appended, or NIL */
	u32			spare_chunk;	/* an empty chunk kept for reuse, or NIL */

	struct pending_sample	*slab;
	u32			slab_alloc;
	u32			slab_used;	/* slots ever handed out */
	u32			free_head;
	u32			fifo_head, fifo_tail;
	u64			nr_pending;

	struct hashmap		threads;	/* struct deferred_thread by tid, owned */
	struct hashmap_node	*free_threads;	/* removed threads kept for reuse, owned */
	u32			threads_gen;	/* bumped when a thread leaves the map */

	u64			*scratch;	/* host-order arrays when re-parsing a copy */
	u64			*merged;	/* the stitched callchain handed to deliver() */
	size_t			merged_alloc;

	struct deferred_stats	stats;
};

/* ---- threads ---------------------------------------------------------------------------- */

static size_t tid_hash(u32 tid)
{
	return (size_t)hash__u64(tid);
}

static struct deferred_thread *threads__find(struct deferred_stitcher *ds, u32 tid)
{
	size_t h = tid_hash(tid);
	struct hashmap_node *pos;

	hashmap__for_each_hash(&ds->threads, pos, h) {
		struct deferred_thread *t = container_of(pos, struct deferred_thread, node);

		if (t->tid == tid)
			return t;
	}
	return NULL;
}

/* the returned pointer is valid until the next threads__remove() (see threads_gen) */
static struct deferred_thread *threads__findnew(struct deferred_stitcher *ds, u32 tid)
{
	struct deferred_thread *t = threads__find(ds, tid);

	if (t)
		return t;
	if (ds->free_threads) {
		t = container_of(ds->free_threads, struct deferred_thread, node);
		ds->free_threads = t->node.next;
	} else {
		t = malloc(sizeof(*t));
		if (!t)
			return NULL;
	}
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pending_head = t->pending_tail = NIL;
	if (hashmap__add(&ds->threads, &t->node, tid_hash(tid))) {
		free(t);
		return NULL;
	}
	return t;
}

/* out of the map, onto the free list */
static void threads__remove(struct deferred_stitcher *ds, struct deferred_thread *t)
{
	free(t->ips_buf);
	t->ips_buf = NULL;
	hashmap__remove(&ds->threads, &t->node);
	t->node.next = ds->free_threads;
	ds->free_threads = &t->node;
	ds->threads_gen++;
}

/* the latest record is going away: count it if it never stitched anything */
static void thread__drop_record(struct deferred_stitcher *ds, struct deferred_thread *t)
{
	if (t->has_record && !t->record_used)
		ds->stats.records_unused++;
	t->has_record = false;
}

static void threads__maybe_remove(struct deferred_stitcher *ds, struct deferred_thread *t)
{
	if (!t->has_record && t->pending_head == NIL)
		threads__remove(ds, t);
}

/* ---- arena ------------------------------------------------------------------------------ */

static void arena__account(struct deferred_stitcher *ds)
{
	if (ds->bytes_held > ds->stats.bytes_peak)
		ds->stats.bytes_peak = ds->bytes_held;
}

static u32 arena__new_chunk(struct deferred_stitcher *ds, u32 size)
{
	struct arena_chunk *c;
	u32 idx;

	for (idx = 0; idx < ds->nr_chunks; idx++)
		if (!ds->chunks[idx].base)
			break;
	if (idx == ds->nr_chunks) {
		c = realloc(ds->chunks, (ds->nr_chunks + 1) * sizeof(*c));
		if (!c)
			return NIL;
		ds->chunks = c;
		ds->nr_chunks++;
	}
	c = &ds->chunks[idx];
	c->base = malloc(size);
	if (!c->base)
		return NIL;
	c->size = size;
	c->used = c->live = 0;
	ds->bytes_held += size;
	arena__account(ds);
	return idx;
}

static void arena__free_chunk(struct deferred_stitcher *ds, u32 idx)
{
	struct arena_chunk *c = &ds->chunks[idx];

	ds->bytes_held -= c->size;
	free(c->base);
	c->base = NULL;
}

/* room for len bytes (a multiple of 8); returns the chunk, *offset the place in it */
static u32 arena__alloc(struct deferred_stitcher *ds, u32 len, u32 *offset)
{
	struct arena_chunk *c;
	u32 idx = ds->cur_chunk;

	if (idx != NIL && ds->chunks[idx].size - ds->chunks[idx].used >= len)
		goto out;
	/* the current chunk is full: it goes once its copies are delivered */
	if (idx != NIL && !ds->chunks[idx].live)
		arena__free_chunk(ds, idx);
	if (len <= ds->chunk_size && ds->spare_chunk != NIL) {
		idx = ds->spare_chunk;
		ds->spare_chunk = NIL;
		ds->chunks[idx].used = 0;
	} else {
		idx = arena__new_chunk(ds, len > ds->chunk_size ? len : ds->chunk_size);
		if (idx == NIL) {
			ds->cur_chunk = NIL;
			return NIL;
		}
	}
	ds->cur_chunk = idx;
out:
	c = &ds->chunks[idx];
	*offset = c->used;
	c->used += len;
	c->live++;
	return idx;
}

static void arena__release(struct deferred_stitcher *ds, u32 idx)
{
	struct arena_chunk *c = &ds->chunks[idx];

	if (--c->live)
		return;
	if (idx == ds->cur_chunk) {
		c->used = 0;	/* empty again: appending restarts at its beginning */
		return;
	}
	if (ds->spare_chunk == NIL && c->size == ds->chunk_size) {
		ds->spare_chunk = idx;
		return;
	}
	arena__free_chunk(ds, idx);
}

/* ---- pending samples -------------------------------------------------------------------- */

static u32 pending__alloc(struct deferred_stitcher *ds)
{
	u32 idx;

	if (ds->free_head != NIL) {
		idx = ds->free_head;
		ds->free_head = ds->slab[idx].fifo_next;
		return idx;
	}
	if (ds->slab_used == ds->slab_alloc) {
		u32 nalloc = ds->slab_alloc ? ds->slab_alloc * 2 : 1024;
		struct pending_sample *n;

		if (nalloc <= ds->slab_alloc || nalloc >= NIL)
			return NIL;
		n = realloc(ds->slab, (size_t)nalloc * sizeof(*n));
		if (!n)
			return NIL;
		ds->slab = n;
		ds->slab_alloc = nalloc;
	}
	return ds->slab_used++;
}

static const struct perf_event_header *pending__event(struct deferred_stitcher *ds,
						    const struct pending_sample *p)
{
	if (!p->copied)
		return p->ref;
	return (const void *)(ds->chunks[p->chunk].base + p->offset);
}

/* unlink p from the fifo; the caller unlinks it from its thread list */
static void pending__unlink_fifo(struct deferred_stitcher *ds, u32 idx)
{
	struct pending_sample *p = &ds->slab[idx];

	if (p->fifo_prev != NIL)
		ds->slab[p->fifo_prev].fifo_next = p->fifo_next;
	else
		ds->fifo_head = p->fifo_next;
	if (p->fifo_next != NIL)
		ds->slab[p->fifo_next].fifo_prev = p->fifo_prev;
	else
		ds->fifo_tail = p->fifo_prev;
	ds->nr_pending--;
	ds->bytes_held -= sizeof(*p);
}

static void pending__free(struct deferred_stitcher *ds, u32 idx)
{
	struct pending_sample *p = &ds->slab[idx];

	if (p->copied)
		arena__release(ds, p->chunk);
	p->fifo_next = ds->free_head;
	ds->free_head = idx;
}

/* ---- delivery --------------------------------------------------------------------------- */

static int parse_plain(void *arg, const struct perf_event_header *event, u64 file_offset,
		       struct perf_evattr *evattr, bool swapped, u64 *scratch,
		       struct perf_sample *sample)
{
	(void)arg;
	(void)file_offset;
	return perf_evattr__parse_sample(evattr, event, swapped, scratch, sample, NULL);
}

/* a priv that will not reach deliver() goes back to its owner */
static void stitcher__put(struct deferred_stitcher *ds, void *priv)
{
	if (priv && ds->put)
		ds->put(ds->arg, priv);
}

/* merged = the sample's chain without its cookie (the marker stays), then the user ips */
static int stitcher__merge(struct deferred_stitcher *ds, struct perf_sample *s,
			   const u64 *ips, u64 nr_ips)
{
	u64 keep = s->callchain_nr - 1;
	size_t need = (size_t)(keep + nr_ips);

	if (need > ds->merged_alloc) {
		size_t nalloc = need < 1024 ? 1024 : need;
		u64 *n = realloc(ds->merged, nalloc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		ds->merged = n;
		ds->merged_alloc = nalloc;
	}
	memcpy(ds->merged, s->callchain, keep * sizeof(u64));
	if (nr_ips)
		memcpy(ds->merged + keep, ips, nr_ips * sizeof(u64));
	s->callchain = ds->merged;
	s->callchain_nr = need;
	/* the chain now ends in user ips, not in a cookie */
	s->deferred_callchain = false;
	return 0;
}

/*
 * The full parse of a sample, which only its peek had seen (errors in the fields after the
 * callchain surface here), merged with t's latest record when t is not NULL. The peek and
 * the parse agree on what is deferred, so a sample that parses without the marker was
 * changed under us.
 */
static int stitcher__prepare(struct deferred_stitcher *ds, const struct perf_event_header *event,
			     u64 file_offset, struct perf_evattr *evattr, bool swapped,
			     const struct deferred_thread *t, struct perf_sample *sample)
{
	int ret = ds->parse(ds->arg, event, file_offset, evattr, swapped, ds->scratch, sample);

	if (!ret && (!sample->deferred_callchain || sample->callchain_nr < 2))
		ret = -EINVAL;
	if (!ret && t)
		ret = stitcher__merge(ds, sample, t->ips, t->nr_ips);
	return ret;
}

/*
 * Deliver a queued copy, stitched with t's latest record when t is not NULL, else unmerged
 * for reason. Frees the entry: the caller has unlinked it from its thread list.
 */
static int stitcher__deliver_pending(struct deferred_stitcher *ds, u32 idx,
				     const struct deferred_thread *t,
				     enum deferred_release_reason reason)
{
	struct pending_sample *p = &ds->slab[idx];
	const struct perf_event_header *event = pending__event(ds, p);
	struct perf_evattr *evattr = p->evattr;
	struct perf_sample sample;
	int ret;

	pending__unlink_fifo(ds, idx);
	ret = stitcher__prepare(ds, event, p->file_offset, evattr, p->swapped, t, &sample);
	if (!ret) {
		struct deferred_sample from = {
			.event = event, .evattr = evattr, .file_offset = p->file_offset,
			.cookie = p->cookie, .tid = p->tid, .swapped = p->swapped,
			.stable = !p->copied, .priv = p->priv,
		};

		if (t)
			ds->stats.stitched++;
		else
			ds->stats.released[reason]++;
		ret = ds->deliver(ds->arg, &from, &sample);
	} else {
		stitcher__put(ds, p->priv);
	}
	/* the copy is ours again: freed whatever deliver() said */
	pending__free(ds, idx);
	return ret;
}

/* deliver every pending sample of t: stitched if it has t's latest cookie, else for reason */
static int thread__deliver_pending(struct deferred_stitcher *ds, struct deferred_thread *t,
				   enum deferred_release_reason reason)
{
	int err = 0;

	while (t->pending_head != NIL) {
		u32 idx = t->pending_head;
		bool match = t->has_record && ds->slab[idx].cookie == t->cookie;
		int ret;

		t->pending_head = ds->slab[idx].thread_next;
		if (match)
			t->record_used = true;
		ret = stitcher__deliver_pending(ds, idx, match ? t : NULL, reason);
		/* keep going so the lists stay consistent; report the first error */
		if (ret && !err)
			err = ret;
	}
	t->pending_tail = NIL;
	return err;
}

/* release the globally oldest pending sample, unmerged */
static int stitcher__release_oldest(struct deferred_stitcher *ds, enum deferred_release_reason reason)
{
	u32 idx = ds->fifo_head;
	struct deferred_thread *t = threads__find(ds, ds->slab[idx].tid);
	int ret;

	/* the oldest of all is the oldest of its thread: the head of its list */
	t->pending_head = ds->slab[idx].thread_next;
	if (t->pending_head == NIL)
		t->pending_tail = NIL;
	/* at the end of input, the pending samples of a thread gone lost theirs to its exit */
	if (reason == DEFERRED_RELEASE_EOF && t->exited)
		reason = DEFERRED_RELEASE_EXIT;
	ret = stitcher__deliver_pending(ds, idx, NULL, reason);
	threads__maybe_remove(ds, t);
	return ret;
}

/* bytes arena__alloc(len) would add to what is held */
static size_t arena__need(const struct deferred_stitcher *ds, u32 len)
{
	u32 cur = ds->cur_chunk;

	if (cur != NIL && ds->chunks[cur].size - ds->chunks[cur].used >= len)
		return 0;
	if (len <= ds->chunk_size && ds->spare_chunk != NIL)
		return 0;	/* the spare is counted already */
	return len > ds->chunk_size ? len : ds->chunk_size;
}

/*
 * Release the oldest pending samples until a copy of len bytes and its entry fit under the
 * cap. Returns 1 when they cannot fit even with nothing pending (a cap below one chunk).
 */
static int stitcher__make_room(struct deferred_stitcher *ds, u32 len)
{
	int err = 0;

	while (ds->bytes_held + arena__need(ds, len) + sizeof(struct pending_sample) > ds->max_mem) {
		u32 cur = ds->cur_chunk;
		int ret;

		/* an unused spare is the cheapest thing to give back */
		if (ds->spare_chunk != NIL && cur != NIL &&
		    ds->chunks[cur].size - ds->chunks[cur].used >= len) {
			arena__free_chunk(ds, ds->spare_chunk);
			ds->spare_chunk = NIL;
			continue;
		}
		if (ds->fifo_head == NIL)
			return err ? err : 1;
		ds->stats.mem_cap_hit = true;
		ret = stitcher__release_oldest(ds, DEFERRED_RELEASE_MEMORY);
		if (ret && !err)
			err = ret;
	}
	return err;
}

/* release the oldest pending samples until one more entry (no copy) fits under the cap */
static int stitcher__make_room_entry(struct deferred_stitcher *ds)
{
	int err = 0;

	while (ds->bytes_held + sizeof(struct pending_sample) > ds->max_mem) {
		int ret;

		if (ds->fifo_head == NIL)
			return err ? err : 1;
		ds->stats.mem_cap_hit = true;
		ret = stitcher__release_oldest(ds, DEFERRED_RELEASE_MEMORY);
		if (ret && !err)
			err = ret;
	}
	return err;
}

/* ---- API -------------------------------------------------------------------------------- */

static void thread__free(struct hashmap_node *node, void *arg)
{
	struct deferred_thread *t = container_of(node, struct deferred_thread, node);

	(void)arg;
	free(t->ips_buf);
	free(t);
}

struct deferred_stitcher *deferred_stitcher__new(size_t max_mem, deferred_deliver_t deliver,
						 void *arg)
{
	struct deferred_stitcher *ds = calloc(1, sizeof(*ds));
	size_t chunk;

	if (!ds)
		return NULL;
	ds->deliver = deliver;
	ds->parse = parse_plain;
	ds->arg = arg;
	ds->max_mem = max_mem ? max_mem : DEFERRED_DEFAULT_MAX_MEM;
	/* a sixteenth of the cap: a pinned chunk never costs more than that */
	chunk = ds->max_mem / 16;
	chunk = chunk < CHUNK_MIN ? CHUNK_MIN : chunk > CHUNK_MAX ? CHUNK_MAX : chunk;
	ds->chunk_size = (u32)(chunk & ~(size_t)7);
	ds->cur_chunk = ds->spare_chunk = NIL;
	ds->free_head = ds->fifo_head = ds->fifo_tail = NIL;
	ds->stats.max_mem = ds->max_mem;
	hashmap__init(&ds->threads, 64);
	ds->scratch = malloc(MAX_RECORD_WORDS * sizeof(u64));
	if (!ds->scratch) {
		free(ds);
		return NULL;
	}
	return ds;
}

void deferred_stitcher__delete(struct deferred_stitcher *ds)
{
	if (!ds)
		return;
	/* samples never delivered (the input stopped): their privs go back */
	for (u32 idx = ds->fifo_head; idx != NIL; idx = ds->slab[idx].fifo_next)
		stitcher__put(ds, ds->slab[idx].priv);
	hashmap__clear(&ds->threads, thread__free, NULL);
	hashmap__exit(&ds->threads);
	for (struct hashmap_node *n = ds->free_threads, *next; n; n = next) {
		next = n->next;
		thread__free(n, NULL);
	}
	for (u32 i = 0; i < ds->nr_chunks; i++)
		free(ds->chunks[i].base);
	free(ds->chunks);
	free(ds->slab);
	free(ds->scratch);
	free(ds->merged);
	free(ds);
}

int deferred_stitcher__queue(struct deferred_stitcher *ds, const struct deferred_sample *ds_s)
{
	const struct perf_event_header *event = ds_s->event;
	bool copy = !ds_s->stable;
	struct deferred_thread *t;
	struct pending_sample *p;
	struct perf_sample sample;
	u32 idx, chunk, offset, len, gen;
	int ret;

	t = threads__find(ds, ds_s->tid);
	if (t && t->has_record && t->cookie == ds_s->cookie) {
		/* its record went by already (a sample taken on the way out to user) */
		ret = stitcher__prepare(ds, event, ds_s->file_offset, ds_s->evattr, ds_s->swapped,
					t, &sample);
		if (ret)
			goto out_put;
		t->record_used = true;
		ds->stats.stitched_early++;
		return ds->deliver(ds->arg, ds_s, &sample);
	}

	len = copy ? ((u32)event->size + 7) & ~7u : 0;
	gen = ds->threads_gen;
	ret = copy ? stitcher__make_room(ds, len) : stitcher__make_room_entry(ds);
	if (ret < 0)
		goto out_put;
	if (ret > 0) {
		/* a cap smaller than one chunk: nothing can wait */
		ret = stitcher__prepare(ds, event, ds_s->file_offset, ds_s->evattr, ds_s->swapped,
					NULL, &sample);
		if (ret)
			goto out_put;
		ds->stats.mem_cap_hit = true;
		ds->stats.released[DEFERRED_RELEASE_MEMORY]++;
		return ds->deliver(ds->arg, ds_s, &sample);
	}
	/* releasing to make room may have removed t (its last pending sample went) */
	if (!t || ds->threads_gen != gen) {
		t = threads__findnew(ds, ds_s->tid);
		if (!t) {
			ret = -ENOMEM;
			goto out_put;
		}
	}
	idx = pending__alloc(ds);
	if (idx == NIL)
		goto out_nomem;
	chunk = NIL;
	offset = 0;
	if (copy) {
		chunk = arena__alloc(ds, len, &offset);
		if (chunk == NIL) {
			ds->slab[idx].fifo_next = ds->free_head;
			ds->free_head = idx;
			goto out_nomem;
		}
		/* the copy: the caller's buffer may be reused as soon as we return */
		memcpy(ds->chunks[chunk].base + offset, event, event->size);
	}

	p = &ds->slab[idx];
	/* ownership: a reference stays the caller's, and must outlive the stitcher */
	p->copied = copy;
	if (copy) {
		p->chunk = chunk;
		p->offset = offset;
	} else {
		p->ref = event;
	}
	p->priv = ds_s->priv;
	p->evattr = ds_s->evattr;
	p->cookie = ds_s->cookie;
	p->tid = ds_s->tid;
	p->swapped = ds_s->swapped;
	p->file_offset = ds_s->file_offset;
	p->thread_next = NIL;
	p->fifo_next = NIL;
	p->fifo_prev = ds->fifo_tail;
	if (ds->fifo_tail != NIL)
		ds->slab[ds->fifo_tail].fifo_next = idx;
	else
		ds->fifo_head = idx;
	ds->fifo_tail = idx;
	if (t->pending_tail != NIL)
		ds->slab[t->pending_tail].thread_next = idx;
	else
		t->pending_head = idx;
	t->pending_tail = idx;

	ds->nr_pending++;
	ds->bytes_held += sizeof(*p);
	arena__account(ds);
	if (ds->nr_pending > ds->stats.pending_peak)
		ds->stats.pending_peak = ds->nr_pending;
	return 0;

out_nomem:
	threads__maybe_remove(ds, t);
	ret = -ENOMEM;
out_put:
	stitcher__put(ds, ds_s->priv);
	return ret;
}

int deferred_stitcher__sample(struct deferred_stitcher *ds, const struct perf_event_header *event,
			      struct perf_sample *sample, struct perf_evattr *evattr, bool swapped)
{
	struct deferred_sample q = {
		.event = event, .evattr = evattr, .cookie = sample->deferred_cookie,
		.tid = sample->tid, .swapped = swapped,
	};

	/* the parser only says deferred for nr >= 2; anything else is not ours to merge */
	if (!sample->deferred_callchain || sample->callchain_nr < 2)
		return ds->deliver(ds->arg, &q, sample);
	return deferred_stitcher__queue(ds, &q);
}

int deferred_stitcher__record(struct deferred_stitcher *ds,
			      const struct perf_record_callchain_deferred *rec, u32 tid, bool stable)
{
	struct deferred_thread *t;
	int ret;

	ds->stats.records++;
	/* the session checked it against the trailer; this only guards our own reads */
	if (rec->header.size < sizeof(*rec) ||
	    rec->nr > (rec->header.size - sizeof(*rec)) / sizeof(u64))
		return -EINVAL;

	t = threads__findnew(ds, tid);
	if (!t)
		return -ENOMEM;
	if (t->has_record && t->cookie == rec->cookie) {
		/* defer_output on several events: the first copy already did the work */
		ds->stats.records_duplicate++;
		return 0;
	}
	if (stable) {
		/* the record outlives us: its ips are used in place */
		t->ips = rec->ips;
	} else {
		if (rec->nr > t->ips_alloc) {
			u64 *n = realloc(t->ips_buf, rec->nr * sizeof(u64));

			if (!n) {
				threads__maybe_remove(ds, t);
				return -ENOMEM;
			}
			t->ips_buf = n;
			t->ips_alloc = rec->nr;
		}
		if (rec->nr)
			memcpy(t->ips_buf, rec->ips, rec->nr * sizeof(u64));
		t->ips = t->ips_buf;
	}
	thread__drop_record(ds, t);
	t->nr_ips = rec->nr;
	t->cookie = rec->cookie;
	t->has_record = true;
	t->record_used = false;
	/*
	 * matching samples get the stack; older ones of other cookies lost their record (to
	 * the exit, when this is the record the kernel wrote after it)
	 */
	ret = thread__deliver_pending(ds, t, t->exited ? DEFERRED_RELEASE_EXIT :
					     DEFERRED_RELEASE_NEWER_COOKIE);
	t->exited = false;
	return ret;
}

int deferred_stitcher__thread_exit(struct deferred_stitcher *ds, u32 tid)
{
	struct deferred_thread *t = threads__find(ds, tid);

	if (!t)
		return 0;
	/* its latest record was already used on every sample that had its cookie */
	thread__drop_record(ds, t);
	/*
	 * The kernel writes the record of the thread's last kernel entry while it exits
	 * (unwind_deferred_task_exit()), and that may come after the EXIT record (seen on
	 * 7.2 with -a): pending samples wait for it, for the end of input or the memory cap.
	 */
	if (t->pending_head != NIL) {
		t->exited = true;
		return 0;
	}
	threads__remove(ds, t);
	return 0;
}

int deferred_stitcher__flush(struct deferred_stitcher *ds)
{
	struct hashmap_node *pos, *tmp;
	int err = 0;
	size_t b;

	while (ds->fifo_head != NIL) {
		int ret = stitcher__release_oldest(ds, DEFERRED_RELEASE_EOF);

		if (ret && !err)
			err = ret;
	}
	hashmap__for_each_safe(&ds->threads, pos, tmp, b) {
		struct deferred_thread *t = container_of(pos, struct deferred_thread, node);

		thread__drop_record(ds, t);
		threads__remove(ds, t);
	}
	return err;
}

void deferred_stitcher__set_parse(struct deferred_stitcher *ds, deferred_parse_t parse)
{
	ds->parse = parse ? parse : parse_plain;
}

void deferred_stitcher__set_put(struct deferred_stitcher *ds, deferred_put_t put)
{
	ds->put = put;
}

const struct deferred_stats *deferred_stitcher__stats(const struct deferred_stitcher *ds)
{
	return &ds->stats;
}

size_t deferred_stitcher__bytes_held(const struct deferred_stitcher *ds)
{
	return ds->bytes_held;
}

u64 deferred_stitcher__nr_pending(const struct deferred_stitcher *ds)
{
	return ds->nr_pending;
}

void deferred_stats__fprintf_warning(const struct deferred_stats *st, FILE *fp)
{
	if (!st->mem_cap_hit)
		return;
	fprintf(fp, "Warning: %llu samples were shown without their deferred user callchain: the samples waiting for their records reached the %zu MB memory cap; raise the cap to keep them\n",
		(unsigned long long)st->released[DEFERRED_RELEASE_MEMORY], st->max_mem >> 20);
}

void deferred_stats__fprintf(const struct deferred_stats *st, FILE *fp)
{
	u64 released = 0;

#define LINE(indent, label, val)						\
	fprintf(fp, "%*s%-*s %12llu\n", (indent), "", 46 - (indent), (label), (unsigned long long)(val))
	for (int i = 0; i < DEFERRED_RELEASE_NR; i++)
		released += st->released[i];
	fprintf(fp, "deferred callchain stitching:\n");
	LINE(2, "samples stitched", st->stitched + st->stitched_early);
	LINE(4, "from a later record", st->stitched);
	LINE(4, "from an earlier record", st->stitched_early);
	LINE(2, "samples without user callchain", released);
	LINE(4, "a newer record had another cookie", st->released[DEFERRED_RELEASE_NEWER_COOKIE]);
	LINE(4, "the thread exited first", st->released[DEFERRED_RELEASE_EXIT]);
	LINE(4, "the input ended first", st->released[DEFERRED_RELEASE_EOF]);
	LINE(4, "the memory cap was reached", st->released[DEFERRED_RELEASE_MEMORY]);
	LINE(2, "CALLCHAIN_DEFERRED records", st->records);
	LINE(4, "duplicates ignored", st->records_duplicate);
	LINE(4, "never used", st->records_unused);
	LINE(2, "most samples waiting at once", st->pending_peak);
	LINE(2, "most bytes held for them", st->bytes_peak);
	LINE(2, "memory cap in bytes", st->max_mem);
#undef LINE
}

int perf_record_callchain_deferred__check(const struct perf_event_header *h, u16 trailer_size,
					  struct perf_err *err)
{
	const struct perf_record_callchain_deferred *rec = (const void *)h;
	size_t room;

	/* the caller names the record and its offset: the message says what is wrong with it */
	if (h->size < sizeof(*rec) + trailer_size)
		return perf_err__set(err, EINVAL, "%u bytes are too few for cookie, nr and a %u-byte sample_id",
				     h->size, trailer_size);
	room = (h->size - sizeof(*rec) - trailer_size) / sizeof(u64);
	if (rec->nr > room)
		return perf_err__set(err, EINVAL, "claims %llu user ips, room for %zu",
				     (unsigned long long)rec->nr, room);
	return 0;
}
