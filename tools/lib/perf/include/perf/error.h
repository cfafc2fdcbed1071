/* SPDX-License-Identifier: GPL-2.0 */
/*
 * error.h - how library code reports a failure: a negative errno as the return value and one
 * line of text in a caller-owned struct perf_err. The library never prints; the command does.
 */
#ifndef PERF_ERROR_H
#define PERF_ERROR_H

#include <stdarg.h>

struct perf_err {
	char msg[512];
};

/* formats into err (may be NULL), returns -errnum so callers can `return perf_err__set(...)` */
int perf_err__set(struct perf_err *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
