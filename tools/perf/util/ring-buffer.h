/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring-buffer.h - one mmap'd perf_event ring buffer, read as the kernel's ABI says.
 *
 * The kernel writes records into a power-of-two data area after one page of control
 * (struct perf_event_mmap_page). It publishes data_head after the records are written; we
 * read data_head with acquire ordering, read the records, then publish data_tail with
 * release ordering so the kernel may reuse that space. A record that wraps past the end of
 * the data area is copied into one contiguous buffer before the caller sees it.
 *
 * Owns the mapping and the wrap buffer; the perf_event descriptor stays the caller's.
 * Records handed to the callback are valid only during the call.
 */
#ifndef PERF_UTIL_RING_BUFFER_H
#define PERF_UTIL_RING_BUFFER_H

#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

struct ring_buffer {
	void	*base;		/* the control page, then the data area; NULL: not mapped */
	size_t	data_size;	/* a power of two */
	u64	bytes_read;	/* over the whole recording, for the summary */
	u8	*copy;		/* one record that wrapped (at most 64 KB) */
};

/* per record: 0 goes on, a negative errno stops the read (and is returned by read()) */
typedef int (*ring_record_fn)(void *ctx, const struct perf_event_header *ev);

/* maps data_pages (a power of two) + 1 pages of fd; returns 0 or a negative errno */
int ring_buffer__mmap(struct ring_buffer *rb, int fd, size_t data_pages, struct perf_err *err);
/*
 * The same, read-only: for the events of perf record --overwrite (attr.write_backward), whose
 * ring the kernel then fills backwards and overwrites when full; such a ring is read with
 * record-overwrite.h, never with ring_buffer__read() (it has no data_tail to store).
 */
int ring_buffer__mmap_overwrite(struct ring_buffer *rb, int fd, size_t data_pages,
				struct perf_err *err);
void ring_buffer__munmap(struct ring_buffer *rb);

/* bytes the kernel wrote that were not read yet (perf record --mmap-flush) */
u64 ring_buffer__pending(const struct ring_buffer *rb);

/*
 * Hands every complete record between data_tail and data_head to fn, then moves data_tail.
 * Returns the number of bytes consumed or a negative errno (fn's, or -EINVAL for a record
 * header the kernel cannot have written: the buffer is then reset to data_head).
 * When fn fails, data_tail moves past the records fn accepted only.
 */
long ring_buffer__read(struct ring_buffer *rb, ring_record_fn fn, void *ctx, struct perf_err *err);

#endif
