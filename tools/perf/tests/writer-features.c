// SPDX-License-Identifier: GPL-2.0
/*
 * The writer's header features read back by our reader (perf_data__env), in file and pipe
 * mode and in both byte orders: every setter's value comes back as given, build ids added
 * after the first record land in the file's section (file) or in their own records (pipe),
 * the sample time may come at the end of a file, and setters refuse what is too late.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "tests.h"

/* the env owns writable strings: these are arrays, not literals */
#define S(lit)	((char []){ lit })
static char *core[] = { S("0-1") }, *thr[] = { S("0"), S("1") }, *dies[] = { S("0-1") };
static u32 core_id[] = { 0, 1 }, socket_id[] = { 0, 0 }, die_id[] = { 0, 0 };
static const u8 bid_a[20] = { 0xaa, 1, 2 }, bid_b[20] = { 0xbb, 3, 4 };

static int write_one(const char *path, const struct perf_writer_opts *o, struct perf_err *err)
{
	struct perf_env_cpu_topology t = {
		.core_siblings = core, .nr_core_siblings = 1, .thread_siblings = thr,
		.nr_thread_siblings = 2, .die_siblings = dies, .nr_die_siblings = 1,
		.has_ids = true, .nr_cpus = 2, .core_id = core_id, .socket_id = socket_id,
		.die_id = die_id,
	};
	struct perf_env_numa_node node = { .node = 0, .mem_total = 1000, .mem_free = 500,
					   .cpus = S("0-1") };
	struct perf_env_pmu pmus[] = { { 1, S("software") }, { 2, S("tracepoint") } };
	struct perf_env_cache cache = { 1, 64, 64, 12, S("Data"), S("48K"), S("0") };
	u64 bits[] = { 0xff00ff };
	struct perf_env_mem_node mem = { .node = 0, .size = 24, .nr_bits = 24, .bits = bits,
					 .nr_words = 1 };
	struct perf_event_attr attr = {
		.type = 1, .size = sizeof(attr), .sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(COMM),
	};
	struct perf_sample id = { .pid = 7, .tid = 7, .time = 10 };
	u64 buf[64];
	struct perf_writer *w = perf_writer__new(path, o, err);
	int ret = w ? 0 : -EINVAL, n;

	if (!ret)
		ret = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock", err) < 0 ||
		      perf_writer__set_nrcpus(w, 2, 2, err) ||
		      perf_writer__set_total_mem(w, 24684084, err) ||
		      perf_writer__set_clockid(w, 1, err) ||
		      perf_writer__set_clock_data(w, 1, 1700000000000000000ULL, 123456789, err) ||
		      perf_writer__set_cpu_topology(w, &t, err) ||
		      perf_writer__set_numa_topology(w, &node, 1, err) ||
		      perf_writer__set_pmu_mappings(w, pmus, 2, err) ||
		      perf_writer__set_cache(w, &cache, 1, err) ||
		      perf_writer__set_mem_topology(w, 0x8000000, &mem, 1, err) ||
		      perf_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, bid_a, 20, "/a", err);
	/* a pipe has no end to put the sample time in: it goes out with the features */
	if (!ret && o->pipe)
		ret = perf_writer__set_sample_time(w, 10, 20, err);
	n = ret ? -1 : perf_record_comm__synthesize(buf, sizeof(buf), &attr, &id, "x", false);
	if (!ret)
		ret = n < 0 || perf_writer__write(w, (void *)buf, err);
	/* too late for a feature of the header; not for a build id or a file's sample time */
	if (!ret && perf_writer__set_total_mem(w, 1, NULL) != -EBUSY)
		ret = perf_err__set(err, EINVAL, "total_mem accepted after the first record");
	if (!ret)
		ret = perf_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, bid_b, 20, "/b", err);
	if (!ret && !o->pipe)
		ret = perf_writer__set_sample_time(w, 10, 20, err);
	if (!ret && o->pipe && perf_writer__set_sample_time(w, 1, 2, NULL) != -EBUSY)
		ret = perf_err__set(err, EINVAL, "a pipe's sample time accepted after the first record");
	if (!ret)
		ret = perf_writer__finish(w, err);
	if (!ret && perf_writer__add_build_id(w, -1, 0, bid_a, 20, "/c", NULL) != -EBUSY)
		ret = perf_err__set(err, EINVAL, "build id accepted after finish");
	perf_writer__delete(w);
	return ret ? -EINVAL : 0;
}

