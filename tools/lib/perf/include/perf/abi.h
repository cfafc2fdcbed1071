/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abi.h - the kernel's perf_event ABI as this project needs it.
 *
 * Our own copy of the facts (struct layouts, bit numbers, record types), so that the build
 * does not depend on the age of the system's <linux/perf_event.h>: Debian bookworm's lacks
 * defer_callchain/defer_output (attr bits 38/39) and PERF_RECORD_CALLCHAIN_DEFERRED (22).
 *
 * Attr flags are kept as one u64 with bit masks instead of C bitfields: the bit numbers are
 * the ABI, and masks make byte-swapping and printing explicit.
 */
#ifndef PERF_ABI_H
#define PERF_ABI_H

#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
typedef int64_t s64;
typedef int32_t s32;
typedef int16_t s16;

enum perf_type_id {
	PERF_TYPE_HARDWARE	= 0,
	PERF_TYPE_SOFTWARE	= 1,
	PERF_TYPE_TRACEPOINT	= 2,
	PERF_TYPE_HW_CACHE	= 3,
	PERF_TYPE_RAW		= 4,
	PERF_TYPE_BREAKPOINT	= 5,
	PERF_TYPE_MAX,
};

/* attr.config of the generic events perf script treats specially (a subset of the ABI's) */
enum perf_hw_id {
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
};

enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK		= 0,
	PERF_COUNT_SW_TASK_CLOCK	= 1,
	PERF_COUNT_SW_PAGE_FAULTS	= 2,
	PERF_COUNT_SW_PAGE_FAULTS_MIN	= 5,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ	= 6,
};

enum perf_sample_bits {
	PERF_SAMPLE_IP			= 1ULL << 0,
	PERF_SAMPLE_TID			= 1ULL << 1,
	PERF_SAMPLE_TIME		= 1ULL << 2,
	PERF_SAMPLE_ADDR		= 1ULL << 3,
	PERF_SAMPLE_READ		= 1ULL << 4,
	PERF_SAMPLE_CALLCHAIN		= 1ULL << 5,
	PERF_SAMPLE_ID			= 1ULL << 6,
	PERF_SAMPLE_CPU			= 1ULL << 7,
	PERF_SAMPLE_PERIOD		= 1ULL << 8,
	PERF_SAMPLE_STREAM_ID		= 1ULL << 9,
	PERF_SAMPLE_RAW			= 1ULL << 10,
	PERF_SAMPLE_BRANCH_STACK	= 1ULL << 11,
	PERF_SAMPLE_REGS_USER		= 1ULL << 12,
	PERF_SAMPLE_STACK_USER		= 1ULL << 13,
	PERF_SAMPLE_WEIGHT		= 1ULL << 14,
	PERF_SAMPLE_DATA_SRC		= 1ULL << 15,
	PERF_SAMPLE_IDENTIFIER		= 1ULL << 16,
	PERF_SAMPLE_TRANSACTION		= 1ULL << 17,
	PERF_SAMPLE_REGS_INTR		= 1ULL << 18,
	PERF_SAMPLE_PHYS_ADDR		= 1ULL << 19,
	PERF_SAMPLE_AUX			= 1ULL << 20,
	PERF_SAMPLE_CGROUP		= 1ULL << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE	= 1ULL << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE	= 1ULL << 23,
	PERF_SAMPLE_WEIGHT_STRUCT	= 1ULL << 24,
	PERF_SAMPLE_MAX			= 1ULL << 25,
};

#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

enum perf_read_format_bits {
	PERF_FORMAT_TOTAL_TIME_ENABLED	= 1ULL << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING	= 1ULL << 1,
	PERF_FORMAT_ID			= 1ULL << 2,
	PERF_FORMAT_GROUP		= 1ULL << 3,
	PERF_FORMAT_LOST		= 1ULL << 4,
	PERF_FORMAT_MAX			= 1ULL << 5,
};

