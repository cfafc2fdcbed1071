// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf-inline.c - inline chains and source lines from a DSO's DWARF (see dwarf-inline.h).
 *
 *   dso->file's DWARF (dso-file.h: opened on the first lookup, units checked once; or
 *               opened on a thread of its own ahead of it, see dso__dwarf_prefetch())
 *     address cache: vaddr -> srcline, entries (each address resolved once)
 *        | miss
 *        v
 *     unit of the address (dwarf_addrdie) -> its function table, built once per unit:
 *     every subprogram / inlined instance with its ranges, the function it was inlined
 *     into, its call site, its name
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "demangle.h"
#include "dso.h"
#include "dso-file.h"
#include "dwarf-inline.h"
#include "hash.h"
#include "hashmap.h"
#include "symbol.h"

/* DIE nesting deeper than this is not followed (real code nests a few dozen levels) */
#define MAX_DIE_DEPTH	128

struct dw_func {
	u32		range_first, nr_ranges;	/* in the unit's ranges */
	s32		caller;			/* the function it is inlined into, -1 */
	const char	*name;			/* DWARF name (maybe mangled), NULL: none */
	char		*shown;			/* name as printed, made on first use */
	const char	*call_file;		/* full path, NULL: unknown */
	u32		call_line;
	/* addr2line's "is_linkage": the name is final, no ELF symbol lookup any more */
	bool		named;
	bool		shown_owned;
};

struct dw_unit {
	Dwarf_Off	off;
	struct dw_func	*funcs;
	u32		nr_funcs, funcs_alloc;
	Dwarf_Addr	(*ranges)[2];
	u32		nr_ranges, ranges_alloc;
	bool		mangled_lang;
};

struct addr_result {
	struct hashmap_node	node;
	u64			vaddr;
	const char		*srcline;	/* NULL: unknown */
	struct inline_entry	*entries;
	u32			nr;
	bool			line_done, chain_done;
};

/* what a result allocated, freed with the state */
struct owned {
	struct owned	*next;
	/* the allocation follows */
};

/* the caches of one DSO's answers; the DWARF itself is its dso_file's */
struct dso_dwarf {
	struct dso_file		*df;
	Elf			*elf;		/* df's, borrowed */
	Dwarf			*dw;
	bool			bad;		/* found unreadable past its headers */
	struct dw_unit		*units;
	u32			nr_units, units_alloc;
	struct hashmap		results;	/* struct addr_result by vaddr, owned */
	struct owned		*owned;
};

static void *dd__alloc(struct dso_dwarf *dd, size_t size)
{
	struct owned *o = calloc(1, sizeof(*o) + size);

	if (!o)
		return NULL;
	o->next = dd->owned;
	dd->owned = o;
	return o + 1;
}

static char *dd__strdup(struct dso_dwarf *dd, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = dd__alloc(dd, len);

	if (p)
		memcpy(p, s, len);
	return p;
}

void dso_dwarf__delete(struct dso_dwarf *dd)
{
	struct hashmap_node *pos, *tmp;
	size_t bkt;

	if (!dd)
		return;
	for (u32 i = 0; i < dd->nr_units; i++) {
		struct dw_unit *u = &dd->units[i];

		for (u32 j = 0; j < u->nr_funcs; j++)
			if (u->funcs[j].shown_owned)
				free(u->funcs[j].shown);
		free(u->funcs);
		free(u->ranges);
	}
	free(dd->units);
	hashmap__for_each_safe(&dd->results, pos, tmp, bkt)
		free(container_of(pos, struct addr_result, node));
	hashmap__exit(&dd->results);
	while (dd->owned) {
		struct owned *o = dd->owned;

		dd->owned = o->next;
		free(o);
	}
	free(dd);
}

static void dd__fail(struct dso_dwarf *dd, const char *what)
{
	dd->bad = true;
	dso_file__dwarf_fail(dd->df, what);
}

