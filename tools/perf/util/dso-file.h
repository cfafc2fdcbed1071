/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dso-file.h - the files of one DSO, as libdwfl's Dwfl_Module holds a module's: which files
 * are the DSO's (found once, each one's build id checked once), the main ELF (the DSO's own
 * file: its code bytes, .eh_frame and PT_LOAD segments), the .debug_frame of the main file or
 * of a debug file, and the DWARF of the file its symbols came from (inline frames, srclines).
 *
 * Where the files are looked for, paths under symbol_conf.symfs (<S>) except the build-id
 * cache's (<B>: conf->buildid_dir; with a symfs <S>/.debug, as perf's --symfs sets it, the
 * local cache skipped; else $PERF_BUILDID_DIR, else ~/.debug):
 *   1. the .gnu_debuglink file <link> of <S><path>: <link> itself (relative to the current
 *      directory), <S><dir>/<link>, <S><dir>/.debug/<link>, /usr/lib/debug<S><dir>/<link>
 *      (the first and last exactly as perf builds them, odd as they are with a symfs)
 *   2. the build-id cache: <B>/.build-id/<xx>/<rest> (perf's old layout: the file itself),
 *      else <B>/.build-id/<xx>/<rest>/elf (perf record's copy of the DSO's own file), then
 *      .../debug (the debug file perf record copied beside it)
 *   3. /usr/lib/debug<path>.debug, /usr/lib/debug<path>
 *   4. /usr/lib/debug/.build-id/<xx>/<rest>.debug
 *   5. <path> itself
 *   6. <dir>/.debug/<name>, and /usr/lib/debug/lib/... for a /usr/lib/... path
 * That is upstream perf's order: the symbols come from the first with a .symtab, and report
 * -v names that one by upstream's letter for it (dso_file_cand.origin).
 * The DSO's build id is the recorded one, else the one in <S><path>. A file whose build id
 * differs (or that has none) is not the DSO's: every piece below skips it, as perf skips it.
 * [vdso]: its one file, the cache copy <B>/[vdso]/<id>/vdso, else this process's own vDSO
 * when its build id is the recorded one (or none was recorded: then its build id becomes the
 * dso's, and the cache's copy of it serves first), then the same list for it.
 *
 * Each piece is made on its first use and kept until the dso is freed: the lookup, the main
 * ELF, the CFI, the DWARF. A piece that cannot be made (no file, unreadable) is remembered as
 * missing. conf is the first caller's: a dso belongs to one machine, which has one conf.
 *
 * Threads: the pieces are made on the command's thread, except the DWARF, which
 * dso_file__dwarf_prefetch() may open on a helper thread (perf/helper-threads.h). That thread touches its own piece
 * only (with copies of the path and name), and every reader of the piece joins it first, so
 * no lock is taken per lookup.
 *
 * Ownership: the dso owns its dso_file (dso->file, freed by dso__put()); everything returned
 * here lives as long as it.
 */
#ifndef PERF_UTIL_DSO_FILE_H
#define PERF_UTIL_DSO_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <libelf.h>
#include <perf/abi.h>

struct dso;
struct dso_dwarf;
struct helper_budget;
struct symbol_conf;
typedef struct Dwarf Dwarf;
typedef struct Dwarf_CFI_s Dwarf_CFI;

struct dso_file;

/* one of the DSO's files, in the order above */
struct dso_file_cand {
	char	*path;
	/* 0: the DSO's (build id checked); else -errno or -DSO_LOAD_ERRNO__* saying why not */
	int	err;
	bool	own;		/* the DSO's own file (or the cache's copy of it), not debug info */
	bool	is_dso;		/* <S><path> itself */
	/* its letter in report -v, upstream's dso__symtab_origin() of its binary type */
	char	origin;
};

/* the CFI sections: the main file's .eh_frame, the first .debug_frame; NULL: none */
struct dso_cfi {
	Dwarf_CFI	*eh;
	Dwarf_CFI	*debug;
};

/* dso->file, allocated on first use; NULL on allocation failure */
struct dso_file *dso__file(struct dso *dso);
/* closes everything (waiting for a DWARF opener); NULL is fine */
void dso_file__delete(struct dso_file *df);

/*
 * The candidates that exist, each with its build-id check; *nr gets their number. Sets the
 * dso's build id from <S><path> when none was recorded. conf may be NULL (no symfs, the
 * default build-id cache). Kernel, module and anonymous DSOs have none.
 */
const struct dso_file_cand *dso_file__cands(struct dso_file *df, const struct symbol_conf *conf,
					    size_t *nr);

/*
 * The bytes of the DSO's own file (build id checked) from file offset off: *len (at most
 * want) of them. NULL when the DSO has no such file (or is not a user-space file) or off is
 * past its end.
 */
const u8 *dso_file__code(struct dso_file *df, const struct symbol_conf *conf, u64 off,
			 size_t want, size_t *len);

/* the CFI sections, opened once; never NULL (both members NULL: no CFI) */
const struct dso_cfi *dso_file__cfi(struct dso_file *df, const struct symbol_conf *conf);

/*
 * File offset -> ELF vaddr through the main file's PT_LOAD segments (the one holding it, or
 * the one before it); the offset itself without them. Valid once dso_file__cfi() was called.
 */
u64 dso_file__vaddr(const struct dso_file *df, u64 offset);

/*
 * The DWARF of dso->symsrc_path (the symbols must be loaded), opened once, every unit
 * header checked: NULL when the file has none or it is unreadable (dso_file__dwarf_error()).
 * *elf (may be NULL) gets its ELF.
 */
Dwarf *dso_file__dwarf(struct dso_file *df, Elf **elf);
/*
 * Starts opening the DWARF on a helper thread with a slot of hb (borrowed until the join),
 * else opens it here; true when a thread was started, false when it was opened here, is open
 * or being opened already, or the DSO has no symbol source.
 */
bool dso_file__dwarf_prefetch(struct dso_file *df, struct helper_budget *hb);
/* the DWARF turned out unreadable past its headers: NULL from now on, what said once */
void dso_file__dwarf_fail(struct dso_file *df, const char *what);
/* why the DWARF could not be read, returned once (the first call after the failure) */
const char *dso_file__dwarf_error(struct dso_file *df);

/* dwarf-inline.c's state for the DSO, freed with it by dso_dwarf__delete() */
struct dso_dwarf **dso_file__inline_state(struct dso_file *df);

#endif
