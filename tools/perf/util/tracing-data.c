// SPDX-License-Identifier: GPL-2.0
/*
 * tracing-data.c - tracepoint ids and the HEADER_TRACING_DATA blob from tracefs
 * (tracing-data.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <perf/kernel.h>
#include "sbuf.h"
#include "sysfile.h"
#include "tracing-data.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC	0x74726163
#endif

int tracefs__find(const char *root, char *buf, size_t size, struct perf_err *err)
{
	static const char *const places[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char events[PATH_MAX];
	struct statfs sfs;
	struct stat st;

	if (root) {
		snprintf(buf, size, "%s", root);
		return 0;
	}
	for (int tries = 0; tries < 2; tries++) {
		for (size_t i = 0; i < ARRAY_SIZE(places); i++) {
			snprintf(events, sizeof(events), "%s/events", places[i]);
			if (!stat(events, &st) && S_ISDIR(st.st_mode)) {
				snprintf(buf, size, "%s", places[i]);
				return 0;
			}
		}
		/*
		 * as upstream's perf does: mount it where it belongs (root only; else it fails),
		 * unless another perf just did (a second mount would stack on the first)
		 */
		if (tries || (!statfs(places[0], &sfs) && sfs.f_type == TRACEFS_MAGIC) ||
		    mount("nodev", places[0], "tracefs", 0, NULL))
			break;
	}
	return perf_err__set(err, ENOENT, "no tracefs: neither %s nor %s has an events directory (mount -t tracefs nodev /sys/kernel/tracing)",
			     places[0], places[1]);
}

/* "subsys:name" split; -EINVAL with err for anything else (a path in disguise included) */
static int tracepoint__split(const char *name, char *sys, char *ev, size_t size,
			     struct perf_err *err)
{
	const char *colon = strchr(name, ':');
	size_t n = colon ? (size_t)(colon - name) : 0;

	if (!colon || !n || !colon[1] || n >= size || strlen(colon + 1) >= size ||
	    strchr(colon + 1, ':') || strchr(name, '/') || name[0] == '.' || colon[1] == '.')
		return perf_err__set(err, EINVAL, "bad tracepoint name '%s': expected subsystem:event", name);
	memcpy(sys, name, n);
	sys[n] = '\0';
	strcpy(ev, colon + 1);
	return 0;
}

int tracepoint__id(const char *tracefs, const char *name, u64 *id, struct perf_err *err)
{
	char sys[256], ev[256], path[PATH_MAX + 16], dir[PATH_MAX];
	struct stat st;
	int ret = tracepoint__split(name, sys, ev, sizeof(sys), err);

	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/events/%s/%s", tracefs, sys, ev);
	if (stat(dir, &st))
		return errno == ENOENT ?
		       perf_err__set(err, ENOENT, "unknown tracepoint '%s' (no %s)", name, dir) :
		       perf_err__set(err, errno, "cannot read tracepoint '%s' at %s: %m", name, dir);
	snprintf(path, sizeof(path), "%s/id", dir);
	ret = sysfile__read_u64(path, id);
	if (ret)
		return perf_err__set(err, -ret, "cannot read tracepoint '%s' id %s: %s", name, path,
				     strerror(-ret));
	return 0;
}

int tracepoint__name(const char *tracefs, u64 id, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct dirent *sd, *ed;
	DIR *sdir, *edir;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	sdir = opendir(path);
	if (!sdir)
		return -errno;
	while (ret && (sd = readdir(sdir))) {
		if (sd->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, sd->d_name);
		edir = opendir(path);
		if (!edir)
			continue;	/* a file (enable, header_page, ...) */
		while ((ed = readdir(edir))) {
			u64 v;

			if (ed->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sd->d_name,
				 ed->d_name);
			if (sysfile__read_u64(path, &v) || v != id)
				continue;
			snprintf(buf, size, "%s:%s", sd->d_name, ed->d_name);
			ret = 0;
			break;
		}
		closedir(edir);
	}
	closedir(sdir);
	return ret;
}

/* the listed events of a subsystem */
struct tp_list {
	const char *const	*names;
	size_t			nr;
};

static bool tp_list__has(const struct tp_list *l, const char *sys, const char *ev)
{
	size_t n = strlen(sys);

	for (size_t i = 0; i < l->nr; i++)
		if (!strncmp(l->names[i], sys, n) && l->names[i][n] == ':' &&
		    !strcmp(l->names[i] + n + 1, ev))
			return true;
	return false;
}

