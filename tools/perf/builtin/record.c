// SPDX-License-Identifier: GPL-2.0
/*
 * perf record: run a command (or watch running threads, or CPUs) and write its samples to
 * perf.data or a pipe. Option parsing and wiring only: events are parsed in
 * util/parse-events.c, opened in util/evlist-open.c, read in util/ring-buffer.c and
 * util/record-loop.c, the workload started by util/workload.c, the side-band, header
 * features and build ids come from util/record-synth.c, util/record-features.c and
 * util/build-id-list.c, and the output is tools/lib/perf/writer.c. What changes a running
 * recording (-D, --control, --switch-output[-event], --max-size) is util/record-trigger.c,
 * which calls back here to finish a file and begin the next (record__output_end/_begin);
 * --overwrite's backward rings are read by util/record-overwrite.c.
 *
 * --defer: defer_callchain (attr bit 38) on every sampling event with callchains,
 * defer_output (39) on the side-band event. A kernel without deferred callchains (< 6.19)
 * answers EINVAL: both bits are cleared and the recording is what the report side needs to
 * repair the top of inline frame-pointer chains: the kernel's user callchain, user regs
 * (ip, sp, bp) and a small user stack dump. Deferring kernels get the same regs and dump
 * unless --no-repair-data. The report side tells the kinds apart by the attr alone
 * (record-iface: regs + stack with the kernel's user callchain = FP walk with repair).
 */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/event.h>
#include <perf/writer.h>
#include "builtin.h"
#include "util/build-id-list.h"
#include "util/evlist-open.h"
#include "util/parse-events.h"
#include "util/parse-options.h"
#include "util/proc-children.h"
#include "util/record-events.h"
#include "util/record-cgroup.h"
#include "util/record-features.h"
#include "util/record-kcore.h"
#include "util/record-lost.h"
#include "util/record-loop.h"
#include "util/record-opts.h"
#include "util/record-output.h"
#include "util/record-overwrite.h"
#include "util/record-probe.h"
#include "util/record-rate.h"
#include "util/record-sample.h"
#include "util/record-sb.h"
#include "util/record-sideband.h"
#include "util/record-synth.h"
#include "util/record-synth-events.h"
#include "util/record-trigger.h"
#include "util/record-unsupported.h"
#include "util/tracing-data.h"
#include "util/workload.h"

/* perf's default: 512 KB of ring per CPU (128 pages of 4 KB) */
#define DEFAULT_MMAP_PAGES	128
/* perf's --call-graph dwarf default */
#define DEFAULT_DWARF_STACK	8192
/*
 * The user stack dump of the fallback and of the repair data: it must hold the frames of
 * code without frame pointers between the sampled SP and the kernel chain's first right
 * return address (all of libc: glibc >= 2.41's read -> __syscall_cancel -> the syscall,
 * stdio, malloc's slow path, libstdc++'s streams). The smallest size (in 64-byte steps)
 * that keeps >= 99.95% of callers right on every built-in workload, on glibc 2.36 and
 * 2.43: see Documentation/perf-record.txt, "Stack dump size". On perf test -w calls a
 * sample costs 833 bytes against 145 with plain -g (5.8x; bench/run.sh record_size).
 */
#define DEFAULT_REPAIR_STACK	640
/* what DWARF unwinding cannot do without: ip and sp */
#define DWARF_MINIMAL_REGS	((1ULL << PERF_REG_X86_IP) | (1ULL << PERF_REG_X86_SP))
/* the kernel's limit on sample_stack_user (a u16 sample size, rounded to u64) */
#define MAX_STACK_DUMP		65528
/* ip, sp and bp: what the top-frame repair reads */
#define REPAIR_REGS_MASK	((1ULL << PERF_REG_X86_IP) | (1ULL << PERF_REG_X86_SP) | \
				 (1ULL << PERF_REG_X86_BP))

enum callchain_mode {
	CALLCHAIN_NONE,
	CALLCHAIN_FP,
	CALLCHAIN_DWARF,
};

struct record {
	/* options */
	struct parsed_events	evs;
	const char		*output;	/* NULL until cmd_record decides: no -o given */
	const char		*freq;
	unsigned long long	count;
	enum callchain_mode	callchain;
	unsigned int		dwarf_size;
	bool			defer;
	int			repair_size;	/* -1: DEFAULT_REPAIR_STACK */
	bool			no_repair;
	bool			all_cpus;
	const char		*pid, *tid, *cpu_list;
	const char		*uid;		/* -u: a user's name or number */
	bool			uid_filtering;	/* -u with -a/-C: uid_filter is set up */
	bool			*wide;		/* -C: [event], on every online cpu (target.wide) */
	int			*wide_cpus;
	struct uid_filter	uid_filter;
	const char		*cgroups;	/* -G: the list as given */
	size_t			nr_cgroup_events;	/* -G: the events given before it */
	int			*cgroup_fds;	/* -G: per event, -1 none (record-cgroup.h) */
	bool			per_thread;
	int			comp_level;
	const char		*mmap_pages;
	bool			no_inherit;
	bool			switch_events;
	bool			sample_cpu;
	struct record_sample_opts sample;	/* -d -T -P -W -s -R -n -k -b -j, regs */
	bool			quiet;
	int			verbose;
	bool			no_buildid_cache;
	bool			no_buildid;	/* -B: no build ids in the file, none cached */
	bool			no_bpf_event;
	/* --buildid-all: what this perf does always (build-id-list.h: every DSO mapped) */
	bool			buildid_all;
	bool			namespaces;	/* --namespaces */
	bool			all_cgroups;	/* --all-cgroups */
	unsigned int		synth;		/* --synth: RECORD_SYNTH_* of existing tasks */
	const char		*threads;	/* --threads: the spec, read by one thread here */
	bool			buildid_mmap;	/* --buildid-mmap: build ids in MMAP2 only */
	bool			kcore;		/* --kcore: output is a directory (record-kcore.h) */
	char			*out_file;	/* the file written: output, or output/data (--kcore) */
	bool			event_error;	/* an -e callback failed (it said why) */
	char			tracefs[256];	/* found at the first tracepoint, "" before */
	int			cmd_argc;	/* "record" and its arguments, for HEADER_CMDLINE */
	const char		**cmd_argv;
	/* output and control: -D, --control, --switch-output, --max-size live in trig */
	struct record_trigger	trig;
	bool			timestamp_filename;
	bool			tail_synth;
	bool			overwrite;
	int			realtime;	/* SCHED_FIFO priority, 0: none */
	u64			mmap_flush;	/* bytes, 0: perf's default (1) */
	const char		*affinity;	/* node, cpu: accepted, see perf-record.txt */

	/* the recording */
	struct perf_event_attr	*attrs;
	struct perf_evattr	*evattrs;	/* attrs with ids and positions, for the stats */
	struct evlist_target	target;
	int			*cpus;
	pid_t			*ids;		/* -p/-t as given: what is synthesized */
	size_t			nr_ids;
	pid_t			*tids;		/* their threads: what is opened */
	struct workload		wl;
	struct evlist_open	el;
	struct perf_writer	*w;
	struct build_id_list	*build_ids;	/* from MMAP2 as they pass, and the kernel's */
	bool			defer_fallback;	/* the kernel refused bit 38 */
	struct record_overwrite	ow;		/* --overwrite: where each ring was dumped */
	struct record_sb	sb;		/* --switch-output-event's events */
	sigset_t		poll_mask;	/* the mask before SIGUSR2 was blocked */
	u32			nr_files;	/* output files begun (--switch-output: more) */
	int			dummy;		/* -D: the side-band's own event (perf's dummy:HG), -1 none */
	enum probe_result	defer_probe;	/* --defer: what the kernel said of bit 38 alone */
	size_t			tracking;	/* the side-band event: the dummy's, else the first */
};

/* the signal that stopped us (SIGINT, SIGTERM), 0 none: set by the handlers only */
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_flag;
/* SIGUSR2 with --switch-output: the trigger switches files at its next tick */
static volatile sig_atomic_t switch_flag;

static void record__sig_switch(int sig)
{
	(void)sig;
	switch_flag = 1;
}

static void record__sig_stop(int sig)
{
	stop_signal = sig;
	stop_flag = 1;
}

/* interrupts poll() so the loop sees the workload's exit at once */
static void record__sig_child(int sig)
{
	(void)sig;
}

static bool record__stdout_is_fifo(void)
{
	struct stat st;

	return !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode);
}

static const char *const record_usage[] = {
	"perf record [<options>] [<command>]",
	"perf record [<options>] -- <command> [<options>]",
	NULL
};

static int record__tracepoint_id(void *ctx, const char *name, u64 *id, struct perf_err *err)
{
	struct record *rec = ctx;
	int ret;

	if (!rec->tracefs[0]) {
		ret = tracefs__find(NULL, rec->tracefs, sizeof(rec->tracefs), err);
		if (ret) {
			rec->tracefs[0] = '\0';
			return ret;
		}
	}
	return tracepoint__id(rec->tracefs, name, id, err);
}

/* --synth: which of the running tasks' state is synthesized from /proc */
enum {
	RECORD_SYNTH_TASK	= 1 << 0,	/* COMM (and FORK) of each thread */
	RECORD_SYNTH_MMAP	= 1 << 1,	/* and the maps of each process */
	RECORD_SYNTH_CGROUP	= 1 << 2,	/* the cgroups of --all-cgroups */
	RECORD_SYNTH_ALL	= RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP | RECORD_SYNTH_CGROUP,
};

static int record__opt_synth(const struct option *opt, const char *arg, bool unset)
{
	unsigned int *synth = opt->value;
	char buf[128];

	if (unset) {
		*synth = 0;
		return 0;
	}
	*synth = 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "no"))
			*synth = 0;
		else if (!strcmp(t, "all"))
			*synth = RECORD_SYNTH_ALL;
		else if (!strcmp(t, "task"))
			*synth |= RECORD_SYNTH_TASK;
		else if (!strcmp(t, "mmap"))
			*synth |= RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP;
		else if (!strcmp(t, "cgroup"))
			*synth |= RECORD_SYNTH_CGROUP;
		else
			return parse_options__error(opt, false,
						    "unknown type '%s' (no, all, task, mmap, cgroup)", t);
	}
	return 0;
}

