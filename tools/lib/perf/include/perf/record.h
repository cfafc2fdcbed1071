/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - what every reader and writer needs to know of a record type, in one table:
 * perf's name for it, the size of its fixed part, whether it carries a sample_id trailer,
 * and the layout of its fixed fields for byte-swapping. The bodies themselves are the
 * structs of event.h; the table's sizes are taken from them.
 *
 * Invariants:
 *  - perf_record_type__info() never returns NULL: a type nobody knows gets an entry named
 *    "UNKNOWN" whose fixed part is the header alone, with no layout, and a sample_id exactly
 *    when it is a kernel type (< PERF_RECORD_USER_TYPE_START) other than SAMPLE, which is the
 *    kernel's rule for every type it will add;
 *  - fixed_size counts the header; a record shorter than perf_record_type__min_size() plus its
 *    sample_id is malformed.
 * The table is const and process-wide; nothing here allocates.
 */
#ifndef PERF_RECORD_H
#define PERF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/event.h>

struct perf_err;

enum perf_record_flag {
	/* with attr.sample_id_all, the record ends in the sample_id trailer */
	PERF_RECORD_F_SAMPLE_ID	= 1 << 0,
	/* the fixed part is followed by a NUL-terminated string: at least one more byte */
	PERF_RECORD_F_STRING	= 1 << 1,
	/*
	 * the layout covers the leading words only; the rest depends on a field (EVENT_UPDATE's
	 * type, a feature's id) and is swapped by whoever parses it: a writer cannot swap it
	 */
	PERF_RECORD_F_PARTIAL	= 1 << 2,
};

/*
 * The fixed fields of a body (after the header) for byte-swapping, one letter per field:
 *   q  u64                          p  two u32 (pid/tid, cpu/res: each swapped in place)
 *   l  one u32                      w  two u16
 *   *  every u64 word up to the end of the body (last)
 *   m  MMAP2's 24-byte union: maj/min, ino, ino_generation ("pqq"), or build-id bytes
 *   t  THREAD_MAP: u64 nr, then nr entries of { u64 pid; char comm[16]; }
 *   a  HEADER_ATTR: an attr of its own size, then u64 ids to the end
 * Strings, build ids and payload bytes are never swapped.
 */
struct perf_record_info {
	const char	*name;		/* perf's spelling after "PERF_RECORD_", e.g. "MMAP2" */
	u16		fixed_size;	/* header + fixed fields, before any variable part */
	u16		flags;		/* enum perf_record_flag */
	const char	*layout;	/* NULL: the byte-swapping of its body is not known */
};

const struct perf_record_info *perf_record_type__info(u32 type);

/* "SAMPLE", "MMAP2", ..., "UNKNOWN" */
const char *perf_record_type__name(u32 type);
/* the fixed part, plus the one byte of a trailing string */
size_t perf_record_type__min_size(u32 type);
bool perf_record_type__has_sample_id(u32 type);

/*
 * Whether an MMAP2 record's body is a build id: the misc bit over a body the kernel writes
 * for one (a size of at most 20, zero reserved bytes). Linux (6.18 seen) sets the bit in the
 * record it shares between the events of one mmap and leaves it there for the events that
 * asked for no build id: theirs get it over a device and inode body. False for those; m must
 * hold the fixed part.
 */
bool perf_record_mmap2__has_build_id(const struct perf_record_mmap2 *m);
/* the bit over a body that is not a build id: the device and inode form with a leaked bit */
bool perf_record_mmap2__stray_build_id_bit(const struct perf_record_mmap2 *m);

/*
 * The counts and kinds inside perf's own records that say how their body is laid out
 * (ID_INDEX and THREAD_MAP entries, a CPU_MAP's type and its cpus): 0 when they fit the
 * record's size, else -EINVAL with why in err (what is wrong, not where: the caller names
 * the record). h as the reader gives it (swapped by its layout); swapped: the file is in the
 * other byte order (a CPU_MAP's body, whose layout the reader does not swap, still is).
 * Other types are 0.
 */
int perf_record__check_counts(const struct perf_event_header *h, bool swapped,
			      struct perf_err *err);

/*
 * Swap the fixed fields of h's body in place, the trailer_size bytes at its end excluded,
 * from the file's order to the host's (to_host) or the other way. h->type and h->misc must
 * already be in host order; counts are read in whichever order is the host's at that point.
 *
 * strict (the writer's mode): -EINVAL when the body is shorter than its fixed part, -EOPNOTSUPP
 * when its layout is not known (or PERF_RECORD_F_PARTIAL). Otherwise (the reader's mode) a
 * body too short for its fixed fields is left as it is, and so is one whose layout is not
 * known: the checks on the record's size report it later.
 */
int perf_record__swap_fields(struct perf_event_header *h, u16 trailer_size, bool to_host,
			     bool strict);

#endif /* PERF_RECORD_H */
