/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfile.h - reading the small files of /proc, /sys and tracefs that perf record describes the
 * machine from. Their stat size is 0 or a page whatever they hold, so they are read to EOF.
 * 0 or a negative errno; no printing, the caller names the file in its message.
 */
#ifndef PERF_UTIL_SYSFILE_H
#define PERF_UTIL_SYSFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include "cpu-list.h"	/* the lists of sysfs */

/* the whole file, malloc'd and NUL-terminated (not counted in *size); the caller frees it */
int sysfile__read(const char *path, char **data, size_t *size);
/* the first line (newline dropped) into buf; -E2BIG when it does not fit */
int sysfile__read_line(const char *path, char *buf, size_t size);
/* the first line as a number (base 0: "0x" prefixes hex) */
int sysfile__read_u64(const char *path, u64 *v);
#endif /* PERF_UTIL_SYSFILE_H */
