// SPDX-License-Identifier: GPL-2.0
/* perf buildid-cache's edits of the build-id cache. See build-id-cache.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "build-id.h"
#include "build-id-cache.h"

int build_id_cache__file_id(const char *path, char *hex, struct perf_err *err)
{
	u8 id[BUILD_ID_SIZE_MAX];
	size_t size = 0;
	int ret = build_id__read_file(path, id, &size);

	if (ret)
		return perf_err__set(err, ret == -ENOENT ? ENOENT : -ret,
				     "Couldn't read a build-id in %s: %s", path, strerror(-ret));
	if (!size)
		return perf_err__set(err, ENODATA, "Couldn't read a build-id in %s: it has none",
				     path);
	build_id__hex(id, size, hex);
	return 0;
}

int build_id_cache__add(const struct build_id_cache_opts *o, const char *path, bool *added,
			struct perf_err *err)
{
	u8 id[BUILD_ID_SIZE_MAX];
	size_t size = 0;
	struct build_id_cache_stats st = { 0 };
	struct build_id_list *l;
	char abs[PATH_MAX];
	int ret;

	if (!realpath(path, abs))
		return perf_err__set(err, errno, "Couldn't add %s: %m", path);
	ret = build_id__read_file(abs, id, &size);
	if (ret || !size)
		return perf_err__set(err, ret ? -ret : ENODATA, "Couldn't add %s: %s", path,
				     ret ? strerror(-ret) : "it has no build id");
	l = build_id_list__new(NULL);
	if (!l)
		return perf_err__set(err, ENOMEM, "out of memory");
	ret = build_id_list__add(l, -1, PERF_RECORD_MISC_USER, id, (u8)size, abs, err);
	if (!ret)
		ret = build_id_list__fill_cache(l, o, &st, err);
	build_id_list__delete(l);
	if (!ret && st.missing)
		ret = perf_err__set(err, EIO, "Couldn't add %s: it changed while being read", path);
	*added = st.added > 0;
	return ret;
}

/* ROOT/PATH/HEX and its ROOT/.build-id/HE/X link; -ENOENT when neither was there */
static int cache__remove_id(const char *root, const char *abs, const char *hex,
			    struct perf_err *err)
{
	char dir[PATH_MAX * 2], file[PATH_MAX * 2 + 272], link[PATH_MAX + 64];
	bool had = false;
	DIR *d;

	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", root, hex, hex + 2);
	if (!unlink(link))
		had = true;
	else if (errno != ENOENT)
		return perf_err__set(err, errno, "cannot remove %s: %m", link);
	snprintf(dir, sizeof(dir), "%s%s/%s", root, abs, hex);
	d = opendir(dir);
	if (d) {
		struct dirent *de;

		/* the files perf keeps there: elf, kallsyms, vdso, probes, debug */
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
			if (unlink(file)) {
				closedir(d);
				return perf_err__set(err, errno, "cannot remove %s: %m", file);
			}
		}
		closedir(d);
		if (rmdir(dir))
			return perf_err__set(err, errno, "cannot remove %s: %m", dir);
		had = true;
	}
	return had ? 0 : -ENOENT;
}

int build_id_cache__remove(const struct build_id_cache_opts *o, const char *path,
			   struct perf_err *err)
{
	char root[PATH_MAX], abs[PATH_MAX], hex[BUILD_ID_HEX_SIZE];
	int ret = build_id_cache__root(o, root, sizeof(root), err);

	if (ret)
		return ret;
	if (!realpath(path, abs))
		return perf_err__set(err, errno, "Couldn't remove %s: %m", path);
	ret = build_id_cache__file_id(abs, hex, err);
	if (ret)
		return ret;
	ret = cache__remove_id(root, abs, hex, err);
	if (ret == -ENOENT)
		return perf_err__set(err, ENOENT, "%s wasn't in the cache", path);
	return ret;
}

