// SPDX-License-Identifier: GPL-2.0
/*
 * The parsed header as upstream perf 7.2 prints it: attrs (perf_event_attr__fprintf()) and
 * every header feature, from struct perf_env (perf/env.h) only. The bytes were read once, by
 * the library's feature parser; nothing here looks at a feature section.
 *
 * No session: the printer needs the env and, for GROUP_DESC, the names of the events, which
 * the caller lends through struct header_events. The fuzz target links this file alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <perf/kernel.h>
#include "header-fprintf.h"

#define NSEC_PER_SEC	((u64)1000000000)

/* ---- attrs: perf_event_attr__fprintf() ---- */

struct bit_name {
	u64		bit;
	const char	*name;
};

/* perf's order, which is not the bit order (IDENTIFIER before DATA_SRC, no TRANSACTION) */
static const struct bit_name sample_type_names[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PERF_SAMPLE_AUX, "AUX" }, { PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name branch_type_names[] = {
	{ 1ULL << 0, "USER" }, { 1ULL << 1, "KERNEL" }, { 1ULL << 2, "HV" },
	{ 1ULL << 3, "ANY" }, { 1ULL << 4, "ANY_CALL" }, { 1ULL << 5, "ANY_RETURN" },
	{ 1ULL << 6, "IND_CALL" }, { 1ULL << 7, "ABORT_TX" }, { 1ULL << 8, "IN_TX" },
	{ 1ULL << 9, "NO_TX" }, { 1ULL << 10, "COND" }, { 1ULL << 11, "CALL_STACK" },
	{ 1ULL << 12, "IND_JUMP" }, { 1ULL << 13, "CALL" }, { 1ULL << 14, "NO_FLAGS" },
	{ 1ULL << 15, "NO_CYCLES" }, { 1ULL << 16, "TYPE_SAVE" }, { 1ULL << 17, "HW_INDEX" },
	{ 1ULL << 18, "PRIV_SAVE" }, { 1ULL << 19, "COUNTERS" },
	{ 0, NULL },
};

static const struct bit_name read_format_names[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" }, { PERF_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

static void bits_str(char *buf, size_t size, u64 value, const struct bit_name *names)
{
	size_t len = 0;

	buf[0] = '\0';
	for (; names->name; names++) {
		int n;

		if (!(value & names->bit))
			continue;
		n = snprintf(buf + len, size - len, "%s%s", len ? "|" : "", names->name);
		if (n < 0 || (size_t)n >= size - len)
			return;
		len += (size_t)n;
	}
}

static const char *type_name(u32 type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE:	return "PERF_TYPE_HARDWARE";
	case PERF_TYPE_SOFTWARE:	return "PERF_TYPE_SOFTWARE";
	case PERF_TYPE_TRACEPOINT:	return "PERF_TYPE_TRACEPOINT";
	case PERF_TYPE_HW_CACHE:	return "PERF_TYPE_HW_CACHE";
	case PERF_TYPE_RAW:		return "PERF_TYPE_RAW";
	case PERF_TYPE_BREAKPOINT:	return "PERF_TYPE_BREAKPOINT";
	default:			return NULL;
	}
}

static const char *hw_name(u64 config)
{
	static const char *const names[] = {
		"PERF_COUNT_HW_CPU_CYCLES", "PERF_COUNT_HW_INSTRUCTIONS",
		"PERF_COUNT_HW_CACHE_REFERENCES", "PERF_COUNT_HW_CACHE_MISSES",
		"PERF_COUNT_HW_BRANCH_INSTRUCTIONS", "PERF_COUNT_HW_BRANCH_MISSES",
		"PERF_COUNT_HW_BUS_CYCLES", "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND",
		"PERF_COUNT_HW_STALLED_CYCLES_BACKEND", "PERF_COUNT_HW_REF_CPU_CYCLES",
	};
	/* the upper 32 bits may hold an extended PMU type */
	u64 id = config & 0xffffffffULL;

	return id < ARRAY_SIZE(names) ? names[id] : NULL;
}

static const char *sw_name(u64 config)
{
	static const char *const names[] = {
		"PERF_COUNT_SW_CPU_CLOCK", "PERF_COUNT_SW_TASK_CLOCK", "PERF_COUNT_SW_PAGE_FAULTS",
		"PERF_COUNT_SW_CONTEXT_SWITCHES", "PERF_COUNT_SW_CPU_MIGRATIONS",
		"PERF_COUNT_SW_PAGE_FAULTS_MIN", "PERF_COUNT_SW_PAGE_FAULTS_MAJ",
		"PERF_COUNT_SW_ALIGNMENT_FAULTS", "PERF_COUNT_SW_EMULATION_FAULTS",
		"PERF_COUNT_SW_DUMMY", "PERF_COUNT_SW_BPF_OUTPUT", "PERF_COUNT_SW_CGROUP_SWITCHES",
	};

	return config < ARRAY_SIZE(names) ? names[config] : NULL;
}

static void config_str(char *buf, size_t size, u32 type, u64 config)
{
	static const char *const caches[] = {
		"PERF_COUNT_HW_CACHE_L1D", "PERF_COUNT_HW_CACHE_L1I", "PERF_COUNT_HW_CACHE_LL",
		"PERF_COUNT_HW_CACHE_DTLB", "PERF_COUNT_HW_CACHE_ITLB", "PERF_COUNT_HW_CACHE_BPU",
		"PERF_COUNT_HW_CACHE_NODE",
	};
	static const char *const ops[] = {
		"PERF_COUNT_HW_CACHE_OP_READ", "PERF_COUNT_HW_CACHE_OP_WRITE",
		"PERF_COUNT_HW_CACHE_OP_PREFETCH",
	};
	static const char *const results[] = {
		"PERF_COUNT_HW_CACHE_RESULT_ACCESS", "PERF_COUNT_HW_CACHE_RESULT_MISS",
	};
	const char *name = NULL;

	switch (type) {
	case PERF_TYPE_HARDWARE:
		name = hw_name(config);
		break;
	case PERF_TYPE_SOFTWARE:
		name = sw_name(config);
		break;
	case PERF_TYPE_HW_CACHE: {
		u64 c = config & 0xff, o = (config >> 8) & 0xff, r = (config >> 16) & 0xff;

		if (c < 7 && o < 3 && r < 2) {
			snprintf(buf, size, "%#" PRIx64 " (%s | %s | %s)", config, results[r], ops[o],
				 caches[c]);
			return;
		}
		break;
	}
	default:
		/*
		 * Tracepoint and PMU names come from the running system's tracefs and sysfs in
		 * perf, not from the file: we print the number alone, as perf does without them.
		 */
		break;
	}
	if (name)
		snprintf(buf, size, "%#" PRIx64 " (%s)", config, name);
	else
		snprintf(buf, size, "%#" PRIx64, config);
}

/* where attr fields go and how they are joined: the header's " = ", evlist -v's ": " */
struct attr_out {
	FILE		*fp;
	const char	*lead;		/* before the first field */
	const char	*eq;
	int		nr;		/* fields printed */
};

static void attr_field(struct attr_out *out, const char *name, const char *val)
{
	fprintf(out->fp, "%s%s%s%s", out->nr++ ? ", " : out->lead, name, out->eq, val);
}

static void attr_u64(struct attr_out *out, const char *name, u64 v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	attr_field(out, name, buf);
}

static void attr_hex(struct attr_out *out, const char *name, u64 v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%#" PRIx64, v);
	attr_field(out, name, buf);
}

void attr__fprintf_fields(FILE *fp, const struct perf_event_attr *attr, const char *lead,
			  const char *eq, const char *config_name)
{
	struct attr_out out = { .fp = fp, .lead = lead, .eq = eq };
	static const char *const flag_names[PERF_ATTR_BIT_NR] = {
		"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
		"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
		"enable_on_exec", "task", "watermark", "precise_ip", NULL, "mmap_data",
		"sample_id_all", "exclude_host", "exclude_guest", "exclude_callchain_kernel",
		"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch",
		"write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
		"text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
		"defer_callchain", "defer_output",
	};
	const char *tname = type_name(attr->type);
	char buf[1024];

	if (tname)
		snprintf(buf, sizeof(buf), "%u (%s)", attr->type, tname);
	else
		snprintf(buf, sizeof(buf), "%u", attr->type);
	attr_field(&out, "type", buf);
	attr_u64(&out, "size", attr->size);
	if (config_name)
		snprintf(buf, sizeof(buf), "%#" PRIx64 " (%s)", attr->config, config_name);
	else
		config_str(buf, sizeof(buf), attr->type, attr->config);
	attr_field(&out, "config", buf);
	attr_u64(&out, "{ sample_period, sample_freq }", attr->sample_period);
	if (attr->sample_type) {
		bits_str(buf, sizeof(buf), attr->sample_type, sample_type_names);
		attr_field(&out, "sample_type", buf);
	}
	if (attr->read_format) {
		bits_str(buf, sizeof(buf), attr->read_format, read_format_names);
		attr_field(&out, "read_format", buf);
	}
	for (int bit = 0; bit < PERF_ATTR_BIT_NR; bit++) {
		u64 v = (attr->flags >> bit) & 1;

		if (bit == PERF_ATTR_BIT_PRECISE_IP)
			v = (attr->flags >> bit) & 3;	/* the only two-bit field */
		if (flag_names[bit])
			attr_u64(&out, flag_names[bit], v);
	}
	attr_u64(&out, "{ wakeup_events, wakeup_watermark }", attr->wakeup_events);
	attr_u64(&out, "bp_type", attr->bp_type);
	attr_hex(&out, "{ bp_addr, config1 }", attr->config1);
	attr_hex(&out, "{ bp_len, config2 }", attr->config2);
	if (attr->branch_sample_type) {
		bits_str(buf, sizeof(buf), attr->branch_sample_type, branch_type_names);
		attr_field(&out, "branch_sample_type", buf);
	}
	attr_hex(&out, "sample_regs_user", attr->sample_regs_user);
	attr_u64(&out, "sample_stack_user", attr->sample_stack_user);
	if (attr->clockid) {
		snprintf(buf, sizeof(buf), "%" PRId64, (s64)attr->clockid);
		attr_field(&out, "clockid", buf);
	}
	attr_hex(&out, "sample_regs_intr", attr->sample_regs_intr);
	attr_u64(&out, "aux_watermark", attr->aux_watermark);
	attr_u64(&out, "sample_max_stack", attr->sample_max_stack);
	attr_u64(&out, "aux_sample_size", attr->aux_sample_size);
	attr_u64(&out, "sig_data", attr->sig_data);
	/* aux_action's bits */
	attr_u64(&out, "aux_start_paused", attr->aux_action & 1);
	attr_u64(&out, "aux_pause", (attr->aux_action >> 1) & 1);
	attr_u64(&out, "aux_resume", (attr->aux_action >> 2) & 1);
}

void dump__attr_fields(FILE *fp, const struct perf_event_attr *attr)
{
	attr__fprintf_fields(fp, attr, ", ", " = ", NULL);
}

/* ---- cpu lists ---- */

/* perf's bitmap_scnprintf(): "0-3,5", at most size-1 characters as perf cuts it */
static void ranges_str(char *buf, size_t size, const int *cpus, size_t nr)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr;) {
		size_t j = i;
		int n;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j == i)
			n = snprintf(buf + len, size - len, "%s%d", len ? "," : "", cpus[i]);
		else
			n = snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", cpus[i], cpus[j]);
		if (n < 0 || (size_t)n >= size - len)
			return;
		len += (size_t)n;
		i = j + 1;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * A cpu list string ("0-3,7") as perf re-prints it after parsing: sorted, duplicates
 * dropped. Returns -EINVAL for what perf's parser rejects.
 */