/*
 * --threads[=cpu|core|package|numa|MASKS]: upstream reads the rings from a thread per mask
 * into a data file each. The one reader here keeps up on its own (bench/), and the output
 * stays one perf.data file: the spec is checked and kept for the note, nothing more.
 */
static int record__opt_threads(const struct option *opt, const char *arg, bool unset)
{
	const char **spec = opt->value;

	if (unset) {
		*spec = NULL;
		return 0;
	}
	if (!arg)
		arg = "cpu";
	if (strcmp(arg, "cpu") && strcmp(arg, "core") && strcmp(arg, "package") &&
	    strcmp(arg, "numa") && (!*arg || arg[strspn(arg, "0123456789,-/:")]))
		return parse_options__error(opt, false,
					    "spec '%s': cpu, core, package, numa or masks (0-3/0-3:4-7/4-7)",
					    arg);
	*spec = arg;
	return 0;
}

static int record__opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct record *rec = opt->value;
	struct perf_err err;

	(void)unset;
	if (parse_events__add(&rec->evs, arg, record__tracepoint_id, rec, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		rec->event_error = true;
		return -1;
	}
	return 0;
}

/* --filter and --exclude-perf: on the tracepoints of the -e before */
static int record__opt_filter(const struct option *opt, const char *arg, bool unset)
{
	struct record *rec = opt->value;
	struct perf_err err;

	(void)unset;
	if (parse_events__add_filter(&rec->evs, arg, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		rec->event_error = true;
		return -1;
	}
	return 0;
}

static int record__opt_exclude_perf(const struct option *opt, const char *arg, bool unset)
{
	struct record *rec = opt->value;
	struct perf_err err;

	(void)arg;
	(void)unset;
	if (parse_events__exclude_perf(&rec->evs, getpid(), &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		rec->event_error = true;
		return -1;
	}
	return 0;
}

/* -G: perf's rule, the events named before it are the ones its list is for */
static int record__opt_cgroup(const struct option *opt, const char *arg, bool unset)
{
	struct record *rec = opt->value;

	if (unset) {
		rec->cgroups = NULL;
		return 0;
	}
	if (!rec->evs.nr)
		return parse_options__error(opt, false, "must define events before cgroups (-e ... -G %s)",
					    arg);
	rec->cgroups = arg;
	rec->nr_cgroup_events = rec->evs.nr;
	return 0;
}

static int record__parse_size(const char *arg, unsigned int max, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* fp | dwarf[,size] | fp,defer[,size] (size: the repair dump with defer) */
static int record__opt_call_graph(const struct option *opt, const char *arg, bool unset)
{
	struct record *rec = opt->value;
	char *copy, *mode, *next, *save = NULL;
	int ret = 0;

	if (unset) {
		rec->callchain = CALLCHAIN_NONE;
		rec->defer = false;
		return 0;
	}
	copy = strdup(arg);
	if (!copy)
		return parse_options__error(opt, false, "out of memory");
	mode = strtok_r(copy, ",", &save);
	next = strtok_r(NULL, ",", &save);
	if (mode && !strcmp(mode, "fp")) {
		rec->callchain = CALLCHAIN_FP;
		if (next && !strcmp(next, "defer")) {
			unsigned int size;

			rec->defer = true;
			next = strtok_r(NULL, ",", &save);
			if (next && record__parse_size(next, MAX_STACK_DUMP, &size))
				ret = parse_options__error(opt, false,
							   "stack dump size '%s': a number of bytes from 0 to %d",
							   next, MAX_STACK_DUMP);
			else if (next)
				rec->repair_size = (int)size;
			next = NULL;
		}
		if (!ret && next)
			ret = parse_options__error(opt, false,
						   "'%s' after fp: only 'defer' (fp,defer[,SIZE])", next);
	} else if (mode && !strcmp(mode, "dwarf")) {
		rec->callchain = CALLCHAIN_DWARF;
		rec->dwarf_size = DEFAULT_DWARF_STACK;
		if (next && !strcmp(next, "defer"))
			ret = parse_options__error(opt, false, "deferred callchain only works with FP");
		else if (next && (record__parse_size(next, MAX_STACK_DUMP, &rec->dwarf_size) ||
				  !rec->dwarf_size))
			ret = parse_options__error(opt, false,
						   "dwarf stack size '%s': a number of bytes from 8 to %d",
						   next, MAX_STACK_DUMP);
		rec->dwarf_size = (rec->dwarf_size + 7) & ~7u;
	} else if (mode && !strcmp(mode, "lbr")) {
		ret = parse_options__error(opt, false, "%s", record_unsupported__lbr());
	} else {
		ret = parse_options__error(opt, false, "unknown mode '%s': fp, dwarf[,size] or fp,defer",
					   mode ? mode : "");
	}
	free(copy);
	return ret;
}

static int record__opt_g(const struct option *opt, const char *arg, bool unset)
{
	struct record *rec = opt->value;

	(void)arg;
	if (!unset && rec->callchain == CALLCHAIN_NONE)
		rec->callchain = CALLCHAIN_FP;
	if (unset)
		rec->callchain = CALLCHAIN_NONE;
	return 0;
}

static int record__opt_compression(const struct option *opt, const char *arg, bool unset)
{
	struct record *rec = opt->value;
	char *end;
	long v;

	if (unset) {
		rec->comp_level = 0;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > 19)
		return parse_options__error(opt, false, "level '%s': a number from 1 to 19", arg);
	rec->comp_level = (int)v;
	return 0;
}

static long sysctl_long(const char *path, long dflt)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		return dflt;
	if (fscanf(f, "%ld", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/* -F against kernel.perf_event_max_sample_rate (util/record-rate.c), warnings said here */
static int record__freq(const struct record *rec, u64 *freq)
{
	long max = sysctl_long("/proc/sys/kernel/perf_event_max_sample_rate", 100000);
	char msg[512];

	if (rec->freq && rec->count) {
		/* perf's words */
		fprintf(stderr, "perf record: cannot set frequency and period at the same time (-F %s, -c %llu): drop one\n",
			rec->freq, rec->count);
		return -EINVAL;
	}
	if (record_rate__freq(rec->freq, (u64)max, rec->sample.strict_freq, freq, msg,
			      sizeof(msg))) {
		fprintf(stderr, "perf record: %s\n", msg);
		return -EINVAL;
	}
	if (msg[0] && !rec->quiet && !rec->count)
		fputs(msg, stderr);
	return 0;
}

/* -m: pages or a size, rounded up to a power of two of pages as perf does */
static int record__mmap_pages(const struct record *rec, size_t *pages)
{
	char msg[256];

	*pages = DEFAULT_MMAP_PAGES;
	if (!rec->mmap_pages)
		return 0;
	if (record_rate__mmap_pages(rec->mmap_pages, (size_t)sysconf(_SC_PAGESIZE), pages, msg,
				    sizeof(msg))) {
		fprintf(stderr, "perf record: %s\n", msg);
		return -EINVAL;
	}
	if (msg[0] && !rec->quiet)
		fputs(msg, stderr);
	return 0;
}

static bool record__has_workload_target(const struct record *rec)
{
	return rec->target.kind == EVLIST_TARGET_WORKLOAD;
}

/* -o -: a pipe-mode stream on standard output */
static bool record__is_pipe(const struct record *rec)
{
	return !strcmp(rec->output, "-");
}

static int record__repair_size(const struct record *rec)
{
	return rec->repair_size >= 0 ? rec->repair_size : DEFAULT_REPAIR_STACK;
}

/* the repair data: user regs + a small dump, beside the kernel's own user callchain */
static void attr__add_repair(struct perf_event_attr *a, int size)
{
	a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a->sample_regs_user = REPAIR_REGS_MASK;
	a->sample_stack_user = (u32)size;
}

/* the sample layout of every event, perf's choices */
static int record__config_attrs(struct record *rec)
{
	bool cpu = rec->sample_cpu || rec->target.kind == EVLIST_TARGET_CPUS;
	bool repair = rec->defer && !rec->no_repair && record__repair_size(rec) > 0;
	struct record_sample_where where = {
		.time_by_default = !rec->target.per_thread,
	};
	const struct sideband_opts sb = {
		.build_id = true, .switch_events = rec->switch_events, .defer_output = rec->defer,
		.bpf = !rec->no_bpf_event, .namespaces = rec->namespaces, .cgroup = rec->all_cgroups,
	};
	u64 freq;

	if (record__freq(rec, &freq))
		return -EINVAL;
	rec->attrs = calloc(rec->evs.nr, sizeof(*rec->attrs));
	if (!rec->attrs)
		return -ENOMEM;
	for (size_t i = 0; i < rec->evs.nr; i++) {
		struct perf_event_attr *a = &rec->attrs[i];
		bool tp = rec->evs.ev[i].attr.type == PERF_TYPE_TRACEPOINT;

		*a = rec->evs.ev[i].attr;
		a->size = sizeof(*a);
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
		/*
		 * a tracepoint's own sample layout in perf (the cpu: theirs only, not the other
		 * events'); TIME and -P/--no-period are record_sample's rules
		 */
		if (tp)
			a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
					  PERF_SAMPLE_CPU;
		if (cpu)
			a->sample_type |= PERF_SAMPLE_CPU;
		if (rec->all_cgroups)
			a->sample_type |= PERF_SAMPLE_CGROUP;
		a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		if (rec->count) {
			a->sample_period = rec->count;
		} else if (tp) {
			a->sample_period = 1;	/* every hit, as perf samples tracepoints */
		} else {
			/* the period changes with the rate: each sample says it */
			a->sample_period = freq;
			a->flags |= PERF_ATTR_FLAG(FREQ);
			a->sample_type |= PERF_SAMPLE_PERIOD;
		}
		/* exclude_guest and the other modifier bits come from the event's syntax */
		a->flags |= PERF_ATTR_FLAG(DISABLED) | PERF_ATTR_FLAG(SAMPLE_ID_ALL);
		/* the kernel maps no inherited event of cpu -1 (--per-thread) */
		if (!rec->no_inherit && !rec->target.per_thread)
			a->flags |= PERF_ATTR_FLAG(INHERIT);
		/* -D: off at the exec too, until the trigger enables them */
		if (record__has_workload_target(rec) && !rec->trig.delay.set)
			a->flags |= PERF_ATTR_FLAG(ENABLE_ON_EXEC);
		if (rec->overwrite)
			a->flags |= PERF_ATTR_FLAG(WRITE_BACKWARD);
		if ((int)i == rec->dummy)
			sideband__config_dummy(a, rec->target.kind == EVLIST_TARGET_CPUS);
		if (i == rec->tracking)
			sideband__config_tracking(a, &sb);
		switch (rec->callchain) {
		case CALLCHAIN_NONE:
			break;
		case CALLCHAIN_FP:
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
			if (rec->defer)
				a->flags |= PERF_ATTR_FLAG(DEFER_CALLCHAIN);
			if (repair)
				attr__add_repair(a, record__repair_size(rec));
			break;
		case CALLCHAIN_DWARF:
			a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
					  PERF_SAMPLE_STACK_USER;
			/* with --user-regs perf takes ip and sp, and the user's, not all */
			a->sample_regs_user = rec->sample.user_regs ? DWARF_MINIMAL_REGS :
								      PERF_REGS_X86_64_USER_MASK;
			a->sample_stack_user = rec->dwarf_size;
			a->flags |= PERF_ATTR_FLAG(EXCLUDE_CALLCHAIN_USER);
			/* perf's data addresses (-d) come with rec->sample.data, set for dwarf */
			break;
		default:
			break;
		}
		where.tracking = i == rec->tracking;
		record_sample__config_attr(&rec->sample, a, &where);
	}
	/*
	 * groups, :S, and then which sample id several events need (ID when their layouts
	 * agree, else IDENTIFIER, as perf; one event into a pipe gets ID): record_events__config
	 */
	record_events__config(&rec->evs, rec->attrs, record__is_pipe(rec));
	return 0;
}

static void record__print_paranoid(const struct record *rec, int errnum)
{
	long paranoid = sysctl_long("/proc/sys/kernel/perf_event_paranoid", 2);
	bool cpus = rec->target.kind == EVLIST_TARGET_CPUS;

	/* system-wide needs <= 0; a process of one's own <= 2 (Debian's 3 refuses all) */
	fprintf(stderr, "perf record: perf_event_open: %s: kernel.perf_event_paranoid is %ld, which allows %s; run as root (or with CAP_PERFMON), or lower it: sysctl -w kernel.perf_event_paranoid=%d\n",
		strerror(errnum), paranoid,
		cpus ? "no system-wide profiling (-a, -C) to unprivileged users" :
		       "no profiling of this target to unprivileged users",
		cpus ? 0 : paranoid > 2 ? 2 : (int)paranoid - 1);
}

/*
 * No deferred callchains in this kernel: neither bit, and the inline chains get the repair
 * data (user regs and a small dump) unless --no-repair-data
 */
static void record__defer_fall_back(struct record *rec)
{
	int size = rec->no_repair ? 0 : record__repair_size(rec);

	for (size_t i = 0; i < rec->evs.nr; i++) {
		rec->attrs[i].flags &= ~(PERF_ATTR_FLAG(DEFER_CALLCHAIN) |
					 PERF_ATTR_FLAG(DEFER_OUTPUT));
		if (size && (rec->attrs[i].sample_type & PERF_SAMPLE_CALLCHAIN))
			attr__add_repair(&rec->attrs[i], size);
	}
	rec->defer_fallback = true;
	if (rec->quiet)
		return;
	if (size)
		fprintf(stderr, "perf record: this kernel has no deferred user callchains (attr.defer_callchain, Linux >= 6.19): recording inline frame-pointer callchains with user regs and a %d-byte user stack dump instead, to repair their top frames\n",
			size);
	else
		fprintf(stderr, "perf record: this kernel has no deferred user callchains (attr.defer_callchain, Linux >= 6.19): recording inline frame-pointer callchains instead\n");
}

/*
 * -p/-t of another user's process: the kernel refuses it (EACCES) whatever the paranoid
 * setting, because observing a task takes ptrace read access to it. True when said so.
 */
static bool record__print_foreign(const struct record *rec, int errnum)
{
	struct passwd *pw;
	uid_t owner;
	pid_t tid;

	if (rec->target.kind != EVLIST_TARGET_THREADS ||
	    !thread_list__foreign(rec->target.tids, rec->target.nr_tids, &tid, &owner))
		return false;
	pw = getpwuid(owner);
	fprintf(stderr, "perf record: %s %s: perf_event_open: %s: task %d belongs to user %s (uid %u), and observing another user's task takes ptrace access to it: run as that user or as root, or with CAP_SYS_PTRACE (kernel.perf_event_paranoid is not the cause)\n",
		rec->uid ? "-u" : rec->pid ? "-p" : "-t",
		rec->uid ? rec->uid : rec->pid ? rec->pid : rec->tid, strerror(errnum), tid,
		pw ? pw->pw_name : "?", (unsigned int)owner);
	return true;
}

/*
 * perf_event_open on the target, with perf's fallbacks: no deferred callchains, no build ids
 * in MMAP2, no kernel samples at paranoid 2, cpu-clock instead of a missing PMU event.
 */
static int record__open(struct record *rec, size_t pages)
{
	struct perf_err err;
	char msg[512];

	/*
	 * Bit 38 asked of the kernel alone first (record-probe.h): then an EINVAL of the real
	 * events is their own (a 6.19 kernel refusing something else), not "no deferred support"
	 */
	if (rec->defer) {
		rec->defer_probe = probe__defer_callchain(NULL);
		if (rec->verbose)
			fprintf(stderr, "perf record: deferred callchain probe: %s\n",
				rec->defer_probe == PROBE_PRESENT ? "supported" :
				rec->defer_probe == PROBE_MISSING ? "not supported" : "no answer");
		if (rec->defer_probe == PROBE_MISSING)
			record__defer_fall_back(rec);
	}
	for (;;) {
		struct perf_event_attr *a;
		int e, errnum;

		if (!record_events__open(&rec->el, &rec->evs, rec->attrs, &rec->target, pages, &err))
			return 0;
		if (rec->el.failed_mmap) {
			fprintf(stderr, "perf record: %s: use a smaller -m, or raise kernel.perf_event_mlock_kb (now %ld)\n",
				err.msg, sysctl_long("/proc/sys/kernel/perf_event_mlock_kb", 516));
			return -rec->el.failed_errno;
		}
		e = rec->el.failed_event;
		errnum = rec->el.failed_errno;
		if (e < 0) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return -errnum;
		}
		a = &rec->attrs[e];
		/* the probe could not tell: a refusal of bit 38 or 39 says it instead, as before */
		if (errnum == EINVAL && rec->defer_probe == PROBE_UNKNOWN &&
		    (a->flags & (PERF_ATTR_FLAG(DEFER_CALLCHAIN) | PERF_ATTR_FLAG(DEFER_OUTPUT)))) {
			record__defer_fall_back(rec);
			continue;
		}
		if (errnum == EINVAL && (a->flags & (PERF_ATTR_FLAG(KSYMBOL) |
						     PERF_ATTR_FLAG(BPF_EVENT)))) {
			/* Linux < 5.1, as perf: BPF programs go without their symbols */
			a->flags &= ~(PERF_ATTR_FLAG(KSYMBOL) | PERF_ATTR_FLAG(BPF_EVENT));
			if (rec->verbose)
				fprintf(stderr, "perf record: no ksymbol or bpf_event records on this kernel\n");
			continue;
		}
		if (errnum == EINVAL && (a->flags & PERF_ATTR_FLAG(BUILD_ID))) {
			/* Linux < 5.12: build ids come from the files at the end instead */
			a->flags &= ~PERF_ATTR_FLAG(BUILD_ID);
			if (rec->verbose)
				fprintf(stderr, "perf record: no build ids in MMAP2 on this kernel\n");
			continue;
		}
		if ((errnum == EACCES || errnum == EPERM) && record__print_foreign(rec, errnum))
			return -errnum;
		if ((errnum == EACCES || errnum == EPERM) &&
		    !(a->flags & PERF_ATTR_FLAG(EXCLUDE_KERNEL)) &&
		    rec->target.kind != EVLIST_TARGET_CPUS &&
		    sysctl_long("/proc/sys/kernel/perf_event_paranoid", 2) >= 2) {
			for (size_t i = 0; i < rec->evs.nr; i++)
				rec->attrs[i].flags |= PERF_ATTR_FLAG(EXCLUDE_KERNEL) |
						       PERF_ATTR_FLAG(EXCLUDE_HV);
			if (!rec->quiet)
				fprintf(stderr, "perf record: kernel.perf_event_paranoid=%ld, trying to fall back to excluding kernel and hypervisor samples\n",
					sysctl_long("/proc/sys/kernel/perf_event_paranoid", 2));
			continue;
		}
		if (errnum == EACCES || errnum == EPERM) {
			record__print_paranoid(rec, errnum);
			return -errnum;
		}
		if (record_events__retry(&rec->evs, rec->attrs, (size_t)e, errnum))
			continue;
		if (parse_events__fallback(&rec->evs.ev[e], rec->target.kind == EVLIST_TARGET_CPUS,
					   errnum, msg, sizeof(msg))) {
			a->type = rec->evs.ev[e].attr.type;
			a->config = rec->evs.ev[e].attr.config;
			if (!rec->quiet && (!rec->evs.ev[e].is_default || rec->verbose))
				fprintf(stderr, "Warning:\n%s\n", msg);
			continue;
		}
		if (errnum == ESRCH) {
			fprintf(stderr, "perf record: the target exited before it could be recorded (%s)\n",
				err.msg);
			return -errnum;
		}
		if (record_sample__open_error(&rec->sample, a, errnum, msg, sizeof(msg))) {
			fprintf(stderr, "perf record: cannot open event '%s': %s\n",
				rec->evs.ev[e].name, msg);
			return -errnum;
		}
		if (parse_events__open_strerror(&rec->evs, (size_t)e, errnum,
						rec->target.kind == EVLIST_TARGET_CPUS, msg, sizeof(msg)))
			fprintf(stderr, "perf record: %s\n", msg);
		else if (errnum == EINVAL && a->type < PERF_TYPE_MAX && a->sample_period &&
			 (a->flags & PERF_ATTR_FLAG(FREQ)))
			fprintf(stderr, "perf record: event '%s' refused (%s): is -F %llu within kernel.perf_event_max_sample_rate?\n",
				rec->evs.ev[e].name, err.msg, (unsigned long long)a->sample_period);
		else
			fprintf(stderr, "perf record: cannot open event '%s': %s\n",
				rec->evs.ev[e].name, err.msg);
		return -errnum;
	}
}

static int record__setup_target(struct record *rec)
{
	struct perf_err err;
	int ret;

	if (rec->uid) {
		uid_t uid;

		if (uid__parse(rec->uid, &uid)) {
			fprintf(stderr, "perf record: -u %s: no such user\n", rec->uid);
			return -EINVAL;
		}
		/* with -a/-C every task is counted, and the user's samples kept (as perf 7.x) */
		if (rec->all_cpus || rec->cpu_list) {
			uid_filter__init(&rec->uid_filter, uid, "/proc");
			rec->uid_filtering = true;
			goto cpus;
		}
		rec->target.kind = EVLIST_TARGET_THREADS;
		ret = uid__threads(uid, &rec->ids, &rec->nr_ids, &rec->tids, &rec->target.nr_tids,
				   &err);
		if (ret) {
			fprintf(stderr, "perf record: -u %s: %s\n", rec->uid, err.msg);
			return ret;
		}
	} else if (rec->pid || rec->tid) {
		const char *spec = rec->pid ? rec->pid : rec->tid;

		rec->target.kind = EVLIST_TARGET_THREADS;
		ret = id_list__parse(spec, &rec->ids, &rec->nr_ids, &err);
		if (ret == -EINVAL) {
			fprintf(stderr, "perf record: %s %s: not a list of %s ids (e.g. 1234,1240)\n",
				rec->pid ? "-p" : "-t", spec, rec->pid ? "process" : "thread");
			return ret;
		}
		if (!ret)
			ret = thread_list__expand(rec->ids, rec->nr_ids, rec->pid != NULL, &rec->tids,
						  &rec->target.nr_tids, &err);
		if (ret) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return ret;
		}
	}
	if (rec->target.kind == EVLIST_TARGET_THREADS) {
		rec->target.tids = rec->tids;
		rec->target.per_thread = rec->per_thread;
		if (rec->per_thread)
			return 0;
		ret = cpu_list__expand(NULL, &rec->cpus, &rec->target.nr_cpus, &err);
		if (ret) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return ret;
		}
		rec->target.cpus = rec->cpus;
		return 0;
	}
cpus:
	rec->target.kind = rec->all_cpus || rec->cpu_list ? EVLIST_TARGET_CPUS :
							     EVLIST_TARGET_WORKLOAD;
	rec->target.per_thread = rec->per_thread && rec->target.kind == EVLIST_TARGET_WORKLOAD;
	if (rec->cgroups) {
		ret = cgroup_fds__open(rec->cgroups, rec->nr_cgroup_events, &rec->cgroup_fds, &err);
		if (ret) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return ret;
		}
		rec->target.cgroup_fds = rec->cgroup_fds;
		rec->target.nr_cgroup_fds = rec->nr_cgroup_events;
	}
	ret = cpu_list__expand(rec->cpu_list, &rec->cpus, &rec->target.nr_cpus, &err);
	if (ret) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return ret;
	}
	rec->target.cpus = rec->cpus;
	return 0;
}

