// SPDX-License-Identifier: GPL-2.0
/*
 * The header-feature parser of env.h: every feature section perf 7.2 writes, read through
 * one bounded cursor into struct perf_env. The layouts are perf's (tools/perf/util/header.c
 * write_*()); the checks are those perf applies before it shows a feature, so "parsed"
 * means "perf would print it".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/cursor.h>
#include <perf/data.h>
#include <perf/env.h>

static const char *const feat_names[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = "tracing_data", [HEADER_BUILD_ID] = "build_id",
	[HEADER_HOSTNAME] = "hostname", [HEADER_OSRELEASE] = "osrelease",
	[HEADER_VERSION] = "version", [HEADER_ARCH] = "arch", [HEADER_NRCPUS] = "nrcpus",
	[HEADER_CPUDESC] = "cpudesc", [HEADER_CPUID] = "cpuid", [HEADER_TOTAL_MEM] = "total_mem",
	[HEADER_CMDLINE] = "cmdline", [HEADER_EVENT_DESC] = "event_desc",
	[HEADER_CPU_TOPOLOGY] = "cpu_topology", [HEADER_NUMA_TOPOLOGY] = "numa_topology",
	[HEADER_BRANCH_STACK] = "branch_stack", [HEADER_PMU_MAPPINGS] = "pmu_mappings",
	[HEADER_GROUP_DESC] = "group_desc", [HEADER_AUXTRACE] = "auxtrace", [HEADER_STAT] = "stat",
	[HEADER_CACHE] = "cache", [HEADER_SAMPLE_TIME] = "sample_time",
	[HEADER_MEM_TOPOLOGY] = "mem_topology", [HEADER_CLOCKID] = "clockid",
	[HEADER_DIR_FORMAT] = "dir_format", [HEADER_BPF_PROG_INFO] = "bpf_prog_info",
	[HEADER_BPF_BTF] = "bpf_btf", [HEADER_COMPRESSED] = "compressed",
	[HEADER_CPU_PMU_CAPS] = "cpu_pmu_caps", [HEADER_CLOCK_DATA] = "clock_data",
	[HEADER_HYBRID_TOPOLOGY] = "hybrid_topology", [HEADER_PMU_CAPS] = "pmu_caps",
	/*
	 * CPU_DOMAIN_INFO, E_MACHINE and CLN_SIZE stay "unknown" in messages for now: the
	 * reader's errors name them so, and the tests and users' scripts see those words.
	 */
};

const char *perf_header_feature__name(int feat)
{
	if (feat > 0 && feat < HEADER_LAST_FEATURE && feat_names[feat])
		return feat_names[feat];
	return "unknown";
}

void perf_env__init(struct perf_env *env)
{
	memset(env, 0, sizeof(*env));
}

/* ---- strings ---- */

static void free_strings(char **v, u32 nr)
{
	for (u32 i = 0; v && i < nr; i++)
		free(v[i]);
	free(v);
}

/*
 * A header string as the reader takes it: cut at its length when it lacks its NUL, which
 * clears *strict (perf's printer refuses such a string).
 */
static int read_string(struct perf_cursor *c, char **out, bool *strict)
{
	const u8 *s;
	u32 len;

	*out = NULL;
	s = perf_cursor__pstring(c, &len);
	if (!s)
		return -EINVAL;
	if (!memchr(s, '\0', len))
		*strict = false;
	*out = strndup((const char *)s, len);
	return *out ? 0 : -ENOMEM;
}

