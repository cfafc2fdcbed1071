// SPDX-License-Identifier: GPL-2.0
/*
 * build-id.c - GNU build ids from notes files and ELF files, and their hex form.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <perf/kernel.h>
#include "build-id.h"
#include "elf-section.h"

#define NOTE_ALIGN(n)	(((n) + 3) & ~(size_t)3)

int build_id__parse_notes(const void *notes, size_t len, u8 *id, size_t *size)
{
	const u8 *buf = notes;
	size_t off = 0;

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
		    descsz && descsz <= BUILD_ID_SIZE_MAX) {
			memcpy(id, buf + desc_off, descsz);
			*size = descsz;
			return 0;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}

int build_id__read_notes(const char *path, u8 *id, size_t *size)
{
	u8 buf[4096];
	size_t len;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -errno;
	len = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	return build_id__parse_notes(buf, len, id, size);
}

/* the first of the note sections perf looks in, by its order of preference */
static Elf_Scn *note_section(Elf *elf)
{
	static const char * const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	Elf_Scn *sec = NULL;
	GElf_Shdr shdr;

	for (size_t i = 0; i < ARRAY_SIZE(names) && !sec; i++)
		sec = elf__section_by_name(elf, names[i], &shdr, NULL);
	return sec;
}

int build_id__read_elf(Elf *elf, u8 *id, size_t *size)
{
	Elf_Scn *sec = note_section(elf);
	Elf_Data *data;
	size_t off = 0;

	if (!sec)
		return -ENOENT;
	data = elf_getdata(sec, NULL);
	if (!data || !data->d_buf)
		return -ENOENT;

	while (data->d_size - off >= sizeof(GElf_Nhdr)) {
		GElf_Nhdr nhdr;
		size_t namesz, descsz;
		const char *name;

		memcpy(&nhdr, (const char *)data->d_buf + off, sizeof(nhdr));
		off += sizeof(nhdr);
		namesz = NOTE_ALIGN((size_t)nhdr.n_namesz);
		descsz = NOTE_ALIGN((size_t)nhdr.n_descsz);
		if (namesz > data->d_size - off)
			break;
		name = (const char *)data->d_buf + off;
		off += namesz;
		if (descsz > data->d_size - off)
			break;
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == sizeof("GNU") &&
		    !memcmp(name, "GNU", sizeof("GNU"))) {
			/* perf copies the padded descriptor size, capped at 20 bytes */
			size_t sz = descsz < BUILD_ID_SIZE_MAX ? descsz : BUILD_ID_SIZE_MAX;

			if (!sz)
				return -ENOENT;
			memcpy(id, (const char *)data->d_buf + off, sz);
			*size = sz;
			return 0;
		}
		off += descsz;
	}
	return -ENOENT;
}

int build_id__read_file(const char *path, u8 *id, size_t *size)
{
	struct stat st;
	Elf *elf;
	int fd, err;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return -ENOENT;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		err = -ENOEXEC;
	else
		err = build_id__read_elf(elf, id, size);
	elf_end(elf);
	close(fd);
	return err;
}

char *build_id__hex(const u8 *id, size_t size, char *buf)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		buf[2 * i] = digits[id[i] >> 4];
		buf[2 * i + 1] = digits[id[i] & 15];
	}
	buf[2 * size] = '\0';
	return buf;
}
