/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dwarf-inline.h - the functions inlined at an address of a DSO, and its source line, read
 * from the DWARF of the file its symbols came from (dso->symsrc_path: the DSO itself, or its
 * debug file found by build id or .gnu_debuglink under --symfs) with libdw. Compressed debug
 * sections (SHF_COMPRESSED) are decompressed by libdw; split DWARF (-gsplit-dwarf) is
 * followed from the skeleton unit to its .dwo.
 *
 * What upstream perf 7.2 shows is what binutils' addr2line -i -f answers, and this module
 * answers the same for each address:
 *  - the innermost function is the smallest DWARF function range (subprogram or inlined
 *    instance) holding the address, a later DIE winning a tie; each further entry is the
 *    function its predecessor was inlined into, with the call site as its line.
 *  - a function's name is its linkage name, else its DW_AT_name (both through
 *    DW_AT_abstract_origin / DW_AT_specification), demangled as ELF symbol names are.
 *  - in languages whose names are mangled (C++, Rust, ...), a function without a linkage
 *    name answers the frame's ELF symbol name the first time it is the innermost one, and
 *    keeps that name for good when the symbol starts where the function does: addr2line
 *    caches the name it found, so the answer for an address depends on the addresses asked
 *    before it. Asking in the order upstream asks (samples in order, innermost frame first)
 *    gives upstream's answers.
 *  - an entry named as the frame's symbol is that symbol; any other is a symbol made for it,
 *    with the frame symbol's range and ->inlined set, printed "name+off (inlined)".
 *
 * A DSO without DWARF (or without a symbol at the address) has no entries and no error. A
 * DWARF that libdw cannot read (a corrupt .debug_info) gives no entries from then on, and
 * dso_dwarf__error() says so once.
 *
 * Ownership: the DWARF is the dso's file's (dso-file.h), this module's caches hang off it too;
 * both are freed with the dso. Returned entries,
 * their symbols and srclines live as long as the dso. Each (dso, address) is looked up once.
 */
#ifndef PERF_UTIL_DWARF_INLINE_H
#define PERF_UTIL_DWARF_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>

struct dso;
struct symbol;
struct helper_budget;

struct inline_entry {
	const struct symbol	*sym;		/* the frame's own symbol, or one with ->inlined */
	const char		*srcline;	/* "file:line" (file's basename), "??:0" unknown */
};

/*
 * The entries for vaddr (the address in the DSO's ELF space) in the frame whose symbol is
 * sym, innermost first; *nr gets their number, 0 (and NULL back) when there are none.
 * sym must be the symbol the DSO's table gives for vaddr (not NULL).
 */
const struct inline_entry *dso__inlines(struct dso *dso, const struct symbol *sym, u64 vaddr,
					u32 *nr);

/*
 * vaddr's source line, "file:line" as above; ":0" when a unit covers vaddr but its line table
 * does not (upstream's text for it); NULL when no unit covers it or there is no DWARF
 */
const char *dso__srcline(struct dso *dso, u64 vaddr);

/*
 * A one-line description of why this DSO's DWARF could not be read, returned once (the
 * first call after the failure), else NULL. Owned by the dso.
 */
const char *dso_dwarf__error(struct dso *dso);

/*
 * Starts opening the DSO's DWARF (dso->symsrc_path: its symbols must be loaded) on a helper
 * thread with a slot of hb, to overlap the decompression of its debug sections with other
 * work; the first lookup waits for it. With no slot free it is opened here and now. The
 * opened state is the one the first lookup would have made. true when a thread was started;
 * false when it was opened here, is open or being opened already, or the DSO has no symbol
 * source.
 */
bool dso__dwarf_prefetch(struct dso *dso, struct helper_budget *hb);

/* frees the caches (dso_file__delete() calls it); NULL is fine */
struct dso_dwarf;
void dso_dwarf__delete(struct dso_dwarf *dd);

#endif
