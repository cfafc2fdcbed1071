/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-sb.h - perf record --switch-output-event: events opened beside the recorded ones on
 * the same target, never written to the output, whose records each ask for a switch of the
 * output file (as perf's side-band thread sends SIGUSR2 for each). Every record of theirs
 * wakes the poll (watermark of one byte) and is consumed by record_sb__read().
 *
 * Owns its parsed events, attrs, descriptors and rings. No global state.
 */
#ifndef PERF_UTIL_RECORD_SB_H
#define PERF_UTIL_RECORD_SB_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "evlist-open.h"
#include "parse-events.h"

struct record_sb {
	struct parsed_events	evs;		/* the --switch-output-event specs */
	struct perf_event_attr	*attrs;
	struct evlist_open	el;
	bool			opened;
};

void record_sb__init(struct record_sb *sb);
void record_sb__exit(struct record_sb *sb);

/*
 * Opens the events on target (disabled; a workload's enabled at its exec), with small rings.
 * On failure err names the event and the kernel's reason; 0 or -errno.
 */
int record_sb__open(struct record_sb *sb, const struct evlist_target *target,
		    struct perf_err *err);
/* PERF_EVENT_IOC_ENABLE on them all (targets other than a workload) */
int record_sb__enable(struct record_sb *sb, struct perf_err *err);
/* their descriptors, for poll: at most max into fds (NULL: none); returns how many there are */
size_t record_sb__fds(const struct record_sb *sb, int *fds, size_t max);
/* consumes what their rings hold: *records gets how many records came; 0 or -errno */
int record_sb__read(struct record_sb *sb, u64 *records, struct perf_err *err);

#endif