/* bit numbers of perf_event_attr's flag word (byte offset 40) */
enum perf_attr_flag_bit {
	PERF_ATTR_BIT_DISABLED = 0,
	PERF_ATTR_BIT_INHERIT,
	PERF_ATTR_BIT_PINNED,
	PERF_ATTR_BIT_EXCLUSIVE,
	PERF_ATTR_BIT_EXCLUDE_USER,
	PERF_ATTR_BIT_EXCLUDE_KERNEL,
	PERF_ATTR_BIT_EXCLUDE_HV,
	PERF_ATTR_BIT_EXCLUDE_IDLE,
	PERF_ATTR_BIT_MMAP,
	PERF_ATTR_BIT_COMM,
	PERF_ATTR_BIT_FREQ,
	PERF_ATTR_BIT_INHERIT_STAT,
	PERF_ATTR_BIT_ENABLE_ON_EXEC,
	PERF_ATTR_BIT_TASK,
	PERF_ATTR_BIT_WATERMARK,
	PERF_ATTR_BIT_PRECISE_IP,	/* two bits: 15-16 */
	PERF_ATTR_BIT_MMAP_DATA = 17,
	PERF_ATTR_BIT_SAMPLE_ID_ALL,
	PERF_ATTR_BIT_EXCLUDE_HOST,
	PERF_ATTR_BIT_EXCLUDE_GUEST,
	PERF_ATTR_BIT_EXCLUDE_CALLCHAIN_KERNEL,
	PERF_ATTR_BIT_EXCLUDE_CALLCHAIN_USER,
	PERF_ATTR_BIT_MMAP2,
	PERF_ATTR_BIT_COMM_EXEC,
	PERF_ATTR_BIT_USE_CLOCKID,
	PERF_ATTR_BIT_CONTEXT_SWITCH,
	PERF_ATTR_BIT_WRITE_BACKWARD,
	PERF_ATTR_BIT_NAMESPACES,
	PERF_ATTR_BIT_KSYMBOL,
	PERF_ATTR_BIT_BPF_EVENT,
	PERF_ATTR_BIT_AUX_OUTPUT,
	PERF_ATTR_BIT_CGROUP,
	PERF_ATTR_BIT_TEXT_POKE,
	PERF_ATTR_BIT_BUILD_ID,
	PERF_ATTR_BIT_INHERIT_THREAD,
	PERF_ATTR_BIT_REMOVE_ON_EXEC,
	PERF_ATTR_BIT_SIGTRAP,
	PERF_ATTR_BIT_DEFER_CALLCHAIN,	/* 38, Linux >= 6.19 */
	PERF_ATTR_BIT_DEFER_OUTPUT,	/* 39, Linux >= 6.19 */
	PERF_ATTR_BIT_NR,
};

#define PERF_ATTR_FLAG(bit)	(1ULL << PERF_ATTR_BIT_##bit)

/*
 * Sizes the kernel has used for perf_event_attr (PERF_ATTR_SIZE_VER0..VER9). A file may carry
 * a larger one from a newer kernel: the bytes we do not know are ignored.
 */
#define PERF_ATTR_SIZE_VER0	64
#define PERF_ATTR_SIZE_VER9	144

struct perf_event_attr {
	u32	type;
	u32	size;
	u64	config;
	u64	sample_period;	/* or sample_freq when PERF_ATTR_FLAG(FREQ) */
	u64	sample_type;
	u64	read_format;
	u64	flags;		/* PERF_ATTR_FLAG(*) */
	u32	wakeup_events;	/* or wakeup_watermark */
	u32	bp_type;
	u64	config1;	/* or bp_addr, kprobe_func, uprobe_path */
	u64	config2;	/* or bp_len, kprobe_addr, probe_offset */
	u64	branch_sample_type;
	u64	sample_regs_user;
	u32	sample_stack_user;
	s32	clockid;
	u64	sample_regs_intr;
	u32	aux_watermark;
	u16	sample_max_stack;
	u16	reserved_2;
	u32	aux_sample_size;
	u32	aux_action;
	u64	sig_data;
	u64	config3;
	u64	config4;
};

_Static_assert(sizeof(struct perf_event_attr) == PERF_ATTR_SIZE_VER9, "attr layout");

static inline int perf_attr__has(const struct perf_event_attr *attr, int bit)
{
	return (attr->flags >> bit) & 1;
}

struct perf_event_header {
	u32	type;
	u16	misc;
	u16	size;
};