static int cpulist_fprintf(FILE *fp, const char *list)
{
	int *cpus = NULL;
	size_t nr = 0, alloc = 0, n = 0;
	const char *p = list;
	char buf[4096];
	int ret = 0;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a > 65535)
			goto out_inval;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b > 65535)
				goto out_inval;
			p = end;
		}
		for (long c = a; c <= b; c++) {
			if (nr == alloc) {
				int *m;

				alloc = alloc ? alloc * 2 : 16;
				m = realloc(cpus, alloc * sizeof(*m));
				if (!m) {
					ret = -ENOMEM;
					goto out_free;
				}
				cpus = m;
			}
			cpus[nr++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto out_inval;
		else if (*p)
			p++;
	}
	if (nr) {
		qsort(cpus, nr, sizeof(*cpus), cmp_int);
		n = 1;
		for (size_t i = 1; i < nr; i++)
			if (cpus[i] != cpus[n - 1])
				cpus[n++] = cpus[i];
	}
	ranges_str(buf, sizeof(buf), cpus, n);
	fprintf(fp, "%s\n", buf);
	goto out_free;

out_inval:
	ret = -EINVAL;
out_free:
	free(cpus);
	return ret;
}

/* "2G": perf's unit_number__scnprintf() */
static void unit_str(char *buf, size_t size, u64 n)
{
	static const char units[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, units[i]);
}