/* a later file of --switch-output: the same attrs and ids as the first */
static int record__readd_attrs(struct record *rec)
{
	struct perf_err err;

	for (size_t i = 0; i < rec->evs.nr; i++) {
		const struct perf_evattr *ea = &rec->evattrs[i];

		if (perf_writer__add_attr(rec->w, &ea->attr, ea->ids, ea->nr_ids,
					  rec->evs.ev[i].name, &err) < 0) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return -EIO;
		}
	}
	return 0;
}

/* the attrs as the writer and the stats see them: with their ids */
static int record__add_attrs(struct record *rec)
{
	struct perf_err err;
	u64 *ids;
	int ret = 0;

	if (rec->evattrs)
		return record__readd_attrs(rec);
	ids = calloc(rec->el.nr_slots, sizeof(*ids));
	rec->evattrs = calloc(rec->evs.nr, sizeof(*rec->evattrs));
	if (!ids || !rec->evattrs) {
		free(ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rec->evs.nr && !ret; i++) {
		size_t n = evlist_open__event_ids(&rec->el, i, ids);
		struct perf_evattr *ea = &rec->evattrs[i];

		/* the attr's index, or -errno */
		ret = perf_writer__add_attr(rec->w, &rec->attrs[i], ids, n, rec->evs.ev[i].name, &err);
		if (ret < 0) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			break;
		}
		ret = 0;
		ea->attr = rec->attrs[i];
		ea->name = rec->evs.ev[i].name;	/* borrowed: evs outlives evattrs */
		ea->ids = malloc(n * sizeof(*ids));
		if (!ea->ids) {
			ret = -ENOMEM;
			break;
		}
		memcpy(ea->ids, ids, n * sizeof(*ids));
		ea->nr_ids = n;
		ea->idx = (int)i;
		perf_evattr__init_positions(ea);
	}
	free(ids);
	return ret;
}

