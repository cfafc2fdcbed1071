// SPDX-License-Identifier: GPL-2.0
/* The ELF file of one piece of JIT'd code; see jit-elf.h for its layout */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jit-elf.h"
#include "sha1.h"

#define ALIGN_UP(x, a)	(((x) + (a) - 1) & ~((u64)(a) - 1))

/* the section names, each at its offset in .shstrtab */
static const char shstrtab[] =
	"\0.text\0.eh_frame\0.eh_frame_hdr\0.shstrtab\0.symtab\0.strtab\0.note.gnu.build-id";
enum {
	NAME_TEXT = 1,
	NAME_EH_FRAME = NAME_TEXT + sizeof(".text"),
	NAME_EH_FRAME_HDR = NAME_EH_FRAME + sizeof(".eh_frame"),
	NAME_SHSTRTAB = NAME_EH_FRAME_HDR + sizeof(".eh_frame_hdr"),
	NAME_SYMTAB = NAME_SHSTRTAB + sizeof(".shstrtab"),
	NAME_STRTAB = NAME_SYMTAB + sizeof(".symtab"),
	NAME_NOTE = NAME_STRTAB + sizeof(".strtab"),
};

struct build_id_note {
	u32	namesz, descsz, type;
	char	name[4];
	u8	id[SHA1_DIGEST_SIZE];
};

static void jit_elf__build_id(const struct jit_code *jc, u8 id[SHA1_DIGEST_SIZE])
{
	struct sha1 s;

	sha1__init(&s);
	sha1__update(&s, &jc->addr, sizeof(jc->addr));
	sha1__update(&s, jc->name, strlen(jc->name) + 1);
	sha1__update(&s, jc->code, jc->size);
	sha1__final(&s, id);
}

/* a section of the file at offset off (and address addr when SHF_ALLOC), data borrowed */
static Elf_Scn *jit_elf__section(Elf *e, u32 name, u32 type, u64 flags, u64 addr, u64 off,
				 void *buf, size_t size, size_t align, Elf_Type dtype)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !(d = elf_newdata(scn)) || !gelf_getshdr(scn, &sh))
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = align;
	d->d_off = 0;
	d->d_version = EV_CURRENT;
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addr = addr;
	sh.sh_offset = off;
	sh.sh_size = size;
	sh.sh_addralign = align;
	return gelf_update_shdr(scn, &sh) ? scn : NULL;
}

int jit_elf__write(const char *path, const struct jit_code *jc, u8 build_id[20],
		   struct perf_err *err)
{
	const int cls = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
	size_t namelen = strlen(jc->name);
	size_t eh_size = 0, hdr_size = 0, sym_size, strtab_size = namelen + 2;
	u64 off, eh_off = 0, hdr_off = 0, shstr_off, sym_off, str_off, note_off;
	struct build_id_note note = { .namesz = 4, .descsz = SHA1_DIGEST_SIZE, .type = 3,
				      .name = "GNU" };
	char *strtab = NULL;
	void *symbuf = NULL;
	Elf_Scn *symscn = NULL;
	Elf *e = NULL;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	GElf_Sym sym;
	Elf_Data *d;
	size_t shstrndx;
	int fd, ret = -EIO;

