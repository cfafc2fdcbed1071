/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump.h - `perf script -D` (--dump-raw-trace): every record in upstream perf 7.2's layout
 * (offset, size, raw bytes, then the decoded fields), and `--header`: the header features
 * printed as perf does.
 *
 * -D output goes to session->opts.dump_fp (stdout when NULL) and is in the order perf prints
 * it, which takes three hooks, all no-ops unless the session has opts.dump_trace:
 *  - dump__record(): every record as the reader hands it out, before ordering. It prints
 *    perf's own records (type >= 64: ATTR, FEATURE, FINISHED_ROUND, ...) and kernel types
 *    we do not know; it skips known kernel records (1..PERF_RECORD_MAX-1), which perf prints
 *    at delivery;
 *  - dump__event(): each known kernel record when the session delivers it (after time
 *    ordering, before the stitcher and the tool): raw bytes, then the decoded record;
 *  - dump__resolved(): from the tool, when it resolves a sample's ip: the " ... thread:" and
 *    " ...... dso:" lines perf prints there.
 * Nothing here fails or stops the input: a record too short or unparsable for its type is
 * printed raw with a line saying so.
 *
 * Every pointer argument is borrowed for the call only.
 */
#ifndef PERF_UTIL_DUMP_H
#define PERF_UTIL_DUMP_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/data.h>

struct perf_session;
struct thread;
struct addr_location;

/* read time: rec as perf_data__next() returned it */
void dump__record(struct perf_session *session, const struct perf_data_record *rec);

/*
 * Delivery time, for records of types 1..PERF_RECORD_MAX-1. sample: the record's parsed
 * sample or sample_id trailer; NULL when it could not be parsed, session->err saying why.
 * evattr: the attr it belongs to, NULL when none matches.
 */
void dump__event(struct perf_session *session, const struct perf_event_header *event,
		 u64 file_offset, const struct perf_sample *sample, struct perf_evattr *evattr);

/* the tool resolved a sample's ip: thread may be NULL, al->map NULL when no map covers it */
void dump__resolved(struct perf_session *session, const struct thread *thread,
		    const struct addr_location *al);

/*
 * The `# ========` header block of --header / --header-only, to fp: "captured on" is the
 * input's mtime, then every feature of a file-mode header in perf's form, "missing
 * features", "# ========". full: the -I (--show-info) form of the features perf otherwise
 * only mentions ("# CPU_TOPOLOGY info available, use -I to display"). A pipe carries no
 * header: its features come as records, printed by dump__feature_event().
 */
void dump__header(struct perf_session *session, FILE *fp, bool full);

/*
 * "PERF_RECORD_MMAP2 pid/tid: [...]: r-xp file\n": a side-band record decoded on one line,
 * as perf script --show-mmap-events / --show-task-events print it.
 */
void dump__event_line(FILE *fp, struct perf_session *session, const struct perf_event_header *event,
		      const struct perf_sample *sample, struct perf_evattr *evattr);

/*
 * Pipe mode with --header/-I: a HEADER_FEATURE record (type 80) as perf prints it while
 * processing it, to fp. Prints nothing for other records or unknown/malformed features.
 */
void dump__feature_event(struct perf_session *session, const struct perf_event_header *event,
			 FILE *fp, bool full);

#endif
