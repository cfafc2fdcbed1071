// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <perf/error.h>

int perf_err__set(struct perf_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return errnum > 0 ? -errnum : errnum;
}