bool dso__dwarf_prefetch(struct dso *dso, struct helper_budget *hb)
{
	struct dso_file *df = dso->file;

	/* the symbols are loaded: their lookup made the dso_file */
	return df && !*dso_file__inline_state(df) && dso_file__dwarf_prefetch(df, hb);
}

/* the DSO's caches, made with the first lookup; NULL without DWARF */
static struct dso_dwarf *dso__dwarf(struct dso *dso)
{
	struct dso_file *df = dso__file(dso);
	struct dso_dwarf **ddp, *dd;
	Elf *elf = NULL;
	Dwarf *dw;

	if (!df)
		return NULL;
	ddp = dso_file__inline_state(df);
	dw = dso_file__dwarf(df, &elf);
	if (*ddp || !dw)
		return dw ? *ddp : NULL;
	dd = calloc(1, sizeof(*dd));
	if (!dd)
		return NULL;
	hashmap__init(&dd->results, 256);
	dd->df = df;
	dd->elf = elf;
	dd->dw = dw;
	*ddp = dd;
	return dd;
}

const char *dso_dwarf__error(struct dso *dso)
{
	return dso->file ? dso_file__dwarf_error(dso->file) : NULL;
}

/* languages whose names addr2line takes for not final without a linkage name */
static bool lang_is_mangled(Dwarf_Die *cu)
{
	Dwarf_Attribute at;
	Dwarf_Word lang;

	if (!dwarf_attr(cu, DW_AT_language, &at) || dwarf_formudata(&at, &lang))
		return false;
	switch (lang) {
	case DW_LANG_Ada83: case DW_LANG_Ada95:
	case DW_LANG_C_plus_plus: case DW_LANG_C_plus_plus_03: case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
	case DW_LANG_Java: case DW_LANG_D: case DW_LANG_Rust:
		return true;
	default:
		/* C++17 and later (0x2a, 0x2b, 0x2c) may be newer than dwarf.h */
		return lang == 0x2a || lang == 0x2b || lang == 0x2c;
	}
}

static const char *die_string(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute at;

	return dwarf_formstring(dwarf_attr_integrate(die, name, &at));
}

/* arr with room for one more than nr elements of size (doubling, from min); NULL: no memory */
static void *grow(void *arr, u32 nr, u32 *alloc, size_t size, u32 min)
{
	u32 n;
	void *q;

	if (nr < *alloc)
		return arr;
	n = *alloc ? 2 * *alloc : min;
	q = realloc(arr, n * size);
	if (q)
		*alloc = n;
	return q;
}

static int unit__add_ranges(struct dw_unit *u, struct dw_func *f, Dwarf_Die *die)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	void *r;

	f->range_first = u->nr_ranges;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		if (start >= end)
			continue;
		r = grow(u->ranges, u->nr_ranges, &u->ranges_alloc, sizeof(*u->ranges), 64);
		if (!r)
			return -ENOMEM;
		u->ranges = r;
		u->ranges[u->nr_ranges][0] = start;
		u->ranges[u->nr_ranges][1] = end;
		u->nr_ranges++;
		f->nr_ranges++;
	}
	return off < 0 ? -EINVAL : 0;
}

static int unit__add_func(struct dw_unit *u, Dwarf_Die *die, Dwarf_Files *files, s32 caller)
{
	struct dw_func *f;
	Dwarf_Attribute at;
	Dwarf_Word w;

	f = grow(u->funcs, u->nr_funcs, &u->funcs_alloc, sizeof(*u->funcs), 64);
	if (!f)
		return -ENOMEM;
	u->funcs = f;
	f = &u->funcs[u->nr_funcs];
	*f = (struct dw_func){ .caller = caller };
	f->name = die_string(die, DW_AT_linkage_name);
	if (!f->name)
		f->name = die_string(die, DW_AT_MIPS_linkage_name);
	if (f->name)
		f->named = true;
	else {
		f->name = die_string(die, DW_AT_name);
		f->named = !u->mangled_lang;
	}
	if (dwarf_tag(die) == DW_TAG_inlined_subroutine) {
		if (dwarf_attr(die, DW_AT_call_file, &at) && !dwarf_formudata(&at, &w) && files)
			f->call_file = dwarf_filesrc(files, w, NULL, NULL);
		if (dwarf_attr(die, DW_AT_call_line, &at) && !dwarf_formudata(&at, &w))
			f->call_line = (u32)w;
	} else {
		f->caller = -1;
	}
	if (unit__add_ranges(u, f, die))
		return -EINVAL;
	u->nr_funcs++;
	return 0;
}

