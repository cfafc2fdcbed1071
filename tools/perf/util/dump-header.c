// SPDX-License-Identifier: GPL-2.0
/*
 * `perf script --header` / `--header-only` / `-I`, and the pipe-mode HEADER_FEATURE records
 * of -D: every header feature printed as upstream perf 7.2 prints it.
 *
 * Each feature is printed from its own section bytes (file mode: read again from the input;
 * pipe mode: the record's payload), through a bounded struct dump_buf: a section that does
 * not parse prints nothing (callers print to a scratch stream first), as perf's failing
 * process step does. Only the number of cpus comes from the reader's perf_env, because
 * CPU_TOPOLOGY and CPU_DOMAIN_INFO are sized by it, as in perf.
 *
 * Attr printing (dump__attr_fields) lives here too: the event lines of HEADER_EVENT_DESC and
 * the pipe ATTR records share it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "dump.h"
#include "dump-internal.h"
#include "session.h"

/* perf 7.2 knows three features past our reader's HEADER_LAST_FEATURE */
#define NSEC_PER_SEC	((u64)1000000000)

enum {
	FEAT_CPU_DOMAIN_INFO	= 32,
	FEAT_E_MACHINE		= 33,
	FEAT_CLN_SIZE		= 34,
	FEAT_NR			= 35,	/* perf 7.2's HEADER_LAST_FEATURE */
};

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

	return id < sizeof(names) / sizeof(names[0]) ? names[id] : NULL;
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

	return config < sizeof(names) / sizeof(names[0]) ? names[config] : NULL;
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

static void attr_field(FILE *fp, const char *name, const char *val)
{
	fprintf(fp, ", %s = %s", name, val);
}

static void attr_u64(FILE *fp, const char *name, u64 v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	attr_field(fp, name, buf);
}

static void attr_hex(FILE *fp, const char *name, u64 v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), "%#" PRIx64, v);
	attr_field(fp, name, buf);
}

