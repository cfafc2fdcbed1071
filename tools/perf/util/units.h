/* SPDX-License-Identifier: GPL-2.0 */
/*
 * units.h - the sizes and durations of perf record's options, read as perf reads them:
 * a decimal number followed by one unit letter, nothing else.
 *
 *  - sizes: B, K, M, G (powers of 1024), upper case only: in --switch-output a lower-case
 *    m is minutes, so perf's own rule (upper case for sizes) is the only unambiguous one;
 *  - durations: s, m, h, d (seconds to days), lower case only.
 *
 * A bare number has no unit and is refused, as perf refuses it (except where a caller
 * allows it: units__parse_size_or_bytes). Overflow, signs, spaces and trailing text are
 * refused. All return 0 or -EINVAL and write *out only on success; nothing is printed.
 */
#ifndef PERF_UTIL_UNITS_H
#define PERF_UTIL_UNITS_H

#include <perf/abi.h>

int units__parse_size(const char *s, u64 *bytes);
/* as units__parse_size, and a bare number is bytes (perf's --mmap-flush) */
int units__parse_size_or_bytes(const char *s, u64 *bytes);
int units__parse_time(const char *s, u64 *seconds);

#endif
