// SPDX-License-Identifier: GPL-2.0
/*
 * perf report: read perf.data and print the profile (--stdio) as upstream perf 7.2 does,
 * or browse it (on a terminal, ui/browser-hists.c). Option parsing and wiring only: the
 * profile is util/report.c's (samples resolved by util/frame-resolver.c, aggregated by
 * util/hist.c, callchains merged by util/report-callchain.c).
 *
 * Deferred user callchains are stitched by the session before samples arrive here, so the
 * profile shows the merged chains (see Documentation/perf-report.txt for where that differs
 * from upstream, which cannot stitch samples taken after their record).
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "builtin.h"
#include "ui/browser-hists.h"
#include "ui/tui.h"
#include "util/cpu-list.h"
#include "util/dump.h"
#include "util/hist.h"
#include "util/pager.h"
#include "util/parse-options.h"
#include "util/report.h"
#include "util/sample-filter.h"
#include "util/session.h"
#include "util/trace-event.h"
#include "util/unwind.h"

/* the first lines of a report without --header */
#define HEADER_HINT \
	"# To display the perf.data header info, please use --header/--header-only options.\n#\n"

/* upstream's default -g when the option is given without an argument */
#define DEFAULT_PARENT_PATTERN	"^sys_|^do_page_fault"

#define CALLCHAIN_DEFAULT_OPT	"graph,0.5,caller,function,percent"

struct perf_report {
	struct perf_tool	tool;
	struct symbol_conf	symbol_conf;
	struct report_opts	ropts;
	/* options */
	const char		*input;
	bool			demangle;	/* --no-demangle clears it */
	const char		*sort_order;
	const char		*field_order;
	const char		*parallelism;	/* --parallelism: the levels kept */
	int			verbose;
	bool			dump_trace;
	bool			stats_mode;
	bool			show_header;
	bool			header_only;
	bool			show_info;
	bool			show_nr_samples;
	bool			show_total_period;
	bool			inverted;
	bool			use_stdio;
	bool			use_tui;	/* --tui */
	bool			browse;		/* report__use_browser() said so */
	bool			chain_given;	/* -g was on the command line */
	struct sample_filter	filter;		/* -c, -d, -S, --pid, --tid, -C, --time */
	bool			tasks_mode;	/* --tasks */
	bool			mmaps_mode;	/* --mmaps */
	bool			group;		/* --group (the default), --no-group */
	bool			group_refused;	/* a pipe's sampling group, seen too late */
	const char		*unwind;	/* --unwind: NULL for auto */
	bool			unwind_stats;
	unsigned long long	deferred_max_mb;
	/* state */
	struct perf_session	*session;
	struct report		report;		/* the profile */
	struct dump		dump;		/* -D */
	struct session_observer	observer;	/* -D: the dump */
	struct perf_err		err;
};

static struct perf_report *report_of(const struct perf_tool *tool)
{
	return (struct perf_report *)container_of(tool, struct perf_report, tool);
}

#define GROUP_REFUSAL	"the report of sampling groups (PERF_SAMPLE_READ of a group, e.g. -e '{a,b}:S') is not supported yet"

/* upstream shows a sampling group's members side by side unless --no-group (not with these) */
static bool report__group_view(const struct perf_report *rep)
{
	return rep->group && !rep->dump_trace && !rep->stats_mode && !rep->tasks_mode &&
	       !rep->header_only;
}

