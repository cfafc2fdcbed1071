// SPDX-License-Identifier: GPL-2.0
/*
 * Header features: the table after the data section (file mode) or HEADER_FEATURE records
 * (pipe mode). Each feature is read only within its own section; features we do not use are
 * skipped, and a malformed one is an error naming its offset.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "data-internal.h"

struct feat_cursor {
	const u8 *p, *end;
	bool swapped;
};

static int fc__u32(struct feat_cursor *c, u32 *v)
{
	if (c->end - c->p < 4)
		return -EINVAL;
	memcpy(v, c->p, 4);
	if (c->swapped)
		*v = bswap_32(*v);
	c->p += 4;
	return 0;
}

static int fc__u64(struct feat_cursor *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	if (c->swapped)
		*v = bswap_64(*v);
	c->p += 8;
	return 0;
}

/* a perf header string: u32 len (padded), then len bytes, NUL-terminated within len */
static int fc__string(struct feat_cursor *c, char **out)
{
	u32 len;

	*out = NULL;	/* callers free the old string first: never leave it dangling */
	if (fc__u32(c, &len) || len > (size_t)(c->end - c->p))
		return -EINVAL;
	*out = strndup((const char *)c->p, len);
	if (!*out)
		return -ENOMEM;
	c->p += len;
	return 0;
}

/* a string feature seen again (pipe mode may repeat it) replaces the old value */
static int replace_string(struct feat_cursor *c, char **slot)
{
	char *str;
	int ret = fc__string(c, &str);

	if (ret)
		return ret;
	free(*slot);
	*slot = str;
	return 0;
}

static int read_cmdline(struct feat_cursor *c, char **out)
{
	size_t total = 0;
	char *line = NULL;
	u32 nr;

	if (fc__u32(c, &nr) || nr > (size_t)(c->end - c->p) / 4)
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		char *arg, *n;
		size_t len;

		if (fc__string(c, &arg)) {
			free(line);
			return -EINVAL;
		}
		len = strlen(arg);
		n = realloc(line, total + len + 2);
		if (!n) {
			free(arg);
			free(line);
			return -ENOMEM;
		}
		line = n;
		if (total)
			line[total++] = ' ';
		memcpy(line + total, arg, len + 1);
		total += len;
		free(arg);
	}
	*out = line ? line : strdup("");
	return *out ? 0 : -ENOMEM;
}

static int read_event_desc(struct perf_data *data, struct feat_cursor *c)
{
	u32 nr, attr_size;

	if (fc__u32(c, &nr) || fc__u32(c, &attr_size) || attr_size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		struct perf_evattr *ea = NULL;
		u32 nr_ids;
		char *name;
		u64 id0 = 0;

		if (attr_size > (size_t)(c->end - c->p))
			return -EINVAL;
		c->p += attr_size;
		if (fc__u32(c, &nr_ids) || fc__string(c, &name))
			return -EINVAL;
		if (nr_ids > (size_t)(c->end - c->p) / 8) {
			free(name);
			return -EINVAL;
		}
		if (nr_ids)
			fc__u64(c, &id0);
		c->p += (nr_ids ? nr_ids - 1 : 0) * 8;
		/* match by the first id; fall back on the position */
		for (size_t k = 0; k < data->nr_attrs && nr_ids; k++)
			if (data->attrs[k].nr_ids && data->attrs[k].ids[0] == id0)
				ea = &data->attrs[k];
		if (!ea && i < data->nr_attrs)
			ea = &data->attrs[i];
		if (ea) {
			free(ea->name);
			ea->name = name;
		} else {
			free(name);
		}
	}
	return 0;
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

static int read_build_ids(struct perf_data *data, struct feat_cursor *c)
{
	while (c->end - c->p >= (long)sizeof(struct perf_record_header_build_id)) {
		struct perf_record_header_build_id bid;
		int ret;

		memcpy(&bid, c->p, sizeof(bid));
		if (c->swapped) {
			bid.header.size = bswap_16(bid.header.size);
			bid.header.misc = bswap_16(bid.header.misc);
			bid.pid = (s32)bswap_32((u32)bid.pid);
		}
		if (bid.header.size < sizeof(bid) || bid.header.size > c->end - c->p)
			return -EINVAL;
		ret = perf_env__add_build_id(&data->env, &bid, (const char *)c->p + sizeof(bid),
					     bid.header.size - sizeof(bid));
		if (ret)
			return ret;
		c->p += bid.header.size;
	}
	return 0;
}

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
};

