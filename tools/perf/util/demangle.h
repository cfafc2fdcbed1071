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
 * Returns a malloc'd demangled name when __cxa_demangle accepts name (perf asks it about
 * every ELF symbol name), else NULL: the caller keeps the original. GCC's ".isra.0"/".cold"
 * clone suffixes come out as "[clone .isra.0]". Rust and OCaml names are not demangled yet.
 */
char *demangle_sym(const char *name);

#endif
