// SPDX-License-Identifier: GPL-2.0
/*
 * perf report: read perf.data and print the profile (--stdio) as upstream perf 7.2 does.
 * Option parsing and wiring only: samples are resolved by util/frame-resolver.c, aggregated
 * by util/hist.c, their callchains merged by util/report-callchain.c.
 *
 * Deferred user callchains are stitched by the session before samples arrive here, so the
 * profile shows the merged chains (see Documentation/perf-report.txt for where that differs
 * from upstream, which cannot stitch samples taken after their record).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "util/dump.h"
#include "util/frame-resolver.h"
#include "util/hist.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/trace-event.h"

/* upstream's default -g when the option is given without an argument */
#define CALLCHAIN_DEFAULT_OPT	"graph,0.5,caller,function,percent"

struct perf_report {
	struct perf_tool	tool;
	struct symbol_conf	symbol_conf;
	struct hist_opts	hopts;
	struct chain_params	chain;
	/* options */
	const char		*input;
	const char		*symfs;
	const char		*kallsyms;
	const char		*sort_order;
	const char		*field_order;
	const char		*field_sep;
	int			verbose;
	int			max_stack;
	bool			quiet;
	bool			dump_trace;
	bool			stats_mode;
	bool			show_header;
	bool			header_only;
	bool			show_info;
	bool			show_nr_samples;
	bool			show_total_period;
	bool			children;
	bool			inverted;
	bool			hide_unresolved;
	bool			inline_frames;
	bool			skip_empty;
	bool			use_stdio;
	bool			chain_given;	/* -g was on the command line */
	double			min_percent;
	unsigned long long	deferred_max_mb;
	/* state */
	struct perf_session	*session;
	struct hists		**hists;	/* by attr index */
	size_t			nr_hists;
	struct dump		dump;		/* -D */
	struct session_observer	observer;	/* -D: the dump */
	struct frame_resolver	*resolver;
	struct chain_frame	*chain_frames;
	size_t			frames_alloc;
	struct perf_err		err;
};

static struct perf_report *report_of(const struct perf_tool *tool)
{
	return (struct perf_report *)((char *)tool - offsetof(struct perf_report, tool));
}

/*
 * Upstream compares callchain frames of different dsos by the dsos' heap addresses, which
 * mostly follow the order perf created them in (the build-id table, then the mmaps), so
 * that is the order used here. One exception is known: in recordings with kernel modules,
 * upstream 7.2 allocates the dso of the first module mmap below the kernel's (seen in every
 * real recording with modules we have), so that module sorts before the kernel.
 */
static u32 dso_order(const struct machine *machine, const struct dso *dso)
{
	const struct dso *kernel = machine->kernel_dso;

	if (!dso)
		return 0;
	if (kernel && dso->kind == DSO_KIND_KMODULE && dso->seq == kernel->seq + 1)
		return 2 * kernel->seq + 1;
	return 2 * dso->seq + 2;
}

static char cpumode_level(u16 cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:		return 'k';
	case PERF_RECORD_MISC_USER:		return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL:	return 'g';
	case PERF_RECORD_MISC_GUEST_USER:	return 'u';
	default:				return 'H';
	}
}

static int report__grow_frames(struct perf_report *rep, size_t n)
{
	struct chain_frame *cf;

	if (n <= rep->frames_alloc)
		return 0;
	cf = realloc(rep->chain_frames, n * sizeof(*cf));
	if (!cf)
		return -ENOMEM;
	rep->chain_frames = cf;
	rep->frames_alloc = n;
	return 0;
}

/*
 * The sample's callchain as shown: innermost first (callee order) or reversed, at most
 * --max-stack addresses counted from the side the order starts with, as upstream walks it.
 * An unstitched deferred cookie stays in as the user address upstream takes it for.
 */
