/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.h - the header features of a recording, parsed: what the file's feature sections (file
 * mode) or HEADER_FEATURE records (pipe mode) say, in host order.
 *
 * One parser (perf_env__parse_feature()) reads every feature perf 7.2 writes; the reader
 * keeps its result in the perf_data's env and the header printer prints from it, never from
 * the bytes.
 *
 * Invariants:
 *  - features[] has a bit for every feature the input announced; parsed[] for every one whose
 *    section parsed in full by perf's rules (strings NUL-terminated within their length,
 *    counts that fit, versions perf knows). Only the parsed form of a feature in parsed[] may
 *    be printed; a feature in features[] and not in parsed[] is malformed (perf shows nothing
 *    of it);
 *  - the fields the reader itself relies on (hostname ... compressed, build ids, event names,
 *    tracing data) are also filled from sections that are not in parsed[], as long as they
 *    are readable, because the reader is more lenient than the printer (a string without
 *    its NUL is cut at its length); a section the reader cannot read is an error;
 *  - every pointer is owned by the env and freed by perf_env__exit(); every string is
 *    NUL-terminated; every array has the count next to it; NULL/0 when absent.
 */
#ifndef PERF_ENV_H
#define PERF_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>
#include <perf/event.h>

enum perf_header_feature {
	HEADER_RESERVED		= 0,
	HEADER_TRACING_DATA	= 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_CPU_DOMAIN_INFO,
	HEADER_E_MACHINE,
	HEADER_CLN_SIZE,
	HEADER_LAST_FEATURE,	/* perf 7.2's */
	HEADER_FEAT_BITS	= 256,
};

struct perf_build_id_entry {
	s32	pid;
	u16	misc;
	u8	build_id[20];
	u8	size;
	char	*filename;
};

/* HEADER_EVENT_DESC: one per event */
struct perf_env_event {
	struct perf_event_attr	attr;		/* host order, zero past the file's attr size */
	char			*name;
	u64			*ids;
	u32			nr_ids;
};

/* HEADER_CPU_TOPOLOGY: sibling lists, then (newer perf) per-cpu ids, then (newer) dies */
struct perf_env_cpu_topology {
	char	**core_siblings, **thread_siblings, **die_siblings;
	u32	nr_core_siblings, nr_thread_siblings, nr_die_siblings;
	bool	has_ids;	/* core_id/socket_id were recorded */
	u32	nr_cpus;	/* entries of the id arrays (nr_cpus_avail when parsed) */
	u32	*core_id, *socket_id, *die_id;	/* die_id only with nr_die_siblings */
};

/* HEADER_NUMA_TOPOLOGY */
struct perf_env_numa_node {
	u32	node;
	u64	mem_total, mem_free;	/* kB */
	char	*cpus;			/* cpu list as recorded ("0-3\n") */
};

/* HEADER_PMU_MAPPINGS */
struct perf_env_pmu {
	u32	type;
	char	*name;
};

/* HEADER_GROUP_DESC: events leader .. leader + nr_members - 1 (file positions) */
struct perf_env_group {
	char	*name;
	u32	leader, nr_members;
};

/* HEADER_CACHE */
struct perf_env_cache {
	u32	level, line_size, sets, ways;
	char	*type, *size, *map;
};

/* HEADER_MEM_TOPOLOGY: a node and the memory blocks it owns */
struct perf_env_mem_node {
	u64	node, size;
	u64	nr_bits;
	u64	*bits;		/* nr_words(nr_bits) words; see perf_env__bitmap_words() */
	u64	nr_words;
};

/* HEADER_BPF_PROG_INFO: a program and its jited sub-programs */
struct perf_env_bpf_sub {
	u64	addr;
	u32	len;
	u8	tag[8];
};

struct perf_env_bpf_prog {
	u32	id;
	char	name[16 + 1];
	struct perf_env_bpf_sub *subs;
	u32	nr_subs;
};

/* HEADER_CPU_PMU_CAPS (the "cpu" pmu) and HEADER_PMU_CAPS: name=value pairs of a pmu */
struct perf_env_pmu_caps {
	char	*pmu;
	char	**names, **values;
	u32	nr;
};

/* HEADER_HYBRID_TOPOLOGY */
struct perf_env_hybrid_pmu {
	char	*pmu, *cpus;
};

/* HEADER_CPU_DOMAIN_INFO: sched domains of each online cpu */
struct perf_env_sched_domain {
	u32	id;
	char	*name;		/* schedstat version >= 17 only */
	char	*cpu_map, *cpu_list;
};

struct perf_env_cpu_domains {
	u32	cpu;
	struct perf_env_sched_domain *domains;
	u32	nr_domains;
};

