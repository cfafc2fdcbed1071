// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's event syntax (util/parse-events.c, util/pmu-terms.c, util/record-events.c)
 * without opening anything: the attrs of each form and modifier as perf 6.1 makes them (the
 * values were read from perf 6.1's `perf evlist -v` of the same -e), groups, the errors that
 * leave the list as it was, the tracepoint filters, the cycles fallback, PMU format terms of
 * a sysfs tree of the test's, and what groups and :S do to the recording's attrs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <perf/kernel.h>
#include "util/parse-events.h"
#include "util/pmu-terms.h"
#include "util/record-events.h"
#include "run-helpers.h"
#include "tests.h"

#define F(bit)		PERF_ATTR_FLAG(bit)
#define PRECISE(n)	((u64)(n) << PERF_ATTR_BIT_PRECISE_IP)
/* the bits a modifier may touch */
#define MOD_BITS	(F(EXCLUDE_USER) | F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_HOST) | \
			 F(EXCLUDE_GUEST) | F(EXCLUDE_IDLE) | F(PINNED) | F(EXCLUSIVE) | PRECISE(3))

struct want_event {
	const char	*spec;
	u32		type;
	u64		config;
	u64		flags;		/* of MOD_BITS */
	const char	*name;
};

/* one event each; flags as perf 6.1's evlist -v shows them */
static const struct want_event single[] = {
	{ "cpu-clock", 1, 0, F(EXCLUDE_GUEST), "cpu-clock" },
	{ "task-clock:u", 1, 1, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), "task-clock:u" },
	{ "cpu-clock:k", 1, 0, F(EXCLUDE_USER) | F(EXCLUDE_HV), "cpu-clock:k" },
	{ "cpu-clock:uk", 1, 0, F(EXCLUDE_HV) | F(EXCLUDE_GUEST), "cpu-clock:uk" },
	{ "cpu-clock:G", 1, 0, F(EXCLUDE_HOST), "cpu-clock:G" },
	{ "cpu-clock:H", 1, 0, F(EXCLUDE_GUEST), "cpu-clock:H" },
	{ "cpu-clock:uG", 1, 0, F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_HOST), "cpu-clock:uG" },
	{ "cpu-clock:I", 1, 0, F(EXCLUDE_IDLE), "cpu-clock:I" },
	{ "cpu-clock:D", 1, 0, F(PINNED), "cpu-clock:D" },
	{ "cpu-clock:e", 1, 0, F(EXCLUSIVE), "cpu-clock:e" },
	{ "cpu-clock:S", 1, 0, 0, "cpu-clock:S" },
	{ "cpu-clock:W", 1, 0, 0, "cpu-clock:W" },
	{ "cpu-clock:p", 1, 0, PRECISE(1) | F(EXCLUDE_GUEST), "cpu-clock:p" },
	{ "cpu-clock:ppp", 1, 0, PRECISE(3) | F(EXCLUDE_GUEST), "cpu-clock:ppp" },
	{ "cpu-clock:P", 1, 0, PRECISE(3), "cpu-clock:P" },
	{ "cycles", 0, 0, F(EXCLUDE_GUEST), "cycles" },
	{ "instructions:k", 0, 1, F(EXCLUDE_USER) | F(EXCLUDE_HV), "instructions:k" },
	{ "r1a8", 4, 0x1a8, F(EXCLUDE_GUEST), "r1a8" },
	{ "rABCDEF0123456789:u", 4, 0xabcdef0123456789ULL,
	  F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST), "rABCDEF0123456789:u" },
	/* PERF_TYPE_HW_CACHE: cache | op << 8 | result << 16 */
	{ "L1-dcache-load-misses", 3, 0x10000, F(EXCLUDE_GUEST), "L1-dcache-load-misses" },
	{ "LLC-loads", 3, 0x2, F(EXCLUDE_GUEST), "LLC-loads" },
	{ "dTLB-stores", 3, 0x103, F(EXCLUDE_GUEST), "dTLB-stores" },
	{ "LLC-prefetch-misses", 3, 0x10202, F(EXCLUDE_GUEST), "LLC-prefetch-misses" },
	{ "l1d-misses", 3, 0x10000, F(EXCLUDE_GUEST), "l1d-misses" },
	{ "iTLB-load-miss", 3, 0x10004, F(EXCLUDE_GUEST), "iTLB-load-miss" },
	{ "branch-loads", 3, 0x5, F(EXCLUDE_GUEST), "branch-loads" },
	{ "software/config=1/", 1, 1, F(EXCLUDE_GUEST), "software/config=1/" },
	{ "software/config=3/k", 1, 3, F(EXCLUDE_USER) | F(EXCLUDE_HV), "software/config=3/k" },
	{ "software/config=0,name=mine/", 1, 0, F(EXCLUDE_GUEST), "mine" },
	{ "tp:one:k", 2, 7, F(EXCLUDE_USER) | F(EXCLUDE_HV), "tp:one" },
};

