/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dso.h - a shared object, executable, kernel image or module that a map points at.
 *
 * A dso is created once per recorded file (struct dsos, owned by the machine): its path and,
 * when the records say, its dso_id. One path may name several files (a container's or a
 * chroot's libc and the host's): each is a dso of its own with its own symbols. A dso loads
 * its symbols at most once, on the first lookup. Maps hold references (dso__get/dso__put).
 *
 * Address spaces: a map turns a sampled address into a file offset (ip - map start + pgoff);
 * dso__find_symbol_by_offset() turns a file offset into the ELF vaddr through the PT_LOAD
 * program headers and finds the symbol there. Kernel DSOs (kallsyms) are searched by address.
 *
 * Where symbols come from (user DSOs): the DSO's files (dso-file.h, in upstream perf's order,
 * build ids checked); the first with a .symtab provides the symbols while the first with a
 * .dynsym is the "runtime" file (program headers, PLT).
 */
#ifndef PERF_UTIL_DSO_H
#define PERF_UTIL_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <perf/abi.h>
#include "build-id.h"
#include "hashmap.h"
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
	/* -k: a vmlinux for kernel symbols (see machine__load_kallsyms()); kallsyms wins */
	const char	*vmlinux;
	bool		ignore_vmlinux;
	bool		no_demangle;	/* --no-demangle: user-space names as the files have them */
	bool		demangle_kernel;	/* --demangle-kernel: also kernel ELF symbols */
	/*
	 * Tests point these elsewhere; NULL means the real ones. running_root prefixes the
	 * running system's /proc/kallsyms, /sys/kernel/notes and /sys/module; buildid_dir
	 * defaults to $PERF_BUILDID_DIR, else ~/.debug.
	 */
	const char	*running_root;
	const char	*buildid_dir;
	/* where a symbol source's problems are told (a perf map's), NULL: nowhere */
	FILE		*warn;
	bool		force;		/* -f: also files owned by other users (perf maps) */
};

struct dso_lookup_cache;	/* private to dso.c */
struct dso_file;		/* dso-file.h */

struct dso_segment {
	u64	file_off;
	u64	file_size;
	u64	vaddr;
};

/* load_errno: an errno value, or one of these (as perf numbers them) */
enum dso_load_errno {
	DSO_LOAD_ERRNO__SUCCESS		= 0,
	DSO_LOAD_ERRNO__START		= 10000,
	DSO_LOAD_ERRNO__INTERNAL_ERROR	= DSO_LOAD_ERRNO__START,
	DSO_LOAD_ERRNO__INVALID_ELF,
	DSO_LOAD_ERRNO__CANNOT_READ_BUILDID,
	DSO_LOAD_ERRNO__MISMATCHING_BUILDID,
	DSO_LOAD_ERRNO__DECOMPRESSION_FAILURE,
	DSO_LOAD_ERRNO__NO_SYMBOLS,		/* ours: a readable file without any symbol */
	DSO_LOAD_ERRNO__END,
};

/* the file behind an MMAP2 without a build id, as the kernel saw it */
struct dso_inode {
	u32	maj, min;
	u64	ino, ino_generation;
	bool	valid;
};

/*
 * What tells the files of one path apart, as upstream perf's dso_id does: the MMAP2's device,
 * inode and inode generation, or the build id the kernel put in it instead. Two ids differ
 * only in a part both of them have: an id that knows nothing (an MMAP record, the header's
 * build-id table) matches any file of its path. build_id_size 0 (or an id of zeroes): none.
 */
struct dso_id {
	struct dso_inode	inode;
	u8			build_id_size;
	u8			build_id[BUILD_ID_SIZE_MAX];
};

struct dso {
	char			*long_name;	/* the path as recorded */
	struct dso_inode	inode;		/* its half of the dso_id (the build id is below) */
	const char		*short_name;	/* basename of long_name; "[JIT] tid PID" of a perf map */
	char			*short_name_alloc;	/* short_name when it is not in long_name */
	/* a perf map's pid (perf-map.h): long_name is /tmp/perf-PID.map; -1 for other dsos */
	int			jit_pid;
	enum dso_kind		kind;
	int			refcnt;
	bool			has_build_id;
	u8			build_id[BUILD_ID_SIZE_MAX];
	u8			build_id_size;
	bool			loaded;		/* load was attempted (successfully or not) */
	int			load_errno;	/* 0 when symbols were loaded */
	char			*symsrc_path;	/* the file symbols came from, for -v */
	char			symsrc_origin;	/* its letter in report -v (dso_file_cand) */
	struct symbols		symbols;
	struct dso_segment	*segs;		/* PT_LOAD segments, for offset -> vaddr */
	size_t			nr_segs;
	bool			is_exec;	/* ET_EXEC: vaddrs are absolute */
	/*
	 * .text's address less its file offset: upstream adds it to an address it takes for
	 * an offset into the DSO, as it takes a caller's recorded address (frame__srcline())
	 */
	u64			text_offset;
	/* -k: its map's start less its page offset, perf's unmap_ip() of an address for -v */
	u64			vmlinux_unmap;
	/* the kernel's maps came from this kcore (kcore.h): upstream's long name then; owned */
	char			*kcore_path;
	bool			ksymbol;	/* made by a PERF_RECORD_KSYMBOL (a BPF program...) */
	struct dso_lookup_cache	*cache;		/* recent lookups, owned; NULL until loaded */
	/* its files: symbol sources, code bytes, CFI, DWARF; owned; NULL until asked */
	struct dso_file		*file;
	struct hashmap_node	node;		/* in its dsos table */
	u32			seq;		/* creation order in its dsos table (0 first) */
};