static int record__write_simple(struct record *rec, u32 type)
{
	struct perf_event_header h = { .type = type, .size = sizeof(h) };
	struct perf_err err;
	int ret = perf_writer__write(rec->w, &h, &err);

	if (ret)
		fprintf(stderr, "perf record: %s\n", err.msg);
	return ret;
}

/* every map of the recording, the kernel's and ours, gives its build id on the way */
static int record__see(void *ctx, const struct perf_event_header *ev)
{
	struct record *rec = ctx;
	struct perf_err err;
	int ret;

	if (ev->type != PERF_RECORD_MMAP2 && ev->type != PERF_RECORD_MMAP)
		return 0;
	ret = build_id_list__add_event(rec->build_ids, ev, &err);
	if (ret)
		fprintf(stderr, "perf record: %s\n", err.msg);
	return ret;
}

static int record__emit(void *ctx, const struct perf_event_header *ev)
{
	struct record *rec = ctx;
	struct perf_err err;
	int ret = record__see(rec, ev);

	if (!ret)
		ret = perf_writer__write(rec->w, ev, &err);
	if (ret)
		fprintf(stderr, "perf record: %s\n", err.msg);
	return ret;
}

/* HEADER_TRACING_DATA for the tracepoints among the events */
static int record__tracing_data(struct record *rec)
{
	const char **names = calloc(rec->evs.nr, sizeof(*names));
	struct perf_err err;
	size_t nr = 0, size;
	void *data = NULL;
	int ret = 0;

	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < rec->evs.nr; i++)
		if (rec->evs.ev[i].tp_sys)
			names[nr++] = rec->evs.ev[i].name;
	if (nr)
		ret = tracing_data__build(rec->tracefs, names, nr, &data, &size, &err);
	if (nr && !ret)
		ret = perf_writer__set_tracing_data(rec->w, data, size, &err);
	if (ret)
		fprintf(stderr, "perf record: %s\n", err.msg);
	free(data);
	free(names);
	return ret;
}

/* the end: HEADER_BUILD_ID from what went by, then the cache (unless -N) */
static int record__build_ids(struct record *rec)
{
	struct build_id_cache_stats cs;
	struct perf_err err;
	int ret;

	/* as perf: the MMAP2 records carry them, no HEADER_BUILD_ID, no cache */
	if (rec->buildid_mmap || rec->no_buildid)
		return 0;
	ret = record__is_pipe(rec) ? build_id_list__write_new(rec->build_ids, rec->w, &err) :
					  build_id_list__write(rec->build_ids, rec->w, &err);
	if (ret) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return ret;
	}
	if (rec->no_buildid_cache)
		return 0;
	ret = build_id_list__fill_cache(rec->build_ids, &(struct build_id_cache_opts){ 0 }, &cs,
					&err);
	/* a cache we cannot fill costs symbols after a reboot, not this recording */
	if (ret && !rec->quiet)
		fprintf(stderr, "perf record: warning: build-id cache: %s\n", err.msg);
	if (rec->verbose)
		fprintf(stderr, "perf record: build-id cache: %u added, %u present, %u missing\n",
			cs.added, cs.present, cs.missing);
	return 0;
}

/* the processes of -p, or the threads of -t, as parsed for the target */
static int record__synth_pids(struct record *rec, const struct record_synth *s,
			      struct perf_err *err)
{
	int ret = 0;

	for (size_t i = 0; i < rec->nr_ids && !ret; i++) {
		ret = rec->pid || rec->uid ? record_synth__process(s, rec->ids[i], err) :
					     record_synth__thread(s, rec->ids[i], err);
		/* -u: a process of the user that ended since it was listed is no error */
		if (rec->uid && (ret == -ENOENT || ret == -ESRCH))
			ret = 0;
	}
	return ret;
}

/*
 * The workload's processes as they are now, for a file after the first (--switch-output) or
 * at its end (--tail-synthesize): the kernel described them once, in the first file. Those
 * that exit meanwhile are no error.
 */
static int record__synth_workload(struct record *rec, const struct record_synth *s,
				  struct perf_err *err)
{
	pid_t *pids;
	size_t nr;
	int ret;

	if (!rec->wl.pid || rec->wl.exited)
		return 0;
	ret = proc__descendants(NULL, rec->wl.pid, &pids, &nr, err);
	for (size_t i = 0; i < nr && !ret; i++) {
		ret = record_synth__process(s, pids[i], err);
		if (ret && ret != -EIO)
			ret = 0;
	}
	free(pids);
	return ret;
}

/* the events' own description (record-synth-events.h): the slots, cpus and threads opened */
static void record__synth_events_init(struct record *rec, struct record_synth_events *e)
{
	*e = (struct record_synth_events){
		.attrs = rec->evattrs, .nr_attrs = rec->evs.nr,
		.slots = rec->el.slots, .nr_slots = rec->el.nr_slots,
		.slot_ids = rec->target.wide ? rec->el.ids : NULL,
		.emit = record__emit, .ctx = rec, .pipe = record__is_pipe(rec),
	};
	/* per thread, every event counts on any cpu: perf's cpu map is {-1} then */
	if (!rec->target.per_thread) {
		e->cpus = rec->target.cpus;
		e->nr_cpus = rec->target.nr_cpus;
	}
	if (rec->target.kind == EVLIST_TARGET_WORKLOAD) {
		e->threads = &rec->target.pid;
		e->nr_threads = 1;
	} else if (rec->target.kind == EVLIST_TARGET_THREADS) {
		e->threads = rec->target.tids;
		e->nr_threads = rec->target.nr_tids;
	}
}

