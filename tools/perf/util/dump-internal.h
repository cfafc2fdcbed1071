/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump-internal.h - helpers shared by dump.c (records), dump-sample.c (sample bodies) and
 * dump-header.c (header features, attrs). Not an API: commands use dump.h.
 *
 * Every helper reads an untrusted record or feature section through struct dump_buf, which
 * never reads past its end: a field that does not fit reads as zero and sets buf->short_read,
 * so the callers can print what they have and say the rest is missing.
 */
#ifndef PERF_UTIL_DUMP_INTERNAL_H
#define PERF_UTIL_DUMP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <perf/data.h>

struct perf_session;

/* a bounded window on bytes in the file's byte order (swapped: cross-endian) */
struct dump_buf {
	const u8	*p, *end;
	bool		swapped;
	bool		short_read;	/* some read ran past end */
};

static inline void dump_buf__init(struct dump_buf *b, const void *p, size_t len, bool swapped)
{
	b->p = p;
	b->end = (const u8 *)p + len;
	b->swapped = swapped;
	b->short_read = false;
}

static inline size_t dump_buf__left(const struct dump_buf *b)
{
	return (size_t)(b->end - b->p);
}

u8 dump_buf__u8(struct dump_buf *b);
u16 dump_buf__u16(struct dump_buf *b);
u32 dump_buf__u32(struct dump_buf *b);
u64 dump_buf__u64(struct dump_buf *b);
/* advance by n bytes (clamped); false when fewer were left */
bool dump_buf__skip(struct dump_buf *b, size_t n);
/* a perf header string (u32 len, len bytes, NUL within them); NULL when it does not fit */
const char *dump_buf__string(struct dump_buf *b);

/*
 * ", name = value" for every attr field perf shows (perf_event_attr__fprintf order): used by
 * the ATTR record, the event lines of --header and HEADER_EVENT_DESC.
 */
void dump__attr_fields(FILE *fp, const struct perf_event_attr *attr);

/* the cpu list of a PERF_RECORD_CPU_MAP body (perf_record_cpu_map_data) as "0-3,5" */
void dump__cpu_map(FILE *fp, struct dump_buf *b);

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
 * Print feature feat from its section bytes as perf's --header does. full: the -I form of
 * the features perf only summarises otherwise. Returns 0, or -EINVAL when the section is
 * malformed (nothing useful printed: callers print to a scratch stream first).
 */
int dump__feature(FILE *fp, struct perf_session *session, int feat, const u8 *buf, size_t size,
		  bool full);

#endif