int build_id_cache__purge(const struct build_id_cache_opts *o, const char *path,
			  unsigned int *nr, struct perf_err *err)
{
	char root[PATH_MAX], abs[PATH_MAX], dir[PATH_MAX * 2];
	struct dirent *de;
	int ret = build_id_cache__root(o, root, sizeof(root), err);
	DIR *d;

	*nr = 0;
	if (ret)
		return ret;
	/* the file may be gone: its old builds are what purging is for */
	if (!realpath(path, abs))
		snprintf(abs, sizeof(abs), "%s", path);
	snprintf(dir, sizeof(dir), "%s%s", root, abs);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : perf_err__set(err, errno, "cannot read %s: %m", dir);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ret = cache__remove_id(root, abs, de->d_name, err);
		if (ret && ret != -ENOENT)
			break;
		ret = 0;
		(*nr)++;
	}
	closedir(d);
	if (!ret)
		rmdir(dir);	/* emptied; its parents may hold other files' entries */
	return ret;
}

struct purge_all {
	const struct build_id_cache_opts	*o;
	const char				*root;
	unsigned int				nr;
	struct perf_err				*err;
};

static int purge_all__one(const char *hex, const char *path, void *arg)
{
	struct purge_all *p = arg;
	int ret = cache__remove_id(p->root, path, hex, p->err);

	if (ret && ret != -ENOENT)
		return ret;
	p->nr++;
	return 0;
}

int build_id_cache__purge_all(const struct build_id_cache_opts *o, unsigned int *nr,
			      struct perf_err *err)
{
	char root[PATH_MAX];
	struct purge_all p = { .o = o, .root = root, .err = err };
	int ret = build_id_cache__root(o, root, sizeof(root), err);

	if (!ret)
		ret = build_id_cache__for_each(o, purge_all__one, &p, err);
	*nr = p.nr;
	return ret;
}

struct cache_entry {
	char	hex[BUILD_ID_HEX_SIZE];
	char	*path;
};

static int entry__cmp(const void *a, const void *b)
{
	return strcmp(((const struct cache_entry *)a)->hex, ((const struct cache_entry *)b)->hex);
}

/* the link's target is ../../PATH/HEX: PATH into path, from the cache's root */
static bool link__path(const char *target, const char *hex, char *path, size_t size)
{
	size_t n = strlen(target), h = strlen(hex);

	if (strncmp(target, "../..", 5) || n < 5 + h + 1 || strcmp(target + n - h, hex) ||
	    target[n - h - 1] != '/')
		return false;
	snprintf(path, size, "%.*s", (int)(n - h - 1 - 5), target + 5);
	return path[0] != '\0';
}

int build_id_cache__for_each(const struct build_id_cache_opts *o, build_id_cache_fn fn,
			     void *arg, struct perf_err *err)
{
	char root[PATH_MAX], dir[PATH_MAX + 16], sub[PATH_MAX + 288], link[PATH_MAX * 2 + 512];
	char target[PATH_MAX], path[PATH_MAX];
	struct cache_entry *v = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *de, *le;
	int ret = build_id_cache__root(o, root, sizeof(root), err);
	DIR *d;

	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/.build-id", root);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : perf_err__set(err, errno, "cannot read %s: %m", dir);
	while (!ret && (de = readdir(d))) {
		DIR *ld;

		if (strlen(de->d_name) != 2)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		ld = opendir(sub);
		if (!ld)
			continue;
		while ((le = readdir(ld))) {
			ssize_t n;

			if (le->d_name[0] == '.')
				continue;
			snprintf(link, sizeof(link), "%s/%s", sub, le->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (nr == alloc) {
				struct cache_entry *nv = realloc(v, (alloc = alloc ? 2 * alloc : 32) *
								 sizeof(*nv));

				if (!nv) {
					ret = perf_err__set(err, ENOMEM, "out of memory");
					break;
				}
				v = nv;
			}
			snprintf(v[nr].hex, sizeof(v[nr].hex), "%.2s%.38s", de->d_name, le->d_name);
			if (!link__path(target, v[nr].hex, path, sizeof(path)))
				continue;	/* not a link perf made */
			v[nr].path = strdup(path);
			if (!v[nr].path) {
				ret = perf_err__set(err, ENOMEM, "out of memory");
				break;
			}
			nr++;
		}
		closedir(ld);
	}
	closedir(d);
	if (v)
		qsort(v, nr, sizeof(*v), entry__cmp);
	for (size_t i = 0; i < nr; i++) {
		if (!ret)
			ret = fn(v[i].hex, v[i].path, arg);
		free(v[i].path);
	}
	free(v);
	return ret;
}
