// SPDX-License-Identifier: GPL-2.0
/*
 * symbol-elf.c - symbols from ELF files, as upstream perf 7.2 reads them.
 *
 * Which symbols, in which order, and which fixups run between the steps all follow perf, so
 * that symbol.c ends up with the same table perf has (see symbol.c for why order matters).
 * One deliberate difference in representation: perf moves every symbol to file-offset space
 * while loading; we keep ELF vaddrs and translate the sampled file offset through the PT_LOAD
 * segments instead (dso__find_symbol_by_offset()), which gives the same symbol and offset.
 * PLT entries are therefore placed at their section's sh_addr; only the names perf derives
 * from file offsets ("offset_0x...@plt") keep using sh_offset.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include <gelf.h>
#include "build-id.h"
#include "elf-section.h"
#include "demangle.h"
#include "dso.h"
#include "symbol-elf.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH	258
#endif
#ifndef R_X86_64_IRELATIVE
#define R_X86_64_IRELATIVE	37
#endif

static const char *section_name(Elf *elf, const GElf_Shdr *shdr)
{
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return "";
	name = elf_strptr(elf, shstrndx, shdr->sh_name);
	return name ? name : "";
}

/* ---- build id and debuglink ---- */


static int elf_read_build_id(Elf *elf, u8 *bid, size_t *size)
{
	return build_id__read_elf(elf, bid, size);
}

static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static Elf *elf_open(const char *path, int *fdp)
{
	int fd;
	Elf *elf;

	/* a FIFO or device under symfs must not block us */
	if (!is_regular_file(path)) {
		errno = ENOENT;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(fd);
		errno = ENOEXEC;
		return NULL;
	}
	*fdp = fd;
	return elf;
}

int filename__read_build_id(const char *path, u8 *bid, size_t *size)
{
	return build_id__read_file(path, bid, size);
}

int filename__read_debuglink(const char *path, char *buf, size_t size)
{
	int fd, err = -ENOENT;
	Elf *elf = elf_open(path, &fd);
	GElf_Shdr shdr;
	Elf_Data *data;
	Elf_Scn *sec;

	if (!elf)
		return -errno;
	sec = elf__section_by_name(elf, ".gnu_debuglink", &shdr, NULL);
	data = sec ? elf_getdata(sec, NULL) : NULL;
	if (data && data->d_buf && data->d_size && size) {
		/* the section starts with the NUL-terminated file name, then a CRC we ignore */
		size_t len = strnlen(data->d_buf, data->d_size);

		if (len && len < size) {
			memcpy(buf, data->d_buf, len);
			buf[len] = '\0';
			err = 0;
		}
	}
	elf_end(elf);
	close(fd);
	return err;
}

/* ---- symbol sources ---- */

static bool build_id_equal(const u8 *want, size_t want_size, const u8 *have, size_t have_size)
{
	/* an old recording's 20-byte id may be a shorter id padded with zeros */
	if (want_size > have_size && want_size == BUILD_ID_SIZE_MAX) {
		if (memcmp(want, have, have_size))
			return false;
		for (size_t i = have_size; i < want_size; i++)
			if (want[i])
				return false;
		return true;
	}
	return want_size == have_size && !memcmp(want, have, want_size);
}

