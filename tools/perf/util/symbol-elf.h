/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbol-elf.h - what symbol loading reads from ELF files (libelf): symbol tables, PLT
 * entries, build ids, .gnu_debuglink and PT_LOAD segments.
 *
 * A struct symsrc is one opened candidate file (the DSO itself or a debug file). It owns its
 * fd and Elf handle until symsrc__exit(). Nothing here prints; failures come back as
 * -errno or -DSO_LOAD_ERRNO__* (see dso.h) so dso__load() can record them in load_errno.
 * Every read is bounds-checked: a truncated or corrupted file fails cleanly.
 */
#ifndef PERF_UTIL_SYMBOL_ELF_H
#define PERF_UTIL_SYMBOL_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <gelf.h>
#include <perf/abi.h>
#include "build-id.h"

struct dso;

struct symsrc {
	char		*path;		/* owned */
	int		fd;
	Elf		*elf;
	GElf_Ehdr	ehdr;
	Elf_Scn		*symtab;	/* NULL unless a real SHT_SYMTAB named .symtab */
	size_t		symtab_idx;
	Elf_Scn		*dynsym;	/* NULL unless a real SHT_DYNSYM named .dynsym */
	size_t		dynsym_idx;
	bool		demangle;	/* names go through demangle_sym() */
};


/*
 * Opens path as a symbol source. want_bid (may be NULL) is the DSO's build id: a file whose
 * own build id differs, or that has none, is rejected as perf rejects it.
 * Returns 0, or -errno / -DSO_LOAD_ERRNO__*; on failure ss holds nothing.
 */
int symsrc__init(struct symsrc *ss, const char *path, const u8 *want_bid, size_t want_size);
void symsrc__exit(struct symsrc *ss);

static inline bool symsrc__has_symtab(const struct symsrc *ss)
{
	return ss->symtab != NULL;
}

/* a file with .dynsym can provide the runtime view: program headers, .plt, relocations */
static inline bool symsrc__possibly_runtime(const struct symsrc *ss)
{
	return ss->dynsym != NULL;
}

/*
 * The GNU build id note of the file at path into bid (BUILD_ID_SIZE_MAX bytes); *size gets its
 * length. Returns 0, -ENOENT when the file has no build id, or -errno.
 */
int filename__read_build_id(const char *path, u8 *bid, size_t *size);
/* the file name in path's .gnu_debuglink, NUL-terminated in buf; 0 or -errno */
int filename__read_debuglink(const char *path, char *buf, size_t size);

/*
 * Adds the symbols of syms_ss (.symtab, then .dynsym of the same file, each followed by
 * perf's fixups) to dso->symbols, which must be in its adding phase. runtime_ss is the file
 * that is actually mapped (the same as syms_ss when there is no separate debug file).
 * Returns the number of symbols added or a negative error.
 */
int dso__load_sym(struct dso *dso, struct symsrc *syms_ss, struct symsrc *runtime_ss);
/*
 * -k: the .symtab of a vmlinux, as perf loads it: each symbol of an allocated section goes
 * to the dso section_dso() gives for that section (name, address, size, file offset;
 * NULL: out of memory), at its address in the file (unrelocated), in the dso's adding phase; the
 * caller fixes them up. *ref_addr gets ref_name's value when the file has it (unchanged
 * otherwise). Returns the number of symbols added or a negative error.
 */
int vmlinux__load_sym(struct symsrc *ss, const char *ref_name, u64 *ref_addr,
		      struct dso *(*section_dso)(void *arg, const char *name, u64 addr, u64 size,
						 u64 offset),
		      void *arg);
/* adds "name@plt" symbols for .plt, .plt.got and .plt.sec of runtime_ss; returns how many */
int dso__synthesize_plt_symbols(struct dso *dso, struct symsrc *runtime_ss);
/* PT_LOAD segments of ss into dso->segs (sorted by file offset) and dso->is_exec */
int dso__read_segments(struct dso *dso, struct symsrc *ss);

#endif
