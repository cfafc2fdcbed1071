// SPDX-License-Identifier: GPL-2.0
/* perf inject -j: jitdump markers into the MMAP2 records of the JIT'd code; see inject-jit.h */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <perf/synthesize.h>
#include "inject-jit.h"
#include "jitdump.h"

struct inject_jit {
	u32	*done;		/* the pids whose dump was read */
	size_t	nr_done, done_alloc;
	u64	nr_dumps, nr_maps;
};

/* what one dump's mappings are written with */
struct jit_emit {
	struct inject_jit	*ij;
	struct perf_sample	id;	/* the marker's sample_id: the id and cpu stay */
	const struct perf_evattr *ea;
	inject_jit_write_t	write;
	void			*arg;
	u64			buf[(sizeof(struct perf_record_mmap2) + 4096 + 64) / 8];
};

struct inject_jit *inject_jit__new(void)
{
	return calloc(1, sizeof(struct inject_jit));
}

void inject_jit__delete(struct inject_jit *ij)
{
	if (!ij)
		return;
	free(ij->done);
	free(ij);
}

void inject_jit__counts(const struct inject_jit *ij, u64 *dumps, u64 *maps)
{
	*dumps = ij->nr_dumps;
	*maps = ij->nr_maps;
}

int inject_jit__check(struct perf_data *data, struct perf_err *err)
{
	for (size_t i = 0; i < perf_data__nr_attrs(data); i++) {
		const struct perf_event_attr *a = &perf_data__attr(data, i)->attr;

		if (!(a->flags & PERF_ATTR_FLAG(USE_CLOCKID)) || a->clockid != CLOCK_MONOTONIC)
			return perf_err__set(err, EINVAL,
					     "-j: the jitdump's times are CLOCK_MONOTONIC, and event %zu of this recording has other times: record with -k 1 (-k mono)",
					     i);
	}
	return 0;
}

static int jit_emit__map(void *ctx, const struct jit_map *map)
{
	struct jit_emit *je = ctx;
	struct perf_record_mmap2 m = {
		.pid = map->pid, .tid = map->tid, .start = map->start, .len = map->len,
		.pgoff = map->pgoff, .maj = map->maj, .min = map->min, .ino = map->ino,
		/* as upstream: the runtime's code is executable and shared with the file */
		.ino_generation = 1, .prot = PROT_EXEC, .flags = MAP_SHARED,
	};
	struct perf_sample id = je->id;
	int n;

	m.header.misc = PERF_RECORD_MISC_USER;
	id.pid = map->pid;
	id.tid = map->tid;
	id.time = map->time;
	n = perf_record_mmap2__synthesize(je->buf, sizeof(je->buf), je->ea ? &je->ea->attr : NULL,
					  &id, &m, map->path);
	if (n < 0)
		return n;
	je->ij->nr_maps++;
	return je->write(je->arg, (const struct perf_event_header *)je->buf, &id);
}

static bool inject_jit__done(struct inject_jit *ij, u32 pid)
{
	for (size_t i = 0; i < ij->nr_done; i++)
		if (ij->done[i] == pid)
			return true;
	return false;
}

int inject_jit__mmap(struct inject_jit *ij, const struct perf_event_header *event,
		     const struct perf_sample *id, const struct perf_evattr *ea,
		     struct perf_data *check, inject_jit_write_t write, void *arg,
		     struct perf_err *err)
{
	const char *filename;
	struct jit_emit *je;
	u32 pid, dump_pid;
	size_t fixed;
	int ret;

	if (event->type == PERF_RECORD_MMAP2)
		fixed = sizeof(struct perf_record_mmap2);
	else if (event->type == PERF_RECORD_MMAP)
		fixed = sizeof(struct perf_record_mmap);
	else
		return 0;
	/* the reader checked the name is terminated inside the record */
	if (event->size <= fixed)
		return 0;
	filename = (const char *)event + fixed;
	memcpy(&pid, (const char *)event + sizeof(*event), sizeof(pid));
	if (!jitdump__is_marker(filename, &dump_pid) || dump_pid != pid)
		return 0;
	if (inject_jit__done(ij, pid))
		return 1;
	if (check && (ret = inject_jit__check(check, err)))
		return ret;
	if (ij->nr_done == ij->done_alloc) {
		size_t n = ij->done_alloc ? 2 * ij->done_alloc : 8;
		u32 *p = realloc(ij->done, n * sizeof(*p));

		if (!p)
			return perf_err__set(err, ENOMEM, "out of memory");
		ij->done = p;
		ij->done_alloc = n;
	}
	ij->done[ij->nr_done++] = pid;
	je = calloc(1, sizeof(*je));
	if (!je)
		return perf_err__set(err, ENOMEM, "out of memory");
	je->ij = ij;
	je->id = *id;
	je->ea = ea;
	je->write = write;
	je->arg = arg;
	ret = jitdump__process(filename, pid, jit_emit__map, je, err);
	free(je);
	if (ret)
		return ret < 0 ? ret : -EIO;
	ij->nr_dumps++;
	return 1;
}
