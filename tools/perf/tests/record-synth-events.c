// SPDX-License-Identifier: GPL-2.0
/*
 * What perf record writes about its own events before the first sample
 * (record-synth-events.h), and the PMU_CAPS / CPU_PMU_CAPS / BPF header features it fills
 * from a sysfs tree (record-features.h), read back by our reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/event.h>
#include <perf/writer.h>
#include "../util/record-features.h"
#include "../util/record-synth-events.h"
#include "tests.h"

/* ---- CPU_MAP encodings -------------------------------------------------------------------- */

static u16 get16(const u8 *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

DEFINE_SUITE(record_synth_cpu_map)
{
	static const int range[] = { 2, 3, 4 }, any[] = { -1 }, pair[] = { 0, 5 };
	static const int even[] = { 0, 2, 4, 6, 8, 10, 12, 14 }, down[] = { 3, 1 };
	u64 buf[16];
	const u8 *b = (const u8 *)(buf + 1);
	int n;

	/* consecutive: a range, 8 bytes of body (perf 6.1's "0-1" of a 2-cpu machine) */
	n = cpu_map__synthesize(range, 3, buf, sizeof(buf));
	TEST_ASSERT(env, n == 16 && get16(b) == 2 && b[2] == 0 && get16(b + 4) == 2 &&
		    get16(b + 6) == 4, "range: size %d type %u", n, get16(b));
	/* --per-thread's {-1}: a list of one 0xffff, as perf writes it */
	n = cpu_map__synthesize(any, 1, buf, sizeof(buf));
	TEST_ASSERT(env, n == 16 && get16(b) == 0 && get16(b + 2) == 1 && get16(b + 4) == 0xffff,
		    "any cpu: size %d type %u", n, get16(b));
	TEST_ASSERT(env, cpu_map__synthesize(NULL, 0, buf, sizeof(buf)) == 16 && get16(b + 4) == 0xffff,
		    "NULL is {-1}");
	/* two apart: a list (4 + 4 bytes) is smaller than a mask (6 + 4) */
	n = cpu_map__synthesize(pair, 2, buf, sizeof(buf));
	TEST_ASSERT(env, n == 16 && get16(b) == 0 && get16(b + 2) == 2 && get16(b + 6) == 5,
		    "pair: size %d type %u", n, get16(b));
	/* eight apart: a list needs 20 bytes, a 32-bit mask 10 */
	n = cpu_map__synthesize(even, 8, buf, sizeof(buf));
	TEST_ASSERT(env, n == 24 && get16(b) == 1 && get16(b + 2) == 1 && get16(b + 4) == 4,
		    "mask: size %d type %u", n, get16(b));
	{
		u32 mask;

		memcpy(&mask, b + 6, 4);
		TEST_ASSERT(env, mask == 0x5555, "mask bits %#x", mask);
	}
	TEST_ASSERT(env, cpu_map__synthesize(down, 2, buf, sizeof(buf)) == -EINVAL,
		    "descending cpus accepted");
	TEST_ASSERT(env, cpu_map__synthesize(even, 8, buf, 16) == -E2BIG, "no room accepted");
	return TEST_OK;
}

/* ---- ID_INDEX, THREAD_MAP, EVENT_UPDATE --------------------------------------------------- */

struct collect {
	u32	types[8];
	size_t	nr, id_entries;
	u64	last_id;
	bool	ids_in_order;
	u64	thread;
	char	unit[8];
	double	scale;
};

static int collect__emit(void *ctx, const struct perf_event_header *h)
{
	struct collect *c = ctx;

	if (c->nr < 8)
		c->types[c->nr] = h->type;
	c->nr++;
	if (h->type == PERF_RECORD_ID_INDEX) {
		const struct perf_record_id_index *r = (const void *)h;

		if (h->size != sizeof(*r) + r->nr * sizeof(r->entries[0]))
			c->ids_in_order = false;
		for (u64 i = 0; i < r->nr; i++) {
			/* ids given as 1000 + k (slot k): idx = k's cpu position, tid -1 */
			if (r->entries[i].id != c->last_id + 1 || r->entries[i].tid != (u64)-1 ||
			    r->entries[i].cpu != (r->entries[i].id - 1000) % 2 ||
			    r->entries[i].idx != r->entries[i].cpu)
				c->ids_in_order = false;
			c->last_id = r->entries[i].id;
			c->id_entries++;
		}
	} else if (h->type == PERF_RECORD_THREAD_MAP) {
		c->thread = ((const struct perf_record_thread_map *)h)->entries[0].pid;
	} else if (h->type == PERF_RECORD_EVENT_UPDATE) {
		const struct perf_record_event_update *u = (const void *)h;

		if (u->type == 0)
			memcpy(c->unit, u->data, sizeof(c->unit));
		else if (u->type == 1)
			memcpy(&c->scale, u->data, sizeof(c->scale));
	}
	return 0;
}

DEFINE_SUITE(record_synth_id_index)
{
	/* more ids than one record holds ((65535 - 16) / 32 = 2047): two records */
	enum { NR_SLOTS = 3000 };
	struct evlist_slot *slots = calloc(NR_SLOTS, sizeof(*slots));
	u64 *ids = calloc(NR_SLOTS, sizeof(*ids));
	struct perf_evattr ea = { .attr = { .type = 1, .config = 1 }, .ids = ids,
				  .nr_ids = NR_SLOTS };
	static const int cpus[] = { 0, 1 };
	struct collect c = { .last_id = 999, .ids_in_order = true };
	struct record_synth_events e = {
		.attrs = &ea, .nr_attrs = 1, .slots = slots, .nr_slots = NR_SLOTS,
		.cpus = cpus, .nr_cpus = 2, .emit = collect__emit, .ctx = &c,
	};
	struct perf_err err = { "" };
	int ret;

	TEST_ASSERT(env, slots && ids, "out of memory");
	for (size_t k = 0; k < NR_SLOTS; k++) {
		ids[k] = 1000 + k;
		slots[k] = (struct evlist_slot){ .pid = -1, .cpu = (int)(k % 2) };
	}
	ret = record_synth__id_index(&e, &err);
	if (!ret)
		ret = record_synth__event_updates(&e, &err);
	if (!ret)
		ret = record_synth__thread_map(&e, &err);
	free(slots);
	free(ids);
	TEST_ASSERT(env, !ret, "%s", err.msg);
	TEST_ASSERT(env, c.nr == 5 && c.types[0] == PERF_RECORD_ID_INDEX &&
		    c.types[1] == PERF_RECORD_ID_INDEX && c.types[2] == PERF_RECORD_EVENT_UPDATE &&
		    c.types[4] == PERF_RECORD_THREAD_MAP, "%zu records", c.nr);
	TEST_ASSERT(env, c.id_entries == NR_SLOTS && c.ids_in_order, "%zu ids, in order %d",
		    c.id_entries, c.ids_in_order);
	/* task-clock: nanoseconds shown as msec */
	TEST_ASSERT(env, !strcmp(c.unit, "msec") && c.scale == 1e-6, "unit %s scale %g", c.unit,
		    c.scale);
	TEST_ASSERT(env, c.thread == (u64)-1, "thread %llx", (unsigned long long)c.thread);

	/* an attr whose ids do not match the slots is refused with a message */
	ea.nr_ids = 2;
	ret = record_synth__id_index(&e, &err);
	TEST_ASSERT(env, ret == -EINVAL && strstr(err.msg, "2 ids for 3000 slots"), "%d %s", ret,
		    err.msg);
	/* a THREAD_MAP holds (65535 - 16) / 24 = 2729 threads: 3000 are refused, none written */
	{
		pid_t *tids = calloc(NR_SLOTS, sizeof(*tids));

		TEST_ASSERT(env, tids, "out of memory");
		e.threads = tids;
		e.nr_threads = NR_SLOTS;
		c.nr = 0;
		ret = record_synth__thread_map(&e, &err);
		free(tids);
		TEST_ASSERT(env, ret == -E2BIG && c.nr == 0 &&
			    strstr(err.msg, "3000 threads do not fit a THREAD_MAP record (at most 2729)"),
			    "%d %s", ret, err.msg);
	}
	return TEST_OK;
}

/* ---- PMU_CAPS from a fake sysfs ----------------------------------------------------------- */

static int put_file(const char *root, const char *rel, const char *text)
{
	char path[4200];
	char *slash;
	FILE *fp;

	if (mkdir(root, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*slash = '/';
	}
	if (!text)
		return mkdir(path, 0755) ? -errno : 0;
	fp = fopen(path, "w");
	if (!fp)
		return -errno;
	fputs(text, fp);
	return fclose(fp) ? -errno : 0;
}

/* records the features of sys into path; 0 or the fill's error with err */
static int fill_one(const char *sys, const char *path, struct perf_err *err)
{
	struct record_features_opts o = { .version = "0", .sys = sys };
	struct perf_event_attr attr = { .type = 1, .size = sizeof(attr) };
	struct perf_writer *w = perf_writer__new(path, NULL, err);
	int ret;

	if (!w)
		return -EINVAL;
	ret = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock", err) < 0 ? -EINVAL : 0;
	if (!ret)
		ret = record_features__fill(w, &o, err);
	if (!ret)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
	return ret;
}

DEFINE_SUITE(record_pmu_caps)
{
	static const char *const files[][2] = {
		{ "devices/system/cpu/present", "0\n" },
		{ "devices/system/cpu/online", "0\n" },
		{ "bus/event_source/devices/cpu/type", "4\n" },
		{ "bus/event_source/devices/cpu/caps/branches", "32\n" },
		{ "bus/event_source/devices/ibs_op/type", "11\n" },
		{ "bus/event_source/devices/ibs_op/caps/zen4_ibs_extensions", "1\n" },
		{ "bus/event_source/devices/software/type", "1\n" },
		{ "bus/event_source/devices/empty/type", "12\n" },
	};
	char sys[4200], path[4200];
	struct perf_err err = { "" };
	const struct perf_env *e;
	struct perf_data_record rec;
	struct perf_data *d;
	int ret;

	snprintf(sys, sizeof(sys), "%s/sys", env->tmpdir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		TEST_ASSERT(env, !put_file(sys, files[i][0], files[i][1]), "cannot write %s", files[i][0]);
	/* a caps directory without files: no caps, as perf counts them */
	TEST_ASSERT(env, !put_file(sys, "bus/event_source/devices/empty/caps", NULL), "mkdir");
	snprintf(path, sizeof(path), "%s/caps.data", env->tmpdir);
	TEST_ASSERT(env, !fill_one(sys, path, &err), "%s", err.msg);
	d = perf_data__open(path, &err);
	TEST_ASSERT(env, d, "%s", err.msg);
	while ((ret = perf_data__next(d, &rec, &err)) > 0)
		;
	e = perf_data__env(d);
	ret = !ret && perf_env__parsed(e, HEADER_PMU_CAPS) &&
	      perf_env__parsed(e, HEADER_CPU_PMU_CAPS) && perf_env__has_feat(e, HEADER_BPF_PROG_INFO) &&
	      perf_env__has_feat(e, HEADER_BPF_BTF) && e->nr_pmu_caps == 1 &&
	      !strcmp(e->pmu_caps[0].pmu, "ibs_op") && e->pmu_caps[0].nr == 1 &&
	      !strcmp(e->pmu_caps[0].names[0], "zen4_ibs_extensions") &&
	      !strcmp(e->pmu_caps[0].values[0], "1") && e->cpu_pmu_caps.nr == 1 &&
	      !strcmp(e->cpu_pmu_caps.names[0], "branches") &&
	      !strcmp(e->cpu_pmu_caps.values[0], "32");
	perf_data__close(d);
	TEST_ASSERT(env, ret, "caps not read back as written: %s", err.msg);

	/* no pmu with caps: PMU_CAPS with a count of 0, no CPU_PMU_CAPS (perf 6.1 on this VM) */
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/cpu/caps/branches", env->tmpdir);
	TEST_ASSERT(env, !unlink(path), "unlink");
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/ibs_op/caps/zen4_ibs_extensions",
		 env->tmpdir);
	TEST_ASSERT(env, !unlink(path), "unlink");
	snprintf(path, sizeof(path), "%s/none.data", env->tmpdir);
	TEST_ASSERT(env, !fill_one(sys, path, &err), "%s", err.msg);
	d = perf_data__open(path, &err);
	TEST_ASSERT(env, d, "%s", err.msg);
	e = perf_data__env(d);
	ret = perf_env__parsed(e, HEADER_PMU_CAPS) && !e->nr_pmu_caps &&
	      !perf_env__has_feat(e, HEADER_CPU_PMU_CAPS);
	perf_data__close(d);
	TEST_ASSERT(env, ret, "an empty PMU_CAPS not read back");

	/* a cap that cannot be read: one error naming it */
	TEST_ASSERT(env, !put_file(sys, "bus/event_source/devices/ibs_op/caps/broken/x", "1"), "mkdir");
	snprintf(path, sizeof(path), "%s/broken.data", env->tmpdir);
	ret = fill_one(sys, path, &err);
	TEST_ASSERT(env, ret < 0 && strstr(err.msg, "ibs_op/caps/broken"), "%d: %s", ret, err.msg);
	return TEST_OK;
}