static bool tp_list__has_sys(const struct tp_list *l, const char *sys)
{
	size_t n = strlen(sys);

	for (size_t i = 0; i < l->nr; i++)
		if (!strncmp(l->names[i], sys, n) && l->names[i][n] == ':')
			return true;
	return false;
}

static void put_u32(struct sbuf *b, u32 v)
{
	sbuf__add(b, &v, 4);
}

static void put_u64(struct sbuf *b, u64 v)
{
	sbuf__add(b, &v, 8);
}

/* a file's contents preceded by its size in width bytes */
static int put_file(struct sbuf *b, const char *path, int width, struct perf_err *err)
{
	char *data;
	size_t size;
	int ret = sysfile__read(path, &data, &size);

	if (ret)
		return perf_err__set(err, -ret, "cannot read %s: %s", path, strerror(-ret));
	if (width == 4)
		put_u32(b, (u32)size);
	else
		put_u64(b, size);
	sbuf__add(b, data, size);
	free(data);
	return 0;
}

/* the listed events of TRACEFS/events/SYS in directory order (perf's): the count, then each */
static int put_system(struct sbuf *b, const char *tracefs, const char *sys,
		      const struct tp_list *l, struct perf_err *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	size_t count_at = b->len;
	struct dirent *de;
	u32 count = 0;
	int ret = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/events/%s", tracefs, sys);
	d = opendir(dir);
	if (!d)
		return perf_err__set(err, errno, "cannot read %s: %m", dir);
	put_u32(b, 0);
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !tp_list__has(l, sys, de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", dir, de->d_name);
		ret = put_file(b, path, 8, err);
		count++;
	}
	closedir(d);
	if (!b->oom)
		memcpy(b->buf + count_at, &count, 4);
	return ret;
}

int tracing_data__build(const char *tracefs, const char *const *names, size_t nr, void **data,
			size_t *size, struct perf_err *err)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const struct tp_list l = { names, nr };
	char path[PATH_MAX];
	struct dirent *de;
	struct sbuf b;
	size_t count_at;
	u32 nr_sys = 0;
	const u16 endian = 1;
	DIR *d;
	int ret = 0;

	/* every name must exist: the error names the first that does not */
	for (size_t i = 0; i < nr; i++) {
		u64 id;

		ret = tracepoint__id(tracefs, names[i], &id, err);
		if (ret)
			return ret;
	}
	sbuf__init(&b);
	sbuf__add(&b, magic, sizeof(magic));
	sbuf__add(&b, "0.6", 4);
	sbuf__addc(&b, *(const u8 *)&endian ? 0 : 1);	/* 0: little endian */
	sbuf__addc(&b, (char)sizeof(long));
	put_u32(&b, (u32)sysconf(_SC_PAGESIZE));

	sbuf__add(&b, "header_page", sizeof("header_page"));
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	ret = put_file(&b, path, 8, err);
	if (!ret) {
		sbuf__add(&b, "header_event", sizeof("header_event"));
		snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
		ret = put_file(&b, path, 8, err);
	}
	/* the ftrace subsystem goes first, on its own, without its name */
	if (!ret && tp_list__has_sys(&l, "ftrace"))
		ret = put_system(&b, tracefs, "ftrace", &l, err);
	else if (!ret)
		put_u32(&b, 0);
	if (ret)
		goto out_free;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	d = opendir(path);
	if (!d) {
		ret = perf_err__set(err, errno, "cannot read %s: %m", path);
		goto out_free;
	}
	count_at = b.len;
	put_u32(&b, 0);
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "ftrace") ||
		    !tp_list__has_sys(&l, de->d_name))
			continue;
		sbuf__add(&b, de->d_name, strlen(de->d_name) + 1);
		ret = put_system(&b, tracefs, de->d_name, &l, err);
		nr_sys++;
	}
	closedir(d);
	if (ret)
		goto out_free;
	if (!b.oom)
		memcpy(b.buf + count_at, &nr_sys, 4);

	/* kallsyms: empty, as perf 6.1 writes it; readers take kernel symbols elsewhere */
	put_u32(&b, 0);
	snprintf(path, sizeof(path), "%s/printk_formats", tracefs);
	ret = put_file(&b, path, 4, err);
	if (!ret) {
		snprintf(path, sizeof(path), "%s/saved_cmdlines", tracefs);
		ret = put_file(&b, path, 8, err);
	}
	if (ret)
		goto out_free;
	if (b.oom) {
		ret = perf_err__set(err, ENOMEM, "out of memory for the tracing data");
		goto out_free;
	}
	*data = b.buf;
	*size = b.len;
	return 0;

out_free:
	sbuf__exit(&b);
	return ret;
}