/* perf writes no kernel or module maps when no event can sample the kernel */
static bool record__excludes_kernel(const struct record *rec)
{
	for (size_t i = 0; i < rec->evs.nr; i++)
		if (!(rec->attrs[i].flags & PERF_ATTR_FLAG(EXCLUDE_KERNEL)))
			return false;
	return true;
}

/* the events' records after the kernel's maps, in perf's order */
static int record__synth_events(const struct record_synth_events *e, struct perf_err *err)
{
	int ret = record_synth__event_updates(e, err);

	if (!ret)
		ret = record_synth__thread_map(e, err);
	if (!ret)
		ret = record_synth__cpu_map(e, err);
	return ret;
}

/*
 * the forked command's COMM, after everything else synthesized, as perf writes it whatever
 * the target (-p, -a with a command too): its samples before the exec get a name
 */
static int record__synth_workload_comm(struct record *rec, const struct record_synth *s)
{
	struct perf_err err;
	int ret;

	/* the first file only, and at its start: --tail-synthesize leaves it there too, as perf */
	if (rec->wl.pid <= 0 || rec->nr_files > 1)
		return 0;
	ret = record_synth__workload_comm(s, rec->wl.pid, &err);
	if (ret && ret != -EIO)
		fprintf(stderr, "perf record: %s\n", err.msg);
	return ret;
}

/*
 * what the kernel does not say: the events' ids, the kernel and module maps, the events'
 * units, threads and cpus, the threads running already
 */
static int record__synthesize_all(struct record *rec, const struct record_synth *s,
				  const struct record_synth_events *e)
{
	struct perf_err err;
	int ret;

	ret = record_synth__id_index(e, &err);
	if (!ret && record__excludes_kernel(rec))
		goto out_events;
	if (ret) {
		if (ret != -EIO)
			fprintf(stderr, "perf record: %s\n", err.msg);
		return ret;
	}
	ret = record_synth__kernel(s, &err);
	if (ret == -EIO)
		return ret;	/* the writer failed and said so */
	if (ret && !rec->quiet)
		fprintf(stderr, "perf record: warning: no kernel map (%s): kernel frames will be [unknown]\n",
			err.msg);
	ret = record_synth__modules(s, &err);
	if (ret && ret != -EIO && !rec->quiet)
		fprintf(stderr, "perf record: warning: no module maps: %s\n", err.msg);
	if (ret == -EIO)
		return ret;
out_events:
	ret = record__synth_events(e, &err);
	if (ret) {
		if (ret != -EIO)
			fprintf(stderr, "perf record: %s\n", err.msg);
		return ret;
	}
	/* BPF programs loaded before us, as perf 6.1 (only if the kernel gives ksymbols) */
	if (rec->attrs[rec->tracking].flags & PERF_ATTR_FLAG(KSYMBOL)) {
		ret = record_synth__bpf(s, &err);
		if (ret == -EIO)
			return ret;
		if (ret && rec->verbose)
			fprintf(stderr, "perf record: BPF programs loaded already go without symbols: %s\n",
				err.msg);
	}
	if (rec->all_cgroups && (rec->synth & RECORD_SYNTH_CGROUP)) {
		ret = record_synth__cgroups(s, &err);
		if (ret == -EIO)
			return ret;
		/* the samples keep their cgroup ids, without names */
		if (ret && !rec->quiet)
			fprintf(stderr, "perf record: warning: --all-cgroups: %s: cgroups will show as ids\n",
				err.msg);
	}
	ret = 0;
	switch (rec->synth & RECORD_SYNTH_TASK ? rec->target.kind : EVLIST_TARGET_WORKLOAD) {
	case EVLIST_TARGET_WORKLOAD:
		/*
		 * its COMM and MMAP2 come from the kernel from the exec on, in the first file;
		 * its namespaces not
		 */
		if (rec->nr_files > 1 || rec->tail_synth)
			ret = record__synth_workload(rec, s, &err);
		else if (rec->namespaces)
			ret = record_synth__namespaces(s, rec->wl.pid, &err);
		break;
	case EVLIST_TARGET_THREADS:
		ret = record__synth_pids(rec, s, &err);
		break;
	case EVLIST_TARGET_CPUS:
		/* a process we may not read (EACCES) loses its maps, not the recording */
		ret = record_synth__all(s, NULL, &err);
		if (ret && ret != -EIO) {
			if (!rec->quiet)
				fprintf(stderr, "perf record: warning: %s: its samples will lack symbols\n",
					err.msg);
			ret = 0;
		}
		break;
	default:
		break;
	}
	if (ret && ret != -EIO)
		fprintf(stderr, "perf record: %s\n", err.msg);
	if (!ret && !rec->tail_synth)
		ret = record__synth_workload_comm(rec, s);
	return ret;
}

/* the synthesis, told which clocks are fallbacks (no unit, as perf) */
static int record__synthesize(struct record *rec)
{
	struct record_synth s = {
		.attr = &rec->attrs[0], .emit = record__emit, .ctx = rec, .build_ids = true,
		.data_maps = rec->sample.data,
		.namespaces = rec->namespaces, .kernel_mmap2 = rec->buildid_mmap,
		.no_maps = !(rec->synth & RECORD_SYNTH_MMAP),
	};
	struct record_synth_events e;
	bool *no_unit = calloc(rec->evs.nr, sizeof(*no_unit));
	int ret;

	if (!no_unit) {
		fprintf(stderr, "perf record: out of memory\n");
		return -ENOMEM;
	}
	for (size_t i = 0; i < rec->evs.nr; i++)
		no_unit[i] = rec->evs.ev[i].fell_back;
	record__synth_events_init(rec, &e);
	e.no_unit = no_unit;
	ret = record__synthesize_all(rec, &s, &e);
	free(no_unit);
	return ret;
}

static int record__emit_lost(void *ctx, const struct perf_event_header *ev)
{
	struct record *rec = ctx;
	int ret = record__emit(rec, ev);

	/* record__emit said why */
	return ret ? -ECANCELED : 0;
}

/* the end: each event's PERF_FORMAT_LOST count as LOST_SAMPLES, as perf (record-lost.h) */
static int record__lost_samples(struct record *rec, struct record_loop *rl)
{
	struct perf_err err;
	u64 total = 0;
	int ret = record_lost__write_all(&rec->el, rec->attrs, record__emit_lost, rec, &total,
					 &err);

	if (ret && ret != -ECANCELED)
		fprintf(stderr, "perf record: %s\n", err.msg);
	rl->stats.lost_samples += total;
	return ret;
}

static int record__features(struct record *rec)
{
	struct record_features_opts fo = {
		.version = PERF_VERSION, .argc = rec->cmd_argc,
		.argv = (const char *const *)rec->cmd_argv,
		.use_clockid = rec->sample.use_clockid, .clockid = rec->sample.clockid,
	};
	struct perf_err err;
	int ret = record_features__fill(rec->w, &fo, &err);

	if (!ret)
		ret = record_events__write_groups(&rec->evs, rec->w, &err);
	/*
	 * HEADER_SAMPLE_TIME, as perf: zeros in a pipe, whose features go out before the
	 * first sample; a file's are rewritten with the samples' times at the end
	 */
	if (!ret)
		ret = perf_writer__set_sample_time(rec->w, 0, 0, &err);
	if (ret)
		fprintf(stderr, "perf record: %s\n", err.msg);
	return ret;
}

static void record__signals(const struct record *rec)
{
	struct sigaction sa = { .sa_handler = record__sig_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = record__sig_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	/* as perf: SIGUSR2 switches files with --switch-output, and is ignored otherwise */
	sa.sa_handler = rec->trig.so.signal ? record__sig_switch : SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGUSR2, &sa, NULL);
}

/* SIGUSR2 is let in only while the loop waits (record_loop.poll_mask): no switch is late */
static void record__block_switch_signal(struct record *rec, struct record_loop *rl)
{
	sigset_t usr2;

	if (!rec->trig.so.signal)
		return;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, &rec->poll_mask);
	sigdelset(&rec->poll_mask, SIGUSR2);
	rl->poll_mask = &rec->poll_mask;
}

/* dumped: the last file's name after its rename (--switch-output, --timestamp-filename) */
static void record__summary(struct record *rec, struct record_loop *rl, const char *dumped)
{
	const struct record_stats *st = &rl->stats;
	u64 bytes = perf_writer__data_size(rec->w);
	double mb = (double)bytes / (1024 * 1024);

	/* -q: no messages but errors (the lost ones are still in the file's LOST records) */
	if (rec->quiet)
		return;
	if (st->lost || st->lost_samples)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %llu chunks (%llu events, %llu samples)!\n\nCheck IO/CPU overload! (a larger -m or a lower -F helps)\n\n",
			(unsigned long long)st->samples, (unsigned long long)st->lost_records,
			(unsigned long long)st->lost, (unsigned long long)st->lost_samples);
	if (st->pending.waiting)
		fprintf(stderr, "perf record: %llu deferred samples got no user callchain: their tasks were still in the kernel when recording stopped (or the record was lost)\n",
			(unsigned long long)st->pending.waiting);
	if (rec->verbose && rec->defer_fallback)
		fprintf(stderr, "perf record: --defer: this kernel has no deferred callchains, the user callchains are inline%s\n",
			rec->no_repair || !record__repair_size(rec) ? "" : " with repair data");
	else if (rec->verbose && rec->defer)
		record_stats__fprintf_deferred(st, stderr);
	if (rec->uid_filtering && rec->uid_filter.unknown)
		fprintf(stderr, "perf record: -u %s: %llu samples dropped: their process ended before its user could be read\n",
			rec->uid, (unsigned long long)rec->uid_filter.unknown);
	if (rec->uid_filtering && rec->verbose)
		fprintf(stderr, "perf record: -u %s: %llu samples of the user kept, %llu of other users dropped\n",
			rec->uid, (unsigned long long)rec->uid_filter.kept,
			(unsigned long long)rec->uid_filter.dropped);
	fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
		(unsigned long long)rl->wakeups);
	if (dumped) {
		/* perf's words: the samples were counted into the files named above */
		fprintf(stderr, "[ perf record: Dump %s ]\n", dumped);
		fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s.<timestamp> ]\n", mb,
			rec->output);
		return;
	}
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb,
		rec->output, (unsigned long long)st->samples);
}

