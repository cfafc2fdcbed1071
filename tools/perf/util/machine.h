/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine.h - the host as seen by the recording: threads, their maps, kernel maps and dsos,
 * built from MMAP/MMAP2/COMM/FORK/EXIT/KSYMBOL records, and address resolution on it.
 *
 * The machine owns every map and dso it creates; addr_location results borrow them until the
 * machine is deleted. Threads are reference counted (thread.h): the machine holds one
 * reference to each thread in its hash and drops it when the tid is reused (a FORK of a tid
 * it knows) or at machine__exit(). An exited thread stays in the hash, marked dead, until
 * then: samples and output after its EXIT still find it by tid, as perf's do. The cgroup
 * names (PERF_RECORD_CGROUP) are the machine's too, one path per id.
 */
#ifndef PERF_UTIL_MACHINE_H
#define PERF_UTIL_MACHINE_H

#include <stdbool.h>
#include <perf/event.h>
#include "dso.h"
#include "hashmap.h"
#include "map.h"
#include "thread.h"

struct helper_budget;

struct machine {
	struct hashmap		threads;	/* struct thread by tid, one reference each */
	struct hashmap		cgroups;	/* struct machine_cgroup by id */
	struct dsos		dsos;
	struct maps		*kmaps;		/* kernel + modules */
	struct dso		*kernel_dso;	/* [kernel.kallsyms] */
	struct map		*kernel_map;
	u64			ref_reloc_sym_addr;	/* _text at record time (kernel MMAP pgoff) */
	const char		*ref_reloc_sym_name;
	bool			kernel_loaded;
	bool			kernel_missed;	/* a kernel address had no map before the load */
	bool			kallsyms_is_running;	/* symbols from this boot's /proc/kallsyms */
	/*
	 * The kallsyms of a perf.data directory (perf record --kcore: DIR/kcore_dir/kallsyms),
	 * owned; trusted as --kallsyms is, which wins over it (as does -k). NULL: none.
	 */
	char			*dir_kallsyms;
	/*
	 * The session's helper-thread budget, borrowed (perf/helper-threads.h): the kallsyms
	 * reader and the DWARF openers take their slots from it. NULL: no helper threads.
	 */
	struct helper_budget	*helpers;
	/* why the kernel has no symbols, for the command to print once; "" when it has */
	char			kernel_warning[256];
	u64			maps_gen;	/* bumped whenever any map changes */
	const struct symbol_conf *conf;		/* borrowed from the command */
};

/* resolution of one address */
struct addr_location {
	struct thread		*thread;
	struct map		*map;		/* NULL: no map covers the address */
	const struct symbol	*sym;		/* NULL: no symbol */
	u64			addr;		/* the address looked up */
	u64			sym_addr;	/* addr in the symbol's space (symoff = sym_addr - sym->start) */
	u8			cpumode;
};

int machine__init(struct machine *machine, const struct symbol_conf *conf);
void machine__exit(struct machine *machine);

/* the machine's thread for tid (borrowed: thread__get() to keep it); NULL: out of memory */
struct thread *machine__findnew_thread(struct machine *machine, s32 pid, s32 tid);
/* borrowed, or NULL when the machine has none for tid */
struct thread *machine__find_thread(struct machine *machine, s32 tid);

int machine__process_mmap(struct machine *machine, const struct perf_event_header *h, u64 time);
int machine__process_comm(struct machine *machine, const struct perf_event_header *h, u64 time);
int machine__process_fork(struct machine *machine, const struct perf_event_header *h, u64 time);
int machine__process_exit(struct machine *machine, const struct perf_event_header *h, u64 time);
int machine__process_ksymbol(struct machine *machine, const struct perf_event_header *h);
/*
 * A PERF_RECORD_CGROUP: its path names the id from now on. The first path of an id stays
 * (upstream's cgroup__findnew() finds it and keeps it). 0 or -ENOMEM.
 */
int machine__process_cgroup(struct machine *machine, const struct perf_event_header *h);
/* the path of cgroup id (the machine's), NULL when no record named it */
const char *machine__find_cgroup(const struct machine *machine, u64 id);

/* resolve addr in the given cpumode (PERF_RECORD_MISC_*) for thread; fills al */
void machine__resolve(struct machine *machine, struct thread *thread, u8 cpumode, u64 addr,
		      struct addr_location *al);

#endif
