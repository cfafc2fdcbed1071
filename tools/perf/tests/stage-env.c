// SPDX-License-Identifier: GPL-2.0
/*
 * The sample stages need no session: the deferred stitcher, the unwinder and the read split
 * built on a sample_stage_env filled here (a machine, the file's attrs, a symbol_conf, an
 * err, an unknown-id counter) and driven record by record by a loop of this file, with a
 * sink of its own. A deferred sample is stitched to its record, a sample with regs and a
 * dump unwound (the chain of unwind-stage.c's 64-bit sample), read values split by id with
 * an unknown id counted in the hand-made counter. This file includes no session header.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include "util/deferred-stage.h"
#include "util/machine.h"
#include "util/read-stage.h"
#include "util/sample-stage.h"
#include "util/unwind.h"
#include "tests.h"

#define BASE		0x7ffd0000ULL
#define TID		7
#define COOKIE		5
#define KIP		0xffffffff81000000ULL
#define NR_GOT		8

struct got {
	u64	words[NR_GOT][8];
	u32	nr[NR_GOT];
	u64	id[NR_GOT], period[NR_GOT];
	u32	samples;
};

static int got__sink(void *arg, struct stage_sample *s)
{
	struct got *g = arg;
	u32 i = g->samples++;

	if (i >= NR_GOT || s->sample->callchain_nr > 8)
		return -E2BIG;
	g->nr[i] = (u32)s->sample->callchain_nr;
	if (g->nr[i])
		memcpy(g->words[i], s->sample->callchain, g->nr[i] * sizeof(u64));
	g->id[i] = s->sample->id;
	g->period[i] = s->sample->period;
	return 0;
}

static int write_record(struct perf_writer *w, int ret, const u64 *buf, struct perf_err *err)
{
	return ret < 0 ? ret : perf_writer__write(w, (const void *)buf, err);
}

/*
 * attr 0 (id 1): callchains, user regs and a 64-byte dump, deferred callchains; attr 1
 * (id 2): one read value. In time order: the mapping, a deferred sample and its record, the
 * sample to unwind, read values 10 and 15 of id 2 and one of id 99, which no attr lists.
 */
static int write_file(const char *path, struct perf_err *err)
{
	const struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .sample_period = 4000, .sample_stack_user = 64,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			       PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		.sample_regs_user = (1ULL << PERF_REG_X86_BP) | (1ULL << PERF_REG_X86_SP) |
				    (1ULL << PERF_REG_X86_IP),
		.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(MMAP) |
			 PERF_ATTR_FLAG(TASK) | PERF_ATTR_FLAG(DEFER_CALLCHAIN),
	}, rd = {
		.type = PERF_TYPE_SOFTWARE, .config = 2, .sample_period = 4000,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_READ,
		.read_format = PERF_FORMAT_ID, .flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL),
	};
	struct perf_record_mmap2 m = { .pid = TID, .tid = TID, .start = 0x400000, .len = 0x10000,
				       .prot = PROT_READ | PROT_EXEC };
	struct perf_sample s = { .pid = TID, .tid = TID, .id = 1, .period = 1, .time = 10 };
	u64 deferred[] = { PERF_CONTEXT_KERNEL, KIP, PERF_CONTEXT_USER_DEFERRED, COOKIE };
	u64 record_ips[] = { 0x406000, 0x407000 };
	/* unwind-stage.c's 64-bit sample: fp chain BASE+16 -> BASE+48 -> past the dump */
	u64 dump[8] = { 0, 0, BASE + 48, 0x402000, 0, 0, BASE + 0x100, 0x403000 };
	u64 kern[] = { PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000, 0x404000, 0x405000 };
	u64 regs[] = { BASE + 16, BASE, 0x401000 };		/* bp, sp, ip */
	static const u64 reads[][2] = { { 10, 2 }, { 15, 2 }, { 7, 99 } };
	u64 id = 1, id_rd = 2, buf[512];
	struct perf_writer *w;
	int ret;

	w = perf_writer__new(path, NULL, err);
	if (!w)
		return -EIO;
	ret = perf_writer__add_attr(w, &a, &id, 1, "cpu-clock", err);
	if (ret >= 0)
		ret = perf_writer__add_attr(w, &rd, &id_rd, 1, "page-faults", err);
	if (ret >= 0)
		ret = write_record(w, perf_record_mmap2__synthesize(buf, sizeof(buf), &a, &s, &m,
								     "/nonexistent/prog"), buf, err);
	s.time = 20;
	s.ip = KIP;
	s.misc = PERF_RECORD_MISC_KERNEL;
	s.callchain = deferred;
	s.callchain_nr = 4;
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_NONE;
	if (ret >= 0)
		ret = write_record(w, perf_sample__synthesize(&a, &s, false, buf, sizeof(buf), err),
				   buf, err);
	s.time = 30;
	if (ret >= 0)
		ret = write_record(w, perf_record_callchain_deferred__synthesize(buf, sizeof(buf), &a,
				   &s, COOKIE, record_ips, 2), buf, err);
	s = (struct perf_sample){
		.pid = TID, .tid = TID, .id = 1, .period = 1, .time = 40, .ip = 0x401000,
		.misc = PERF_RECORD_MISC_USER, .callchain = kern, .callchain_nr = 6,
		.user_regs_abi = PERF_SAMPLE_REGS_ABI_64, .user_regs_mask = a.sample_regs_user,
		.user_regs = regs, .user_stack = (const u8 *)dump, .user_stack_size = 64,
		.user_stack_dyn_size = 64,
	};
	if (ret >= 0)
		ret = write_record(w, perf_sample__synthesize(&a, &s, false, buf, sizeof(buf), err),
				   buf, err);
	s = (struct perf_sample){ .pid = TID, .tid = TID, .id = 2 };
	for (size_t i = 0; i < 3 && ret >= 0; i++) {
		s.time = 50 + i;
		s.read.one.value = reads[i][0];
		s.read.one.id = reads[i][1];
		ret = write_record(w, perf_sample__synthesize(&rd, &s, false, buf, sizeof(buf), err),
				   buf, err);
	}
	if (ret >= 0)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
	return ret < 0 ? ret : 0;
}