static int report__chain_frames(struct perf_report *rep, struct machine *machine,
				const struct resolved_chain *chain, u32 *nr_out)
{
	size_t n = chain->nr, keep, first;
	int ret;

	*nr_out = 0;
	ret = report__grow_frames(rep, n + 1);
	if (ret)
		return ret;
	keep = rep->max_stack >= 0 && n > (size_t)rep->max_stack ? (size_t)rep->max_stack : n;
	first = rep->chain.order == ORDER_CALLEE ? 0 : n - keep;
	for (size_t i = 0, out = 0; i < keep; i++) {
		size_t j = rep->chain.order == ORDER_CALLEE ? first + i : n - 1 - i;
		const struct resolved_frame *rf = &chain->frames[j];
		struct chain_frame *f = &rep->chain_frames[out];

		*f = (struct chain_frame){
			.ip = rf->ip, .dso = rf->dso, .sym = rf->sym,
			.dso_order = dso_order(machine, rf->dso),
		};
		/* -U leaves unresolved frames out of the chain (they still count for --max-stack) */
		if (!rep->hide_unresolved || f->sym)
			*nr_out = (u32)++out;
	}
	return 0;
}

static struct hists *report__hists(struct perf_report *rep, const struct perf_evattr *ea)
{
	size_t idx = ea->idx >= 0 ? (size_t)ea->idx : 0;

	if (idx >= rep->nr_hists) {
		struct hists **h = realloc(rep->hists, (idx + 1) * sizeof(*h));

		if (!h)
			return NULL;
		memset(h + rep->nr_hists, 0, (idx + 1 - rep->nr_hists) * sizeof(*h));
		rep->hists = h;
		rep->nr_hists = idx + 1;
	}
	if (!rep->hists[idx])
		rep->hists[idx] = hists__new(&rep->hopts);
	return rep->hists[idx];
}

