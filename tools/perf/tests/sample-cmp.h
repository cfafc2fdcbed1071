/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample-cmp.h - field-by-field comparison of two parsed samples, for the synthesizer's round
 * trip test and fuzz target. Only the fields attr's sample_type (and read_format,
 * branch_sample_type, regs masks) give a sample are compared; arrays by their contents.
 */
#ifndef PERF_TESTS_SAMPLE_CMP_H
#define PERF_TESTS_SAMPLE_CMP_H

#include <stdbool.h>
#include <perf/event.h>

/* true when a and b agree; else *what (may be NULL) names the first field that differs */
bool sample__same(const struct perf_event_attr *attr, const struct perf_sample *a,
		  const struct perf_sample *b, const char **what);

#endif
