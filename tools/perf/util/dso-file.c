// SPDX-License-Identifier: GPL-2.0
/*
 * dso-file.c - a DSO's files, found once, each piece opened on first use (dso-file.h).
 *
 *   dso->file
 *     lookup: the candidates that exist, build id checked once each
 *       main: the first own candidate that fits, mapped once (libelf; no fd kept)
 *         code bytes (the mapping), .eh_frame, PT_LOAD segments
 *       .debug_frame: the first fitting candidate that has one
 *     dwarf: dso->symsrc_path with libdw (its own fd: split DWARF is found beside it)
 *     inline: dwarf-inline.c's caches
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/helper-threads.h>
#include "dso.h"
#include "dso-file.h"
#include "dwarf-inline.h"
#include "elf-section.h"
#include "symbol-elf.h"

enum dwarf_state {
	DWARF_UNTRIED,
	DWARF_OK,
	DWARF_NONE,	/* no DWARF: nothing to show, nothing to say */
	DWARF_BAD,	/* unreadable: said once, nothing shown */
};

struct file_seg {
	u64	file_off;
	u64	vaddr;
};

/* the DWARF piece: written by its opener only, read after dwarf_join() */
struct file_dwarf {
	enum dwarf_state	state;
	struct helper_thread	opener;		/* .running: the opener's until joined */
	char			*path, *name;	/* the opener's copies */
	int			fd;
	Elf			*elf;
	Dwarf			*dw;
	unsigned int		bad_version;	/* a unit's unknown DWARF version, 0: none */
	char			*error;
	bool			error_said;
};

struct dso_file {
	struct dso		*dso;		/* the owner */
	bool			looked_up;
	struct dso_file_cand	*cands;
	size_t			nr_cands;
	int			vdso_fd;	/* our own vDSO's memfd, -1: none */
	bool			main_tried;
	Elf			*main;		/* NULL: no fitting own file */
	size_t			main_cand;	/* its candidate */
	const u8		*image;		/* main's bytes */
	size_t			image_size;
	bool			cfi_tried;
	struct dso_cfi		cfi;
	Elf			*debug_elf;	/* .debug_frame's file when not main */
	Dwarf			*debug_dw;	/* owns cfi.debug */
	struct file_seg		*segs;		/* main's PT_LOAD, by file offset */
	size_t			nr_segs;
	struct file_dwarf	dwarf;
	struct dso_dwarf	*inline_state;
};

struct dso_file *dso__file(struct dso *dso)
{
	struct dso_file *df = dso->file;

	if (df)
		return df;
	df = calloc(1, sizeof(*df));
	if (!df)
		return NULL;
	df->dso = dso;
	df->vdso_fd = -1;
	df->dwarf.fd = -1;
	dso->file = df;
	return df;
}

static void dwarf_join(struct file_dwarf *fd)
{
	helper_thread__join(&fd->opener);
}

void dso_file__delete(struct dso_file *df)
{
	if (!df)
		return;
	dwarf_join(&df->dwarf);
	dso_dwarf__delete(df->inline_state);
	if (df->dwarf.dw)
		dwarf_end(df->dwarf.dw);
	if (df->dwarf.elf)
		elf_end(df->dwarf.elf);
	if (df->dwarf.fd >= 0)
		close(df->dwarf.fd);
	free(df->dwarf.path);
	free(df->dwarf.name);
	free(df->dwarf.error);
	if (df->cfi.eh)
		dwarf_cfi_end(df->cfi.eh);
	/* cfi.debug belongs to debug_dw */
	if (df->debug_dw)
		dwarf_end(df->debug_dw);
	if (df->debug_elf)
		elf_end(df->debug_elf);
	if (df->main)
		elf_end(df->main);
	free(df->segs);
	for (size_t i = 0; i < df->nr_cands; i++)
		free(df->cands[i].path);
	free(df->cands);
	if (df->vdso_fd >= 0)
		close(df->vdso_fd);
	free(df);
}

struct dso_dwarf **dso_file__inline_state(struct dso_file *df)
{
	return &df->inline_state;
}

/* ---- the lookup ---- */