/* a header string NUL-terminated within its length, copied */
static int dup_str(struct perf_cursor *c, char **out)
{
	const char *s = perf_cursor__str(c);

	*out = NULL;
	if (!s)
		return -EINVAL;
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/* nr strict header strings; each takes at least its 4-byte length */
static int dup_strs(struct perf_cursor *c, u32 nr, char ***out)
{
	char **v;
	int ret = 0;

	*out = NULL;
	if (nr > perf_cursor__left(c) / 4)
		return -EINVAL;
	v = calloc(nr ? nr : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (u32 i = 0; i < nr && !ret; i++)
		ret = dup_str(c, &v[i]);
	if (ret) {
		free_strings(v, nr);
		return ret;
	}
	*out = v;
	return 0;
}

/* a count of entries of at least min_size bytes each, refused when they cannot all fit */
static int read_count(struct perf_cursor *c, size_t min_size, u32 *nr)
{
	*nr = perf_cursor__u32(c);
	if (perf_cursor__failed(c) || *nr > perf_cursor__left(c) / min_size)
		return -EINVAL;
	return 0;
}

/* ---- the features the reader relies on ---- */

static int parse_string(int feat, struct perf_cursor *c, char **slot)
{
	bool strict = true;
	char *s;
	int ret = read_string(c, &s, &strict);

	if (ret)
		return ret;
	free(*slot);
	*slot = s;
	return strict ? feat : 0;
}

static int parse_cmdline(struct perf_env *env, struct perf_cursor *c)
{
	bool strict = true;
	char **argv;
	u32 nr;
	int ret;

	if (read_count(c, 4, &nr))
		return -EINVAL;
	argv = calloc(nr ? nr : 1, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		ret = read_string(c, &argv[i], &strict);
		if (ret) {
			free_strings(argv, nr);
			return ret;
		}
	}
	env->cmdline = argv;
	env->nr_cmdline = nr;
	return strict ? HEADER_CMDLINE : 0;
}

/* the attr checks perf applies before it trusts an event description */
static bool attr_known(const struct perf_event_attr *attr)
{
	if ((attr->flags >> PERF_ATTR_BIT_NR) || attr->reserved_2 || (attr->aux_action >> 3))
		return false;
	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return false;
	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return false;
	if ((attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (attr->branch_sample_type & ~((1ULL << 20) - 1)))
		return false;
	return true;
}

static void free_events(struct perf_env_event *ev, u32 nr)
{
	for (u32 i = 0; ev && i < nr; i++) {
		free(ev[i].name);
		free(ev[i].ids);
	}
	free(ev);
}

/* u32 nr, u32 attr_size, then nr { attr, u32 nr_ids, string name, u64 ids[nr_ids] } */
static int parse_event_desc(struct perf_env *env, struct perf_cursor *c)
{
	struct perf_env_event *events;
	bool trusted = true;
	u32 nr, sz;
	int ret = 0;

	nr = perf_cursor__u32(c);
	sz = perf_cursor__u32(c);
	if (perf_cursor__failed(c) || sz < PERF_ATTR_SIZE_VER0 ||
	    nr > perf_cursor__left(c) / ((size_t)sz + 8))
		return -EINVAL;
	events = calloc(nr ? nr : 1, sizeof(*events));
	if (!events)
		return -ENOMEM;
	for (u32 i = 0; i < nr && !ret; i++) {
		struct perf_env_event *ev = &events[i];
		size_t asz = sz < sizeof(ev->attr) ? sz : sizeof(ev->attr);
		const u8 *attr = perf_cursor__bytes(c, sz);

		if (!attr) {
			ret = -EINVAL;
			break;
		}
		memcpy(&ev->attr, attr, asz);
		if (c->swapped)
			perf_event_attr__swap(&ev->attr, asz);
		if (!attr_known(&ev->attr))
			trusted = false;
		ev->nr_ids = perf_cursor__u32(c);
		ret = read_string(c, &ev->name, &trusted);
		if (ret)
			break;
		if (ev->nr_ids > perf_cursor__left(c) / 8) {
			ret = -EINVAL;
			break;
		}
		ev->ids = malloc(ev->nr_ids ? ev->nr_ids * sizeof(u64) : 1);
		if (!ev->ids) {
			ret = -ENOMEM;
			break;
		}
		for (u32 k = 0; k < ev->nr_ids; k++)
			ev->ids[k] = perf_cursor__u64(c);
	}
	if (ret) {
		free_events(events, nr);
		return ret;
	}
	env->events = events;
	env->nr_events = nr;
	return trusted ? HEADER_EVENT_DESC : 0;
}

static int parse_build_ids(struct perf_env *env, struct perf_cursor *c)
{
	while (perf_cursor__left(c) >= sizeof(struct perf_record_header_build_id)) {
		struct perf_record_header_build_id bid;
		const u8 *p = perf_cursor__ptr(c);
		int ret;

		memcpy(&bid, p, sizeof(bid));
		if (c->swapped) {
			bid.header.size = __builtin_bswap16(bid.header.size);
			bid.header.misc = __builtin_bswap16(bid.header.misc);
			bid.pid = (s32)__builtin_bswap32((u32)bid.pid);
		}
		if (bid.header.size < sizeof(bid) || perf_cursor__skip(c, bid.header.size))
			return -EINVAL;
		ret = perf_env__add_build_id(env, &bid, (const char *)p + sizeof(bid),
					     bid.header.size - sizeof(bid));
		if (ret)
			return ret;
	}
	return HEADER_BUILD_ID;
}

int perf_env__add_build_id(struct perf_env *env, const struct perf_record_header_build_id *bid,
			   const char *name, size_t name_len)
{
	struct perf_build_id_entry *e, *n;

	n = realloc(env->build_ids, (env->nr_build_ids + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	env->build_ids = n;
	e = &n[env->nr_build_ids];
	e->pid = bid->pid;
	e->misc = bid->header.misc;
	memcpy(e->build_id, bid->build_id, 20);
	e->size = (bid->header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE) && bid->size <= 20 ? bid->size : 20;
	e->filename = strndup(name, name_len);
	if (!e->filename)
		return -ENOMEM;
	env->nr_build_ids++;
	return 0;
}

/* ---- the features only shown (malformed ones are simply not parsed) ---- */

static void free_cpu_topology(struct perf_env_cpu_topology *t)
{
	free_strings(t->core_siblings, t->nr_core_siblings);
	free_strings(t->thread_siblings, t->nr_thread_siblings);
	free_strings(t->die_siblings, t->nr_die_siblings);
	free(t->core_id);
	free(t->socket_id);
	free(t->die_id);
	memset(t, 0, sizeof(*t));
}

/* perf refuses socket ids above the cpu count, except where firmware numbers them freely */
static bool socket_id_ok(const struct perf_env *env, u32 socket, u32 nr_cpus)
{
	if (socket == (u32)-1 || socket <= nr_cpus)
		return true;
	return env->arch && (!strncmp(env->arch, "s390", 4) || !strncmp(env->arch, "aarch64", 7));
}

/*
 * u32 nr + core sibling strings, u32 nr + thread sibling strings; newer perf then writes
 * { u32 core_id, socket_id } per cpu, and newer still u32 nr + die strings + u32 die_id
 * per cpu. "per cpu" is nr_cpus_avail of HEADER_NRCPUS.
 */
static int parse_cpu_topology(struct perf_env *env, struct perf_cursor *c)
{
	struct perf_env_cpu_topology *t = &env->cpu_topology;
	u32 nr_cpus = env->nr_cpus_avail;
	int ret;

	t->nr_cpus = nr_cpus;
	if (read_count(c, 4, &t->nr_core_siblings))
		return -EINVAL;
	ret = dup_strs(c, t->nr_core_siblings, &t->core_siblings);
	if (ret)
		goto out_fail;
	if (read_count(c, 4, &t->nr_thread_siblings))
		goto out_inval;
	ret = dup_strs(c, t->nr_thread_siblings, &t->thread_siblings);
	if (ret)
		goto out_fail;
	if (!perf_cursor__left(c))
		return HEADER_CPU_TOPOLOGY;	/* older perf stops here */
	if (nr_cpus > perf_cursor__left(c) / 8)
		goto out_inval;
	t->core_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
	t->socket_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
	if (!t->core_id || !t->socket_id)
		goto out_inval;
	for (u32 i = 0; i < nr_cpus; i++) {
		t->core_id[i] = perf_cursor__u32(c);
		t->socket_id[i] = perf_cursor__u32(c);
		if (!socket_id_ok(env, t->socket_id[i], nr_cpus))
			goto out_inval;
	}
	t->has_ids = true;
	if (!perf_cursor__left(c))
		return HEADER_CPU_TOPOLOGY;
	if (read_count(c, 4, &t->nr_die_siblings))
		goto out_inval;
	ret = dup_strs(c, t->nr_die_siblings, &t->die_siblings);
	if (ret)
		goto out_fail;
	if (nr_cpus > perf_cursor__left(c) / 4)
		goto out_inval;
	t->die_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
	if (!t->die_id)
		goto out_inval;
	for (u32 i = 0; i < nr_cpus; i++)
		t->die_id[i] = perf_cursor__u32(c);
	return HEADER_CPU_TOPOLOGY;

out_inval:
	ret = -EINVAL;
out_fail:
	/* the string arrays' counts must not outlive them */
	if (!t->core_siblings)
		t->nr_core_siblings = 0;
	if (!t->thread_siblings)
		t->nr_thread_siblings = 0;
	if (!t->die_siblings)
		t->nr_die_siblings = 0;
	free_cpu_topology(t);
	return ret;
}

/*
 * The arrays of the features below: nr entries of one type, each parsed from the section by
 * its parse() and released by its release(), which must accept a zeroed or half-parsed entry.
 */
struct entry_type {
	size_t	size;		/* of one parsed entry */
	int	(*parse)(const struct perf_env *env, struct perf_cursor *c, void *entry);
	void	(*release)(void *entry);
};

static void free_array(void *arr, size_t nr, const struct entry_type *t)
{
	for (size_t i = 0; arr && i < nr; i++)
		t->release((u8 *)arr + i * t->size);
	free(arr);
}

/* *arr is NULL unless every entry parsed; the caller bounded nr by the bytes left */
static int parse_array(const struct perf_env *env, struct perf_cursor *c, size_t nr,
		       const struct entry_type *t, void **arr)
{
	u8 *v = calloc(nr ? nr : 1, t->size);
	int ret = 0;

	*arr = NULL;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < nr && !ret; i++)
		ret = t->parse(env, c, v + i * t->size);
	if (!ret && perf_cursor__failed(c))
		ret = -EINVAL;
	if (ret) {
		free_array(v, nr, t);
		return ret;
	}
	*arr = v;
	return 0;
}

/* u32 node, u64 mem_total, u64 mem_free, string cpus: 24 bytes at least */
static int numa_node__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_numa_node *n = entry;

	(void)env;
	n->node = perf_cursor__u32(c);
	n->mem_total = perf_cursor__u64(c);
	n->mem_free = perf_cursor__u64(c);
	return dup_str(c, &n->cpus);
}

static void numa_node__release(void *entry)
{
	free(((struct perf_env_numa_node *)entry)->cpus);
}

static const struct entry_type numa_node_type = {
	sizeof(struct perf_env_numa_node), numa_node__parse, numa_node__release,
};

/* u32 type, string name: 8 bytes at least */
static int pmu__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_pmu *pmu = entry;

	(void)env;
	pmu->type = perf_cursor__u32(c);
	return dup_str(c, &pmu->name);
}

static void pmu__release(void *entry)
{
	free(((struct perf_env_pmu *)entry)->name);
}

static const struct entry_type pmu_type = {
	sizeof(struct perf_env_pmu), pmu__parse, pmu__release,
};

/* string name, u32 leader_idx, u32 nr_members: 12 bytes at least */
static int group__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_group *g = entry;
	int ret = dup_str(c, &g->name);

	(void)env;
	g->leader = perf_cursor__u32(c);
	g->nr_members = perf_cursor__u32(c);
	return ret;
}

static void group__release(void *entry)
{
	free(((struct perf_env_group *)entry)->name);
}

static const struct entry_type group_type = {
	sizeof(struct perf_env_group), group__parse, group__release,
};

/* u32 level, line_size, sets, ways; string type, size, map: 28 bytes at least */
static int cache__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_cache *e = entry;
	int ret;

	(void)env;
	e->level = perf_cursor__u32(c);
	e->line_size = perf_cursor__u32(c);
	e->sets = perf_cursor__u32(c);
	e->ways = perf_cursor__u32(c);
	ret = dup_str(c, &e->type);
	if (!ret)
		ret = dup_str(c, &e->size);
	if (!ret)
		ret = dup_str(c, &e->map);
	return ret;
}

