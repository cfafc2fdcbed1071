// SPDX-License-Identifier: GPL-2.0
/*
 * The events perf list shows, walked from fixed tables (generic events: ABI numbers), sysfs
 * and tracefs. See event-list.h.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <perf/kernel.h>
#include "event-list.h"
#include "sysfile.h"
#include "tracing-data.h"

struct generic_event {
	const char	*name;
	const char	*alias;
	unsigned int	config;
	const char	*desc;
};

static const struct generic_event hw_events[] = {
	{ "branch-instructions", "branches", 4, "Retired branch instructions" },
	{ "branch-misses", NULL, 5, "Mispredicted branch instructions" },
	{ "bus-cycles", NULL, 6, "Bus cycles, which can be different from total cycles" },
	{ "cache-misses", NULL, 3, "Cache misses, usually of the last level cache" },
	{ "cache-references", NULL, 2, "Cache accesses, usually of the last level cache" },
	{ "cpu-cycles", "cycles", 0, "Total cycles; frequency scaling affects it" },
	{ "instructions", NULL, 1, "Retired instructions" },
	{ "ref-cycles", NULL, 9, "Total cycles, not affected by frequency scaling" },
	{ "stalled-cycles-backend", "idle-cycles-backend", 8, "Stalled cycles during retirement" },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", 7, "Stalled cycles during issue" },
};

static const struct generic_event sw_events[] = {
	{ "alignment-faults", NULL, 7, "Alignment faults the kernel handled" },
	{ "bpf-output", NULL, 10, "Output of BPF programs into the ring buffer" },
	{ "cgroup-switches", NULL, 11, "Context switches to a task of another cgroup" },
	{ "context-switches", "cs", 3, "Context switches" },
	{ "cpu-clock", NULL, 0, "A high-resolution timer, per CPU" },
	{ "cpu-migrations", "migrations", 4, "Migrations of a task to another CPU" },
	{ "dummy", NULL, 9, "Counts nothing: side-band records only" },
	{ "emulation-faults", NULL, 8, "Instructions the kernel emulated" },
	{ "major-faults", NULL, 6, "Page faults that needed I/O" },
	{ "minor-faults", NULL, 5, "Page faults served without I/O" },
	{ "page-faults", "faults", 2, "Page faults" },
	{ "task-clock", NULL, 1, "A high-resolution timer, per task" },
};

/* PERF_COUNT_HW_CACHE_* order; the ops each cache counts (bit per op) */
static const struct {
	const char	*name;
	unsigned int	ops;
} hw_caches[] = {
	{ "L1-dcache", 7 }, { "L1-icache", 5 }, { "LLC", 7 }, { "dTLB", 7 }, { "iTLB", 1 },
	{ "branch", 1 }, { "node", 7 },
};
static const char *const cache_ops[][2] = {
	{ "loads", "load" }, { "stores", "store" }, { "prefetches", "prefetch" },
};

struct walk {
	const char	*sysfs;
	const char	*tracefs;
	event_list_fn	fn;
	void		*arg;
};

static int walk__generic(const struct walk *w, enum event_kind kind, const char *unit,
			 const char *type, const struct generic_event *t, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		char enc[64];
		struct event_info ev = {
			.kind = kind, .name = t[i].name, .alias = t[i].alias, .unit = unit,
			.type = type, .desc = t[i].desc, .encoding = enc,
		};
		int ret;

		snprintf(enc, sizeof(enc), "%s/config=%#x/", unit, t[i].config);
		ret = w->fn(&ev, w->arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* one name per cache, op and result, sorted as perf sorts them: the -misses after the op */
static int walk__cache(const struct walk *w)
{
	for (size_t c = 0; c < ARRAY_SIZE(hw_caches); c++)
		for (size_t op = 0; op < ARRAY_SIZE(cache_ops); op++) {
			if (!(hw_caches[c].ops & (1u << op)))
				continue;
			for (int miss = 1; miss >= 0; miss--) {
				char name[64], enc[64];
				struct event_info ev = {
					.kind = EVENT_KIND_CACHE, .name = name, .unit = "cpu",
					.type = "Hardware cache event", .encoding = enc,
				};
				int ret;

				snprintf(name, sizeof(name), "%s-%s%s", hw_caches[c].name,
					 miss ? cache_ops[op][1] : cache_ops[op][0],
					 miss ? "-misses" : "");
				snprintf(enc, sizeof(enc), "hw_cache/config=%#zx/",
					 c | op << 8 | (size_t)miss << 16);
				ret = w->fn(&ev, w->arg);
				if (ret)
					return ret;
			}
		}
	return 0;
}

static int names__cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the entries of dir (no dot files), sorted, malloc'd; *nr their count; NULL: none or ENOMEM */
static char **dir__sorted(const char *dir, size_t *nr, int *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t alloc = 0;

	*nr = 0;
	*err = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*nr == alloc) {
			char **n = realloc(names, (alloc = alloc ? 2 * alloc : 64) * sizeof(*n));

			if (!n)
				goto nomem;
			names = n;
		}
		names[*nr] = strdup(de->d_name);
		if (!names[*nr])
			goto nomem;
		(*nr)++;
	}
	closedir(d);
	if (names)
		qsort(names, *nr, sizeof(*names), names__cmp);
	return names;
nomem:
	closedir(d);
	for (size_t i = 0; i < *nr; i++)
		free(names[i]);
	free(names);
	*nr = 0;
	*err = -ENOMEM;
	return NULL;
}

