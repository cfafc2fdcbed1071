/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf-section.h - finding an ELF section by name, the one way every reader of DSO files does
 * it (symbols, build-id notes, CFI and DWARF): the section string table is checked before any
 * name is read from it, since the files are untrusted.
 */
#ifndef PERF_UTIL_ELF_SECTION_H
#define PERF_UTIL_ELF_SECTION_H

#include <stddef.h>
#include <gelf.h>

/*
 * The first section called name, its header in *shdr and its index in *idx (idx may be
 * NULL); NULL when there is none, or the section headers or their string table are
 * unreadable. The section is elf's.
 */
Elf_Scn *elf__section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx);

#endif /* PERF_UTIL_ELF_SECTION_H */
