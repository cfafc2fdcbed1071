// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's numbers and words (util/record-rate.c, util/record-sample.c,
 * util/perf-regs.c, util/clockid.c) where a live recording cannot reach them: perf's default
 * 4000 Hz above a lowered kernel.perf_event_max_sample_rate (the test does not change the
 * sysctl), -m sizes in perf's short units up to G, and the branch_sample_type -j makes,
 * which the kernel refuses on a machine without LBR before any file shows it.
 */
#include <errno.h>
#include <string.h>
#include <perf/abi.h>
#include "util/clockid.h"
#include "util/parse-options.h"
#include "util/perf-regs.h"
#include "util/record-rate.h"
#include "util/record-sample.h"
#include "tests.h"

static int freq_rules(const struct test_env *env)
{
	char msg[512];
	u64 f;

	TEST_ASSERT(env, !record_rate__freq(NULL, 100000, false, &f, msg, sizeof(msg)) &&
		    f == 4000 && !msg[0], "default: %llu '%s'", (unsigned long long)f, msg);
	/* the kernel lowered the limit below perf's default: perf's two lines */
	TEST_ASSERT(env, !record_rate__freq(NULL, 1000, false, &f, msg, sizeof(msg)) && f == 1000,
		    "default over the limit: %llu", (unsigned long long)f);
	TEST_ASSERT(env, !strcmp(msg, "Lowering default frequency rate from 4000 to 1000.\nPlease consider tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n"),
		    "default over the limit: '%s'", msg);
	TEST_ASSERT(env, !record_rate__freq("max", 5000, false, &f, msg, sizeof(msg)) && f == 5000 &&
		    !strcmp(msg, "info: Using a maximum frequency rate of 5000 Hz\n"), "max: '%s'", msg);
	TEST_ASSERT(env, !record_rate__freq("5000", 5000, true, &f, msg, sizeof(msg)) && f == 5000 &&
		    !msg[0], "-F at the limit, strict: '%s'", msg);
	TEST_ASSERT(env, !record_rate__freq("5001", 5000, false, &f, msg, sizeof(msg)) && f == 5000 &&
		    !strncmp(msg, "warning: Maximum frequency rate (5000 Hz) exceeded, throttling from 5001 Hz to 5000 Hz.\n", 87),
		    "-F over: %llu '%s'", (unsigned long long)f, msg);
	TEST_ASSERT(env, record_rate__freq("5001", 5000, true, &f, msg, sizeof(msg)) == -EINVAL &&
		    strstr(msg, "Maximum frequency rate (5000 Hz) exceeded") && !strchr(msg, '\n'),
		    "-F over, strict: '%s'", msg);
	for (const char *const *bad = (const char *const[]){ "0", "-5", "x", "", "10x", "1e3", NULL };
	     *bad; bad++)
		TEST_ASSERT(env, record_rate__freq(*bad, 5000, false, &f, msg, sizeof(msg)) == -EINVAL &&
			    strstr(msg, "positive number of Hz"), "-F '%s' accepted", *bad);
	return 0;
}

static int mmap_rules(const struct test_env *env)
{
	static const struct {
		const char	*arg;
		size_t		pages;
		const char	*msg;	/* perf 6.1's line on 4 KB pages */
	} ok[] = {
		{ "128", 128, "" },
		{ "100", 128, "rounding mmap pages size to 512K (128 pages)\n" },
		{ "100K", 32, "rounding mmap pages size to 128K (32 pages)\n" },
		{ "3", 4, "rounding mmap pages size to 16K (4 pages)\n" },
		{ "0", 1, "rounding mmap pages size to 4K (1 pages)\n" },
		{ "129", 256, "rounding mmap pages size to 1024K (256 pages)\n" },
		{ "5000", 8192, "rounding mmap pages size to 32M (8192 pages)\n" },
		{ "300000", 524288, "rounding mmap pages size to 2G (524288 pages)\n" },
		{ "100B", 1, "" },
		{ "4096B", 1, "" },
		{ "1M", 256, "" },
		{ "1G", 262144, "" },
	};
	static const char *const bad[] = { "8k", "1T", "abc", "", "-4", " 4", "4 ", "2000000", "5G", "100,32" };
	char msg[256];
	size_t pages;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		TEST_ASSERT(env, !record_rate__mmap_pages(ok[i].arg, 4096, &pages, msg, sizeof(msg)),
			    "-m %s refused: %s", ok[i].arg, msg);
		TEST_ASSERT(env, pages == ok[i].pages && !strcmp(msg, ok[i].msg),
			    "-m %s: %zu pages, '%s'", ok[i].arg, pages, msg);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		TEST_ASSERT(env, record_rate__mmap_pages(bad[i], 4096, &pages, msg, sizeof(msg)) == -EINVAL &&
			    msg[0] && !strchr(msg, '\n'), "-m '%s' accepted (%zu)", bad[i], pages);
	return 0;
}