static int report__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr)
{
	struct perf_report *rep = report_of(tool);
	struct machine *machine = &session->machine;
	const struct resolved_frame *rf;
	struct resolved_chain chain;
	struct trace_event *tevent;
	char trace[16384];
	struct hist_sample hs;
	struct thread *thread;
	struct hists *hists;
	u32 nr_frames = 0;
	bool want_chain;
	int ret;

	(void)event;
	if (!evattr)
		return 0;
	thread = perf_session__sample_thread(session, sample);
	if (!thread)
		return perf_err__set(&session->err, ENOMEM, "out of memory");
	want_chain = (evattr->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
		     (rep->hopts.use_callchain || rep->hopts.children);
	chain = (struct resolved_chain){ .id = FRAME_CHAIN_ID_EMPTY };
	if (want_chain) {
		ret = frame_resolver__chain(rep->resolver, thread, sample, &chain);
		if (ret)
			return perf_err__set(&session->err, ret, "out of memory");
	}
	/* the chain starts at the sample's ip, mostly: then it is resolved already */
	if (chain.nr && chain.frames[0].ip == sample->ip &&
	    chain.frames[0].cpumode == sample->cpumode)
		rf = &chain.frames[0];
	else
		rf = frame_resolver__addr(rep->resolver, thread, (u8)sample->cpumode, sample->ip);
	if (rep->dump_trace) {
		struct addr_location al = {
			.thread = thread, .map = rf->map, .sym = rf->sym, .addr = rf->ip,
			.sym_addr = rf->sym_addr, .cpumode = (u8)sample->cpumode,
		};

		dump__resolved(&rep->dump, thread, &al);
	}
	if (rep->hide_unresolved && !rf->sym)
		return 0;
	hists = report__hists(rep, evattr);
	if (!hists)
		return perf_err__set(&session->err, ENOMEM, "out of memory");

	hs = (struct hist_sample){
		.comm = thread__comm_str(thread, sample->time),
		.pid = thread->pid, .tid = thread->tid, .cpu = (s32)sample->cpu,
		.dso = rf->dso, .sym = rf->sym, .ip = rf->map_ip,
		.level = cpumode_level(sample->cpumode),
		.period = sample->period,
		.has_callchain = evattr->attr.sample_type & PERF_SAMPLE_CALLCHAIN,
		/* the frames shown follow from the resolved chain alone, so its id names them */
		.chain_key = chain.id,
	};
	tevent = perf_session__trace_event(session);
	if (evattr->attr.type == PERF_TYPE_TRACEPOINT && sample->raw_data && tevent &&
	    trace_event__format(tevent, evattr->attr.config, sample->raw_data,
				sample->raw_size, (int)sample->cpu, trace, sizeof(trace),
				&rep->err) >= 0)
		hs.trace = trace;
	if (hists__add_repeat(hists, &hs))
		return 0;
	if (want_chain) {
		ret = report__chain_frames(rep, machine, &chain, &nr_frames);
		if (ret)
			return perf_err__set(&session->err, ret, "out of memory");
		hs.frames = rep->chain_frames;
		hs.nr_frames = nr_frames;
	}
	ret = hists__add_sample(hists, &hs);
	if (ret)
		return perf_err__set(&session->err, ret, "out of memory");
	return 0;
}

static int report__user_meta(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	struct perf_report *rep = report_of(tool);

	(void)sample;
	(void)evattr;
	switch (event->type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
		if (rep->show_header || rep->header_only || rep->show_info)
			dump__feature_event(session->data, event, stdout, rep->show_info);
		break;
	default:
		break;
	}
	return 0;
}

static void perf_report__init_tool(struct perf_report *rep)
{
	struct perf_tool *tool = &rep->tool;

	perf_tool__init(tool);
	tool->sample = report__sample;
	tool->mmap = perf_event__process_mmap;
	tool->comm = perf_event__process_comm;
	tool->fork = perf_event__process_fork;
	tool->exit = perf_event__process_exit;
	tool->lost = perf_event__process_nop;
	tool->throttle = perf_event__process_nop;
	tool->ksymbol = perf_event__process_ksymbol;
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = perf_event__process_nop;
	tool->user_meta = report__user_meta;
	tool->ordered_events = true;
}

/* ---- options ---- */

static int parse_call_graph(const struct option *opt, const char *arg, bool unset)
{
	struct perf_report *rep = opt->value;

	rep->chain_given = true;
	if (unset)
		arg = "none";
	if (chain_params__parse(&rep->chain, arg, &rep->err))
		return parse_options__error(opt, false, "is invalid: %s", rep->err.msg);
	return 0;
}

static int parse_percent_limit(const struct option *opt, const char *arg, bool unset)
{
	struct perf_report *rep = opt->value;
	double checked;
	float pcnt;

	if (unset)
		return 0;
	if (parse_options__double(arg, &checked))
		return parse_options__error(opt, false, "expects a numerical value");
	/* upstream reads the limit as a float: the same rounding at the threshold */
	pcnt = strtof(arg, NULL);
	rep->min_percent = pcnt;
	rep->chain.min_percent = pcnt;
	return 0;
}

static const char *const report_usage[] = {
	"perf report [<options>]",
	NULL
};

/* ---- output ---- */

/* a random line of upstream's tips file, as upstream picks one; NULL when none is found */
static char *report__tip(void)
{
	const char *dirs[] = { NULL, "/usr/share/doc/perf-tip", "/usr/share/doc/linux-perf",
			       "/usr/share/doc/perf-doc" };
	char path[PATH_MAX], line[1024];
	char **tips = NULL, *tip = NULL;
	size_t nr = 0, alloc = 0;
	FILE *fp = NULL;
	u64 seed;

	snprintf(path, sizeof(path), "%s/../share/doc/perf-tip", perf_exec_dir());
	dirs[0] = path;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !fp; i++) {
		char file[PATH_MAX + 16];

		snprintf(file, sizeof(file), "%s/tips.txt", dirs[i]);
		fp = fopen(file, "r");
	}
	if (!fp)
		return NULL;
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strcspn(line, "\n");
		size_t at = 0;
		bool dup = false;

		line[len] = '\0';
		/* upstream keeps them as a sorted set of distinct lines */
		while (at < nr && !dup) {
			int c = strcmp(tips[at], line);

			if (c >= 0) {
				dup = !c;
				break;
			}
			at++;
		}
		if (dup)
			continue;
		if (nr == alloc) {
			char **t = realloc(tips, (alloc ? alloc * 2 : 64) * sizeof(*t));

			if (!t)
				break;
			tips = t;
			alloc = alloc ? alloc * 2 : 64;
		}
		memmove(tips + at + 1, tips + at, (nr - at) * sizeof(*tips));
		tips[at] = strdup(line);
		if (!tips[at])
			break;
		nr++;
	}
	fclose(fp);
	seed = (u64)time(NULL) ^ ((u64)getpid() << 32);
	seed ^= seed >> 33;
	seed *= 0xff51afd7ed558ccdULL;
	seed ^= seed >> 33;
	if (nr && asprintf(&tip, "Tip: %s", tips[seed % nr]) < 0)
		tip = NULL;
	for (size_t i = 0; i < nr; i++)
		free(tips[i]);
	free(tips);
	return tip;
}