static void cache__release(void *entry)
{
	struct perf_env_cache *e = entry;

	free(e->type);
	free(e->size);
	free(e->map);
}

static const struct entry_type cache_type = {
	sizeof(struct perf_env_cache), cache__parse, cache__release,
};

/* u64 node, size, nr_bits, then the bitmap's words: 24 bytes at least */
static int mem_node__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_mem_node *n = entry;

	(void)env;
	n->node = perf_cursor__u64(c);
	n->size = perf_cursor__u64(c);
	n->nr_bits = perf_cursor__u64(c);
	n->nr_words = perf_env__bitmap_words(n->nr_bits);
	if (perf_cursor__failed(c) || n->nr_words > perf_cursor__left(c) / 8)
		return -EINVAL;
	n->bits = malloc(n->nr_words ? n->nr_words * 8 : 1);
	if (!n->bits)
		return -ENOMEM;
	for (u64 w = 0; w < n->nr_words; w++)
		n->bits[w] = perf_cursor__u64(c);
	return 0;
}

static void mem_node__release(void *entry)
{
	free(((struct perf_env_mem_node *)entry)->bits);
}

static const struct entry_type mem_node_type = {
	sizeof(struct perf_env_mem_node), mem_node__parse, mem_node__release,
};

/* u32 nr, then nr entries of at least min_size bytes each */
static int parse_counted(const struct perf_env *env, struct perf_cursor *c, size_t min_size,
			 const struct entry_type *t, void **arr, u32 *nr)
{
	u32 n;
	int ret;

	if (read_count(c, min_size, &n))
		return -EINVAL;
	ret = parse_array(env, c, n, t, arr);
	if (!ret)
		*nr = n;
	return ret;
}