static bool env_ok(const struct perf_env *e, char *why, size_t len)
{
	static const int feats[] = { HEADER_TOTAL_MEM, HEADER_CLOCKID, HEADER_CLOCK_DATA,
				     HEADER_CPU_TOPOLOGY, HEADER_NUMA_TOPOLOGY, HEADER_PMU_MAPPINGS,
				     HEADER_CACHE, HEADER_MEM_TOPOLOGY, HEADER_SAMPLE_TIME,
				     HEADER_BUILD_ID };

	for (size_t i = 0; i < ARRAY_SIZE(feats); i++)
		if (!perf_env__parsed(e, feats[i]) && feats[i] != HEADER_BUILD_ID) {
			snprintf(why, len, "%s not parsed", perf_header_feature__name(feats[i]));
			return false;
		}
	snprintf(why, len, "values differ");
	return e->total_mem == 24684084 && e->clockid_res_ns == 1 && e->clock_version == 1 &&
	       e->clock_clockid == 1 && e->clock_tod_ns == 1700000000000000000ULL &&
	       e->clock_clk_ns == 123456789 && e->first_sample_time == 10 &&
	       e->last_sample_time == 20 && e->cpu_topology.nr_core_siblings == 1 &&
	       !strcmp(e->cpu_topology.core_siblings[0], "0-1") &&
	       e->cpu_topology.nr_thread_siblings == 2 &&
	       !strcmp(e->cpu_topology.thread_siblings[1], "1") && e->cpu_topology.has_ids &&
	       e->cpu_topology.core_id[1] == 1 && e->cpu_topology.nr_die_siblings == 1 &&
	       e->nr_numa_nodes == 1 && e->numa_nodes[0].mem_free == 500 &&
	       !strcmp(e->numa_nodes[0].cpus, "0-1") && e->nr_pmus == 2 &&
	       e->pmus[1].type == 2 && !strcmp(e->pmus[1].name, "tracepoint") &&
	       e->nr_caches == 1 && e->caches[0].ways == 12 && !strcmp(e->caches[0].size, "48K") &&
	       e->mem_block_size == 0x8000000 && e->nr_mem_nodes == 1 &&
	       e->mem_nodes[0].nr_bits == 24 && e->mem_nodes[0].bits[0] == 0xff00ff &&
	       e->nr_build_ids == 2 && !strcmp(e->build_ids[0].filename, "/a") &&
	       !strcmp(e->build_ids[1].filename, "/b") && e->build_ids[1].build_id[0] == 0xbb &&
	       e->build_ids[1].pid == -1;
}

DEFINE_SUITE(writer_features)
{
	for (int mode = 0; mode < 4; mode++) {
		struct perf_writer_opts o = { .pipe = mode & 1, .cross_endian = mode & 2 };
		struct perf_data_record rec;
		struct perf_err err = { "" };
		struct perf_data *d;
		char path[4200], why[128];
		int ret;

		snprintf(path, sizeof(path), "%s/w%d.data", env->tmpdir, mode);
		TEST_ASSERT(env, !write_one(path, &o, &err), "mode %d: %s", mode, err.msg);
		d = perf_data__open(path, &err);
		TEST_ASSERT(env, d, "mode %d: %s", mode, err.msg);
		while ((ret = perf_data__next(d, &rec, &err)) > 0)
			;
		if (ret || !env_ok(perf_data__env(d), why, sizeof(why))) {
			perf_data__close(d);
			TEST_ASSERT(env, false, "mode %d (%s%s): %s %s", mode, o.pipe ? "pipe" : "file",
				    o.cross_endian ? ", cross-endian" : "", why, err.msg);
		}
		perf_data__close(d);
	}
	return TEST_OK;
}
