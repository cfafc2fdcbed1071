/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject-maps.h - the maps a stitched user chain needs at its sample's time.
 *
 * A deferred user chain is the stack at the task's return to user space, which can be
 * later than the sample: a sample in execve gets the new image's stack, whose MMAP records
 * come after the sample. perf script of the deferred file prints the sample when its
 * record comes, after those MMAPs, and names the frames; written inline at its own time
 * the sample would come before them, and every reader would print [unknown]. So perf
 * inject writes, right before such a sample, a copy of each MMAP/MMAP2 its user frames
 * need with the sample's time in its sample_id: the readers then have the map when they
 * reach the sample. The original record stays where it was (mapping the same range again
 * changes nothing).
 *
 * The set keeps a copy of the latest MMAP/MMAP2 of each (pid, start), with its time; the
 * copies are owned by the set. Errors: 0 or a negative errno.
 */
#ifndef PERF_UTIL_INJECT_MAPS_H
#define PERF_UTIL_INJECT_MAPS_H

#include <perf/abi.h>
#include <perf/data.h>

struct inject_maps;
struct thread;

struct inject_maps *inject_maps__new(void);
/* accepts NULL */
void inject_maps__delete(struct inject_maps *im);

/* an MMAP or MMAP2 record (host order), its parsed sample_id and attr (may be NULL) */
int inject_maps__remember(struct inject_maps *im, const struct perf_event_header *event,
			  const struct perf_sample *id, const struct perf_evattr *ea);

/* write() of one record, for inject_maps__before() */
typedef int (*inject_maps_write_t)(void *arg, const struct perf_event_header *event);

/*
 * For a sample whose user frames (chain[0..nr), addresses only) were stitched: each map of
 * thread that one of them hits and whose record came after sample->time is written with
 * write(), timed sample->time, once (a later sample of an earlier time gets it again).
 */
int inject_maps__before(struct inject_maps *im, struct thread *thread,
			const struct perf_sample *sample, const u64 *chain, u64 nr,
			inject_maps_write_t write, void *arg);

#endif
