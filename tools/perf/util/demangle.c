// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include "demangle.h"

/* libstdc++'s C entry point of abi::__cxa_demangle */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *demangle_sym(const char *name)
{
	int status = 0;
	char *out;

	/*
	 * perf 7.2 hands every name to __cxa_demangle, not only "_Z..." ones, so a function
	 * named "i" prints as "int"; matching its output means doing the same.
	 */
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (status) {
		free(out);
		return NULL;
	}
	return out;
}