/* -j as perf 6.1 makes branch_sample_type (its -vv prints them) */
static int branch_rules(const struct test_env *env)
{
	static const struct {
		const char	*arg;
		u64		mode;
	} ok[] = {
		{ "any", 1ULL << 3 },
		/* privilege levels alone become any branch, the levels dropped, as perf */
		{ "u", 1ULL << 3 },
		{ "u,k", 1ULL << 3 },
		{ "any_call,u", (1ULL << 4) | 1 },
		{ "ANY_RET", 1ULL << 5 },
		{ "stack,u", (1ULL << 11) | 1 },
		{ "save_type", 1ULL << 16 },
		{ "priv", 1ULL << 18 },
		{ "ind_jmp,call,cond", (1ULL << 12) | (1ULL << 13) | (1ULL << 10) },
	};
	struct record_sample_opts o;
	const struct option opt = { .type = OPTION_CALLBACK, .long_name = "branch-filter",
				    .value = &o };
	const struct option any = { .type = OPTION_CALLBACK, .long_name = "branch-any",
				    .value = &o };
	struct perf_event_attr a;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		memset(&o, 0, sizeof(o));
		TEST_ASSERT(env, !record_sample__opt_branch_filter(&opt, ok[i].arg, false) &&
			    o.branch == ok[i].mode, "-j %s: %#llx", ok[i].arg,
			    (unsigned long long)o.branch);
		memset(&a, 0, sizeof(a));
		record_sample__config_attr(&o, &a, &(struct record_sample_where){ .time_by_default = true });
		TEST_ASSERT(env, (a.sample_type & PERF_SAMPLE_BRANCH_STACK) && a.branch_sample_type == ok[i].mode,
			    "-j %s: attr", ok[i].arg);
	}
	memset(&o, 0, sizeof(o));
	TEST_ASSERT(env, !record_sample__opt_branch_any(&any, NULL, false) && o.branch == 1ULL << 3, "-b");
	/* refused: each says why on stderr (perf test shows it with -v) */
	TEST_ASSERT(env, record_sample__opt_branch_filter(&opt, "any", false) == -1, "-b -j");
	memset(&o, 0, sizeof(o));
	TEST_ASSERT(env, record_sample__opt_branch_filter(&opt, "any,foo", false) == -1 && !o.branch,
		    "-j any,foo accepted");
	TEST_ASSERT(env, record_sample__opt_branch_filter(&opt, "", false) == -1, "-j '' accepted");
	return 0;
}

static int names(const struct test_env *env)
{
	const char *bad;
	char buf[64];
	u64 mask;
	int c;

	TEST_ASSERT(env, !perf_regs__parse("ip,SP,r15,Flags", &mask, buf, sizeof(buf), &bad) &&
		    mask == ((1ULL << 8) | (1ULL << 7) | (1ULL << 23) | (1ULL << 9)), "regs %#llx",
		    (unsigned long long)mask);
	TEST_ASSERT(env, perf_regs__parse("ip,fs", &mask, buf, sizeof(buf), &bad) == -EINVAL &&
		    !strcmp(bad, "fs"), "a segment register accepted");
	TEST_ASSERT(env, perf_regs__parse("ip,,sp", &mask, buf, sizeof(buf), &bad) == -EINVAL &&
		    !strcmp(bad, ""), "an empty item accepted");
	TEST_ASSERT(env, !strcmp(perf_reg__name(34), "XMM1") && !strcmp(perf_reg__name(35), "unknown"),
		    "XMM names");
	TEST_ASSERT(env, !clockid__parse("CLOCK_MONOTONIC_RAW", &c) && c == 4, "CLOCK_MONOTONIC_RAW");
	TEST_ASSERT(env, !clockid__parse("real", &c) && c == 0, "real");
	TEST_ASSERT(env, !clockid__parse("Boot", &c) && c == 7, "Boot");
	TEST_ASSERT(env, !clockid__parse("11", &c) && c == 11, "11");
	TEST_ASSERT(env, clockid__parse("-1", &c) && clockid__parse("4x", &c) && clockid__parse("", &c) &&
		    clockid__parse("CLOCK_", &c), "bad clocks accepted");
	TEST_ASSERT(env, clockid__kernel_supported(11) && !clockid__kernel_supported(6), "kernel clocks");
	return 0;
}

DEFINE_SUITE(record_rate)
{
	int ret = freq_rules(env);

	if (!ret)
		ret = mmap_rules(env);
	if (!ret)
		ret = branch_rules(env);
	if (!ret)
		ret = names(env);
	return ret;
}