/*
 * every function DIE under parent, in DIE order; caller: the nearest enclosing function.
 * *last: the offset of the DIE visited last. A tree walked in DIE order visits each DIE
 * after the one before it; -ELOOP when one is not (a DW_AT_sibling pointing back, or past
 * its parent's end, would walk DIEs again and again: forever, or twice per level),
 * -EINVAL when libdw fails.
 */
static int unit__scan(struct dw_unit *u, Dwarf_Die *parent, Dwarf_Files *files, s32 caller,
		      int depth, Dwarf_Off *last)
{
	Dwarf_Die die;
	int ret;

	if (depth > MAX_DIE_DEPTH)
		return 0;
	ret = dwarf_child(parent, &die);
	if (ret)
		return ret < 0 ? -EINVAL : 0;
	do {
		int tag = dwarf_tag(&die);
		s32 inner = caller;

		if (dwarf_dieoffset(&die) <= *last)
			return -ELOOP;
		*last = dwarf_dieoffset(&die);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		    tag == DW_TAG_entry_point) {
			if (unit__add_func(u, &die, files, caller))
				return -EINVAL;
			inner = (s32)u->nr_funcs - 1;
		}
		if (dwarf_haschildren(&die)) {
			ret = unit__scan(u, &die, files, inner, depth + 1, last);
			if (ret)
				return ret;
		}
		ret = dwarf_siblingof(&die, &die);
	} while (ret == 0);
	return ret < 0 ? -EINVAL : 0;
}

/* the unit's DIE to read functions from: a skeleton's split unit (-gsplit-dwarf) */
static Dwarf_Die *unit_die(Dwarf_Die *cu, Dwarf_Die *split)
{
	uint8_t type;

	if (dwarf_cu_info(cu->cu, NULL, &type, NULL, split, NULL, NULL, NULL) == 0 &&
	    type == DW_UT_skeleton && dwarf_tag(split) == DW_TAG_compile_unit)
		return split;
	return cu;
}

static struct dw_unit *dd__unit(struct dso_dwarf *dd, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu), last;
	Dwarf_Die split, *top;
	Dwarf_Files *files = NULL;
	struct dw_unit *u;
	size_t nfiles;
	int ret;

	for (u32 i = 0; i < dd->nr_units; i++)
		if (dd->units[i].off == off)
			return &dd->units[i];
	u = grow(dd->units, dd->nr_units, &dd->units_alloc, sizeof(*dd->units), 16);
	if (!u)
		return NULL;
	dd->units = u;
	u = &dd->units[dd->nr_units];
	*u = (struct dw_unit){ .off = off };
	top = unit_die(cu, &split);
	u->mangled_lang = lang_is_mangled(top);
	if (dwarf_getsrcfiles(top, &files, &nfiles))
		files = NULL;
	last = dwarf_dieoffset(top);
	ret = unit__scan(u, top, files, -1, 0, &last);
	if (ret) {
		free(u->funcs);
		free(u->ranges);
		dd__fail(dd, ret == -ELOOP ? "a DIE's sibling is not after its subtree (DW_AT_sibling)" :
			 dwarf_errmsg(-1));
		return NULL;
	}
	dd->nr_units++;
	return u;
}