static bool join(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool join(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < size;
}

static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* the cache's root: conf's; with a symfs <symfs>/.debug (perf skips the local cache then) */
static const char *buildid_dir(const struct symbol_conf *conf, char *buf, size_t size)
{
	if (conf && !conf->buildid_dir && conf->symfs && conf->symfs[0])
		return join(buf, size, "%s/.debug", conf->symfs) ? buf : NULL;
	return symbol_conf__buildid_dir(conf, buf, size);
}

/*
 * The debug file .gnu_debuglink names, where perf looks for it: as given (relative to the
 * current directory), next to the DSO, in .debug/ there, and in /usr/lib/debug followed by
 * the DSO's directory *including* the symfs prefix. The first and last look odd with a
 * symfs, but they are what perf 7.2 does, and matching it is the point.
 */
static bool debuglink_path(const char *name, const char *symfs, char *out, size_t size)
{
	char bin[PATH_MAX], link[PATH_MAX];
	const char *slash;
	int dirlen;

	if (!join(bin, sizeof(bin), "%s%s", symfs, name) || !is_regular_file(bin))
		return false;
	if (filename__read_debuglink(bin, link, sizeof(link)))
		return false;
	slash = strrchr(bin, '/');
	dirlen = slash ? (int)(slash - bin) : 0;
	if (join(out, size, "%s", link) && is_regular_file(out))
		return true;
	if (join(out, size, "%.*s/%s", dirlen, bin, link) && is_regular_file(out))
		return true;
	if (join(out, size, "%.*s/.debug/%s", dirlen, bin, link) && is_regular_file(out))
		return true;
	return join(out, size, "/usr/lib/debug%.*s/%s", dirlen, bin, link) &&
	       is_regular_file(out);
}

enum candidate {
	CAND_DEBUGLINK,
	CAND_CACHE,		/* <B>/.build-id/xx/rest[/elf] */
	CAND_CACHE_DEBUG,	/* <B>/.build-id/xx/rest/debug */
	CAND_FEDORA,		/* /usr/lib/debug<path>.debug */
	CAND_UBUNTU,		/* /usr/lib/debug<path> */
	CAND_BUILD_ID,		/* /usr/lib/debug/.build-id/xx/rest.debug */
	CAND_DSO,		/* <path> */
	CAND_OPENEMBEDDED,	/* <dir>/.debug/<name> */
	CAND_MIXEDUP_UBUNTU,	/* /usr/lib/debug/lib/... for /usr/lib/... */
	CAND_NR,
};

/* upstream's letter for each, dso__symtab_origin() */
static const char cand_origin[CAND_NR] = {
	[CAND_DEBUGLINK]	= 'l',
	[CAND_CACHE]		= 'B',
	[CAND_CACHE_DEBUG]	= 'D',
	[CAND_FEDORA]		= 'f',
	[CAND_UBUNTU]		= 'u',
	[CAND_BUILD_ID]		= 'b',
	[CAND_DSO]		= 'd',
	[CAND_OPENEMBEDDED]	= 'o',
	[CAND_MIXEDUP_UBUNTU]	= 'x',
};

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* the cache's entry for the build id */
static bool cache_path(const struct dso *dso, const struct symbol_conf *conf, bool debug,
		       char *out, size_t size)
{
	char dirbuf[PATH_MAX], hex[BUILD_ID_HEX_SIZE];
	const char *dir = buildid_dir(conf, dirbuf, sizeof(dirbuf));

	if (!dir || !dso->has_build_id)
		return false;
	dso__build_id_hex(dso, hex);
	/* perf's old layout links the file itself */
	if (!debug && join(out, size, "%s/.build-id/%.2s/%s", dir, hex, hex + 2) &&
	    is_regular_file(out))
		return true;
	return join(out, size, "%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2,
		    debug ? "debug" : "elf") && is_regular_file(out);
}

static bool candidate_path(const struct dso *dso, const struct symbol_conf *conf,
			   const char *name, const char *symfs, enum candidate c, char *out,
			   size_t size)
{
	const char *slash = strrchr(name, '/');
	char hex[BUILD_ID_HEX_SIZE];

	switch (c) {
	case CAND_DEBUGLINK:
		return debuglink_path(name, symfs, out, size);
	case CAND_CACHE:
	case CAND_CACHE_DEBUG:
		return cache_path(dso, conf, c == CAND_CACHE_DEBUG, out, size);
	case CAND_FEDORA:
		return join(out, size, "%s/usr/lib/debug%s.debug", symfs, name);
	case CAND_UBUNTU:
		return join(out, size, "%s/usr/lib/debug%s", symfs, name);
	case CAND_BUILD_ID:
		if (!dso->has_build_id)
			return false;
		dso__build_id_hex(dso, hex);
		return join(out, size, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex,
			    hex + 2);
	case CAND_DSO:
		return join(out, size, "%s%s", symfs, name);
	case CAND_OPENEMBEDDED:
		if (!slash)
			return false;
		return join(out, size, "%s%.*s/.debug%s", symfs, (int)(slash - name), name, slash);
	case CAND_MIXEDUP_UBUNTU:
		if (!has_prefix(name, "/usr/lib/"))
			return false;
		return join(out, size, "%s/usr/lib/debug%s", symfs, name + 4);
	case CAND_NR:
	default:
		return false;
	}
}

/* our own vDSO, written to a memfd, when it is the one the recording saw (same build id) */
static int own_vdso_fd(const struct dso *dso)
{
	unsigned long ehdr = getauxval(AT_SYSINFO_EHDR);
	const u8 *image = (const u8 *)ehdr;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	u8 bid[BUILD_ID_SIZE_MAX];
	size_t size, bid_size = 0;
	char path[64];
	int fd;

	if (!image || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	/* the image ends with its section headers */
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size > (1 << 24))
		return -1;
	fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, image, size) != (ssize_t)size)
		goto out_close;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* with a recorded build id it must match; without one there is nothing to check */
	if (dso->has_build_id &&
	    (filename__read_build_id(path, bid, &bid_size) || bid_size != dso->build_id_size ||
	     memcmp(bid, dso->build_id, bid_size)))
		goto out_close;
	return fd;

