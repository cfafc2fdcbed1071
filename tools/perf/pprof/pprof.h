/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pprof.h - perf data convert --to-pprof: samples, with their stitched and unwound
 * callchains as the frame resolver gives them, into Google's profile.proto (profile.proto
 * beside this file), written gzip-compressed, as pprof, Pyroscope and Parca read it.
 *
 * What goes where:
 *  - sample_type: ("samples", "count") and the period: ("cpu", "nanoseconds") when every
 *    event is a clock (cpu-clock, task-clock: their period is nanoseconds), else
 *    ("events", "count"). Samples identical in stack and labels are one Sample, values summed.
 *  - Sample.location_id[0] is the leaf. Labels: pid and tid (numbers), comm, and the event's
 *    name when the recording has several events.
 *  - A Location per (map, address): the address as recorded, its Mapping, and one Line per
 *    function at that address, line[0] the innermost (inlined) one, with the source line the
 *    DWARF gives.
 *  - A Mapping per map of a process (or the kernel's): its range, file offset, file name
 *    and build id (hex); has_functions/filenames/line_numbers/inline_frames as found.
 *    mapping[0] is the main binary: the executable of the process with the most samples.
 *  - A Function per (name, file): name and system_name the symbol's, "[unknown]" without
 *    one (as perf script prints it).
 *
 * Ownership: the profile owns its tables and strings, and a frame resolver for the session's
 * machine, which must outlive it. Errors: 0 or a negative errno, err saying what.
 */
#ifndef PERF_PPROF_H
#define PERF_PPROF_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/data.h>
#include <perf/error.h>

struct machine;
struct thread;
struct pprof;

/* inline: a Line per inlined function (as perf script shows them); NULL: out of memory */
struct pprof *pprof__new(struct machine *machine, bool inline_frames);
void pprof__delete(struct pprof *p);

/* one sample, resolved now (the machine's maps as they are at this sample) */
int pprof__add_sample(struct pprof *p, struct thread *thread, const struct perf_sample *sample,
		      struct perf_evattr *ea);

/* the profile, gzip-compressed, to fd (not closed); samples added so far */
int pprof__write(struct pprof *p, int fd, struct perf_err *err);
unsigned long long pprof__nr_samples(const struct pprof *p);

#endif
