/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.h - loading kernel symbols from a kallsyms file (or a vmlinux, -k) into the
 * kernel dso and the module dsos of a machine.
 */
#ifndef PERF_UTIL_KALLSYMS_H
#define PERF_UTIL_KALLSYMS_H

#include <stddef.h>
#include <perf/abi.h>

struct machine;

/*
 * Reads conf->kallsyms (or /proc/kallsyms): symbols without a [module] tag go to the kernel
 * dso, the others to the dso named "[module]" (created when missing). Computes the
 * relocation between the recorded reference symbol and the file's. Loads at most once.
 * With conf->vmlinux (-k) and no conf->kallsyms, a vmlinux ELF of the recorded build id
 * gives the kernel's symbols instead, as perf loads them: .text's into the kernel dso (its
 * map moved onto .text), each other section's into "[kernel.kallsyms]<section>" mapped over
 * it; modules then have none. A file that is no such vmlinux leaves it to kallsyms.
 */
int machine__load_kallsyms(struct machine *machine);

#endif