out_close:
	close(fd);
	return -1;
}

/*
 * [vdso] has no file: perf record keeps a copy in the build-id cache (<B>/[vdso]/<id>/vdso);
 * failing that, this machine's own vDSO serves when its build id is the recorded one, or
 * when none was recorded: perf then takes its own too, and the cache's copy of that build
 * id when there is one. The memfd holding ours stays open with df, so that its
 * /proc/self/fd path stays valid.
 */
static int vdso_path(struct dso_file *df, const struct symbol_conf *conf, char *path,
		     size_t size)
{
	struct dso *dso = df->dso;
	char hex[BUILD_ID_HEX_SIZE], dirbuf[PATH_MAX];
	const char *dir = buildid_dir(conf, dirbuf, sizeof(dirbuf));

	if (!dso->has_build_id) {
		u8 bid[BUILD_ID_SIZE_MAX];
		size_t bid_size = 0;

		df->vdso_fd = own_vdso_fd(dso);
		if (df->vdso_fd < 0)
			return -ENOENT;
		snprintf(path, size, "/proc/self/fd/%d", df->vdso_fd);
		if (!filename__read_build_id(path, bid, &bid_size))
			dso__set_build_id(dso, bid, bid_size);
	}
	if (dso->has_build_id && dir) {
		dso__build_id_hex(dso, hex);
		if (join(path, size, "%s/%s/%s/vdso", dir, dso->long_name, hex) &&
		    is_regular_file(path)) {
			if (df->vdso_fd >= 0)
				close(df->vdso_fd);
			df->vdso_fd = -1;
			return 0;
		}
	}
	if (df->vdso_fd < 0)
		df->vdso_fd = own_vdso_fd(dso);
	if (df->vdso_fd < 0)
		return -ENOENT;
	snprintf(path, size, "/proc/self/fd/%d", df->vdso_fd);
	return 0;
}

/* is path the DSO's file: 0, or why not, as symsrc__init() would say */
static int check_file(const struct dso *dso, const char *path)
{
	struct symsrc ss;
	int err = symsrc__init(&ss, path, dso->has_build_id ? dso->build_id : NULL,
			       dso->build_id_size);

	if (!err)
		symsrc__exit(&ss);
	return err;
}