#define PERF_RECORD_MISC_CPUMODE_MASK		(7 << 0)
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	(0 << 0)
#define PERF_RECORD_MISC_KERNEL			(1 << 0)
#define PERF_RECORD_MISC_USER			(2 << 0)
#define PERF_RECORD_MISC_HYPERVISOR		(3 << 0)
#define PERF_RECORD_MISC_GUEST_KERNEL		(4 << 0)
#define PERF_RECORD_MISC_GUEST_USER		(5 << 0)
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)
#define PERF_RECORD_MISC_MMAP_DATA		(1 << 13)
#define PERF_RECORD_MISC_COMM_EXEC		(1 << 13)
#define PERF_RECORD_MISC_FORK_EXEC		(1 << 13)
#define PERF_RECORD_MISC_SWITCH_OUT		(1 << 13)
#define PERF_RECORD_MISC_EXACT_IP		(1 << 14)
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	(1 << 14)
#define PERF_RECORD_MISC_MMAP_BUILD_ID		(1 << 14)
#define PERF_RECORD_MISC_EXT_RESERVED		(1 << 15)

enum perf_event_type {
	PERF_RECORD_MMAP			= 1,
	PERF_RECORD_LOST			= 2,
	PERF_RECORD_COMM			= 3,
	PERF_RECORD_EXIT			= 4,
	PERF_RECORD_THROTTLE			= 5,
	PERF_RECORD_UNTHROTTLE			= 6,
	PERF_RECORD_FORK			= 7,
	PERF_RECORD_READ			= 8,
	PERF_RECORD_SAMPLE			= 9,
	PERF_RECORD_MMAP2			= 10,
	PERF_RECORD_AUX				= 11,
	PERF_RECORD_ITRACE_START		= 12,
	PERF_RECORD_LOST_SAMPLES		= 13,
	PERF_RECORD_SWITCH			= 14,
	PERF_RECORD_SWITCH_CPU_WIDE		= 15,
	PERF_RECORD_NAMESPACES			= 16,
	PERF_RECORD_KSYMBOL			= 17,
	PERF_RECORD_BPF_EVENT			= 18,
	PERF_RECORD_CGROUP			= 19,
	PERF_RECORD_TEXT_POKE			= 20,
	PERF_RECORD_AUX_OUTPUT_HW_ID		= 21,
	PERF_RECORD_CALLCHAIN_DEFERRED		= 22,	/* Linux >= 6.19 */
	PERF_RECORD_MAX,

	/* records perf itself writes into perf.data (tools/lib/perf/include/perf/event.h) */
	PERF_RECORD_USER_TYPE_START		= 64,
	PERF_RECORD_HEADER_ATTR			= 64,
	PERF_RECORD_HEADER_EVENT_TYPE		= 65,
	PERF_RECORD_HEADER_TRACING_DATA		= 66,
	PERF_RECORD_HEADER_BUILD_ID		= 67,
	PERF_RECORD_FINISHED_ROUND		= 68,
	PERF_RECORD_ID_INDEX			= 69,
	PERF_RECORD_AUXTRACE_INFO		= 70,
	PERF_RECORD_AUXTRACE			= 71,
	PERF_RECORD_AUXTRACE_ERROR		= 72,
	PERF_RECORD_THREAD_MAP			= 73,
	PERF_RECORD_CPU_MAP			= 74,
	PERF_RECORD_STAT_CONFIG			= 75,
	PERF_RECORD_STAT			= 76,
	PERF_RECORD_STAT_ROUND			= 77,
	PERF_RECORD_EVENT_UPDATE		= 78,
	PERF_RECORD_TIME_CONV			= 79,
	PERF_RECORD_HEADER_FEATURE		= 80,
	PERF_RECORD_COMPRESSED			= 81,
	PERF_RECORD_FINISHED_INIT		= 82,
	PERF_RECORD_COMPRESSED2			= 83,
	PERF_RECORD_HEADER_MAX,
};

/* callchain context markers: an ip >= PERF_CONTEXT_MAX switches the cpumode */
#define PERF_CONTEXT_HV			((u64)-32)
#define PERF_CONTEXT_KERNEL		((u64)-128)
#define PERF_CONTEXT_USER		((u64)-512)
#define PERF_CONTEXT_USER_DEFERRED	((u64)-640)	/* followed by one cookie */
#define PERF_CONTEXT_GUEST		((u64)-2048)
#define PERF_CONTEXT_GUEST_KERNEL	((u64)-2176)
#define PERF_CONTEXT_GUEST_USER		((u64)-2560)
#define PERF_CONTEXT_MAX		((u64)-4095)

