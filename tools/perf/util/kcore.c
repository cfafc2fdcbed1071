// SPDX-License-Identifier: GPL-2.0
/*
 * kcore.c - the program headers of a kcore, and the kernel maps upstream perf makes of one
 * that lies beside the kallsyms the kernel's symbols came from (kcore.h).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kcore.h"
#include "machine.h"

static int pread_full(int fd, void *buf, size_t size, u64 off)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = pread(fd, (char *)buf + done, size - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENODATA;
		done += (size_t)n;
	}
	return 0;
}

/* the ELF's fields, in both classes, as 64-bit values */
struct elf_hdr {
	u64	phoff, shoff;
	u32	phnum;
	u16	phentsize, shentsize;
};

static int kcore__read_ehdr(struct kcore_elf *k, int fd, const char *name, struct elf_hdr *h,
			    struct perf_err *err)
{
	union {
		Elf64_Ehdr	e64;
		Elf32_Ehdr	e32;
	} u;
	int ret = pread_full(fd, &u, sizeof(u.e64), 0);

	/* a 32-bit header is shorter: read what is there */
	if (ret == -ENODATA)
		ret = pread_full(fd, &u, sizeof(u.e32), 0);
	if (ret)
		return perf_err__set(err, -ret, "%s: cannot read its ELF header: %s", name,
				     ret == -ENODATA ? "the file is too short" : strerror(-ret));
	if (memcmp(u.e64.e_ident, ELFMAG, SELFMAG))
		return perf_err__set(err, EINVAL, "%s is no ELF file", name);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (u.e64.e_ident[EI_DATA] != ELFDATA2LSB)
#else
	if (u.e64.e_ident[EI_DATA] != ELFDATA2MSB)
#endif
		return perf_err__set(err, EINVAL, "%s: not this machine's byte order", name);
	memcpy(k->ident, u.e64.e_ident, sizeof(k->ident));
	if (u.e64.e_ident[EI_CLASS] == ELFCLASS64) {
		k->type = u.e64.e_type;
		k->machine = u.e64.e_machine;
		k->version = u.e64.e_version;
		k->flags = u.e64.e_flags;
		*h = (struct elf_hdr){ .phoff = u.e64.e_phoff, .shoff = u.e64.e_shoff,
				       .phnum = u.e64.e_phnum, .phentsize = u.e64.e_phentsize,
				       .shentsize = u.e64.e_shentsize };
		if (h->phnum && h->phentsize < sizeof(Elf64_Phdr))
			return perf_err__set(err, EINVAL, "%s: program headers of %u bytes", name,
					     h->phentsize);
	} else if (u.e64.e_ident[EI_CLASS] == ELFCLASS32) {
		k->type = u.e32.e_type;
		k->machine = u.e32.e_machine;
		k->version = u.e32.e_version;
		k->flags = u.e32.e_flags;
		*h = (struct elf_hdr){ .phoff = u.e32.e_phoff, .shoff = u.e32.e_shoff,
				       .phnum = u.e32.e_phnum, .phentsize = u.e32.e_phentsize,
				       .shentsize = u.e32.e_shentsize };
		if (h->phnum && h->phentsize < sizeof(Elf32_Phdr))
			return perf_err__set(err, EINVAL, "%s: program headers of %u bytes", name,
					     h->phentsize);
	} else {
		return perf_err__set(err, EINVAL, "%s: unknown ELF class %u", name,
				     u.e64.e_ident[EI_CLASS]);
	}
	/* more program headers than e_phnum holds: section 0's sh_info has their number */
	if (h->phnum == PN_XNUM) {
		bool is64 = k->ident[EI_CLASS] == ELFCLASS64;
		Elf64_Shdr sh64;
		Elf32_Shdr sh32;

		if (!h->shoff || h->shentsize < (is64 ? sizeof(sh64) : sizeof(sh32)))
			return perf_err__set(err, EINVAL, "%s: PN_XNUM program headers without section 0",
					     name);
		ret = is64 ? pread_full(fd, &sh64, sizeof(sh64), h->shoff) :
			     pread_full(fd, &sh32, sizeof(sh32), h->shoff);
		if (ret)
			return perf_err__set(err, EINVAL, "%s: cannot read section 0 at %#llx", name,
					     (unsigned long long)h->shoff);
		h->phnum = is64 ? sh64.sh_info : sh32.sh_info;
	}
	return 0;
}

