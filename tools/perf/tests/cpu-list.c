// SPDX-License-Identifier: GPL-2.0
/*
 * The one CPU list reader (util/cpu-list.c) that perf record -C, script/report -C and the sysfs
 * lists share: what perf 6.1's cpu map accepts (base-0 numbers, "0-", a list cut at its
 * first non-digit entry, sysfs's newline) and what it refuses, each refusal in one line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "util/cpu-list.h"
#include "tests.h"

static const struct {
	const char	*spec;
	const char	*cpus;		/* the CPUs as "a b c", or NULL: refused */
	const char	*why;		/* refused: a part of the message */
} cases[] = {
	{ "0-3,5", "0 1 2 3 5", NULL },
	{ "5,0-1", "0 1 5", NULL },		/* ascending, as perf's map */
	{ "0x1,010", "1 8", NULL },		/* strtoul base 0, as perf */
	{ "0-1\n", "0 1", NULL },		/* a sysfs file's line */
	{ "1,x", "1", NULL },			/* perf stops at the first non-digit entry */
	{ "0-1,", "0 1", NULL },
	{ "0-", "0", NULL },			/* perf's strtoul reads the empty end as 0 */
	{ "", NULL, "not a CPU list" },
	{ "x", NULL, "not a CPU list" },
	{ "-1", NULL, "not a CPU list" },
	{ "1-0", NULL, "goes down" },
	{ "1-", NULL, "goes down" },
	{ "0,0", NULL, "CPU 0 named twice" },
	{ "0-2,1", NULL, "CPU 1 named twice" },
	{ "0-1-2", NULL, "unexpected '-'" },
	{ "1 ", NULL, "unexpected ' '" },
	{ "1;2", NULL, "unexpected ';'" },
	{ "99999999999", NULL, "out of range" },
	{ "0-1048576", NULL, "out of range" },
};

static void cpus__format(const u32 *cpus, size_t nr, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%u", i ? " " : "", cpus[i]);
}

DEFINE_SUITE(cpu_list)
{
	u32 max_plus_one, count;
	struct perf_err err;
	char got[256];
	size_t nr;
	u32 *cpus;
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ret = cpu_list__cpus(cases[i].spec, &cpus, &nr, &err);
		if (cases[i].cpus) {
			TEST_ASSERT(env, !ret, "'%s' refused: %s", cases[i].spec, err.msg);
			cpus__format(cpus, nr, got, sizeof(got));
			free(cpus);
			TEST_ASSERT(env, !strcmp(got, cases[i].cpus), "'%s': cpus '%s', want '%s'",
				    cases[i].spec, got, cases[i].cpus);
			continue;
		}
		TEST_ASSERT(env, ret == -EINVAL && !cpus && !nr, "'%s' accepted", cases[i].spec);
		TEST_ASSERT(env, strstr(err.msg, cases[i].why) && !strchr(err.msg, '\n'),
			    "'%s': message '%s', want one line with '%s'", cases[i].spec, err.msg,
			    cases[i].why);
	}
	/* the sysfs side: highest + 1, count and membership over the same reader */
	TEST_ASSERT(env, !cpu_list__parse("0-3,8\n", &max_plus_one, &count) &&
		    max_plus_one == 9 && count == 5, "0-3,8: %u %u", max_plus_one, count);
	TEST_ASSERT(env, cpu_list__has("0-3,8", 8) && cpu_list__has("0-3,8", 0) &&
		    !cpu_list__has("0-3,8", 4) && !cpu_list__has("x", 0), "cpu_list__has");
	TEST_ASSERT(env, cpu_list__parse("1-0", NULL, NULL) == -EINVAL, "1-0 counted");
	/* sysfs's empty set (a node without CPUs) is a list of none, not an error */
	TEST_ASSERT(env, !cpu_list__parse("\n", &max_plus_one, &count) && !max_plus_one && !count,
		    "an empty sysfs line: %u %u", max_plus_one, count);
	return TEST_OK;
}
