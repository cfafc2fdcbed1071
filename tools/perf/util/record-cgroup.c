// SPDX-License-Identifier: GPL-2.0
/* The cgroup hierarchy and -G. See record-cgroup.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record-cgroup.h"

int cgroupfs__mountpoint(const char *proc, char *dir, size_t size)
{
	char path[PATH_MAX], line[PATH_MAX + 256], v2[PATH_MAX] = "";
	FILE *fp;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/mounts", proc ? proc : "/proc");
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while (ret && fgets(line, sizeof(line), fp)) {
		char mnt[PATH_MAX], type[64], opts[1024], *save = NULL;

		if (sscanf(line, "%*s %4095s %63s %1023s", mnt, type, opts) != 3)
			continue;
		if (!strcmp(type, "cgroup2") && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", mnt);
		} else if (!strcmp(type, "cgroup")) {
			for (char *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
				if (!strcmp(o, "perf_event")) {
					snprintf(dir, size, "%s", mnt);
					ret = 0;
				}
		}
	}
	fclose(fp);
	if (ret && v2[0]) {
		snprintf(dir, size, "%s", v2);
		ret = 0;
	}
	return ret;
}

void cgroup_fds__close(int *fds, size_t nr)
{
	if (!fds)
		return;
	for (size_t i = 0; i < nr; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

int cgroup_fds__open(const char *list, size_t nr_events, int **out, struct perf_err *err)
{
	char root[PATH_MAX], path[PATH_MAX * 2];
	const char *p = list;
	size_t k = 0;
	int *fds, ret;

	*out = NULL;
	if (!nr_events)
		return perf_err__set(err, EINVAL, "-G %s: name the events first (-e ... -G ...)", list);
	ret = cgroupfs__mountpoint(NULL, root, sizeof(root));
	if (ret)
		return perf_err__set(err, EINVAL, "-G %s: no cgroup hierarchy with perf_event (v1) or cgroup2 in /proc/mounts",
				     list);
	fds = malloc(nr_events * sizeof(*fds));
	if (!fds)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < nr_events; i++)
		fds[i] = -1;
	for (;; k++) {
		size_t len = strcspn(p, ",");

		if (k >= nr_events) {
			ret = perf_err__set(err, EINVAL, "-G %s: more cgroups than the %zu events before it",
					    list, nr_events);
			goto out_close;
		}
		if (len) {
			snprintf(path, sizeof(path), "%s/%.*s", root, (int)len, p);
			fds[k] = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fds[k] < 0) {
				ret = perf_err__set(err, EINVAL, "-G %s: no access to cgroup %s: %m",
						    list, path);
				goto out_close;
			}
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	/* one name: every event's, as perf */
	if (k == 0 && fds[0] >= 0) {
		for (size_t i = 1; i < nr_events; i++) {
			fds[i] = fcntl(fds[0], F_DUPFD_CLOEXEC, 0);
			if (fds[i] < 0) {
				ret = perf_err__set(err, errno, "-G %s: %m", list);
				goto out_close;
			}
		}
	}
	*out = fds;
	return 0;

out_close:
	cgroup_fds__close(fds, nr_events);
	return ret;
}
