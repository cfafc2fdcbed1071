// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder as a session stage, on a synthetic file: a 64-bit sample whose dump ends
 * mid-chain (joined with the kernel's chain), a compat (regs ABI 32, 4-byte words) sample
 * unwound from a dump alone, a sample without regs passing unchanged; per-frame origins;
 * and --unwind=none / no stage leaving every chain as recorded.
 *
 * And on crafted files, one sample each, for what a recording can get wrong: user regs
 * without bp (FP unknown, not 0: the kernel's chain goes on from the ip), a frame chain
 * deeper than the 510-frame cap (said in the statistics), a sample whose dyn_size exceeds
 * its dump (handed to the stage directly: the reader refuses such a file), a byte-swapped
 * file's dump in the dwarf mode, and files of another architecture (its HEADER_ARCH, or a
 * register mask x86 cannot have): one warning, chains as recorded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include "../util/frame-resolver.h"
#include "../util/session.h"
#include "../util/unwind.h"
#include "../util/unwind-step.h"
#include "fixture-unwind.h"
#include "tests.h"

#define BASE	0x7ffd0000ULL
#define TID	7

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

#define CODE	0x400000ULL
/* the index of the last sample run() got (each file has one; a hand-made one comes after) */
#define LAST	(g.samples ? g.samples - 1 : 0)

struct craft {
	bool		cross_endian;
	bool		dwarf_attr;	/* exclude_callchain_user, as --call-graph dwarf */
	const char	*arch;		/* HEADER_ARCH, NULL: none */
	u64		regs_mask;	/* 0: bp, sp, ip */
	const u64	*regs;		/* in mask order */
	u32		nr_regs;
	const u8	*dump;
	u64		dump_size;
	const u64	*chain;
	u32		chain_nr;
};

static int craft__write(const struct craft *c, const char *path, struct perf_err *err)
{
	static const u64 bp_sp_ip = (1ULL << PERF_REG_X86_BP) | (1ULL << PERF_REG_X86_SP) |
				    (1ULL << PERF_REG_X86_IP);
	struct perf_writer_opts wopts = { .cross_endian = c->cross_endian };
	struct perf_event_attr attr = { 0 };
	struct perf_record_mmap2 m = { .pid = TID, .tid = TID, .start = CODE, .len = 0x10000,
				       .prot = PROT_READ | PROT_EXEC };
	struct perf_sample s = { .pid = TID, .tid = TID, .id = 1, .period = 1 };
	size_t buf_size = 16384 + 1024;
	struct perf_writer *w;
	u64 id = 1, *buf = malloc(buf_size);
	int ret;

	if (!buf)
		return -ENOMEM;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.sample_period = 4000;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = c->regs_mask ? c->regs_mask : bp_sp_ip;
	attr.sample_stack_user = (u32)c->dump_size;
	attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(MMAP) | PERF_ATTR_FLAG(TASK);
	if (c->dwarf_attr)
		attr.flags |= PERF_ATTR_FLAG(EXCLUDE_CALLCHAIN_USER);
	ret = -EIO;
	w = perf_writer__new(path, &wopts, err);
	if (!w)
		goto out_free;
	ret = perf_writer__add_attr(w, &attr, &id, 1, "cpu-clock", err);
	if (ret >= 0 && c->arch)
		ret = perf_writer__set_string(w, HEADER_ARCH, c->arch, err);
	s.time = 10;
	if (ret >= 0)
		ret = perf_record_mmap2__synthesize(buf, buf_size, &attr, &s, &m, "/nonexistent/prog");
	if (ret >= 0)
		ret = perf_writer__write(w, (void *)buf, err);
	s.time = 20;
	s.ip = c->regs[c->nr_regs - 1];
	s.misc = PERF_RECORD_MISC_USER;
	s.callchain = c->chain;
	s.callchain_nr = c->chain_nr;
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.user_regs_mask = attr.sample_regs_user;
	s.user_regs = c->regs;
	s.user_stack = c->dump;
	s.user_stack_size = c->dump_size;
	s.user_stack_dyn_size = c->dump_size;
	if (ret >= 0)
		ret = perf_sample__synthesize(&attr, &s, false, buf, buf_size, err);
	if (ret >= 0)
		ret = perf_writer__write(w, (void *)buf, err);
	if (ret >= 0)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
out_free:
	free(buf);
	return ret < 0 ? ret : 0;
}

/*
 * Reads path with --unwind=mode (NULL: no option); g gets the last sample's chain and stats (may be NULL) the
 * stage's end-of-run lines (full: its statistics too). extra (may be NULL) goes through the
 * session's stages after the file, as a sample of the file's attr.
 */
static int run_stats(const char *path, const char *mode, struct unwind_got *g, char **stats,
		     bool full, struct perf_sample *extra, struct perf_err *err)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts opts = { .path = path, .symbol_conf = &conf };
	struct perf_session *session;
	struct unwind_got_tool t;
	size_t len;
	FILE *fp;
	int ret;

	perf_tool__init(&t.tool);
	t.tool.sample = unwind_got__sample;
	memset(&t.got, 0, sizeof(t.got));
	if (mode && unwind_mode__parse(mode, &opts.unwind_mode))
		return -EINVAL;
	session = perf_session__new(&opts, &t.tool, err);
	if (!session)
		return -EINVAL;
	ret = perf_session__process_events(session);
	if (ret)
		*err = session->err;
	if (!ret && extra) {
		struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE,
						 .misc = PERF_RECORD_MISC_USER, .size = 8 };
		struct stage_sample ss = { .event = &hdr, .sample = extra, .evattr = t.got.evattr };

		ret = ss.evattr ? sample_pipeline__sample(&session->pipe, &ss, false) : -ENOENT;
	}
	if (stats) {
		*stats = NULL;
		fp = open_memstream(stats, &len);
		if (fp) {
			perf_session__fprintf_stage_stats(session, fp, full ? SAMPLE_STAGE_ALL : 0);
			fclose(fp);
		}
		if (!*stats)
			ret = -ENOMEM;
	}
	perf_session__delete(session);
	*g = t.got;
	return ret;
}

