// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kallsyms.h"
#include "machine.h"

/* the symbol types perf keeps from kallsyms: text, weak, and data/bss */
static bool kallsyms_type_wanted(char type)
{
	char t = (char)toupper((unsigned char)type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

/* perf's binding for a kallsyms letter: it decides which of two aliases is kept */
static u8 kallsyms_binding(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

static struct dso *module_dso(struct machine *machine, const char *mod, size_t len)
{
	char name[256];

	snprintf(name, sizeof(name), "[%.*s]", (int)len, mod);
	return dsos__findnew(&machine->dsos, name, DSO_KIND_KMODULE);
}

int machine__load_kallsyms(struct machine *machine)
{
	const char *path = machine->conf && machine->conf->kallsyms ? machine->conf->kallsyms
								    : "/proc/kallsyms";
	struct dso *kernel = machine->kernel_dso;
	char *line = NULL;
	size_t cap = 0;
	bool have_ref = false;
	u64 ref_addr = 0;
	FILE *fp;

	if (machine->kernel_loaded)
		return kernel ? kernel->load_errno : 0;
	machine->kernel_loaded = true;
	if (!kernel)
		return 0;
	kernel->loaded = true;
	fp = fopen(path, "r");
	if (!fp) {
		kernel->load_errno = errno;
		return -errno;
	}
	while (getline(&line, &cap, fp) > 0) {
		char *p = line, *end, *name, *mod;
		struct dso *dso = kernel;
		u64 addr;
		char type;

		addr = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		type = *p;
		if (!type || p[1] != ' ')
			continue;
		name = p + 2;
		name[strcspn(name, "\n")] = '\0';
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[') {
				size_t len = strcspn(mod + 1, "]");

				dso = module_dso(machine, mod + 1, len);
				if (!dso)
					continue;
			}
		}
		if (!have_ref && machine->ref_reloc_sym_name &&
		    !strcmp(name, machine->ref_reloc_sym_name) && dso == kernel) {
			ref_addr = addr;
			have_ref = true;
		}
		if (!kallsyms_type_wanted(type))
			continue;
		if (symbols__add(&dso->symbols, addr, addr, name, kallsyms_binding(type), (u8)type)) {
			kernel->load_errno = ENOMEM;
			break;
		}
		dso->loaded = true;
	}
	free(line);
	fclose(fp);
	/* kallsyms was read from another boot: symbols move by the KASLR difference */
	if (have_ref && machine->ref_reloc_sym_addr && machine->kernel_map)
		machine->kernel_map->reloc = (s64)(ref_addr - machine->ref_reloc_sym_addr);
	symbols__finish(&kernel->symbols);
	for (size_t i = 0; i < machine->dsos.nr_buckets; i++)
		for (struct dso *d = machine->dsos.buckets[i]; d; d = d->hash_next)
			if (d->kind == DSO_KIND_KMODULE)
				symbols__finish(&d->symbols);
	return kernel->load_errno ? -kernel->load_errno : 0;
}