const char *perf_header_feature__name(int feat)
{
	if (feat > 0 && feat < HEADER_LAST_FEATURE && feat_names[feat])
		return feat_names[feat];
	return "unknown";
}

int perf_data__apply_feature(struct perf_data *data, int feat, const u8 *buf, size_t size,
			     u64 offset, struct perf_err *err)
{
	struct feat_cursor c = { buf, buf + size, data->swapped };
	struct perf_env *env = &data->env;
	int ret = 0;

	switch (feat) {
	case HEADER_TRACING_DATA:
		free(env->tracing_data);
		env->tracing_data = malloc(size ? size : 1);
		if (!env->tracing_data)
			return perf_err__set(err, ENOMEM, "out of memory");
		memcpy(env->tracing_data, buf, size);
		env->tracing_data_size = size;
		break;
	case HEADER_BUILD_ID:
		ret = read_build_ids(data, &c);
		break;
	case HEADER_HOSTNAME:
		ret = replace_string(&c, &env->hostname);
		break;
	case HEADER_OSRELEASE:
		ret = replace_string(&c, &env->osrelease);
		break;
	case HEADER_VERSION:
		ret = replace_string(&c, &env->version);
		break;
	case HEADER_ARCH:
		ret = replace_string(&c, &env->arch);
		break;
	case HEADER_CPUDESC:
		ret = replace_string(&c, &env->cpudesc);
		break;
	case HEADER_CPUID:
		ret = replace_string(&c, &env->cpuid);
		break;
	case HEADER_NRCPUS:
		ret = fc__u32(&c, &env->nr_cpus_avail) || fc__u32(&c, &env->nr_cpus_online) ? -EINVAL : 0;
		break;
	case HEADER_TOTAL_MEM:
		ret = fc__u64(&c, &env->total_mem);
		break;
	case HEADER_CMDLINE:
		free(env->cmdline);
		env->cmdline = NULL;
		ret = read_cmdline(&c, &env->cmdline);
		break;
	case HEADER_EVENT_DESC:
		ret = read_event_desc(data, &c);
		break;
	case HEADER_CLOCKID:
		ret = fc__u64(&c, &env->clockid_res_ns);
		break;
	case HEADER_COMPRESSED: {
		u32 version;

		ret = fc__u32(&c, &version) || fc__u32(&c, &env->comp_type) ||
		      fc__u32(&c, &env->comp_level) || fc__u32(&c, &env->comp_ratio) ||
		      fc__u32(&c, &env->comp_mmap_len) ? -EINVAL : 0;
		break;
	}
	default:
		break;	/* known to perf, not needed here: skipped by its size */
	}
	if (ret == -ENOMEM)
		return perf_err__set(err, ENOMEM, "out of memory reading feature %s", perf_header_feature__name(feat));
	if (ret)
		return perf_err__set(err, EINVAL, "header feature %s (%d) at offset %#llx is malformed",
				     perf_header_feature__name(feat), feat, (unsigned long long)offset);
	return 0;
}

int perf_data__read_features(struct perf_data *data, struct perf_err *err)
{
	const struct perf_file_header *h = &data->header;
	u64 table = h->data.offset + h->data.size;
	int idx = 0;

	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++) {
		struct perf_file_section sec;
		u64 at;
		int ret;

		if (!((h->adds_features[feat / 64] >> (feat % 64)) & 1))
			continue;
		at = table + (u64)idx++ * sizeof(sec);
		if (at > data->map_size || data->map_size - at < sizeof(sec))
			return perf_err__set(err, EINVAL, "feature table entry for %s at offset %#llx runs past the end of the file",
					     perf_header_feature__name(feat), (unsigned long long)at);
		memcpy(&sec, data->map + at, sizeof(sec));
		if (data->swapped) {
			sec.offset = bswap_64(sec.offset);
			sec.size = bswap_64(sec.size);
		}
		if (sec.offset > data->map_size || sec.size > data->map_size - sec.offset)
			return perf_err__set(err, EINVAL, "feature %s section [%#llx, +%#llx) runs past the end of the file",
					     perf_header_feature__name(feat), (unsigned long long)sec.offset,
					     (unsigned long long)sec.size);
		if (feat >= HEADER_LAST_FEATURE)
			continue;	/* newer than us: skipped by its size */
		ret = perf_data__apply_feature(data, feat, data->map + sec.offset, (size_t)sec.size,
					       sec.offset, err);
		if (ret)
			return ret;
	}
	return 0;
}