static unsigned int count_lines(const char *text, const char *what)
{
	unsigned int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static int run(const char *path, const char *mode, struct unwind_got *g, struct perf_err *err)
{
	return run_stats(path, mode, g, NULL, false, NULL, err);
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
	struct unwind_got g;
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

/* no bp in the regs: the FP rule cannot start, the kernel's chain follows the ip */
static int test_no_bp(const struct test_env *env, const char *path)
{
	static const u64 regs[] = { BASE, 0x401000 };	/* sp, ip */
	static const u64 chain[] = { PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000 };
	static const u8 origins[] = { FRAME_ORIGIN_USER_FP, FRAME_ORIGIN_REGS,
				      FRAME_ORIGIN_USER_FP, FRAME_ORIGIN_USER_FP };
	u64 dump[8] = { 0 };
	struct craft c = {
		.regs_mask = (1ULL << PERF_REG_X86_SP) | (1ULL << PERF_REG_X86_IP),
		.regs = regs, .nr_regs = 2, .dump = (const u8 *)dump, .dump_size = sizeof(dump),
		.chain = chain, .chain_nr = 4,
	};
	struct perf_err err;
	struct unwind_got g;
	char *stats;

	TEST_ASSERT(env, !craft__write(&c, path, &err), "writing: %s", err.msg);
	TEST_ASSERT(env, !run_stats(path, "fp", &g, &stats, true, NULL, &err), "session: %s", err.msg);
	TEST_ASSERT(env, g.nr[LAST] == 4 && !memcmp(g.words[LAST], chain, sizeof(chain)) && g.has_origins[LAST] &&
		    !memcmp(g.origins[LAST], origins, sizeof(origins)) &&
		    count_lines(stats, "walks ended: frame pointer unknown: 1\n") == 1,
		    "no bp: %u words, [2] %#llx; stats:\n%s", g.nr[LAST],
		    (unsigned long long)g.words[LAST][2], stats);
	free(stats);
	return TEST_OK;
}

/* a frame-pointer chain of 600 frames in the dump: 510 of them, and the cap said */
static int test_cap(const struct test_env *env, const char *path)
{
	enum { DEEP = 600 };
	static const u64 regs[] = { BASE, BASE, 0x401000 };	/* bp, sp, ip */
	static const u64 chain[] = { PERF_CONTEXT_USER, 0x401000 };
	u64 *dump = calloc(2 * DEEP, sizeof(u64));
	struct craft c = {
		.regs = regs, .nr_regs = 3, .dump = (const u8 *)dump,
		.dump_size = 2 * DEEP * sizeof(u64), .chain = chain, .chain_nr = 2,
	};
	struct perf_err err;
	struct unwind_got g;
	char *stats = NULL;
	int ret = TEST_FAIL;

	if (!dump)
		return TEST_FAIL;
	for (u64 i = 0; i < DEEP; i++) {
		dump[2 * i] = BASE + 16 * (i + 1);
		dump[2 * i + 1] = 0x402000 + i;
	}
	if (craft__write(&c, path, &err) || run_stats(path, "fp", &g, &stats, true, NULL, &err)) {
		if (env->verbose)
			fprintf(stderr, "  cap: %s\n", err.msg);
		goto out;
	}
	if (g.nr[LAST] != 1 + UNWIND_MAX_FRAMES || g.words[LAST][UNWIND_MAX_FRAMES] != 0x402000 + 508 ||
	    count_lines(stats, "walks ended: too many frames: 1\n") != 1) {
		if (env->verbose)
			fprintf(stderr, "  cap: %u words; stats:\n%s", g.nr[LAST], stats);
		goto out;
	}
	ret = TEST_OK;
out:
	free(stats);
	free(dump);
	return ret;
}

/*
 * A sample whose dyn_size (64) exceeds its dump (16 bytes of a 64-byte buffer): the stage
 * reads the 16 only, so the chain ends at the second frame instead of following the words
 * past the dump.
 */
static int test_dyn_size(const struct test_env *env, const char *path)
{
	static const u64 regs[] = { BASE, BASE, 0x401000 };	/* bp, sp, ip */
	static const u64 chain[] = { PERF_CONTEXT_USER, 0x401000 };
	static const u64 dump[8] = { BASE + 16, 0x402000, 0, 0x403000 };
	struct craft c = {
		.regs = regs, .nr_regs = 3, .dump = (const u8 *)dump, .dump_size = 16,
		.chain = chain, .chain_nr = 2,
	};
	struct perf_sample s = {
		.pid = TID, .tid = TID, .id = 1, .period = 1, .time = 30, .ip = 0x401000,
		.misc = PERF_RECORD_MISC_USER, .callchain = chain, .callchain_nr = 2,
		.user_regs_abi = PERF_SAMPLE_REGS_ABI_64, .user_regs = regs,
		.user_regs_mask = (1ULL << PERF_REG_X86_BP) | (1ULL << PERF_REG_X86_SP) |
				  (1ULL << PERF_REG_X86_IP),
		.user_stack = (const u8 *)dump, .user_stack_size = 16, .user_stack_dyn_size = 64,
	};
	struct perf_err err;
	struct unwind_got g;

	TEST_ASSERT(env, !craft__write(&c, path, &err), "writing: %s", err.msg);
	TEST_ASSERT(env, !run_stats(path, "fp", &g, NULL, false, &s, &err), "session: %s", err.msg);
	TEST_ASSERT(env, g.samples == 2 && g.nr[LAST] == 3 && g.words[LAST][2] == 0x402000,
		    "dyn_size past the dump: %u samples, %u words, [3] %#llx", g.samples, g.nr[LAST],
		    (unsigned long long)g.words[LAST][3]);
	return TEST_OK;
}

/* a big-endian machine's file: its dump's words are big-endian, and read so in dwarf mode */
static int test_swapped(const struct test_env *env, const char *path)
{
	static const u64 regs[] = { BASE, BASE, 0x401000 };	/* bp, sp, ip */
	static const u64 chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL };
	static const u64 want[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL, PERF_CONTEXT_USER,
				    0x401000, 0x402000 - 1, 0x403000 - 1 };
	u64 dump[4] = { BASE + 16, 0x402000, 0, 0x403000 };
	struct craft c = {
		.cross_endian = true, .dwarf_attr = true, .regs = regs, .nr_regs = 3,
		.dump = (const u8 *)dump, .dump_size = sizeof(dump), .chain = chain, .chain_nr = 2,
	};
	struct perf_err err;
	struct unwind_got g;

	/* the dump is the traced machine's memory, which the writer leaves as given */
	for (int i = 0; i < 4; i++)
		dump[i] = __builtin_bswap64(dump[i]);
	TEST_ASSERT(env, !craft__write(&c, path, &err), "writing: %s", err.msg);
	for (int auto_mode = 0; auto_mode < 2; auto_mode++) {
		TEST_ASSERT(env, !run_stats(path, auto_mode ? "auto" : "dwarf", &g, NULL, false, NULL, &err),
			    "session: %s", err.msg);
		TEST_ASSERT(env, g.nr[LAST] == 6 && !memcmp(g.words[LAST], want, sizeof(want)),
			    "swapped, dwarf: %u words, [4] %#llx [5] %#llx", g.nr[LAST],
			    (unsigned long long)g.words[LAST][4], (unsigned long long)g.words[LAST][5]);
	}
	return TEST_OK;
}

/* another architecture's file: chains as recorded, and one warning for all its samples */
static int test_foreign(const struct test_env *env, const char *path)
{
	static const u64 regs[] = { BASE + 16, BASE, 0x401000 };	/* bp, sp, ip */
	static const u64 chain[] = { PERF_CONTEXT_USER, 0x401000 };
	u64 arm64_regs[33] = { 0 };
	u64 dump[8] = { 0, 0, BASE + 48, 0x402000, 0, 0, 0, 0x403000 };
	struct craft c = {
		.arch = "aarch64", .regs = regs, .nr_regs = 3, .dump = (const u8 *)dump,
		.dump_size = sizeof(dump), .chain = chain, .chain_nr = 2,
	};
	struct perf_err err;
	struct unwind_got g;
	char *stats;

	/* the same file as x86's: unwound, so the check below is not vacuous */
	c.arch = "x86_64";
	TEST_ASSERT(env, !craft__write(&c, path, &err), "writing: %s", err.msg);
	TEST_ASSERT(env, !run_stats(path, "fp", &g, &stats, false, NULL, &err), "session: %s", err.msg);
	TEST_ASSERT(env, g.has_origins[LAST] && g.nr[LAST] == 4 && !*stats, "x86_64: %u words, stats %s",
		    g.nr[LAST], stats);
	free(stats);
	c.arch = "aarch64";
	for (int mask = 0; mask < 2; mask++) {
		if (mask) {
			/* arm64's --call-graph dwarf registers: x0-x30, sp, pc */
			c.arch = NULL;
			c.regs_mask = (1ULL << 33) - 1;
			c.regs = arm64_regs;
			c.nr_regs = 33;
			arm64_regs[31] = BASE;
			arm64_regs[32] = 0x401000;
		}
		TEST_ASSERT(env, !craft__write(&c, path, &err), "writing: %s", err.msg);
		for (int dwarf = 0; dwarf < 2; dwarf++) {
			TEST_ASSERT(env, !run_stats(path, dwarf ? "dwarf" : "fp", &g, &stats, false, NULL,
					      &err), "session: %s", err.msg);
			TEST_ASSERT(env, g.samples == 1 && g.nr[LAST] == 2 && !g.has_origins[LAST] &&
				    !memcmp(g.words[LAST], chain, sizeof(chain)) &&
				    count_lines(stats, "another architecture") == 1 &&
				    (mask || strstr(stats, "(aarch64)")),
				    "%s, %s: %u words, origins %d; stats:\n%s",
				    mask ? "arm64 regs" : "HEADER_ARCH aarch64", dwarf ? "dwarf" : "fp",
				    g.nr[LAST], g.has_origins[LAST], stats);
			free(stats);
		}
	}
	return TEST_OK;
}

DEFINE_SUITE(unwind_stage_crafted)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/unwind-crafted.data", env->tmpdir);
	if (test_no_bp(env, path) || test_cap(env, path) || test_dyn_size(env, path) ||
	    test_swapped(env, path) || test_foreign(env, path))
		return TEST_FAIL;
	return TEST_OK;
}