static int parse_numa_topology(struct perf_env *env, struct perf_cursor *c)
{
	return parse_counted(env, c, 24, &numa_node_type, (void **)&env->numa_nodes,
			     &env->nr_numa_nodes) ?: HEADER_NUMA_TOPOLOGY;
}

static int parse_pmu_mappings(struct perf_env *env, struct perf_cursor *c)
{
	return parse_counted(env, c, 8, &pmu_type, (void **)&env->pmus, &env->nr_pmus) ?:
	       HEADER_PMU_MAPPINGS;
}

static int parse_group_desc(struct perf_env *env, struct perf_cursor *c)
{
	return parse_counted(env, c, 12, &group_type, (void **)&env->groups, &env->nr_groups) ?:
	       HEADER_GROUP_DESC;
}

/* u32 version (1), then the entries */
static int parse_cache(struct perf_env *env, struct perf_cursor *c)
{
	env->cache_version = perf_cursor__u32(c);
	if (perf_cursor__failed(c) || env->cache_version != 1)
		return -EINVAL;
	return parse_counted(env, c, 28, &cache_type, (void **)&env->caches, &env->nr_caches) ?:
	       HEADER_CACHE;
}

/* u64 version (1), u64 block_size, u64 nr, then the nodes */
static int parse_mem_topology(struct perf_env *env, struct perf_cursor *c)
{
	u64 nr;
	int ret;

	env->mem_version = perf_cursor__u64(c);
	env->mem_block_size = perf_cursor__u64(c);
	nr = perf_cursor__u64(c);
	if (perf_cursor__failed(c) || env->mem_version != 1 || nr > perf_cursor__left(c) / 24)
		return -EINVAL;
	ret = parse_array(env, c, nr, &mem_node_type, (void **)&env->mem_nodes);
	if (ret)
		return ret;
	env->nr_mem_nodes = nr;
	return HEADER_MEM_TOPOLOGY;
}