/* syntax errors: each leaves the list as it was */
static const char *const bad[] = {
	"", "cpu-clock:x", "cpu-clock:ppppp", "cpu-clock:uu", "cpu-clock:", "cpu-clock,",
	",cpu-clock", "{cpu-clock,task-clock", "{cpu-clock,{task-clock}}", "cpu-clock}", "{}",
	"{cpu-clock}x", "{cpu-clock,task-clock}:q", "{cpu-clock}:", "r", "r12345678901234567", "L1-icache-stores",
	"LLC-loads-stores", "nosuchpmu/config=1/", "software/nosuchterm=1/", "software/config=x/",
	"software/config=1", "no-such-event", "tp:", "tp:one:", "tp:one:x",
};

static int fake_tp_id(void *ctx, const char *name, u64 *id, struct perf_err *err)
{
	(void)ctx;
	if (strcmp(name, "tp:one") && strcmp(name, "tp:two"))
		return perf_err__set(err, ENOENT, "no tracepoint %s", name);
	*id = name[3] == 'o' ? 7 : 8;
	return 0;
}

static int check_single(const struct test_env *env)
{
	for (size_t i = 0; i < ARRAY_SIZE(single); i++) {
		const struct want_event *w = &single[i];
		struct parsed_events evs = { 0 };
		struct perf_err err;
		const struct parsed_event *ev;
		int ret = parse_events__add(&evs, w->spec, fake_tp_id, NULL, &err);

		TEST_ASSERT(env, !ret && evs.nr == 1, "%s: %d %s", w->spec, ret, err.msg);
		ev = &evs.ev[0];
		TEST_ASSERT(env, ev->attr.type == w->type && ev->attr.config == w->config,
			    "%s: type %u config %#llx", w->spec, ev->attr.type,
			    (unsigned long long)ev->attr.config);
		TEST_ASSERT(env, (ev->attr.flags & MOD_BITS) == w->flags, "%s: flags %#llx, want %#llx",
			    w->spec, (unsigned long long)(ev->attr.flags & MOD_BITS),
			    (unsigned long long)w->flags);
		TEST_ASSERT(env, !strcmp(ev->name, w->name), "%s: name %s", w->spec, ev->name);
		TEST_ASSERT(env, ev->leader == 0 && ev->nr_members == 1, "%s: grouped", w->spec);
		TEST_ASSERT(env, ev->sample_read == !!strstr(w->spec, ":S") &&
			    ev->precise_max == !!strstr(w->spec, ":P") &&
			    ev->weak_group == !!strstr(w->spec, ":W"), "%s: S/P/W", w->spec);
		parsed_events__exit(&evs);
	}
	return TEST_OK;
}

