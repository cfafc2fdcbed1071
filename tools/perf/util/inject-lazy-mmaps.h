/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject-lazy-mmaps.h - perf inject -B/--mmap2-buildids: the recorded maps of files are
 * dropped, and a process's map is written, as an MMAP2 with its DSO's build id, just before
 * the first of its samples that hits it; the maps no sample uses are gone. This set says
 * which (process, map) pairs have been written.
 *
 * Owns a reference on each map it holds (so that a freed map's address is never taken for
 * another), until the set is deleted.
 */
#ifndef PERF_UTIL_INJECT_LAZY_MMAPS_H
#define PERF_UTIL_INJECT_LAZY_MMAPS_H

#include <perf/abi.h>

struct map;
struct lazy_mmaps;

/* NULL when out of memory */
struct lazy_mmaps *lazy_mmaps__new(void);
/* accepts NULL */
void lazy_mmaps__delete(struct lazy_mmaps *l);
/* 1 the first time (pid, map) is asked for, then 0; -ENOMEM */
int lazy_mmaps__first_hit(struct lazy_mmaps *l, s32 pid, struct map *map);

#endif
