/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump.h - `perf script -D` / `perf report -D`: every record printed as it is read, in
 * upstream perf's layout (offset, size, raw bytes, then the decoded fields), and
 * `--header`: the header features printed as perf does.
 */
#ifndef PERF_UTIL_DUMP_H
#define PERF_UTIL_DUMP_H

#include <stdio.h>
#include <perf/data.h>

struct perf_session;

/* prints rec to session->opts.dump_fp; never fails (an undecodable body is said so) */
void dump__record(struct perf_session *session, const struct perf_data_record *rec);

/* the `# ========` header block of --header / --header-only */
void dump__header(struct perf_session *session, FILE *fp, bool full);

#endif
