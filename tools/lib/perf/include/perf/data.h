/* SPDX-License-Identifier: GPL-2.0 */
/*
 * data.h - reading a perf.data file or pipe stream.
 *
 * A struct perf_data owns everything it read: the attrs with their ids and names, the header
 * features, the tracing data, and the record buffers. Records it hands out stay valid until
 * the perf_data is closed when perf_data_record.stable is set (file mode: they point into the
 * mapping; pages far behind the read position are given back and read again from the file
 * if touched, so the bytes stay the same); otherwise only until the next perf_data__next()
 * call, and a consumer that keeps one must copy it.
 *
 * Invariants after perf_data__open() succeeds:
 *  - every record handed out has header.size >= 8 and lies entirely inside its buffer;
 *  - records other than samples are in host byte order; samples keep the file's byte order
 *    and are parsed with perf_evattr__parse_sample(), which knows about it;
 *  - attrs are in host order, their size is at most sizeof(struct perf_event_attr) (larger
 *    on-disk attrs are truncated to what we know after their extra bytes were skipped).
 */
#ifndef PERF_DATA_H
#define PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/event.h>
#include <perf/record.h>
#include <perf/env.h>
#include <perf/error.h>

struct perf_file_section {
	u64	offset;
	u64	size;
};

struct perf_file_header {
	u64				magic;
	u64				size;
	u64				attr_size;
	struct perf_file_section	attrs;
	struct perf_file_section	data;
	struct perf_file_section	event_types;	/* unused since 2013 */
	u64				adds_features[HEADER_FEAT_BITS / 64];
};

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL

/* one event of the recording: its attr, its sample ids and everything derived from them */
struct perf_evattr {
	struct perf_event_attr attr;
	u64		*ids;
	size_t		nr_ids;
	char		*name;		/* from HEADER_EVENT_DESC, or NULL until perf_data names it */
	int		idx;		/* position in the file */
	/* derived from attr.sample_type, see perf_evattr__init_positions() */
	int		id_pos;		/* u64 index of the id in a sample, or -1 */
	int		is_pos;		/* u64 index of the id from the end of a trailer, or -1 */
	u16		id_hdr_size;	/* bytes of the sample_id trailer on other records */
	/* byte offsets for the readers of single fields, -1 when absent */
	s16		tid_off;	/* the pid/tid word in a sample */
	s16		time_off;	/* the time in a sample */
	s16		callchain_off;	/* the callchain nr in a sample (-1 after PERF_SAMPLE_READ) */
	s16		id_tid_off;	/* the pid/tid word in the sample_id trailer, from its start */
	s16		id_time_off;	/* the time in the sample_id trailer */
};

struct perf_data_record {
	const struct perf_event_header *header;	/* host order */
	u64	file_offset;	/* of the record (or of its compressed container) */
	bool	stable;		/* the bytes outlive the next perf_data__next() */
	bool	decompressed;	/* came out of a PERF_RECORD_COMPRESSED(2) */
};

struct perf_data;

/*
 * path "-" reads standard input (pipe mode). A directory is perf's directory format (perf
 * record --kcore): its DIR/data is read; one of perf record --threads is refused. Returns
 * NULL with err set on failure.
 */
struct perf_data *perf_data__open(const char *path, struct perf_err *err);
/* the same, on an open descriptor; the perf_data takes ownership of fd */
struct perf_data *perf_data__open_fd(int fd, const char *name, struct perf_err *err);
void perf_data__close(struct perf_data *data);
/*
 * perf_data__open(), and for a pipe every record read: a command that wants the attrs and
 * features alone (evlist, buildid-list) has them wherever in the stream they came
 */
struct perf_data *perf_data__open_whole(const char *path, struct perf_err *err);
/*
 * Large files get a thread that maps the file in ahead of the reading (data-prefetch.c) when
 * hb (borrowed until the close) has a spare CPU; without a budget they get none. Set before
 * the first perf_data__next().
 */
struct helper_budget;
void perf_data__set_helpers(struct perf_data *data, struct helper_budget *hb);

/*
 * Returns 1 and fills rec with the next record, 0 at the end of the data, or a negative errno
 * with err naming the file offset and record type. Metadata records of pipe mode (HEADER_ATTR,
 * HEADER_FEATURE, HEADER_TRACING_DATA, HEADER_BUILD_ID, ...) are applied to the perf_data and
 * handed out too; COMPRESSED records are not: their contents are.
 */