static void free_bpf_progs(struct perf_env *env)
{
	for (u32 i = 0; env->bpf_progs && i < env->nr_bpf_progs; i++)
		free(env->bpf_progs[i].subs);
	free(env->bpf_progs);
	env->bpf_progs = NULL;
	env->nr_bpf_progs = 0;
	env->bpf_prog_count = 0;
}

/*
 * One struct bpf_prog_info (info) and the data its array fields point into: id @4, name @64,
 * nr_jited_ksyms @120, nr_jited_func_lens @124, jited_ksyms @128, jited_func_lens @136,
 * nr_prog_tags @192, prog_tags @200. A program whose arrays disagree or fall outside data is
 * left out (0), as perf leaves it out of its tree.
 */
static int parse_bpf_prog(struct perf_cursor *info, const u8 *data, u32 data_len, bool swapped,
			  struct perf_env_bpf_prog *prog)
{
	struct perf_cursor a;
	u32 nr_ksyms, nr_lens, nr_tags;
	u64 ksyms, lens, tags;

	memset(prog, 0, sizeof(*prog));
	perf_cursor__skip(info, 4);
	prog->id = perf_cursor__u32(info);
	perf_cursor__skip(info, 56);
	if (perf_cursor__left(info) >= 16)
		memcpy(prog->name, perf_cursor__ptr(info), 16);
	perf_cursor__skip(info, 40);
	nr_ksyms = perf_cursor__u32(info);
	nr_lens = perf_cursor__u32(info);
	ksyms = perf_cursor__u64(info);
	lens = perf_cursor__u64(info);
	perf_cursor__skip(info, 52);
	nr_tags = perf_cursor__u32(info);
	tags = perf_cursor__u64(info);
	if (perf_cursor__failed(info) || nr_ksyms != nr_lens || nr_ksyms != nr_tags)
		return 0;
	/* the arrays are offsets into data */
	if (ksyms > data_len || nr_ksyms > (data_len - ksyms) / 8 ||
	    lens > data_len || nr_lens > (data_len - lens) / 4 ||
	    tags > data_len || nr_tags > (data_len - tags) / 8)
		return 0;
	prog->subs = calloc(nr_ksyms ? nr_ksyms : 1, sizeof(*prog->subs));
	if (!prog->subs)
		return -ENOMEM;
	prog->nr_subs = nr_ksyms;
	for (u32 k = 0; k < nr_ksyms; k++) {
		struct perf_env_bpf_sub *sub = &prog->subs[k];

		perf_cursor__init(&a, data + ksyms + k * 8, 8, swapped);
		sub->addr = perf_cursor__u64(&a);
		perf_cursor__init(&a, data + lens + k * 4, 4, swapped);
		sub->len = perf_cursor__u32(&a);
		memcpy(sub->tag, data + tags + k * 8, 8);
	}
	return 1;
}

/* u32 count, then count { u32 info_len, u32 data_len, u64 (arrays), info, data } */
static int parse_bpf_prog_info(struct perf_env *env, struct perf_cursor *c)
{
	u32 count = perf_cursor__u32(c);

	if (perf_cursor__failed(c) || count > perf_cursor__left(c) / 16)
		return -EINVAL;
	env->bpf_prog_count = count;
	env->bpf_progs = calloc(count ? count : 1, sizeof(*env->bpf_progs));
	if (!env->bpf_progs)
		return -ENOMEM;
	for (u32 i = 0; i < count; i++) {
		struct perf_cursor info;
		u32 info_len = perf_cursor__u32(c), data_len = perf_cursor__u32(c);
		const u8 *data;
		int ret;

		perf_cursor__u64(c);
		if (perf_cursor__sub(c, info_len, &info))
			goto out_inval;
		data = perf_cursor__bytes(c, data_len);
		if (!data)
			goto out_inval;
		ret = parse_bpf_prog(&info, data, data_len, c->swapped,
				     &env->bpf_progs[env->nr_bpf_progs]);
		if (ret < 0)
			goto out_inval;
		env->nr_bpf_progs += ret;
	}
	return HEADER_BPF_PROG_INFO;

out_inval:
	free_bpf_progs(env);
	return -EINVAL;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* u32 count, then count { u32 id, u32 size, size bytes }; kept sorted by id, as perf's tree */
static int parse_bpf_btf(struct perf_env *env, struct perf_cursor *c)
{
	u32 count;

	if (read_count(c, 8, &count))
		return -EINVAL;
	env->btf_ids = calloc(count ? count : 1, sizeof(u32));
	if (!env->btf_ids)
		return -ENOMEM;
	for (u32 i = 0; i < count; i++) {
		env->btf_ids[i] = perf_cursor__u32(c);
		if (perf_cursor__skip(c, perf_cursor__u32(c))) {
			free(env->btf_ids);
			env->btf_ids = NULL;
			return -EINVAL;
		}
	}
	env->nr_btf_ids = count;
	qsort(env->btf_ids, count, sizeof(u32), cmp_u32);
	return HEADER_BPF_BTF;
}

static void free_pmu_caps(struct perf_env_pmu_caps *p)
{
	free_strings(p->names, p->nr);
	free_strings(p->values, p->nr);
	free(p->pmu);
	memset(p, 0, sizeof(*p));
}

/* u32 nr, then nr { string name, string value }, then the pmu name (with_name) */
static int parse_caps(struct perf_cursor *c, bool with_name, struct perf_env_pmu_caps *p)
{
	int ret = 0;

	memset(p, 0, sizeof(*p));
	if (read_count(c, 8, &p->nr))
		return -EINVAL;
	p->names = calloc(p->nr ? p->nr : 1, sizeof(char *));
	p->values = calloc(p->nr ? p->nr : 1, sizeof(char *));
	if (!p->names || !p->values)
		ret = -ENOMEM;
	for (u32 i = 0; i < p->nr && !ret; i++) {
		ret = dup_str(c, &p->names[i]);
		if (!ret)
			ret = dup_str(c, &p->values[i]);
	}
	if (!ret)
		ret = with_name ? dup_str(c, &p->pmu) : (p->pmu = strdup("cpu")) ? 0 : -ENOMEM;
	if (ret)
		free_pmu_caps(p);
	return ret;
}

/* a pmu of HEADER_PMU_CAPS: its caps and its name, 8 bytes at least */
static int pmu_caps__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	(void)env;
	return parse_caps(c, true, entry);
}