int kcore__read(struct kcore_elf *k, int fd, const char *name, struct perf_err *err)
{
	struct elf_hdr h = { 0 };
	bool is64;
	int ret;

	memset(k, 0, sizeof(*k));
	ret = kcore__read_ehdr(k, fd, name, &h, err);
	if (ret)
		return ret;
	is64 = k->ident[EI_CLASS] == ELFCLASS64;
	for (u32 i = 0; i < h.phnum; i++) {
		u64 off = h.phoff + (u64)i * h.phentsize;
		struct kcore_seg seg, *s = &seg;
		u64 memsz, filesz;
		u32 type;

		if (is64) {
			Elf64_Phdr p;

			ret = pread_full(fd, &p, sizeof(p), off);
			type = p.p_type;
			*s = (struct kcore_seg){ .vaddr = p.p_vaddr, .offset = p.p_offset,
						 .flags = p.p_flags };
			memsz = p.p_memsz;
			filesz = p.p_filesz;
		} else {
			Elf32_Phdr p;

			ret = pread_full(fd, &p, sizeof(p), off);
			type = p.p_type;
			*s = (struct kcore_seg){ .vaddr = p.p_vaddr, .offset = p.p_offset,
						 .flags = p.p_flags };
			memsz = p.p_memsz;
			filesz = p.p_filesz;
		}
		if (ret)
			return perf_err__set(err, EINVAL, "%s: cannot read program header %u at %#llx",
					     name, i, (unsigned long long)off);
		s->len = memsz < filesz ? memsz : filesz;
		/*
		 * as upstream's elf_read_maps(): the loadable ones with bytes; and ones that end
		 * in the address space (no map can wrap around)
		 */
		if (type != PT_LOAD || !s->len || s->len > ~0ULL - s->vaddr)
			continue;
		/* in steps: a corrupt count (up to 2^32 with PN_XNUM) never allocates ahead */
		if (!(k->nr_segs & (k->nr_segs + 1))) {
			struct kcore_seg *n = realloc(k->segs, (2 * k->nr_segs + 1) * sizeof(*n));

			if (!n)
				return perf_err__set(err, ENOMEM, "out of memory");
			k->segs = n;
		}
		k->segs[k->nr_segs++] = seg;
	}
	return 0;
}

void kcore__exit(struct kcore_elf *k)
{
	free(k->segs);
	memset(k, 0, sizeof(*k));
}