static int check_errors(const struct test_env *env)
{
	struct parsed_events evs = { 0 };
	struct perf_err err;

	TEST_ASSERT(env, !parse_events__add(&evs, "cpu-clock", NULL, NULL, &err), "%s", err.msg);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = parse_events__add(&evs, bad[i], fake_tp_id, NULL, &err);

		TEST_ASSERT(env, ret == -EINVAL || ret == -ENOENT, "'%s' accepted (%d)", bad[i], ret);
		TEST_ASSERT(env, evs.nr == 1 && evs.last_first == 0, "'%s' left %zu events", bad[i],
			    evs.nr);
		TEST_ASSERT(env, !*bad[i] || strstr(err.msg, "event syntax error") ||
			    strstr(err.msg, "tracepoint"), "'%s': %s", bad[i], err.msg);
	}
	TEST_ASSERT(env, parse_events__add(&evs, "software/nosuchterm=1/", NULL, NULL, &err) &&
		    strstr(err.msg, "unknown term 'nosuchterm' for pmu 'software' (valid terms: config,"),
		    "%s", err.msg);
	TEST_ASSERT(env, parse_events__add(&evs, "nosuchpmu/config=1/", NULL, NULL, &err) ==
		    -ENOENT && strstr(err.msg, "Cannot find PMU `nosuchpmu'"), "%s", err.msg);
	TEST_ASSERT(env, parse_events__add(&evs, "cpu-clock:x", NULL, NULL, &err) &&
		    strstr(err.msg, "Bad modifier 'x'"), "%s", err.msg);
	parsed_events__exit(&evs);
	return TEST_OK;
}

static int check_groups(const struct test_env *env)
{
	struct parsed_events evs = { 0 };
	struct perf_err err;
	const struct parsed_event *e;

	/* perf 6.1: {cpu-clock:k,task-clock}:u starts from each member's own bits */
	TEST_ASSERT(env, !parse_events__add(&evs, "{cpu-clock:k,task-clock}:u,page-faults",
					    NULL, NULL, &err), "%s", err.msg);
	TEST_ASSERT(env, !parse_events__add(&evs, "{software/config=1,name=a/,cs}:DS", NULL, NULL,
					    &err), "%s", err.msg);
	TEST_ASSERT(env, evs.nr == 5 && evs.last_first == 3, "%zu events", evs.nr);
	e = evs.ev;
	TEST_ASSERT(env, (e[0].attr.flags & MOD_BITS) == (F(EXCLUDE_HV) | F(EXCLUDE_GUEST)),
		    "leader %#llx", (unsigned long long)e[0].attr.flags);
	TEST_ASSERT(env, (e[1].attr.flags & MOD_BITS) ==
		    (F(EXCLUDE_KERNEL) | F(EXCLUDE_HV) | F(EXCLUDE_GUEST)), "member %#llx",
		    (unsigned long long)e[1].attr.flags);
	TEST_ASSERT(env, e[0].leader == 0 && e[1].leader == 0 && e[0].nr_members == 2 &&
		    !e[1].nr_members, "first group");
	TEST_ASSERT(env, e[2].leader == 2 && e[2].nr_members == 1 &&
		    (e[2].attr.flags & MOD_BITS) == F(EXCLUDE_GUEST), "page-faults alone");
	/* D pins the leader only; S is every member's */
	TEST_ASSERT(env, e[3].leader == 3 && e[4].leader == 3 && e[3].nr_members == 2, "second");
	TEST_ASSERT(env, (e[3].attr.flags & F(PINNED)) && !(e[4].attr.flags & F(PINNED)),
		    "pinned member");
	TEST_ASSERT(env, e[3].sample_read && e[4].sample_read && !e[0].sample_read, ":S");
	TEST_ASSERT(env, !strcmp(e[3].name, "a") && !strcmp(e[4].name, "cs"), "names");
	parse_events__ungroup(&evs, 4);
	TEST_ASSERT(env, e[3].leader == 3 && e[4].leader == 4 && e[3].nr_members == 1 &&
		    e[4].nr_members == 1 && e[0].leader == 0 && e[1].leader == 0, "ungroup");
	parsed_events__exit(&evs);
	return TEST_OK;
}