/* the kernel's default kernel.perf_event_max_stack, and its deferred-unwind cap */
#define PERF_MAX_STACK_DEPTH		127
#define UNWIND_MAX_ENTRIES		510

/* x86-64 user register numbers (arch/x86/include/uapi/asm/perf_regs.h) */
enum perf_event_x86_regs {
	PERF_REG_X86_AX, PERF_REG_X86_BX, PERF_REG_X86_CX, PERF_REG_X86_DX,
	PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP,
	PERF_REG_X86_IP, PERF_REG_X86_FLAGS, PERF_REG_X86_CS, PERF_REG_X86_SS,
	PERF_REG_X86_DS, PERF_REG_X86_ES, PERF_REG_X86_FS, PERF_REG_X86_GS,
	PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
	PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
	PERF_REG_X86_64_MAX,
};

enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE	= 0,
	PERF_SAMPLE_REGS_ABI_32		= 1,
	PERF_SAMPLE_REGS_ABI_64		= 2,
};

/* the mask perf record -g --call-graph dwarf asks for on x86-64 (all but segment regs) */
#define PERF_REGS_X86_64_USER_MASK	0xff0fffULL

/*
 * PERF_SAMPLE_DATA_SRC: union perf_mem_data_src as one u64, each part at its _SHIFT and
 * _BITS wide (the union's bit fields). Flags of the parts that are masks; numbers (LVLNUM,
 * HOPS) of those that are values.
 */
#define PERF_MEM_OP_NA			0x01	/* not available */
#define PERF_MEM_OP_LOAD		0x02
#define PERF_MEM_OP_STORE		0x04
#define PERF_MEM_OP_PFETCH		0x08	/* prefetch */
#define PERF_MEM_OP_EXEC		0x10	/* code (execution) */
#define PERF_MEM_OP_SHIFT		0
#define PERF_MEM_OP_BITS		5

#define PERF_MEM_LVL_NA			0x01	/* not available */
#define PERF_MEM_LVL_HIT		0x02
#define PERF_MEM_LVL_MISS		0x04
#define PERF_MEM_LVL_L1			0x08
#define PERF_MEM_LVL_LFB		0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2			0x20
#define PERF_MEM_LVL_L3			0x40
#define PERF_MEM_LVL_LOC_RAM		0x80	/* local DRAM */
#define PERF_MEM_LVL_REM_RAM1		0x100	/* remote DRAM, 1 hop */
#define PERF_MEM_LVL_REM_RAM2		0x200	/* remote DRAM, 2 hops */
#define PERF_MEM_LVL_REM_CCE1		0x400	/* remote cache, 1 hop */
#define PERF_MEM_LVL_REM_CCE2		0x800	/* remote cache, 2 hops */
#define PERF_MEM_LVL_IO			0x1000	/* I/O memory */
#define PERF_MEM_LVL_UNC		0x2000	/* uncached memory */
#define PERF_MEM_LVL_SHIFT		5
#define PERF_MEM_LVL_BITS		14

#define PERF_MEM_SNOOP_NA		0x01	/* not available */
#define PERF_MEM_SNOOP_NONE		0x02
#define PERF_MEM_SNOOP_HIT		0x04
#define PERF_MEM_SNOOP_MISS		0x08
#define PERF_MEM_SNOOP_HITM		0x10	/* hit modified */
#define PERF_MEM_SNOOP_SHIFT		19
#define PERF_MEM_SNOOP_BITS		5

#define PERF_MEM_LOCK_NA		0x01	/* not available */
#define PERF_MEM_LOCK_LOCKED		0x02	/* locked transaction */
#define PERF_MEM_LOCK_SHIFT		24
#define PERF_MEM_LOCK_BITS		2

#define PERF_MEM_TLB_NA			0x01	/* not available */
#define PERF_MEM_TLB_HIT		0x02
#define PERF_MEM_TLB_MISS		0x04
#define PERF_MEM_TLB_L1			0x08
#define PERF_MEM_TLB_L2			0x10
#define PERF_MEM_TLB_WK			0x20	/* hardware walker */
#define PERF_MEM_TLB_OS			0x40	/* OS fault handler */
#define PERF_MEM_TLB_SHIFT		26
#define PERF_MEM_TLB_BITS		7

