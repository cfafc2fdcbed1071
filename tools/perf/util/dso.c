// SPDX-License-Identifier: GPL-2.0
/*
 * dso.c - DSO objects, the per-machine table of them, and finding the file a DSO's symbols
 * come from (the candidate order is documented in dso.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "dso.h"
#include "dwarf-inline.h"
#include "symbol-elf.h"

/*
 * Samples repeat addresses: the same return addresses fill every callchain. A small
 * direct-mapped cache in front of the binary search pays for itself many times over.
 */
#define LOOKUP_CACHE_SIZE	256

struct dso_lookup_cache {
	struct {
		u64			offset;
		u64			vaddr;
		const struct symbol	*sym;
		bool			valid;
	} e[LOOKUP_CACHE_SIZE];
};

struct dso *dso__new(const char *long_name, enum dso_kind kind)
{
	struct dso *dso = calloc(1, sizeof(*dso));
	const char *slash;

	if (!dso)
		return NULL;
	dso->long_name = strdup(long_name);
	if (!dso->long_name) {
		free(dso);
		return NULL;
	}
	slash = strrchr(dso->long_name, '/');
	dso->short_name = slash && slash[1] ? slash + 1 : dso->long_name;
	dso->kind = kind;
	dso->refcnt = 1;
	symbols__init(&dso->symbols);
	return dso;
}

struct dso *dso__get(struct dso *dso)
{
	if (dso)
		dso->refcnt++;
	return dso;
}

void dso__put(struct dso *dso)
{
	if (!dso || --dso->refcnt > 0)
		return;
	symbols__exit(&dso->symbols);
	dso_dwarf__delete(dso->dwarf);
	free(dso->cache);
	free(dso->segs);
	free(dso->symsrc_path);
	free(dso->long_name);
	free(dso);
}

