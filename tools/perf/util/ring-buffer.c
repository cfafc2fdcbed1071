// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a perf_event ring buffer: acquire data_head, copy wrapped records, release
 * data_tail. See ring-buffer.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ring-buffer.h"

#define RECORD_MAX	65536

static int ring_buffer__map(struct ring_buffer *rb, int fd, size_t data_pages, int prot,
			    struct perf_err *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *base;

	memset(rb, 0, sizeof(*rb));
	if (!data_pages || (data_pages & (data_pages - 1)))
		return perf_err__set(err, EINVAL, "%zu ring buffer pages: must be a power of two",
				     data_pages);
	base = mmap(NULL, (data_pages + 1) * page, prot, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return perf_err__set(err, errno, "cannot mmap a %zu KB ring buffer: %m",
				     data_pages * page / 1024);
	rb->copy = malloc(RECORD_MAX);
	if (!rb->copy) {
		munmap(base, (data_pages + 1) * page);
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	rb->base = base;
	rb->data_size = data_pages * page;
	return 0;
}

int ring_buffer__mmap(struct ring_buffer *rb, int fd, size_t data_pages, struct perf_err *err)
{
	return ring_buffer__map(rb, fd, data_pages, PROT_READ | PROT_WRITE, err);
}

/* the kernel overwrites old records only in a ring it cannot see a data_tail of */
int ring_buffer__mmap_overwrite(struct ring_buffer *rb, int fd, size_t data_pages,
				struct perf_err *err)
{
	return ring_buffer__map(rb, fd, data_pages, PROT_READ, err);
}

void ring_buffer__munmap(struct ring_buffer *rb)
{
	if (rb->base)
		munmap(rb->base, rb->data_size + (size_t)sysconf(_SC_PAGESIZE));
	free(rb->copy);
	rb->base = NULL;
	rb->copy = NULL;
}

u64 ring_buffer__pending(const struct ring_buffer *rb)
{
	const struct perf_event_mmap_page_data *pc = rb->base;

	return __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE) - pc->data_tail;
}

long ring_buffer__read(struct ring_buffer *rb, ring_record_fn fn, void *ctx, struct perf_err *err)
{
	struct perf_event_mmap_page_data *pc = rb->base;
	const u8 *data = (const u8 *)rb->base + pc->data_offset;
	u64 mask = rb->data_size - 1;
	u64 head, tail, start;
	int ret = 0;

	if (pc->data_size)
		mask = pc->data_size - 1;
	/* pairs with the kernel's store of data_head after the records it covers */
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;
	start = tail;
	while (tail < head) {
		const struct perf_event_header *h;
		size_t off = tail & mask, size;
		struct perf_event_header hb;

		if (head - tail < sizeof(hb))
			break;
		if (off + sizeof(hb) <= mask + 1) {
			memcpy(&hb, data + off, sizeof(hb));
		} else {
			size_t k = mask + 1 - off;

			memcpy(&hb, data + off, k);
			memcpy((u8 *)&hb + k, data, sizeof(hb) - k);
		}
		size = hb.size;
		if (size < sizeof(hb) || size > head - tail) {
			ret = perf_err__set(err, EINVAL,
					    "ring buffer record at %#llx: size %zu of %llu bytes left (type %u)",
					    (unsigned long long)tail, size,
					    (unsigned long long)(head - tail), hb.type);
			tail = head;
			break;
		}
		if (off + size <= mask + 1) {
			h = (const void *)(data + off);
		} else {
			size_t k = mask + 1 - off;

			memcpy(rb->copy, data + off, k);
			memcpy(rb->copy + k, data, size - k);
			h = (const void *)rb->copy;
		}
		ret = fn(ctx, h);
		if (ret)
			break;
		tail += size;
	}
	/* the kernel may overwrite what lies before data_tail once it sees the store */
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	rb->bytes_read += tail - start;
	return ret ? ret : (long)(tail - start);
}
