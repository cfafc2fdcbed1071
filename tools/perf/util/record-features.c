// SPDX-License-Identifier: GPL-2.0
/*
 * record-features.c - the machine's description for a recording's header (record-features.h),
 * read from /proc and /sys in the order and form perf 6.1 writes it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <perf/writer.h>
#include "record-features.h"
#include "sysfile.h"

struct feat_ctx {
	struct perf_writer	*w;
	const char		*proc, *sys;
	struct perf_err		*err;
};

/* "%s/<fmt>" under root into buf; false when it does not fit */
static bool __attribute__((format(printf, 4, 5)))
path_of(char *buf, size_t size, const char *root, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, size, "%s/", root), m;

	if (n < 0 || (size_t)n >= size)
		return false;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
	return m >= 0 && (size_t)m < size - n;
}

/* the value of "key<blanks>: value" lines of /proc/cpuinfo's first cpu, or NULL */
static const char *cpuinfo__value(const char *info, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);

	for (const char *l = info; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = l + klen, *end;

		if (*l == '\n')
			return NULL;	/* the first cpu's block has ended */
		if (strncmp(l, key, klen) || (*p != ' ' && *p != '\t' && *p != ':'))
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		end = strchrnul(p, '\n');
		snprintf(buf, size, "%.*s", (int)(end - p), p);
		return buf;
	}
	return NULL;
}

