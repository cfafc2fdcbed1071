/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-delay.h - perf record -D: when the events are enabled, counted in milliseconds from
 * the start of the recording (the workload's exec, or the open of -a/-p's events).
 *
 * Specs, as perf 6.1 reads them:
 *   -D MSECS	enabled from MSECS on (0: at once, no delay)
 *   -D -1	disabled until --control enables them
 *   -D A-B,C-D	enabled from A to B, from C to D, ...; after the last range the recording
 *		stops (perf's behaviour). Ranges must be in order and not overlap.
 *
 * Pure: parsing and a schedule to ask; the caller enables and disables the events.
 */
#ifndef PERF_UTIL_RECORD_DELAY_H
#define PERF_UTIL_RECORD_DELAY_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>

#define RECORD_DELAY_MAX_RANGES	32

struct record_delay {
	bool	set;			/* a -D that starts the events disabled */
	bool	forever;		/* -1: until --control enables them */
	u32	nr;			/* ranges; a plain -D N is the one range [N, infinity) */
	struct {
		u64	start, end;	/* ms; end UINT64_MAX: no end */
	} range[RECORD_DELAY_MAX_RANGES];
};

/* -EINVAL with a reason in err for anything else than the specs above */
int record_delay__parse(struct record_delay *d, const char *spec, struct perf_err *err);

/*
 * The schedule at elapsed_ms: *enabled says whether the events should be on, *done whether
 * the last range is over (stop), *next_ms how long until the answer changes (UINT64_MAX:
 * never).
 */
void record_delay__at(const struct record_delay *d, u64 elapsed_ms, bool *enabled, bool *done,
		      u64 *next_ms);

#endif
