/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-kcore.h - perf record --kcore: the output becomes a perf.data directory,
 *
 *	OUT/data			the recording (what -o OUT holds without --kcore)
 *	OUT/kcore_dir/kallsyms		copies of PROC/kallsyms and PROC/modules
 *	OUT/kcore_dir/modules
 *	OUT/kcore_dir/kcore		an ELF core of the segments of PROC/kcore that hold
 *					the kernel's text and the modules'
 *
 * as upstream's perf record writes it (no DIR_FORMAT feature: that is --threads'), so that
 * the readers take the kernel's symbols and maps from the copies (kcore.h): the text that
 * ran, not the disk's, for the tools that decode it. PROC is /proc; tests give another.
 */
#ifndef PERF_UTIL_RECORD_KCORE_H
#define PERF_UTIL_RECORD_KCORE_H

#include <perf/error.h>

/* upstream's record__kcore_readable(): 0 when PROC/kcore opens for reading, else -errno */
int record_kcore__readable(const char *proc_dir);

/*
 * Makes the directory out (0700, as perf), then out/kcore_dir with its copies (kcore__copy());
 * out must not exist (record_output__backup() moved an old one away). 0, or a negative errno
 * with err saying what failed, and nothing of out left.
 */
int record_kcore__mkdir(const char *out, const char *proc_dir, struct perf_err *err);

/*
 * upstream's kcore_copy(): to_dir gets kallsyms and modules (whole, mode 0400) and kcore,
 * an ELF core whose segments are the parts of from_dir/kcore that hold the kernel's text
 * (_stext to _etext, or the lowest to the highest kernel function, pages rounded out) and
 * the modules' (the lowest module address to a page past the highest module function),
 * copied one after the other; kallsyms is compared with its copy at the end, so that a
 * module loaded meanwhile fails the copy. 0, or a negative errno with err saying why; what
 * it wrote in to_dir is gone again then.
 */
int kcore__copy(const char *from_dir, const char *to_dir, struct perf_err *err);

#endif
