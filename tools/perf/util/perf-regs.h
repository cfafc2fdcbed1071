/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-regs.h - the x86-64 register names of perf record's --user-regs and --intr-regs, as
 * perf 6.1 takes them: names case-insensitive, comma-separated, each a bit of
 * sample_regs_user / sample_regs_intr (arch/x86/include/uapi/asm/perf_regs.h numbering).
 *
 * Only the registers the kernel samples on every x86-64 machine are known:
 * PERF_REGS_X86_64_USER_MASK (not DS, ES, FS, GS, which the kernel reads as 0). The XMM
 * registers need a PMU with extended-register sampling (PEBS), which perf probes for and
 * this machine's kind (no hardware PMU) lacks, so they are unknown names here.
 */
#ifndef PERF_UTIL_PERF_REGS_H
#define PERF_UTIL_PERF_REGS_H

#include <stdio.h>
#include <perf/abi.h>

/*
 * list ("ip,sp") into *mask. 0, or -EINVAL with *bad (pointing into a copy the caller
 * gives as buf, size bytes) the name that is not a register: "" for an empty item.
 */
int perf_regs__parse(const char *list, u64 *mask, char *buf, size_t size, const char **bad);
/*
 * The name perf prints for register bit rid of a sample's regs (perf script -F uregs,
 * perf script -D): the ones above, DS..GS, XMM0..XMM15 for the first of each pair of bits
 * from 32 on (PEBS extended registers), else "unknown". A static string.
 */
const char *perf_reg__name(unsigned int rid);
/* "available registers: AX BX ... R15 \n", perf's listing for `--user-regs=?` */
void perf_regs__fprintf_names(FILE *fp);

#endif