int symsrc__init(struct symsrc *ss, const char *path, const u8 *want_bid, size_t want_size)
{
	GElf_Shdr shdr;
	int err;

	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	ss->demangle = true;
	ss->elf = elf_open(path, &ss->fd);
	if (!ss->elf)
		return errno == ENOEXEC ? -DSO_LOAD_ERRNO__INVALID_ELF : -errno;
	if (!gelf_getehdr(ss->elf, &ss->ehdr)) {
		err = -DSO_LOAD_ERRNO__INVALID_ELF;
		goto out_end;
	}
	/* perf never uses a file whose build id differs from the DSO's */
	if (want_bid && want_size) {
		u8 bid[BUILD_ID_SIZE_MAX];
		size_t size = 0;

		if (elf_read_build_id(ss->elf, bid, &size)) {
			err = -DSO_LOAD_ERRNO__CANNOT_READ_BUILDID;
			goto out_end;
		}
		if (!build_id_equal(want_bid, want_size, bid, size)) {
			err = -DSO_LOAD_ERRNO__MISMATCHING_BUILDID;
			goto out_end;
		}
	}
	ss->symtab = elf__section_by_name(ss->elf, ".symtab", &shdr, &ss->symtab_idx);
	if (ss->symtab && shdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = elf__section_by_name(ss->elf, ".dynsym", &shdr, &ss->dynsym_idx);
	if (ss->dynsym && shdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	ss->path = strdup(path);
	if (!ss->path) {
		err = -ENOMEM;
		goto out_end;
	}
	return 0;

out_end:
	elf_end(ss->elf);
	close(ss->fd);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	return err;
}

void symsrc__exit(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* ---- .symtab / .dynsym ---- */

static bool sym_is_function(const GElf_Sym *sym)
{
	u8 type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF;
}

static bool sym_is_object(const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_OBJECT && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF;
}

/* untyped symbols count when they look like code or data labels (checked with the section) */
static bool sym_is_label(const GElf_Sym *sym)
{
	u8 vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

static bool is_mapping_symbol(const GElf_Ehdr *ehdr, const char *name)
{
	if (ehdr->e_machine == EM_ARM || ehdr->e_machine == EM_AARCH64)
		return name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		       (name[2] == '\0' || name[2] == '.');
	if (ehdr->e_machine == EM_RISCV)
		return name[0] == '$' && name[1] && strchr("dx", name[1]);
	return false;
}

/* a symbol table's entries, their number and its string table's section header */
static int symtab__open(Elf *elf, Elf_Scn *sec, GElf_Shdr *shdr, Elf_Data **data,
			size_t *nr_syms)
{
	if (!sec || !gelf_getshdr(sec, shdr) || !shdr->sh_entsize)
		return -DSO_LOAD_ERRNO__INVALID_ELF;
	*data = elf_getdata(sec, NULL);
	if (!*data || !elf_getscn(elf, shdr->sh_link))
		return -DSO_LOAD_ERRNO__INVALID_ELF;
	*nr_syms = shdr->sh_size / shdr->sh_entsize;
	return 0;
}

/* the symbols perf keeps: functions, objects and labels (these checked with the section) */
static bool sym_is_wanted(const GElf_Sym *sym, bool *label)
{
	*label = sym_is_label(sym);
	return *label || sym_is_function(sym) || sym_is_object(sym);
}

/* an ELF symbol at start (its size kept), its name demangled unless told not to */
static long symbols__insert_elf(struct symbols *syms, const GElf_Sym *sym, u64 start,
				const char *name, bool demangle)
{
	char *demangled = demangle ? demangle_sym(name) : NULL;
	long ret = symbols__insert(syms, start, sym->st_size ? start + sym->st_size : start,
				   demangled ? demangled : name, GELF_ST_BIND(sym->st_info),
				   GELF_ST_TYPE(sym->st_info));

	free(demangled);
	return ret;
}

static int load_table(struct dso *dso, struct symsrc *syms_ss, struct symsrc *runtime_ss,
		      bool dynsym)
{
	Elf *elf = syms_ss->elf;
	GElf_Shdr shdr;
	Elf_Data *data;
	size_t nr_syms;
	int nr = 0;
	int ret = symtab__open(elf, dynsym ? syms_ss->dynsym : syms_ss->symtab, &shdr, &data,
			       &nr_syms);

	if (ret)
		return ret;

	for (size_t idx = 0; idx < nr_syms; idx++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		Elf_Scn *ssec;
		const char *name, *secname;
		bool label;
		u64 start;
		long err;

		if (!gelf_getsym(data, (int)idx, &sym))
			return -DSO_LOAD_ERRNO__INVALID_ELF;
		if (!sym_is_wanted(&sym, &label))
			continue;
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!name)
			return -DSO_LOAD_ERRNO__INVALID_ELF;
		if (is_mapping_symbol(&syms_ss->ehdr, name))
			continue;
		if (sym.st_shndx == SHN_ABS)
			continue;
		/* perf gives up on the whole table here (SHN_COMMON, SHN_XINDEX, bad index) */
		ssec = elf_getscn(elf, sym.st_shndx);
		if (!ssec || !gelf_getshdr(ssec, &sh))
			return -DSO_LOAD_ERRNO__INVALID_ELF;
		/* e.g. .gnu.warning.*: never loaded, so nothing can be sampled there */
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		secname = section_name(elf, &sh);
		/* a debug file's NOBITS copy of a section: take its header from the real file */
		if (sh.sh_type == SHT_NOBITS) {
			ssec = elf_getscn(runtime_ss->elf, sym.st_shndx);
			if (!ssec || !gelf_getshdr(ssec, &sh))
				return -DSO_LOAD_ERRNO__INVALID_ELF;
			secname = section_name(runtime_ss->elf, &sh);
		}
		if (label && !strstr(secname, "text") && !strstr(secname, "data"))
			continue;
		start = sym.st_value;
		/* Thumb functions carry their mode in bit 0 */
		if (syms_ss->ehdr.e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			start &= ~(u64)1;
		err = symbols__insert_elf(&dso->symbols, &sym, start, name, syms_ss->demangle);
		if (err < 0)
			return (int)err;
		nr++;
	}
	if (nr > 0)
		symbols__fixup(&dso->symbols, false);
	return nr;
}

int vmlinux__load_sym(struct symsrc *ss, const char *ref_name, u64 *ref_addr,
		      struct dso *(*section_dso)(void *arg, const char *name, u64 addr, u64 size,
						 u64 offset),
		      void *arg)
{
	Elf *elf = ss->elf;
	GElf_Shdr shdr;
	Elf_Data *data;
	size_t nr_syms;
	int nr = 0;
	int ret = symtab__open(elf, ss->symtab, &shdr, &data, &nr_syms);

	if (ret)
		return ret;
	for (size_t idx = 0; idx < nr_syms; idx++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		Elf_Scn *sec;
		const char *name, *secname;
		struct dso *dso;
		bool label;
		long err;

		if (!gelf_getsym(data, (int)idx, &sym))
			return -DSO_LOAD_ERRNO__INVALID_ELF;
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!name)
			return -DSO_LOAD_ERRNO__INVALID_ELF;
		/* the reference symbol relocates everything, whatever its type */
		if (ref_name && !*ref_addr && !strcmp(name, ref_name))
			*ref_addr = sym.st_value;
		if (!sym_is_wanted(&sym, &label))
			continue;
		if (is_mapping_symbol(&ss->ehdr, name) || sym.st_shndx == SHN_ABS ||
		    sym.st_shndx >= SHN_LORESERVE)
			continue;
		sec = elf_getscn(elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &sh))
			return -DSO_LOAD_ERRNO__INVALID_ELF;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		secname = section_name(elf, &sh);
		if (label && !strstr(secname, "text") && !strstr(secname, "data"))
			continue;
		dso = section_dso(arg, secname, sh.sh_addr, sh.sh_size, sh.sh_offset);
		if (!dso)
			return -ENOMEM;
		err = symbols__insert_elf(&dso->symbols, &sym, sym.st_value, name, ss->demangle);
		if (err < 0)
			return (int)err;
		nr++;
	}
	return nr;
}

int dso__load_sym(struct dso *dso, struct symsrc *syms_ss, struct symsrc *runtime_ss)
{
	int nr = 0, err;

	/* perf 7.2 loads both tables of the file it chose, .symtab first */
	if (syms_ss->symtab) {
		err = load_table(dso, syms_ss, runtime_ss, false);
		if (err < 0)
			return err;
		nr += err;
	}
	if (syms_ss->dynsym) {
		err = load_table(dso, syms_ss, runtime_ss, true);
		if (err < 0)
			return err;
		nr += err;
	}
	return nr;
}

/* ---- PLT ---- */

static bool plt_sizes(const GElf_Ehdr *ehdr, const GElf_Shdr *shdr, u64 *hdr_size,
		      u64 *ent_size)
{
	switch (ehdr->e_machine) {
	case EM_ARM:
		*hdr_size = 20;
		*ent_size = 12;
		return true;
	case EM_AARCH64:
	case EM_LOONGARCH:
		*hdr_size = 32;
		*ent_size = 16;
		return true;
	case EM_SPARC:
		*hdr_size = 48;
		*ent_size = 12;
		return true;
	case EM_SPARCV9:
		*hdr_size = 128;
		*ent_size = 32;
		return true;
	case EM_386:
	case EM_X86_64:
		*ent_size = shdr->sh_entsize;
		/* 8 or 16; anything else: trust the alignment */
		if (*ent_size != 8 && *ent_size != 16)
			*ent_size = shdr->sh_addralign == 8 ? 8 : 16;
		*hdr_size = *ent_size;
		break;
	default:
		*hdr_size = *ent_size = shdr->sh_entsize;
		break;
	}
	return *ent_size != 0;
}

static bool machine_is_x86(const GElf_Ehdr *ehdr)
{
	return ehdr->e_machine == EM_386 || ehdr->e_machine == EM_X86_64;
}

struct got_slot {
	u64	offset;
	u32	sym_idx;
};

static int cmp_got_slot(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

struct rela_dyn {
	struct got_slot	*slots;		/* .rela.dyn entries with a symbol, by r_offset */
	size_t		nr;
	Elf_Data	*dynsym;
	size_t		dynstr_idx;
};

static int rela_dyn__init(struct rela_dyn *rd, Elf *elf)
{
	GElf_Shdr shdr, dshdr;
	Elf_Scn *scn, *dscn;
	Elf_Data *data;
	size_t nr;

	memset(rd, 0, sizeof(*rd));
	scn = elf__section_by_name(elf, ".rela.dyn", &shdr, NULL);
	/* a NOBITS section's size is no count of anything in the file */
	if (!scn || !shdr.sh_link || !shdr.sh_entsize || shdr.sh_type == SHT_NOBITS)
		return 0;
	data = elf_getdata(scn, NULL);
	dscn = elf_getscn(elf, shdr.sh_link);
	if (!data || !dscn || !gelf_getshdr(dscn, &dshdr) || !dshdr.sh_link)
		return 0;
	rd->dynsym = elf_getdata(dscn, NULL);
	rd->dynstr_idx = dshdr.sh_link;
	/* count what is there, not what a damaged header claims */
	nr = data->d_size / shdr.sh_entsize;
	if (!rd->dynsym || !elf_getdata(elf_getscn(elf, dshdr.sh_link), NULL) || !nr)
		return 0;
	rd->slots = calloc(nr, sizeof(*rd->slots));
	if (!rd->slots)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		GElf_Rela rela;

		if (!gelf_getrela(data, (int)i, &rela))
			break;
		if (GELF_R_SYM(rela.r_info))
			rd->slots[rd->nr++] = (struct got_slot){ rela.r_offset,
								 (u32)GELF_R_SYM(rela.r_info) };
	}
	qsort(rd->slots, rd->nr, sizeof(*rd->slots), cmp_got_slot);
	return 0;
}

/* bytes from the start of an x86-64 PLT entry to its GOT slot: jmp *disp(%rip) */
static u32 x86_64_plt_disp(const u8 *p, size_t avail)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	size_t n = 0;
	u32 disp;

	if (avail >= sizeof(endbr64) && !memcmp(p, endbr64, sizeof(endbr64)))
		n += sizeof(endbr64);
	if (n < avail && p[n] == 0xf2)		/* bnd prefix */
		n++;
	if (n + 6 > avail || p[n] != 0xff || p[n + 1] != 0x25)
		return 0;
	n += 2;
	memcpy(&disp, p + n, sizeof(disp));
	return (u32)(n + 4) + le32toh(disp);
}

static int synthesize_plt_got(struct dso *dso, Elf *elf, const GElf_Ehdr *ehdr, bool demangle)
{
	struct rela_dyn rd;
	GElf_Shdr shdr;
	Elf_Data *data = NULL;
	Elf_Scn *scn;
	char name[1024];
	int err = 0;

	scn = elf__section_by_name(elf, ".plt.got", &shdr, NULL);
	if (!scn || !shdr.sh_entsize || shdr.sh_type == SHT_NOBITS)
		return 0;
	/* one symbol per entry: the size must be backed by the file, not just claimed */
	data = elf_getdata(scn, NULL);
	if (!data || data->d_size < shdr.sh_size)
		return 0;
	memset(&rd, 0, sizeof(rd));
	if (ehdr->e_machine == EM_X86_64) {
		err = rela_dyn__init(&rd, elf);
		if (err)
			return err;
	}
	for (u64 i = 0; i < shdr.sh_size; i += shdr.sh_entsize) {
		bool named = false;

		if (rd.slots && data->d_buf && i < data->d_size) {
			u32 disp = x86_64_plt_disp((const u8 *)data->d_buf + i, data->d_size - i);
			/*
			 * perf adds the displacement to the entry's file offset and looks that up
			 * among GOT vaddrs: right whenever text is mapped at its file offset (PIE,
			 * shared objects); elsewhere the entry stays "offset_...", as in perf.
			 */
			struct got_slot key = { .offset = shdr.sh_offset + data->d_off + i + disp };
			struct got_slot *slot = disp ? bsearch(&key, rd.slots, rd.nr, sizeof(key),
							       cmp_got_slot) : NULL;
			GElf_Sym sym;
			const char *sname;

			if (slot && gelf_getsym(rd.dynsym, (int)slot->sym_idx, &sym)) {
				sname = elf_strptr(elf, rd.dynstr_idx, sym.st_name);
				if (sname && *sname) {
					char *demangled = demangle ? demangle_sym(sname) : NULL;

					snprintf(name, sizeof(name), "%s@plt",
						 demangled ? demangled : sname);
					free(demangled);
					named = true;
				}
			}
		}
		if (!named)
			snprintf(name, sizeof(name), "offset_%#" PRIx64 "@plt", shdr.sh_offset + i);
		if (symbols__insert(&dso->symbols, shdr.sh_addr + i, shdr.sh_addr + i + shdr.sh_entsize,
				    name, STB_GLOBAL, STT_FUNC) < 0) {
			err = -ENOMEM;
			break;
		}
	}
	free(rd.slots);
	return err;
}

struct plt_slot {
	u64	offset;
	u32	idx;
	bool	valid;
	GElf_Rela rela;
};

/* PLT order is GOT slot order; ties keep the relocation order */
static int cmp_plt_slot(const void *a, const void *b)
{
	const struct plt_slot *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static bool rel_get(Elf_Data *data, bool is_rela, size_t i, GElf_Rela *rela)
{
	GElf_Rel rel;

	if (is_rela)
		return gelf_getrela(data, (int)i, rela) != NULL;
	if (!gelf_getrel(data, (int)i, &rel))
		return false;
	rela->r_offset = rel.r_offset;
	rela->r_info = rel.r_info;
	rela->r_addend = 0;
	return true;
}

/* an IRELATIVE slot has no symbol name: name it after the IFUNC its addend points at */
static bool ifunc_plt_name(struct dso *dso, Elf *elf, const GElf_Ehdr *ehdr, bool is_rela,
			   const GElf_Rela *rela, char *buf, size_t size)
{
	u64 addr = (u64)rela->r_addend;
	bool in_load = false;
	size_t phnum;
	long idx;

	if (ehdr->e_machine != EM_X86_64 || !is_rela ||
	    GELF_R_TYPE(rela->r_info) != R_X86_64_IRELATIVE)
		return false;
	if (elf_getphdrnum(elf, &phnum))
		return false;
	for (size_t i = 0; i < phnum && !in_load; i++) {
		GElf_Phdr ph;
		u64 sz;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		in_load = sz && addr >= ph.p_vaddr && addr - ph.p_vaddr < sz;
	}
	if (!in_load)
		return false;
	idx = symbols__find_idx(&dso->symbols, addr);
	if (idx < 0 || symbols__at(&dso->symbols, idx)->start != addr ||
	    !symbols__is_ifunc(&dso->symbols, idx))
		return false;
	snprintf(buf, size, "%s@plt", symbols__name(&dso->symbols, idx));
	return true;
}

int dso__synthesize_plt_symbols(struct dso *dso, struct symsrc *ss)
{
	Elf *elf = ss->elf;
	const GElf_Ehdr *ehdr = &ss->ehdr;
	GElf_Shdr plt, plt_sec, rel_shdr, sym_shdr;
	Elf_Scn *rel_scn, *sym_scn;
	Elf_Data *syms;
	struct plt_slot *slots;
	Elf_Data *rel_data;
	bool is_rela;
	u64 hdr_size, ent_size, plt_vaddr, plt_off, nr_entries;
	char name[1024];
	long plt_sym, f;
	bool lazy;
	int nr = 0;

	if (!elf__section_by_name(elf, ".plt", &plt, NULL))
		return 0;
	/* fixup_end may have stretched the symbol before .plt (e.g. _init) over it */
	f = symbols__find_idx(&dso->symbols, plt.sh_addr);
	if (f >= 0) {
		struct symbol *sym = symbols__at(&dso->symbols, f);

		if (sym->start < plt.sh_addr && sym->end > plt.sh_addr)
			sym->end = plt.sh_addr;
	}
	if (!plt_sizes(ehdr, &plt, &hdr_size, &ent_size))
		return 0;
	plt_sym = symbols__insert(&dso->symbols, plt.sh_addr, plt.sh_addr + hdr_size, ".plt",
				  STB_GLOBAL, STT_FUNC);
	if (plt_sym < 0)
		return (int)plt_sym;
	if (machine_is_x86(ehdr)) {
		int err = synthesize_plt_got(dso, elf, ehdr, ss->demangle);

		if (err)
			return err;
	}
	if (machine_is_x86(ehdr) && elf__section_by_name(elf, ".plt.sec", &plt_sec, NULL)) {
		/* IBT: .plt keeps the lazy stubs, the entries that get called are in .plt.sec */
		if (!plt_sizes(ehdr, &plt_sec, &hdr_size, &ent_size))
			return 0;
		symbols__at(&dso->symbols, plt_sym)->end = plt.sh_addr + plt.sh_size;
		plt_vaddr = plt_sec.sh_addr;
		plt_off = plt_sec.sh_offset;
		lazy = false;
	} else {
		plt_vaddr = plt.sh_addr;
		plt_off = plt.sh_offset;
		lazy = true;
	}

	rel_scn = elf__section_by_name(elf, ".rela.plt", &rel_shdr, NULL);
	if (!rel_scn)
		rel_scn = elf__section_by_name(elf, ".rel.plt", &rel_shdr, NULL);
	if (!rel_scn || (rel_shdr.sh_type != SHT_RELA && rel_shdr.sh_type != SHT_REL) ||
	    !rel_shdr.sh_link || !rel_shdr.sh_entsize)
		return 0;
	/* a static executable's IFUNC PLT refers to .symtab */
	if (rel_shdr.sh_link == ss->dynsym_idx)
		sym_scn = ss->dynsym;
	else if (rel_shdr.sh_link == ss->symtab_idx)
		sym_scn = ss->symtab;
	else
		return 0;
	if (!sym_scn || !gelf_getshdr(sym_scn, &sym_shdr))
		return 0;
	rel_data = elf_getdata(rel_scn, NULL);
	syms = elf_getdata(sym_scn, NULL);
	if (!rel_data || !syms)
		return 0;
	{
		Elf_Data *strs = elf_getdata(elf_getscn(elf, sym_shdr.sh_link), NULL);

		if (!strs || !strs->d_size)
			return 0;
	}
	is_rela = rel_shdr.sh_type == SHT_RELA;
	nr_entries = rel_shdr.sh_size / rel_shdr.sh_entsize;
	/* a damaged header may claim more relocations than the file holds */
	if (nr_entries > rel_data->d_size / rel_shdr.sh_entsize)
		return 0;

	if (lazy) {
		/* as many entries as relocations: not lazy, so no header */
		if (nr_entries * ent_size == plt.sh_size)
			symbols__remove(&dso->symbols, plt_sym);
		else {
			plt_vaddr += hdr_size;
			plt_off += hdr_size;
		}
	}
	if (nr_entries > UINT32_MAX)
		return 0;
	slots = calloc(nr_entries ? nr_entries : 1, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (u32 i = 0; i < nr_entries; i++) {
		slots[i].idx = i;
		slots[i].valid = rel_get(rel_data, is_rela, i, &slots[i].rela);
		slots[i].offset = slots[i].rela.r_offset;
	}
	/* x86 emits IRELATIVE slots out of PLT order */
	if (machine_is_x86(ehdr))
		qsort(slots, nr_entries, sizeof(*slots), cmp_plt_slot);

	for (u64 i = 0; i < nr_entries; i++) {
		const GElf_Rela *rela = &slots[i].rela;
		GElf_Sym sym;
		const char *sname = NULL;

		if (!slots[i].valid)
			break;
		if (gelf_getsym(syms, (int)GELF_R_SYM(rela->r_info), &sym))
			sname = elf_strptr(elf, sym_shdr.sh_link, sym.st_name);
		if (sname && *sname) {
			char *demangled = ss->demangle ? demangle_sym(sname) : NULL;

			snprintf(name, sizeof(name), "%s@plt", demangled ? demangled : sname);
			free(demangled);
		} else if (!ifunc_plt_name(dso, elf, ehdr, is_rela, rela, name, sizeof(name)))
			snprintf(name, sizeof(name), "offset_%#" PRIx64 "@plt", plt_off);
		if (symbols__insert(&dso->symbols, plt_vaddr, plt_vaddr + ent_size, name,
				    STB_GLOBAL, STT_FUNC) < 0) {
			free(slots);
			return -ENOMEM;
		}
		plt_vaddr += ent_size;
		plt_off += ent_size;
		nr++;
	}
	free(slots);
	return nr;
}

/* ---- segments ---- */

static int cmp_seg(const void *a, const void *b)
{
	const struct dso_segment *x = a, *y = b;

	return x->file_off < y->file_off ? -1 : x->file_off > y->file_off;
}

/*
 * A debug file (objcopy --only-keep-debug) as the only file: its code segment has no bytes
 * (p_filesz 0) and the file offsets of its program headers are not the binary's (binutils
 * 2.40 writes 0 for the code, 2.45+ packs the sections it kept, .eh_frame's segment at the
 * code's offset). Its first PT_LOAD, offset 0 with the ELF header, is the one still true:
 * with it alone, a file offset maps as in the binary's usual layout (code at the first
 * segment's displacement), the best a debug file can tell.
 */
static bool symsrc__debug_only(struct symsrc *ss, size_t phnum)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(ss->elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X) && !ph.p_filesz && ph.p_memsz)
			return true;
	}
	return false;
}

