/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-lost.h - the samples the kernel dropped, as perf record (6.1 and later) writes them at
 * the end of a recording: every event is opened with PERF_FORMAT_LOST, and once the rings are
 * drained each descriptor's counter is read; one whose lost count is not zero becomes a
 * PERF_RECORD_LOST_SAMPLES record (misc 0, lost = the count) whose sample_id trailer, laid
 * out by that event's sample_type, holds the descriptor's id and zeros elsewhere, as perf's.
 *
 * A group read with :S (PERF_FORMAT_GROUP) holds every member's count: the leader's
 * descriptor reports for the group.
 *
 * The kernel's own PERF_RECORD_LOST (records it could not write into a full ring) stays as it
 * is; these are the per-event totals readers add to "lost samples".
 */
#ifndef PERF_UTIL_RECORD_LOST_H
#define PERF_UTIL_RECORD_LOST_H

#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "evlist-open.h"

/* one record, host order, valid during the call only; 0 or a negative errno that stops */
typedef int (*record_lost_emit_fn)(void *ctx, const struct perf_event_header *ev);

/*
 * The lost count of a counter read with read_format (value, then the optional fields in the
 * kernel's order); buf holds size bytes as read(2) returned them. 0, or -EINVAL when
 * read_format has no PERF_FORMAT_LOST, is a group read, or buf is too short.
 */
int read_format__lost(u64 read_format, const u64 *buf, size_t size, u64 *lost);

/*
 * The idx-th member's id and lost count of a group read (PERF_FORMAT_GROUP with ID and LOST):
 * 0, or -EINVAL when read_format lacks one of them, idx is not below the read's count, or
 * buf is too short.
 */
int read_format__group_lost(u64 read_format, const u64 *buf, size_t size, size_t idx, u64 *id,
			    u64 *lost);

/*
 * A LOST_SAMPLES record of lost samples into buf (len bytes, 8-aligned) for attr's descriptor
 * id: its size, or -E2BIG.
 */
int record_lost__synthesize(void *buf, size_t len, const struct perf_event_attr *attr, u64 id,
			    u64 lost);

/*
 * Reads every descriptor of el (attrs as opened, nr of them) and emits a record for each one
 * that lost samples; *total gets their sum. 0, the emit's error, or a read error with err set.
 */
int record_lost__write_all(const struct evlist_open *el, const struct perf_event_attr *attrs,
			   record_lost_emit_fn emit, void *ctx, u64 *total, struct perf_err *err);

#endif
