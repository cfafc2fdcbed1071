/* SPDX-License-Identifier: GPL-2.0 */
/*
 * demangle.h - C++ symbol names as upstream perf prints them.
 *
 * perf >= 6.x demangles with libstdc++'s abi::__cxa_demangle (parameters included); we use
 * the same function (its C ABI entry point), which is why the binary links libstdc++.
 */
#ifndef PERF_UTIL_DEMANGLE_H
#define PERF_UTIL_DEMANGLE_H

#include <stddef.h>

/*
 * Returns a malloc'd demangled name when name is a mangled C++ name ("_Z..."), else NULL
 * (the caller keeps the original). Handles GCC's ".isra.0"/".cold" clone suffixes as
 * __cxa_demangle does ("[clone .isra.0]").
 */
char *demangle_sym(const char *name);

#endif
