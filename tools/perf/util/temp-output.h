/* SPDX-License-Identifier: GPL-2.0 */
/*
 * temp-output.h - an output file written whole under a temporary name beside it and renamed
 * at the end (perf inject, perf data convert), so the user's name never holds a half-written
 * file.
 */
#ifndef PERF_UTIL_TEMP_OUTPUT_H
#define PERF_UTIL_TEMP_OUTPUT_H

#include <stddef.h>

/*
 * A temporary name in output's directory into buf, the file created (mode 0600) and open:
 * its descriptor, or a negative errno (-ENAMETOOLONG when buf is too small)
 */
int temp_output__create(const char *output, char *buf, size_t size);

#endif