/* after a write failure: one line, and the file readable up to its last complete record */
static void record__write_failed(struct record *rec, const struct perf_err *why)
{
	struct perf_err err;
	u64 kept;

	if (record__is_pipe(rec) || perf_writer__salvage(rec->w, &kept, &err)) {
		fprintf(stderr, "perf record: %s: recording stopped\n", why->msg);
		return;
	}
	fprintf(stderr, "perf record: %s: recording stopped; %s holds the %llu bytes of complete records written before\n",
		why->msg, rec->out_file, (unsigned long long)kept);
}

static void record__exit(struct record *rec)
{
	if (rec->w)
		perf_writer__delete(rec->w);
	build_id_list__delete(rec->build_ids);
	evlist_open__close(&rec->el);
	workload__stop(&rec->wl, SIGTERM);
	if (rec->evattrs)
		for (size_t i = 0; i < rec->evs.nr; i++)
			free(rec->evattrs[i].ids);
	free(rec->evattrs);
	free(rec->attrs);
	free(rec->cpus);
	cgroup_fds__close(rec->cgroup_fds, rec->nr_cgroup_events);
	free(rec->tids);
	free(rec->ids);
	free(rec->wide);
	free(rec->wide_cpus);
	if (rec->uid_filtering)
		uid_filter__exit(&rec->uid_filter);
	parsed_events__exit(&rec->evs);
	free(rec->cmd_argv);
	record_trigger__exit(&rec->trig);
	record_overwrite__exit(&rec->ow);
	record_sb__exit(&rec->sb);
	free(rec->out_file);
}

/*
 * A new output file: header, attrs, features, the side-band (unless --tail-synthesize),
 * FINISHED_INIT. Once at the start and after each --switch-output switch. Each step says its
 * own error; 0 or a negative errno.
 */
static int record__output_begin(struct record *rec)
{
	struct perf_writer_opts wopts = { .pipe = record__is_pipe(rec),
					  .zstd_level = rec->comp_level, .caller_names = true };
	struct perf_err err;
	int ret;

	rec->nr_files++;
	/*
	 * As perf: a non-empty output (a perf.data directory too) becomes OUTPUT.old before the
	 * new one is created, so that a recording that fails (a workload that cannot start, a
	 * full disk) never costs the last good one
	 */
	if (!wopts.pipe && record_output__backup(rec->output, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return -EIO;
	}
	/* --kcore: the output is a directory, its kcore_dir copied before the data is written */
	free(rec->out_file);
	rec->out_file = NULL;
	if (rec->kcore && record_kcore__mkdir(rec->output, "/proc", &err)) {
		fprintf(stderr, "perf record: failed to copy kcore: %s\n", err.msg);
		return -EIO;
	}
	if (asprintf(&rec->out_file, rec->kcore ? "%s/data" : "%s", rec->output) < 0) {
		fprintf(stderr, "perf record: out of memory\n");
		return -ENOMEM;
	}
	rec->w = perf_writer__new(rec->out_file, &wopts, &err);
	if (!rec->w) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return -EIO;
	}
	ret = record__add_attrs(rec);
	if (!ret)
		ret = record__features(rec);
	if (!ret)
		ret = record__tracing_data(rec);
	if (!ret && rec->nr_files == 1) {
		ret = build_id_list__add_kernel(rec->build_ids, &err);
		/*
		 * a pipe's reader resolves each sample as it comes, long before the build ids at
		 * the end: it would take its own vDSO for the recorded one, which is another
		 * kernel's when the pipe is read elsewhere
		 */
		if (!ret && wopts.pipe && !rec->buildid_mmap &&
		    (build_id_list__add_vdso(rec->build_ids, &err) ||
		     build_id_list__write_new(rec->build_ids, rec->w, &err)))
			ret = -EIO;
		if (ret)
			fprintf(stderr, "perf record: %s\n", err.msg);
	}
	if (!ret && !rec->tail_synth)
		ret = record__synthesize(rec);
	if (!ret && rec->tail_synth)
		ret = record__synth_workload_comm(rec, &(struct record_synth){
			.attr = &rec->attrs[0], .emit = record__emit, .ctx = rec });
	if (!ret)
		ret = record__write_simple(rec, PERF_RECORD_FINISHED_INIT);
	return ret ? -EIO : 0;
}

/*
 * The end of an output file: the side-band with --tail-synthesize, the build ids, the
 * samples' time span, the final header. 0, or the exit status, having said why.
 */