void dso__set_build_id(struct dso *dso, const u8 *id, size_t size)
{
	if (size > sizeof(dso->build_id))
		size = sizeof(dso->build_id);
	memset(dso->build_id, 0, sizeof(dso->build_id));
	if (size)
		memcpy(dso->build_id, id, size);
	dso->build_id_size = (u8)size;
	dso->has_build_id = size > 0;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

enum dso_kind dso__kind_of(const char *filename)
{
	static const char * const anon_prefixes[] = {
		"//anon", "/dev/zero", "/anon_hugepage", "/SYSV", "/memfd:",
		"[heap]", "[stack", "[uprobes]", "[vsyscall]", "[vvar", "[anon:",
	};

	if (has_prefix(filename, "[kernel.kallsyms]") ||
	    has_prefix(filename, "[guest.kernel.kallsyms"))
		return DSO_KIND_KERNEL;
	if (!strcmp(filename, "[vdso]") || !strcmp(filename, "[vdso32]") ||
	    !strcmp(filename, "[vdsox32]"))
		return DSO_KIND_VDSO;
	for (size_t i = 0; i < ARRAY_SIZE(anon_prefixes); i++)
		if (has_prefix(filename, anon_prefixes[i]))
			return DSO_KIND_ANON;
	if (filename[0] == '[')
		return DSO_KIND_KMODULE;
	return DSO_KIND_USER;
}

/* ---- finding the symbol source ---- */

struct candidates {
	char		path[PATH_MAX];
	const char	*symfs;
	const char	*long_name;
};

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

static void build_id_hex(const struct dso *dso, char *hex)
{
	for (size_t i = 0; i < dso->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", dso->build_id[i]);
	hex[2 * dso->build_id_size] = '\0';
}

/*
 * The debug file .gnu_debuglink names, where perf looks for it: as given (relative to the
 * current directory), next to the DSO, in .debug/ there, and in /usr/lib/debug followed by
 * the DSO's directory *including* the symfs prefix. The first and last look odd with a
 * symfs, but they are what perf 7.2 does, and matching it is the point.
 */
static bool debuglink_path(const struct dso *dso, const char *symfs, char *out, size_t size)
{
	char bin[PATH_MAX], link[PATH_MAX];
	const char *slash;
	int dirlen;

	if (!join(bin, sizeof(bin), "%s%s", symfs, dso->long_name) || !is_regular_file(bin))
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
	CAND_FEDORA,		/* /usr/lib/debug<path>.debug */
	CAND_UBUNTU,		/* /usr/lib/debug<path> */
	CAND_BUILD_ID,		/* /usr/lib/debug/.build-id/xx/rest.debug */
	CAND_DSO,		/* <path> */
	CAND_OPENEMBEDDED,	/* <dir>/.debug/<name> */
	CAND_MIXEDUP_UBUNTU,	/* /usr/lib/debug/lib/... for /usr/lib/... */
	CAND_NR,
};

static bool candidate_path(const struct dso *dso, const char *symfs, enum candidate c,
			   char *out, size_t size)
{
	const char *name = dso->long_name, *slash = strrchr(name, '/');
	char hex[2 * sizeof(dso->build_id) + 1];

	switch (c) {
	case CAND_DEBUGLINK:
		return debuglink_path(dso, symfs, out, size);
	case CAND_FEDORA:
		return join(out, size, "%s/usr/lib/debug%s.debug", symfs, name);
	case CAND_UBUNTU:
		return join(out, size, "%s/usr/lib/debug%s", symfs, name);
	case CAND_BUILD_ID:
		if (!dso->has_build_id)
			return false;
		build_id_hex(dso, hex);
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

/* demangle: C++ names as perf prints them (--no-demangle: as the file has them) */
static int dso__load_elf(struct dso *dso, const char *symfs, bool demangle)
{
	struct symsrc ss[2], *syms_ss = NULL, *runtime_ss = NULL;
	int nr_ss = 0, err = 0, dso_err = 0, nr;
	char path[PATH_MAX];

	/* the build id decides which debug files fit; without a recorded one, ask the file */
	if (!dso->has_build_id && join(path, sizeof(path), "%s%s", symfs, dso->long_name)) {
		u8 bid[BUILD_ID_MAX];
		size_t size = 0;

		if (!filename__read_build_id(path, bid, &size))
			dso__set_build_id(dso, bid, size);
	}

	for (int c = 0; c < CAND_NR; c++) {
		struct symsrc *cur = &ss[nr_ss];
		bool used = false;
		int ret;

		if (!candidate_path(dso, symfs, (enum candidate)c, path, sizeof(path)) ||
		    !is_regular_file(path))
			continue;
		ret = symsrc__init(cur, path, dso->has_build_id ? dso->build_id : NULL,
				   dso->build_id_size);
		cur->demangle = demangle;
		if (ret) {
			/* say why the DSO's own file was unusable, else why a debug file was */
			if (c == CAND_DSO || !dso_err)
				dso_err = -ret;
			continue;
		}
		if (!syms_ss && symsrc__has_symtab(cur)) {
			syms_ss = cur;
			used = true;
		}
		if (!runtime_ss && symsrc__possibly_runtime(cur)) {
			runtime_ss = cur;
			used = true;
		}
		if (!used) {
			/* an ELF file without symbol tables: stripped of even .dynsym, or damaged */
			if (c == CAND_DSO || !dso_err)
				dso_err = DSO_LOAD_ERRNO__NO_SYMBOLS;
			symsrc__exit(cur);
			continue;
		}
		nr_ss++;
		if (syms_ss && runtime_ss)
			break;
	}
	if (!syms_ss && !runtime_ss)
		return -(dso_err ? dso_err : ENOENT);
	if (!syms_ss)
		syms_ss = runtime_ss;
	if (!runtime_ss)
		runtime_ss = syms_ss;

	nr = dso__load_sym(dso, syms_ss, runtime_ss);
	if (nr > 0) {
		int nr_plt = dso__synthesize_plt_symbols(dso, runtime_ss);

		if (nr_plt < 0)
			nr = nr_plt;
	}
	if (nr >= 0)
		err = dso__read_segments(dso, runtime_ss);
	else
		err = nr;
	if (!err) {
		dso->symsrc_path = strdup(syms_ss->path);
		if (!dso->symsrc_path)
			err = -ENOMEM;
	}
	while (nr_ss > 0)
		symsrc__exit(&ss[--nr_ss]);
	if (err)
		return err;
	return nr > 0 ? 0 : -DSO_LOAD_ERRNO__NO_SYMBOLS;
}

/* our own vDSO, written to a memfd, when it is the one the recording saw (same build id) */
static int own_vdso_fd(const struct dso *dso)
{
	unsigned long ehdr = getauxval(AT_SYSINFO_EHDR);
	const u8 *image = (const u8 *)ehdr;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	u8 bid[BUILD_ID_MAX];
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
 * [vdso] has no file: perf record keeps a copy in the build-id cache; failing that, this
 * machine's own vDSO serves when its build id is the recorded one, or when none was
 * recorded. perf 6.1 and 7.2 leave the frames [unknown] without the cache's copy (seen
 * with HOME elsewhere): a matching build id makes ours the same bytes. path gets the file;
 * *fd is a memfd holding our own vDSO (the caller closes it), -1 for the cache's copy.
 */
static int vdso_path(const struct dso *dso, char *path, size_t size, int *fd)
{
	const char *home = getenv("HOME");
	char hex[2 * BUILD_ID_MAX + 1];

	*fd = -1;
	if (dso->has_build_id)
		build_id_hex(dso, hex);
	if (dso->has_build_id && home &&
	    join(path, size, "%s/.debug/%s/%s/vdso", home, dso->long_name, hex) &&
	    is_regular_file(path))
		return 0;
	*fd = own_vdso_fd(dso);
	if (*fd < 0)
		return -ENOENT;
	snprintf(path, size, "/proc/self/fd/%d", *fd);
	return 0;
}

static int dso__load_vdso(struct dso *dso)
{
	char path[PATH_MAX];
	char *recorded = dso->long_name;
	int fd, err;

	if (vdso_path(dso, path, sizeof(path), &fd))
		return -ENOENT;
	/* load it as if it were the DSO's file */
	dso->long_name = path;
	err = dso__load_elf(dso, "", true);
	dso->long_name = recorded;
	if (fd >= 0)
		close(fd);
	return err;
}

int dso__for_each_file(struct dso *dso, const struct symbol_conf *conf,
		       int (*fn)(const char *path, bool own_file, void *arg), void *arg)
{
	const char *symfs = conf && conf->symfs ? conf->symfs : "";
	char path[PATH_MAX];
	int ret = 0, fd;

	if (dso->kind == DSO_KIND_VDSO) {
		if (vdso_path(dso, path, sizeof(path), &fd))
			return 0;
		ret = fn(path, true, arg);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (dso->kind != DSO_KIND_USER)
		return 0;
	if (!dso->has_build_id && join(path, sizeof(path), "%s%s", symfs, dso->long_name)) {
		u8 bid[BUILD_ID_MAX];
		size_t size = 0;

		if (!filename__read_build_id(path, bid, &size))
			dso__set_build_id(dso, bid, size);
	}
	for (int c = 0; c < CAND_NR && !ret; c++) {
		if (!candidate_path(dso, symfs, (enum candidate)c, path, sizeof(path)) ||
		    !is_regular_file(path))
			continue;
		if (dso->has_build_id) {
			u8 bid[BUILD_ID_MAX];
			size_t size = 0;

			if (filename__read_build_id(path, bid, &size) ||
			    size != dso->build_id_size || memcmp(bid, dso->build_id, size))
				continue;
		}
		ret = fn(path, c == CAND_DSO, arg);
	}
	return ret;
}

int dso__load(struct dso *dso, const struct symbol_conf *conf)
{
	const char *symfs = conf && conf->symfs ? conf->symfs : "";
	int err;

	/* kallsyms belongs to the machine, which also sets ->loaded for these */
	if (dso->kind == DSO_KIND_KERNEL || dso->kind == DSO_KIND_KMODULE)
		return 0;
	if (dso->loaded)
		return -dso->load_errno;
	dso->loaded = true;

	switch (dso->kind) {
	case DSO_KIND_ANON:
		return 0;
	case DSO_KIND_VDSO:
	case DSO_KIND_USER:
	case DSO_KIND_KERNEL:
	case DSO_KIND_KMODULE:
	default:
		break;
	}

	err = dso->kind == DSO_KIND_VDSO ? dso__load_vdso(dso) :
	      dso__load_elf(dso, symfs, !conf || !conf->no_demangle);
	if (err && err != -DSO_LOAD_ERRNO__NO_SYMBOLS) {
		/* whatever a failed load added is not perf's table: drop it all */
		symbols__exit(&dso->symbols);
		free(dso->segs);
		dso->segs = NULL;
		dso->nr_segs = 0;
	}
	symbols__seal(&dso->symbols);
	dso->load_errno = -err;
	return err;
}

const struct symbol *dso__find_symbol_by_offset(struct dso *dso, const struct symbol_conf *conf,
						u64 offset, u64 *vaddr_out)
{
	const struct symbol *sym;
	u64 vaddr = offset;
	size_t slot = (size_t)((offset >> 2) ^ (offset >> 12)) % LOOKUP_CACHE_SIZE;

	/* kernel symbols come and go with kallsyms and KSYMBOL events: never cached */
	if (dso->kind == DSO_KIND_KERNEL || dso->kind == DSO_KIND_KMODULE) {
		if (vaddr_out)
			*vaddr_out = offset;
		return symbols__find(&dso->symbols, offset);
	}
	if (!dso->loaded) {
		dso__load(dso, conf);
		/* without it lookups are only slower */
		dso->cache = calloc(1, sizeof(*dso->cache));
	}
	if (dso->cache && dso->cache->e[slot].valid && dso->cache->e[slot].offset == offset) {
		if (vaddr_out)
			*vaddr_out = dso->cache->e[slot].vaddr;
		return dso->cache->e[slot].sym;
	}
	if (dso->nr_segs) {
		/*
		 * The segment with the highest file offset at or below ours: the one holding
		 * it, or for an offset in the padding after a segment, that segment extended,
		 * which is where perf's offset-space symbols would put it too.
		 */
		const struct dso_segment *seg = &dso->segs[0];

		for (size_t i = 1; i < dso->nr_segs && dso->segs[i].file_off <= offset; i++)
			seg = &dso->segs[i];
		vaddr = offset - seg->file_off + seg->vaddr;
	}
	sym = symbols__find(&dso->symbols, vaddr);
	if (dso->cache) {
		dso->cache->e[slot].offset = offset;
		dso->cache->e[slot].vaddr = vaddr;
		dso->cache->e[slot].sym = sym;
		dso->cache->e[slot].valid = true;
	}
	if (vaddr_out)
		*vaddr_out = vaddr;
	return sym;
}

u64 dso__vaddr_to_offset(const struct dso *dso, u64 vaddr)
{
	const struct dso_segment *seg = NULL;

	/* the segment with the highest vaddr at or below ours */
	for (size_t i = 0; i < dso->nr_segs; i++)
		if (dso->segs[i].vaddr <= vaddr && (!seg || dso->segs[i].vaddr > seg->vaddr))
			seg = &dso->segs[i];
	return seg ? vaddr - seg->vaddr + seg->file_off : vaddr;
}

const char *dso__strerror_load(const struct dso *dso, char *buf, size_t size)
{
	static const char * const msgs[] = {
		[DSO_LOAD_ERRNO__INTERNAL_ERROR - DSO_LOAD_ERRNO__START] = "internal error",
		[DSO_LOAD_ERRNO__INVALID_ELF - DSO_LOAD_ERRNO__START] = "invalid ELF file",
		[DSO_LOAD_ERRNO__CANNOT_READ_BUILDID - DSO_LOAD_ERRNO__START] =
			"the file has no build id to check against the recorded one",
		[DSO_LOAD_ERRNO__MISMATCHING_BUILDID - DSO_LOAD_ERRNO__START] =
			"the file's build id differs from the recorded one",
		[DSO_LOAD_ERRNO__DECOMPRESSION_FAILURE - DSO_LOAD_ERRNO__START] =
			"decompression failed",
		[DSO_LOAD_ERRNO__NO_SYMBOLS - DSO_LOAD_ERRNO__START] = "no symbols in the file",
	};
	int e = dso->load_errno;

	if (e >= DSO_LOAD_ERRNO__START && e < DSO_LOAD_ERRNO__END)
		snprintf(buf, size, "%s", msgs[e - DSO_LOAD_ERRNO__START]);
	else
		snprintf(buf, size, "%s", strerror(e));
	return buf;
}

/* ---- the table ---- */

static size_t name_hash(const char *s)
{
	u64 h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s) {
		h ^= (u8)*s++;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

void dsos__init(struct dsos *dsos)
{
	memset(dsos, 0, sizeof(*dsos));
}

void dsos__exit(struct dsos *dsos)
{
	for (size_t i = 0; i < dsos->nr_buckets; i++) {
		struct dso *dso = dsos->buckets[i];

		while (dso) {
			struct dso *next = dso->hash_next;

			dso->hash_next = NULL;
			dso__put(dso);
			dso = next;
		}
	}
	free(dsos->buckets);
	dsos__init(dsos);
}

struct dso *dsos__find(const struct dsos *dsos, const char *long_name)
{
	struct dso *dso;

	if (!dsos->nr_buckets)
		return NULL;
	for (dso = dsos->buckets[name_hash(long_name) % dsos->nr_buckets]; dso; dso = dso->hash_next)
		if (!strcmp(dso->long_name, long_name))
			return dso;
	return NULL;
}

static int dsos__grow(struct dsos *dsos)
{
	size_t n = dsos->nr_buckets ? dsos->nr_buckets * 2 : 64;
	struct dso **b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < dsos->nr_buckets; i++) {
		struct dso *dso = dsos->buckets[i];

		while (dso) {
			struct dso *next = dso->hash_next;
			size_t h = name_hash(dso->long_name) % n;

			dso->hash_next = b[h];
			b[h] = dso;
			dso = next;
		}
	}
	free(dsos->buckets);
	dsos->buckets = b;
	dsos->nr_buckets = n;
	return 0;
}

struct dso *dsos__findnew(struct dsos *dsos, const char *long_name, enum dso_kind kind)
{
	struct dso *dso = dsos__find(dsos, long_name);
	size_t h;

	if (dso)
		return dso;
	if (dsos->nr >= dsos->nr_buckets && dsos__grow(dsos))
		return NULL;
	dso = dso__new(long_name, kind);
	if (!dso)
		return NULL;
	dso->seq = (u32)dsos->nr;
	h = name_hash(long_name) % dsos->nr_buckets;
	dso->hash_next = dsos->buckets[h];
	dsos->buckets[h] = dso;
	dsos->nr++;
	return dso;
}
