/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synthesize.h - records from their parsed form: the inverse of perf_evattr__parse_sample()
 * for samples and sample_id trailers, the builders of the side-band records perf record and
 * perf inject write, and the in-place byte swap of a sample body in either direction.
 *
 * Byte orders. A struct perf_sample holds numbers in host order (callchain, branches, regs,
 * read values, branch counters); raw_data, user_stack and aux_data are byte strings copied
 * as they are (a tracepoint payload keeps the order it was recorded in). cross_endian writes
 * the other order, as perf on such a host lays a record out: u64 words swapped, u32 pairs
 * (pid/tid, cpu/res) each in place, the RAW size as a u32.
 *
 * Exactness: for every record r that the parser accepts, parse(synthesize(parse(r))) ==
 * parse(r), in either byte order. What the parser does not keep is written as the kernel
 * writes it: the cpu word's reserved half and RAW padding as zeros, the id in both ID and
 * IDENTIFIER, dyn_size as given.
 *
 * Builders write into the caller's buffer (buf, len bytes, 8-byte aligned) and return the
 * record size (header included), or a negative errno: -E2BIG when it does not fit len or a
 * record's 64 KiB, -EINVAL for arguments no record can hold. Nothing here allocates or keeps
 * a pointer.
 */
#ifndef PERF_SYNTHESIZE_H
#define PERF_SYNTHESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>
#include <perf/event.h>

/*
 * A PERF_RECORD_SAMPLE of s for attr (sample_type, read_format, branch_sample_type and the
 * regs masks), header.misc = s->misc. err (may be NULL) names the field that does not fit.
 */
int perf_sample__synthesize(const struct perf_event_attr *attr, const struct perf_sample *s,
			    bool cross_endian, void *buf, size_t len, struct perf_err *err);

/*
 * The sample_id trailer of a non-sample record (TID TIME ID STREAM_ID CPU IDENTIFIER), from
 * s's pid/tid, time, id, stream_id and cpu: nothing without attr's sample_id_all. Returns
 * its size (ea->id_hdr_size of the same attr) or -E2BIG.
 */
int perf_sample__synthesize_id(const struct perf_event_attr *attr, const struct perf_sample *s,
			       bool cross_endian, void *buf, size_t len);

/*
 * Swap the body of a sample record in place between the file's order and the host's:
 * to_host for a record read from a cross-endian file, else from host order out. It is the
 * parse in one order and the synthesis in the other, so what the parser does not keep comes
 * out as the kernel writes it (see Exactness); bytes past the last field are left alone. h's
 * header is in host order and is not swapped. RAW payloads and user stack bytes stay as they
 * are. Returns 0 or -EINVAL, with err (may be NULL) naming the field that runs past the record.
 */
int perf_sample__swap(const struct perf_event_attr *attr, struct perf_event_header *h,
		      bool to_host, struct perf_err *err);

/*
 * Side-band records in host order, each ending in the sample_id that attr gives them (the
 * ids from id: pid/tid, time, id, stream_id, cpu).
 */
int perf_record_comm__synthesize(void *buf, size_t len, const struct perf_event_attr *attr,
				 const struct perf_sample *id, const char *comm, bool exec);
/*
 * The fixed fields (pid/tid up to flags, the maj/min/ino or build-id union as header.misc
 * says) and header.misc come from m; type and size are the builder's.
 */
int perf_record_mmap2__synthesize(void *buf, size_t len, const struct perf_event_attr *attr,
				  const struct perf_sample *id, const struct perf_record_mmap2 *m,
				  const char *filename);
/* type PERF_RECORD_FORK or PERF_RECORD_EXIT of id's pid/tid at id's time */
int perf_record_task__synthesize(void *buf, size_t len, const struct perf_event_attr *attr,
				 const struct perf_sample *id, u32 type, u32 ppid, u32 ptid);
int perf_record_callchain_deferred__synthesize(void *buf, size_t len,
					       const struct perf_event_attr *attr,
					       const struct perf_sample *id, u64 cookie,
					       const u64 *ips, u64 nr);
int perf_record_finished_round__synthesize(void *buf, size_t len);

#endif /* PERF_SYNTHESIZE_H */