static unsigned long convert_unit(unsigned long value, char *unit)
{
	*unit = ' ';
	if (value > 1000) {
		value /= 1000;
		*unit = 'K';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'M';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'G';
	}
	return value;
}

/* "Aggregated stats:" of -D and --stats: every record type seen, then samples per event */
static void report__print_stats(struct perf_report *rep, FILE *fp)
{
	const struct session_stats *st = &rep->session->stats;
	const struct perf_data *data = rep->session->data;
	u64 nr_events[PERF_RECORD_HEADER_MAX];

	/* perf counts the compressed containers too, which our reader unpacks unseen */
	memcpy(nr_events, st->nr_events, sizeof(nr_events));
	nr_events[PERF_RECORD_COMPRESSED] += perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED);
	nr_events[PERF_RECORD_COMPRESSED2] += perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED2);
	nr_events[0] += perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED) +
			perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED2);

	fprintf(fp, "\nAggregated stats:\n");
	for (u32 i = 0; i < PERF_RECORD_HEADER_MAX; i++) {
		const char *name = i ? perf_record_type__name(i) : "TOTAL";

		if (!strcmp(name, "UNKNOWN"))
			continue;
		if (rep->skip_empty && !nr_events[i])
			continue;
		if (i && nr_events[0])
			fprintf(fp, "%20s events: %10llu  (%4.1f%%)\n", name,
				(unsigned long long)nr_events[i],
				(double)nr_events[i] * 100.0 / (double)nr_events[0]);
		else
			fprintf(fp, "%20s events: %10llu\n", name, (unsigned long long)nr_events[i]);
	}
	for (size_t i = 0; i < perf_data__nr_attrs(rep->session->data); i++) {
		struct perf_evattr *ea = perf_data__attr(rep->session->data, i);
		u64 nr = i < rep->nr_hists && rep->hists[i] ? rep->hists[i]->nr_samples : 0;

		if (rep->skip_empty && !nr)
			continue;
		fprintf(fp, "%s stats:\n", perf_evattr__name(ea));
		fprintf(fp, "%20s events: %10llu\n", "SAMPLE", (unsigned long long)nr);
	}
}

