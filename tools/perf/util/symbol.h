/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbol.h - a DSO's symbol table: a sorted array of [start, end) ranges with names, built
 * once per DSO and searched in O(log n).
 *
 * Owns: the symbol array and one string arena holding every name. Addresses are in the DSO's
 * own address space (ELF: the vaddr of st_value; kernel: the kallsyms address).
 *
 * Two phases. While symbols are being added, the table mirrors the red-black tree upstream
 * perf builds (insertion order decides its shape, and with overlapping symbols the shape
 * decides which symbol a lookup finds); s->syms is then in insertion order and names are not
 * yet valid. symbols__finish() or symbols__seal() turn it into the sorted array plus, only
 * when symbols overlap, a small table of which symbol perf's search returns in each range.
 * After that, s->syms[0 .. nr) is sorted by start, every name is valid, and lookups are a
 * binary search. Adding after sealing is allowed (the table is rebuilt from sorted order).
 */
#ifndef PERF_UTIL_SYMBOL_H
#define PERF_UTIL_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>

struct symbol {
	u64		start;
	u64		end;		/* exclusive; end == start: matches start only */
	const char	*name;		/* points into the owning symbols' arena */
	u8		binding;	/* STB_LOCAL / STB_GLOBAL / STB_WEAK */
	u8		type;		/* STT_FUNC / STT_OBJECT / ... or a kallsyms letter */
	/* a function inlined at a frame's address (dwarf-inline.h): never in a table */
	u8		inlined;
};

struct symbols_build;		/* private to symbol.c: the tree while adding */

struct symbols {
	struct symbol		*syms;
	size_t			nr, alloc;
	char			*arena;		/* names, NUL-separated */
	size_t			arena_len, arena_alloc;
	struct symbols_build	*build;		/* non-NULL between the first add and sealing */
	/*
	 * The lookup index, built when sealing: sorted keys, key i covers [keys[i],
	 * keys[i + 1]). Without overlaps the keys are the symbols' starts and key_sym is
	 * NULL; with overlaps key_sym[i] is the symbol perf finds there (UINT32_MAX: none).
	 */
	u64			*keys;
	u32			*key_sym;
	size_t			nr_keys;
};

void symbols__init(struct symbols *s);
void symbols__exit(struct symbols *s);
/*
 * Copies name into the arena. end is exclusive; end 0 (or end == start) means the size is
 * unknown: finish gives it an end (see symbols__fixup). 0 or -ENOMEM / -E2BIG.
 */
int symbols__add(struct symbols *s, u64 start, u64 end, const char *name, u8 binding, u8 type);
/*
 * Sort, drop duplicates keeping perf's choice, and give zero-sized symbols an end at the
 * next symbol's start. Must be called once after the last add and before any find.
 */
void symbols__finish(struct symbols *s);
/* the symbol containing addr (the one perf's search finds), or NULL; NULL before sealing */
const struct symbol *symbols__find(const struct symbols *s, u64 addr);

/*
 * For loaders that need perf's exact sequence of steps (symbol-elf.c): symbols are
 * identified by the index symbols__insert() returned until the table is sealed.
 */

/* like symbols__add; returns the new symbol's index (>= 0) or -ENOMEM */
long symbols__insert(struct symbols *s, u64 start, u64 end, const char *name, u8 binding,
		     u8 type);
/*
 * perf's fixups over everything added so far: zero-sized symbols end where the next one
 * starts (the last one at the next page boundary after its start), then of the symbols that
 * share a start only perf's choice survives. is_kallsyms keeps the last symbol of the kernel
 * or of a module (names "sym\t[mod]") from reaching into the next module.
 */
void symbols__fixup(struct symbols *s, bool is_kallsyms);
/* seal without fixups: sorted array + lookup table; names become valid */
void symbols__seal(struct symbols *s);
/* while adding: the index of the symbol perf's search finds at addr, or -1 */
long symbols__find_idx(struct symbols *s, u64 addr);
/* while adding: the symbol with that index (its name is not valid, use symbols__name) */
struct symbol *symbols__at(struct symbols *s, long idx);
const char *symbols__name(const struct symbols *s, long idx);
/* while adding: an IFUNC, or the survivor of a duplicate that was an IFUNC */
bool symbols__is_ifunc(const struct symbols *s, long idx);
/* while adding: take the symbol out again */
void symbols__remove(struct symbols *s, long idx);

#endif
