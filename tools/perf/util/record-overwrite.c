// SPDX-License-Identifier: GPL-2.0
/* The backward rings of perf record --overwrite. See record-overwrite.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "record-overwrite.h"

/* _IOW('$', 9, __u32): stops (1) or restarts (0) the kernel's writes into the ring */
#define PERF_EVENT_IOC_PAUSE_OUTPUT	0x40042409

int record_overwrite__init(struct record_overwrite *ow, size_t nr_rings, struct perf_err *err)
{
	ow->nr = nr_rings;
	ow->prev = calloc(nr_rings ? nr_rings : 1, sizeof(*ow->prev));
	if (!ow->prev)
		return perf_err__set(err, ENOMEM, "out of memory");
	return 0;
}

void record_overwrite__exit(struct record_overwrite *ow)
{
	free(ow->prev);
	ow->prev = NULL;
	ow->nr = 0;
}

static void ring__header(const u8 *data, u64 mask, u64 pos, struct perf_event_header *h)
{
	/* records are 8-byte aligned in a power-of-two area: a header never wraps */
	memcpy(h, data + (pos & mask), sizeof(*h));
}

/*
 * Where the readable records end: at the last dump's head, or when the ring was lapped
 * since, after the newest records that fit in it whole (the next one was overwritten).
 */
static int ring__find_end(const u8 *data, u64 size, u64 start, u64 old, u64 *end)
{
	u64 pos = start;

	if (old - start <= size) {
		*end = old;
		return 0;
	}
	for (;;) {
		struct perf_event_header h;

		ring__header(data, size - 1, pos, &h);
		/* a ring never filled has zeros after the last record */
		if (!h.size)
			break;
		if (h.size < sizeof(h) || (h.size & 7))
			return -EINVAL;
		if (pos + h.size - start > size)
			break;
		pos += h.size;
	}
	*end = pos;
	return 0;
}

static long ring__dump(struct ring_buffer *rb, u64 *prev, ring_record_fn fn, void *ctx,
		       struct perf_err *err)
{
	const struct perf_event_mmap_page_data *pc = rb->base;
	const u8 *data = (const u8 *)rb->base + pc->data_offset;
	u64 size = pc->data_size ? pc->data_size : rb->data_size;
	u64 mask = size - 1, head, end, pos;
	int ret;

	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	if (head == *prev)
		return 0;
	if (ring__find_end(data, size, head, *prev, &end))
		return perf_err__set(err, EINVAL, "overwrite ring: a record header the kernel cannot have written at %#llx",
				     (unsigned long long)head);
	/* positions count down from 0 and wrap: only differences of them mean anything */
	for (pos = head; pos != end;) {
		struct perf_event_header h;
		const struct perf_event_header *ev;
		size_t off = pos & mask;

		ring__header(data, mask, pos, &h);
		if (h.size < sizeof(h) || h.size > end - pos)
			return perf_err__set(err, EINVAL,
					     "overwrite ring: record at %#llx: size %u of %llu bytes left",
					     (unsigned long long)pos, h.size,
					     (unsigned long long)(end - pos));
		if (off + h.size <= size) {
			ev = (const void *)(data + off);
		} else {
			size_t k = size - off;

			memcpy(rb->copy, data + off, k);
			memcpy(rb->copy + k, data, h.size - k);
			ev = (const void *)rb->copy;
		}
		ret = fn(ctx, ev);
		if (ret)
			return ret;
		pos += h.size;
	}
	rb->bytes_read += end - head;
	*prev = head;
	return (long)(end - head);
}

long record_overwrite__read(struct record_overwrite *ow, struct evlist_open *el,
			    ring_record_fn fn, void *ctx, struct perf_err *err)
{
	long total = 0, n = 0;

	for (size_t r = 0; r < el->nr_rings && r < ow->nr; r++) {
		int fd = el->ring_fds[r];

		if (fd < 0 || !el->rings[r].base)
			continue;
		/* a record half written while we read would be taken for a whole one */
		ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
		n = ring__dump(&el->rings[r], &ow->prev[r], fn, ctx, err);
		ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}
