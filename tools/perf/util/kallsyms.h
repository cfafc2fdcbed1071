/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.h - loading kernel symbols from a kallsyms file into the kernel dso and the
 * module dsos of a machine.
 */
#ifndef PERF_UTIL_KALLSYMS_H
#define PERF_UTIL_KALLSYMS_H

#include <stddef.h>
#include <perf/abi.h>

struct machine;

/*
 * The build id in an ELF notes file (/sys/kernel/notes, a module's .note.gnu.build-id) into id
 * (20 bytes), *size its length: 0, -ENOENT when it has no GNU build id note, or -errno.
 */
int notes__read_build_id(const char *path, u8 *id, size_t *size);

/*
 * Reads conf->kallsyms (or /proc/kallsyms): symbols without a [module] tag go to the kernel
 * dso, the others to the dso named "[module]" (created when missing). Computes the
 * relocation between the recorded reference symbol and the file's. Loads at most once.
 */
int machine__load_kallsyms(struct machine *machine);

#endif
