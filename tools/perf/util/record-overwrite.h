/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-overwrite.h - reading the rings of perf record --overwrite, a flight recorder:
 * every event has attr.write_backward and its ring is mapped read-only, so the kernel writes
 * each record in front of the one before (data_head counts down from 0) and, when the ring
 * is full, over the oldest ones. Nothing is read while recording; at a dump (the end, or
 * SIGUSR2 with --switch-output) each ring is paused (PERF_EVENT_IOC_PAUSE_OUTPUT), the
 * records written since the previous dump are handed out, and the ring resumes.
 *
 *   data area, head moving left:      [ free | newest ... oldest | older, overwritten ]
 *                                           ^head               ^head at the last dump
 *
 * The records come in memory order, newest first, as perf writes them: readers sort them by
 * time up to the FINISHED_ROUND the caller writes after a dump. When more was written than
 * the ring holds, the newest records that fit whole are kept and the rest (overwritten) is
 * lost, as with perf.
 *
 * Owns the per-ring position of the last dump; the rings are the caller's.
 */
#ifndef PERF_UTIL_RECORD_OVERWRITE_H
#define PERF_UTIL_RECORD_OVERWRITE_H

#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "evlist-open.h"
#include "ring-buffer.h"

struct record_overwrite {
	u64	*prev;		/* [ring]: data_head at the last dump */
	size_t	nr;
};

int record_overwrite__init(struct record_overwrite *ow, size_t nr_rings, struct perf_err *err);
void record_overwrite__exit(struct record_overwrite *ow);

/*
 * One dump of every ring of el: fn gets each record (valid during the call only). Returns
 * the bytes handed out, or a negative errno (fn's, or -EINVAL for a record header the kernel
 * cannot have written).
 */
long record_overwrite__read(struct record_overwrite *ow, struct evlist_open *el,
			    ring_record_fn fn, void *ctx, struct perf_err *err);

#endif
