// SPDX-License-Identifier: GPL-2.0
/*
 * perf list's events (util/event-list.c) over a made-up sysfs and tracefs: the generic
 * hardware and cache events only with a CPU PMU, sysfs's PMU events without their
 * .scale/.unit files, tracepoints by subsystem with their ids, names sorted within a kind,
 * and every generic name one perf record -e takes, with the config perf list shows.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/event-list.h"
#include "util/parse-events.h"
#include "tests.h"

struct seen {
	char	names[64][96];
	int	kinds[64];
	size_t	nr, nr_hw, nr_cache;
	int	bad;		/* a generic event parse_events does not take as listed */
	char	bad_name[96];
};

static int put(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

/* the encoding's "/config=N/" against what parse_events makes of the name */
static bool generic__parses_as_listed(const struct event_info *ev)
{
	struct parsed_events evs = { 0 };
	struct perf_err err;
	const char *c = strstr(ev->encoding, "config=");
	bool ok;

	if (!c || parse_events__add(&evs, ev->name, NULL, NULL, &err) || evs.nr != 1)
		return false;
	ok = evs.ev[0].attr.config == strtoull(c + 7, NULL, 0) &&
	     evs.ev[0].attr.type == (ev->kind == EVENT_KIND_HW ? PERF_TYPE_HARDWARE :
				     ev->kind == EVENT_KIND_SW ? PERF_TYPE_SOFTWARE :
				     PERF_TYPE_HW_CACHE);
	if (ok && ev->alias) {
		parsed_events__exit(&evs);
		ok = !parse_events__add(&evs, ev->alias, NULL, NULL, &err) && evs.nr == 1 &&
		     evs.ev[0].attr.config == strtoull(c + 7, NULL, 0);
	}
	parsed_events__exit(&evs);
	return ok;
}

static int collect(const struct event_info *ev, void *arg)
{
	struct seen *s = arg;

	if (ev->kind == EVENT_KIND_HW || ev->kind == EVENT_KIND_SW || ev->kind == EVENT_KIND_CACHE) {
		if (!generic__parses_as_listed(ev) && !s->bad++)
			snprintf(s->bad_name, sizeof(s->bad_name), "%s", ev->name);
		s->nr_hw += ev->kind == EVENT_KIND_HW;
		s->nr_cache += ev->kind == EVENT_KIND_CACHE;
		if (ev->kind != EVENT_KIND_SW)
			return 0;
	}
	if (s->nr < 64) {
		snprintf(s->names[s->nr], sizeof(s->names[0]), "%s|%s", ev->name,
			 ev->encoding ? ev->encoding : "");
		s->kinds[s->nr++] = ev->kind;
	}
	return 0;
}

static bool seen__has(const struct seen *s, const char *line)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->names[i], line))
			return true;
	return false;
}

DEFINE_SUITE(event_list)
{
	char sys[PATH_MAX], tfs[PATH_MAX];
	struct seen s = { 0 };
	int ret;

	snprintf(sys, sizeof(sys), "%s/sys", env->tmpdir);
	snprintf(tfs, sizeof(tfs), "%s/tracing", env->tmpdir);
	TEST_ASSERT(env, !put(sys, "bus/event_source/devices/software/type", "1\n") &&
		    !put(sys, "bus/event_source/devices/msr/events/tsc", "event=0x00\n") &&
		    !put(sys, "bus/event_source/devices/msr/events/aperf", "event=0x01\n") &&
		    !put(sys, "bus/event_source/devices/msr/events/tsc.unit", "ticks\n") &&
		    !put(tfs, "events/enable", "0\n") &&
		    !put(tfs, "events/sched/enable", "0\n") &&
		    !put(tfs, "events/sched/sched_switch/id", "316\n") &&
		    !put(tfs, "events/sched/sched_process_exec/id", "311\n") &&
		    !put(tfs, "events/irq/irq_handler_entry/id", "40\n"), "cannot make the trees");

	/* no cpu PMU: no hardware or cache events */
	ret = event_list__walk(sys, tfs, collect, &s);
	TEST_ASSERT(env, !ret, "walk: %d", ret);
	TEST_ASSERT(env, !s.bad, "%s is listed as something perf record -e does not take", s.bad_name);
	TEST_ASSERT(env, !s.nr_hw && !s.nr_cache, "%zu hw, %zu cache events without a CPU PMU",
		    s.nr_hw, s.nr_cache);
	TEST_ASSERT(env, seen__has(&s, "cpu-clock|software/config=0/") &&
		    seen__has(&s, "msr/aperf/|msr/event=0x01/") && seen__has(&s, "msr/tsc/|msr/event=0x00/") &&
		    !seen__has(&s, "msr/tsc.unit/|msr/ticks/") &&
		    seen__has(&s, "irq:irq_handler_entry|tracepoint/config=0x28/") &&
		    seen__has(&s, "sched:sched_process_exec|tracepoint/config=0x137/") &&
		    seen__has(&s, "sched:sched_switch|tracepoint/config=0x13c/"), "missing events");
	for (size_t i = 1; i < s.nr; i++)
		TEST_ASSERT(env, s.kinds[i - 1] < s.kinds[i] || s.kinds[i] == EVENT_KIND_RAW ||
			    (s.kinds[i - 1] == s.kinds[i] &&
			    strcmp(s.names[i - 1], s.names[i]) < 0), "out of order: %s, %s",
			    s.names[i - 1], s.names[i]);

	/*
	 * with one: the 10 generic hardware events and the cache ones, each as perf takes it:
	 * 16 valid cache and op pairs (PERF_COUNT_HW_CACHE_*), each as accesses and misses
	 */
	TEST_ASSERT(env, !put(sys, "bus/event_source/devices/cpu/type", "4\n"), "cannot add cpu");
	memset(&s, 0, sizeof(s));
	ret = event_list__walk(sys, tfs, collect, &s);
	TEST_ASSERT(env, !ret && !s.bad, "walk %d, %s not taken as listed", ret, s.bad_name);
	TEST_ASSERT(env, s.nr_hw == 10 && s.nr_cache == 32, "%zu hw, %zu cache events",
		    s.nr_hw, s.nr_cache);
	return TEST_OK;
}
