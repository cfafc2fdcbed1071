// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for a DSO's files as the symbol side reads them: the input is the DSO's
 * ELF file (with or without DWARF and CFI), found through the dso-file lookup as a recorded
 * DSO's would be (--symfs /proc/self/fd, the DSO named after the input's memfd), then
 *
 *   - its symbols loaded (symbol-elf.c: .symtab/.dynsym, PLT synthesis, PT_LOAD segments),
 *   - a few addresses of each of some symbols (start, middle, last byte) and of each
 *     segment looked up: the symbol by file offset, its inline chain and srcline
 *     (dwarf-inline.c), the CFI row as a rule (unwind-dwarf.c's row lookup, .eh_frame and
 *     .debug_frame) and the code bytes there (dso_file__code, the x86 decoder's input).
 *
 * Seeds are small ELF files with and without DWARF (corpus/fuzz_elf). A malformed file is
 * fine (no symbols, no rows, an error string); a crash, a sanitizer report, a leak or a
 * hang is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz-memfd.h"
#include <perf/kernel.h>
#include "util/dso.h"
#include "util/dso-file.h"
#include "util/dwarf-inline.h"
#include "util/map.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "util/unwind-dwarf.h"

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

/* where the DSO is mapped: any page-aligned user address */
#define MAP_BASE	0x400000ULL
/* symbols asked per file: the lookups are per address, a few of each kind are enough */
#define MAX_SYMS	24

/* the symbol directory: <symfs><long_name> is /proc/self/fd/<the input's memfd> */
static struct symbol_conf conf = {
	.symfs		= "/proc/self/fd",
	.buildid_dir	= "/nonexistent",
	.running_root	= "/nonexistent",
};

static void lookup(struct dso *dso, struct thread *thread, struct unwind_dwarf *ud, u64 vaddr)
{
	u64 off = dso__vaddr_to_offset(dso, vaddr), sym_vaddr;
	const struct symbol *sym = dso__find_symbol_by_offset(dso, &conf, off, &sym_vaddr);
	struct unwind_rule rule;
	size_t len;

	(void)dso__srcline(dso, sym_vaddr);
	if (sym) {
		u32 nr;
		const struct inline_entry *e = dso__inlines(dso, sym, sym_vaddr, &nr);

		for (u32 i = 0; i < nr; i++)
			if (!e[i].sym || !e[i].sym->name || !e[i].srcline)
				abort();
	}
	if (off < (1ULL << 40))
		(void)unwind_dwarf__rule(ud, thread, MAP_BASE + off, &rule);
	(void)dso_file__code(dso__file(dso), &conf, off, 16, &len);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct unwind_dwarf *ud;
	struct thread *thread;
	struct dso *dso;
	struct map *map;
	char name[32];
	int fd;

	fd = fuzz__memfd("fuzz_elf", bytes, size);
	snprintf(name, sizeof(name), "/%d", fd);
	dso = dso__new(name, DSO_KIND_USER);
	thread = thread__new(1, 1);
	ud = unwind_dwarf__new(&conf);
	if (!dso || !thread || !ud)
		abort();
	thread->maps = maps__new();
	map = map__new(MAP_BASE, 1ULL << 40, 0, dso);
	if (!thread->maps || !map || maps__insert(thread->maps, map))
		abort();
	map__put(map);

	(void)dso__load(dso, &conf);
	(void)dso_file__cfi(dso__file(dso), &conf);
	for (size_t i = 0; i < dso->nr_segs; i++) {
		lookup(dso, thread, ud, dso->segs[i].vaddr);
		lookup(dso, thread, ud, dso->segs[i].vaddr + dso->segs[i].file_size / 2);
	}
	for (size_t i = 0, step = dso->symbols.nr / MAX_SYMS + 1; i < dso->symbols.nr; i += step) {
		const struct symbol *s = &dso->symbols.syms[i];

		lookup(dso, thread, ud, s->start);
		lookup(dso, thread, ud, s->start + (s->end - s->start) / 2);
		if (s->end > s->start)
			lookup(dso, thread, ud, s->end - 1);
	}
	(void)dso_dwarf__error(dso);

	unwind_dwarf__delete(ud);
	thread__put(thread);
	dso__put(dso);
	close(fd);
	return 0;
}