static void pmu_caps__release(void *entry)
{
	free_pmu_caps(entry);
}

static const struct entry_type pmu_caps_type = {
	sizeof(struct perf_env_pmu_caps), pmu_caps__parse, pmu_caps__release,
};

static int parse_pmu_caps(struct perf_env *env, struct perf_cursor *c)
{
	return parse_counted(env, c, 8, &pmu_caps_type, (void **)&env->pmu_caps,
			     &env->nr_pmu_caps) ?: HEADER_PMU_CAPS;
}

/* string pmu, string cpus: 8 bytes at least */
static int hybrid_pmu__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_hybrid_pmu *h = entry;
	int ret = dup_str(c, &h->pmu);

	(void)env;
	return ret ? ret : dup_str(c, &h->cpus);
}

static void hybrid_pmu__release(void *entry)
{
	struct perf_env_hybrid_pmu *h = entry;

	free(h->pmu);
	free(h->cpus);
}

static const struct entry_type hybrid_pmu_type = {
	sizeof(struct perf_env_hybrid_pmu), hybrid_pmu__parse, hybrid_pmu__release,
};

static int parse_hybrid_topology(struct perf_env *env, struct perf_cursor *c)
{
	return parse_counted(env, c, 8, &hybrid_pmu_type, (void **)&env->hybrid_pmus,
			     &env->nr_hybrid_pmus) ?: HEADER_HYBRID_TOPOLOGY;
}

/* u32 id, [string name (schedstat version >= 17)], string cpu_map, string cpu_list */
static int sched_domain__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_sched_domain *d = entry;
	int ret = 0;

	d->id = perf_cursor__u32(c);
	if (perf_cursor__failed(c) || d->id >= env->max_sched_domains)
		return -EINVAL;
	if (env->schedstat_version >= 17)
		ret = dup_str(c, &d->name);
	if (!ret)
		ret = dup_str(c, &d->cpu_map);
	if (!ret)
		ret = dup_str(c, &d->cpu_list);
	return ret;
}

static void sched_domain__release(void *entry)
{
	struct perf_env_sched_domain *d = entry;

	free(d->name);
	free(d->cpu_map);
	free(d->cpu_list);
}

static const struct entry_type sched_domain_type = {
	sizeof(struct perf_env_sched_domain), sched_domain__parse, sched_domain__release,
};

/* u32 cpu, u32 nr_domains, then the domains (12 bytes at least each) */
static int cpu_domains__parse(const struct perf_env *env, struct perf_cursor *c, void *entry)
{
	struct perf_env_cpu_domains *cd = entry;
	u32 nr;
	int ret;

	cd->cpu = perf_cursor__u32(c);
	nr = perf_cursor__u32(c);
	if (perf_cursor__failed(c) || cd->cpu >= env->nr_cpus_avail ||
	    nr > env->max_sched_domains || nr > perf_cursor__left(c) / 12)
		return -EINVAL;
	ret = parse_array(env, c, nr, &sched_domain_type, (void **)&cd->domains);
	if (!ret)
		cd->nr_domains = nr;
	return ret;
}

static void cpu_domains__release(void *entry)
{
	struct perf_env_cpu_domains *cd = entry;

	free_array(cd->domains, cd->nr_domains, &sched_domain_type);
}

static const struct entry_type cpu_domains_type = {
	sizeof(struct perf_env_cpu_domains), cpu_domains__parse, cpu_domains__release,
};