	if (jc->unwind && jc->unwind_hdr_size <= jc->unwind_size) {
		eh_size = jc->unwind_size - jc->unwind_hdr_size;
		hdr_size = jc->unwind_hdr_size;
	}
	jit_elf__build_id(jc, note.id);
	memcpy(build_id, note.id, SHA1_DIGEST_SIZE);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return perf_err__set(err, EINVAL, "libelf: %s", elf_errmsg(-1));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return perf_err__set(err, errno, "cannot write %s: %m", path);
	sym_size = 2 * (cls == ELFCLASS64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym));
	strtab = calloc(1, strtab_size);
	symbuf = calloc(1, sym_size);
	if (!strtab || !symbuf) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out;
	}
	memcpy(strtab + 1, jc->name, namelen);

	/* the file's layout: headers, the code at its fixed offset, then everything else */
	off = JIT_ELF_TEXT_OFFSET + jc->size;
	if (jc->unwind && hdr_size) {
		eh_off = ALIGN_UP(off, 8);
		hdr_off = ALIGN_UP(eh_off + eh_size, 4);
		off = hdr_off + hdr_size;
	}
	shstr_off = off;
	sym_off = ALIGN_UP(shstr_off + sizeof(shstrtab), 8);
	str_off = sym_off + sym_size;
	note_off = ALIGN_UP(str_off + strtab_size, 4);
	off = ALIGN_UP(note_off + sizeof(note), 8);

	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !gelf_newehdr(e, cls) || !gelf_getehdr(e, &eh))
		goto out_elf;
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = cls;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
	eh.e_type = ET_DYN;
	eh.e_machine = jc->machine;
	eh.e_version = EV_CURRENT;
	eh.e_entry = JIT_ELF_TEXT_OFFSET;
	eh.e_phoff = gelf_fsize(e, ELF_T_EHDR, 1, EV_CURRENT);
	eh.e_shoff = off;
	/* the phdr count is the ehdr's: it goes in first, and newphdr adds to it */
	if (!gelf_update_ehdr(e, &eh) || !gelf_newphdr(e, 1))
		goto out_elf;

	if (!jit_elf__section(e, NAME_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
			      JIT_ELF_TEXT_OFFSET, JIT_ELF_TEXT_OFFSET, (void *)jc->code, jc->size,
			      16, ELF_T_BYTE))
		goto out_elf;
	if (jc->unwind && hdr_size &&
	    (!jit_elf__section(e, NAME_EH_FRAME, SHT_PROGBITS, SHF_ALLOC, eh_off, eh_off,
			       (void *)jc->unwind, eh_size, 8, ELF_T_BYTE) ||
	     !jit_elf__section(e, NAME_EH_FRAME_HDR, SHT_PROGBITS, SHF_ALLOC, hdr_off, hdr_off,
			       (char *)jc->unwind + eh_size, hdr_size, 4, ELF_T_BYTE)))
		goto out_elf;
	shstrndx = elf_ndxscn(jit_elf__section(e, NAME_SHSTRTAB, SHT_STRTAB, 0, 0, shstr_off,
					       (void *)shstrtab, sizeof(shstrtab), 1, ELF_T_BYTE));
	if (!shstrndx)
		goto out_elf;
	symscn = jit_elf__section(e, NAME_SYMTAB, SHT_SYMTAB, 0, 0, sym_off, symbuf, sym_size, 8,
				  ELF_T_SYM);
	if (!symscn || !jit_elf__section(e, NAME_STRTAB, SHT_STRTAB, 0, 0, str_off, strtab,
					 strtab_size, 1, ELF_T_BYTE) ||
	    !jit_elf__section(e, NAME_NOTE, SHT_NOTE, SHF_ALLOC, 0, note_off, &note, sizeof(note),
			      4, ELF_T_BYTE))
		goto out_elf;

	/* the one symbol: the code, local as the runtime's names are not link names */
	d = elf_getdata(symscn, NULL);
	memset(&sym, 0, sizeof(sym));
	if (!gelf_update_sym(d, 0, &sym))
		goto out_elf;
	sym.st_name = 1;
	sym.st_info = GELF_ST_INFO(STB_LOCAL, STT_FUNC);
	sym.st_shndx = 1;
	sym.st_value = JIT_ELF_TEXT_OFFSET;
	sym.st_size = jc->size;
	if (!gelf_update_sym(d, 1, &sym))
		goto out_elf;
	{
		GElf_Shdr sh;

		if (!gelf_getshdr(symscn, &sh))
			goto out_elf;
		sh.sh_link = elf_ndxscn(symscn) + 1;	/* .strtab, made right after */
		sh.sh_info = 2;				/* both symbols are local */
		sh.sh_entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
		if (!gelf_update_shdr(symscn, &sh))
			goto out_elf;
	}

	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_offset = ph.p_vaddr = ph.p_paddr = JIT_ELF_TEXT_OFFSET;
	ph.p_filesz = ph.p_memsz = jc->size;
	ph.p_align = 8;
	if (!gelf_update_phdr(e, 0, &ph) || !gelf_getehdr(e, &eh))
		goto out_elf;
	eh.e_shstrndx = shstrndx;
	if (!gelf_update_ehdr(e, &eh) || elf_update(e, ELF_C_WRITE) < 0)
		goto out_elf;
	ret = 0;
	goto out;

out_elf:
	ret = perf_err__set(err, EIO, "cannot write the ELF file %s: %s", path, elf_errmsg(-1));
out:
	if (e)
		elf_end(e);
	if (close(fd) && !ret)
		ret = perf_err__set(err, errno, "cannot write %s: %m", path);
	if (ret)
		unlink(path);
	free(strtab);
	free(symbuf);
	return ret;
}
