// SPDX-License-Identifier: GPL-2.0
/*
 * build-id-list.c - a recording's build ids as its records pass, and perf's build-id cache
 * filled from them (build-id-list.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <perf/event.h>
#include <perf/record.h>
#include <perf/writer.h>
#include "build-id.h"
#include "build-id-list.h"
#include "hash.h"
#include "hashmap.h"
#include "kallsyms.h"
#include "record-synth.h"
#include "sysfile.h"

#define KERNEL_NAME	"[kernel.kallsyms]"

struct bid_entry {
	struct hashmap_node node;	/* in ids, by (filename, build id) */
	s32	pid;
	u16	misc;
	u8	id[BUILD_ID_SIZE_MAX];
	u8	size;
	char	*filename;
};

struct build_id_list {
	char		*sys;
	struct bid_entry *v;		/* first-seen order */
	size_t		nr, alloc;
	size_t		nr_written;	/* v[0..nr_written) went out by build_id_list__write_new() */
	struct hashmap	ids;		/* the nodes of v[] */
	bool		vdso_looked;	/* vdso_id is this machine's vDSO build id, if any */
	u8		vdso_id[BUILD_ID_SIZE_MAX];
	u8		vdso_size;
};

struct build_id_list *build_id_list__new(const char *sys)
{
	struct build_id_list *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->sys = strdup(sys ? sys : "/sys");
	if (!l->sys) {
		free(l);
		return NULL;
	}
	hashmap__init(&l->ids, 256);
	return l;
}

void build_id_list__delete(struct build_id_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].filename);
	free(l->v);
	hashmap__exit(&l->ids);
	free(l->sys);
	free(l);
}

size_t build_id_list__nr(const struct build_id_list *l)
{
	return l->nr;
}

/* FNV-1a over the name and the id */
static u64 entry_hash(const char *name, const u8 *id, u8 size)
{
	return hash__bytes(hash__str(name), id, size);
}

/* v[] moved: its nodes go back into the buckets at their new addresses */
static void list__rehash(struct build_id_list *l)
{
	hashmap__clear(&l->ids, NULL, NULL);
	for (size_t i = 0; i < l->nr; i++)
		hashmap__add(&l->ids, &l->v[i].node, l->v[i].node.hash);
}

