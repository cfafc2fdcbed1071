/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - record bodies as they sit in a perf.data file (after byte-swapping to host order),
 * and struct perf_sample, the parsed form of a PERF_RECORD_SAMPLE or a sample_id trailer.
 *
 * Every struct here is a view into a record buffer: the record owns the bytes, a struct
 * perf_sample only points into it (or into the session's scratch buffer for the arrays of a
 * cross-endian record). Nothing here allocates. Record bodies follow the kernel's
 * include/uapi/linux/perf_event.h and perf's lib/perf/include/perf/event.h; the sizes the
 * readers check are in the record table (record.h).
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

/* PERF_RECORD_READ: the counter's values, as PERF_SAMPLE_READ lays them out for attr.read_format */
struct perf_record_read {
	struct perf_event_header header;
	u32	pid, tid;
	u64	value;		/* then [time_enabled] [time_running] [id] [lost] */
	u64	values[];
};

struct perf_record_aux {
	struct perf_event_header header;
	u64	aux_offset, aux_size;
	u64	flags;		/* PERF_AUX_FLAG_TRUNCATED (1), _OVERWRITE (2), ... */
};

struct perf_record_itrace_start {
	struct perf_event_header header;
	u32	pid, tid;
};

/* PERF_RECORD_SWITCH has no body: misc says in or out */
struct perf_record_switch {
	struct perf_event_header header;
};

struct perf_record_switch_cpu_wide {
	struct perf_event_header header;
	u32	next_prev_pid, next_prev_tid;	/* next when switching out, else prev */
};

struct perf_ns_link_info {
	u64	dev, ino;
};

/* nr_namespaces entries: net uts ipc pid user mnt cgroup, in that order */
struct perf_record_namespaces {
	struct perf_event_header header;
	u32	pid, tid;
	u64	nr_namespaces;
	struct perf_ns_link_info link_info[];
};

struct perf_record_bpf_event {
	struct perf_event_header header;
	u16	type;		/* PERF_BPF_EVENT_PROG_LOAD (1), _UNLOAD (2) */
	u16	flags;
	u32	id;
	u8	tag[8];
};

struct perf_record_cgroup {
	struct perf_event_header header;
	u64	id;
	char	path[];
};

/*
 *   0  header
 *   8  addr                 u64
 *  16  old_len  new_len     u16 u16
 *  20  old bytes, then new bytes, padded to u64 (sizeof is 24: use offsetof(bytes))
 */
struct perf_record_text_poke {
	struct perf_event_header header;
	u64	addr;
	u16	old_len, new_len;
	u8	bytes[];
};

struct perf_record_aux_output_hw_id {
	struct perf_event_header header;
	u64	hw_id;
};

/* PERF_RECORD_FINISHED_ROUND and PERF_RECORD_FINISHED_INIT: the header alone */
struct perf_record_finished {
	struct perf_event_header header;
};

/* the blob of tracing data follows the record (outside header.size), padded to u64 */
struct perf_record_header_tracing_data {
	struct perf_event_header header;
	u32	size;
	u32	pad;
};

/* perf before 2013: an event id and its name */
struct perf_record_header_event_type {
	struct perf_event_header header;
	u64	event_id;
	char	name[64];
};

/* v1 entries end at tid; v2 (header.size says) add machine_pid and vcpu */
struct perf_id_index_entry {
	u64	id, idx, cpu, tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	u64	nr;
	struct perf_id_index_entry entries[];
};

struct perf_record_auxtrace_info {
	struct perf_event_header header;
	u32	type;
	u32	reserved;
	u64	priv[];
};

/* the trace data (size bytes) follows the record, outside header.size */
struct perf_record_auxtrace {
	struct perf_event_header header;
	u64	size, offset, reference;
	u32	idx, tid, cpu, reserved;
};

/* fmt 2 adds time, machine_pid and vcpu after msg */
struct perf_record_auxtrace_error {
	struct perf_event_header header;
	u32	type, code, cpu, pid, tid, fmt;
	u64	ip;
	char	msg[64];
};

struct perf_thread_map_entry {
	u64	pid;
	char	comm[16];
};

struct perf_record_thread_map {
	struct perf_event_header header;
	u64	nr;
	struct perf_thread_map_entry entries[];
};

/* type 0: u16 nr, u16 cpus[nr]; 1: a mask; 2: a range. The layout is the type's */
struct perf_record_cpu_map {
	struct perf_event_header header;
	u16	type;
	char	data[];
};

struct perf_stat_config_entry {
	u64	tag, val;
};

struct perf_record_stat_config {
	struct perf_event_header header;
	u64	nr;
	struct perf_stat_config_entry data[];
};

struct perf_record_stat {
	struct perf_event_header header;
	u64	id;
	u32	cpu, thread;
	u64	val, ena, run;
};

struct perf_record_stat_round {
	struct perf_event_header header;
	u64	type, time;
};

/* the body after id depends on type (unit, scale, name, cpus) */
struct perf_record_event_update {
	struct perf_event_header header;
	u64	type, id;
	char	data[];
};

/* header.size tells the version: the cycles/mask/caps words came later */
struct perf_record_time_conv {
	struct perf_event_header header;
	u64	time_shift, time_mult, time_zero;
	u64	more[];		/* time_cycles, time_mask, cap_user_time_zero/short bytes */
};

/* one zstd frame's bytes, to header.size */
struct perf_record_compressed {
	struct perf_event_header header;
	char	data[];
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
	/* nr entries of { value, [id], [lost] } u64 words by read_format, host order */
	const u8 *group;
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
	/*
	 * NULL (the parser's, the stitcher's), or one origin code per callchain word, set
	 * by the user-stack unwinder for the chain it made: where each frame came from. The
	 * codes are the unwinder's (tools/perf/util's enum frame_origin): this library only
	 * carries them, as the pointer says, and neither reads nor names them.
	 */
	const u8 *callchain_origin;
	const void *raw_data;		/* file byte order; libtraceevent swaps as needed */
	u64	branch_nr;
	u64	branch_hw_idx;
	bool	branch_has_hw_idx;
	const struct perf_branch_entry *branches;
	const u64 *branch_counters;	/* branch_nr, with PERF_SAMPLE_BRANCH_COUNTERS */
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