/* header features; every string is NULL when the input lacks it */
struct perf_env {
	char	*hostname;
	char	*osrelease;
	char	*version;
	char	*arch;
	char	*cpudesc;
	char	*cpuid;
	char	**cmdline;	/* argv */
	u32	nr_cmdline;
	u32	nr_cpus_online;
	u32	nr_cpus_avail;
	u64	total_mem;	/* kB */
	u64	clockid_res_ns;
	u32	comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;
	struct perf_build_id_entry *build_ids;
	size_t	nr_build_ids;
	void	*tracing_data;		/* HEADER_TRACING_DATA blob (file byte order) */
	size_t	tracing_data_size;

	struct perf_env_event	*events;
	u32			nr_events;
	struct perf_env_cpu_topology cpu_topology;
	struct perf_env_numa_node *numa_nodes;
	u32			nr_numa_nodes;
	struct perf_env_pmu	*pmus;
	u32			nr_pmus;
	struct perf_env_group	*groups;
	u32			nr_groups;
	u32			cache_version;
	struct perf_env_cache	*caches;
	u32			nr_caches;
	u64			first_sample_time, last_sample_time;
	u64			mem_version, mem_block_size;
	struct perf_env_mem_node *mem_nodes;
	u64			nr_mem_nodes;
	u64			dir_format_version;
	struct perf_env_bpf_prog *bpf_progs;	/* the consistent ones */
	u32			nr_bpf_progs;
	u32			bpf_prog_count;		/* as recorded */
	u32			*btf_ids;		/* sorted */
	u32			nr_btf_ids;
	struct perf_env_pmu_caps cpu_pmu_caps;
	struct perf_env_pmu_caps *pmu_caps;
	u32			nr_pmu_caps;
	u32			clock_version, clock_clockid;
	u64			clock_tod_ns, clock_clk_ns;
	struct perf_env_hybrid_pmu *hybrid_pmus;
	u32			nr_hybrid_pmus;
	u32			schedstat_version, max_sched_domains;
	struct perf_env_cpu_domains *cpu_domains;
	u32			nr_cpu_domains;
	u32			e_machine, e_flags;
	u32			cln_size;

	u64	features[HEADER_FEAT_BITS / 64];
	u64	parsed[HEADER_FEAT_BITS / 64];
	/* where each feature's (last) section starts in the input, for the warnings */
	u64	offsets[HEADER_LAST_FEATURE];
};

static inline bool perf_env__has_feat(const struct perf_env *env, int feat)
{
	return (env->features[feat / 64] >> (feat % 64)) & 1;
}

static inline bool perf_env__parsed(const struct perf_env *env, int feat)
{
	return (env->parsed[feat / 64] >> (feat % 64)) & 1;
}

/* announced but not parsed in full: perf shows nothing of it (see above) */
static inline bool perf_env__malformed(const struct perf_env *env, int feat)
{
	return perf_env__has_feat(env, feat) && !perf_env__parsed(env, feat);
}

/* words of a HEADER_MEM_TOPOLOGY bitmap of nr_bits bits, with perf's u64 arithmetic */
static inline u64 perf_env__bitmap_words(u64 nr_bits)
{
	return (nr_bits + 63) / 64;
}

void perf_env__init(struct perf_env *env);
void perf_env__exit(struct perf_env *env);

/*
 * Parse feature feat from its section (size bytes at buf, in the file's byte order when
 * swapped) into env, replacing what an earlier instance of it left (pipe mode may repeat
 * features). Marks it in env->features, and in env->parsed when it parsed in full.
 *
 * Features that depend on others read them from env: CPU_TOPOLOGY (nr_cpus_avail, arch) and
 * CPU_DOMAIN_INFO (nr_cpus_online, nr_cpus_avail), as perf does; parse those first.
 *
 * Returns 0, -ENOMEM, or -EINVAL with err naming the feature and offset (the file offset
 * of buf, for the message) when a feature the reader relies on cannot be read: hostname,
 * osrelease, version, arch, nrcpus, cpudesc, cpuid, total_mem, cmdline, event_desc,
 * clockid, compressed, build_id. The other features never fail: when malformed they are
 * just not in env->parsed. Features past HEADER_LAST_FEATURE are ignored.
 */
int perf_env__parse_feature(struct perf_env *env, int feat, const void *buf, size_t size,
			    bool swapped, u64 offset, struct perf_err *err);

/* appends one build id entry (bid in host order, name not necessarily terminated) */
int perf_env__add_build_id(struct perf_env *env, const struct perf_record_header_build_id *bid,
			   const char *name, size_t name_len);

/* "hostname", "build_id", ...; "unknown" for what perf 7.2 does not know */
const char *perf_header_feature__name(int feat);

#endif /* PERF_ENV_H */