/* DIR/name for the file beside a kallsyms named "kallsyms" (upstream's rule), else -EINVAL */
static int beside_kallsyms(const char *kallsyms, const char *name, char *buf, size_t size)
{
	const char *slash = strrchr(kallsyms, '/');

	if (!slash || strcmp(slash + 1, "kallsyms"))
		return -EINVAL;
	if (snprintf(buf, size, "%.*s/%s", (int)(slash - kallsyms), kallsyms, name) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* the module maps the recording made (the kernel MMAPs of modules, not KSYMBOLs) */
static bool map__is_module(const struct machine *machine, const struct map *map)
{
	return map != machine->kernel_map && map->dso && map->dso->kind == DSO_KIND_KMODULE &&
	       !map->dso->ksymbol;
}

/* a BPF program's map: upstream keeps those over the kcore (its __map__is_bpf_prog()) */
static bool map__is_bpf_prog(const struct map *map)
{
	return map->dso && map->dso->ksymbol && !strncmp(map->dso->long_name, "bpf_prog_", 9);
}

bool modules__parse_line(const char *line, char *name, size_t size, u64 *start)
{
	const char *x = strrchr(line, 'x'), *sp = strchr(line, ' ');

	if (!x || !sp)
		return false;
	if (name)
		snprintf(name, size, "[%.*s]", (int)(sp - line), line);
	*start = strtoull(x + 1, NULL, 16);
	return true;
}

/*
 * upstream's validate_kcore_modules(): every module the recording mapped is in the modules
 * file at the same address
 */
static bool kcore__modules_fit(const struct machine *machine, const char *path)
{
	struct modules_entry {
		char	name[64];
		u64	start;
	} *mods = NULL;
	size_t nr = 0, alloc = 0, n = 0;
	char *line = NULL;
	bool fit = true;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (getline(&line, &n, f) > 0) {
		if (nr == alloc) {
			struct modules_entry *m = realloc(mods, (alloc = alloc ? 2 * alloc : 64) * sizeof(*m));

			if (!m) {
				fit = false;
				goto out;
			}
			mods = m;
		}
		if (modules__parse_line(line, mods[nr].name, sizeof(mods[nr].name), &mods[nr].start))
			nr++;
	}
	for (size_t i = 0; i < machine->kmaps->nr && fit; i++) {
		const struct map *map = machine->kmaps->entries[i];
		size_t j;

		if (!map__is_module(machine, map))
			continue;
		for (j = 0; j < nr; j++)
			if (!strcmp(mods[j].name, map->dso->long_name))
				break;
		fit = j < nr && mods[j].start == map->start;
	}
out:
	free(line);
	free(mods);
	fclose(f);
	return fit;
}

/* inserts a kernel map over [start, end) */
static int kmaps__add(struct machine *machine, u64 start, u64 end)
{
	struct map *map = map__new(start, end - start, start, machine->kernel_dso);
	int ret;

	if (!map)
		return -ENOMEM;
	map->reloc = machine->kernel_map->reloc;
	ret = maps__insert(machine->kmaps, map);
	map__put(map);
	return ret;
}

/* upstream's maps__merge_in(): the parts of [start, end) no map covers become kernel maps */
static int kmaps__merge_in(struct machine *machine, u64 start, u64 end)
{
	struct maps *kmaps = machine->kmaps;
	u64 gap[2 * 64];
	size_t nr = 0;
	u64 pos = start;

	for (size_t i = 0; i < kmaps->nr && pos < end; i++) {
		const struct map *m = kmaps->entries[i];

		if (m->end <= pos)
			continue;
		if (m->start >= end)
			break;
		if (m->start > pos) {
			/* more holes than BPF programs in one segment: the rest in a second pass */
			if (nr == sizeof(gap) / sizeof(gap[0]))
				break;
			gap[nr++] = pos;
			gap[nr++] = m->start;
		}
		pos = m->end;
	}
	if (pos < end && nr < sizeof(gap) / sizeof(gap[0])) {
		gap[nr++] = pos;
		gap[nr++] = end;
		pos = end;
	}
	for (size_t i = 0; i < nr; i += 2) {
		int ret = kmaps__add(machine, gap[i], gap[i + 1]);

		if (ret)
			return ret;
	}
	return pos < end ? kmaps__merge_in(machine, pos, end) : 0;
}

/*
 * upstream's dso__load_kcore() on the maps: the kernel's and the BPF programs' stay, the
 * kernel's moves onto the segment repl, the others fill the gaps
 */
static int kmaps__from_kcore(struct machine *machine, const struct kcore_elf *k, size_t repl)
{
	struct maps *kmaps = machine->kmaps;
	struct map *kmap = machine->kernel_map;
	size_t j = 0;
	int ret;

	for (size_t i = 0; i < kmaps->nr; i++) {
		struct map *m = kmaps->entries[i];

		if (m != kmap && map__is_bpf_prog(m))
			kmaps->entries[j++] = m;
		else
			map__put(m);	/* the kernel map lives on in machine->kernel_map */
	}
	kmaps->nr = j;
	kmaps->last = NULL;
	kmap->start = k->segs[repl].vaddr;
	kmap->end = k->segs[repl].vaddr + k->segs[repl].len;
	kmap->pgoff = kmap->start;
	ret = maps__insert(kmaps, kmap);
	/* upstream goes through its list of segments backwards (list_add) */
	for (size_t i = k->nr_segs; !ret && i-- > 0;)
		if (i != repl)
			ret = kmaps__merge_in(machine, k->segs[i].vaddr,
					      k->segs[i].vaddr + k->segs[i].len);
	return ret;
}

struct kcore_sym {
	u64		start, end;
	const char	*name;		/* borrowed from its dso's table */
	u8		binding, type;
};

static int kcore_sym__cmp(const void *a, const void *b)
{
	const struct kcore_sym *l = a, *r = b;

	return l->start < r->start ? -1 : l->start > r->start;
}

static int kcore_syms__add_dso(struct kcore_sym **syms, size_t *nr, const struct dso *dso)
{
	struct kcore_sym *n;

	if (!dso->symbols.nr)
		return 0;
	n = realloc(*syms, (*nr + dso->symbols.nr) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	*syms = n;
	for (size_t i = 0; i < dso->symbols.nr; i++) {
		const struct symbol *s = &dso->symbols.syms[i];

		n[(*nr)++] = (struct kcore_sym){ s->start, s->end, s->name, s->binding, s->type };
	}
	return 0;
}

/*
 * upstream's maps__split_kallsyms_for_kcore(): every kallsyms symbol (the kernel's and the
 * modules', already given their ends) goes to the kernel if a kernel map holds its start,
 * cut at that map's end; in a BPF program's map or in none it goes
 */
static int kernel__symbols_from_kcore(struct machine *machine)
{
	struct dso *kernel = machine->kernel_dso;
	struct kcore_sym *syms = NULL;
	struct symbols table;
	struct hashmap_node *pos;
	size_t nr = 0, bkt;
	int ret;

	ret = kcore_syms__add_dso(&syms, &nr, kernel);
	hashmap__for_each(&machine->dsos.map, pos, bkt) {
		const struct dso *d = container_of(pos, struct dso, node);

		/* the modules' dsos kallsyms filled ("[name]"), not the KSYMBOLs' */
		if (!ret && d->kind == DSO_KIND_KMODULE && !d->ksymbol && d->long_name[0] == '[')
			ret = kcore_syms__add_dso(&syms, &nr, d);
	}
	if (ret)
		goto out_free;
	qsort(syms, nr, sizeof(*syms), kcore_sym__cmp);
	symbols__init(&table);
	for (size_t i = 0; i < nr; i++) {
		const struct map *m = maps__find(machine->kmaps, syms[i].start);

		if (!m || m->dso != kernel)
			continue;
		ret = symbols__add(&table, syms[i].start, syms[i].end < m->end ? syms[i].end : m->end,
				   syms[i].name, syms[i].binding, syms[i].type);
		if (ret) {
			symbols__exit(&table);
			goto out_free;
		}
	}
	symbols__seal(&table);
	symbols__exit(&kernel->symbols);
	kernel->symbols = table;
out_free:
	free(syms);
	return ret;
}

int machine__load_kcore(struct machine *machine, const struct kcore_kallsyms *ks)
{
	char kcore_path[PATH_MAX], modules_path[PATH_MAX];
	struct kcore_elf k;
	size_t repl;
	int fd, ret;

	if (!machine->kernel_dso || !machine->kernel_map ||
	    beside_kallsyms(ks->path, "kcore", kcore_path, sizeof(kcore_path)) ||
	    beside_kallsyms(ks->path, "modules", modules_path, sizeof(modules_path)))
		return 0;
	/* the recorded reference symbol (a zero one: kptr_restrict at record time) is the file's */
	if (machine->ref_reloc_sym_name && machine->ref_reloc_sym_addr &&
	    (!ks->have_ref || ks->ref_addr != machine->ref_reloc_sym_addr))
		return 0;
	if (!kcore__modules_fit(machine, modules_path))
		return 0;
	fd = open(kcore_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ret = kcore__read(&k, fd, kcore_path, NULL);
	close(fd);
	if (ret || !k.nr_segs) {
		kcore__exit(&k);
		return 0;
	}
	/* the smallest segment holding _stext; without one, the one upstream's list has first */
	repl = k.nr_segs - 1;
	if (ks->have_stext) {
		bool found = false;

		for (size_t i = 0; i < k.nr_segs; i++) {
			const struct kcore_seg *s = &k.segs[i];

			if (ks->stext < s->vaddr || ks->stext - s->vaddr >= s->len)
				continue;
			if (!found || s->len < k.segs[repl].len)
				repl = i;
			found = true;
		}
	}
	ret = kmaps__from_kcore(machine, &k, repl);
	kcore__exit(&k);
	if (!ret)
		ret = kernel__symbols_from_kcore(machine);
	if (!ret) {
		free(machine->kernel_dso->kcore_path);
		machine->kernel_dso->kcore_path = strdup(kcore_path);
		if (!machine->kernel_dso->kcore_path)
			ret = -ENOMEM;
	}
	/* resolutions cached before the maps changed are stale */
	machine->maps_gen++;
	return ret ? ret : 1;
}
