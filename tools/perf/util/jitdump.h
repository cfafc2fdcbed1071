/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitdump.h - a JIT runtime's jitdump file (jit-PID.dump: node --perf-prof, the JVM's perf
 * agent, .NET, LuaJIT, python -X perf_jit) turned into what perf report and perf script need
 * to name JIT'd code: one ELF file per piece of code, written beside the dump as
 * jitted-PID-INDEX.so (upstream's names and place), and the mapping of each at its address.
 *
 * The runtime marks a recording with the dump by mapping the dump file executable: that
 * MMAP/MMAP2 (jitdump__is_marker) is where perf inject -j reads it. The dump's times are
 * CLOCK_MONOTONIC (a recording made with -k 1 has the same clock); dumps with the CPU's
 * timestamp counter (JITDUMP_FLAGS_ARCH_TIMESTAMP) are refused.
 *
 * Records: CODE_LOAD makes an ELF and a map; UNWINDING_INFO (before the load it belongs to)
 * gives that ELF .eh_frame and .eh_frame_hdr; CODE_MOVE maps the moved code's ELF at its new
 * address; DEBUG_INFO (source lines) and CLOSE are read and skipped; unknown records are
 * skipped by their size, as upstream. Any record that does not fit the file is an error
 * naming its offset and type.
 */
#ifndef PERF_UTIL_JITDUMP_H
#define PERF_UTIL_JITDUMP_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>

/* the ABI of the jitdump format (version 1) */
#define JITDUMP_MAGIC			0x4A695444u	/* "JiTD" read as a host-order u32 */
#define JITDUMP_MAGIC_SWAPPED		0x4454694Au
#define JITDUMP_VERSION			1
#define JITDUMP_FLAGS_ARCH_TIMESTAMP	(1ULL << 0)

enum jitdump_record_type {
	JIT_CODE_LOAD		= 0,
	JIT_CODE_MOVE		= 1,
	JIT_CODE_DEBUG_INFO	= 2,
	JIT_CODE_CLOSE		= 3,
	JIT_CODE_UNWINDING_INFO	= 4,
};

/* one piece of JIT'd code mapped: what an MMAP2 record of it says */
struct jit_map {
	u64		time;		/* the load's (or move's) time, CLOCK_MONOTONIC ns */
	u32		pid, tid;
	u64		start, len;	/* the code's address and size */
	u64		pgoff;		/* where the code is in the ELF file */
	u32		maj, min;	/* the ELF file's device, inode and build id */
	u64		ino;
	u8		build_id[20];
	const char	*path;		/* the ELF file, valid during the callback */
	const char	*name;		/* the code's name (its one symbol) */
};

typedef int (*jit_map_fn)(void *ctx, const struct jit_map *map);

/* filename names a jitdump (.../jit-PID.dump); *pid gets PID */
bool jitdump__is_marker(const char *filename, u32 *pid);

/*
 * Reads the dump at path (of process pid: a dump of another process is an error), writes the
 * ELF of each piece of code beside it and calls emit for each mapping in the dump's order.
 * 0, emit's non-zero return, or a negative errno with err saying what and where.
 */
int jitdump__process(const char *path, u32 pid, jit_map_fn emit, void *ctx, struct perf_err *err);

#endif