static int check_filters(const struct test_env *env)
{
	struct parsed_events evs = { 0 };
	struct perf_err err;

	TEST_ASSERT(env, parse_events__add_filter(&evs, "x", &err) == -EINVAL &&
		    strstr(err.msg, "--filter option should follow a -e tracepoint"), "no -e");
	TEST_ASSERT(env, !parse_events__add(&evs, "tp:one", fake_tp_id, NULL, &err), "%s", err.msg);
	TEST_ASSERT(env, !parse_events__add(&evs, "tp:two,tp:one", fake_tp_id, NULL, &err), "tp");
	TEST_ASSERT(env, !parse_events__add_filter(&evs, "a == 1", &err), "%s", err.msg);
	TEST_ASSERT(env, !parse_events__add_filter(&evs, "b", &err), "%s", err.msg);
	TEST_ASSERT(env, !parse_events__exclude_perf(&evs, 42, &err), "%s", err.msg);
	TEST_ASSERT(env, !evs.ev[0].filter, "the first -e got a filter");
	for (size_t i = 1; i < 3; i++)
		TEST_ASSERT(env, evs.ev[i].filter &&
			    !strcmp(evs.ev[i].filter, "((a == 1) && (b)) && (common_pid != 42)"),
			    "filter %s", evs.ev[i].filter);
	TEST_ASSERT(env, !parse_events__add(&evs, "tp:one,cpu-clock", fake_tp_id, NULL, &err), "mix");
	TEST_ASSERT(env, parse_events__add_filter(&evs, "x", &err) == -EINVAL &&
		    strstr(err.msg, "'cpu-clock' is not a tracepoint"), "%s", err.msg);
	TEST_ASSERT(env, parse_events__exclude_perf(&evs, 1, &err) == -EINVAL, "exclude-perf");
	parsed_events__exit(&evs);
	return TEST_OK;
}