#define PERF_MEM_LVLNUM_L1		0x01
#define PERF_MEM_LVLNUM_L2		0x02
#define PERF_MEM_LVLNUM_L3		0x03
#define PERF_MEM_LVLNUM_L4		0x04
#define PERF_MEM_LVLNUM_L2_MHB		0x05	/* L2 miss handling buffer */
#define PERF_MEM_LVLNUM_MSC		0x06	/* memory-side cache */
#define PERF_MEM_LVLNUM_UNC		0x08	/* uncached */
#define PERF_MEM_LVLNUM_CXL		0x09
#define PERF_MEM_LVLNUM_IO		0x0a
#define PERF_MEM_LVLNUM_ANY_CACHE	0x0b
#define PERF_MEM_LVLNUM_LFB		0x0c	/* LFB / L1 miss handling buffer */
#define PERF_MEM_LVLNUM_RAM		0x0d
#define PERF_MEM_LVLNUM_PMEM		0x0e
#define PERF_MEM_LVLNUM_NA		0x0f	/* not available */
#define PERF_MEM_LVLNUM_SHIFT		33
#define PERF_MEM_LVLNUM_BITS		4

#define PERF_MEM_REMOTE_REMOTE		0x01
#define PERF_MEM_REMOTE_SHIFT		37
#define PERF_MEM_REMOTE_BITS		1

#define PERF_MEM_SNOOPX_FWD		0x01	/* forward */
#define PERF_MEM_SNOOPX_PEER		0x02	/* transfer from a peer */
#define PERF_MEM_SNOOPX_SHIFT		38
#define PERF_MEM_SNOOPX_BITS		2

#define PERF_MEM_BLK_NA			0x01	/* not available */
#define PERF_MEM_BLK_DATA		0x02	/* data could not be forwarded */
#define PERF_MEM_BLK_ADDR		0x04	/* address conflict */
#define PERF_MEM_BLK_SHIFT		40
#define PERF_MEM_BLK_BITS		3

#define PERF_MEM_HOPS_0			0x01	/* remote core, same node */
#define PERF_MEM_HOPS_1			0x02	/* remote node, same socket */
#define PERF_MEM_HOPS_2			0x03	/* remote socket, same board */
#define PERF_MEM_HOPS_3			0x04	/* remote board */
#define PERF_MEM_HOPS_SHIFT		43
#define PERF_MEM_HOPS_BITS		3

/* flag F of part P as a data_src value: PERF_MEM_S(LVL, HIT) */
#define PERF_MEM_S(part, flag)	((u64)PERF_MEM_##part##_##flag << PERF_MEM_##part##_SHIFT)
/* part P of a data_src value: PERF_MEM_GET(v, LVL) */
#define PERF_MEM_GET(v, part)	\
	(((v) >> PERF_MEM_##part##_SHIFT) & ((1ULL << PERF_MEM_##part##_BITS) - 1))


/*
 * perf_event_open(2) for recording: the flags, the ioctls and the ring buffer's control page
 * (struct perf_event_mmap_page: only the fields a reader of the data area needs, at their
 * ABI offsets).
 */
#define PERF_FLAG_PID_CGROUP		(1UL << 2)	/* pid is a cgroup directory fd */
#define PERF_FLAG_FD_CLOEXEC		(1UL << 3)
#define PERF_EVENT_IOC_ENABLE		0x2400			/* _IO('$', 0) */
#define PERF_EVENT_IOC_DISABLE		0x2401			/* _IO('$', 1) */
#define PERF_EVENT_IOC_SET_OUTPUT	0x2405			/* _IO('$', 5) */
#define PERF_EVENT_IOC_ID		0x80082407		/* _IOR('$', 7, u64 *) */
#define PERF_EVENT_IOC_SET_FILTER	0x40082406		/* _IOW('$', 6, char *) */

struct perf_event_mmap_page_data {
	u8	head_[1024];	/* version, lock, index, offset, time and counter fields */
	u64	data_head;	/* written by the kernel after the records it covers */
	u64	data_tail;	/* written by the reader once it is done with the records */
	u64	data_offset;	/* where the data area starts in the mapping */
	u64	data_size;
};

_Static_assert(__builtin_offsetof(struct perf_event_mmap_page_data, data_head) == 1024,
	       "perf_event_mmap_page layout");

#endif /* PERF_ABI_H */