void dump__attr_fields(FILE *fp, const struct perf_event_attr *attr)
{
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
	attr_field(fp, "type", buf);
	attr_u64(fp, "size", attr->size);
	config_str(buf, sizeof(buf), attr->type, attr->config);
	attr_field(fp, "config", buf);
	attr_u64(fp, "{ sample_period, sample_freq }", attr->sample_period);
	if (attr->sample_type) {
		bits_str(buf, sizeof(buf), attr->sample_type, sample_type_names);
		attr_field(fp, "sample_type", buf);
	}
	if (attr->read_format) {
		bits_str(buf, sizeof(buf), attr->read_format, read_format_names);
		attr_field(fp, "read_format", buf);
	}
	for (int bit = 0; bit < PERF_ATTR_BIT_NR; bit++) {
		u64 v = (attr->flags >> bit) & 1;

		if (bit == PERF_ATTR_BIT_PRECISE_IP)
			v = (attr->flags >> bit) & 3;	/* the only two-bit field */
		if (flag_names[bit])
			attr_u64(fp, flag_names[bit], v);
	}
	attr_u64(fp, "{ wakeup_events, wakeup_watermark }", attr->wakeup_events);
	attr_u64(fp, "bp_type", attr->bp_type);
	attr_hex(fp, "{ bp_addr, config1 }", attr->config1);
	attr_hex(fp, "{ bp_len, config2 }", attr->config2);
	if (attr->branch_sample_type) {
		bits_str(buf, sizeof(buf), attr->branch_sample_type, branch_type_names);
		attr_field(fp, "branch_sample_type", buf);
	}
	attr_hex(fp, "sample_regs_user", attr->sample_regs_user);
	attr_u64(fp, "sample_stack_user", attr->sample_stack_user);
	if (attr->clockid) {
		snprintf(buf, sizeof(buf), "%" PRId64, (s64)attr->clockid);
		attr_field(fp, "clockid", buf);
	}
	attr_hex(fp, "sample_regs_intr", attr->sample_regs_intr);
	attr_u64(fp, "aux_watermark", attr->aux_watermark);
	attr_u64(fp, "sample_max_stack", attr->sample_max_stack);
	attr_u64(fp, "aux_sample_size", attr->aux_sample_size);
	attr_u64(fp, "sig_data", attr->sig_data);
	/* aux_action's bits */
	attr_u64(fp, "aux_start_paused", attr->aux_action & 1);
	attr_u64(fp, "aux_pause", (attr->aux_action >> 1) & 1);
	attr_u64(fp, "aux_resume", (attr->aux_action >> 2) & 1);
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

struct feat_ctx {
	FILE			*fp;
	struct dump_buf		b;
	struct perf_session	*session;
	bool			full;
};

typedef int (*feat_print_fn)(struct feat_ctx *c);

static int print_string(struct feat_ctx *c, const char *label)
{
	const char *s = dump_buf__string(&c->b);

	if (!s)
		return -EINVAL;
	fprintf(c->fp, "# %s : %s\n", label, s);
	return 0;
}

static int print_hostname(struct feat_ctx *c)	{ return print_string(c, "hostname"); }
static int print_osrelease(struct feat_ctx *c)	{ return print_string(c, "os release"); }
static int print_version(struct feat_ctx *c)	{ return print_string(c, "perf version"); }
static int print_arch(struct feat_ctx *c)	{ return print_string(c, "arch"); }
static int print_cpudesc(struct feat_ctx *c)	{ return print_string(c, "cpudesc"); }
static int print_cpuid(struct feat_ctx *c)	{ return print_string(c, "cpuid"); }

static int print_nrcpus(struct feat_ctx *c)
{
	u32 avail = dump_buf__u32(&c->b), online = dump_buf__u32(&c->b);

	if (c->b.short_read)
		return -EINVAL;
	fprintf(c->fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
	return 0;
}

static int print_total_mem(struct feat_ctx *c)
{
	u64 kb = dump_buf__u64(&c->b);

	if (c->b.short_read)
		return -EINVAL;
	fprintf(c->fp, "# total memory : %" PRIu64 " kB\n", kb);
	return 0;
}

static int print_cmdline(struct feat_ctx *c)
{
	u32 nr = dump_buf__u32(&c->b);

	if (c->b.short_read || nr > dump_buf__left(&c->b) / 4)
		return -EINVAL;
	/* validate first: nothing is printed for a malformed list */
	{
		struct dump_buf probe = c->b;

		for (u32 i = 0; i < nr; i++)
			if (!dump_buf__string(&probe))
				return -EINVAL;
	}
	fprintf(c->fp, "# cmdline : ");
	for (u32 i = 0; i < nr; i++) {
		/* perf escapes single quotes so the line can be pasted into a shell */
		for (const char *s = dump_buf__string(&c->b); *s; s++) {
			if (*s == '\'')
				fputs("\\'", c->fp);
			else
				fputc(*s, c->fp);
		}
		fputc(' ', c->fp);
	}
	fputc('\n', c->fp);
	return 0;
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

static int print_event_desc(struct feat_ctx *c)
{
	struct dump_buf b = c->b;
	u32 nr = dump_buf__u32(&b), sz = dump_buf__u32(&b);
	bool ok = !b.short_read && sz >= PERF_ATTR_SIZE_VER0;

	/* perf reads every description before printing any */
	for (u32 i = 0; ok && i < nr; i++) {
		struct perf_event_attr attr;
		u32 nr_ids;

		memset(&attr, 0, sizeof(attr));
		if (dump_buf__left(&b) < sz) {
			ok = false;
			break;
		}
		memcpy(&attr, b.p, sz < sizeof(attr) ? sz : sizeof(attr));
		dump_buf__skip(&b, sz);
		if (b.swapped)
			perf_event_attr__swap(&attr, sz < sizeof(attr) ? sz : sizeof(attr));
		nr_ids = dump_buf__u32(&b);
		if (!attr_known(&attr) || !dump_buf__string(&b) ||
		    nr_ids > dump_buf__left(&b) / 8)
			ok = false;
		else
			dump_buf__skip(&b, (size_t)nr_ids * 8);
	}
	if (!ok || !nr) {
		fprintf(c->fp, "# event desc: not available or unable to read\n");
		return 0;
	}
	b = c->b;
	dump_buf__skip(&b, 8);
	for (u32 i = 0; i < nr; i++) {
		struct perf_event_attr attr;
		const char *name;
		u32 nr_ids;

		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, b.p, sz < sizeof(attr) ? sz : sizeof(attr));
		dump_buf__skip(&b, sz);
		if (b.swapped)
			perf_event_attr__swap(&attr, sz < sizeof(attr) ? sz : sizeof(attr));
		nr_ids = dump_buf__u32(&b);
		name = dump_buf__string(&b);
		fprintf(c->fp, "# event : name = %s, ", name);
		if (nr_ids) {
			fprintf(c->fp, ", id = {");
			for (u32 j = 0; j < nr_ids; j++)
				fprintf(c->fp, "%s %" PRIu64, j ? "," : "", dump_buf__u64(&b));
			fprintf(c->fp, " }");
		}
		dump__attr_fields(c->fp, &attr);
		fputc('\n', c->fp);
	}
	return 0;
}

/* a list of header strings, validated before anything is printed */
static bool strings_ok(struct dump_buf *b, u32 nr)
{
	for (u32 i = 0; i < nr; i++)
		if (!dump_buf__string(b))
			return false;
	return true;
}

static int print_cpu_topology(struct feat_ctx *c)
{
	const struct perf_env *env = perf_data__env(c->session->data);
	u32 nr_cpus = env->nr_cpus_avail;
	struct dump_buf b = c->b, cores, threads, dies;
	u32 nr_cores, nr_threads, nr_dies = 0;
	u32 *core_id = NULL, *socket_id = NULL, *die_id = NULL;
	bool have_ids = false;
	int ret = -EINVAL;

	nr_cores = dump_buf__u32(&b);
	cores = b;
	if (b.short_read || !strings_ok(&b, nr_cores))
		return -EINVAL;
	nr_threads = dump_buf__u32(&b);
	threads = b;
	if (b.short_read || !strings_ok(&b, nr_threads))
		return -EINVAL;
	/* older perf stops here; the per-cpu ids and the dies came later */
	if (dump_buf__left(&b)) {
		core_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
		socket_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
		die_id = calloc(nr_cpus ? nr_cpus : 1, sizeof(u32));
		if (!core_id || !socket_id || !die_id) {
			ret = -ENOMEM;
			goto out_free;
		}
		for (u32 i = 0; i < nr_cpus; i++) {
			core_id[i] = dump_buf__u32(&b);
			socket_id[i] = dump_buf__u32(&b);
			/* perf rejects socket ids above the cpu count (x86 and others) */
			if (socket_id[i] != (u32)-1 && socket_id[i] > nr_cpus &&
			    !(env->arch && (!strncmp(env->arch, "s390", 4) ||
					    !strncmp(env->arch, "aarch64", 7))))
				goto out_free;
		}
		if (b.short_read)
			goto out_free;
		have_ids = true;
		if (dump_buf__left(&b)) {
			nr_dies = dump_buf__u32(&b);
			dies = b;
			if (b.short_read || !strings_ok(&b, nr_dies))
				goto out_free;
			for (u32 i = 0; i < nr_cpus; i++)
				die_id[i] = dump_buf__u32(&b);
			if (b.short_read)
				goto out_free;
		}
	}
	for (u32 i = 0; i < nr_cores; i++)
		fprintf(c->fp, "# sibling sockets : %s\n", dump_buf__string(&cores));
	for (u32 i = 0; i < nr_dies; i++)
		fprintf(c->fp, "# sibling dies    : %s\n", dump_buf__string(&dies));
	for (u32 i = 0; i < nr_threads; i++)
		fprintf(c->fp, "# sibling threads : %s\n", dump_buf__string(&threads));
	if (nr_dies) {
		if (have_ids)
			for (u32 i = 0; i < nr_cpus; i++)
				fprintf(c->fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
					(int)core_id[i], (int)die_id[i], (int)socket_id[i]);
		else
			fprintf(c->fp, "# Core ID, Die ID and Socket ID information is not available\n");
	} else {
		if (have_ids)
			for (u32 i = 0; i < nr_cpus; i++)
				fprintf(c->fp, "# CPU %u: Core ID %d, Socket ID %d\n", i,
					(int)core_id[i], (int)socket_id[i]);
		else
			fprintf(c->fp, "# Core ID and Socket ID information is not available\n");
	}
	ret = 0;
out_free:
	free(core_id);
	free(socket_id);
	free(die_id);
	return ret;
}

static int print_numa_topology(struct feat_ctx *c)
{
	struct dump_buf b = c->b;
	u32 nr = dump_buf__u32(&b);

	if (b.short_read)
		return -EINVAL;
	/* validate the whole section first: perf prints nothing of a bad one */
	for (u32 i = 0; i < nr; i++) {
		dump_buf__u32(&b);
		dump_buf__u64(&b);
		dump_buf__u64(&b);
		if (!dump_buf__string(&b))
			return -EINVAL;
	}
	b = c->b;
	dump_buf__u32(&b);
	for (u32 i = 0; i < nr; i++) {
		u32 node = dump_buf__u32(&b);
		u64 total = dump_buf__u64(&b), free_kb = dump_buf__u64(&b);
		const char *list = dump_buf__string(&b);

		fprintf(c->fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			node, total, free_kb);
		fprintf(c->fp, "# node%u cpu list : ", node);
		if (cpulist_fprintf(c->fp, list))
			fprintf(c->fp, "\n");
	}
	return 0;
}

static int print_branch_stack(struct feat_ctx *c)
{
	fprintf(c->fp, "# contains samples with branch stack\n");
	return 0;
}

static int print_pmu_mappings(struct feat_ctx *c)
{
	struct dump_buf b = c->b;
	u32 nr = dump_buf__u32(&b);

	if (b.short_read)
		return -EINVAL;
	if (!nr) {
		fprintf(c->fp, "# pmu mappings: not available\n");
		return 0;
	}
	for (u32 i = 0; i < nr; i++) {
		dump_buf__u32(&b);
		if (!dump_buf__string(&b))
			return -EINVAL;
	}
	b = c->b;
	dump_buf__u32(&b);
	for (u32 i = 0; i < nr; i++) {
		u32 type = dump_buf__u32(&b);
		const char *name = dump_buf__string(&b);

		fprintf(c->fp, "%s%s = %u", i ? ", " : "# pmu mappings: ", name, type);
	}
	fprintf(c->fp, "\n");
	return 0;
}

static int print_group_desc(struct feat_ctx *c)
{
	struct perf_session *session = c->session;
	size_t nr_attrs = perf_data__nr_attrs(session->data);
	struct dump_buf b = c->b;
	u32 nr_groups = dump_buf__u32(&b);
	struct dump_buf groups;

	if (b.short_read)
		return -EINVAL;
	groups = b;
	for (u32 i = 0; i < nr_groups; i++) {
		if (!dump_buf__string(&b))
			return -EINVAL;
		dump_buf__u32(&b);
		dump_buf__u32(&b);
	}
	if (b.short_read)
		return -EINVAL;
	/* "# group: name{leader,member,...}" for every group of more than one event */
	for (u32 g = 0; g < nr_groups; g++) {
		const char *gname = dump_buf__string(&groups);
		u32 leader = dump_buf__u32(&groups), members = dump_buf__u32(&groups);

		if (members < 2 || leader >= nr_attrs)
			continue;
		if (!strcmp(gname, "{anon_group}"))
			gname = "";
		fprintf(c->fp, "# group: %s{%s", gname,
			perf_session__evattr_name(session, perf_data__attr(session->data, leader)));
		for (u32 m = 1; m < members && leader + m < nr_attrs; m++)
			fprintf(c->fp, ",%s", perf_session__evattr_name(session,
						perf_data__attr(session->data, leader + m)));
		fprintf(c->fp, "}\n");
	}
	return 0;
}

static int print_auxtrace(struct feat_ctx *c)
{
	fprintf(c->fp, "# contains AUX area data (e.g. instruction trace)\n");
	return 0;
}

static int print_stat(struct feat_ctx *c)
{
	fprintf(c->fp, "# contains stat data\n");
	return 0;
}

static int print_cache(struct feat_ctx *c)
{
	struct dump_buf b = c->b;
	u32 version = dump_buf__u32(&b), cnt = dump_buf__u32(&b);

	if (b.short_read || version != 1)
		return -EINVAL;
	for (u32 i = 0; i < cnt; i++) {
		dump_buf__skip(&b, 16);
		if (!strings_ok(&b, 3))
			return -EINVAL;
	}
	b = c->b;
	dump_buf__skip(&b, 8);
	fprintf(c->fp, "# CPU cache info:\n");
	for (u32 i = 0; i < cnt; i++) {
		u32 level = dump_buf__u32(&b);
		const char *type, *size, *map;

		dump_buf__skip(&b, 12);	/* line_size, sets, ways */
		type = dump_buf__string(&b);
		size = dump_buf__string(&b);
		map = dump_buf__string(&b);
		fprintf(c->fp, "#  L%d %-15s %8s [%s]\n", (int)level, type, size, map);
	}
	return 0;
}

static int print_sample_time(struct feat_ctx *c)
{
	u64 first = dump_buf__u64(&c->b), last = dump_buf__u64(&c->b);

	if (c->b.short_read)
		return -EINVAL;
	fprintf(c->fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		first / NSEC_PER_SEC, first % NSEC_PER_SEC / 1000);
	fprintf(c->fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		last / NSEC_PER_SEC, last % NSEC_PER_SEC / 1000);
	fprintf(c->fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000.0);
	return 0;
}

static int print_mem_topology(struct feat_ctx *c)
{
	struct dump_buf b = c->b;
	u64 version = dump_buf__u64(&b), bsize = dump_buf__u64(&b), nr = dump_buf__u64(&b);

	if (b.short_read || version != 1 || nr > dump_buf__left(&b) / 24)
		return -EINVAL;
	for (u64 i = 0; i < nr; i++) {
		u64 bits;

		dump_buf__skip(&b, 16);
		bits = dump_buf__u64(&b);
		if (b.short_read || (bits + 63) / 64 > dump_buf__left(&b) / 8)
			return -EINVAL;
		dump_buf__skip(&b, (size_t)((bits + 63) / 64) * 8);
	}
	b = c->b;
	dump_buf__skip(&b, 24);
	fprintf(c->fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)nr,
		(unsigned long long)bsize);
	for (u64 i = 0; i < nr; i++) {
		u64 node = dump_buf__u64(&b), bits, weight = 0;
		char size[50], map[100];
		int *set = NULL;
		size_t nset = 0;

		dump_buf__u64(&b);	/* size: superseded by the bitmap's */
		bits = dump_buf__u64(&b);
		set = calloc(bits ? bits : 1, sizeof(*set));
		for (u64 w = 0; w < (bits + 63) / 64; w++) {
			u64 word = dump_buf__u64(&b);

			for (unsigned int k = 0; k < 64 && w * 64 + k < bits; k++) {
				if (!(word & (1ULL << k)))
					continue;
				weight++;
				if (set)
					set[nset++] = (int)(w * 64 + k);
			}
		}
		unit_str(size, sizeof(size), bsize * weight);
		ranges_str(map, sizeof(map), set, set ? nset : 0);
		free(set);
		fprintf(c->fp, "#  %3" PRIu64 " [%s]: %s\n", node, size, map);
	}
	return 0;
}

static int print_clockid(struct feat_ctx *c)
{
	u64 res = dump_buf__u64(&c->b);

	if (c->b.short_read)
		return -EINVAL;
	fprintf(c->fp, "# clockid frequency: %" PRIu64 " MHz\n", res * 1000);
	return 0;
}

static int print_dir_format(struct feat_ctx *c)
{
	/* only a perf.data directory carries this; we read single files */
	(void)c;
	return -EINVAL;
}

static int print_bpf_prog_info(struct feat_ctx *c)
{
	u32 count = dump_buf__u32(&c->b);

	if (c->b.short_read)
		return -EINVAL;
	if (!count) {
		fprintf(c->fp, "# bpf_prog_info empty\n");
		return 0;
	}
	/* each: u32 info_len, u32 data_len, u64 arrays, info, data */
	for (u32 i = 0; i < count; i++) {
		struct dump_buf info;
		u32 info_len = dump_buf__u32(&c->b), data_len = dump_buf__u32(&c->b);
		u32 id, nr_ksyms, nr_lens, nr_tags;
		u64 ksyms, lens, tags;
		const u8 *data;
		char name[16 + 1];

		dump_buf__u64(&c->b);
		if (c->b.short_read || info_len > dump_buf__left(&c->b))
			return -EINVAL;
		dump_buf__init(&info, c->b.p, info_len, c->b.swapped);
		dump_buf__skip(&c->b, info_len);
		data = c->b.p;
		if (!dump_buf__skip(&c->b, data_len))
			return -EINVAL;
		/* struct bpf_prog_info: id @4, name @64, jited ksyms/lens @104.., tags @180 */
		dump_buf__skip(&info, 4);
		id = dump_buf__u32(&info);
		dump_buf__skip(&info, 56);
		memset(name, 0, sizeof(name));
		if (dump_buf__left(&info) >= 16)
			memcpy(name, info.p, 16);
		dump_buf__skip(&info, 40);
		nr_ksyms = dump_buf__u32(&info);
		nr_lens = dump_buf__u32(&info);
		ksyms = dump_buf__u64(&info);
		lens = dump_buf__u64(&info);
		dump_buf__skip(&info, 52);
		nr_tags = dump_buf__u32(&info);
		tags = dump_buf__u64(&info);
		if (info.short_read || nr_ksyms != nr_lens || nr_ksyms != nr_tags)
			continue;
		/* the arrays are offsets into data */
		if (ksyms > data_len || nr_ksyms > (data_len - ksyms) / 8 ||
		    lens > data_len || nr_lens > (data_len - lens) / 4 ||
		    tags > data_len || nr_tags > (data_len - tags) / 8)
			continue;
		if (nr_ksyms != 1)
			fprintf(c->fp, "# bpf_prog_info %u:\n", id);
		for (u32 k = 0; k < nr_ksyms; k++) {
			struct dump_buf a;
			u64 addr;
			u32 len;

			dump_buf__init(&a, data + ksyms + k * 8, 8, c->b.swapped);
			addr = dump_buf__u64(&a);
			dump_buf__init(&a, data + lens + k * 4, 4, c->b.swapped);
			len = dump_buf__u32(&a);
			if (nr_ksyms == 1)
				fprintf(c->fp, "# bpf_prog_info %u: bpf_prog_", id);
			else
				fprintf(c->fp, "# \tsub_prog %u: bpf_prog_", k);
			for (int t = 0; t < 8; t++)
				fprintf(c->fp, "%02x", data[tags + k * 8 + t]);
			if (nr_ksyms == 1 && name[0])
				fprintf(c->fp, "_%s", name);
			else if (nr_ksyms != 1)
				fprintf(c->fp, "_F");
			fprintf(c->fp, " addr 0x%llx size %u\n", (unsigned long long)addr, len);
		}
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int print_bpf_btf(struct feat_ctx *c)
{
	u32 count = dump_buf__u32(&c->b);
	u32 *ids;

	if (c->b.short_read || count > dump_buf__left(&c->b) / 8)
		return -EINVAL;
	if (!count) {
		fprintf(c->fp, "# btf info empty\n");
		return 0;
	}
	ids = calloc(count, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (u32 i = 0; i < count; i++) {
		u32 size;

		ids[i] = dump_buf__u32(&c->b);
		size = dump_buf__u32(&c->b);
		if (!dump_buf__skip(&c->b, size)) {
			free(ids);
			return -EINVAL;
		}
	}
	/* perf keeps them in a tree by id */
	qsort(ids, count, sizeof(*ids), cmp_u32);
	for (u32 i = 0; i < count; i++)
		fprintf(c->fp, "# btf info of id %u\n", ids[i]);
	free(ids);
	return 0;
}

static int print_compressed(struct feat_ctx *c)
{
	u32 type, level, ratio;

	dump_buf__u32(&c->b);	/* version */
	type = dump_buf__u32(&c->b);
	level = dump_buf__u32(&c->b);
	ratio = dump_buf__u32(&c->b);
	dump_buf__u32(&c->b);	/* mmap_len */
	if (c->b.short_read)
		return -EINVAL;
	fprintf(c->fp, "# compressed : %s, level = %d, ratio = %d\n",
		type == 1 ? "Zstd" : "Unknown", (int)level, (int)ratio);
	return 0;
}

/* u32 nr, then nr {name, value} strings: "# <pmu> pmu capabilities: a=b, c=d" */
static int pmu_caps_fprintf(FILE *fp, struct dump_buf *b, struct dump_buf *name_at)
{
	struct dump_buf caps;
	u32 nr = dump_buf__u32(b);
	const char *pmu = "cpu";

	if (b->short_read)
		return -EINVAL;
	caps = *b;
	if (!strings_ok(b, 2 * nr))
		return -EINVAL;
	if (name_at) {
		pmu = dump_buf__string(b);
		if (!pmu)
			return -EINVAL;
		*name_at = *b;
	}
	if (!fp)
		return 0;
	if (!nr) {
		fprintf(fp, "# %s pmu capabilities: not available\n", pmu);
		return 0;
	}
	fprintf(fp, "# %s pmu capabilities: ", pmu);
	for (u32 i = 0; i < nr; i++) {
		const char *k = dump_buf__string(&caps), *v = dump_buf__string(&caps);

		fprintf(fp, "%s%s=%s", i ? ", " : "", k, v);
	}
	fprintf(fp, "\n");
	return 0;
}

static int print_cpu_pmu_caps(struct feat_ctx *c)
{
	struct dump_buf probe = c->b;

	if (pmu_caps_fprintf(NULL, &probe, NULL))
		return -EINVAL;
	return pmu_caps_fprintf(c->fp, &c->b, NULL);
}

static int print_pmu_caps(struct feat_ctx *c)
{
	struct dump_buf b = c->b, next;
	u32 nr = dump_buf__u32(&b);

	if (b.short_read)
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		if (pmu_caps_fprintf(NULL, &b, &next))
			return -EINVAL;
		b = next;
	}
	b = c->b;
	dump_buf__u32(&b);
	for (u32 i = 0; i < nr; i++) {
		pmu_caps_fprintf(c->fp, &b, &next);
		b = next;
	}
	return 0;
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

static int print_clock_data(struct feat_ctx *c)
{
	u32 version = dump_buf__u32(&c->b), clockid = dump_buf__u32(&c->b);
	u64 tod = dump_buf__u64(&c->b), clk = dump_buf__u64(&c->b);
	char date[64], tstr[96];
	time_t sec = (time_t)(tod / NSEC_PER_SEC);
	int usec = (int)(tod % NSEC_PER_SEC / 1000);
	struct tm tm;

	if (c->b.short_read || version != 1)
		return -EINVAL;
	if (!localtime_r(&sec, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
	}
	fprintf(c->fp, "# clockid: %s (%u)\n", clockid_name(clockid), clockid);
	fprintf(c->fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr,
		(long)sec, usec, (long)(clk / NSEC_PER_SEC), (long)(clk % NSEC_PER_SEC),
		clockid_name(clockid));
	return 0;
}

static int print_hybrid_topology(struct feat_ctx *c)
{
	struct dump_buf b = c->b;
	u32 nr = dump_buf__u32(&b);

	if (b.short_read || !strings_ok(&b, 2 * nr))
		return -EINVAL;
	b = c->b;
	dump_buf__u32(&b);
	fprintf(c->fp, "# hybrid cpu system:\n");
	for (u32 i = 0; i < nr; i++) {
		const char *pmu = dump_buf__string(&b), *cpus = dump_buf__string(&b);

		fprintf(c->fp, "# %s cpu list : %s\n", pmu, cpus);
	}
	return 0;
}

static int print_cpu_domain_info(struct feat_ctx *c)
{
	const struct perf_env *env = perf_data__env(c->session->data);
	struct dump_buf b = c->b;
	u32 version = dump_buf__u32(&b), max_domains = dump_buf__u32(&b);
	u32 nr = env->nr_cpus_online;

	if (b.short_read)
		return -EINVAL;
	/* one entry per online cpu, each naming its cpu: validate all of them first */
	for (u32 i = 0; i < nr; i++) {
		u32 cpu = dump_buf__u32(&b), nr_domains = dump_buf__u32(&b);

		if (b.short_read || cpu >= env->nr_cpus_avail || nr_domains > max_domains)
			return -EINVAL;
		for (u32 j = 0; j < nr_domains; j++) {
			u32 domain = dump_buf__u32(&b);

			if (b.short_read || domain >= max_domains ||
			    !strings_ok(&b, version >= 17 ? 3 : 2))
				return -EINVAL;
		}
	}
	b = c->b;
	dump_buf__skip(&b, 8);
	fprintf(c->fp, "# schedstat version\t: %u\n", version);
	fprintf(c->fp, "# Maximum sched domains\t: %u\n", max_domains);
	for (u32 i = 0; i < nr; i++) {
		u32 cpu = dump_buf__u32(&b), nr_domains = dump_buf__u32(&b);

		fprintf(c->fp, "# cpu\t\t: %u\n", cpu);
		fprintf(c->fp, "# nr_domains\t: %u\n", nr_domains);
		for (u32 j = 0; j < nr_domains; j++) {
			fprintf(c->fp, "# Domain\t\t: %u\n", dump_buf__u32(&b));
			if (version >= 17)
				fprintf(c->fp, "# Domain name      : %s\n", dump_buf__string(&b));
			fprintf(c->fp, "# Domain cpu map   : %s\n", dump_buf__string(&b));
			fprintf(c->fp, "# Domain cpu list  : %s\n", dump_buf__string(&b));
		}
	}
	return 0;
}

static int print_e_machine(struct feat_ctx *c)
{
	u32 machine = dump_buf__u32(&c->b), flags = dump_buf__u32(&c->b);

	if (c->b.short_read)
		return -EINVAL;
	fprintf(c->fp, "# e_machine : %u\n#   e_flags : %u\n", machine, flags);
	return 0;
}

static int print_cln_size(struct feat_ctx *c)
{
	u32 size = dump_buf__u32(&c->b);

	if (c->b.short_read)
		return -EINVAL;
	fprintf(c->fp, "# cacheline size: %u\n", size);
	return 0;
}

struct feat_desc {
	const char	*name;
	feat_print_fn	print;		/* NULL: perf prints nothing for it */
	bool		full_only;	/* summarised unless -I */
};

static const struct feat_desc feats[FEAT_NR] = {
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
	[HEADER_DIR_FORMAT]	= { "DIR_FORMAT", print_dir_format, false },
	[HEADER_BPF_PROG_INFO]	= { "BPF_PROG_INFO", print_bpf_prog_info, false },
	[HEADER_BPF_BTF]	= { "BPF_BTF", print_bpf_btf, false },
	[HEADER_COMPRESSED]	= { "COMPRESSED", print_compressed, false },
	[HEADER_CPU_PMU_CAPS]	= { "CPU_PMU_CAPS", print_cpu_pmu_caps, false },
	[HEADER_CLOCK_DATA]	= { "CLOCK_DATA", print_clock_data, false },
	[HEADER_HYBRID_TOPOLOGY] = { "HYBRID_TOPOLOGY", print_hybrid_topology, true },
	[HEADER_PMU_CAPS]	= { "PMU_CAPS", print_pmu_caps, false },
	[FEAT_CPU_DOMAIN_INFO]	= { "CPU_DOMAIN_INFO", print_cpu_domain_info, true },
	[FEAT_E_MACHINE]	= { "E_MACHINE", print_e_machine, false },
	[FEAT_CLN_SIZE]		= { "CLN_SIZE", print_cln_size, false },
};

int dump__feature(FILE *fp, struct perf_session *session, int feat, const u8 *buf, size_t size,
		  bool full)
{
	struct feat_ctx c = { .fp = fp, .session = session, .full = full };

	if (feat <= 0 || feat >= FEAT_NR)
		return -EINVAL;
	if (!feats[feat].print)
		return 0;
	dump_buf__init(&c.b, buf, size, perf_data__needs_swap(session->data));
	return feats[feat].print(&c);
}

/*
 * One feature of --header: validated on a scratch stream, then printed in full or, for the
 * features perf only summarises, as "info available".
 */
static void dump__header_feature(FILE *fp, struct perf_session *session, int feat, const u8 *buf,
				 size_t size, bool full)
{
	char *text = NULL;
	size_t len = 0;
	FILE *ms;
	int ret;

	if (feat <= 0 || feat >= FEAT_NR || !feats[feat].print)
		return;
	ms = open_memstream(&text, &len);
	if (!ms)
		return;
	ret = dump__feature(ms, session, feat, buf, size, true);
	if (fclose(ms) == 0 && ret == 0) {
		if (feats[feat].full_only && !full)
			fprintf(fp, "# %s info available, use -I to display\n", feats[feat].name);
		else
			fwrite(text, 1, len, fp);
	}
	free(text);
}

void dump__feature_event(struct perf_session *session, const struct perf_event_header *event,
			 FILE *fp, bool full)
{
	const struct perf_record_header_feature *f = (const void *)event;

	if (event->type != PERF_RECORD_HEADER_FEATURE || event->size < sizeof(*f))
		return;
	if (!f->feat_id || f->feat_id >= FEAT_NR)
		return;
	dump__header_feature(fp, session, (int)f->feat_id, (const u8 *)f->data,
			     event->size - sizeof(*f), full);
}

static int open_input(const struct perf_session *session)
{
	const char *name = perf_data__name(session->data);

	if (!strcmp(name, "-"))
		return dup(STDIN_FILENO);
	return open(name, O_RDONLY | O_CLOEXEC);
}

/* the file-mode feature sections, in bit order, read again from the input */
static void dump__file_features(FILE *fp, struct perf_session *session, int fd, bool full)
{
	const struct perf_file_header *h = perf_data__file_header(session->data);
	bool swapped = perf_data__needs_swap(session->data);
	u64 table = h->data.offset + h->data.size;
	struct stat st;
	int idx = 0;

	if (fstat(fd, &st))
		return;
	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++) {
		struct perf_file_section sec;
		struct dump_buf b;
		u8 *buf;

		if (!((h->adds_features[feat / 64] >> (feat % 64)) & 1))
			continue;
		if (pread(fd, &sec, sizeof(sec), (off_t)(table + (u64)idx++ * sizeof(sec))) !=
		    (ssize_t)sizeof(sec))
			return;
		dump_buf__init(&b, &sec, sizeof(sec), swapped);
		sec.offset = dump_buf__u64(&b);
		sec.size = dump_buf__u64(&b);
		if (feat >= FEAT_NR || sec.offset > (u64)st.st_size ||
		    sec.size > (u64)st.st_size - sec.offset)
			continue;
		buf = malloc(sec.size ? sec.size : 1);
		if (!buf)
			return;
		if (pread(fd, buf, sec.size, (off_t)sec.offset) == (ssize_t)sec.size)
			dump__header_feature(fp, session, feat, buf, sec.size, full);
		free(buf);
	}
}

void dump__header(struct perf_session *session, FILE *fp, bool full)
{
	const struct perf_file_header *h = perf_data__file_header(session->data);
	bool pipe = perf_data__is_pipe(session->data);
	int fd = open_input(session);
	struct stat st;

	fputs("# ========\n", fp);
	if (fd >= 0 && !fstat(fd, &st)) {
		time_t mtime = st.st_mtime;

		fprintf(fp, "# captured on    : %s", ctime(&mtime));
	}
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", pipe ? 0 : h->data.offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", pipe ? 0 : h->data.size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", pipe ? 0 : h->data.offset + h->data.size);
	if (!pipe) {
		if (fd >= 0)
			dump__file_features(fp, session, fd, full);
		fprintf(fp, "# missing features: ");
		for (int feat = 1; feat < FEAT_NR; feat++)
			if (!((h->adds_features[feat / 64] >> (feat % 64)) & 1))
				fprintf(fp, "%s ", feats[feat].name);
		fprintf(fp, "\n");
	}
	fputs("# ========\n#\n", fp);
	if (fd >= 0)
		close(fd);
}
