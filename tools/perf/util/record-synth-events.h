/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-synth-events.h - the records perf record writes about its own events and targets
 * before the first sample, in perf 6.1's order and layouts:
 *  - PERF_RECORD_ID_INDEX: for every id of every event, the slot it counts: idx (the cpu's
 *    position in the cpu map, 0 for "any cpu"), cpu (-1: any), tid (-1: all). v1 entries
 *    (id, idx, cpu, tid), split over several records when they do not fit one (u16 size);
 *  - PERF_RECORD_EVENT_UPDATE: the unit ("msec") and scale (1e-6) of the software clocks
 *    cpu-clock and task-clock, keyed by the event's first id (perf gives no other event we
 *    open a unit or scale), and in a pipe every named event's name after them (a pipe has no
 *    EVENT_DESC section: readers name the events from these);
 *  - PERF_RECORD_THREAD_MAP: the threads the events were opened on (-1: every thread, for -a
 *    and -C), comm left empty as perf leaves it;
 *  - PERF_RECORD_CPU_MAP: the cpus they were opened on ({-1} for --per-thread), encoded as a
 *    range when the cpus are consecutive, else as a list or a 32-bit mask, whichever is
 *    smaller (a list when -1 is among them).
 *
 *     CPU_MAP body after the header (u16 type first):
 *       type 0 (list):  u16 nr | u16 cpu[nr] (-1 as 0xffff)          padded to 8
 *       type 1 (mask):  u16 nr (of u32 words) | u16 long_size = 4 | u32 mask[nr]
 *       type 2 (range): u8 any_cpu | u8 pad | u16 start | u16 end
 *
 * Records are built in host order and handed to emit (record-synth.h), which may fail: its
 * non-zero return is returned as it is. Otherwise 0 or a negative errno with err set. Nothing
 * given is kept past a call.
 */
#ifndef PERF_UTIL_RECORD_SYNTH_EVENTS_H
#define PERF_UTIL_RECORD_SYNTH_EVENTS_H

#include <stddef.h>
#include <sys/types.h>
#include <perf/data.h>
#include "evlist-open.h"
#include "record-synth.h"
#include "workload.h"

struct record_synth_events {
	const struct perf_evattr	*attrs;		/* every event, ids in slot order */
	size_t				nr_attrs;
	const struct evlist_slot	*slots;		/* what the k-th id of each event counts */
	size_t				nr_slots;	/* each attr's nr_ids must be this */
	/*
	 * Or, when events are on different slots (-C's tracking event on every cpu,
	 * evlist-open.h): [slot * nr_attrs + attr], each event's id on each slot, 0 where it
	 * was not opened; an id's idx is then its place among its event's ids. NULL: as above.
	 */
	const u64			*slot_ids;
	const int			*cpus;		/* the cpu map, ascending; NULL: {-1} */
	size_t				nr_cpus;
	const pid_t			*threads;	/* the thread map; NULL: {-1} */
	size_t				nr_threads;
	bool				pipe;		/* also the NAME updates */
	/*
	 * [nr_attrs], or NULL: the clocks perf gives no unit and scale, which are the hardware
	 * events that fell back to cpu-clock (perf's event keeps what it had when created)
	 */
	const bool			*no_unit;
	record_emit_fn			emit;
	void				*ctx;		/* emit's */
};

/*
 * One record kind each; perf writes ID_INDEX, its kernel MMAP, then the EVENT_UPDATEs,
 * THREAD_MAP and CPU_MAP, so the caller interleaves them with record-synth.h's.
 */
int record_synth__id_index(const struct record_synth_events *e, struct perf_err *err);
int record_synth__event_updates(const struct record_synth_events *e, struct perf_err *err);
int record_synth__thread_map(const struct record_synth_events *e, struct perf_err *err);
int record_synth__cpu_map(const struct record_synth_events *e, struct perf_err *err);

/*
 * The workload's COMM before its exec: pid = tid = pid, comm WORKLOAD_COMM (workload.h), the
 * name perf's forked child carries until the exec, with s's sample_id trailer (s->id NULL:
 * zeros). The kernel tells the exec's COMM and mappings itself.
 */
int record_synth__workload_comm(const struct record_synth *s, pid_t pid, struct perf_err *err);

/*
 * The CPU_MAP record of cpus (ascending, -1 first if present; NULL: {-1}) into buf: its size,
 * or -E2BIG when it does not fit size bytes or a record, -EINVAL for a cpu out of range.
 */
int cpu_map__synthesize(const int *cpus, size_t nr, void *buf, size_t size);

#endif /* PERF_UTIL_RECORD_SYNTH_EVENTS_H */
