/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rewrite.h - C tests that make their input from a real recording with a few records
 * changed: the copy (header, attrs, features and every record, each through the test's
 * function) and a record written again with another string. One copy of the open, copy and
 * finish steps and of their cleanup.
 */
#ifndef PERF_TESTS_REWRITE_H
#define PERF_TESTS_REWRITE_H

#include <stddef.h>
#include <perf/data.h>
#include <perf/writer.h>

/*
 * What stands in OUT for the record r of IN: r itself (perf_writer__write), others beside
 * it, or nothing. Called once more at the end with r NULL, for what it held back. 0, or a
 * negative errno with err set.
 */
typedef int (*test_rewrite_fn)(struct perf_writer *w, struct perf_data *in,
			       const struct perf_data_record *r, void *ctx, struct perf_err *err);

/* the perf.data IN copied to OUT through each(); 0, or a negative errno with err set */
int test_rewrite(const char *in, const char *out, test_rewrite_fn each, void *ctx,
		 struct perf_err *err);

/*
 * rec, a record of FIXED bytes, a NUL-padded string (to 8 bytes) and its sample_id trailer
 * (COMM, CGROUP, ...), written with STR for its string and the trailer kept. 0, or a
 * negative errno with err set (a record that is not so, or over 256 bytes)
 */
int test_write_restrung(struct perf_writer *w, const struct perf_event_header *rec,
			size_t fixed, const char *str, struct perf_err *err);

#endif