/* perf squeezes each run of blanks in the model name into one space */
static void squeeze_blanks(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (o > s && o[-1] == ' ')
				continue;
			*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

static int features__cpuinfo(struct feat_ctx *c)
{
	char path[PATH_MAX], desc[256], vendor[64], family[16], model[16], step[16], cpuid[128];
	char *info;
	size_t len;
	int ret;

	if (!path_of(path, sizeof(path), c->proc, "cpuinfo"))
		return perf_err__set(c->err, ENAMETOOLONG, "%s/cpuinfo: path too long", c->proc);
	ret = sysfile__read(path, &info, &len);
	if (ret)
		return perf_err__set(c->err, -ret, "cannot read %s: %s", path, strerror(-ret));
	/* x86 names it "model name", others (arm64, s390) have no line perf 6.1 takes */
	if (cpuinfo__value(info, "model name", desc, sizeof(desc))) {
		squeeze_blanks(desc);
		ret = perf_writer__set_string(c->w, HEADER_CPUDESC, desc, c->err);
	}
	if (!ret && cpuinfo__value(info, "vendor_id", vendor, sizeof(vendor)) &&
	    cpuinfo__value(info, "cpu family", family, sizeof(family)) &&
	    cpuinfo__value(info, "model", model, sizeof(model)) &&
	    cpuinfo__value(info, "stepping", step, sizeof(step))) {
		/* x86's cpuid string: the numbers are cpuid leaf 1's, as the kernel decodes them */
		snprintf(cpuid, sizeof(cpuid), "%s,%s,%s,%s", vendor, family, model, step);
		ret = perf_writer__set_string(c->w, HEADER_CPUID, cpuid, c->err);
	}
	free(info);
	return ret;
}

static int features__meminfo(struct feat_ctx *c)
{
	char path[PATH_MAX], *info, *p;
	unsigned long long kb;
	size_t len;
	int ret;

	if (!path_of(path, sizeof(path), c->proc, "meminfo"))
		return perf_err__set(c->err, ENAMETOOLONG, "%s/meminfo: path too long", c->proc);
	ret = sysfile__read(path, &info, &len);
	if (ret)
		return perf_err__set(c->err, -ret, "cannot read %s: %s", path, strerror(-ret));
	p = strstr(info, "MemTotal:");
	ret = p && sscanf(p, "MemTotal: %llu", &kb) == 1 ? 0 : -EINVAL;
	free(info);
	if (ret)
		return perf_err__set(c->err, EINVAL, "%s: no MemTotal line", path);
	return perf_writer__set_total_mem(c->w, kb, c->err);
}

/* a sysfs file the header needs could not be read (ret: -errno) */
static int features__unreadable(struct feat_ctx *c, const char *path, int ret)
{
	return perf_err__set(c->err, -ret, "cannot read %s: %s%s", path, strerror(-ret),
			     ret == -ENOENT ? " (is sysfs mounted?)" : "");
}

/* nrcpus: available = the highest present cpu + 1, online = the online cpus */
static int features__nrcpus(struct feat_ctx *c, u32 *avail)
{
	char path[PATH_MAX], list[1024];
	u32 online;
	int ret;

	if (!path_of(path, sizeof(path), c->sys, "devices/system/cpu/present"))
		return perf_err__set(c->err, ENAMETOOLONG, "%s: path too long", c->sys);
	if ((ret = sysfile__read_line(path, list, sizeof(list))))
		return features__unreadable(c, path, ret);
	if (cpu_list__parse(list, avail, NULL))
		return perf_err__set(c->err, EINVAL, "%s: not a cpu list", path);
	if (!path_of(path, sizeof(path), c->sys, "devices/system/cpu/online"))
		return perf_err__set(c->err, ENAMETOOLONG, "%s: path too long", c->sys);
	if ((ret = sysfile__read_line(path, list, sizeof(list))))
		return features__unreadable(c, path, ret);
	if (cpu_list__parse(list, NULL, &online))
		return perf_err__set(c->err, EINVAL, "%s: not a cpu list", path);
	return perf_writer__set_nrcpus(c->w, *avail, online, c->err);
}

/* the cmdline as perf writes it: its own executable's path first, then the arguments */
static int features__cmdline(struct feat_ctx *c, const struct record_features_opts *o)
{
	char exe[PATH_MAX];
	const char **argv = calloc((size_t)o->argc + 1, sizeof(*argv));
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int ret;

	if (!argv)
		return perf_err__set(c->err, ENOMEM, "out of memory");
	if (n < 0)
		n = snprintf(exe, sizeof(exe), "perf");
	exe[n] = '\0';
	argv[0] = exe;
	for (int i = 0; i < o->argc; i++)
		argv[i + 1] = o->argv[i];
	ret = perf_writer__set_cmdline(c->w, o->argc + 1, argv, c->err);
	free(argv);
	return ret;
}

/* ---- topology ----------------------------------------------------------------------------- */

struct strset {
	char	**v;
	u32	nr;
};

/* adds s unless it is there; -ENOMEM */
static int strset__add(struct strset *set, const char *s)
{
	char **n;

	for (u32 i = 0; i < set->nr; i++)
		if (!strcmp(set->v[i], s))
			return 0;
	n = realloc(set->v, (set->nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	set->v = n;
	set->v[set->nr] = strdup(s);
	return set->v[set->nr++] ? 0 : -ENOMEM;
}

static void strset__exit(struct strset *set)
{
	for (u32 i = 0; i < set->nr; i++)
		free(set->v[i]);
	free(set->v);
}

/* the first of the cpu's topology files names that exists, into buf */
static bool topology__read(struct feat_ctx *c, u32 cpu, const char *a, const char *b, char *buf,
			   size_t size)
{
	char path[PATH_MAX];

	if (path_of(path, sizeof(path), c->sys, "devices/system/cpu/cpu%u/topology/%s", cpu, a) &&
	    !sysfile__read_line(path, buf, size))
		return true;
	return b && path_of(path, sizeof(path), c->sys, "devices/system/cpu/cpu%u/topology/%s", cpu, b) &&
	       !sysfile__read_line(path, buf, size);
}

static u32 topology__id(struct feat_ctx *c, u32 cpu, const char *name)
{
	char buf[32];

	/* an offline cpu has no topology: perf records -1 */
	if (!topology__read(c, cpu, name, NULL, buf, sizeof(buf)))
		return (u32)-1;
	return (u32)strtol(buf, NULL, 10);
}

static int features__cpu_topology(struct feat_ctx *c, u32 nr_cpus)
{
	struct strset core = { 0 }, thread = { 0 }, die = { 0 };
	struct perf_env_cpu_topology t = { .nr_cpus = nr_cpus, .has_ids = true };
	char path[PATH_MAX], online[1024], buf[1024];
	bool has_die = false;
	int ret = -ENOMEM;

	if (!path_of(path, sizeof(path), c->sys, "devices/system/cpu/online") ||
	    sysfile__read_line(path, online, sizeof(online)))
		return perf_err__set(c->err, EINVAL, "cannot read %s", path);
	t.core_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
	t.socket_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
	t.die_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
	if (!t.core_id || !t.socket_id || !t.die_id)
		goto out_free;
	for (u32 cpu = 0; cpu < nr_cpus; cpu++) {
		if (!cpu_list__has(online, cpu))
			continue;
		if (topology__read(c, cpu, "package_cpus_list", "core_siblings_list", buf, sizeof(buf)) &&
		    strset__add(&core, buf))
			goto out_free;
		if (topology__read(c, cpu, "die_cpus_list", NULL, buf, sizeof(buf))) {
			has_die = true;
			if (strset__add(&die, buf))
				goto out_free;
		}
		if (topology__read(c, cpu, "core_cpus_list", "thread_siblings_list", buf, sizeof(buf)) &&
		    strset__add(&thread, buf))
			goto out_free;
	}
	for (u32 cpu = 0; cpu < nr_cpus; cpu++) {
		t.core_id[cpu] = topology__id(c, cpu, "core_id");
		t.socket_id[cpu] = topology__id(c, cpu, "physical_package_id");
		t.die_id[cpu] = topology__id(c, cpu, "die_id");
	}
	t.core_siblings = core.v;
	t.nr_core_siblings = core.nr;
	t.thread_siblings = thread.v;
	t.nr_thread_siblings = thread.nr;
	/* perf writes the die part where the kernel has die_cpus_list (x86, s390) */
	if (has_die) {
		t.die_siblings = die.v;
		t.nr_die_siblings = die.nr;
	}
	ret = perf_writer__set_cpu_topology(c->w, &t, c->err);
out_free:
	if (ret == -ENOMEM)
		perf_err__set(c->err, ENOMEM, "out of memory");
	strset__exit(&core);
	strset__exit(&thread);
	strset__exit(&die);
	free(t.core_id);
	free(t.socket_id);
	free(t.die_id);
	return ret;
}

/* the node numbers of SYS/devices/system/node/online; false when there are none */
static bool nodes__online(struct feat_ctx *c, char *list, size_t size)
{
	char path[PATH_MAX];

	return path_of(path, sizeof(path), c->sys, "devices/system/node/online") &&
	       !sysfile__read_line(path, list, size);
}

static int features__numa(struct feat_ctx *c)
{
	struct perf_env_numa_node *nodes = NULL;
	char list[1024], path[PATH_MAX], cpus[1024];
	u32 max = 0, nr = 0;
	int ret = 0;

	if (!nodes__online(c, list, sizeof(list)) || cpu_list__parse(list, &max, NULL))
		return 0;	/* no NUMA support: perf leaves the feature out */
	nodes = calloc(max ? max : 1, sizeof(*nodes));
	if (!nodes)
		return perf_err__set(c->err, ENOMEM, "out of memory");
	for (u32 node = 0; node < max && !ret; node++) {
		struct perf_env_numa_node *n = &nodes[nr];
		unsigned long long total = 0, free_kb = 0;
		char *info, *p;
		size_t len;

		if (!cpu_list__has(list, node))
			continue;
		if (!path_of(path, sizeof(path), c->sys, "devices/system/node/node%u/meminfo", node) ||
		    sysfile__read(path, &info, &len)) {
			ret = perf_err__set(c->err, EINVAL, "cannot read %s", path);
			break;
		}
		p = strstr(info, "MemTotal:");
		if (p)
			sscanf(p, "MemTotal: %llu", &total);
		p = strstr(info, "MemFree:");
		if (p)
			sscanf(p, "MemFree: %llu", &free_kb);
		free(info);
		n->node = node;
		n->mem_total = total;
		n->mem_free = free_kb;
		cpus[0] = '\0';
		if (path_of(path, sizeof(path), c->sys, "devices/system/node/node%u/cpulist", node))
			sysfile__read_line(path, cpus, sizeof(cpus));
		n->cpus = strdup(cpus);
		if (!n->cpus)
			ret = perf_err__set(c->err, ENOMEM, "out of memory");
		nr++;
	}
	if (!ret)
		ret = perf_writer__set_numa_topology(c->w, nodes, nr, c->err);
	for (u32 i = 0; i < nr; i++)
		free(nodes[i].cpus);
	free(nodes);
	return ret;
}

/* HEADER_MEM_TOPOLOGY: the memory blocks (SYS/devices/system/memory) each node holds */
static int features__mem_topology(struct feat_ctx *c)
{
	struct perf_env_mem_node *nodes = NULL;
	char list[1024], path[PATH_MAX], buf[64];
	u32 max = 0, nr = 0;
	u64 bsize;
	int ret = 0;

	if (!path_of(path, sizeof(path), c->sys, "devices/system/memory/block_size_bytes") ||
	    sysfile__read_line(path, buf, sizeof(buf)) ||
	    !nodes__online(c, list, sizeof(list)) || cpu_list__parse(list, &max, NULL))
		return 0;	/* no memory blocks or nodes: perf leaves it out */
	bsize = strtoull(buf, NULL, 16);	/* hex, without 0x */
	nodes = calloc(max ? max : 1, sizeof(*nodes));
	if (!nodes)
		return perf_err__set(c->err, ENOMEM, "out of memory");
	for (u32 node = 0; node < max && !ret; node++) {
		struct perf_env_mem_node *n = &nodes[nr];
		struct dirent *de;
		u64 size = 0;
		DIR *d;

		if (!cpu_list__has(list, node))
			continue;
		if (!path_of(path, sizeof(path), c->sys, "devices/system/node/node%u", node) ||
		    !(d = opendir(path))) {
			ret = perf_err__set(c->err, errno, "cannot read %s: %m", path);
			break;
		}
		/* two passes, as the bitmap is sized by the highest block */
		while ((de = readdir(d))) {
			unsigned int blk;

			if (sscanf(de->d_name, "memory%u", &blk) == 1 && blk + 1ULL > size)
				size = blk + 1ULL;
		}
		n->node = node;
		n->size = n->nr_bits = size;
		n->nr_words = perf_env__bitmap_words(size);
		n->bits = calloc(n->nr_words ? n->nr_words : 1, 8);
		if (!n->bits) {
			closedir(d);
			ret = perf_err__set(c->err, ENOMEM, "out of memory");
			break;
		}
		rewinddir(d);
		while ((de = readdir(d))) {
			unsigned int blk;

			if (sscanf(de->d_name, "memory%u", &blk) == 1 && blk < size)
				n->bits[blk / 64] |= 1ULL << (blk % 64);
		}
		closedir(d);
		nr++;
	}
	if (!ret)
		ret = perf_writer__set_mem_topology(c->w, bsize, nodes, nr, c->err);
	for (u32 i = 0; i < nr; i++)
		free(nodes[i].bits);
	free(nodes);
	return ret;
}

/* ---- pmus and caches ---------------------------------------------------------------------- */

static int features__pmu_mappings(struct feat_ctx *c)
{
	struct perf_env_pmu *pmus = NULL, *n;
	char path[PATH_MAX], dir[PATH_MAX];
	struct dirent *de;
	u32 nr = 0;
	int ret = 0;
	DIR *d;

	if (!path_of(dir, sizeof(dir), c->sys, "bus/event_source/devices") || !(d = opendir(dir)))
		return 0;	/* no perf events in sysfs: perf leaves it out */
	/* directory order, as perf 6.1 lists them */
	while ((de = readdir(d))) {
		u64 type;

		if (de->d_name[0] == '.' ||
		    !path_of(path, sizeof(path), dir, "%s/type", de->d_name) ||
		    sysfile__read_u64(path, &type))
			continue;
		n = realloc(pmus, (nr + 1) * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
			break;
		}
		pmus = n;
		pmus[nr].type = (u32)type;
		pmus[nr].name = strdup(de->d_name);
		if (!pmus[nr++].name) {
			ret = -ENOMEM;
			break;
		}
	}
	closedir(d);
	if (ret)
		perf_err__set(c->err, ENOMEM, "out of memory");
	else if (nr)
		ret = perf_writer__set_pmu_mappings(c->w, pmus, nr, c->err);
	for (u32 i = 0; i < nr; i++)
		free(pmus[i].name);
	free(pmus);
	return ret;
}

static void pmu_caps__release(struct perf_env_pmu_caps *p)
{
	for (u32 i = 0; i < p->nr; i++) {
		free(p->names[i]);
		free(p->values[i]);
	}
	free(p->names);
	free(p->values);
	free(p->pmu);
	memset(p, 0, sizeof(*p));
}

/*
 * The files of DIR/caps (directory order, as perf lists them), each a name and its first line;
 * -ENOENT when the pmu has no caps directory (most have none), else 0 or a negative errno
 * with err naming the file.
 */
static int pmu_caps__read(struct feat_ctx *c, const char *dir, const char *pmu,
			  struct perf_env_pmu_caps *p)
{
	char caps[PATH_MAX], path[PATH_MAX], value[256];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	memset(p, 0, sizeof(*p));
	if (!path_of(caps, sizeof(caps), dir, "%s/caps", pmu) || !(d = opendir(caps)))
		return -ENOENT;
	p->pmu = strdup(pmu);
	if (!p->pmu)
		ret = -ENOMEM;
	while (!ret && (de = readdir(d))) {
		char **names, **values;

		if (de->d_name[0] == '.')
			continue;
		if (!path_of(path, sizeof(path), caps, "%s", de->d_name)) {
			ret = perf_err__set(c->err, ENAMETOOLONG, "%s/%s: path too long", caps, de->d_name);
			break;
		}
		ret = sysfile__read_line(path, value, sizeof(value));
		if (ret) {
			features__unreadable(c, path, ret);
			break;
		}
		names = realloc(p->names, (p->nr + 1) * sizeof(*names));
		if (names)
			p->names = names;
		values = realloc(p->values, (p->nr + 1) * sizeof(*values));
		if (values)
			p->values = values;
		if (!names || !values) {
			ret = -ENOMEM;
			break;
		}
		p->names[p->nr] = strdup(de->d_name);
		p->values[p->nr] = strdup(value);
		p->nr++;
		if (!p->names[p->nr - 1] || !p->values[p->nr - 1])
			ret = -ENOMEM;
	}
	closedir(d);
	if (ret == -ENOMEM)
		perf_err__set(c->err, ENOMEM, "out of memory");
	if (ret)
		pmu_caps__release(p);
	return ret;
}

/*
 * PMU_CAPS: every pmu but "cpu" with caps (perf 6.1 writes the section with a count of 0 when
 * there is none); CPU_PMU_CAPS: the "cpu" pmu's, only when it has them, as perf
 */
static int features__pmu_caps(struct feat_ctx *c)
{
	struct perf_env_pmu_caps *pmus = NULL, cpu = { 0 }, *n;
	char dir[PATH_MAX];
	struct dirent *de;
	u32 nr = 0;
	int ret = 0;
	DIR *d = NULL;

	if (path_of(dir, sizeof(dir), c->sys, "bus/event_source/devices"))
		d = opendir(dir);
	while (d && !ret && (de = readdir(d))) {
		struct perf_env_pmu_caps p;

		if (de->d_name[0] == '.')
			continue;
		ret = pmu_caps__read(c, dir, de->d_name, &p);
		if (ret == -ENOENT) {
			ret = 0;
			continue;
		}
		if (ret)
			break;
		/* a caps directory without files is no caps, as perf counts them */
		if (!p.nr) {
			pmu_caps__release(&p);
			continue;
		}
		if (!strcmp(p.pmu, "cpu")) {
			pmu_caps__release(&cpu);
			cpu = p;
			continue;
		}
		n = realloc(pmus, (nr + 1) * sizeof(*n));
		if (!n) {
			pmu_caps__release(&p);
			ret = perf_err__set(c->err, ENOMEM, "out of memory");
			break;
		}
		pmus = n;
		pmus[nr++] = p;
	}
	if (d)
		closedir(d);
	if (!ret && cpu.nr)
		ret = perf_writer__set_cpu_pmu_caps(c->w, &cpu, c->err);
	if (!ret)
		ret = perf_writer__set_pmu_caps(c->w, pmus, nr, c->err);
	pmu_caps__release(&cpu);
	for (u32 i = 0; i < nr; i++)
		pmu_caps__release(&pmus[i]);
	free(pmus);
	return ret;
}

static bool cache__same(const struct perf_env_cache *a, const struct perf_env_cache *b)
{
	return a->level == b->level && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

static void cache__release(struct perf_env_cache *e)
{
	free(e->type);
	free(e->size);
	free(e->map);
}

/* one cache of a cpu: 1 read, 0 no such index, negative errno */
static int cache__read(struct feat_ctx *c, u32 cpu, u32 idx, struct perf_env_cache *e)
{
	static const char *const names[] = { "type", "size", "shared_cpu_list" };
	char path[PATH_MAX], buf[1024];
	char **strs[] = { &e->type, &e->size, &e->map };
	u64 v[4];
	static const char *const nums[] = { "level", "coherency_line_size", "number_of_sets",
					    "ways_of_associativity" };

	memset(e, 0, sizeof(*e));
	for (int i = 0; i < 4; i++)
		if (!path_of(path, sizeof(path), c->sys, "devices/system/cpu/cpu%u/cache/index%u/%s",
			     cpu, idx, nums[i]) || sysfile__read_u64(path, &v[i]))
			return 0;
	e->level = (u32)v[0];
	e->line_size = (u32)v[1];
	e->sets = (u32)v[2];
	e->ways = (u32)v[3];
	for (int i = 0; i < 3; i++) {
		buf[0] = '\0';
		if (path_of(path, sizeof(path), c->sys, "devices/system/cpu/cpu%u/cache/index%u/%s",
			    cpu, idx, names[i]))
			sysfile__read_line(path, buf, sizeof(buf));
		*strs[i] = strdup(buf);
		if (!*strs[i]) {
			cache__release(e);
			return -ENOMEM;
		}
	}
	return 1;
}

/* perf's order: by level, each level's caches in the order first met (cpu, then index) */
static void caches__sort(struct perf_env_cache *v, u32 nr)
{
	for (u32 i = 1; i < nr; i++) {
		struct perf_env_cache t = v[i];
		u32 j = i;

		for (; j > 0 && v[j - 1].level > t.level; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* perf reads the first four cache indexes of each cpu (MAX_CACHE_LVL) */
#define CACHE_INDEXES	4

static int features__cache(struct feat_ctx *c, u32 nr_cpus)
{
	struct perf_env_cache *caches = NULL, e;
	u32 nr = 0;
	int ret = 0;

	for (u32 cpu = 0; cpu < nr_cpus && !ret; cpu++) {
		for (u32 idx = 0; idx < CACHE_INDEXES; idx++) {
			struct perf_env_cache *n;
			bool dup = false;

			ret = cache__read(c, cpu, idx, &e);
			if (ret <= 0)
				break;
			ret = 0;
			for (u32 i = 0; i < nr && !dup; i++)
				dup = cache__same(&caches[i], &e);
			if (dup) {
				cache__release(&e);
				continue;
			}
			n = realloc(caches, (nr + 1) * sizeof(*n));
			if (!n) {
				cache__release(&e);
				ret = -ENOMEM;
				break;
			}
			caches = n;
			caches[nr++] = e;
		}
	}
	/* no cache directory in sysfs (some VMs): perf still writes the feature, empty */
	if (ret)
		perf_err__set(c->err, ENOMEM, "out of memory");
	else {
		caches__sort(caches, nr);
		ret = perf_writer__set_cache(c->w, caches, nr, c->err);
	}
	for (u32 i = 0; i < nr; i++)
		cache__release(&caches[i]);
	free(caches);
	return ret;
}

static int features__clock(struct feat_ctx *c, int clockid)
{
	struct timespec res, tod, clk;
	int ret;

	if (clock_getres(clockid, &res) || clock_gettime(CLOCK_REALTIME, &tod) ||
	    clock_gettime(clockid, &clk))
		return perf_err__set(c->err, errno, "clock %d: %m", clockid);
	ret = perf_writer__set_clockid(c->w, (u64)res.tv_sec * 1000000000ULL + (u64)res.tv_nsec,
				       c->err);
	if (ret)
		return ret;
	return perf_writer__set_clock_data(c->w, (u32)clockid,
					   (u64)tod.tv_sec * 1000000000ULL + (u64)tod.tv_nsec,
					   (u64)clk.tv_sec * 1000000000ULL + (u64)clk.tv_nsec, c->err);
}

int record_features__fill(struct perf_writer *w, const struct record_features_opts *opts,
			  struct perf_err *err)
{
	struct feat_ctx c = {
		.w = w, .err = err,
		.proc = opts->proc ? opts->proc : "/proc",
		.sys = opts->sys ? opts->sys : "/sys",
	};
	struct utsname u;
	char host[HOST_NAME_MAX + 1];
	u32 nr_cpus = 0;
	int ret;

	if (uname(&u))
		return perf_err__set(err, errno, "uname: %m");
	/* perf takes the host name from uname too (gethostname is the same nodename) */
	snprintf(host, sizeof(host), "%s", u.nodename);
	ret = perf_writer__set_string(w, HEADER_HOSTNAME, host, err);
	if (!ret)
		ret = perf_writer__set_string(w, HEADER_OSRELEASE, u.release, err);
	if (!ret && opts->version)
		ret = perf_writer__set_string(w, HEADER_VERSION, opts->version, err);
	if (!ret)
		ret = perf_writer__set_string(w, HEADER_ARCH, u.machine, err);
	if (!ret)
		ret = features__nrcpus(&c, &nr_cpus);
	if (!ret)
		ret = features__cpuinfo(&c);
	if (!ret)
		ret = features__meminfo(&c);
	if (!ret && opts->argv)
		ret = features__cmdline(&c, opts);
	if (!ret)
		ret = features__cpu_topology(&c, nr_cpus);
	if (!ret)
		ret = features__numa(&c);
	if (!ret)
		ret = features__pmu_mappings(&c);
	if (!ret)
		ret = features__cache(&c, nr_cpus);
	if (!ret)
		ret = features__mem_topology(&c);
	/* we collect no BPF program information: both sections say so with a count of 0 */
	if (!ret)
		ret = perf_writer__set_no_bpf(w, err);
	if (!ret)
		ret = features__pmu_caps(&c);
	if (!ret && opts->use_clockid)
		ret = features__clock(&c, opts->clockid);
	return ret;
}