static int dso_file__lookup(struct dso_file *df, const struct symbol_conf *conf)
{
	struct dso *dso = df->dso;
	const char *symfs = conf && conf->symfs ? conf->symfs : "";
	char path[PATH_MAX], vdso[PATH_MAX];
	const char *name = dso->long_name;

	if (dso->kind == DSO_KIND_VDSO) {
		if (vdso_path(df, conf, vdso, sizeof(vdso)))
			return 0;
		/* looked up as if it were the DSO's file */
		name = vdso;
		symfs = "";
	} else if (dso->kind != DSO_KIND_USER) {
		return 0;
	}
	/* the build id decides which files fit; without a recorded one, ask the file */
	if (!dso->has_build_id && join(path, sizeof(path), "%s%s", symfs, name)) {
		u8 bid[BUILD_ID_SIZE_MAX];
		size_t size = 0;

		if (!filename__read_build_id(path, bid, &size))
			dso__set_build_id(dso, bid, size);
	}
	df->cands = calloc(CAND_NR, sizeof(*df->cands));
	if (!df->cands)
		return -ENOMEM;
	for (int c = 0; c < CAND_NR; c++) {
		struct dso_file_cand *cand = &df->cands[df->nr_cands];

		/* the vDSO's cache copy is its file already */
		if (dso->kind == DSO_KIND_VDSO && (c == CAND_CACHE || c == CAND_CACHE_DEBUG))
			continue;
		if (!candidate_path(dso, conf, name, symfs, (enum candidate)c, path, sizeof(path)) ||
		    !is_regular_file(path))
			continue;
		cand->path = strdup(path);
		if (!cand->path)
			return -ENOMEM;
		cand->err = check_file(dso, path);
		cand->own = c == CAND_DSO || c == CAND_CACHE;
		cand->is_dso = c == CAND_DSO;
		cand->origin = cand_origin[c];
		/* the vDSO's file is the cache's copy (perf finds it there), else our own */
		if (dso->kind == DSO_KIND_VDSO && c == CAND_DSO && df->vdso_fd < 0)
			cand->origin = 'B';
		df->nr_cands++;
	}
	return 0;
}

const struct dso_file_cand *dso_file__cands(struct dso_file *df, const struct symbol_conf *conf,
					    size_t *nr)
{
	if (!df->looked_up) {
		df->looked_up = true;
		/* out of memory: the candidates found so far */
		dso_file__lookup(df, conf);
	}
	*nr = df->nr_cands;
	return df->cands;
}

/* ---- the main ELF, its bytes, its segments ---- */

/* all of it in memory (mapped), so that fds do not pile up with the DSOs */
static Elf *elf_open_mapped(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && (elf_kind(elf) != ELF_K_ELF || elf_cntl(elf, ELF_C_FDREAD))) {
		elf_end(elf);
		elf = NULL;
	}
	if (elf)
		elf_cntl(elf, ELF_C_FDDONE);
	close(fd);
	return elf;
}

static Elf *dso_file__main(struct dso_file *df, const struct symbol_conf *conf)
{
	const struct dso_file_cand *cands;
	size_t nr;

	if (df->main_tried)
		return df->main;
	cands = dso_file__cands(df, conf, &nr);
	df->main_tried = true;
	elf_version(EV_CURRENT);
	for (size_t i = 0; i < nr && !df->main; i++) {
		char *image;

		if (!cands[i].own || cands[i].err)
			continue;
		df->main = elf_open_mapped(cands[i].path);
		df->main_cand = i;
		image = df->main ? elf_rawfile(df->main, &df->image_size) : NULL;
		df->image = (const u8 *)image;
	}
	return df->main;
}

const u8 *dso_file__code(struct dso_file *df, const struct symbol_conf *conf, u64 off,
			 size_t want, size_t *len)
{
	/* the vDSO's bytes were never decoded: its frames keep the FP rule */
	if (df->dso->kind != DSO_KIND_USER || !dso_file__main(df, conf) || !df->image ||
	    off >= df->image_size)
		return NULL;
	*len = df->image_size - off < want ? (size_t)(df->image_size - off) : want;
	return df->image + off;
}