static int report__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr)
{
	struct perf_report *rep = report_of(tool);
	int ret;

	(void)event;
	/* a pipe shows its attrs after report__setup(): refused at its first group sample */
	if ((evattr->attr.sample_type & PERF_SAMPLE_READ) &&
	    (evattr->attr.read_format & PERF_FORMAT_GROUP) && report__group_view(rep)) {
		rep->group_refused = true;
		return perf_session__tool_error(session, EOPNOTSUPP, GROUP_REFUSAL);
	}
	ret = report__add_sample(&rep->report, sample, evattr);
	if (ret)
		return perf_session__tool_error(session, ret, rep->report.err.msg);
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

/* context switches (latency), cgroups and namespaces (their sort keys), READ counts (-T) */
static int report__other(const struct perf_tool *tool, struct perf_session *session,
			 const struct perf_event_header *event, struct perf_sample *sample,
			 struct perf_evattr *evattr)
{
	struct perf_report *rep = report_of(tool);
	int ret;

	(void)sample;
	ret = event->type == PERF_RECORD_READ ? report__add_read(&rep->report, event, evattr) :
					       report__side_record(&rep->report, event);
	if (ret)
		return perf_session__tool_error(session, ret, rep->report.err.msg);
	return 0;
}

static int report__exit_event(const struct perf_tool *tool, struct perf_session *session,
			      const struct perf_event_header *event, struct perf_sample *sample,
			      struct perf_evattr *evattr)
{
	report__task_exit(&report_of(tool)->report);
	return perf_event__process_exit(tool, session, event, sample, evattr);
}

static void perf_report__init_tool(struct perf_report *rep)
{
	struct perf_tool *tool = &rep->tool;

	perf_tool__init(tool);
	tool->sample = report__sample;
	tool->mmap = perf_event__process_mmap;
	tool->comm = perf_event__process_comm;
	tool->fork = perf_event__process_fork;
	tool->exit = report__exit_event;
	tool->lost = perf_event__process_nop;
	tool->throttle = perf_event__process_nop;
	tool->ksymbol = perf_event__process_ksymbol;
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = report__other;
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
	if (chain_params__parse(&rep->ropts.hopts.chain, arg, &rep->err))
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
	rep->ropts.hopts.min_percent = pcnt;
	rep->ropts.hopts.chain.min_percent = pcnt;
	return 0;
}

/*
 * Upstream hides the column of a filter with one entry, saying "# comm: ls" above the report
 * instead (fp; NULL: the browser, which says nothing), unless that would hide every sort
 * key column.
 */
static void report__elide_columns(struct perf_report *rep, FILE *fp)
{
	const struct sample_filter *f = &rep->filter;
	struct hist_opts *o = &rep->ropts.hopts;
	const char *single[SORT_KEY__NR] = {
		[SORT_KEY_COMM] = name_list__single(&f->comms, f->comm_str),
		[SORT_KEY_DSO] = name_list__single(&f->dsos, f->dso_str),
		[SORT_KEY_SYM] = name_list__single(&f->syms, f->sym_str),
	};
	const char *what[SORT_KEY__NR] = {
		[SORT_KEY_COMM] = "comm", [SORT_KEY_DSO] = "dso", [SORT_KEY_SYM] = "symbol",
	};
	unsigned int nr_keys = 0, nr_elided = 0, kept = 0;

	for (unsigned int i = 0; i < o->nr_out; i++) {
		if (!o->out[i].is_key)
			continue;
		nr_keys++;
		if (single[o->out[i].id]) {
			if (fp)
				fprintf(fp, "# %s: %s\n", what[o->out[i].id], single[o->out[i].id]);
			nr_elided++;
		}
	}
	if (!nr_elided || nr_elided == nr_keys)
		return;
	for (unsigned int i = 0; i < o->nr_out; i++)
		if (!o->out[i].is_key || !single[o->out[i].id])
			o->out[kept++] = o->out[i];
	o->nr_out = kept;
}

/* upstream refuses a bad -p before reading anything, without failing */
static int report__check_regex(const char *pattern)
{
	char msg[128];
	regex_t re;
	int ret = regcomp(&re, pattern, REG_EXTENDED);

	if (!ret) {
		regfree(&re);
		return 0;
	}
	regerror(ret, &re, msg, sizeof(msg));
	fprintf(stderr, "Invalid regex: %s\n%s", pattern, msg);
	return -EINVAL;
}

/* upstream says nothing but the usage for another word */
static int parse_percentage(const struct option *opt, const char *arg, bool unset)
{
	struct perf_report *rep = opt->value;

	if (unset || !strcmp(arg, "absolute"))
		rep->ropts.hopts.filter_relative = false;
	else if (!strcmp(arg, "relative"))
		rep->ropts.hopts.filter_relative = true;
	else
		return -1;
	return 0;
}

static const char *const report_usage[] = {
	"perf report [<options>]",
	NULL
};

/*
 * --parallelism: the levels as a mask (report.h); a level above 63 is kept with 63, which
 * no machine this reads from reaches in practice. 0 with the mask set, or 1 with *status.
 */
static int report__parallelism_mask(struct perf_report *rep, int *status)
{
	struct perf_err err;
	u32 *levels = NULL;
	size_t nr = 0;

	if (cpu_list__cpus(rep->parallelism, &levels, &nr, &err)) {
		fprintf(stderr, "  Error: --parallelism %s: %s\n", rep->parallelism, err.msg);
		*status = PERF_EXIT_USAGE;
		return 1;
	}
	for (size_t i = 0; i < nr; i++)
		rep->ropts.parallelism_mask |= 1ULL << (levels[i] < 63 ? levels[i] : 63);
	free(levels);
	if (!rep->ropts.parallelism_mask) {
		fprintf(stderr, "  Error: --parallelism %s: no level\n", rep->parallelism);
		*status = PERF_EXIT_USAGE;
		return 1;
	}
	return 0;
}

/*
 * What upstream decides from the events before reading samples. true to go on; false to
 * stop with *status (0 included: upstream stops without failing on -g without callchains),
 * the reason said, and *usage set when the option's usage is to follow (an unknown key).
 */
static bool report__setup(struct perf_report *rep, int *status, bool *usage)
{
	struct perf_session *session = rep->session;
	size_t nr = perf_data__nr_attrs(session->data);
	bool pipe = perf_data__is_pipe(session->data), all_tp = nr > 0;
	char sort_buf[512], ipc_buf[sizeof(sort_buf) + 16];
	const char *sort_order = rep->sort_order;
	bool has_switch = false, want_latency, group_read = false;
	u64 sample_type = 0;
	int ret;

	for (size_t i = 0; i < nr; i++) {
		const struct perf_evattr *ea = perf_data__attr(session->data, i);

		sample_type |= ea->attr.sample_type;
		has_switch |= perf_attr__has(&ea->attr, PERF_ATTR_BIT_CONTEXT_SWITCH);
		group_read |= (ea->attr.sample_type & PERF_SAMPLE_READ) &&
			      (ea->attr.read_format & PERF_FORMAT_GROUP);
		if (ea->attr.type != PERF_TYPE_TRACEPOINT)
			all_tp = false;
	}
	if (!pipe && !(sample_type & PERF_SAMPLE_CALLCHAIN)) {
		bool parent = strcmp(rep->ropts.parent_pattern, DEFAULT_PARENT_PATTERN) ||
			      (sort_order && strstr(sort_order, "parent"));

		if (parent || (rep->chain_given && rep->ropts.hopts.chain.enabled)) {
			/* upstream says it after its first header line and exits 0 */
			if (!rep->ropts.quiet && !rep->stats_mode && !rep->show_header &&
			    !rep->header_only)
				fputs(HEADER_HINT, stdout);
			fprintf(stderr, "Error:\n%s\n", parent ?
				"Selected --sort parent, but no callchain data. Did you call 'perf record' without -g?" :
				"Selected -g or --branch-history.\n"
				"But no callchain or branch data.\n"
				"Did you call 'perf record' without -g or -b?");
			*status = 0;
			return false;
		}
		rep->ropts.hopts.use_callchain = false;
	} else {
		rep->ropts.hopts.use_callchain = rep->ropts.hopts.chain.mode != CHAIN_NONE;
	}
	/* accumulation needs callchains; a pipe shows its attrs too late for it */
	if (rep->ropts.hopts.children && (pipe || !(sample_type & PERF_SAMPLE_CALLCHAIN))) {
		/* upstream's hierarchy of a pipe keeps the column, with nothing in it */
		rep->ropts.hopts.acc_na = pipe && rep->ropts.hopts.hierarchy;
		rep->ropts.hopts.children = false;
	}

	if (sort_order && strstr(sort_order, "ipc")) {
		fprintf(stderr, "  Error: --sort ipc keys need LBR data, which perf report here does not use\n");
		*status = 1;
		return false;
	}
	/* -p adds the parent key behind the others */
	if (strcmp(rep->ropts.parent_pattern, DEFAULT_PARENT_PATTERN)) {
		snprintf(sort_buf, sizeof(sort_buf), "%s%s", sort_order ? sort_order : "+",
			 sort_order ? ",parent" : "parent");
		sort_order = sort_buf;
	}
	/* upstream appends the (empty without LBR data) IPC column to a "symbol" sort */
	if (sort_order && strstr(sort_order, "symbol")) {
		snprintf(ipc_buf, sizeof(ipc_buf), "%s,%s", sort_order, "ipc_null");
		sort_order = ipc_buf;
	}
	/* upstream's is_latency_requested(): substring tests of --sort and -F */
	want_latency = rep->ropts.hopts.prefer_latency || rep->parallelism ||
		       (rep->sort_order && (strstr(rep->sort_order, "latency") ||
					    strstr(rep->sort_order, "parallelism"))) ||
		       (rep->field_order && (strstr(rep->field_order, "latency") ||
					     strstr(rep->field_order, "parallelism")));
	if (!has_switch && want_latency) {
		fprintf(stderr, "Error:\nUse of latency profile or parallelism requires --latency flag during record.\n");
		*status = PERF_EXIT_INPUT;
		return false;
	}
	if (rep->parallelism && report__parallelism_mask(rep, status))
		return false;
	if (rep->ropts.thread_counts && (sample_type & PERF_SAMPLE_READ)) {
		fprintf(stderr, "perf report: -T of recordings with PERF_SAMPLE_READ counts is not supported yet\n");
		*status = PERF_EXIT_USAGE;
		return false;
	}
	if (group_read && report__group_view(rep)) {
		fprintf(stderr, "perf report: %s\n", GROUP_REFUSAL);
		*status = PERF_EXIT_USAGE;
		return false;
	}
	rep->ropts.hopts.latency = has_switch;
	rep->ropts.hopts.verbose = rep->verbose > 0;
	rep->ropts.hopts.show_header = !rep->ropts.quiet;
	rep->ropts.hopts.skip_first_frame = !rep->field_order && sort_order &&
				      !strncmp(sort_order, "sym", 3);
	ret = hist_opts__setup(&rep->ropts.hopts, sort_order, rep->field_order, all_tp,
			       rep->show_nr_samples, rep->show_total_period, &rep->err);
	if (ret) {
		/* an unknown key: the option's usage follows, from its own line */
		fprintf(stderr, "Error:\n%s%s", rep->err.msg, ret == -ENOENT ? "" : "\n");
		/* upstream goes on to its usage and status 0 for a key it does not know */
		*status = ret == -ENOENT ? 0 : 1;
		*usage = ret == -ENOENT;
		return false;
	}
	return true;
}

/*
 * The one place that chooses between the interactive browser and --stdio text, as
 * upstream does: text with --stdio, for a pipe's input (-i -, or stdin a pipe), for -D,
 * --stats, --tasks and --header-only, and when stdout is no terminal curses can use; the
 * browser otherwise. --tui asks for the browser: *why says why it cannot be had.
 */
static bool report__use_browser(const struct perf_report *rep, struct perf_err *why)
{
	why->msg[0] = '\0';
	if (rep->use_stdio || rep->dump_trace || rep->stats_mode || rep->tasks_mode ||
	    rep->header_only || !strcmp(rep->input, "-"))
		return false;
	return tui__available(why);
}

/*
 * The checks upstream makes of the options before opening the input, and what the options
 * imply. false: stop with *status.
 */
static bool report__check_options(struct perf_report *rep, int *status)
{
	struct symbol_conf *sc = &rep->symbol_conf;
	struct hist_opts *ho = &rep->ropts.hopts;

	*status = 0;
	sc->warn = rep->ropts.quiet ? NULL : stderr;
	if (report__check_regex(rep->ropts.parent_pattern))
		return false;
	if (ho->symbol_filter && ho->hierarchy) {
		fprintf(stderr, "perf report: --symbol-filter with --hierarchy is not supported yet\n");
		*status = PERF_EXIT_USAGE;
		return false;
	}
	if (ho->field_sep && !ho->field_sep[0]) {
		fprintf(stderr, "  Error: option `field-separator' requires a non-empty value\n");
		*status = PERF_EXIT_USAGE;
		return false;
	}
	if (sc->kallsyms && access(sc->kallsyms, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", sc->kallsyms);
		*status = 1;
		return false;
	}
	if (sc->vmlinux && access(sc->vmlinux, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", sc->vmlinux);
		*status = PERF_EXIT_EINVAL;
		return false;
	}
	if (rep->mmaps_mode)
		rep->tasks_mode = true;
	if (rep->inverted)
		ho->chain.order = ORDER_CALLER;
	if (ho->children && !ho->chain.order_set)
		ho->chain.order = ORDER_CALLER;
	if (!rep->input) {
		struct stat st;

		rep->input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	if (!sc->symfs)
		sc->symfs = "";
	sc->no_demangle = !rep->demangle;
	/* --tui where no browser can be (no terminal): the text, as upstream prints it */
	rep->browse = report__use_browser(rep, &rep->err);
	return true;
}

/* the session, the report and -D's dump; false: stop with *status */
static bool report__open(struct perf_report *rep, int *status)
{
	struct session_opts sopts = { 0 };
	struct perf_err err;

	perf_report__init_tool(rep);
	perf_stdout__buffer();

	sopts.path = rep->input;
	sopts.symbol_conf = &rep->symbol_conf;
	/* -D shows the records as they are in the file, as upstream's report -D does */
	sopts.merge_deferred = !rep->dump_trace;
	sopts.deferred_max_mem = (size_t)rep->deferred_max_mb << 20;
	/* the report comes after the load; -D's records come during it */
	sopts.progress = !rep->ropts.quiet && !rep->dump_trace;
	if (unwind_mode__parse(rep->unwind, &sopts.unwind_mode)) {
		fprintf(stderr, "perf report: --unwind takes " UNWIND_OPT_HELP ", not '%s'\n", rep->unwind);
		*status = PERF_EXIT_USAGE;
		return false;
	}
	rep->session = perf_session__new(&sopts, &rep->tool, &err);
	if (!rep->session) {
		/* upstream's lines ("failed to open ...") name the input on their own */
		fprintf(stderr, "%s\n", err.msg);
		*status = PERF_EXIT_INPUT;
		return false;
	}
	rep->ropts.exec_dir = perf_exec_dir();
	if (report__init(&rep->report, &rep->ropts, rep->session, rep->dump_trace ? &rep->dump : NULL)) {
		fprintf(stderr, "perf report: %s\n", rep->report.err.msg);
		*status = 1;
		return false;
	}
	if (rep->dump_trace) {
		struct dump *d = &rep->dump;

		dump__init(d, stdout, rep->session->data, &rep->session->machine);
		/* records upstream's report leaves to perf's default handler, which -D marks */
		d->unhandled[PERF_RECORD_CALLCHAIN_DEFERRED / 64] |=
			1ULL << (PERF_RECORD_CALLCHAIN_DEFERRED % 64);
		d->unhandled[PERF_RECORD_THREAD_MAP / 64] |= 1ULL << (PERF_RECORD_THREAD_MAP % 64);
		d->unhandled[PERF_RECORD_CPU_MAP / 64] |= 1ULL << (PERF_RECORD_CPU_MAP % 64);
		rep->observer = (struct session_observer){
			.record = dump__record, .event = dump__event, .arg = d,
		};
		perf_session__set_observer(rep->session, &rep->observer);
	}
	return true;
}

/* --header-only: a pipe's header features are records, read to their end */
static int report__header_only(struct perf_report *rep)
{
	int ret;

	if (!perf_data__is_pipe(rep->session->data))
		return 0;
	ret = perf_session__process_events(rep->session);
	if (ret && !perf_stdout__flush(ret))
		fprintf(stderr, "perf report: %s\n", rep->session->err.msg);
	return perf_session__exit_code(ret, perf_stdout__flush(0));
}

/* the --header-only text, for the browser's H key: NULL when out of memory */
static char *report__header_text(struct perf_report *rep, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	if (!fp)
		return NULL;
	dump__header(rep->session->data, fp, rep->show_info);
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* the browser over what report__fprintf() would print; the exit status */
static int report__browse(struct perf_report *rep)
{
	struct report_event *events;
	size_t nr_events, nr_entries, header_len = 0;
	struct perf_err err;
	char *header;
	int ret;

	ret = report__output_events(&rep->report, &events, &nr_events, &nr_entries);
	if (ret) {
		fprintf(stderr, "perf report: %s\n", strerror(-ret));
		return 1;
	}
	if (!nr_entries) {
		fprintf(stderr, "Error:\nThe %s data has no samples!\n",
			perf_data__name(rep->session->data));
		return 0;
	}
	header = report__header_text(rep, &header_len);
	ret = hists_browser__run(events, nr_events, header, header_len, &err);
	if (ret)
		fprintf(stderr, "perf report: %s\n", err.msg);
	free(header);
	free(events);
	return ret ? 1 : 0;
}

/* the header, the samples read, then the report, the tasks or the stats: the exit status */
static int report__run(struct perf_report *rep)
{
	enum sample_filter_fail failed;
	struct perf_err err;
	int read_ret, ret;

	if (report__setup_parent(&rep->report)) {
		fprintf(stderr, "perf report: %s\n", rep->report.err.msg);
		return 1;
	}
	/* the browser shows the header on its H key */
	if ((rep->show_header || rep->header_only) && !rep->ropts.quiet && !rep->browse) {
		dump__header(rep->session->data, stdout, rep->show_info);
		if (rep->header_only)
			return report__header_only(rep);
	} else if (!rep->ropts.quiet && !rep->stats_mode && !rep->tasks_mode && !rep->browse) {
		fputs(HEADER_HINT, stdout);
	}
	if (sample_filter__setup(&rep->filter, rep->session->data, &failed, &err)) {
		perf_stdout__flush(0);
		fprintf(stderr, "%s\n", err.msg);
		if (failed == SAMPLE_FILTER_FAIL_CPU)
			fprintf(stderr, "Error:\nfailed to set cpu bitmap\n");
		/* upstream: -EINVAL for --time; it goes on to exit 0 after the others */
		return failed == SAMPLE_FILTER_FAIL_TIME ? PERF_EXIT_EINVAL : PERF_EXIT_INPUT;
	}
	report__elide_columns(rep, rep->browse ? NULL : stdout);
	/* no filter, no per-sample checks */
	rep->ropts.filter = sample_filter__active(&rep->filter) ? &rep->filter : NULL;
	read_ret = perf_session__process_events(rep->session);
	if (read_ret) {
		/* output that could not be written is said once, by perf_stdout__finish() */
		bool output_failed = perf_stdout__flush(read_ret);

		if (!output_failed)
			fprintf(stderr, "perf report: %s\n", rep->session->err.msg);
		if (rep->group_refused && !output_failed)
			return PERF_EXIT_USAGE;
		/* a cut stream: upstream reports what came before the cut */
		if (output_failed || read_ret != -ENODATA)
			return perf_session__exit_code(read_ret, output_failed);
	}
	if (rep->tasks_mode && !rep->dump_trace && !rep->stats_mode) {
		ret = report__fprintf_tasks(&rep->report, stdout, rep->mmaps_mode) ? 1 : 0;
	} else if (rep->dump_trace || rep->stats_mode) {
		report__fprintf_stats(&rep->report, stdout);
		ret = 0;
	} else {
		if (rep->ropts.hopts.latency && !rep->ropts.hopts.prefer_latency &&
		    !report__was_parallel(&rep->report))
			hist_opts__drop_latency(&rep->ropts.hopts, rep->sort_order, rep->field_order);
		if (rep->browse) {
			ret = report__browse(rep);
		} else {
			ret = report__fprintf(&rep->report, stdout);
			if (!perf_stdout__flush(ret) && ret)
				fprintf(stderr, "perf report: writing the report failed\n");
			ret = ret ? 1 : 0;
		}
	}
	/* what came before a cut was reported, but the input was not whole */
	if (!ret && read_ret)
		ret = perf_session__exit_code(read_ret, false);
	perf_stdout__flush(0);
	perf_session__warn_about_errors(rep->session, stderr);
	perf_session__fprintf_stage_stats(rep->session, stderr,
					  rep->unwind_stats ? 1U << SAMPLE_STAGE_UNWIND : 0);
	return ret;
}

int cmd_report(int argc, const char **argv)
{
	struct perf_report rep = {
		.ropts = {
			.max_stack = PERF_MAX_STACK_DEPTH,
			.inline_frames = true,
			.skip_empty = true,
			.parent_pattern = DEFAULT_PARENT_PATTERN,
			.hopts.children = true,
		},
		.demangle = true,
		.group = true,
	};
	const struct option options[] = {
		OPT_STRING('i', "input", &rep.input, "file", "input file name"),
		OPT_INCR('v', "verbose", &rep.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN('q', "quiet", &rep.ropts.quiet, "Do not show any warnings or messages"),
		OPT_BOOLEAN('f', "force", &rep.symbol_conf.force, "don't complain, do it"),
		OPT_BOOLEAN('D', "dump-raw-trace", &rep.dump_trace, "dump raw trace in ASCII"),
		OPT_BOOLEAN(0, "stats", &rep.stats_mode, "Display event stats"),
		OPT_STRING(0, "kallsyms", &rep.symbol_conf.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN('n', "show-nr-samples", &rep.show_nr_samples,
			    "Show a column with the number of samples"),
		OPT_BOOLEAN(0, "stdio", &rep.use_stdio, "Use the stdio interface"),
		OPT_BOOLEAN(0, "tui", &rep.use_tui, "Use the TUI interface"),
		OPT_BOOLEAN(0, "header", &rep.show_header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &rep.header_only, "Show only data header."),
		OPT_STRING('c', "comms", &rep.filter.comm_str, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING('d', "dsos", &rep.filter.dso_str, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_SAMPLE_FILTER(&rep.filter),
		OPT_STRING('s', "sort", &rep.sort_order, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, parent, cpu, trace, cgroup, cgroup_id, symoff, latency"),
		OPT_STRING('F', "fields", &rep.field_order, "key[,keys...]",
			   "output field(s): overhead latency overhead_children latency_children overhead_sys overhead_us sample period and the sort keys"),
		OPT_CALLBACK_DEFAULT('g', "call-graph", &rep, "print_type,threshold[,print_limit],order,sort_key[,branch],value",
				     "Display call graph (stack chain/backtrace): graph, fractal, flat, folded or none; threshold; print limit; caller or callee; function, address or srcline; percent, period or count. Default: " CALLCHAIN_DEFAULT_OPT,
				     parse_call_graph, CALLCHAIN_DEFAULT_OPT),
		OPT_BOOLEAN(0, "children", &rep.ropts.hopts.children,
			    "Accumulate callchains of children and show total overhead as well. Enabled by default, use --no-children to disable."),
		OPT_INTEGER(0, "max-stack", &rep.ropts.max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: 127"),
		OPT_BOOLEAN('G', "inverted", &rep.inverted, "alias for inverted call graph"),
		OPT_STRING('t', "field-separator", &rep.ropts.hopts.field_sep, "separator",
			   "separator for columns, no spaces will be added between columns '.' is reserved."),
		OPT_BOOLEAN('U', "hide-unresolved", &rep.ropts.hopts.hide_unresolved,
			    "Only display entries resolved to a symbol"),
		OPT_STRING(0, "symfs", &rep.symbol_conf.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING('k', "vmlinux", &rep.symbol_conf.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN(0, "ignore-vmlinux", &rep.symbol_conf.ignore_vmlinux,
			    "don't load vmlinux even if found"),
		OPT_BOOLEAN(0, "demangle", &rep.demangle,
			    "Symbol demangling. Enabled by default, use --no-demangle to disable."),
		OPT_BOOLEAN(0, "demangle-kernel", &rep.symbol_conf.demangle_kernel,
			    "Enable kernel symbol demangling"),
		OPT_BOOLEAN('I', "show-info", &rep.show_info,
			    "Display extended information about perf.data file"),
		OPT_BOOLEAN(0, "show-total-period", &rep.show_total_period,
			    "Show a column with the sum of periods"),
		OPT_CALLBACK(0, "percent-limit", &rep, "percent",
			     "Don't show entries under that percent", parse_percent_limit),
		OPT_BOOLEAN(0, "inline", &rep.ropts.inline_frames,
			    "Show inline function"),
		OPT_BOOLEAN(0, "skip-empty", &rep.ropts.skip_empty,
			    "Do not display empty (or dummy) events in the output"),
		OPT_BOOLEAN(0, "tasks", &rep.tasks_mode, "Display recorded tasks"),
		OPT_BOOLEAN(0, "mmaps", &rep.mmaps_mode, "Display recorded tasks memory maps"),
		OPT_BOOLEAN('T', "threads", &rep.ropts.thread_counts, "Show per-thread event counters"),
		OPT_BOOLEAN(0, "group", &rep.group, "Show event group information together"),
		OPT_BOOLEAN('H', "hierarchy", &rep.ropts.hopts.hierarchy, "Show entries in a hierarchy"),
		OPT_STRING('p', "parent", &rep.ropts.parent_pattern, "regex",
			   "regex filter to identify parent, see: '--sort parent'"),
		OPT_CALLBACK(0, "percentage", &rep, "relative|absolute",
			     "how to display percentage of filtered entries", parse_percentage),
		OPT_STRING(0, "symbol-filter", &rep.ropts.hopts.symbol_filter, "pattern",
			   "only show symbols that (partially) match with this filter"),
		OPT_BOOLEAN(0, "showcpuutilization", &rep.ropts.hopts.cpu_util,
			    "Show sample percentage for different cpu modes"),
		OPT_STRING(0, "parallelism", &rep.parallelism, "parallelism",
			   "only consider these parallelism levels (cpu set format)"),
		OPT_BOOLEAN(0, "latency", &rep.ropts.hopts.prefer_latency,
			    "Show latency-centric profile rather than the default\n"
			    "\t\t\t  CPU-consumption-centric profile\n"
			    "\t\t\t  (requires perf record --latency flag)."),
		OPT_UNWIND_STYLE(),
		OPT_STRING(0, "unwind", &rep.unwind, UNWIND_OPT_HELP,
			   "How to unwind user stacks recorded with regs + stack dumps (default: auto)"),
		OPT_BOOLEAN(0, "unwind-stats", &rep.unwind_stats,
			    "Print user-stack unwinding statistics at the end"),
		OPT_U64(0, "deferred-max-mb", &rep.deferred_max_mb,
			"Memory cap for samples waiting for their deferred user callchain (MB, default 64)"),
		OPT_END()
	};
	int argc_left, ret;

	chain_params__init(&rep.ropts.hopts.chain);
	argc_left = parse_options(argc, argv, options, report_usage, 0);
	if (argc_left == -2)
		return 0;
	if (argc_left < 0)
		return PERF_EXIT_USAGE;
	if (argc_left > 0) {
		fprintf(stderr, "perf report: unexpected argument '%s' (symbol filters are not supported)\n",
			argv[0]);
		return PERF_EXIT_USAGE;
	}
	if (!report__check_options(&rep, &ret))
		return ret;
	/* as upstream: text for a terminal is paged, unless the input is the standard input */
	if (!rep.browse && strcmp(rep.input, "-"))
		pager__request();
	if (report__open(&rep, &ret)) {
		bool usage = false;

		if (report__setup(&rep, &ret, &usage))
			ret = report__run(&rep);
		else if (usage)
			usage_with_option(report_usage, options,
					  strstr(rep.err.msg, "--fields") ? 'F' : 's', stderr);
	}
	sample_filter__exit(&rep.filter);
	report__exit(&rep.report);
	perf_session__delete(rep.session);
	return ret;
}
