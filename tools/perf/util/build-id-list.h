/* SPDX-License-Identifier: GPL-2.0 */
/*
 * build-id-list.h - the build ids of a recording, gathered while it runs, and perf's build-id
 * cache filled from them at its end. No second pass over the data: the kernel puts the build
 * id in every MMAP2 when attr.build_id is set (Linux >= 5.12, misc
 * PERF_RECORD_MISC_MMAP_BUILD_ID), record-synth does the same for what it synthesizes, and the
 * kernel's and modules' come from sysfs notes. So the end of a recording costs the number of
 * distinct DSOs, never the number of samples.
 *
 * Entries: one per (build id, file name), first seen kept; pid -1 (the host machine, as perf
 * writes every entry), misc KERNEL for the kernel ("[kernel.kallsyms]") and modules, else the
 * record's cpumode (USER). Every DSO
 * that was mapped is written (perf 6.1 writes those that were hit; readers only look up the
 * DSOs they meet, so an extra entry costs a line in --header and nothing else).
 *
 * The cache, laid out as perf 6.x fills it ($PERF_BUILDID_DIR, else $HOME/.debug):
 *   DIR/[kernel.kallsyms]/HEX/kallsyms	a copy of /proc/kallsyms (read by util/kallsyms.c)
 *   DIR/[vdso]/HEX/vdso			the vDSO image (read by util/dso.c)
 *   DIR/PATH/HEX/elf			the DSO (a hard link when it can be, else a copy)
 *   DIR/.build-id/HE/X...	-> ../../NAME/HEX	a relative symlink per entry
 * An entry already there is left as it is (the same build id is the same file).
 *
 * A recording uses it so: build_id_list__new(); build_id_list__add_event() on every side-band
 * record written (synthesized ones and those of the ring buffers: anything but MMAP/MMAP2 costs
 * a type test); at the end build_id_list__add_kernel() and build_id_list__write() before
 * perf_writer__finish(), then build_id_list__fill_cache() unless -N/--no-buildid-cache. Into a
 * pipe, the kernel and this machine's vDSO before the first record and the rest at the end,
 * with build_id_list__write_new() both times.
 *
 * Errors: 0 or a negative errno with err saying what and where. Nothing here prints. The list
 * owns its entries; no pointer passed in is kept.
 */
#ifndef PERF_UTIL_BUILD_ID_LIST_H
#define PERF_UTIL_BUILD_ID_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

struct perf_writer;
struct build_id_list;

/* sys: where the kernel's notes are read (NULL: "/sys"), copied */
struct build_id_list *build_id_list__new(const char *sys);
void build_id_list__delete(struct build_id_list *l);

/* one entry; size <= 20. Duplicates are dropped. */
int build_id_list__add(struct build_id_list *l, s32 pid, u16 misc, const u8 *id, u8 size,
		       const char *filename, struct perf_err *err);
/*
 * A record of the recording (host order): an MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID adds its
 * file ("//anon" and other nameless ones are skipped); an MMAP2 of [vdso] without one (the
 * kernel reads build ids from files, the vDSO has none) adds this process's own vDSO build id,
 * the kernel's image for native processes; a kernel-mode MMAP of a module (as
 * record-synth writes them: its .ko path or "[name]") adds the module with the build id of
 * SYS/module/NAME/notes/.note.gnu.build-id; every other record is ignored. Cheap enough to
 * call on every side-band record.
 */
int build_id_list__add_event(struct build_id_list *l, const struct perf_event_header *ev,
			     struct perf_err *err);
/* the running kernel's build id (SYS/kernel/notes) as [kernel.kallsyms]; none: nothing added */
int build_id_list__add_kernel(struct build_id_list *l, struct perf_err *err);

size_t build_id_list__nr(const struct build_id_list *l);

/* this machine's vDSO as [vdso] (misc USER), as an MMAP2 of it would add it; none: nothing */
int build_id_list__add_vdso(struct build_id_list *l, struct perf_err *err);

/* every entry into w's HEADER_BUILD_ID (perf_writer__add_build_id), in the order first seen */
int build_id_list__write(const struct build_id_list *l, struct perf_writer *w,
			 struct perf_err *err);
/*
 * The entries this function has not written yet, so: a pipe's reader resolves samples as they
 * come, so what is known at the start (the kernel, this machine's vDSO, which it can take
 * from no file) goes out with the header and the rest at the end, each once.
 */
int build_id_list__write_new(struct build_id_list *l, struct perf_writer *w,
			     struct perf_err *err);

struct build_id_cache_opts {
	const char	*dir;		/* NULL: $PERF_BUILDID_DIR, else $HOME/.debug */
	const char	*kallsyms;	/* NULL: "/proc/kallsyms" */
};

/* the cache's root into buf: o's dir, $PERF_BUILDID_DIR, else $HOME/.debug; -ENOENT: none */
int build_id_cache__root(const struct build_id_cache_opts *o, char *buf, size_t size,
			 struct perf_err *err);

/* what build_id_list__fill_cache() did */
struct build_id_cache_stats {
	u32	added, present;	/* entries new in the cache, entries already there */
	u32	missing;	/* DSOs whose file is gone or is another build now: skipped */
};

/*
 * Fill the cache with every entry (see above); stats may be NULL. A DSO whose file no longer
 * has the recorded build id is skipped (counted), as perf does. A cache directory that cannot
 * be created or written is an error naming it.
 */
int build_id_list__fill_cache(const struct build_id_list *l, const struct build_id_cache_opts *o,
			      struct build_id_cache_stats *stats, struct perf_err *err);

#endif /* PERF_UTIL_BUILD_ID_LIST_H */