static int report__print_hists(struct perf_report *rep)
{
	struct perf_session *session = rep->session;
	size_t nr_entries = 0;
	char *tip;
	int ret = 0;

	for (size_t i = 0; i < rep->nr_hists; i++) {
		if (!rep->hists[i])
			continue;
		nr_entries += rep->hists[i]->nr_entries;
		ret = hists__output_resort(rep->hists[i], &session->machine);
		if (ret)
			return ret;
	}
	if (!nr_entries) {
		perf_stdout__flush(0);
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", perf_data__name(session->data));
		return 0;
	}
	if (!rep->quiet)
		printf("#\n# Total Lost Samples: %llu\n#\n",
		       (unsigned long long)session->stats.total_lost_samples);
	for (size_t i = 0; i < perf_data__nr_attrs(session->data); i++) {
		struct perf_evattr *ea = perf_data__attr(session->data, i);
		struct hists *hists = i < rep->nr_hists ? rep->hists[i] : NULL;
		unsigned long nr;
		char unit;

		if (rep->skip_empty && (!hists || !hists->nr_samples))
			continue;
		if (!hists)
			hists = report__hists(rep, ea);
		if (!hists)
			return -ENOMEM;
		if (!rep->quiet) {
			nr = convert_unit((unsigned long)hists->nr_samples, &unit);
			printf("# Samples: %lu%c of event '%s'\n", nr, unit,
			       perf_evattr__name(ea));
			printf("# Event count (approx.): %llu\n#\n",
			       (unsigned long long)hists->total_period);
		}
		perf_stdout__flush(0);
		ret = hists__fprintf(hists, stdout);
		if (ret)
			return ret;
		printf("\n\n");
	}
	if (!rep->quiet) {
		tip = report__tip();
		printf("#\n# (%s)\n#\n", tip ? tip : "Cannot load tips.txt file, please install perf!");
		free(tip);
	}
	return 0;
}

/* what upstream decides from the events before reading samples */
static int report__setup(struct perf_report *rep)
{
	struct perf_session *session = rep->session;
	size_t nr = perf_data__nr_attrs(session->data);
	bool pipe = perf_data__is_pipe(session->data), all_tp = nr > 0;
	char sort_buf[512];
	const char *sort_order = rep->sort_order;
	u64 sample_type = 0;
	int ret;

	for (size_t i = 0; i < nr; i++) {
		const struct perf_evattr *ea = perf_data__attr(session->data, i);

		sample_type |= ea->attr.sample_type;
		if (ea->attr.type != PERF_TYPE_TRACEPOINT)
			all_tp = false;
	}
	if (!pipe && !(sample_type & PERF_SAMPLE_CALLCHAIN)) {
		if (rep->chain_given && rep->chain.enabled) {
			fprintf(stderr, "Selected -g or --branch-history.\n"
				"But no callchain or branch data.\n"
				"Did you call 'perf record' without -g or -b?\n");
			return -EINVAL;
		}
		rep->hopts.use_callchain = false;
	} else {
		rep->hopts.use_callchain = rep->chain.mode != CHAIN_NONE;
	}
	/* accumulation needs callchains; a pipe shows its attrs too late for it */
	if (rep->children && (pipe || !(sample_type & PERF_SAMPLE_CALLCHAIN)))
		rep->children = false;

	if (sort_order && strstr(sort_order, "ipc")) {
		fprintf(stderr, "  Error: --sort ipc keys need LBR data, which perf report here does not use\n");
		return -EINVAL;
	}
	/* upstream appends the (empty without LBR data) IPC column to a "symbol" sort */
	if (sort_order && strstr(sort_order, "symbol")) {
		snprintf(sort_buf, sizeof(sort_buf), "%s,%s", sort_order, "ipc_null");
		sort_order = sort_buf;
	}
	rep->hopts.children = rep->children;
	rep->hopts.chain = rep->chain;
	rep->hopts.hide_unresolved = rep->hide_unresolved;
	rep->hopts.min_percent = rep->min_percent;
	rep->hopts.field_sep = rep->field_sep;
	rep->hopts.show_header = !rep->quiet;
	rep->hopts.skip_first_frame = !rep->field_order && sort_order &&
				      !strncmp(sort_order, "sym", 3);
	ret = hist_opts__setup(&rep->hopts, sort_order, rep->field_order, all_tp,
			       rep->show_nr_samples, rep->show_total_period, &rep->err);
	if (ret) {
		fprintf(stderr, "Error:\n%s\n", rep->err.msg);
		return ret;
	}
	return 0;
}

