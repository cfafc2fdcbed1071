/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-code.h - the code bytes of user DSOs, for decoding a function's instructions where
 * there is no CFI (unwind-insn.h). Each DSO's file (<symfs><path>, as recorded) is mapped
 * read-only once, on first use, and stays mapped until the cache is deleted; a file that
 * cannot be opened is remembered as such. The bytes are the file's as it is now: a rebuilt
 * file gives other bytes (the decoder then finds no rule or a wrong one; the step's checks
 * still bound every read of the stack).
 *
 * Not thread safe; one per session. DSO pointers are keys only (not referenced): the cache
 * must not outlive the machine whose dsos it saw.
 */
#ifndef PERF_UTIL_UNWIND_CODE_H
#define PERF_UTIL_UNWIND_CODE_H

#include <stddef.h>
#include <perf/abi.h>

struct dso;
struct unwind_code;

/* symfs: borrowed, "" or NULL for none; NULL on allocation failure */
struct unwind_code *unwind_code__new(const char *symfs);
void unwind_code__delete(struct unwind_code *uc);

/*
 * The bytes of dso's file from file offset off: *len (at most want) of them, pointing into
 * the mapping (valid until unwind_code__delete()). NULL when the file is unreadable or off
 * is past its end.
 */
const u8 *unwind_code__bytes(struct unwind_code *uc, struct dso *dso, u64 off, size_t want,
			     size_t *len);

#endif