int build_id_list__add(struct build_id_list *l, s32 pid, u16 misc, const u8 *id, u8 size,
		       const char *filename, struct perf_err *err)
{
	size_t h = (size_t)entry_hash(filename, id, size);
	struct hashmap_node *pos;
	struct bid_entry *e;

	if (!size || size > BUILD_ID_SIZE_MAX)
		return perf_err__set(err, EINVAL, "build id of %u bytes for %s", size, filename);
	hashmap__for_each_hash(&l->ids, pos, h) {
		e = container_of(pos, struct bid_entry, node);
		if (e->size == size && !memcmp(e->id, id, size) && !strcmp(e->filename, filename))
			return 0;
	}
	if (l->nr == l->alloc) {
		size_t n = l->alloc ? l->alloc * 2 : 64;
		struct bid_entry *v = realloc(l->v, n * sizeof(*v));

		if (!v)
			return perf_err__set(err, ENOMEM, "out of memory");
		l->alloc = n;
		if (v != l->v) {
			l->v = v;
			list__rehash(l);
		}
	}
	e = &l->v[l->nr];
	memset(e, 0, sizeof(*e));
	e->filename = strdup(filename);
	if (!e->filename)
		return perf_err__set(err, ENOMEM, "out of memory");
	e->pid = pid;
	e->misc = misc;
	e->size = size;
	memcpy(e->id, id, size);
	if (hashmap__add(&l->ids, &e->node, h)) {
		free(e->filename);
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	l->nr++;
	return 0;
}

/* the module name of a module map's file: "[name]", or a .ko path ('-' as '_', as sysfs) */
static bool module__name(const char *file, char *name, size_t size)
{
	const char *base = strrchr(file, '/');
	size_t n;

	if (file[0] == '[') {
		n = strcspn(file + 1, "]");
		base = file + 1;
	} else {
		base = base ? base + 1 : file;
		n = strstr(base, ".ko") ? (size_t)(strstr(base, ".ko") - base) : 0;
	}
	if (!n || n >= size)
		return false;
	for (size_t i = 0; i < n; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[n] = '\0';
	return true;
}

static int list__add_module(struct build_id_list *l, const char *file, struct perf_err *err)
{
	char name[256], path[PATH_MAX];
	u8 id[BUILD_ID_SIZE_MAX];
	size_t size;

	if (!module__name(file, name, sizeof(name)))
		return 0;
	snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id", l->sys, name);
	if (build_id__read_notes(path, id, &size))
		return 0;	/* a module without notes: nothing to record, as perf */
	return build_id_list__add(l, -1, PERF_RECORD_MISC_KERNEL, id, (u8)size, file, err);
}

/* this machine's vDSO, looked up once per list */
static int list__add_vdso(struct build_id_list *l, u16 misc, struct perf_err *err)
{
	size_t size;

	if (!l->vdso_looked) {
		l->vdso_looked = true;
		if (!vdso__build_id(l->vdso_id, &size))
			l->vdso_size = (u8)size;
	}
	if (!l->vdso_size)
		return 0;
	return build_id_list__add(l, -1, misc, l->vdso_id, l->vdso_size, "[vdso]", err);
}

int build_id_list__add_vdso(struct build_id_list *l, struct perf_err *err)
{
	return list__add_vdso(l, PERF_RECORD_MISC_USER, err);
}

int build_id_list__add_event(struct build_id_list *l, const struct perf_event_header *ev,
			     struct perf_err *err)
{
	if (ev->type == PERF_RECORD_MMAP2 && ev->size < sizeof(struct perf_record_mmap2))
		return 0;
	/* no build id, or the kernel's stray bit over a device and inode */
	if (ev->type == PERF_RECORD_MMAP2 &&
	    !perf_record_mmap2__has_build_id((const struct perf_record_mmap2 *)ev)) {
		const struct perf_record_mmap2 *m = (const void *)ev;
		size_t max = ev->size > sizeof(*m) ? ev->size - sizeof(*m) : 0;

		/* the kernel has no file to read the vDSO's build id from: it is ours */
		if (max > 6 && !strncmp(m->filename, "[vdso]", 7))
			return list__add_vdso(l, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK, err);
		return 0;
	}
	if (ev->type == PERF_RECORD_MMAP2) {
		const struct perf_record_mmap2 *m = (const void *)ev;
		size_t max = ev->size > sizeof(*m) ? ev->size - sizeof(*m) : 0;
		size_t n = strnlen(m->filename, max);
		char name[PATH_MAX];

		if (!n || n == max || n >= sizeof(name) || !m->build_id_size ||
		    !strcmp(m->filename, "//anon"))
			return 0;
		memcpy(name, m->filename, n + 1);
		return build_id_list__add(l, -1, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK,
					  m->build_id, m->build_id_size, name, err);
	}
	if (ev->type == PERF_RECORD_MMAP &&
	    (ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
		const struct perf_record_mmap *m = (const void *)ev;
		size_t max = ev->size > sizeof(*m) ? ev->size - sizeof(*m) : 0;
		size_t n = strnlen(m->filename, max);
		char name[PATH_MAX];

		if (!n || n == max || n >= sizeof(name) ||
		    !strncmp(m->filename, KERNEL_NAME, strlen(KERNEL_NAME)))
			return 0;
		memcpy(name, m->filename, n + 1);
		return list__add_module(l, name, err);
	}
	return 0;
}

int build_id_list__add_kernel(struct build_id_list *l, struct perf_err *err)
{
	char path[PATH_MAX];
	u8 id[BUILD_ID_SIZE_MAX];
	size_t size;

	snprintf(path, sizeof(path), "%s/kernel/notes", l->sys);
	if (build_id__read_notes(path, id, &size))
		return 0;
	return build_id_list__add(l, -1, PERF_RECORD_MISC_KERNEL, id, (u8)size, KERNEL_NAME, err);
}

static int list__write_range(const struct build_id_list *l, size_t from, struct perf_writer *w,
			     struct perf_err *err)
{
	for (size_t i = from; i < l->nr; i++) {
		const struct bid_entry *e = &l->v[i];
		int ret = perf_writer__add_build_id(w, e->pid, e->misc, e->id, e->size, e->filename,
						    err);

		if (ret)
			return ret;
	}
	return 0;
}

int build_id_list__write(const struct build_id_list *l, struct perf_writer *w,
			 struct perf_err *err)
{
	return list__write_range(l, 0, w, err);
}

int build_id_list__write_new(struct build_id_list *l, struct perf_writer *w,
			     struct perf_err *err)
{
	int ret = list__write_range(l, l->nr_written, w, err);

	if (!ret)
		l->nr_written = l->nr;
	return ret;
}

/* ---- the cache ---------------------------------------------------------------------------- */

/* every directory of path (a directory itself) */
static int mkdir_p(char *path)
{
	for (char *p = path + 1; ; p++) {
		char c = *p;

		if (c != '/' && c)
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = c;
			return -errno;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

/* writes data to path through a temporary name, so a reader never sees half a file */
static int write_file(const char *path, const void *data, size_t size, mode_t mode)
{
	char tmp[PATH_MAX];
	const char *p = data;
	int fd, ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		p += n;
		size -= (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char *data;
	size_t size;
	int ret = sysfile__read(from, &data, &size);

	if (ret)
		return ret;
	ret = write_file(to, data, size, mode);
	free(data);
	return ret;
}

int build_id_cache__root(const struct build_id_cache_opts *o, char *buf, size_t size,
			 struct perf_err *err)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (o && o->dir)
		snprintf(buf, size, "%s", o->dir);
	else if (env && *env)
		snprintf(buf, size, "%s", env);
	else if (home && *home)
		snprintf(buf, size, "%s/.debug", home);
	else
		return perf_err__set(err, ENOENT, "no build-id cache directory: neither PERF_BUILDID_DIR nor HOME is set");
	return 0;
}

struct cache_ctx {
	const char			*root;
	const char			*kallsyms;
	struct build_id_cache_stats	*st;
	struct perf_err			*err;
};

/* root/.build-id/HE/X... -> ../../NAME/HEX, unless something is there already */
static int cache__link(struct cache_ctx *c, const char *name, const char *hex)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct stat st;
	int ret;

	if (snprintf(path, sizeof(path), "%s/.build-id/%.2s", c->root, hex) >= (int)sizeof(path) ||
	    snprintf(target, sizeof(target), "../../%s/%s", name + (name[0] == '/'), hex) >= (int)sizeof(target))
		return perf_err__set(c->err, ENAMETOOLONG, "build-id cache path for %s too long", name);
	ret = mkdir_p(path);
	if (ret)
		return perf_err__set(c->err, -ret, "cannot create build-id cache directory %s: %s", path, strerror(-ret));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s", hex + 2);
	if (!lstat(path, &st))
		return 0;
	if (symlink(target, path) && errno != EEXIST)
		return perf_err__set(c->err, errno, "cannot create build-id cache link %s: %m", path);
	return 0;
}

static int cache__entry(struct cache_ctx *c, const struct bid_entry *e)
{
	char hex[BUILD_ID_HEX_SIZE], dir[PATH_MAX], file[PATH_MAX + 16];
	const void *vdso = NULL;
	const char *leaf;
	size_t vdso_size = 0;
	struct stat st;
	int ret;

	build_id__hex(e->id, e->size, hex);
	if (!strcmp(e->filename, KERNEL_NAME)) {
		leaf = "kallsyms";
	} else if (!strcmp(e->filename, "[vdso]")) {
		u8 id[BUILD_ID_SIZE_MAX];
		size_t size;

		leaf = "vdso";
		vdso = vdso__image(&vdso_size);
		/* only our own vDSO can be stored: a 32-bit process's has another build id */
		if (!vdso || vdso__build_id(id, &size) || size != e->size || memcmp(id, e->id, size))
			vdso = NULL;
	} else if (e->filename[0] == '/') {
		leaf = "elf";
	} else {
		c->st->missing++;	/* "[name]" modules have no file to keep */
		return 0;
	}
	if (snprintf(dir, sizeof(dir), "%s/%s/%s", c->root, e->filename + (e->filename[0] == '/'), hex) >= (int)sizeof(dir))
		return perf_err__set(c->err, ENAMETOOLONG, "build-id cache path for %s too long", e->filename);
	snprintf(file, sizeof(file), "%s/%s", dir, leaf);
	if (!stat(file, &st)) {
		c->st->present++;
		return cache__link(c, e->filename, hex);
	}
	if (!strcmp(leaf, "elf")) {
		u8 id[BUILD_ID_SIZE_MAX];
		size_t size;

		/* a DSO rebuilt since it was mapped is not the recorded one: skip it, as perf */
		if (build_id__read_file(e->filename, id, &size) || size != e->size ||
		    memcmp(id, e->id, size)) {
			c->st->missing++;
			return 0;
		}
	} else if (!strcmp(leaf, "vdso") && !vdso) {
		c->st->missing++;
		return 0;
	}
	ret = mkdir_p(dir);
	if (ret)
		return perf_err__set(c->err, -ret, "cannot create build-id cache directory %s: %s", dir, strerror(-ret));
	if (!strcmp(leaf, "kallsyms"))
		ret = copy_file(c->kallsyms, file, 0644);
	else if (vdso)
		ret = write_file(file, vdso, vdso_size, 0644);
	else if (link(e->filename, file))	/* a hard link costs nothing; else a copy */
		ret = copy_file(e->filename, file, 0755);
	if (ret)
		return perf_err__set(c->err, -ret, "cannot fill build-id cache file %s from %s: %s", file,
				     vdso ? "the vDSO" : leaf[0] == 'k' ? c->kallsyms : e->filename,
				     strerror(-ret));
	c->st->added++;
	return cache__link(c, e->filename, hex);
}

int build_id_list__fill_cache(const struct build_id_list *l, const struct build_id_cache_opts *o,
			      struct build_id_cache_stats *stats, struct perf_err *err)
{
	struct build_id_cache_stats st = { 0 };
	char root[PATH_MAX];
	struct cache_ctx c = {
		.root = root, .st = &st, .err = err,
		.kallsyms = o && o->kallsyms ? o->kallsyms : "/proc/kallsyms",
	};
	int ret = build_id_cache__root(o, root, sizeof(root), err);

	if (ret)
		return ret;
	ret = mkdir_p(root);
	if (ret)
		return perf_err__set(err, -ret, "cannot create build-id cache directory %s: %s", root, strerror(-ret));
	if (access(root, W_OK))
		return perf_err__set(err, errno, "cannot write build-id cache directory %s: %m", root);
	for (size_t i = 0; i < l->nr && !ret; i++)
		ret = cache__entry(&c, &l->v[i]);
	if (stats)
		*stats = st;
	return ret;
}