static int check_fallback(const struct test_env *env)
{
	/* cpu_wide: -a or -C (cpu-clock), else a task (task-clock), as upstream since 6.8 */
	static const struct {
		const char *spec; bool cpu_wide; int errnum; const char *name;
	} cases[] = {
		{ "cycles", true, ENOENT, "cpu-clock" },
		{ "cycles:u", true, ENOENT, "cpu-clock:uH" },
		{ "cpu-cycles:k", true, ENODEV, "cpu-clock:k" },
		{ "cycles:p", true, ENOENT, "cpu-clock:pH" },
		{ "cycles:P", true, ENOENT, "cpu-clock:ppp" },
		{ "cycles:G", true, ENOENT, "cpu-clock:G" },
		{ "cycles", false, ENOENT, "task-clock" },
		{ "cycles:P", false, ENOENT, "task-clock:ppp" },
		{ "cycles:u", false, EOPNOTSUPP, "task-clock:uH" },
		{ "cycles", true, EACCES, NULL },
		{ "instructions", false, ENOENT, NULL },
		{ "r0", false, ENOENT, NULL },
		{ "LLC-loads", true, ENOENT, NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct parsed_events evs = { 0 };
		struct perf_err err;
		char msg[256];
		bool fell;

		TEST_ASSERT(env, !parse_events__add(&evs, cases[i].spec, NULL, NULL, &err), "%s",
			    err.msg);
		fell = parse_events__fallback(&evs.ev[0], cases[i].cpu_wide, cases[i].errnum, msg,
					      sizeof(msg));
		TEST_ASSERT(env, fell == !!cases[i].name, "%s: fell back %d", cases[i].spec, fell);
		TEST_ASSERT(env, !fell || (!strcmp(evs.ev[0].name, cases[i].name) &&
					   evs.ev[0].attr.type == PERF_TYPE_SOFTWARE &&
					   evs.ev[0].attr.config == (cases[i].cpu_wide ?
						PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK)),
			    "%s: now %s", cases[i].spec, evs.ev[0].name);
		TEST_ASSERT(env, !fell || strstr(msg, cases[i].cpu_wide ? "fall back to cpu-clock" :
								      "fall back to task-clock"),
			    "%s: %s", cases[i].spec, msg);
		if (!fell && cases[i].errnum == ENOENT)
			TEST_ASSERT(env, parse_events__open_strerror(&evs, 0, ENOENT, false, msg,
								     sizeof(msg)) &&
				    strstr(msg, "event is not supported."), "%s: %s", cases[i].spec, msg);
		parsed_events__exit(&evs);
	}
	return TEST_OK;
}

/* format terms and aliases of a PMU under a sysfs tree of the test's */
static int check_pmu_formats(const struct test_env *env)
{
	static const struct { const char *file, *text; } files[] = {
		{ "type", "42\n" },
		{ "format/event", "config:0-7\n" },
		{ "format/umask", "config:8-15\n" },
		{ "format/edge", "config:18\n" },
		{ "format/split", "config1:0-3,8-11\n" },
		{ "events/loads", "event=0x3c,umask=0x01\n" },
	};
	struct perf_event_attr attr;
	struct pmu_event pe = { .attr = &attr };
	struct perf_err err;
	char root[512], path[640];

	snprintf(root, sizeof(root), "%s/devices", env->tmpdir);
	snprintf(path, sizeof(path), "%s/fake", root);
	TEST_ASSERT(env, !mkdir(root, 0755) && !mkdir(path, 0755), "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/fake/format", root);
	TEST_ASSERT(env, !mkdir(path, 0755), "mkdir");
	snprintf(path, sizeof(path), "%s/fake/events", root);
	TEST_ASSERT(env, !mkdir(path, 0755), "mkdir");
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/fake/%s", root, files[i].file);
		TEST_ASSERT(env, !test_write_file(path, files[i].text, strlen(files[i].text)), "%s",
			    path);
	}
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT(env, !pmu_terms__parse(root, "fake", "event=0x3c,umask=2,edge,split=0xab",
					   &pe, &err), "%s", err.msg);
	TEST_ASSERT(env, attr.type == 42 && attr.config == (0x3c | 2 << 8 | 1 << 18) &&
		    attr.config1 == (0xb | 0xa << 8), "config %#llx config1 %#llx",
		    (unsigned long long)attr.config, (unsigned long long)attr.config1);
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT(env, !pmu_terms__parse(root, "fake", "loads,period=1000", &pe, &err), "%s",
		    err.msg);
	TEST_ASSERT(env, attr.config == (0x3c | 1 << 8) && pe.has_period && pe.period == 1000,
		    "alias: config %#llx", (unsigned long long)attr.config);
	TEST_ASSERT(env, pmu_terms__parse(root, "fake", "event=0x100", &pe, &err) == -EINVAL &&
		    strstr(err.msg, "too big for format 'event'"), "%s", err.msg);
	TEST_ASSERT(env, pmu_terms__parse(root, "fake", "bogus=1", &pe, &err) == -EINVAL &&
		    strstr(err.msg, "valid terms: config,config1,config2,name,period,freq,") &&
		    strstr(err.msg, "edge"), "%s", err.msg);
	TEST_ASSERT(env, pmu_terms__parse(root, "nope", "", &pe, &err) == -ENOENT, "no pmu");
	TEST_ASSERT(env, pmu_terms__parse(root, "../fake", "", &pe, &err) == -EINVAL, "path");
	free(pe.name);
	return TEST_OK;
}

