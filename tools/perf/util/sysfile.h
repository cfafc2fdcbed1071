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

/* the whole file, malloc'd and NUL-terminated (not counted in *size); the caller frees it */
int sysfile__read(const char *path, char **data, size_t *size);
/* the first line (newline dropped) into buf; -E2BIG when it does not fit */
int sysfile__read_line(const char *path, char *buf, size_t size);
/* the first line as a number (base 0: "0x" prefixes hex) */
int sysfile__read_u64(const char *path, u64 *v);
/*
 * The highest number + 1 and the count of a cpu or node list ("0-3,8\n"); -EINVAL when it is
 * not one. Either out pointer may be NULL.
 */
int cpu_list__parse(const char *list, u32 *max_plus_one, u32 *count);
/* is bit n set in a list as above */
bool cpu_list__has(const char *list, u32 n);

#endif /* PERF_UTIL_SYSFILE_H */
