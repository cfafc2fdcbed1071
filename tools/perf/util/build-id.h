/* SPDX-License-Identifier: GPL-2.0 */
/*
 * build-id.h - GNU build ids (NT_GNU_BUILD_ID notes) read from files, and their hex form:
 * what perf record needs to name the binaries it saw (HEADER_BUILD_ID, MMAP2 build ids, the
 * ~/.debug cache), without the symbol code. The report side (symbol-elf.c, kallsyms.c)
 * reads them through here too, so that both sides take a build id the same way.
 *
 * Owns nothing: ids go to the caller's buffers of BUILD_ID_SIZE_MAX bytes.
 */
#ifndef PERF_UTIL_BUILD_ID_H
#define PERF_UTIL_BUILD_ID_H

#include <stddef.h>
#include <libelf.h>
#include <perf/abi.h>

#define BUILD_ID_SIZE_MAX	20
/* the hex form of the longest id, with its NUL */
#define BUILD_ID_HEX_SIZE	(2 * BUILD_ID_SIZE_MAX + 1)

/*
 * The GNU build id note among the ELF notes notes[0..len) (host byte order, 4-byte aligned
 * as the kernel and the vDSO lay them out) into id, *size its length: 0, or -ENOENT when
 * there is none (or it is longer than BUILD_ID_SIZE_MAX).
 */
int build_id__parse_notes(const void *notes, size_t len, u8 *id, size_t *size);

/*
 * The build id in a raw notes file (/sys/kernel/notes, a module's
 * /sys/module/<m>/notes/.note.gnu.build-id) into id, *size its length: 0, -ENOENT when it has
 * no GNU build id note (or one longer than BUILD_ID_SIZE_MAX), or -errno.
 */
int build_id__read_notes(const char *path, u8 *id, size_t *size);

/*
 * The build id of an open ELF file, from its .note.gnu.build-id, else .notes, else .note
 * section, as perf reads it: the descriptor's padded size, capped at BUILD_ID_SIZE_MAX.
 * 0 or -ENOENT.
 */
int build_id__read_elf(Elf *elf, u8 *id, size_t *size);

/*
 * The build id of the ELF file at path (a regular file only: a FIFO or a device is -ENOENT,
 * it must not block): 0, -ENOENT when it has none, -ENOEXEC for a file that is not ELF, or
 * -errno.
 */
int build_id__read_file(const char *path, u8 *id, size_t *size);

/* id[0..size) as lowercase hex into buf (2 * size + 1 bytes, NUL-terminated); returns buf */
char *build_id__hex(const u8 *id, size_t size, char *buf);

#endif
