// SPDX-License-Identifier: GPL-2.0
/*
 * Record builders for the deferred-callchain fixtures: kernel records in host order, laid out
 * for an attr's sample_type exactly as perf_output_sample() and the sample_id trailer are.
 */
#include <errno.h>
#include <string.h>
#include "fixture-defer.h"

struct fx_buf {
	u64	*p;
	size_t	words, alloc;	/* in u64 */
	bool	overflow;
};

static void put64(struct fx_buf *b, u64 v)
{
	if (b->words >= b->alloc) {
		b->overflow = true;
		return;
	}
	b->p[b->words++] = v;
}

static void put32x2(struct fx_buf *b, u32 lo, u32 hi)
{
	u32 pair[2] = { lo, hi };
	u64 v;

	memcpy(&v, pair, 8);
	put64(b, v);
}

/* a NUL-terminated string padded to u64 words, as the kernel pads names */
static void put_string(struct fx_buf *b, const char *s)
{
	size_t len = strlen(s) + 1, words = (len + 7) / 8;

	if (b->words + words > b->alloc) {
		b->overflow = true;
		return;
	}
	memset(&b->p[b->words], 0, words * 8);
	memcpy(&b->p[b->words], s, len);
	b->words += words;
}

static void put_trailer(struct fx_buf *b, const struct perf_event_attr *attr, const struct fx_ids *ids)
{
	u64 type = attr->sample_type;

	if (!perf_attr__has(attr, PERF_ATTR_BIT_SAMPLE_ID_ALL))
		return;
	if (type & PERF_SAMPLE_TID)
		put32x2(b, ids->pid, ids->tid);
	if (type & PERF_SAMPLE_TIME)
		put64(b, ids->time);
	if (type & PERF_SAMPLE_ID)
		put64(b, ids->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		put64(b, ids->id);
	if (type & PERF_SAMPLE_CPU)
		put32x2(b, ids->cpu, 0);
	if (type & PERF_SAMPLE_IDENTIFIER)
		put64(b, ids->id);
}

static int finish(struct fx_buf *b, u32 type, u16 misc)
{
	struct perf_event_header *h = (void *)b->p;
	size_t bytes = b->words * 8;

	if (b->overflow || bytes > 65535)
		return -E2BIG;
	h->type = type;
	h->misc = misc;
	h->size = (u16)bytes;
	return (int)bytes;
}

static void init(struct fx_buf *b, u64 *buf, size_t len)
{
	b->p = buf;
	b->alloc = len / 8;
	b->words = 0;
	b->overflow = false;
	put64(b, 0);	/* the header, filled by finish() */
}

int fx__sample(u64 *buf, size_t len, const struct perf_event_attr *attr, const struct fx_ids *ids,
	       u16 misc, u64 ip, u64 period, const u64 *chain, u64 nr)
{
	u64 type = attr->sample_type;
	struct fx_buf b;

	if (type & ~(u64)FX_SAMPLE_TYPES)
		return -EOPNOTSUPP;
	init(&b, buf, len);
	if (type & PERF_SAMPLE_IDENTIFIER)
		put64(&b, ids->id);
	if (type & PERF_SAMPLE_IP)
		put64(&b, ip);
	if (type & PERF_SAMPLE_TID)
		put32x2(&b, ids->pid, ids->tid);
	if (type & PERF_SAMPLE_TIME)
		put64(&b, ids->time);
	if (type & PERF_SAMPLE_ID)
		put64(&b, ids->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		put64(&b, ids->id);
	if (type & PERF_SAMPLE_CPU)
		put32x2(&b, ids->cpu, 0);
	if (type & PERF_SAMPLE_PERIOD)
		put64(&b, period);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		put64(&b, nr);
		for (u64 i = 0; i < nr; i++)
			put64(&b, chain[i]);
	}
	return finish(&b, PERF_RECORD_SAMPLE, misc);
}

int fx__deferred(u64 *buf, size_t len, const struct perf_event_attr *attr,
		 const struct fx_ids *ids, u64 cookie, const u64 *ips, u64 nr)
{
	struct fx_buf b;

	init(&b, buf, len);
	put64(&b, cookie);
	put64(&b, nr);
	for (u64 i = 0; i < nr; i++)
		put64(&b, ips[i]);
	put_trailer(&b, attr, ids);
	/* the kernel marks it as user-space data */
	return finish(&b, PERF_RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER);
}

int fx__comm(u64 *buf, size_t len, const struct perf_event_attr *attr, const struct fx_ids *ids,
	     const char *comm, bool exec)
{
	struct fx_buf b;

	init(&b, buf, len);
	put32x2(&b, ids->pid, ids->tid);
	put_string(&b, comm);
	put_trailer(&b, attr, ids);
	return finish(&b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
}

int fx__mmap2(u64 *buf, size_t len, const struct perf_event_attr *attr, const struct fx_ids *ids,
	      u64 start, u64 size, u64 pgoff, const char *filename)
{
	struct fx_buf b;

	init(&b, buf, len);
	put32x2(&b, ids->pid, ids->tid);
	put64(&b, start);
	put64(&b, size);
	put64(&b, pgoff);
	put32x2(&b, 8, 1);		/* maj, min */
	put64(&b, 4242);		/* ino */
	put64(&b, 0);			/* ino_generation */
	put32x2(&b, 5, 2);		/* PROT_READ|PROT_EXEC, MAP_PRIVATE */
	put_string(&b, filename);
	put_trailer(&b, attr, ids);
	return finish(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
}

int fx__task(u64 *buf, size_t len, const struct perf_event_attr *attr, const struct fx_ids *ids,
	     u32 type, u32 ppid, u32 ptid)
{
	struct fx_buf b;

	if (type != PERF_RECORD_FORK && type != PERF_RECORD_EXIT)
		return -EINVAL;
	init(&b, buf, len);
	put32x2(&b, ids->pid, ppid);
	put32x2(&b, ids->tid, ptid);
	put64(&b, ids->time);
	put_trailer(&b, attr, ids);
	return finish(&b, type, 0);
}

int fx__finished_round(u64 *buf, size_t len)
{
	struct fx_buf b;

	init(&b, buf, len);
	return finish(&b, PERF_RECORD_FINISHED_ROUND, 0);
}