/* ---- the features ---- */

/* what a feature printer prints from, and where */
struct feat_print {
	FILE				*fp;
	const struct perf_env		*env;
	const struct header_events	*events;	/* may be NULL */
};

typedef void (*feat_print_fn)(const struct feat_print *p);

static void print_string(FILE *fp, const char *label, const char *s)
{
	fprintf(fp, "# %s : %s\n", label, s);
}

static void print_hostname(const struct feat_print *p)
{
	print_string(p->fp, "hostname", p->env->hostname);
}

static void print_osrelease(const struct feat_print *p)
{
	print_string(p->fp, "os release", p->env->osrelease);
}

static void print_version(const struct feat_print *p)
{
	print_string(p->fp, "perf version", p->env->version);
}

static void print_arch(const struct feat_print *p)
{
	print_string(p->fp, "arch", p->env->arch);
}

static void print_cpudesc(const struct feat_print *p)
{
	print_string(p->fp, "cpudesc", p->env->cpudesc);
}

static void print_cpuid(const struct feat_print *p)
{
	print_string(p->fp, "cpuid", p->env->cpuid);
}

static void print_nrcpus(const struct feat_print *p)
{
	fprintf(p->fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", p->env->nr_cpus_online,
		p->env->nr_cpus_avail);
}

static void print_total_mem(const struct feat_print *p)
{
	fprintf(p->fp, "# total memory : %" PRIu64 " kB\n", p->env->total_mem);
}