/* refcount 1 (the caller's); NULL on allocation failure. long_name is copied. */
struct dso *dso__new(const char *long_name, enum dso_kind kind);
/* both accept NULL */
struct dso *dso__get(struct dso *dso);
void dso__put(struct dso *dso);
/* copies at most 20 bytes; size 0 clears the build id */
void dso__set_build_id(struct dso *dso, const u8 *id, size_t size);
/* the build id in lower-case hex, NUL-terminated: hex holds 2 * 20 + 1 bytes */
void dso__build_id_hex(const struct dso *dso, char *hex);
/*
 * perf's build-id cache: conf->buildid_dir, $PERF_BUILDID_DIR, else ~/.debug (made in buf);
 * NULL when there is none (no HOME). conf may be NULL.
 */
const char *symbol_conf__buildid_dir(const struct symbol_conf *conf, char *buf, size_t size);

/*
 * Loads the symbols of a user-space ELF DSO: the file under conf->symfs, or a debug file
 * found by build id (<symfs>/usr/lib/debug/.build-id/xx/rest.debug, the build-id cache) or
 * .gnu_debuglink, whose build id must match (dso-file.h). Adds PLT entries as "name@plt". Never fails hard: a DSO without a
 * readable file simply has no symbols (load_errno says why).
 *
 * Runs once (dso->loaded); returns 0 or -load_errno. conf may be NULL (no symfs). Kernel and
 * module DSOs are left alone, ->loaded included (their symbols come from kallsyms, loaded by
 * the machine); anonymous memory has none; [vdso] comes from perf's build-id cache
 * (~/.debug/[vdso]/<id>/vdso), else from this process's own vDSO if its build id is the
 * recorded one (or none was recorded), as perf falls back on its own.
 * If dso->has_build_id was false, it is set from the file when the file has one.
 *
 * Symbols stay at their ELF vaddrs, where perf moves them to file offsets; lookups translate
 * the sampled offset instead, which gives perf's symbol and offset everywhere except in the
 * first bytes of a segment that none of its own symbols covers (e.g. .tdata opening a static
 * binary's RW segment): perf may stretch a zero-sized symbol of the previous segment over
 * them. Code addresses are not affected.
 */
int dso__load(struct dso *dso, const struct symbol_conf *conf);

/*
 * file offset (ip - map->start + map->pgoff) -> symbol; *vaddr_out gets the ELF vaddr (for
 * kernel DSOs and DSOs without segments: the offset itself). Loads the DSO on first use.
 * The symbol is owned by the dso; NULL when no symbol covers the address.
 */
const struct symbol *dso__find_symbol_by_offset(struct dso *dso, const struct symbol_conf *conf,
						u64 offset, u64 *vaddr_out);

/* ELF vaddr -> file offset through the PT_LOAD segments (vaddr itself without them) */
u64 dso__vaddr_to_offset(const struct dso *dso, u64 vaddr);

/* a one-line reason for dso->load_errno, e.g. for -v output */
const char *dso__strerror_load(const struct dso *dso, char *buf, size_t size);

/*
 * The dsos of one machine, by long_name and dso_id. Lookups by a name alone (id NULL) match
 * every dso of that name; where several match, the first created is returned.
 */
struct dsos {
	struct hashmap	map;		/* struct dso by hash of long_name; holds a reference of each */
};

void dsos__init(struct dsos *dsos);
/* drops the dsos' references; dsos still referenced by maps live on until dso__put */
void dsos__exit(struct dsos *dsos);
/* returns a borrowed pointer owned by dsos; NULL only on allocation failure */
struct dso *dsos__findnew(struct dsos *dsos, const char *long_name, enum dso_kind kind);
/*
 * The same for one file of long_name: the first dso of that name whose id does not differ
 * from id (NULL: any), else a new one. A dso found learns what it lacked of id (its inode,
 * its build id), as upstream improves a dso's id, so that the next lookup of another file
 * of the path tells them apart.
 */
struct dso *dsos__findnew_id(struct dsos *dsos, const char *long_name, enum dso_kind kind,
			     const struct dso_id *id);
struct dso *dsos__find(const struct dsos *dsos, const char *long_name);
/* whether dso may be the file id names (id NULL: yes) */
bool dso__matches_id(const struct dso *dso, const struct dso_id *id);

/*
 * What kind of DSO a recorded mmap filename names. Bracketed names that are not the kernel,
 * [vdso] or a known user-space pseudo mapping ([heap], [stack...], [uprobes], [vsyscall],
 * [vvar...], [anon:...]) are taken for modules; any path is USER (even a .ko: perf only
 * treats it as a module for kernel-mode mmaps, which callers classify themselves).
 */
enum dso_kind dso__kind_of(const char *filename);

#endif