/* the PT_LOAD segments of elf, sorted by file offset as the loader maps them */
static int dso_file__read_segs(struct dso_file *df, Elf *elf)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum) || !phnum)
		return 0;
	df->segs = calloc(phnum, sizeof(*df->segs));
	if (!df->segs)
		return -ENOMEM;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		size_t j;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		for (j = df->nr_segs; j > 0 && df->segs[j - 1].file_off > ph.p_offset; j--)
			df->segs[j] = df->segs[j - 1];
		df->segs[j].file_off = ph.p_offset;
		df->segs[j].vaddr = ph.p_vaddr;
		df->nr_segs++;
	}
	return 0;
}

u64 dso_file__vaddr(const struct dso_file *df, u64 offset)
{
	const struct file_seg *seg;

	if (!df->nr_segs)
		return offset;
	seg = &df->segs[0];
	for (size_t i = 1; i < df->nr_segs && df->segs[i].file_off <= offset; i++)
		seg = &df->segs[i];
	return offset - seg->file_off + seg->vaddr;
}

/* ---- CFI ---- */

/* a section named name (or alt, may be NULL); nobits: also one without file bytes */
static bool elf_has_section(Elf *elf, const char *name, const char *alt, bool nobits)
{
	GElf_Shdr shdr;

	if (elf__section_by_name(elf, name, &shdr, NULL) && (nobits || shdr.sh_type != SHT_NOBITS))
		return true;
	return alt && elf__section_by_name(elf, alt, &shdr, NULL) &&
	       (nobits || shdr.sh_type != SHT_NOBITS);
}

/* elf's .debug_frame into df->cfi.debug; true when taken */
static bool dso_file__take_debug_frame(struct dso_file *df, Elf *elf)
{
	Dwarf *dw;
	Dwarf_CFI *cfi;

	if (!elf_has_section(elf, ".debug_frame", NULL, false))
		return false;
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	cfi = dw ? dwarf_getcfi(dw) : NULL;
	if (!cfi) {
		if (dw)
			dwarf_end(dw);
		return false;
	}
	df->debug_dw = dw;
	df->cfi.debug = cfi;
	return true;
}

const struct dso_cfi *dso_file__cfi(struct dso_file *df, const struct symbol_conf *conf)
{
	const struct dso_file_cand *cands;
	Elf *main;
	size_t nr;

	if (df->cfi_tried)
		return &df->cfi;
	df->cfi_tried = true;
	main = dso_file__main(df, conf);
	/* the unwinder knows 64-bit code only */
	if (main && gelf_getclass(main) != ELFCLASS64)
		main = NULL;
	if (main) {
		df->cfi.eh = dwarf_getcfi_elf(main);
		/* a debug file's program headers keep the addresses, not the file offsets */
		if (dso_file__read_segs(df, main))
			return &df->cfi;
	}
	/* .debug_frame: the first file that has it, debug files before the DSO's own */
	cands = dso_file__cands(df, conf, &nr);
	for (size_t i = 0; i < nr && !df->cfi.debug; i++) {
		Elf *elf;

		if (cands[i].err)
			continue;
		if (main && i == df->main_cand) {
			if (dso_file__take_debug_frame(df, main))
				break;
			continue;
		}
		elf = elf_open_mapped(cands[i].path);
		if (!elf)
			continue;
		if (gelf_getclass(elf) == ELFCLASS64 && dso_file__take_debug_frame(df, elf)) {
			df->debug_elf = elf;
			break;
		}
		elf_end(elf);
	}
	return &df->cfi;
}

/* ---- DWARF ---- */

static void dwarf_fail(struct file_dwarf *fd, const char *name, const char *path,
		       const char *what)
{
	char buf[512];

	fd->state = DWARF_BAD;
	if (fd->error)
		return;
	snprintf(buf, sizeof(buf), "%s: cannot read DWARF of %s: %s; its frames are shown without inline functions",
		 name, path, what);
	fd->error = strdup(buf);
}