static void print_cmdline(const struct feat_print *p)
{
	fprintf(p->fp, "# cmdline : ");
	for (u32 i = 0; i < p->env->nr_cmdline; i++) {
		/* perf escapes single quotes so the line can be pasted into a shell */
		for (const char *s = p->env->cmdline[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", p->fp);
			else
				fputc(*s, p->fp);
		}
		fputc(' ', p->fp);
	}
	fputc('\n', p->fp);
}

static void print_event_desc(const struct feat_print *p)
{
	/* perf says so for a description it cannot trust as well as for an empty one */
	if (!perf_env__parsed(p->env, HEADER_EVENT_DESC) || !p->env->nr_events) {
		fprintf(p->fp, "# event desc: not available or unable to read\n");
		return;
	}
	for (u32 i = 0; i < p->env->nr_events; i++) {
		const struct perf_env_event *e = &p->env->events[i];

		fprintf(p->fp, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			fprintf(p->fp, ", id = {");
			for (u32 j = 0; j < e->nr_ids; j++)
				fprintf(p->fp, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fprintf(p->fp, " }");
		}
		dump__attr_fields(p->fp, &e->attr);
		fputc('\n', p->fp);
	}
}

static void print_cpu_topology(const struct feat_print *p)
{
	const struct perf_env_cpu_topology *t = &p->env->cpu_topology;

	for (u32 i = 0; i < t->nr_core_siblings; i++)
		fprintf(p->fp, "# sibling sockets : %s\n", t->core_siblings[i]);
	for (u32 i = 0; i < t->nr_die_siblings; i++)
		fprintf(p->fp, "# sibling dies    : %s\n", t->die_siblings[i]);
	for (u32 i = 0; i < t->nr_thread_siblings; i++)
		fprintf(p->fp, "# sibling threads : %s\n", t->thread_siblings[i]);
	if (t->nr_die_siblings) {
		if (t->has_ids)
			for (u32 i = 0; i < t->nr_cpus; i++)
				fprintf(p->fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
					(int)t->core_id[i], (int)t->die_id[i], (int)t->socket_id[i]);
		else
			fprintf(p->fp, "# Core ID, Die ID and Socket ID information is not available\n");
	} else {
		if (t->has_ids)
			for (u32 i = 0; i < t->nr_cpus; i++)
				fprintf(p->fp, "# CPU %u: Core ID %d, Socket ID %d\n", i,
					(int)t->core_id[i], (int)t->socket_id[i]);
		else
			fprintf(p->fp, "# Core ID and Socket ID information is not available\n");
	}
}

static void print_numa_topology(const struct feat_print *p)
{
	for (u32 i = 0; i < p->env->nr_numa_nodes; i++) {
		const struct perf_env_numa_node *n = &p->env->numa_nodes[i];

		fprintf(p->fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total, n->mem_free);
		fprintf(p->fp, "# node%u cpu list : ", n->node);
		if (cpulist_fprintf(p->fp, n->cpus))
			fprintf(p->fp, "\n");
	}
}

static void print_branch_stack(const struct feat_print *p)
{
	fprintf(p->fp, "# contains samples with branch stack\n");
}

static void print_pmu_mappings(const struct feat_print *p)
{
	if (!p->env->nr_pmus) {
		fprintf(p->fp, "# pmu mappings: not available\n");
		return;
	}
	for (u32 i = 0; i < p->env->nr_pmus; i++)
		fprintf(p->fp, "%s%s = %u", i ? ", " : "# pmu mappings: ", p->env->pmus[i].name,
			p->env->pmus[i].type);
	fprintf(p->fp, "\n");
}

/* "# group: name{leader,member,...}" for every group of more than one event */
static void print_group_desc(const struct feat_print *p)
{
	size_t nr = p->events ? p->events->nr : 0;

	for (u32 g = 0; g < p->env->nr_groups; g++) {
		const struct perf_env_group *grp = &p->env->groups[g];
		const char *gname = grp->name;

		if (grp->nr_members < 2 || grp->leader >= nr)
			continue;
		if (!strcmp(gname, "{anon_group}"))
			gname = "";
		fprintf(p->fp, "# group: %s{%s", gname, p->events->name(p->events->arg, grp->leader));
		for (u32 m = 1; m < grp->nr_members && grp->leader + m < nr; m++)
			fprintf(p->fp, ",%s", p->events->name(p->events->arg, grp->leader + m));
		fprintf(p->fp, "}\n");
	}
}

static void print_auxtrace(const struct feat_print *p)
{
	fprintf(p->fp, "# contains AUX area data (e.g. instruction trace)\n");
}

static void print_stat(const struct feat_print *p)
{
	fprintf(p->fp, "# contains stat data\n");
}

static void print_cache(const struct feat_print *p)
{
	fprintf(p->fp, "# CPU cache info:\n");
	for (u32 i = 0; i < p->env->nr_caches; i++) {
		const struct perf_env_cache *e = &p->env->caches[i];

		fprintf(p->fp, "#  L%d %-15s %8s [%s]\n", (int)e->level, e->type, e->size, e->map);
	}
}

static void print_sample_time(const struct feat_print *p)
{
	u64 first = p->env->first_sample_time, last = p->env->last_sample_time;

	fprintf(p->fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		first / NSEC_PER_SEC, first % NSEC_PER_SEC / 1000);
	fprintf(p->fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		last / NSEC_PER_SEC, last % NSEC_PER_SEC / 1000);
	fprintf(p->fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000.0);
}

static void print_mem_topology(const struct feat_print *p)
{
	fprintf(p->fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)p->env->nr_mem_nodes,
		(unsigned long long)p->env->mem_block_size);
	for (u64 i = 0; i < p->env->nr_mem_nodes; i++) {
		const struct perf_env_mem_node *n = &p->env->mem_nodes[i];
		u64 bits = n->nr_bits, weight = 0;
		char size[50], map[100];
		int *set;
		size_t nset = 0;

		/* the block list from the bitmap, as perf's; the size field is superseded by it */
		set = calloc(bits ? bits : 1, sizeof(*set));
		for (u64 w = 0; w < n->nr_words; w++) {
			u64 word = n->bits[w];

			for (unsigned int k = 0; k < 64 && w * 64 + k < bits; k++) {
				if (!(word & (1ULL << k)))
					continue;
				weight++;
				if (set)
					set[nset++] = (int)(w * 64 + k);
			}
		}
		unit_str(size, sizeof(size), p->env->mem_block_size * weight);
		ranges_str(map, sizeof(map), set, set ? nset : 0);
		free(set);
		fprintf(p->fp, "#  %3" PRIu64 " [%s]: %s\n", n->node, size, map);
	}
}

static void print_clockid(const struct feat_print *p)
{
	fprintf(p->fp, "# clockid frequency: %" PRIu64 " MHz\n", p->env->clockid_res_ns * 1000);
}

static void print_bpf_prog_info(const struct feat_print *p)
{
	if (!p->env->bpf_prog_count) {
		fprintf(p->fp, "# bpf_prog_info empty\n");
		return;
	}
	for (u32 i = 0; i < p->env->nr_bpf_progs; i++) {
		const struct perf_env_bpf_prog *prog = &p->env->bpf_progs[i];

		if (prog->nr_subs != 1)
			fprintf(p->fp, "# bpf_prog_info %u:\n", prog->id);
		for (u32 k = 0; k < prog->nr_subs; k++) {
			const struct perf_env_bpf_sub *sub = &prog->subs[k];

			if (prog->nr_subs == 1)
				fprintf(p->fp, "# bpf_prog_info %u: bpf_prog_", prog->id);
			else
				fprintf(p->fp, "# \tsub_prog %u: bpf_prog_", k);
			for (int t = 0; t < 8; t++)
				fprintf(p->fp, "%02x", sub->tag[t]);
			if (prog->nr_subs == 1 && prog->name[0])
				fprintf(p->fp, "_%s", prog->name);
			else if (prog->nr_subs != 1)
				fprintf(p->fp, "_F");
			fprintf(p->fp, " addr 0x%llx size %u\n", (unsigned long long)sub->addr, sub->len);
		}
	}
}

static void print_bpf_btf(const struct feat_print *p)
{
	if (!p->env->nr_btf_ids) {
		fprintf(p->fp, "# btf info empty\n");
		return;
	}
	for (u32 i = 0; i < p->env->nr_btf_ids; i++)
		fprintf(p->fp, "# btf info of id %u\n", p->env->btf_ids[i]);
}

static void print_compressed(const struct feat_print *p)
{
	fprintf(p->fp, "# compressed : %s, level = %d, ratio = %d\n",
		p->env->comp_type == 1 ? "Zstd" : "Unknown", (int)p->env->comp_level, (int)p->env->comp_ratio);
}

/* "# <pmu> pmu capabilities: a=b, c=d" */
static void pmu_caps_fprintf(FILE *fp, const struct perf_env_pmu_caps *p)
{
	if (!p->nr) {
		fprintf(fp, "# %s pmu capabilities: not available\n", p->pmu);
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", p->pmu);
	for (u32 i = 0; i < p->nr; i++)
		fprintf(fp, "%s%s=%s", i ? ", " : "", p->names[i], p->values[i]);
	fprintf(fp, "\n");
}

static void print_cpu_pmu_caps(const struct feat_print *p)
{
	pmu_caps_fprintf(p->fp, &p->env->cpu_pmu_caps);
}

static void print_pmu_caps(const struct feat_print *p)
{
	for (u32 i = 0; i < p->env->nr_pmu_caps; i++)
		pmu_caps_fprintf(p->fp, &p->env->pmu_caps[i]);
}

static const char *clockid_name(u32 clockid)
{
	switch (clockid) {
	case 0:		return "realtime";
	case 1:		return "monotonic";
	case 4:		return "monotonic_raw";
	case 7:		return "boottime";
	case 11:	return "tai";
	default:	return "(not found)";
	}
}

static void print_clock_data(const struct feat_print *p)
{
	u32 clockid = p->env->clock_clockid;
	u64 tod = p->env->clock_tod_ns, clk = p->env->clock_clk_ns;
	char date[64], tstr[96];
	time_t sec = (time_t)(tod / NSEC_PER_SEC);
	int usec = (int)(tod % NSEC_PER_SEC / 1000);
	struct tm tm;

	if (!localtime_r(&sec, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
	}
	fprintf(p->fp, "# clockid: %s (%u)\n", clockid_name(clockid), clockid);
	fprintf(p->fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr,
		(long)sec, usec, (long)(clk / NSEC_PER_SEC), (long)(clk % NSEC_PER_SEC),
		clockid_name(clockid));
}

static void print_hybrid_topology(const struct feat_print *p)
{
	fprintf(p->fp, "# hybrid cpu system:\n");
	for (u32 i = 0; i < p->env->nr_hybrid_pmus; i++)
		fprintf(p->fp, "# %s cpu list : %s\n", p->env->hybrid_pmus[i].pmu,
			p->env->hybrid_pmus[i].cpus);
}

static void print_cpu_domain_info(const struct feat_print *p)
{
	fprintf(p->fp, "# schedstat version\t: %u\n", p->env->schedstat_version);
	fprintf(p->fp, "# Maximum sched domains\t: %u\n", p->env->max_sched_domains);
	for (u32 i = 0; i < p->env->nr_cpu_domains; i++) {
		const struct perf_env_cpu_domains *cd = &p->env->cpu_domains[i];

		fprintf(p->fp, "# cpu\t\t: %u\n", cd->cpu);
		fprintf(p->fp, "# nr_domains\t: %u\n", cd->nr_domains);
		for (u32 j = 0; j < cd->nr_domains; j++) {
			const struct perf_env_sched_domain *d = &cd->domains[j];

			fprintf(p->fp, "# Domain\t\t: %u\n", d->id);
			if (p->env->schedstat_version >= 17)
				fprintf(p->fp, "# Domain name      : %s\n", d->name);
			fprintf(p->fp, "# Domain cpu map   : %s\n", d->cpu_map);
			fprintf(p->fp, "# Domain cpu list  : %s\n", d->cpu_list);
		}
	}
}

static void print_e_machine(const struct feat_print *p)
{
	fprintf(p->fp, "# e_machine : %u\n#   e_flags : %u\n", p->env->e_machine, p->env->e_flags);
}

static void print_cln_size(const struct feat_print *p)
{
	fprintf(p->fp, "# cacheline size: %u\n", p->env->cln_size);
}

struct feat_desc {
	const char	*name;
	feat_print_fn	print;		/* NULL: perf prints nothing for it */
	bool		full_only;	/* summarised unless -I */
};

/* DIR_FORMAT has no printer: only a perf.data directory carries it, we read single files */
static const struct feat_desc feats[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA]	= { "TRACING_DATA", NULL, false },
	[HEADER_BUILD_ID]	= { "BUILD_ID", NULL, false },
	[HEADER_HOSTNAME]	= { "HOSTNAME", print_hostname, false },
	[HEADER_OSRELEASE]	= { "OSRELEASE", print_osrelease, false },
	[HEADER_VERSION]	= { "VERSION", print_version, false },
	[HEADER_ARCH]		= { "ARCH", print_arch, false },
	[HEADER_NRCPUS]		= { "NRCPUS", print_nrcpus, false },
	[HEADER_CPUDESC]	= { "CPUDESC", print_cpudesc, false },
	[HEADER_CPUID]		= { "CPUID", print_cpuid, false },
	[HEADER_TOTAL_MEM]	= { "TOTAL_MEM", print_total_mem, false },
	[HEADER_CMDLINE]	= { "CMDLINE", print_cmdline, false },
	[HEADER_EVENT_DESC]	= { "EVENT_DESC", print_event_desc, false },
	[HEADER_CPU_TOPOLOGY]	= { "CPU_TOPOLOGY", print_cpu_topology, true },
	[HEADER_NUMA_TOPOLOGY]	= { "NUMA_TOPOLOGY", print_numa_topology, true },
	[HEADER_BRANCH_STACK]	= { "BRANCH_STACK", print_branch_stack, false },
	[HEADER_PMU_MAPPINGS]	= { "PMU_MAPPINGS", print_pmu_mappings, false },
	[HEADER_GROUP_DESC]	= { "GROUP_DESC", print_group_desc, false },
	[HEADER_AUXTRACE]	= { "AUXTRACE", print_auxtrace, false },
	[HEADER_STAT]		= { "STAT", print_stat, false },
	[HEADER_CACHE]		= { "CACHE", print_cache, true },
	[HEADER_SAMPLE_TIME]	= { "SAMPLE_TIME", print_sample_time, false },
	[HEADER_MEM_TOPOLOGY]	= { "MEM_TOPOLOGY", print_mem_topology, true },
	[HEADER_CLOCKID]	= { "CLOCKID", print_clockid, false },
	[HEADER_DIR_FORMAT]	= { "DIR_FORMAT", NULL, false },
	[HEADER_BPF_PROG_INFO]	= { "BPF_PROG_INFO", print_bpf_prog_info, false },
	[HEADER_BPF_BTF]	= { "BPF_BTF", print_bpf_btf, false },
	[HEADER_COMPRESSED]	= { "COMPRESSED", print_compressed, false },
	[HEADER_CPU_PMU_CAPS]	= { "CPU_PMU_CAPS", print_cpu_pmu_caps, false },
	[HEADER_CLOCK_DATA]	= { "CLOCK_DATA", print_clock_data, false },
	[HEADER_HYBRID_TOPOLOGY] = { "HYBRID_TOPOLOGY", print_hybrid_topology, true },
	[HEADER_PMU_CAPS]	= { "PMU_CAPS", print_pmu_caps, false },
	[HEADER_CPU_DOMAIN_INFO] = { "CPU_DOMAIN_INFO", print_cpu_domain_info, true },
	[HEADER_E_MACHINE]	= { "E_MACHINE", print_e_machine, false },
	[HEADER_CLN_SIZE]	= { "CLN_SIZE", print_cln_size, false },
};

const char *header__feature_name(int feat)
{
	return feat > 0 && feat < HEADER_LAST_FEATURE ? feats[feat].name : NULL;
}

bool header__feature_has_text(int feat)
{
	return feat > 0 && feat < HEADER_LAST_FEATURE && feats[feat].print;
}

bool header__feature_printable(const struct perf_env *env, int feat)
{
	if (!header__feature_has_text(feat) || !perf_env__has_feat(env, feat))
		return false;
	/* an EVENT_DESC perf cannot read is still shown, as "not available" */
	return perf_env__parsed(env, feat) || feat == HEADER_EVENT_DESC;
}

int header__fprintf_feature(FILE *fp, const struct perf_env *env, int feat, bool full,
			    const struct header_events *events)
{
	struct feat_print p = { .fp = fp, .env = env, .events = events };

	if (!header__feature_printable(env, feat))
		return -EINVAL;
	if (feats[feat].full_only && !full)
		fprintf(fp, "# %s info available, use -I to display\n", feats[feat].name);
	else
		feats[feat].print(&p);
	return 0;
}
