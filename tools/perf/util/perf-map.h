/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-map.h - symbols of JIT'd code from the perf map a runtime writes: /tmp/perf-PID.map,
 * one `START SIZE name` line per function (hex, no 0x), as node --perf-basic-prof, python
 * -X perf, the JVM's perf-map-agent, LuaJIT, .NET and wasmtime write it.
 *
 * The machine names every executable anonymous mapping of process PID after that file, as
 * upstream perf does (the dso "/tmp/perf-PID.map", shown as "[JIT] tid PID" in reports),
 * whether or not the file exists; its symbols are read from the file on the dso's first
 * lookup, at their absolute addresses (the map is an identity map).
 */
#ifndef PERF_UTIL_PERF_MAP_H
#define PERF_UTIL_PERF_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct dso;
struct symbol_conf;

/*
 * Whether an mmap of filename with prot and flags is what upstream turns into the perf map
 * of its process: executable memory without a file (//anon, /dev/zero, /anon_hugepage or
 * MAP_HUGETLB, [stack...], [heap], /SYSV..., and prctl-named [anon:...] regions).
 */
bool perf_map__is_jit_memory(const char *filename, unsigned int prot, unsigned int flags);

/* "/tmp/perf-PID.map" into buf; false when it does not fit */
bool perf_map__name(pid_t pid, char *buf, size_t size);

/* the pid of a perf map's name ("/tmp/perf-PID.map"), or -1 for any other name */
pid_t perf_map__pid(const char *name);

/*
 * Adds the symbols of dso's perf map: <symfs>/tmp/perf-PID.map when a symfs holds it, else
 * the path itself. Lines are inserted in file order into the dso's table (not sealed), so
 * that overlapping entries resolve as upstream's tree resolves them. A file that is missing,
 * unreadable, not owned by this user or root (unless conf->force), or holds malformed
 * lines gets one warning on conf->warn. Returns the number of symbols, or -errno.
 */
int perf_map__load(struct dso *dso, const struct symbol_conf *conf);

#endif