int perf_data__next(struct perf_data *data, struct perf_data_record *rec, struct perf_err *err);

/* COMPRESSED or COMPRESSED2 records read so far (they are unpacked, never handed out) */
u64 perf_data__nr_compressed(const struct perf_data *data, u32 type);
bool perf_data__is_pipe(const struct perf_data *data);
bool perf_data__needs_swap(const struct perf_data *data);
/* the file read (DIR/data for a directory), "-" for standard input; owned by data */
const char *perf_data__name(const struct perf_data *data);
/* the directory perf_data__open() was given, NULL when it read a file or a pipe; owned by data */
const char *perf_data__dir(const struct perf_data *data);
const struct perf_file_header *perf_data__file_header(const struct perf_data *data);
const struct perf_env *perf_data__env(const struct perf_data *data);
size_t perf_data__nr_attrs(const struct perf_data *data);
/*
 * File mode: the section of feature feat as it is in the file (its byte order, borrowed
 * from the mapping, valid until the close); *bytes NULL when the file has no such section
 * or is a pipe. 0, or -EINVAL with err naming a section past the end of the file.
 */
int perf_data__feature_bytes(const struct perf_data *data, int feat, const void **bytes,
			     size_t *size, struct perf_err *err);
struct perf_evattr *perf_data__attr(struct perf_data *data, size_t idx);

/*
 * Which attr a record belongs to: by its sample id where the file has several attrs, else the
 * only one. NULL when the id is unknown.
 */
struct perf_evattr *perf_data__attr_of(struct perf_data *data, const struct perf_event_header *h);
/* the attr listing sample id id, NULL when none does */
struct perf_evattr *perf_data__attr_by_id(struct perf_data *data, u64 id);

/* evsel naming as perf does it for attrs without an EVENT_DESC name ("cpu-clock", ...) */
void perf_evattr__default_name(const struct perf_event_attr *attr, char *buf, size_t len);
/*
 * The attr's display name ("cpu-clock", "sched:sched_switch"): its event_desc or tracing-data
 * name, else perf's default, kept in ea->name from the first call. "unknown" for a NULL ea or
 * when memory runs out.
 */
const char *perf_evattr__name(struct perf_evattr *ea);

void perf_evattr__init_positions(struct perf_evattr *ea);

/*
 * Parse a PERF_RECORD_SAMPLE (header->type == 9) or the sample_id trailer of any other record.
 * scratch (may be NULL for host-order files) receives host-order copies of arrays in a
 * cross-endian file; it must hold header->size bytes. Returns 0 or -EINVAL with err naming
 * the field that does not fit the record.
 */
int perf_evattr__parse_sample(const struct perf_evattr *ea, const struct perf_event_header *h,
			      bool swapped, u64 *scratch, struct perf_sample *s,
			      struct perf_err *err);

/*
 * Just the timestamp of a sample or of a record's sample_id, for ordering: -ENOENT when the
 * record has none (or is too short to hold it; the full parse reports that).
 */
int perf_evattr__parse_time(const struct perf_evattr *ea, const struct perf_event_header *h,
			    bool swapped, u64 *time);

/*
 * Just the tid of a sample or of a record's sample_id: -ENOENT when the record has none (or
 * is too short to hold it).
 */
int perf_evattr__parse_tid(const struct perf_evattr *ea, const struct perf_event_header *h,
			   bool swapped, u32 *tid);
/* the same for the pid (the process) */
int perf_evattr__parse_pid(const struct perf_evattr *ea, const struct perf_event_header *h,
			   bool swapped, u32 *pid);

/*
 * A look at a sample for the deferred stitcher, without the full parse: true when its
 * callchain ends in PERF_CONTEXT_USER_DEFERRED + cookie by the same test as
 * perf_evattr__parse_sample() (attr bit, nr >= 2, marker second to last), with *tid ((u32)-1
 * without PERF_SAMPLE_TID) and *cookie set. False means "parse it": not deferred, a
 * PERF_SAMPLE_READ before the callchain (variable length), or a callchain that does not fit
 * the record. Nothing after the callchain is checked: the full parse at delivery does that.
 */
bool perf_evattr__peek_deferred(const struct perf_evattr *ea, const struct perf_event_header *h,
				bool swapped, u32 *tid, u64 *cookie);

/* the byte-order helpers the parser and the tests share */
void perf_record__swap(struct perf_event_header *h, u16 trailer_size);
void perf_event_attr__swap(struct perf_event_attr *attr, size_t size);

#endif /* PERF_DATA_H */