int dso__read_segments(struct dso *dso, struct symsrc *ss)
{
	struct dso_segment *segs;
	size_t phnum, nr = 0;
	bool first_only;
	GElf_Shdr text;

	dso->is_exec = ss->ehdr.e_type == ET_EXEC;
	dso->text_offset = 0;
	if (elf__section_by_name(ss->elf, ".text", &text, NULL))
		dso->text_offset = text.sh_addr - text.sh_offset;
	if (elf_getphdrnum(ss->elf, &phnum))
		return -DSO_LOAD_ERRNO__INVALID_ELF;
	first_only = symsrc__debug_only(ss, phnum);
	/* count first: phnum comes from the file and may be absurd */
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ss->elf, (int)i, &ph))
			return -DSO_LOAD_ERRNO__INVALID_ELF;
		/* nothing of a segment without file bytes can be mapped from the file */
		if (ph.p_type == PT_LOAD && ph.p_filesz && !(first_only && nr))
			nr++;
	}
	segs = calloc(nr ? nr : 1, sizeof(*segs));
	if (!segs)
		return -ENOMEM;
	nr = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ss->elf, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		if (first_only && nr)
			break;
		segs[nr++] = (struct dso_segment){ .file_off = ph.p_offset,
						   .file_size = ph.p_filesz,
						   .vaddr = ph.p_vaddr };
	}
	qsort(segs, nr, sizeof(*segs), cmp_seg);
	free(dso->segs);
	dso->segs = segs;
	dso->nr_segs = nr;
	return 0;
}