static void names__free(char **names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/* a PMU's events from sysfs: each file of its events directory but the .scale/.unit ones */
static int walk__pmu(const struct walk *w, const char *pmu)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], val[256], name[512], enc[768];
	size_t nr;
	int ret = 0;
	char **evs;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s/events", w->sysfs, pmu);
	evs = dir__sorted(dir, &nr, &ret);
	for (size_t i = 0; i < nr && !ret; i++) {
		struct event_info ev = {
			.kind = EVENT_KIND_PMU, .name = name, .unit = pmu,
			.type = "Kernel PMU event", .encoding = enc,
		};
		const char *dot = strrchr(evs[i], '.');

		if (dot && (!strcmp(dot, ".scale") || !strcmp(dot, ".unit") ||
			    !strcmp(dot, ".snapshot") || !strcmp(dot, ".per-pkg")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, evs[i]);
		if (sysfile__read_line(path, val, sizeof(val)))
			continue;
		snprintf(name, sizeof(name), "%s/%s/", pmu, evs[i]);
		snprintf(enc, sizeof(enc), "%s/%s/", pmu, val);
		ret = w->fn(&ev, w->arg);
	}
	names__free(evs, nr);
	return ret;
}

static int walk__pmus(const struct walk *w)
{
	char dir[PATH_MAX];
	size_t nr;
	int ret = 0;
	char **pmus;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", w->sysfs);
	pmus = dir__sorted(dir, &nr, &ret);
	for (size_t i = 0; i < nr && !ret; i++)
		ret = walk__pmu(w, pmus[i]);
	names__free(pmus, nr);
	return ret;
}

static int walk__tracepoints(const struct walk *w)
{
	char dir[PATH_MAX + 16], sub[PATH_MAX + 272], path[PATH_MAX + 528], name[512], enc[64];
	size_t nr_sys;
	int ret = 0;
	char **sys;

	snprintf(dir, sizeof(dir), "%s/events", w->tracefs);
	sys = dir__sorted(dir, &nr_sys, &ret);
	for (size_t s = 0; s < nr_sys && !ret; s++) {
		size_t nr_ev;
		char **evs;

		snprintf(sub, sizeof(sub), "%s/%s", dir, sys[s]);
		evs = dir__sorted(sub, &nr_ev, &ret);
		for (size_t e = 0; e < nr_ev && !ret; e++) {
			struct event_info ev = {
				.kind = EVENT_KIND_TRACEPOINT, .name = name, .unit = "tracepoint",
				.type = "Tracepoint event", .encoding = enc,
			};
			u64 id;

			snprintf(path, sizeof(path), "%s/%s/id", sub, evs[e]);
			if (sysfile__read_u64(path, &id))
				continue;	/* a file of the subsystem (enable, filter) */
			snprintf(name, sizeof(name), "%s:%s", sys[s], evs[e]);
			snprintf(enc, sizeof(enc), "tracepoint/config=%#llx/", (unsigned long long)id);
			ret = w->fn(&ev, w->arg);
		}
		names__free(evs, nr_ev);
	}
	names__free(sys, nr_sys);
	return ret;
}

int event_list__walk(const char *sysfs, const char *tracefs, event_list_fn fn, void *arg)
{
	char tfs[PATH_MAX], cpu[PATH_MAX];
	struct walk w = { .sysfs = sysfs ? sysfs : "/sys", .fn = fn, .arg = arg };
	struct event_info raw = {
		.kind = EVENT_KIND_RAW, .name = "rNNN", .unit = "cpu",
		.type = "Raw event descriptor",
	};
	struct perf_err err;
	struct stat st;
	bool have_cpu;
	int ret;

	snprintf(cpu, sizeof(cpu), "%s/bus/event_source/devices/cpu", w.sysfs);
	have_cpu = !stat(cpu, &st);
	if (have_cpu) {
		ret = walk__generic(&w, EVENT_KIND_HW, "cpu", "Hardware event", hw_events,
				    ARRAY_SIZE(hw_events));
		if (ret)
			return ret;
	}
	ret = walk__generic(&w, EVENT_KIND_SW, "software", "Software event", sw_events,
			    ARRAY_SIZE(sw_events));
	if (!ret && have_cpu)
		ret = walk__cache(&w);
	if (!ret)
		ret = walk__pmus(&w);
	if (!ret)
		ret = fn(&raw, arg);
	if (!ret) {
		raw.name = "cpu/t1=v1[,t2=v2,t3 ...]/modifier";
		raw.desc = "A PMU's terms (see 'man perf-list' or 'man perf-record')";
		ret = fn(&raw, arg);
	}
	if (!ret && !tracefs__find(tracefs, tfs, sizeof(tfs), &err)) {
		w.tracefs = tfs;
		ret = walk__tracepoints(&w);
	}
	return ret;
}
