// SPDX-License-Identifier: GPL-2.0
/*
 * elf-section.c - sections by name (elf-section.h).
 */
#include <string.h>
#include "elf-section.h"

Elf_Scn *elf__section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx)
{
	Elf_Scn *sec = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	/* a corrupted or truncated string table: don't let elf_strptr() go near it */
	if (!elf_rawdata(elf_getscn(elf, shstrndx), NULL))
		return NULL;
	while ((sec = elf_nextscn(elf, sec)) != NULL) {
		const char *str;

		if (!gelf_getshdr(sec, shdr))
			return NULL;
		str = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (str && !strcmp(name, str)) {
			if (idx)
				*idx = elf_ndxscn(sec);
			return sec;
		}
	}
	return NULL;
}