/* addr2line's pick: the smallest range holding addr, the later function on a tie */
static s32 unit__innermost(const struct dw_unit *u, Dwarf_Addr addr)
{
	Dwarf_Addr best_len = ~(Dwarf_Addr)0;
	s32 best = -1;

	for (u32 i = 0; i < u->nr_funcs; i++) {
		const struct dw_func *f = &u->funcs[i];

		for (u32 r = f->range_first; r < f->range_first + f->nr_ranges; r++) {
			Dwarf_Addr lo = u->ranges[r][0], hi = u->ranges[r][1];

			if (addr < lo || addr >= hi)
				continue;
			if (hi - lo <= best_len) {
				best_len = hi - lo;
				best = (s32)i;
			}
		}
	}
	return best;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static char *dd__srcline(struct dso_dwarf *dd, const char *file, u32 line)
{
	char buf[4096];

	if (!file)
		return NULL;
	snprintf(buf, sizeof(buf), "%s:%u", basename_of(file), line);
	return dd__strdup(dd, buf);
}

static const char *func__shown(struct dw_func *f)
{
	char *d;

	if (f->shown)
		return f->shown;
	if (!f->name)
		return "??";
	d = demangle_sym(f->name);
	if (d) {
		f->shown = d;
		f->shown_owned = true;
	} else {
		f->shown = (char *)f->name;
	}
	return f->shown;
}

static int dd__chain(struct dso_dwarf *dd, struct dw_unit *u, s32 inner,
		     const struct symbol *sym, const char *leaf_srcline, struct addr_result *res)
{
	struct dw_func *f = &u->funcs[inner];
	const char *name, *srcline = leaf_srcline;
	u32 n = 0;

	/* callers always come before their inlined instances: the walk ends */
	for (s32 i = inner; i >= 0; i = u->funcs[i].caller)
		n++;
	res->entries = dd__alloc(dd, n * sizeof(*res->entries));
	if (!res->entries)
		return -ENOMEM;
	/* the innermost: a name that is not final is the ELF symbol's (see the header) */
	if (f->named) {
		name = func__shown(f);
	} else {
		name = sym->name;
		if (f->nr_ranges && u->ranges[f->range_first][0] == sym->start) {
			if (f->shown_owned)
				free(f->shown);
			f->shown = (char *)sym->name;
			f->shown_owned = false;
			f->name = sym->name;
		}
		f->named = true;
	}
	for (s32 i = inner; i >= 0; i = u->funcs[i].caller) {
		struct inline_entry *e = &res->entries[res->nr++];
		struct dw_func *cur = &u->funcs[i];

		if (i != inner)
			name = func__shown(cur);
		e->srcline = srcline ? srcline : "??:0";
		if (!strcmp(name, sym->name)) {
			e->sym = sym;
		} else {
			struct symbol *s = dd__alloc(dd, sizeof(*s));

			if (!s)
				return -ENOMEM;
			*s = *sym;
			s->name = name;
			s->inlined = 1;
			e->sym = s;
		}
		/* the next entry's line is where this one was inlined */
		srcline = cur->call_file ? dd__srcline(dd, cur->call_file, cur->call_line) : NULL;
	}
	return 0;
}

/* the result of vaddr, made empty on first use; NULL on allocation failure */
static struct addr_result *dd__slot(struct dso_dwarf *dd, u64 vaddr)
{
	u64 h = hash__u64(vaddr);
	struct hashmap_node *pos;
	struct addr_result *res;

	hashmap__for_each_hash(&dd->results, pos, h) {
		res = container_of(pos, struct addr_result, node);
		if (res->vaddr == vaddr)
			return res;
	}
	res = calloc(1, sizeof(*res));
	if (!res)
		return NULL;
	res->vaddr = vaddr;
	if (hashmap__add(&dd->results, &res->node, h)) {
		free(res);
		return NULL;
	}
	return res;
}

/* a symbol addr2line (bfd) may name a code address by: what is not data, a file or a section */
static bool sym__bfd_function_like(const GElf_Sym *sym)
{
	switch (GELF_ST_TYPE(sym->st_info)) {
	case STT_OBJECT:
	case STT_FILE:
	case STT_SECTION:
	case STT_TLS:
		return false;
	default:
		break;
	}
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	/* annobin's markers, which bfd skips too */
	return !(sym->st_size == 0 && GELF_ST_BIND(sym->st_info) == STB_LOCAL &&
		 GELF_ST_TYPE(sym->st_info) == STT_NOTYPE &&
		 GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN);
}

/* whether a function-like symbol of section shndx starts at or before vaddr (symtab: type) */
static bool dd__symbol_before(struct dso_dwarf *dd, u32 type, size_t shndx, u64 vaddr, bool *any)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(dd->elf, scn)) != NULL) {
		Elf_Data *data;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym sym;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			*any = true;
			if (sym.st_shndx == shndx && sym.st_value <= vaddr &&
			    sym__bfd_function_like(&sym))
				return true;
		}
	}
	return false;
}

