/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map.h - one mapping [start, end) of a thread's address space onto a dso at pgoff, and a
 * thread's sorted set of them.
 *
 * A struct maps is shared by the threads of one process (refcounted); fork of a new process
 * copies it, exec replaces it. Each map holds a reference on its dso.
 */
#ifndef PERF_UTIL_MAP_H
#define PERF_UTIL_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>

struct dso;

struct map {
	u64		start;
	u64		end;		/* exclusive */
	u64		pgoff;
	u32		prot, flags;
	/* the inode of the MMAP2 record that made it; ino_valid: such a record, no build id */
	u64		ino;
	bool		ino_valid;
	struct dso	*dso;		/* owned reference */
	int		refcnt;
	/* kernel maps: addresses are relocated by this delta before the lookup */
	s64		reloc;
	/* memory without a file (perf maps' JIT code among it): lookups use the address */
	bool		identity;
};

struct map *map__new(u64 start, u64 len, u64 pgoff, struct dso *dso);
struct map *map__get(struct map *map);
void map__put(struct map *map);

/*
 * the address a symbol lookup uses: file offset for ELF maps, the address for kernel maps and
 * anonymous memory
 */
static inline u64 map__map_ip(const struct map *map, u64 ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

struct maps {
	struct map	**entries;	/* sorted by start, non-overlapping */
	size_t		nr, alloc;
	int		refcnt;
	struct map	*last;		/* cache of the last hit (samples repeat maps) */
};

struct maps *maps__new(void);
struct maps *maps__get(struct maps *maps);
void maps__put(struct maps *maps);
/* a copy sharing the map objects (fork of a new process) */
struct maps *maps__clone(const struct maps *maps);
/* inserts, splitting or removing whatever the new map overlaps, as mmap does; takes a ref */
int maps__insert(struct maps *maps, struct map *map);
/*
 * Kernel maps: map keeps its start and ends where the next map begins; a map that starts
 * before it and reaches into it ends where it begins; one at the same start is replaced.
 * A module's recorded size is /proc/modules', the sum of its memory regions, which are not
 * contiguous on 7.x: its range may cover the next modules' starts. (Upstream keeps such
 * maps overlapping and its lookup's binary search meets any of them.)
 */
int maps__insert_clipped(struct maps *maps, struct map *map);
struct map *maps__find(struct maps *maps, u64 addr);
/*
 * Moves map (one of maps') to [start, end), as far as its neighbours leave room: the set
 * stays sorted and non-overlapping. Lookups see the new range at once.
 */
void maps__set_range(struct maps *maps, struct map *map, u64 start, u64 end);

#endif
