// SPDX-License-Identifier: GPL-2.0
/* Temporary names beside an output file. See temp-output.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "temp-output.h"

int temp_output__create(const char *output, char *buf, size_t size)
{
	const char *slash = strrchr(output, '/');
	int n, fd;

	if (slash)
		n = snprintf(buf, size, "%.*s/.%s.tmp-XXXXXX", (int)(slash - output), output,
			     slash + 1);
	else
		n = snprintf(buf, size, ".%s.tmp-XXXXXX", output);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	fd = mkstemp(buf);
	return fd < 0 ? -errno : fd;
}
