// SPDX-License-Identifier: GPL-2.0
/*
 * record-output.c - an existing output of perf record: moved to OUTPUT.old, or removed, be it
 * a file or a perf.data directory (record-output.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "record-output.h"

/* a name perf record writes at the top of a perf.data directory: data, data.*, kcore_dir* */
static bool perf_data_dir__top_name(const char *name, bool *is_kcore_dir)
{
	*is_kcore_dir = !strcmp(name, "kcore_dir") ||
			(!strncmp(name, "kcore_dir__", 11) && name[11] >= '1' && name[11] <= '9');
	return *is_kcore_dir || !strcmp(name, "data") || !strncmp(name, "data.", 5);
}

/* a name perf record writes in a kcore_dir */
static bool perf_data_dir__kcore_name(const char *name)
{
	return !strcmp(name, "kcore") || !strcmp(name, "kallsyms") || !strcmp(name, "modules");
}

/*
 * Walks dir (depth 0: a perf.data directory, 1: one of its kcore_dirs): with remove false,
 * checks that everything is perf record's; with remove true, removes it all. 0, or a
 * negative errno with err naming what is in the way.
 */
static int perf_data_dir__walk(const char *dir, int depth, bool remove, struct perf_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return perf_err__set(err, errno, "cannot read the directory %s: %m", dir);
	while (!ret && (e = readdir(d))) {
		char path[PATH_MAX];
		bool kcore_dir = false, ours;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path)) {
			ret = perf_err__set(err, ENAMETOOLONG, "%s/%s: path too long", dir, e->d_name);
			break;
		}
		if (lstat(path, &st)) {
			ret = perf_err__set(err, errno, "cannot stat %s: %m", path);
			break;
		}
		ours = depth ? perf_data_dir__kcore_name(e->d_name) :
			       perf_data_dir__top_name(e->d_name, &kcore_dir);
		/* a kcore_dir is a directory, everything else a file */
		if (!ours || kcore_dir != !!S_ISDIR(st.st_mode)) {
			ret = perf_err__set(err, ENOTEMPTY, "%s is no perf.data directory: it holds %s, which perf record does not write",
					    dir, path);
			break;
		}
		if (kcore_dir)
			ret = perf_data_dir__walk(path, depth + 1, remove, err);
		else if (remove && unlink(path))
			ret = perf_err__set(err, errno, "cannot remove %s: %m", path);
	}
	closedir(d);
	if (!ret && remove && rmdir(dir))
		ret = perf_err__set(err, errno, "cannot remove %s: %m", dir);
	return ret;
}

int record_output__remove(const char *path, struct perf_err *err)
{
	struct stat st;
	int ret;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : perf_err__set(err, errno, "cannot stat %s: %m", path);
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? perf_err__set(err, errno, "cannot remove %s: %m", path) : 0;
	/* all of it checked before any of it goes */
	ret = perf_data_dir__walk(path, 0, false, err);
	return ret ? ret : perf_data_dir__walk(path, 0, true, err);
}

int record_output__backup(const char *path, struct perf_err *err)
{
	struct stat st, old_st;
	char *old;
	int ret = 0;

	/* a directory has something in it even when its size says 0 (btrfs) */
	if (stat(path, &st) || (!st.st_size && !S_ISDIR(st.st_mode)))
		return 0;
	if (asprintf(&old, "%s.old", path) < 0)
		return perf_err__set(err, ENOMEM, "out of memory");
	/*
	 * rename() replaces a file with a file: an old directory, or an old file that a
	 * directory is to replace, goes first (perf's rm_rf_perf_data())
	 */
	if (!lstat(old, &old_st) && (S_ISDIR(old_st.st_mode) || S_ISDIR(st.st_mode)))
		ret = record_output__remove(old, err);
	if (!ret && rename(path, old))
		ret = perf_err__set(err, errno, "cannot move %s to %s: %m", path, old);
	free(old);
	return ret;
}
