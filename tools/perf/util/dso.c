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
#include <perf/kernel.h>
#include "build-id.h"
#include "dso.h"
#include "perf-map.h"
#include "dso-file.h"
#include "hash.h"
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
	dso->jit_pid = kind == DSO_KIND_ANON ? perf_map__pid(long_name) : -1;
	if (dso->jit_pid >= 0 &&
	    asprintf(&dso->short_name_alloc, "[JIT] tid %d", dso->jit_pid) > 0)
		dso->short_name = dso->short_name_alloc;
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
	dso_file__delete(dso->file);
	free(dso->cache);
	free(dso->segs);
	free(dso->symsrc_path);
	free(dso->kcore_path);
	free(dso->short_name_alloc);
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

void dso__build_id_hex(const struct dso *dso, char *hex)
{
	build_id__hex(dso->build_id, dso->build_id_size, hex);
}

const char *symbol_conf__buildid_dir(const struct symbol_conf *conf, char *buf, size_t size)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	int n;

	if (conf && conf->buildid_dir)
		return conf->buildid_dir;
	if (dir && *dir)
		return dir;
	if (!home)
		return NULL;
	n = snprintf(buf, size, "%s/.debug", home);
	return n >= 0 && (size_t)n < size ? buf : NULL;
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

/* ---- loading the symbols ---- */

/* demangle: C++ names as perf prints them (--no-demangle: as the file has them) */
static int dso__load_elf(struct dso *dso, const struct symbol_conf *conf, bool demangle)
{
	struct symsrc ss[2], *syms_ss = NULL, *runtime_ss = NULL;
	int nr_ss = 0, err = 0, dso_err = 0, nr;
	const struct dso_file_cand *cands;
	struct dso_file *df = dso__file(dso);
	size_t nr_cands = 0;
	char origin = 0;

	if (!df)
		return -ENOMEM;
	cands = dso_file__cands(df, conf, &nr_cands);
	for (size_t c = 0; c < nr_cands; c++) {
		struct symsrc *cur = &ss[nr_ss];
		bool used = false;
		/* the build id was checked with the lookup */
		int ret = cands[c].err ? cands[c].err : symsrc__init(cur, cands[c].path, NULL, 0);

		cur->demangle = demangle;
		if (ret) {
			/* say why the DSO's own file was unusable, else why a debug file was */
			if (cands[c].is_dso || !dso_err)
				dso_err = -ret;
			continue;
		}
		if (!syms_ss && symsrc__has_symtab(cur)) {
			syms_ss = cur;
			origin = cands[c].origin;
			used = true;
		}
		if (!runtime_ss && symsrc__possibly_runtime(cur)) {
			runtime_ss = cur;
			if (!syms_ss)
				origin = cands[c].origin;
			used = true;
		}
		if (!used) {
			/* an ELF file without symbol tables: stripped of even .dynsym, or damaged */
			if (cands[c].is_dso || !dso_err)
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
		dso->symsrc_origin = origin;
		if (!dso->symsrc_path)
			err = -ENOMEM;
	}
	while (nr_ss > 0)
		symsrc__exit(&ss[--nr_ss]);
	if (err)
		return err;
	return nr > 0 ? 0 : -DSO_LOAD_ERRNO__NO_SYMBOLS;
}

int dso__load(struct dso *dso, const struct symbol_conf *conf)
{
	int err;

	/* kallsyms belongs to the machine, which also sets ->loaded for these */
	if (dso->kind == DSO_KIND_KERNEL || dso->kind == DSO_KIND_KMODULE)
		return 0;
	if (dso->loaded)
		return -dso->load_errno;
	dso->loaded = true;

	switch (dso->kind) {
	case DSO_KIND_ANON:
		if (dso->jit_pid < 0)
			return 0;
		err = perf_map__load(dso, conf);
		symbols__seal(&dso->symbols);
		dso->load_errno = err < 0 ? -err : 0;
		return err < 0 ? err : 0;
	case DSO_KIND_VDSO:
	case DSO_KIND_USER:
	case DSO_KIND_KERNEL:
	case DSO_KIND_KMODULE:
	default:
		break;
	}

	/* the vDSO's names are C names: nothing to demangle, whatever the options say */
	err = dso__load_elf(dso, conf, dso->kind == DSO_KIND_VDSO || !conf || !conf->no_demangle);
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

void dsos__init(struct dsos *dsos)
{
	hashmap__init(&dsos->map, 64);
}

void dsos__exit(struct dsos *dsos)
{
	struct hashmap_node *pos, *tmp;
	size_t bkt;

	hashmap__for_each_safe(&dsos->map, pos, tmp, bkt)
		dso__put(container_of(pos, struct dso, node));
	hashmap__exit(&dsos->map);
}

/* upstream's build_id__is_defined(): a build id of zeroes is none */
static bool build_id_defined(const u8 *id, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (id[i])
			return true;
	return false;
}

bool dso__matches_id(const struct dso *dso, const struct dso_id *id)
{
	const struct dso_inode *a = &dso->inode, *b;

	if (!id)
		return true;
	b = &id->inode;
	if (a->valid && b->valid &&
	    (a->maj != b->maj || a->min != b->min || a->ino != b->ino ||
	     a->ino_generation != b->ino_generation))
		return false;
	if (dso->has_build_id && build_id_defined(dso->build_id, dso->build_id_size) &&
	    build_id_defined(id->build_id, id->build_id_size))
		return dso->build_id_size == id->build_id_size &&
		       !memcmp(dso->build_id, id->build_id, id->build_id_size);
	return true;
}

static struct dso *dsos__find_id(const struct dsos *dsos, const char *long_name,
				 const struct dso_id *id)
{
	u64 h = hash__str(long_name);
	struct hashmap_node *pos;
	struct dso *found = NULL;

	/* the bucket's order is not creation order: the lowest seq makes the answer stable */
	hashmap__for_each_hash(&dsos->map, pos, h) {
		struct dso *dso = container_of(pos, struct dso, node);

		if ((!found || dso->seq < found->seq) && !strcmp(dso->long_name, long_name) &&
		    dso__matches_id(dso, id))
			found = dso;
	}
	return found;
}

struct dso *dsos__find(const struct dsos *dsos, const char *long_name)
{
	return dsos__find_id(dsos, long_name, NULL);
}

static void dso__improve_id(struct dso *dso, const struct dso_id *id)
{
	if (id->inode.valid && !dso->inode.valid)
		dso->inode = id->inode;
	if (!dso->has_build_id && build_id_defined(id->build_id, id->build_id_size))
		dso__set_build_id(dso, id->build_id, id->build_id_size);
}

struct dso *dsos__findnew_id(struct dsos *dsos, const char *long_name, enum dso_kind kind,
			     const struct dso_id *id)
{
	struct dso *dso = dsos__find_id(dsos, long_name, id);

	if (dso) {
		if (id)
			dso__improve_id(dso, id);
		return dso;
	}
	dso = dso__new(long_name, kind);
	if (!dso)
		return NULL;
	if (id)
		dso__improve_id(dso, id);
	dso->seq = (u32)hashmap__nr(&dsos->map);
	if (hashmap__add(&dsos->map, &dso->node, hash__str(long_name))) {
		dso__put(dso);
		return NULL;
	}
	return dso;
}

struct dso *dsos__findnew(struct dsos *dsos, const char *long_name, enum dso_kind kind)
{
	return dsos__findnew_id(dsos, long_name, kind, NULL);
}
