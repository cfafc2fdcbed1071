/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump.h - `perf script -D` (--dump-raw-trace): every record in upstream perf 7.2's layout
 * (offset, size, raw bytes, then the decoded fields), and `--header`: the header features
 * printed as perf does.
 *
 * -D is an observer the command installs on its session (session.h, struct
 * session_observer): dump__record() and dump__event() are its two callbacks, with a struct
 * dump as their arg, and print in the order perf prints:
 *  - dump__record(): every record as the reader hands it out, before ordering. It prints
 *    perf's own records (type >= 64: ATTR, FEATURE, FINISHED_ROUND, ...) and kernel types
 *    we do not know; it skips known kernel records (1..PERF_RECORD_MAX-1), which perf prints
 *    at delivery;
 *  - dump__event(): each known kernel record when the session delivers it (after time
 *    ordering, before the sample stages and the tool): raw bytes, then the decoded record;
 *  - dump__resolved(): from the tool, when it resolves a sample's ip: the " ... thread:" and
 *    " ...... dso:" lines perf prints there.
 * Nothing here fails or stops the input: a record too short or unparsable for its type is
 * printed raw with a line saying so.
 *
 * A struct dump borrows everything it points to; every pointer argument is borrowed for the
 * call only.
 */
#ifndef PERF_UTIL_DUMP_H
#define PERF_UTIL_DUMP_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/data.h>

struct machine;
struct thread;
struct addr_location;

/* what -D prints from, and where to */
struct dump {
	FILE			*fp;		/* NULL: stdout */
	struct perf_data	*data;		/* the input: its name, attrs and byte order */
	struct machine		*machine;	/* kernel symbols (TEXT_POKE) */
	/*
	 * Record types the command has no handler for; perf's default handler adds
	 * ": unhandled!" after them (bit type % 64 of word type / 64). Zero: perf script's set.
	 */
	u64			unhandled[2];
	/* the one-line form of dump__event_line(), where a few records read differently */
	bool			event_line;
	/*
	 * perf script --show-round-events: its "PERF_RECORD_FINISHED_ROUND" line, not the
	 * dump, ends the round's dump line (perf's flush prints that newline, and is replaced)
	 */
	bool			rounds_shown;
};

void dump__init(struct dump *d, FILE *fp, struct perf_data *data, struct machine *machine);

/* read time (the observer's record()): rec as perf_data__next() returned it */
void dump__record(void *dump, const struct perf_data_record *rec);

/*
 * Delivery time (the observer's event()), for records of types 1..PERF_RECORD_MAX-1.
 * sample: the record's parsed sample or sample_id trailer; NULL when it could not be parsed,
 * why saying why. evattr: the attr it belongs to, NULL when none matches.
 */
void dump__event(void *dump, const struct perf_event_header *event, u64 file_offset,
		 const struct perf_sample *sample, struct perf_evattr *evattr, const char *why);

/* the tool resolved a sample's ip: thread may be NULL, al->map NULL when no map covers it */
void dump__resolved(const struct dump *d, const struct thread *thread,
		    const struct addr_location *al);

/*
 * The `# ========` header block of --header / --header-only, to fp: "captured on" is the
 * input's mtime, then every feature of a file-mode header in perf's form, "missing
 * features", "# ========". full: the -I (--show-info) form of the features perf otherwise
 * only mentions ("# CPU_TOPOLOGY info available, use -I to display"). A pipe carries no
 * header: its features come as records, printed by dump__feature_event().
 */
void dump__header(struct perf_data *data, FILE *fp, bool full);

/*
 * "PERF_RECORD_MMAP2 pid/tid: [...]: r-xp file\n": a side-band record decoded on one line,
 * as perf script --show-mmap-events / --show-task-events print it.
 */
void dump__event_line(FILE *fp, struct machine *machine, const struct perf_event_header *event,
		      const struct perf_sample *sample, struct perf_evattr *evattr);

/*
 * Pipe mode with --header/-I: a HEADER_FEATURE record (type 80) as perf prints it while
 * processing it, to fp. Prints nothing for other records or unknown/malformed features.
 */
void dump__feature_event(struct perf_data *data, const struct perf_event_header *event,
			 FILE *fp, bool full);

#endif