/*
 * every unit header must read, with a DWARF version libdw knows, and its unit DIE with it:
 * a corrupt .debug_info is found here, before any answer
 */
static int dwarf_check_units(struct file_dwarf *fd)
{
	Dwarf_Off off = 0, next;
	Dwarf_Half version;
	size_t hsize;
	Dwarf_Die die;

	for (;;) {
		int ret = dwarf_next_unit(fd->dw, off, &next, &hsize, &version, NULL, NULL, NULL,
					  NULL, NULL);

		if (ret > 0)
			return 0;
		if (ret < 0)
			return -1;
		if (version < 2 || version > 5) {
			fd->bad_version = version;
			return -1;
		}
		if (!dwarf_offdie(fd->dw, off + hsize, &die))
			return -1;
		off = next;
	}
}

/*
 * Touches nothing but fd: it may run on the opener thread (name: the DSO's, for the error).
 * libelf is initialized (elf_version()) by the caller, once, on the command's thread.
 */
static void dwarf_open(struct file_dwarf *fd, const char *name, const char *path)
{
	fd->state = DWARF_NONE;
	if (!path)
		return;
	fd->fd = open(path, O_RDONLY);
	if (fd->fd < 0)
		return;
	fd->elf = elf_begin(fd->fd, ELF_C_READ_MMAP, NULL);
	if (!fd->elf || !elf_has_section(fd->elf, ".debug_info", ".zdebug_info", true))
		return;
	fd->dw = dwarf_begin_elf(fd->elf, DWARF_C_READ, NULL);
	if (!fd->dw) {
		dwarf_fail(fd, name, path, dwarf_errmsg(-1));
		return;
	}
	if (dwarf_check_units(fd)) {
		char what[64];

		if (fd->bad_version)
			snprintf(what, sizeof(what), "unit version %u", fd->bad_version);
		dwarf_fail(fd, name, path, fd->bad_version ? what : dwarf_errmsg(-1));
		return;
	}
	fd->state = DWARF_OK;
}

static void dwarf_opener(void *arg)
{
	struct file_dwarf *fd = arg;

	dwarf_open(fd, fd->name, fd->path);
}

bool dso_file__dwarf_prefetch(struct dso_file *df, struct helper_budget *hb)
{
	struct file_dwarf *fd = &df->dwarf;

	/* running first: while it is set, the state is the opener's */
	if (fd->opener.running || fd->state != DWARF_UNTRIED || !df->dso->symsrc_path ||
	    df->dso->kind == DSO_KIND_ANON || elf_version(EV_CURRENT) == EV_NONE)
		return false;
	fd->path = strdup(df->dso->symsrc_path);
	fd->name = strdup(df->dso->long_name);
	if (!fd->path || !fd->name) {
		free(fd->path);
		free(fd->name);
		fd->path = fd->name = NULL;
		return false;
	}
	/* no slot free: opened here and now, as the first lookup would */
	return helper_thread__start(&fd->opener, hb, dwarf_opener, fd, HELPER_INLINE);
}

Dwarf *dso_file__dwarf(struct dso_file *df, Elf **elf)
{
	struct file_dwarf *fd = &df->dwarf;

	dwarf_join(fd);
	if (fd->state == DWARF_UNTRIED) {
		/* ELF files only: a perf map's symbols come from a text file */
		if (elf_version(EV_CURRENT) == EV_NONE || df->dso->kind == DSO_KIND_ANON)
			fd->state = DWARF_NONE;
		else
			dwarf_open(fd, df->dso->long_name, df->dso->symsrc_path);
	}
	if (fd->state != DWARF_OK)
		return NULL;
	if (elf)
		*elf = fd->elf;
	return fd->dw;
}

void dso_file__dwarf_fail(struct dso_file *df, const char *what)
{
	dwarf_fail(&df->dwarf, df->dso->long_name, df->dso->symsrc_path, what);
}

const char *dso_file__dwarf_error(struct dso_file *df)
{
	struct file_dwarf *fd = &df->dwarf;

	dwarf_join(fd);
	if (!fd->error || fd->error_said)
		return NULL;
	fd->error_said = true;
	return fd->error;
}