int cmd_report(int argc, const char **argv)
{
	struct perf_report rep = {
		.max_stack = PERF_MAX_STACK_DEPTH,
		.children = true,
		.skip_empty = true,
	};
	const struct option options[] = {
		OPT_STRING('i', "input", &rep.input, "file", "input file name"),
		OPT_INCR('v', "verbose", &rep.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN('q', "quiet", &rep.quiet, "Do not show any warnings or messages"),
		OPT_BOOLEAN('D', "dump-raw-trace", &rep.dump_trace, "dump raw trace in ASCII"),
		OPT_BOOLEAN(0, "stats", &rep.stats_mode, "Display event stats"),
		OPT_STRING(0, "kallsyms", &rep.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN('n', "show-nr-samples", &rep.show_nr_samples,
			    "Show a column with the number of samples"),
		OPT_BOOLEAN(0, "stdio", &rep.use_stdio, "Use the stdio interface"),
		OPT_BOOLEAN(0, "header", &rep.show_header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &rep.header_only, "Show only data header."),
		OPT_STRING('s', "sort", &rep.sort_order, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, cpu, trace"),
		OPT_STRING('F', "fields", &rep.field_order, "key[,keys...]",
			   "output field(s): overhead period sample overhead_children and the sort keys"),
		OPT_CALLBACK_DEFAULT('g', "call-graph", &rep, "print_type,threshold[,print_limit],order,sort_key[,branch],value",
				     "Display call graph (stack chain/backtrace): graph, fractal, flat, folded or none; threshold; print limit; caller or callee; function; percent, period or count. Default: " CALLCHAIN_DEFAULT_OPT,
				     parse_call_graph, CALLCHAIN_DEFAULT_OPT),
		OPT_BOOLEAN(0, "children", &rep.children,
			    "Accumulate callchains of children and show total overhead as well. Enabled by default, use --no-children to disable."),
		OPT_INTEGER(0, "max-stack", &rep.max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: 127"),
		OPT_BOOLEAN('G', "inverted", &rep.inverted, "alias for inverted call graph"),
		OPT_STRING('t', "field-separator", &rep.field_sep, "separator",
			   "separator for columns, no spaces will be added between columns '.' is reserved."),
		OPT_BOOLEAN('U', "hide-unresolved", &rep.hide_unresolved,
			    "Only display entries resolved to a symbol"),
		OPT_STRING(0, "symfs", &rep.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN('I', "show-info", &rep.show_info,
			    "Display extended information about perf.data file"),
		OPT_BOOLEAN(0, "show-total-period", &rep.show_total_period,
			    "Show a column with the sum of periods"),
		OPT_CALLBACK(0, "percent-limit", &rep, "percent",
			     "Don't show entries under that percent", parse_percent_limit),
		OPT_BOOLEAN(0, "inline", &rep.inline_frames,
			    "Show inline function (not supported yet: --no-inline is the default)"),
		OPT_BOOLEAN(0, "skip-empty", &rep.skip_empty,
			    "Do not display empty (or dummy) events in the output"),
		OPT_U64(0, "deferred-max-mb", &rep.deferred_max_mb,
			"Memory cap for samples waiting for their deferred user callchain (MB, default 64)"),
		OPT_END()
	};
	struct session_opts sopts = { 0 };
	struct perf_err err;
	int argc_left, ret = 0;

	chain_params__init(&rep.chain);
	argc_left = parse_options(argc, argv, options, report_usage, 0);
	if (argc_left == -2)
		return 0;
	if (argc_left < 0)
		return 129;
	if (argc_left > 0) {
		fprintf(stderr, "perf report: unexpected argument '%s' (symbol filters are not supported)\n",
			argv[0]);
		return 129;
	}
	if (rep.inline_frames) {
		fprintf(stderr, "perf report: " INLINE_UNSUPPORTED "\n");
		return 129;
	}
	if (rep.field_sep && !rep.field_sep[0]) {
		fprintf(stderr, "  Error: option `field-separator' requires a non-empty value\n");
		return 129;
	}
	if (rep.kallsyms && access(rep.kallsyms, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", rep.kallsyms);
		return 1;
	}
	if (rep.inverted)
		rep.chain.order = ORDER_CALLER;
	if (rep.children && !rep.chain.order_set)
		rep.chain.order = ORDER_CALLER;
	if (!rep.input) {
		struct stat st;

		rep.input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}

	rep.symbol_conf.symfs = rep.symfs ? rep.symfs : "";
	rep.symbol_conf.kallsyms = rep.kallsyms;
	perf_report__init_tool(&rep);
	perf_stdout__buffer();

	sopts.path = rep.input;
	sopts.symbol_conf = &rep.symbol_conf;
	/* -D shows the records as they are in the file, as upstream's report -D does */
	sopts.merge_deferred = !rep.dump_trace;
	sopts.deferred_max_mem = (size_t)rep.deferred_max_mb << 20;
	rep.session = perf_session__new(&sopts, &rep.tool, &err);
	if (!rep.session) {
		fprintf(stderr, "perf report: %s\n", err.msg);
		return 1;
	}
	rep.resolver = frame_resolver__new(&rep.session->machine);
	if (!rep.resolver) {
		fprintf(stderr, "perf report: out of memory\n");
		ret = 1;
		goto out_delete;
	}
	if (rep.dump_trace) {
		struct dump *d = &rep.dump;

		dump__init(d, stdout, rep.session->data, &rep.session->machine);
		/* records upstream's report leaves to perf's default handler, which -D marks */
		d->unhandled[PERF_RECORD_CALLCHAIN_DEFERRED / 64] |=
			1ULL << (PERF_RECORD_CALLCHAIN_DEFERRED % 64);
		d->unhandled[PERF_RECORD_THREAD_MAP / 64] |= 1ULL << (PERF_RECORD_THREAD_MAP % 64);
		d->unhandled[PERF_RECORD_CPU_MAP / 64] |= 1ULL << (PERF_RECORD_CPU_MAP % 64);
		rep.observer = (struct session_observer){
			.record = dump__record, .event = dump__event, .arg = d,
		};
		perf_session__set_observer(rep.session, &rep.observer);
	}
	if (report__setup(&rep)) {
		if (rep.session->err.msg[0])
			fprintf(stderr, "perf report: %s\n", rep.session->err.msg);
		ret = 1;
		goto out_delete;
	}

	if ((rep.show_header || rep.header_only) && !rep.quiet) {
		dump__header(rep.session->data, stdout, rep.show_info);
		if (rep.header_only) {
			if (perf_data__is_pipe(rep.session->data))
				ret = perf_session__process_events(rep.session) ? 1 : 0;
			goto out_delete;
		}
	} else if (!rep.quiet && !rep.stats_mode) {
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
		      stdout);
	}

	ret = perf_session__process_events(rep.session);
	if (ret) {
		/* output that could not be written is said once, by perf_stdout__finish() */
		if (!perf_stdout__flush(ret))
			fprintf(stderr, "perf report: %s\n", rep.session->err.msg);
		ret = 1;
		goto out_delete;
	}
	if (rep.dump_trace || rep.stats_mode) {
		report__print_stats(&rep, stdout);
	} else {
		ret = report__print_hists(&rep);
		if (!perf_stdout__flush(ret) && ret)
			fprintf(stderr, "perf report: writing the report failed\n");
		ret = ret ? 1 : 0;
	}
	perf_stdout__flush(0);
	perf_session__warn_about_errors(rep.session, stderr);
	perf_session__fprintf_stage_stats(rep.session, stderr, 0);

out_delete:
	for (size_t i = 0; i < rep.nr_hists; i++)
		hists__delete(rep.hists[i]);
	free(rep.hists);
	frame_resolver__delete(rep.resolver);
	perf_session__delete(rep.session);
	free(rep.chain_frames);
	return ret;
}
