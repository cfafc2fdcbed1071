// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder as a session stage, on a synthetic file: a 64-bit sample whose dump ends
 * mid-chain (joined with the kernel's chain), a compat (regs ABI 32, 4-byte words) sample
 * unwound from a dump alone, a sample without regs passing unchanged; per-frame origins;
 * and --unwind=none / no stage leaving every chain as recorded.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include "../util/frame-resolver.h"
#include "../util/session.h"
#include "../util/unwind.h"
#include "tests.h"

#define BASE	0x7ffd0000ULL
#define TID	7

struct got {
	u64	words[3][16];
	u8	origins[3][16];
	u32	nr[3];
	bool	has_origins[3];
	u32	samples;
};

static int got_sample(const struct perf_tool *tool, struct perf_session *session,
		      const struct perf_event_header *event, struct perf_sample *sample,
		      struct perf_evattr *evattr);

struct test_tool {
	struct perf_tool	tool;
	struct got		got;
};

static int got_sample(const struct perf_tool *tool, struct perf_session *session,
		      const struct perf_event_header *event, struct perf_sample *sample,
		      struct perf_evattr *evattr)
{
	struct got *g = &((struct test_tool *)(void *)tool)->got;
	u32 i = g->samples++;

	(void)session, (void)event, (void)evattr;
	if (i >= 3 || sample->callchain_nr > 16)
		return -E2BIG;
	g->nr[i] = (u32)sample->callchain_nr;
	memcpy(g->words[i], sample->callchain, sample->callchain_nr * sizeof(u64));
	g->has_origins[i] = sample->callchain_origin;
	if (sample->callchain_origin)
		memcpy(g->origins[i], sample->callchain_origin, sample->callchain_nr);
	return 0;
}

static int write_file(const char *path, struct perf_err *err)
{
	struct perf_event_attr attr = { 0 };
	struct perf_record_mmap2 m = { .pid = TID, .tid = TID, .start = 0x400000, .len = 0x10000,
				       .prot = PROT_READ | PROT_EXEC };
	struct perf_sample s = { .pid = TID, .tid = TID, .id = 1, .period = 1 };
	/* 64-bit: fp chain BASE+16 -> BASE+48 -> BASE+0x100 (past the 64-byte dump) */
	u64 dump64[8] = { 0, 0, BASE + 48, 0x402000, 0, 0, BASE + 0x100, 0x403000 };
	u64 kern64[] = { PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000, 0x404000, 0x405000 };
	u64 regs64[] = { BASE + 16, BASE, 0x401000 };		/* bp, sp, ip */
	/* compat: 4-byte words, ebp BASE+8 -> BASE+24 -> 0 (outermost) */
	u32 dump32[16] = { 0, 0, BASE + 24, 0x8049000, 0, 0, 0, 0x804a000 };
	u64 kern32[] = { PERF_CONTEXT_USER, 0x8048000 };
	u64 regs32[] = { BASE + 8, BASE, 0x8048000 };
	u64 kern_only[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL };
	u64 id = 1, buf[512];
	struct perf_writer *w;
	int ret;

	attr.type = PERF_TYPE_SOFTWARE;
	attr.sample_period = 4000;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = (1ULL << PERF_REG_X86_BP) | (1ULL << PERF_REG_X86_SP) |
				(1ULL << PERF_REG_X86_IP);
	attr.sample_stack_user = 64;
	attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(MMAP) | PERF_ATTR_FLAG(TASK);
	w = perf_writer__new(path, NULL, err);
	if (!w)
		return -EIO;
	ret = perf_writer__add_attr(w, &attr, &id, 1, "cpu-clock", err);
	s.time = 10;
	if (ret >= 0)
		ret = perf_record_mmap2__synthesize(buf, sizeof(buf), &attr, &s, &m, "/nonexistent/prog");
	if (ret >= 0)
		ret = perf_writer__write(w, (void *)buf, err);
	/* the compat process's code (a return address outside any mapping ends a walk) */
	m.start = 0x8048000;
	if (ret >= 0)
		ret = perf_record_mmap2__synthesize(buf, sizeof(buf), &attr, &s, &m, "/nonexistent/prog32");
	if (ret >= 0)
		ret = perf_writer__write(w, (void *)buf, err);
	/* the 64-bit sample */
	s.time = 20;
	s.ip = 0x401000;
	s.misc = PERF_RECORD_MISC_USER;
	s.callchain = kern64;
	s.callchain_nr = 6;
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.user_regs_mask = attr.sample_regs_user;
	s.user_regs = regs64;
	s.user_stack = (const u8 *)dump64;
	s.user_stack_size = 64;
	s.user_stack_dyn_size = 64;
	if (ret >= 0)
		ret = perf_sample__synthesize(&attr, &s, false, buf, sizeof(buf), err);
	if (ret >= 0)
		ret = perf_writer__write(w, (void *)buf, err);
	/* the compat one */
	s.time = 30;
	s.ip = 0x8048000;
	s.callchain = kern32;
	s.callchain_nr = 2;
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_32;
	s.user_regs = regs32;
	s.user_stack = (const u8 *)dump32;
	if (ret >= 0)
		ret = perf_sample__synthesize(&attr, &s, false, buf, sizeof(buf), err);
	if (ret >= 0)
		ret = perf_writer__write(w, (void *)buf, err);
	/* a kernel thread's: no user regs, no dump */
	s.time = 40;
	s.ip = 0xffffffff81000000ULL;
	s.misc = PERF_RECORD_MISC_KERNEL;
	s.callchain = kern_only;
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_NONE;
	s.user_stack_size = 0;
	s.user_stack_dyn_size = 0;
	if (ret >= 0)
		ret = perf_sample__synthesize(&attr, &s, false, buf, sizeof(buf), err);
	if (ret >= 0)
		ret = perf_writer__write(w, (void *)buf, err);
	if (ret >= 0)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
	return ret < 0 ? ret : 0;
}

static int run(const char *path, const char *mode, struct got *g, struct perf_err *err)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts opts = { .path = path, .symbol_conf = &conf };
	struct test_tool t;
	struct perf_session *session;
	int ret;

	perf_tool__init(&t.tool);
	t.tool.sample = got_sample;
	memset(&t.got, 0, sizeof(t.got));
	if (mode && unwind_mode__parse(mode, &opts.unwind_mode))
		return -EINVAL;
	session = perf_session__new(&opts, &t.tool, err);
	if (!session)
		return -EINVAL;
	ret = perf_session__process_events(session);
	if (ret)
		*err = session->err;
	perf_session__delete(session);
	*g = t.got;
	return ret;
}