/*
 * addr2line tells an address no unit covers by whether bfd finds a function for it: a
 * function-like symbol of the address's allocated section at or before it (from .symtab, or
 * .dynsym when there is none). Then it answers "??:?" (upstream prints "??:0", e.g. for
 * crt1's _start); else "??:0", which upstream takes as no answer at all and names the frame
 * by its symbol or address: a PLT entry is "labs@plt+0", its section having no symbol.
 */
static bool dd__addr2line_finds(struct dso_dwarf *dd, u64 vaddr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool any = false;

	while ((scn = elf_nextscn(dd->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (vaddr >= sh.sh_addr && vaddr - sh.sh_addr < sh.sh_size)
			break;
	}
	if (!scn)
		return false;
	if (dd__symbol_before(dd, SHT_SYMTAB, elf_ndxscn(scn), vaddr, &any))
		return true;
	return !any && dd__symbol_before(dd, SHT_DYNSYM, elf_ndxscn(scn), vaddr, &any);
}

/* the slot for vaddr, its srcline read the first time; NULL without DWARF */
static struct addr_result *dso__addr_result(struct dso *dso, u64 vaddr)
{
	struct dso_dwarf *dd = dso__dwarf(dso);
	struct addr_result *res;
	Dwarf_Die cu;

	if (!dd)
		return NULL;
	res = dd__slot(dd, vaddr);
	if (!res || res->line_done)
		return res;
	res->line_done = true;
	if (dwarf_addrdie(dd->dw, vaddr, &cu)) {
		Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);
		const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
		int lineno = 0;

		/* a unit without a line for it: addr2line answers ":?", upstream prints ":0" */
		if (file && !dwarf_lineno(line, &lineno))
			res->srcline = dd__srcline(dd, file, (u32)lineno);
		else
			res->srcline = ":0";
	} else if (dd__addr2line_finds(dd, vaddr)) {
		res->srcline = "??:0";
	}
	return res;
}

const struct inline_entry *dso__inlines(struct dso *dso, const struct symbol *sym, u64 vaddr,
					u32 *nr)
{
	struct addr_result *res = dso__addr_result(dso, vaddr);
	struct dso_dwarf *dd = res ? *dso_file__inline_state(dso->file) : NULL;
	struct dw_unit *u;
	Dwarf_Die cu;
	s32 inner;

	*nr = 0;
	if (!res)
		return NULL;
	if (!res->chain_done) {
		res->chain_done = true;
		if (!dwarf_addrdie(dd->dw, vaddr, &cu))
			return NULL;
		u = dd__unit(dd, &cu);
		if (!u)
			return NULL;
		inner = unit__innermost(u, vaddr);
		if (inner < 0)
			return NULL;
		if (dd__chain(dd, u, inner, sym, res->srcline, res)) {
			res->nr = 0;
			return NULL;
		}
	}
	/* a DWARF found unreadable later shows nothing, for every address alike */
	if (dd->bad)
		return NULL;
	*nr = res->nr;
	return res->nr ? res->entries : NULL;
}

const char *dso__srcline(struct dso *dso, u64 vaddr)
{
	struct addr_result *res = dso__addr_result(dso, vaddr);

	return res ? res->srcline : NULL;
}