/* what a session does with these records, without one: machine updates, claims, samples */
static int drive(struct perf_data *data, struct machine *machine, struct sample_pipeline *pipe,
		 struct perf_err *err)
{
	struct perf_data_record rec;
	int ret;

	while ((ret = perf_data__next(data, &rec, err)) > 0) {
		const struct perf_event_header *h = rec.header;
		struct stage_record r = {
			.event = h, .evattr = perf_data__attr_of(data, h),
			.file_offset = rec.file_offset, .stable = rec.stable,
		};
		struct perf_sample ps;
		struct stage_sample s = {
			.event = h, .sample = &ps, .evattr = r.evattr, .file_offset = rec.file_offset,
			.stable = rec.stable,
		};

		if (h->type == PERF_RECORD_MMAP2) {
			ret = machine__process_mmap(machine, h, 0);
		} else if (h->type == PERF_RECORD_SAMPLE ||
			   h->type == PERF_RECORD_CALLCHAIN_DEFERRED) {
			/* 1: no stage took it raw; the stitcher takes every deferred record */
			ret = sample_pipeline__claim(pipe, &r);
			if (ret > 0 && h->type != PERF_RECORD_SAMPLE)
				ret = -EINVAL;
			if (ret > 0) {
				ret = stage_record__parse(&r, NULL, &ps, err);
				if (!ret)
					ret = sample_pipeline__sample(pipe, &s, true);
			}
		}
		if (ret < 0)
			return ret;
	}
	return ret < 0 ? ret : sample_pipeline__flush(pipe);
}

DEFINE_SUITE(stages_env)
{
	static const u64 stitched[] = { PERF_CONTEXT_KERNEL, KIP, PERF_CONTEXT_USER_DEFERRED,
					0x406000, 0x407000 };
	static const u64 unwound[] = { PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000, 0x404000,
				       0x405000 };
	struct symbol_conf conf = { .symfs = "" };
	struct perf_err err = { "" }, stage_err = { "" };
	struct sample_stage_env senv;
	struct sample_pipeline pipe;
	struct sample_stage *st[3];
	struct perf_data *data;
	struct machine machine;
	struct got g = { .samples = 0 };
	u64 nr_unknown_id = 0;
	char path[512];
	int ret;

	snprintf(path, sizeof(path), "%s/stages.data", env->tmpdir);
	TEST_ASSERT(env, !write_file(path, &err), "writing: %s", err.msg);
	data = perf_data__open(path, &err);
	TEST_ASSERT(env, data, "%s", err.msg);
	if (machine__init(&machine, &conf)) {
		perf_data__close(data);
		TEST_ASSERT(env, false, "machine__init");
	}
	senv = (struct sample_stage_env){
		.machine = &machine, .data = data, .symbol_conf = &conf, .err = &stage_err,
		.nr_unknown_id = &nr_unknown_id,
	};
	sample_pipeline__init(&pipe, got__sink, &g);
	st[0] = deferred_stage__new(&senv, 0);
	st[1] = unwind_stage__new(&senv, UNWIND_MODE_FP);
	st[2] = read_stage__new(&senv);
	ret = 0;
	for (int i = 0; i < 3; i++) {
		/* the pipeline owns what it was given: the rest goes here */
		if (!ret)
			ret = st[i] ? sample_pipeline__add(&pipe, st[i]) : -ENOMEM;
		else if (st[i])
			st[i]->ops->delete(st[i]);
	}
	if (ret)
		perf_err__set(&err, ret, "building the stages");
	else
		ret = drive(data, &machine, &pipe, &err);
	/* the stages hold thread references: they go before the machine */
	sample_pipeline__exit(&pipe);
	machine__exit(&machine);
	perf_data__close(data);
	TEST_ASSERT(env, !ret, "%s (stage: %s)", err.msg, stage_err.msg);

	TEST_ASSERT(env, g.samples == 4, "%u samples", g.samples);
	TEST_ASSERT(env, g.nr[0] == 5 && !memcmp(g.words[0], stitched, sizeof(stitched)),
		    "deferred: %u words, [3] %#llx", g.nr[0], (unsigned long long)g.words[0][3]);
	TEST_ASSERT(env, g.nr[1] == 6 && !memcmp(g.words[1], unwound, sizeof(unwound)),
		    "unwound: %u words, [2] %#llx [3] %#llx", g.nr[1],
		    (unsigned long long)g.words[1][2], (unsigned long long)g.words[1][3]);
	TEST_ASSERT(env, g.id[2] == 2 && g.period[2] == 10 && g.id[3] == 2 && g.period[3] == 5,
		    "read values: id %llu period %llu, id %llu period %llu",
		    (unsigned long long)g.id[2], (unsigned long long)g.period[2],
		    (unsigned long long)g.id[3], (unsigned long long)g.period[3]);
	TEST_ASSERT(env, nr_unknown_id == 1, "%llu unknown ids, not 1",
		    (unsigned long long)nr_unknown_id);
	return TEST_OK;
}