DEFINE_SUITE(unwind_stage)
{
	static const u64 want64[] = { PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000, 0x404000, 0x405000 };
	static const u8 origin64[] = { FRAME_ORIGIN_USER_FP, FRAME_ORIGIN_REGS, FRAME_ORIGIN_STACK_FP,
				       FRAME_ORIGIN_STACK_FP, FRAME_ORIGIN_USER_FP, FRAME_ORIGIN_USER_FP };
	static const u64 want32[] = { PERF_CONTEXT_USER, 0x8048000, 0x8049000, 0x804a000 };
	static const char *const modes[] = { "none", NULL };
	struct perf_err err;
	char path[512];
	struct got g;
	enum unwind_mode m;

	snprintf(path, sizeof(path), "%s/unwind.data", env->tmpdir);
	TEST_ASSERT(env, !write_file(path, &err), "writing: %s", err.msg);
	TEST_ASSERT(env, unwind_mode__parse("dwarf", &m) == 0 && m == UNWIND_MODE_DWARF &&
		    unwind_mode__parse("FP", &m) == -EINVAL, "mode names");

	for (int fp = 0; fp < 2; fp++) {
		/* auto is fp here: exclude_callchain_user is 0 */
		TEST_ASSERT(env, !run(path, fp ? "fp" : "auto", &g, &err), "session: %s", err.msg);
		TEST_ASSERT(env, g.samples == 3, "%u samples", g.samples);
		TEST_ASSERT(env, g.nr[0] == 6 && !memcmp(g.words[0], want64, sizeof(want64)) &&
			    g.has_origins[0] && !memcmp(g.origins[0], origin64, sizeof(origin64)),
			    "64-bit: %u words, [2] %#llx [3] %#llx [4] %#llx", g.nr[0],
			    (unsigned long long)g.words[0][2], (unsigned long long)g.words[0][3],
			    (unsigned long long)g.words[0][4]);
		TEST_ASSERT(env, g.nr[1] == 4 && !memcmp(g.words[1], want32, sizeof(want32)) &&
			    g.origins[1][1] == FRAME_ORIGIN_REGS && g.origins[1][3] == FRAME_ORIGIN_STACK_FP,
			    "compat: %u words, [2] %#llx [3] %#llx", g.nr[1],
			    (unsigned long long)g.words[1][2], (unsigned long long)g.words[1][3]);
		TEST_ASSERT(env, g.nr[2] == 2 && !g.has_origins[2], "a sample without regs is changed");
	}
	/* none, and a session without the option: every chain as recorded */
	for (int i = 0; i < 2; i++) {
		TEST_ASSERT(env, !run(path, modes[i], &g, &err), "session: %s", err.msg);
		TEST_ASSERT(env, g.samples == 3 && g.nr[0] == 6 && g.nr[1] == 2 && g.nr[2] == 2 &&
			    !g.has_origins[0] && !g.has_origins[1], "%s changes a chain",
			    modes[i] ? modes[i] : "no stage");
	}
	return TEST_OK;
}