/* u32 schedstat version, u32 max_domains, then one entry per online cpu */
static int parse_cpu_domain_info(struct perf_env *env, struct perf_cursor *c)
{
	u32 nr = env->nr_cpus_online;
	int ret;

	env->schedstat_version = perf_cursor__u32(c);
	env->max_sched_domains = perf_cursor__u32(c);
	if (perf_cursor__failed(c) || nr > perf_cursor__left(c) / 8)
		return -EINVAL;
	ret = parse_array(env, c, nr, &cpu_domains_type, (void **)&env->cpu_domains);
	if (ret)
		return ret;
	env->nr_cpu_domains = nr;
	return HEADER_CPU_DOMAIN_INFO;
}

/* an array feature's entries, freed, and the array forgotten */
#define CLEAR_ARRAY(arr, nr, type)		\
	do {					\
		free_array(arr, nr, type);	\
		(arr) = NULL;			\
		(nr) = 0;			\
	} while (0)

/* forget what an earlier instance of feat left */
static void env__clear(struct perf_env *env, int feat)
{
	switch (feat) {
	case HEADER_CMDLINE:
		free_strings(env->cmdline, env->nr_cmdline);
		env->cmdline = NULL;
		env->nr_cmdline = 0;
		break;
	case HEADER_EVENT_DESC:
		free_events(env->events, env->nr_events);
		env->events = NULL;
		env->nr_events = 0;
		break;
	case HEADER_CPU_TOPOLOGY:
		free_cpu_topology(&env->cpu_topology);
		break;
	case HEADER_NUMA_TOPOLOGY:
		CLEAR_ARRAY(env->numa_nodes, env->nr_numa_nodes, &numa_node_type);
		break;
	case HEADER_PMU_MAPPINGS:
		CLEAR_ARRAY(env->pmus, env->nr_pmus, &pmu_type);
		break;
	case HEADER_GROUP_DESC:
		CLEAR_ARRAY(env->groups, env->nr_groups, &group_type);
		break;
	case HEADER_CACHE:
		CLEAR_ARRAY(env->caches, env->nr_caches, &cache_type);
		break;
	case HEADER_MEM_TOPOLOGY:
		CLEAR_ARRAY(env->mem_nodes, env->nr_mem_nodes, &mem_node_type);
		break;
	case HEADER_BPF_PROG_INFO:
		free_bpf_progs(env);
		break;
	case HEADER_BPF_BTF:
		free(env->btf_ids);
		env->btf_ids = NULL;
		env->nr_btf_ids = 0;
		break;
	case HEADER_CPU_PMU_CAPS:
		free_pmu_caps(&env->cpu_pmu_caps);
		break;
	case HEADER_PMU_CAPS:
		CLEAR_ARRAY(env->pmu_caps, env->nr_pmu_caps, &pmu_caps_type);
		break;
	case HEADER_HYBRID_TOPOLOGY:
		CLEAR_ARRAY(env->hybrid_pmus, env->nr_hybrid_pmus, &hybrid_pmu_type);
		break;
	case HEADER_CPU_DOMAIN_INFO:
		CLEAR_ARRAY(env->cpu_domains, env->nr_cpu_domains, &cpu_domains_type);
		break;
	default:
		break;	/* scalars are overwritten, strings replaced when the new one is read */
	}
}

/* a feature of fixed-size fields: parsed when they all fit */
static int fixed(const struct perf_cursor *c, int feat)
{
	return perf_cursor__failed(c) ? -EINVAL : feat;
}

