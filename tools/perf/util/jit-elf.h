/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jit-elf.h - the ELF file of one piece of JIT'd code, as perf inject -j writes it: an ET_DYN
 * of the host's class and machine with the code as .text at JIT_ELF_TEXT_OFFSET (one PT_LOAD
 * over it), the code's one function symbol, a GNU build id (SHA-1 of the address, name and
 * code: the same code gets the same id), and where the runtime gave unwinding tables,
 * .eh_frame right after the code (8-aligned, where the runtime's pc-relative entries expect
 * it) and .eh_frame_hdr after that. Readers map an address to the file by the map's pgoff,
 * which is JIT_ELF_TEXT_OFFSET.
 */
#ifndef PERF_UTIL_JIT_ELF_H
#define PERF_UTIL_JIT_ELF_H

#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

#define JIT_ELF_TEXT_OFFSET	0x80

struct jit_code {
	u16		machine;	/* e_machine, as the dump's header says */
	u64		addr;		/* where the runtime put it (into the build id) */
	const char	*name;
	const void	*code;
	size_t		size;
	/* unwinding tables (may be NULL): .eh_frame, then the last hdr_size bytes .eh_frame_hdr */
	const void	*unwind;
	size_t		unwind_size, unwind_hdr_size;
};

/* writes path (replacing it); build_id gets the file's id. 0 or a negative errno */
int jit_elf__write(const char *path, const struct jit_code *jc, u8 build_id[20],
		   struct perf_err *err);

#endif
