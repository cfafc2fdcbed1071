// SPDX-License-Identifier: GPL-2.0
/* A process's descendants from /proc. See proc-children.h. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proc-children.h"

/* appends every child pid of one thread's list not seen yet */
static int children__read(const char *path, pid_t **pids, size_t *nr, size_t *alloc)
{
	FILE *f = fopen(path, "r");
	long child;

	if (!f)
		return 0;	/* gone, or no CONFIG_PROC_CHILDREN */
	while (fscanf(f, "%ld", &child) == 1) {
		bool seen = false;

		for (size_t i = 0; i < *nr && !seen; i++)
			seen = (*pids)[i] == (pid_t)child;
		if (seen)
			continue;
		if (*nr == *alloc) {
			size_t n = *alloc * 2;
			pid_t *p = realloc(*pids, n * sizeof(*p));

			if (!p) {
				fclose(f);
				return -ENOMEM;
			}
			*pids = p;
			*alloc = n;
		}
		(*pids)[(*nr)++] = (pid_t)child;
	}
	fclose(f);
	return 0;
}

int proc__descendants(const char *proc, pid_t pid, pid_t **pids, size_t *nr,
		      struct perf_err *err)
{
	size_t alloc = 16;
	int ret = 0;

	if (!proc)
		proc = "/proc";
	*nr = 0;
	*pids = malloc(alloc * sizeof(**pids));
	if (!*pids)
		return perf_err__set(err, ENOMEM, "out of memory");
	(*pids)[(*nr)++] = pid;
	/* breadth first: the array grows behind the index as children are found */
	for (size_t i = 0; i < *nr && !ret; i++) {
		/* /proc's own paths are short; PATH_MAX leaves room for a test's root */
		char path[4096 + 300];
		struct dirent *de;
		DIR *d;

		if (strlen(proc) > 4096)
			break;
		snprintf(path, sizeof(path), "%s/%d/task", proc, (int)(*pids)[i]);
		d = opendir(path);
		if (!d)
			continue;
		while (!ret && (de = readdir(d))) {
			if (de->d_name[0] < '0' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "%s/%d/task/%s/children", proc,
				 (int)(*pids)[i], de->d_name);
			ret = children__read(path, pids, nr, &alloc);
		}
		closedir(d);
	}
	if (ret) {
		free(*pids);
		*pids = NULL;
		*nr = 0;
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	return 0;
}
