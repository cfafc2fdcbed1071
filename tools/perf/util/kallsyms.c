// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

/* notes blob records: namesz, descsz, type, name and desc, the last two padded to 4 bytes */
int notes__read_build_id(const char *path, u8 *id, size_t *size)
{
	u8 buf[4096];
	size_t len, off = 0;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -errno;
	len = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	while (off + 12 <= len) {
		u32 namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3u);
		if (namesz > len || descsz > len || desc_off + descsz > len)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) &&
		    descsz && descsz <= 20) {
			memcpy(id, buf + desc_off, descsz);
			*size = descsz;
			return 0;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}

/* does the recorded build id of dso name what the running system has at notes_path? */
static bool dso__build_id_is_running(const struct dso *dso, const char *notes_path)
{
	u8 id[20];
	size_t size;

	if (notes__read_build_id(notes_path, id, &size))
		return false;
	return size == dso->build_id_size && !memcmp(id, dso->build_id, size);
}

static void build_id__hex(const struct dso *dso, char *hex)
{
	for (size_t i = 0; i < dso->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", dso->build_id[i]);
	hex[2 * dso->build_id_size] = '\0';
}

/* perf's build-id cache: conf's, $PERF_BUILDID_DIR, else ~/.debug */
static const char *buildid_dir(const struct symbol_conf *conf, char *buf, size_t size)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (conf && conf->buildid_dir)
		return conf->buildid_dir;
	if (dir && *dir)
		return dir;
	if (!home)
		return NULL;
	snprintf(buf, size, "%s/.debug", home);
	return buf;
}

/* the kallsyms copy perf record keeps for this build id (new layout, then the old one) */
static bool kallsyms__cached(const char *root, const char *dir, const char *hex, char *path,
			     size_t size)
{
	static const char *const layouts[] = { "%s%s/[kernel.kallsyms]/%s/kallsyms",
					       "%s%s/[kernel.kallsyms]/%s" };

	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		struct stat st;

		if (snprintf(path, size, layouts[i], root, dir, hex) >= (int)size)
			continue;
		if (!stat(path, &st) && S_ISREG(st.st_mode))
			return true;
	}
	return false;
}

/* fmt (one %s: arg) under conf->running_root; "" when it does not fit */
static const char *running_path(const struct symbol_conf *conf, const char *fmt, const char *arg,
				char *buf, size_t size)
{
	const char *root = conf && conf->running_root ? conf->running_root : "";
	int n = snprintf(buf, size, "%s", root);

	if (n < 0 || (size_t)n >= size || snprintf(buf + n, size - n, fmt, arg) >= (int)(size - n))
		buf[0] = '\0';
	return buf;
}

/*
 * Where the kernel's symbols come from, as perf chooses: an explicit --kallsyms is trusted;
 * /proc/kallsyms when the recording has no kernel build id or names the running kernel;
 * else the build-id cache (then the same cache under --symfs). 0 with path filled, or
 * -ENOENT with machine->kernel_warning saying so (the symbols stay unknown).
 */
static int machine__kallsyms_path(struct machine *machine, char *path, size_t size)
{
	const struct symbol_conf *conf = machine->conf;
	const struct dso *kernel = machine->kernel_dso;
	char hex[41], dirbuf[PATH_MAX], notes[PATH_MAX];
	const char *dir;

	if (conf && conf->kallsyms) {
		snprintf(path, size, "%s", conf->kallsyms);
		return 0;
	}
	if (!kernel->has_build_id || !kernel->build_id_size ||
	    dso__build_id_is_running(kernel, running_path(conf, "/sys/kernel/notes", "", notes,
							  sizeof(notes)))) {
		running_path(conf, "/proc/kallsyms", "", path, size);
		machine->kallsyms_is_running = true;
		return 0;
	}
	build_id__hex(kernel, hex);
	dir = buildid_dir(conf, dirbuf, sizeof(dirbuf));
	if (dir && kallsyms__cached("", dir, hex, path, size))
		return 0;
	if (dir && conf && conf->symfs && conf->symfs[0] &&
	    kallsyms__cached(conf->symfs, dir, hex, path, size))
		return 0;
	snprintf(machine->kernel_warning, sizeof(machine->kernel_warning),
		 "No kallsyms or vmlinux with build-id %s was found", hex);
	return -ENOENT;
}

/*
 * Module symbols of the running kernel's kallsyms belong to the recorded module only if
 * its build id (when the recording has one) is the loaded module's.
 */
static bool module__matches_running(const struct machine *machine, const struct dso *dso)
{
	char name[256], notes[PATH_MAX];

	if (!dso->has_build_id || !dso->build_id_size)
		return true;
	/* "[name]" -> name */
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(dso->long_name + 1, "]"),
		 dso->long_name + 1);
	running_path(machine->conf, "/sys/module/%s/notes/.note.gnu.build-id", name, notes,
		     sizeof(notes));
	return notes[0] && dso__build_id_is_running(dso, notes);
}

/*
 * perf moves the kernel map over the kernel's symbols once they are loaded (map__fixup_start
 * and map__fixup_end): an -a profile has samples in the init text, which lies past the end
 * of the recorded kernel MMAP (that ends at _etext).
 */
static void machine__fit_kernel_map(struct machine *machine)
{
	const struct symbols *syms = &machine->kernel_dso->symbols;
	struct map *map = machine->kernel_map;
	u64 first, last;

	if (!map || !syms->nr)
		return;
	/* perf's: the first symbol's start, the end of the one that starts last */
	first = syms->syms[0].start;
	last = syms->syms[syms->nr - 1].end;
	/* back from the kallsyms address space to the recorded one */
	maps__set_range(machine->kmaps, map, first - (u64)map->reloc, last - (u64)map->reloc);
	/* resolutions cached before the move are stale only if one of them missed */
	if (machine->kernel_missed)
		machine->maps_gen++;
}

int machine__load_kallsyms(struct machine *machine)
{
	char path[PATH_MAX];
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
	if (machine__kallsyms_path(machine, path, sizeof(path))) {
		kernel->load_errno = ENOENT;
		return -ENOENT;
	}
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
				if (machine->kallsyms_is_running && !dso->loaded &&
				    !dso->symbols.nr && !module__matches_running(machine, dso)) {
					/* a foreign module: its symbols stay unknown */
					dso->loaded = true;
					dso->load_errno = DSO_LOAD_ERRNO__MISMATCHING_BUILDID;
				}
				if (dso->load_errno)
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
	if (!kernel->load_errno)
		machine__fit_kernel_map(machine);
	for (size_t i = 0; i < machine->dsos.nr_buckets; i++)
		for (struct dso *d = machine->dsos.buckets[i]; d; d = d->hash_next)
			if (d->kind == DSO_KIND_KMODULE)
				symbols__finish(&d->symbols);
	return kernel->load_errno ? -kernel->load_errno : 0;
}
