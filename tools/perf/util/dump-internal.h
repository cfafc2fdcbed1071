/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump-internal.h - helpers shared by dump.c (records), dump-sample.c (sample bodies) and
 * dump-header.c (header features, attrs). Not an API: commands use dump.h.
 *
 * Every helper reads an untrusted record through a struct perf_cursor (perf/cursor.h), which
 * never reads past its end: a field that does not fit reads as zero and marks the cursor
 * failed, so the callers can print what they have and say the rest is missing.
 */
#ifndef PERF_UTIL_DUMP_INTERNAL_H
#define PERF_UTIL_DUMP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <perf/cursor.h>
#include <perf/data.h>
#include "header-fprintf.h"

/* the cpu list of a PERF_RECORD_CPU_MAP body (perf_record_cpu_map_data) as "0-3,5" */
void dump__cpu_map(FILE *fp, struct perf_cursor *b);

/*
 * What follows "PERF_RECORD_SAMPLE" in -D: "(IP, misc): pid/tid: ip period: .. addr: ..\n"
 * and the callchain, branch stack, registers, stack, weight, ... lines.
 */
void dump__sample(FILE *fp, const struct perf_event_header *event, const struct perf_sample *sample,
		  const struct perf_evattr *ea);
/* the same for a PERF_RECORD_CALLCHAIN_DEFERRED: "(IP, misc): pid/tid: cookie\n" + chain */
void dump__deferred(FILE *fp, const struct perf_event_header *event,
		    const struct perf_sample *sample, const struct perf_evattr *ea);

/*
 * Print feature feat from its section bytes as perf's --header does (parsed by the library,
 * printed by header-fprintf.c). full: the -I form of the features perf only summarises
 * otherwise. Returns 0 (nothing printed for the features perf shows nothing of), or -EINVAL
 * with nothing printed when feat is unknown or its section is malformed.
 */
int dump__feature(FILE *fp, struct perf_data *data, int feat, const u8 *buf, size_t size,
		  bool full);

#endif
