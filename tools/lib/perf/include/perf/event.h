/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - record bodies as they sit in a perf.data file (after byte-swapping to host order),
 * and struct perf_sample, the parsed form of a PERF_RECORD_SAMPLE or a sample_id trailer.
 *
 * Every struct here is a view into a record buffer: the record owns the bytes, a struct
 * perf_sample only points into it (or into the session's scratch buffer for cross-endian
 * callchains). Nothing here allocates.
 */
#ifndef PERF_EVENT_H
#define PERF_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>

struct perf_record_mmap {
	struct perf_event_header header;
	u32	pid, tid;
	u64	start, len, pgoff;
	char	filename[];
};

struct perf_record_mmap2 {
	struct perf_event_header header;
	u32	pid, tid;
	u64	start, len, pgoff;
	union {
		struct {
			u32	maj, min;
			u64	ino, ino_generation;
		};
		struct {	/* header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID */
			u8	build_id_size;
			u8	reserved_1;
			u16	reserved_2;
			u8	build_id[20];
		};
	};
	u32	prot, flags;
	char	filename[];
};

struct perf_record_comm {
	struct perf_event_header header;
	u32	pid, tid;
	char	comm[];
};

struct perf_record_fork {	/* also PERF_RECORD_EXIT */
	struct perf_event_header header;
	u32	pid, ppid, tid, ptid;
	u64	time;
};

struct perf_record_lost {
	struct perf_event_header header;
	u64	id, lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	u64	lost;
};

struct perf_record_throttle {
	struct perf_event_header header;
	u64	time, id, stream_id;
};

struct perf_record_ksymbol {
	struct perf_event_header header;
	u64	addr;
	u32	len;
	u16	ksym_type;
	u16	flags;
	char	name[];
};

struct perf_record_callchain_deferred {
	struct perf_event_header header;
	u64	cookie;
	u64	nr;
	u64	ips[];
};

struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;	/* attr.size bytes, then u64 ids[] to header.size */
};

struct perf_record_header_build_id {
	struct perf_event_header header;
	s32	pid;
	u8	build_id[20];
	u8	size;		/* valid with PERF_RECORD_MISC_BUILD_ID_SIZE */
	u8	reserved1;
	u16	reserved2;
	char	filename[];
};
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

struct perf_record_compressed2 {
	struct perf_event_header header;
	u64	data_size;
	char	data[];
};

struct perf_record_header_feature {
	struct perf_event_header header;
	u64	feat_id;
	char	data[];
};

/* a sample's read values for PERF_SAMPLE_READ */
struct perf_sample_read_value {
	u64	value, id, lost;
};

struct perf_sample_read {
	u64	time_enabled, time_running;
	u64	nr;			/* 1 unless PERF_FORMAT_GROUP */
	struct perf_sample_read_value one;
	const u8 *group;		/* raw group values (file order), nr entries */
};

struct perf_branch_entry {
	u64	from, to, flags;
};

struct perf_sample {
	u64	ip;
	u32	pid, tid;
	u64	time;
	u64	addr;
	u64	id;
	u64	stream_id;
	u64	period;
	u32	cpu;
	u32	raw_size;
	u64	weight;
	u64	data_src;
	u64	transaction;
	u64	phys_addr;
	u64	cgroup;
	u64	data_page_size;
	u64	code_page_size;
	u16	ins_lat;
	u16	p_stage_cyc;
	u16	cpumode;		/* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	u16	misc;
	bool	has_time;		/* the record carried a timestamp */
	struct perf_sample_read read;
	/* callchain ips in host order: points into the record or into scratch memory */
	u64	callchain_nr;
	const u64 *callchain;
	const void *raw_data;		/* file byte order; libtraceevent swaps as needed */
	u64	branch_nr;
	u64	branch_hw_idx;
	bool	branch_has_hw_idx;
	const struct perf_branch_entry *branches;
	u64	user_regs_abi;
	u64	user_regs_mask;
	const u64 *user_regs;		/* one per bit set in user_regs_mask */
	u64	user_stack_size;	/* bytes captured */
	u64	user_stack_dyn_size;	/* bytes the kernel says are valid */
	const u8 *user_stack;
	u64	intr_regs_abi;
	u64	intr_regs_mask;
	const u64 *intr_regs;
	u64	aux_size;
	const void *aux_data;
	/* set when the callchain ends in PERF_CONTEXT_USER_DEFERRED + cookie */
	bool	deferred_callchain;
	u64	deferred_cookie;
};

#endif /* PERF_EVENT_H */