/* returns the feature when it parsed in full, 0 when only the reader's part did, or -errno */
static int parse_one(struct perf_env *env, int feat, struct perf_cursor *c, const void *buf,
		     size_t size)
{
	switch (feat) {
	case HEADER_TRACING_DATA:
		free(env->tracing_data);
		env->tracing_data = malloc(size ? size : 1);
		env->tracing_data_size = 0;
		if (!env->tracing_data)
			return -ENOMEM;
		memcpy(env->tracing_data, buf, size);
		env->tracing_data_size = size;
		return feat;
	case HEADER_BUILD_ID:
		return parse_build_ids(env, c);
	case HEADER_HOSTNAME:
		return parse_string(feat, c, &env->hostname);
	case HEADER_OSRELEASE:
		return parse_string(feat, c, &env->osrelease);
	case HEADER_VERSION:
		return parse_string(feat, c, &env->version);
	case HEADER_ARCH:
		return parse_string(feat, c, &env->arch);
	case HEADER_CPUDESC:
		return parse_string(feat, c, &env->cpudesc);
	case HEADER_CPUID:
		return parse_string(feat, c, &env->cpuid);
	case HEADER_NRCPUS:
		env->nr_cpus_avail = perf_cursor__u32(c);
		env->nr_cpus_online = perf_cursor__u32(c);
		return fixed(c, feat);
	case HEADER_TOTAL_MEM:
		env->total_mem = perf_cursor__u64(c);
		return fixed(c, feat);
	case HEADER_CMDLINE:
		return parse_cmdline(env, c);
	case HEADER_EVENT_DESC:
		return parse_event_desc(env, c);
	case HEADER_CPU_TOPOLOGY:
		return parse_cpu_topology(env, c);
	case HEADER_NUMA_TOPOLOGY:
		return parse_numa_topology(env, c);
	case HEADER_PMU_MAPPINGS:
		return parse_pmu_mappings(env, c);
	case HEADER_GROUP_DESC:
		return parse_group_desc(env, c);
	case HEADER_CACHE:
		return parse_cache(env, c);
	case HEADER_SAMPLE_TIME:
		env->first_sample_time = perf_cursor__u64(c);
		env->last_sample_time = perf_cursor__u64(c);
		return fixed(c, feat);
	case HEADER_MEM_TOPOLOGY:
		return parse_mem_topology(env, c);
	case HEADER_CLOCKID:
		env->clockid_res_ns = perf_cursor__u64(c);
		return fixed(c, feat);
	case HEADER_DIR_FORMAT:
		env->dir_format_version = perf_cursor__u64(c);
		return fixed(c, feat);
	case HEADER_BPF_PROG_INFO:
		return parse_bpf_prog_info(env, c);
	case HEADER_BPF_BTF:
		return parse_bpf_btf(env, c);
	case HEADER_COMPRESSED:
		env->comp_ver = perf_cursor__u32(c);
		env->comp_type = perf_cursor__u32(c);
		env->comp_level = perf_cursor__u32(c);
		env->comp_ratio = perf_cursor__u32(c);
		env->comp_mmap_len = perf_cursor__u32(c);
		return fixed(c, feat);
	case HEADER_CPU_PMU_CAPS: {
		int ret = parse_caps(c, false, &env->cpu_pmu_caps);

		return ret ? ret : feat;
	}
	case HEADER_CLOCK_DATA:
		env->clock_version = perf_cursor__u32(c);
		env->clock_clockid = perf_cursor__u32(c);
		env->clock_tod_ns = perf_cursor__u64(c);
		env->clock_clk_ns = perf_cursor__u64(c);
		return env->clock_version == 1 ? fixed(c, feat) : -EINVAL;
	case HEADER_HYBRID_TOPOLOGY:
		return parse_hybrid_topology(env, c);
	case HEADER_PMU_CAPS:
		return parse_pmu_caps(env, c);
	case HEADER_CPU_DOMAIN_INFO:
		return parse_cpu_domain_info(env, c);
	case HEADER_E_MACHINE:
		env->e_machine = perf_cursor__u32(c);
		env->e_flags = perf_cursor__u32(c);
		return fixed(c, feat);
	case HEADER_CLN_SIZE:
		env->cln_size = perf_cursor__u32(c);
		return fixed(c, feat);
	default:
		/* no contents perf looks at (BRANCH_STACK, AUXTRACE, STAT): present is all */
		return feat;
	}
}

/* the features whose failure stops the reader: it needs them, or always has */
static bool reader_needs(int feat)
{
	switch (feat) {
	case HEADER_TRACING_DATA: case HEADER_BUILD_ID: case HEADER_HOSTNAME:
	case HEADER_OSRELEASE: case HEADER_VERSION: case HEADER_ARCH: case HEADER_NRCPUS:
	case HEADER_CPUDESC: case HEADER_CPUID: case HEADER_TOTAL_MEM: case HEADER_CMDLINE:
	case HEADER_EVENT_DESC: case HEADER_CLOCKID: case HEADER_COMPRESSED:
		return true;
	default:
		return false;
	}
}

int perf_env__parse_feature(struct perf_env *env, int feat, const void *buf, size_t size,
			    bool swapped, u64 offset, struct perf_err *err)
{
	struct perf_cursor c;
	int ret;

	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return 0;
	env->features[feat / 64] |= 1ULL << (feat % 64);
	env->parsed[feat / 64] &= ~(1ULL << (feat % 64));
	env->offsets[feat] = offset;
	env__clear(env, feat);
	perf_cursor__init(&c, buf, size, swapped);
	ret = parse_one(env, feat, &c, buf, size);
	if (ret > 0)
		env->parsed[feat / 64] |= 1ULL << (feat % 64);
	if (ret >= 0 || !reader_needs(feat))
		return 0;
	if (ret == -ENOMEM)
		return perf_err__set(err, ENOMEM, "out of memory reading feature %s", perf_header_feature__name(feat));
	return perf_err__set(err, EINVAL, "header feature %s (%d) at offset %#llx is malformed",
			     perf_header_feature__name(feat), feat, (unsigned long long)offset);
}

void perf_env__exit(struct perf_env *env)
{
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		env__clear(env, feat);
	free(env->hostname);
	free(env->osrelease);
	free(env->version);
	free(env->arch);
	free(env->cpudesc);
	free(env->cpuid);
	for (size_t i = 0; i < env->nr_build_ids; i++)
		free(env->build_ids[i].filename);
	free(env->build_ids);
	free(env->tracing_data);
	memset(env, 0, sizeof(*env));
}
