/* SPDX-License-Identifier: GPL-2.0 */
/*
 * build-id-cache.h - perf buildid-cache's edits of the cache that perf record fills
 * (layout in build-id-list.h): one file added, one build id of a file removed, every build
 * id of a path purged, everything purged, and the cached entries listed.
 *
 * Errors: 0 or a negative errno, err saying what and where. -ENOENT from remove means the
 * file's build id was not in the cache. Owns nothing past a call.
 */
#ifndef PERF_UTIL_BUILD_ID_CACHE_H
#define PERF_UTIL_BUILD_ID_CACHE_H

#include <stdbool.h>
#include <perf/error.h>
#include "build-id-list.h"

/* path's build id into hex (BUILD_ID_HEX_SIZE bytes); -ENOENT/-ENODATA with err */
int build_id_cache__file_id(const char *path, char *hex, struct perf_err *err);

/* path (an ELF with a build id) into the cache; *added false when it was there already */
int build_id_cache__add(const struct build_id_cache_opts *o, const char *path, bool *added,
			struct perf_err *err);
/* path's current build id out of the cache */
int build_id_cache__remove(const struct build_id_cache_opts *o, const char *path,
			   struct perf_err *err);
/* every build id cached under path, whatever the file is now; *nr how many */
int build_id_cache__purge(const struct build_id_cache_opts *o, const char *path,
			  unsigned int *nr, struct perf_err *err);
/* the whole cache; *nr entries removed */
int build_id_cache__purge_all(const struct build_id_cache_opts *o, unsigned int *nr,
			      struct perf_err *err);

/* one cached entry: its build id and the path it was cached under ("/usr/bin/x", "/[vdso]") */
typedef int (*build_id_cache_fn)(const char *hex, const char *path, void *arg);
/* every entry of DIR/.build-id, sorted by build id; fn's non-zero return stops and is returned */
int build_id_cache__for_each(const struct build_id_cache_opts *o, build_id_cache_fn fn,
			     void *arg, struct perf_err *err);

#endif
