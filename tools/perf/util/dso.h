/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dso.h - a shared object, executable, kernel image or module that a map points at.
 *
 * A dso is created once per recorded path (struct dsos, owned by the machine) and loads its
 * symbols at most once, on the first lookup. Maps hold references (dso__get/dso__put).
 *
 * Address spaces: a map turns a sampled address into a file offset (ip - map start + pgoff);
 * dso__find_symbol_by_offset() turns a file offset into the ELF vaddr through the PT_LOAD
 * program headers and finds the symbol there. Kernel DSOs (kallsyms) are searched by address.
 */
#ifndef PERF_UTIL_DSO_H
#define PERF_UTIL_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include "symbol.h"

enum dso_kind {
	DSO_KIND_USER,		/* an ELF file in the filesystem */
	DSO_KIND_KERNEL,	/* [kernel.kallsyms] */
	DSO_KIND_KMODULE,	/* [name] of a kernel module */
	DSO_KIND_ANON,		/* //anon, [heap], [stack], memfd:, ...: no symbols */
	DSO_KIND_VDSO,		/* [vdso] */
};

/* what symbol loading may consult; owned by the command's options */
struct symbol_conf {
	const char	*symfs;		/* prefix for every DSO path, "" when unset */
	const char	*kallsyms;	/* kallsyms file, NULL for /proc/kallsyms */
	bool		ignore_vmlinux;
};

struct dso_segment {
	u64	file_off;
	u64	file_size;
	u64	vaddr;
};

struct dso {
	char			*long_name;	/* the path as recorded */
	const char		*short_name;	/* basename of long_name */
	enum dso_kind		kind;
	int			refcnt;
	bool			has_build_id;
	u8			build_id[20];
	u8			build_id_size;
	bool			loaded;		/* load was attempted (successfully or not) */
	int			load_errno;	/* 0 when symbols were loaded */
	char			*symsrc_path;	/* the file symbols came from, for -v */
	struct symbols		symbols;
	struct dso_segment	*segs;		/* PT_LOAD segments, for offset -> vaddr */
	size_t			nr_segs;
	bool			is_exec;	/* ET_EXEC: vaddrs are absolute */
	struct dso		*hash_next;
};

struct dso *dso__new(const char *long_name, enum dso_kind kind);
struct dso *dso__get(struct dso *dso);
void dso__put(struct dso *dso);
void dso__set_build_id(struct dso *dso, const u8 *id, size_t size);

/*
 * Loads the symbols of a user-space ELF DSO: the file under conf->symfs, or a debug file
 * found by build id (<symfs>/usr/lib/debug/.build-id/xx/rest.debug) or .gnu_debuglink, whose
 * build id must match. Adds PLT entries as "name@plt". Never fails hard: a DSO without a
 * readable file simply has no symbols (load_errno says why).
 */
int dso__load(struct dso *dso, const struct symbol_conf *conf);

/* file offset (ip - map->start + map->pgoff) -> symbol; *vaddr_out gets the ELF vaddr */
const struct symbol *dso__find_symbol_by_offset(struct dso *dso, const struct symbol_conf *conf,
						u64 offset, u64 *vaddr_out);

/* the dsos of one machine, by long_name */
struct dsos {
	struct dso	**buckets;
	size_t		nr_buckets;
	size_t		nr;
};

void dsos__init(struct dsos *dsos);
void dsos__exit(struct dsos *dsos);
/* returns a borrowed pointer owned by dsos; NULL only on allocation failure */
struct dso *dsos__findnew(struct dsos *dsos, const char *long_name, enum dso_kind kind);
struct dso *dsos__find(const struct dsos *dsos, const char *long_name);

/* what kind of DSO a recorded mmap filename names */
enum dso_kind dso__kind_of(const char *filename);

#endif