static int record__output_end(struct record *rec, const struct record_stats *st)
{
	struct perf_err err;

	if (rec->tail_synth && record__synthesize(rec))
		return PERF_EXIT_INPUT;
	if (record__build_ids(rec))
		return PERF_EXIT_INPUT;
	if (!record__is_pipe(rec) &&
	    perf_writer__set_sample_time(rec->w, st->first_time, st->last_time, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	if (perf_writer__finish(rec->w, &err)) {
		record__write_failed(rec, &err);
		return 1;
	}
	return 0;
}

/*
 * -C: the tracking dummy on every online CPU, the other events on the listed ones, as perf
 * does since 6.4: a task of the workload that runs elsewhere too gets its COMM and MMAPs,
 * and the samples on the listed CPUs of a task that came from another resolve
 */
static int record__widen_tracking(struct record *rec)
{
	struct perf_err err;
	size_t nr;

	if (!rec->cpu_list || rec->dummy < 0 || rec->evs.nr < 2)
		return 0;
	if (cpu_list__expand(NULL, &rec->wide_cpus, &nr, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return -1;
	}
	if (nr == rec->target.nr_cpus)
		return 0;	/* -C names them all */
	rec->wide = calloc(rec->evs.nr, sizeof(*rec->wide));
	if (!rec->wide) {
		fprintf(stderr, "perf record: out of memory\n");
		return -1;
	}
	rec->wide[rec->dummy] = true;
	rec->target.wide = rec->wide;
	rec->target.wide_cpus = rec->wide_cpus;
	rec->target.nr_wide_cpus = nr;
	return 0;
}

/*
 * -D: perf's dummy:HG, the event that carries the side-band while the others are disabled
 * (a disabled event gets no COMM or MMAP of the exec). It samples nothing (the dummy counts
 * nothing), its records are the side-band only.
 */
static int record__add_dummy(struct record *rec)
{
	struct parsed_event *ev;
	struct perf_err err;
	char *name;

	if (parse_events__add(&rec->evs, "dummy", NULL, NULL, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return -EINVAL;
	}
	ev = &rec->evs.ev[rec->evs.nr - 1];
	name = strdup("dummy:HG");
	if (!name) {
		fprintf(stderr, "perf record: out of memory\n");
		return -ENOMEM;
	}
	free(ev->name);
	ev->name = name;
	rec->dummy = (int)rec->evs.nr - 1;
	return 0;
}

/* the trigger's ops (record-trigger.h); their errors were printed: -ECANCELED says so */
static int record__op_enable(void *ctx, int event, bool on, struct perf_err *err)
{
	struct record *rec = ctx;
	struct evlist_open *el = &rec->el;
	int ret = 0;

	/* "every event" leaves -D's dummy alone: the side-band goes on while sampling waits */
	if (event < 0 && rec->dummy < 0)
		return evlist_open__enable(el, on, err);
	if (event < 0) {
		for (int e = 0; e < (int)rec->evs.nr && !ret; e++)
			if (e != rec->dummy)
				ret = record__op_enable(ctx, e, on, err);
		return ret;
	}
	return evlist_open__enable_event(el, (size_t)event, on, err);
}

static int record__op_find_event(void *ctx, const char *name)
{
	struct record *rec = ctx;

	for (size_t i = 0; i < rec->evs.nr; i++)
		if (!strcmp(rec->evs.ev[i].name, name))
			return (int)i;
	return -1;
}

static void record__op_list_events(void *ctx, const char *flags)
{
	struct record *rec = ctx;

	for (size_t i = 0; i < rec->evs.nr; i++) {
		const struct perf_event_attr *a = &rec->attrs[i];

		if (!strcmp(flags, "-F"))
			fprintf(stderr, "%s: sample_%s=%llu\n", rec->evs.ev[i].name,
				(a->flags & PERF_ATTR_FLAG(FREQ)) ? "freq" : "period",
				(unsigned long long)a->sample_period);
		else
			fprintf(stderr, "%s\n", rec->evs.ev[i].name);
	}
}

static int record__op_finish(void *ctx, struct record_loop *rl, struct perf_err *err)
{
	struct record *rec = ctx;

	if (record__output_end(rec, &rl->stats))
		return perf_err__set(err, ECANCELED, "the output file could not be completed");
	return 0;
}

static int record__op_start(void *ctx, struct record_loop *rl, struct perf_err *err)
{
	struct record *rec = ctx;

	perf_writer__delete(rec->w);
	rec->w = NULL;
	if (record__output_begin(rec))
		return perf_err__set(err, ECANCELED, "the next output file could not be started");
	rl->w = rec->w;
	return 0;
}

static const struct record_trigger_ops record_trigger_ops = {
	.enable		= record__op_enable,
	.find_event	= record__op_find_event,
	.list_events	= record__op_list_events,
	.finish		= record__op_finish,
	.start		= record__op_start,
};

static int record__run(struct record *rec, int argc, const char **argv)
{
	struct record_loop rl = { 0 };
	struct perf_err err;
	char *dumped = NULL;
	size_t pages;
	int ret, status = 0;

	if (record__mmap_pages(rec, &pages))
		return PERF_EXIT_USAGE;
	ret = record__setup_target(rec);
	if (ret)	/* a -C that is no CPU list is a usage error, as perf's */
		return ret == -EINVAL && (rec->cpu_list || rec->uid || rec->cgroups) ?
			PERF_EXIT_USAGE : PERF_EXIT_INPUT;
	if (!rec->evs.nr && parse_events__add_default(&rec->evs, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	/*
	 * perf's dummy:HG carries the side-band with -D (the others wait) and with -a and -C
	 * (live before /proc is read, record-sideband.h)
	 */
	if ((rec->trig.delay.set || rec->target.kind == EVLIST_TARGET_CPUS) &&
	    record__add_dummy(rec))
		return PERF_EXIT_INPUT;
	rec->tracking = rec->dummy >= 0 ? (size_t)rec->dummy : 0;
	if (record__widen_tracking(rec))
		return PERF_EXIT_INPUT;
	ret = record__config_attrs(rec);
	if (ret)
		return ret == -EINVAL ? PERF_EXIT_USAGE : PERF_EXIT_INPUT;
	record__signals(rec);
	if (argc) {
		ret = workload__prepare(&rec->wl, argv, record__is_pipe(rec), &err);
		if (ret) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return PERF_EXIT_INPUT;
		}
		rec->target.pid = rec->wl.pid;
	}
	if (record_opts__realtime(rec->realtime))
		return PERF_EXIT_INPUT;
	if (record__open(rec, pages))
		return PERF_EXIT_INPUT;
	if (rec->sb.evs.nr) {
		if (record_sb__open(&rec->sb, &rec->target, &err)) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return PERF_EXIT_INPUT;
		}
		rec->trig.sb = &rec->sb;
	}
	if (record_events__set_filters(&rec->evs, &rec->el, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	if (rec->overwrite && record_overwrite__init(&rec->ow, rec->el.nr_rings, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	rec->build_ids = build_id_list__new(NULL);
	if (!rec->build_ids) {
		fprintf(stderr, "perf record: out of memory\n");
		return PERF_EXIT_INPUT;
	}
	if (record__output_begin(rec))
		return PERF_EXIT_INPUT;

	/*
	 * A workload's events start at its exec (enable_on_exec); -a, -C, -p, -t's now; with
	 * -D only the dummy now, the others when the trigger says
	 */
	if (!record__has_workload_target(rec) &&
	    ((rec->trig.delay.set ? record__op_enable(rec, rec->dummy, true, &err) :
				    evlist_open__enable(&rec->el, true, &err)) ||
	     record_sb__enable(&rec->sb, &err))) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	if (rec->uid_filtering) {
		ret = uid_filter__scan(&rec->uid_filter);
		if (ret) {
			fprintf(stderr, "perf record: -u %s: cannot read /proc: %s\n", rec->uid,
				strerror(-ret));
			return PERF_EXIT_INPUT;
		}
	}
	if (argc) {
		ret = workload__start(&rec->wl, argv[0], &err);
		if (ret) {
			fprintf(stderr, "Failed to collect '%s' for the '%s' workload: %s\n",
				rec->evs.ev[0].name, argv[0], strerror(-ret));
			return PERF_EXIT_INPUT;
		}
	}

	rl.el = &rec->el;
	rl.w = rec->w;
	rl.wl = argc ? &rec->wl : NULL;
	rl.attrs = rec->evattrs;
	rl.nr_attrs = rec->evs.nr;
	rl.stop = &stop_flag;
	rl.hook = record__see;
	rl.uid_filter = rec->uid_filtering ? &rec->uid_filter : NULL;
	rl.hook_ctx = rec;
	rl.ow = rec->overwrite ? &rec->ow : NULL;
	rl.flush_min = record_opts__flush_min(rec->mmap_flush, pages, rec->verbose);
	rec->trig.path = rec->output;
	rec->trig.quiet = rec->quiet;
	if (record_trigger__needed(&rec->trig)) {
		rec->trig.switch_flag = &switch_flag;
		rec->trig.ops = &record_trigger_ops;
		rec->trig.ctx = rec;
		rl.tick = record_trigger__tick;
		rl.tick_ctx = &rec->trig;
		if (record_trigger__begin(&rec->trig, &rl, &err)) {
			fprintf(stderr, "perf record: %s\n", err.msg);
			return PERF_EXIT_INPUT;
		}
	}
	record__block_switch_signal(rec, &rl);
	record_stats__init(&rl.stats);
	ret = record_loop__run(&rl, &err);
	if (!ret && rl.wl && !rl.wl->exited) {
		/* stopped by a signal (or a trigger): the workload goes too, and what it wrote */
		workload__stop(rl.wl, SIGTERM);
		stop_flag = 1;
		ret = record_loop__run(&rl, &err);
	}
	if (ret && rl.write_errno) {
		record__write_failed(rec, &rl.write_err);
		status = 1;
		goto out_stats;
	}
	if (ret) {
		if (ret != -ECANCELED)
			fprintf(stderr, "perf record: %s\n", err.msg);
		status = PERF_EXIT_INPUT;
		goto out_stats;
	}
	if (record__lost_samples(rec, &rl)) {
		status = PERF_EXIT_INPUT;
		goto out_stats;
	}
	status = record__output_end(rec, &rl.stats);
	if (status)
		goto out_stats;
	if ((rec->timestamp_filename || rec->trig.so.enabled) &&
	    record_trigger__rename(&rec->trig, &dumped, &err)) {
		fprintf(stderr, "perf record: %s\n", err.msg);
		status = PERF_EXIT_INPUT;
		goto out_stats;
	}
	record__summary(rec, &rl, dumped);
	if (rl.wl)
		status = workload__exit_code(rl.wl);
out_stats:
	free(dumped);
	record_stats__exit(&rl.stats);
	return status;
}

/* --switch-output-event: -e's syntax; it selects --switch-output=signal, as perf */
static int record__opt_switch_output_event(const struct option *opt, const char *arg,
					   bool unset)
{
	struct record *rec = opt->value;
	struct perf_err err;

	(void)unset;
	if (parse_events__add(&rec->sb.evs, arg, record__tracepoint_id, rec, &err)) {
		fprintf(stderr, "perf record: --switch-output-event: %s\n", err.msg);
		return -1;
	}
	if (!rec->trig.so.enabled)
		switch_output__parse(&rec->trig.so, NULL, &err);
	return 0;
}

/* what the output and control options imply, as perf; PERF_EXIT_USAGE for a bad -r */
static int record__check_output_opts(struct record *rec)
{
	if (record_opts__check_realtime(rec->realtime))
		return PERF_EXIT_USAGE;
	if (rec->trig.max_files < 0) {
		fprintf(stderr, "perf record: --switch-max-files=%d: a number of files to keep (0: all)\n",
			rec->trig.max_files);
		return PERF_EXIT_USAGE;
	}
	/* perf: fewer costs at each switch; the build-id cache is filled by perf buildid-cache */
	if (rec->trig.so.enabled) {
		rec->timestamp_filename = true;
		rec->no_buildid_cache = true;
	}
	/* the rings hold the end of the recording: the side-band must describe that moment */
	if (rec->overwrite)
		rec->tail_synth = true;
	return 0;
}

int cmd_record(int argc, const char **argv)
{
	struct record rec = {
		.repair_size = -1, .wl = { .go_fd = -1, .err_fd = -1 }, .dummy = -1,
		.defer_probe = PROBE_UNKNOWN, .synth = RECORD_SYNTH_ALL,
	};
	const struct option options[] = {
		OPT_CALLBACK('e', "event", &rec, "event",
			     "event selector. use 'perf list' to list available events",
			     record__opt_event),
		OPT_CALLBACK(0, "filter", &rec, "filter",
			     "event filter, for the tracepoints of the -e before it",
			     record__opt_filter),
		OPT_CALLBACK_NOARG(0, "exclude-perf", &rec,
				   "don't record events from perf itself (the tracepoints of the -e before it)",
				   record__opt_exclude_perf),
		OPT_STRING('F', "freq", &rec.freq, "freq or 'max'", "profile at this frequency"),
		OPT_U64('c', "count", &rec.count, "event period to sample"),
		OPT_CALLBACK_NOARG('g', NULL, &rec, "enables call-graph recording", record__opt_g),
		OPT_CALLBACK(0, "call-graph", &rec, "record_mode[,record_size]",
			     "setup and enables call-graph (stack chain/backtrace): fp, dwarf[,size], fp,defer[,dump size]",
			     record__opt_call_graph),
		OPT_BOOLEAN(0, "defer", &rec.defer,
			    "deferred user callchains (implies -g); on kernels without them, inline ones with repair data"),
		OPT_INTEGER(0, "defer-stack-size", &rec.repair_size,
			    "bytes of user stack recorded with --defer for the top-frame repair (0: none)"),
		OPT_BOOLEAN(0, "no-repair-data", &rec.no_repair,
			    "--defer without user regs and stack: files for other tools"),
		OPT_BOOLEAN('a', "all-cpus", &rec.all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('p', "pid", &rec.pid, "pid", "record events on existing process id"),
		OPT_STRING('t', "tid", &rec.tid, "tid", "record events on existing thread id"),
		OPT_STRING('u', "uid", &rec.uid, "user", "user to profile"),
		OPT_CALLBACK('G', "cgroup", &rec, "name",
			     "monitor event in cgroup name only", record__opt_cgroup),
		OPT_BOOLEAN(0, "per-thread", &rec.per_thread, "use per-thread mmaps"),
		OPT_STRING('C', "cpu", &rec.cpu_list, "cpu", "list of cpus to monitor"),
		OPT_STRING('o', "output", &rec.output, "file", "output file name"),
		OPT_CALLBACK_DEFAULT('z', "compression-level", &rec, "n",
				     "Compress records using specified level (default: 1 - fastest compression, 19 - greatest compression)",
				     record__opt_compression, "1"),
		OPT_STRING('m', "mmap-pages", &rec.mmap_pages, "pages",
			   "number of mmap data pages (a power of two) or a size (512K)"),
		OPT_BOOLEAN('i', "no-inherit", &rec.no_inherit, "child tasks do not inherit counters"),
		OPT_BOOLEAN(0, "switch-events", &rec.switch_events, "Record context switch events"),
		/* what perf report's latency profile is computed from: the context switches */
		OPT_BOOLEAN(0, "latency", &rec.switch_events,
			    "Enable data collection for latency profiling.\n"
			    "\t\t\t  Use perf report --latency for latency-centric profile."),
		OPT_BOOLEAN(0, "sample-cpu", &rec.sample_cpu, "Record the sample cpu"),
		OPT_BOOLEAN('d', "data", &rec.sample.data, "Record the sample addresses"),
		OPT_BOOLEAN(0, "phys-data", &rec.sample.phys_data,
			    "Record the sample physical addresses"),
		OPT_BOOLEAN(0, "data-page-size", &rec.sample.data_page_size,
			    "Record the sampled data address data page size"),
		OPT_BOOLEAN(0, "code-page-size", &rec.sample.code_page_size,
			    "Record the sampled code address (ip) page size"),
		OPT_CALLBACK_NOARG('T', "timestamp", &rec.sample, "Record the sample timestamps",
				   record_sample__opt_timestamp),
		OPT_CALLBACK_NOARG('P', "period", &rec.sample, "Record the sample period",
				   record_sample__opt_period),
		OPT_BOOLEAN('W', "weight", &rec.sample.weight, "sample by weight (on special events only)"),
		OPT_BOOLEAN('s', "stat", &rec.sample.inherit_stat, "per thread counts"),
		OPT_BOOLEAN('R', "raw-samples", &rec.sample.raw,
			    "collect raw sample records from all opened counters"),
		OPT_BOOLEAN('n', "no-samples", &rec.sample.no_samples, "don't sample"),
		OPT_CALLBACK('k', "clockid", &rec.sample, "clockid",
			     "clockid to use for events, see clock_gettime()",
			     record_sample__opt_clockid),
		OPT_CALLBACK_OPTARG(0, "user-regs", &rec.sample, "any register",
				    "sample selected machine registers in user space, use '--user-regs=?' to list register names",
				    record_sample__opt_user_regs, NULL),
		OPT_CALLBACK_OPTARG('I', "intr-regs", &rec.sample, "any register",
				    "sample selected machine registers on interrupt, use '-I?' to list register names",
				    record_sample__opt_intr_regs, NULL),
		OPT_CALLBACK_NOARG('b', "branch-any", &rec.sample, "sample any taken branches",
				   record_sample__opt_branch_any),
		OPT_CALLBACK('j', "branch-filter", &rec.sample, "branch filter mask",
			     "branch stack filter modes", record_sample__opt_branch_filter),
		OPT_BOOLEAN(0, "strict-freq", &rec.sample.strict_freq,
			    "Fail if the specified frequency can't be used"),
		OPT_CALLBACK_OPTARG(0, "aio", NULL, "n", "not supported: asynchronous trace writing",
				    record_unsupported__opt_aio, NULL),
		OPT_CALLBACK_OPTARG(0, "threads", &rec.threads, "spec",
				    "write collected trace data into several data files using parallel threads (here: one thread, one file)",
				    record__opt_threads, NULL),
		OPT_CALLBACK(0, "synth", &rec.synth, "no|all|task|mmap|cgroup",
			     "Fine-tune event synthesis: default=all", record__opt_synth),
		OPT_BOOLEAN(0, "namespaces", &rec.namespaces,
			    "Record namespaces events"),
		OPT_BOOLEAN(0, "all-cgroups", &rec.all_cgroups,
			    "Record cgroup events"),
		OPT_BOOLEAN(0, "buildid-mmap", &rec.buildid_mmap,
			    "Record build-id in map events"),
		OPT_BOOLEAN(0, "kcore", &rec.kcore, "copy /proc/kcore"),
		OPT_BOOLEAN('q', "quiet", &rec.quiet, "don't print any warnings or messages"),
		OPT_INCR('v', "verbose", &rec.verbose, "be more verbose (show counter open errors, etc)"),
		OPT_BOOLEAN('N', "no-buildid-cache", &rec.no_buildid_cache,
			    "do not update the buildid cache"),
		OPT_BOOLEAN('B', "no-buildid", &rec.no_buildid,
			    "do not collect buildids in perf.data"),
		OPT_BOOLEAN(0, "no-bpf-event", &rec.no_bpf_event, "do not record bpf events"),
		OPT_BOOLEAN(0, "buildid-all", &rec.buildid_all,
			    "Record build-id of all DSOs regardless of hits"),
		OPT_CALLBACK_DEFAULT(0, "switch-output", &rec.trig,
				     "signal or size[BKMG] or time[smhd]",
				     "Switch output when receiving SIGUSR2 (signal) or cross a size or time threshold",
				     record_trigger__opt_switch_output, "signal"),
		OPT_CALLBACK(0, "switch-output-event", &rec, "switch output event",
			     "switch output event selector. use 'perf list' to list available events",
			     record__opt_switch_output_event),
		OPT_INTEGER(0, "switch-max-files", &rec.trig.max_files,
			    "Limit number of switch output generated files"),
		OPT_BOOLEAN(0, "timestamp-filename", &rec.timestamp_filename,
			    "append timestamp to output filename"),
		OPT_CALLBACK(0, "max-size", &rec.trig, "size",
			     "Limit the maximum size of the output file", record_trigger__opt_max_size),
		OPT_BOOLEAN(0, "overwrite", &rec.overwrite,
			    "use overwrite mode: keep the newest records of each ring, written at the end"),
		OPT_BOOLEAN(0, "tail-synthesize", &rec.tail_synth,
			    "synthesize non-sample events at the end of output"),
		OPT_CALLBACK('D', "delay", &rec.trig, "ms",
			     "ms to wait before starting measurement after program start (-1: start with events disabled), or ranges of time to enable events e.g. '-D 10-20,30-40'",
			     record_trigger__opt_delay),
		OPT_CALLBACK(0, "control", &rec.trig, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
			     "Listen on ctl-fd descriptor for command to control measurement ('enable': enable events, 'disable': disable events, 'stop', 'ping', 'evlist', 'snapshot')",
			     record_trigger__opt_control),
		OPT_INTEGER('r', "realtime", &rec.realtime,
			    "collect data with this RT SCHED_FIFO priority"),
		OPT_CALLBACK(0, "mmap-flush", &rec.mmap_flush, "number",
			     "Minimal number of bytes that is extracted from mmap data pages (default: 1)",
			     record_opts__mmap_flush),
		OPT_CALLBACK(0, "affinity", &rec.affinity, "node|cpu",
			     "Set affinity mask of trace reading thread to NUMA node cpu mask or cpu of processed mmap buffer",
			     record_opts__affinity),
		OPT_END()
	};
	int argc_left, status;

	/*
	 * HEADER_CMDLINE: "record" and its arguments, kept before parse_options consumes them;
	 * the features put perf's executable before them, as perf does (not argv[0] too)
	 */
	record_trigger__init(&rec.trig);
	rec.cmd_argv = calloc((size_t)argc + 1, sizeof(*rec.cmd_argv));
	if (!rec.cmd_argv)
		return PERF_EXIT_INPUT;
	memcpy(rec.cmd_argv, argv, (size_t)argc * sizeof(*argv));
	rec.cmd_argc = argc;
	argc_left = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc_left == -2) {
		status = 0;
		goto out;
	}
	if (argc_left < 0) {
		status = PERF_EXIT_USAGE;
		goto out;
	}
	if (rec.threads && rec.verbose)
		fprintf(stderr, "perf record: --threads=%s: one thread reads every ring into one perf.data file\n",
			rec.threads);
	if (rec.defer && rec.callchain == CALLCHAIN_DWARF) {
		fprintf(stderr, "perf record: --defer: deferred callchain only works with FP (not --call-graph dwarf)\n");
		status = PERF_EXIT_USAGE;
		goto out;
	}
	if (rec.defer)
		rec.callchain = CALLCHAIN_FP;
	/* as perf: DWARF unwinding records the data addresses too (-d) */
	if (rec.callchain == CALLCHAIN_DWARF)
		rec.sample.data = true;
	if (rec.callchain == CALLCHAIN_DWARF && rec.sample.user_regs && !rec.quiet)
		fprintf(stderr, "WARNING: The use of --call-graph=dwarf may require all the user registers, specifying a subset with --user-regs may render DWARF unwinding unreliable, so the minimal registers set (IP, SP) is explicitly forced.\n");
	if (rec.repair_size < -1 || rec.repair_size > MAX_STACK_DUMP) {
		fprintf(stderr, "perf record: --defer-stack-size=%d: a number of bytes from 0 to %d\n",
			rec.repair_size, MAX_STACK_DUMP);
		status = PERF_EXIT_USAGE;
		goto out;
	}
	if (rec.repair_size > 0)
		rec.repair_size = (rec.repair_size + 7) & ~7;
	status = record__check_output_opts(&rec);
	if (status)
		goto out;
	/* with -p/-t (or -a) a command only says how long: it is run, not recorded */
	if ((rec.pid || rec.tid) && (rec.all_cpus || rec.cpu_list)) {
		fprintf(stderr, "perf record: -p/-t record existing threads: drop -a and -C\n");
		status = PERF_EXIT_USAGE;
		goto out;
	}
	if (rec.cgroups && !rec.all_cpus && !rec.cpu_list) {
		fprintf(stderr, "perf record: -G: cgroup monitoring only available in system-wide mode (-a or -C)\n");
		status = PERF_EXIT_USAGE;
		goto out;
	}
	if (rec.uid && (rec.pid || rec.tid)) {
		fprintf(stderr, "perf record: -u records the processes of a user: drop -p and -t\n");
		status = PERF_EXIT_USAGE;
		goto out;
	}
	/* as perf: without -o, a pipe for stdout is pipe mode (perf record -- cmd | perf script) */
	if (!rec.output)
		rec.output = record__stdout_is_fifo() ? "-" : "perf.data";
	if (!argc_left && !rec.pid && !rec.tid && !rec.uid)
		rec.all_cpus = true;	/* no command, no target: the whole system, as perf */
	if (!strcmp(rec.output, "-") &&
	    (rec.trig.so.enabled || rec.timestamp_filename)) {
		fprintf(stderr, "perf record: %s: a pipe (-o -) is one stream; write a file with -o\n",
			rec.trig.so.enabled ? "--switch-output" : "--timestamp-filename");
		status = PERF_EXIT_USAGE;
		goto out;
	}
	if (rec.kcore && !strcmp(rec.output, "-")) {
		fprintf(stderr, "perf record: --kcore: the output is a directory (data and kcore_dir), a pipe (-o -) cannot hold it\n");
		status = PERF_EXIT_USAGE;
		goto out;
	}
	/* upstream's words; before anything is opened or written, so nothing is left behind */
	if (rec.kcore && record_kcore__readable("/proc")) {
		fprintf(stderr, "ERROR: kcore is not readable.\n");
		status = PERF_EXIT_INPUT;
		goto out;
	}
	status = record__run(&rec, argc_left, argv);
out:
	record__exit(&rec);
	if (stop_signal) {
		/* as perf: die of the signal that stopped us, once the file is complete */
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return status;
}