/* the recording's attrs of groups and :S, from a layout as the command builds it */
static int check_record_attrs(const struct test_env *env)
{
	struct parsed_events evs = { 0 };
	struct perf_event_attr attrs[4];
	struct perf_err err;
	const u64 base = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;

	TEST_ASSERT(env, !parse_events__add(&evs, "{cpu-clock,task-clock}:S,cs", NULL, NULL, &err),
		    "%s", err.msg);
	TEST_ASSERT(env, !parse_events__add(&evs, "software/config=2,period=99/", NULL, NULL,
					    &err), "%s", err.msg);
	for (size_t i = 0; i < 4; i++) {
		attrs[i] = evs.ev[i].attr;
		attrs[i].sample_type = base;
		attrs[i].read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		attrs[i].sample_period = 4000;
		attrs[i].flags |= F(FREQ) | F(DISABLED) | F(INHERIT) | F(ENABLE_ON_EXEC);
	}
	record_events__config(&evs, attrs, false);
	/* the leader: READ and the group's counts, no inherit */
	TEST_ASSERT(env, (attrs[0].sample_type & PERF_SAMPLE_READ) &&
		    (attrs[0].read_format & PERF_FORMAT_GROUP) && !(attrs[0].flags & F(INHERIT)) &&
		    (attrs[0].flags & F(ENABLE_ON_EXEC)), "leader");
	/* the member: no sampling, no disabled or enable_on_exec, the leader's sample_type */
	TEST_ASSERT(env, !attrs[1].sample_period && !(attrs[1].flags & F(FREQ)) &&
		    !(attrs[1].flags & (F(DISABLED) | F(ENABLE_ON_EXEC))) &&
		    attrs[1].sample_type == attrs[0].sample_type, "member");
	/* period=: no PERIOD; so the sample types differ and IDENTIFIER places the id */
	TEST_ASSERT(env, attrs[3].sample_period == 99 && !(attrs[3].flags & F(FREQ)) &&
		    !(attrs[3].sample_type & PERF_SAMPLE_PERIOD), "period term");
	for (size_t i = 0; i < 4; i++)
		TEST_ASSERT(env, (attrs[i].sample_type & PERF_SAMPLE_IDENTIFIER) &&
			    !(attrs[i].sample_type & PERF_SAMPLE_ID), "%zu: IDENTIFIER", i);
	TEST_ASSERT(env, attrs[2].flags & F(INHERIT) && attrs[2].flags & F(DISABLED), "cs alone");
	parsed_events__exit(&evs);

	/* the same sample_type everywhere: PERF_SAMPLE_ID, as perf */
	TEST_ASSERT(env, !parse_events__add(&evs, "{cpu-clock,task-clock}", NULL, NULL, &err), "g");
	for (size_t i = 0; i < 2; i++) {
		attrs[i] = evs.ev[i].attr;
		attrs[i].sample_type = base;
		attrs[i].flags |= F(FREQ) | F(DISABLED) | F(INHERIT);
		attrs[i].sample_period = 4000;
	}
	record_events__config(&evs, attrs, false);
	TEST_ASSERT(env, attrs[0].sample_type == (base | PERF_SAMPLE_ID) &&
		    attrs[1].sample_type == attrs[0].sample_type &&
		    !(attrs[0].read_format & PERF_FORMAT_GROUP) && attrs[1].sample_period == 4000 &&
		    (attrs[1].flags & F(INHERIT)) && !(attrs[1].flags & F(DISABLED)), "plain group");
	parsed_events__exit(&evs);

	/* one event: no id in a file, an id in a pipe (perf's -o - names it through its id) */
	for (int pipe = 0; pipe < 2; pipe++) {
		TEST_ASSERT(env, !parse_events__add(&evs, "cpu-clock", NULL, NULL, &err), "one");
		attrs[0] = evs.ev[0].attr;
		attrs[0].sample_type = base;
		record_events__config(&evs, attrs, pipe);
		TEST_ASSERT(env, attrs[0].sample_type == (pipe ? base | PERF_SAMPLE_ID : base),
			    "one event, %s: sample_type %#llx", pipe ? "pipe" : "file",
			    (unsigned long long)attrs[0].sample_type);
		parsed_events__exit(&evs);
	}
	return TEST_OK;
}

DEFINE_SUITE(parse_events)
{
	int ret = check_single(env);

	if (!ret)
		ret = check_errors(env);
	if (!ret)
		ret = check_groups(env);
	if (!ret)
		ret = check_filters(env);
	if (!ret)
		ret = check_fallback(env);
	if (!ret)
		ret = check_pmu_formats(env);
	if (!ret)
		ret = check_record_attrs(env);
	return ret;
}
