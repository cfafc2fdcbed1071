// SPDX-License-Identifier: GPL-2.0
/*
 * perf script: read perf.data and print every sample (and, on request, side-band records)
 * as text, as upstream perf does. Option parsing and wiring only: the work is in
 * util/session.c, util/script-output.c and util/dump.c.
 *
 * perf script report flamegraph (upstream's Python script, done natively): the same
 * session, filters and callbacks, with the samples going to util/flamegraph.h instead of
 * the text output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "builtin.h"
#include "util/dump.h"
#include "util/flamegraph.h"
#include "util/parse-options.h"
#include "util/sample-filter.h"
#include "util/script-output.h"
#include "util/session.h"
#include "util/trace-event.h"
#include "util/unwind.h"

struct perf_script {
	struct perf_tool	tool;
	struct script_output	out;
	struct symbol_conf	symbol_conf;
	const char		*input;
	const char		*symfs;
	const char		*kallsyms;
	const char		*vmlinux;
	bool			demangle;	/* --no-demangle clears it */
	bool			demangle_kernel;
	bool			dump_trace;
	bool			show_header;
	bool			header_only;
	bool			show_info;
	bool			show_mmap_events;
	bool			show_task_events;
	bool			show_switch_events;
	bool			show_namespace_events;
	bool			show_bpf_events;
	bool			show_cgroup_events;
	bool			show_lost_events;
	bool			show_round_events;
	bool			hide_call_graph;
	bool			reltime;
	bool			deltatime;
	bool			inline_frames;
	bool			merge_callchains;
	bool			stitch_stats;
	bool			nanosecs;
	int			verbose;
	int			max_stack;
	unsigned long long	deferred_max_mb;
	const char		*unwind;	/* --unwind: NULL for auto */
	bool			unwind_stats;
	bool			show_unwind;
	struct sample_filter	filter;		/* --comms, --pid, --tid, -C, --time, -S */
	struct dump		dump;		/* -D */
	struct session_observer	observer;	/* -D: the dump */
	/* perf script report flamegraph: NULL for the text output */
	struct flamegraph	*flamegraph;
	const char		*fg_output;	/* -o: NULL for the format's default */
	const char		*fg_format;
	const char		*fg_colors;
	const char		*fg_template;	/* accepted, not read (the page is built in) */
	const char		*fg_minwidth;
	bool			fg_allow_download;
};

static struct perf_script *script_of(const struct perf_tool *tool)
{
	return (struct perf_script *)container_of(tool, struct perf_script, tool);
}

/* upstream's script prints nothing of a sample any of its filters refuses */
static bool script__filtered(struct perf_script *script, struct perf_session *session,
			     const struct perf_sample *sample)
{
	return sample_filter__skips(&script->filter, session, sample);
}

static int script__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);

	(void)event;
	if (script->dump_trace) {
		struct thread *thread = perf_session__sample_thread(session, sample);
		struct addr_location al;

		machine__resolve(&session->machine, thread, (u8)sample->cpumode, sample->ip, &al);
		dump__resolved(&script->dump, thread, &al);
	}
	if (script__filtered(script, session, sample))
		return 0;
	if (script->flamegraph)
		return flamegraph__add_sample(script->flamegraph, &session->machine,
					      perf_session__sample_thread(session, sample), sample,
					      evattr);
	return script_output__sample(&script->out, session, sample, evattr);
}

/*
 * --show-mmap-events / --show-task-events: the record is applied first, then printed with
 * the thread it names and the time and tid of its sample_id, as perf does.
 */
static int script__show_sideband(struct perf_script *script, struct perf_session *session,
				 const struct perf_event_header *event, struct perf_sample *sample,
				 struct perf_evattr *evattr, s32 pid, s32 tid)
{
	struct perf_sample shown = *sample;
	struct thread *thread;

	if (!evattr)
		evattr = perf_data__attr(session->data, 0);
	if (evattr && !perf_attr__has(&evattr->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL)) {
		shown.cpu = 0;
		shown.time = 0;
	}
	if (sample_filter__drops_cpu(&script->filter, shown.cpu))
		return 0;
	thread = machine__findnew_thread(&session->machine, pid, tid);
	script_output__fprintf_start(&script->out, session, thread, &shown, evattr);
	dump__event_line(script->out.fp, &session->machine, event, &shown, evattr);
	return 0;
}

static int script__mmap(const struct perf_tool *tool, struct perf_session *session,
			const struct perf_event_header *event, struct perf_sample *sample,
			struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);
	const struct perf_record_mmap *m = (const void *)event;	/* pid/tid lead MMAP2 too */
	int ret = perf_event__process_mmap(tool, session, event, sample, evattr);

	if (ret || !script->show_mmap_events)
		return ret;
	return script__show_sideband(script, session, event, sample, evattr, (s32)m->pid, (s32)m->tid);
}

static int script__comm(const struct perf_tool *tool, struct perf_session *session,
			const struct perf_event_header *event, struct perf_sample *sample,
			struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);
	const struct perf_record_comm *c = (const void *)event;
	int ret = perf_event__process_comm(tool, session, event, sample, evattr);

	if (ret || !script->show_task_events)
		return ret;
	return script__show_sideband(script, session, event, sample, evattr, (s32)c->pid, (s32)c->tid);
}

static int script__task(const struct perf_tool *tool, struct perf_session *session,
			const struct perf_event_header *event, struct perf_sample *sample,
			struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);
	const struct perf_record_fork *f = (const void *)event;
	bool is_exit = event->type == PERF_RECORD_EXIT;
	int ret;

	/* an exit is shown while the thread still exists */
	if (is_exit && script->show_task_events) {
		ret = script__show_sideband(script, session, event, sample, evattr, (s32)f->pid, (s32)f->tid);
		if (ret)
			return ret;
	}
	ret = is_exit ? perf_event__process_exit(tool, session, event, sample, evattr)
		      : perf_event__process_fork(tool, session, event, sample, evattr);
	if (ret || is_exit || !script->show_task_events)
		return ret;
	return script__show_sideband(script, session, event, sample, evattr, (s32)f->pid, (s32)f->tid);
}

/* --show-lost-events: perf shows LOST records, not LOST_SAMPLES */
static int script__lost(const struct perf_tool *tool, struct perf_session *session,
			const struct perf_event_header *event, struct perf_sample *sample,
			struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);

	if (!script->show_lost_events || event->type != PERF_RECORD_LOST)
		return 0;
	return script__show_sideband(script, session, event, sample, evattr, (s32)sample->pid,
				     (s32)sample->tid);
}

/* switch, namespaces and cgroup records: --show-*-events, and the names -F cgroup prints */
static int script__other(const struct perf_tool *tool, struct perf_session *session,
			 const struct perf_event_header *event, struct perf_sample *sample,
			 struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);
	s32 pid = (s32)sample->pid, tid = (s32)sample->tid;

	switch (event->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (!script->show_switch_events)
			return 0;
		break;
	case PERF_RECORD_NAMESPACES: {
		const struct perf_record_namespaces *ns = (const void *)event;

		if (!script->show_namespace_events)
			return 0;
		/* shown as the task it names */
		pid = (s32)ns->pid;
		tid = (s32)ns->tid;
		break;
	}
	case PERF_RECORD_CGROUP:
		if (machine__process_cgroup(&session->machine, event))
			return -ENOMEM;
		if (!script->show_cgroup_events)
			return 0;
		break;
	case PERF_RECORD_BPF_EVENT:
		if (!script->show_bpf_events)
			return 0;
		break;
	default:
		return 0;
	}
	return script__show_sideband(script, session, event, sample, evattr, pid, tid);
}

/* --show-bpf-events: a ksymbol is applied (its symbol resolves later samples), then shown */
static int script__ksymbol(const struct perf_tool *tool, struct perf_session *session,
			   const struct perf_event_header *event, struct perf_sample *sample,
			   struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);
	int ret = perf_event__process_ksymbol(tool, session, event, sample, evattr);

	if (ret || !script->show_bpf_events)
		return ret;
	return script__show_sideband(script, session, event, sample, evattr, (s32)sample->pid,
				     (s32)sample->tid);
}

static int script__callchain_deferred(const struct perf_tool *tool, struct perf_session *session,
				      const struct perf_event_header *event, struct perf_sample *sample,
				      struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);

	if (script->dump_trace) {
		struct thread *thread = machine__findnew_thread(&session->machine, (s32)sample->pid, (s32)sample->tid);
		struct addr_location al;

		machine__resolve(&session->machine, thread, (u8)sample->cpumode, sample->ip, &al);
		dump__resolved(&script->dump, thread, &al);
	}
	return script_output__deferred_record(&script->out, session, (const void *)event, sample,
					      evattr);
}

/* pipe mode: attrs and tracing data arrive as records, after the output was set up */
static int script__user_meta(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	struct perf_script *script = script_of(tool);

	(void)sample;
	(void)evattr;
	switch (event->type) {
	case PERF_RECORD_HEADER_TRACING_DATA:
		/* the session built it from the record just now */
		script->out.tevent = perf_session__trace_event(session);
		if (script_output__setup(&script->out, session))
			return perf_session__tool_error(session, EINVAL, script->out.err.msg);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		if (script->show_round_events)
			fprintf(script->out.fp, "PERF_RECORD_FINISHED_ROUND\n");
		break;
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
		if (script->show_header)
			dump__feature_event(session->data, event, stdout, script->show_info);
		if (script_output__setup(&script->out, session))
			return perf_session__tool_error(session, EINVAL, script->out.err.msg);
		break;
	default:
		break;
	}
	return 0;
}

static void perf_script__init_tool(struct perf_script *script)
{
	struct perf_tool *tool = &script->tool;

	perf_tool__init(tool);
	tool->sample = script__sample;
	tool->mmap = script__mmap;
	tool->comm = script__comm;
	tool->fork = script__task;
	tool->exit = script__task;
	tool->lost = script__lost;
	tool->throttle = perf_event__process_nop;
	tool->ksymbol = script__ksymbol;
	tool->callchain_deferred = script__callchain_deferred;
	tool->other = script__other;
	tool->user_meta = script__user_meta;
	/* rounds are shown where they are in the file, and so is everything around them */
	tool->ordered_events = !script->show_round_events;
}

static int parse_fields_cb(const struct option *opt, const char *arg, bool unset)
{
	struct script_fields *sel = opt->value;
	struct perf_err err;

	if (unset)
		return 0;
	if (script_fields__parse(sel, arg, stderr, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static const char *const script_usage[] = {
	"perf script [<options>]",
	"perf script [<options>] record <script> [<record-options>] <command>",
	NULL
};

/* %pS and function fields of tracepoints name kernel addresses through our kallsyms */
static char *script__resolve_kernel_addr(void *priv, unsigned long long *addrp, char **modp)
{
	struct perf_session *session = priv;
	struct machine *machine = &session->machine;
	struct addr_location al;

	machine__resolve(machine, NULL, PERF_RECORD_MISC_KERNEL, *addrp, &al);
	if (!al.sym)
		return NULL;
	*modp = al.map->dso->kind == DSO_KIND_KMODULE ? al.map->dso->long_name : NULL;
	/* back from the kallsyms address space to the recorded one */
	*addrp = al.sym->start - (al.sym_addr - al.addr);
	return (char *)al.sym->name;
}

static const char *const flamegraph_usage[] = {
	"perf script [<options>] report flamegraph [<options>]",
	NULL
};

#define FG_ERR	"perf script report flamegraph: "

/*
 * The report's words: its own options and the script options that make sense for it,
 * into script (the filters, the input) and opts. Upstream passes them to flamegraph.py only
 * after a "--" (`report flamegraph -i F -- -f json`); both forms are taken. Returns 0, or
 * the exit status.
 */
static int script__parse_flamegraph(struct perf_script *script, int argc, const char **argv,
				    struct flamegraph_opts *opts)
{
	const struct option options[] = {
		OPT_STRING('o', "output", &script->fg_output, "file",
			   "output file name (default flamegraph.html, stacks.json for json, flamegraph.svg for svg; - for stdout)"),
		OPT_STRING('f', "format", &script->fg_format, "html|json|svg", "output file format"),
		OPT_STRING(0, "colorscheme", &script->fg_colors, "blue-green|orange",
			   "flame graph color scheme"),
		OPT_STRING('e', "event", &opts->event, "name",
			   "only the samples of this event (its full name, as perf script prints it)"),
		OPT_STRING(0, "template", &script->fg_template, "file",
			   "accepted for upstream's command lines: the page is built in, no template is read"),
		OPT_BOOLEAN(0, "allow-download", &script->fg_allow_download,
			    "accepted for upstream's command lines: nothing is ever downloaded"),
		OPT_BOOLEAN(0, "period", &opts->by_period, "box widths by sample period, not count"),
		OPT_BOOLEAN(0, "icicle", &opts->icicle,
			    "open the page in the callee (icicle) view, leaves on top"),
		OPT_STRING(0, "minwidth", &script->fg_minwidth, "px",
			   "omit boxes narrower than this at full width (default 1, 0 keeps all)"),
		OPT_STRING('i', "input", &script->input, "file", "input file name"),
		OPT_STRING('c', "comms", &script->filter.comm_str, "comm[,comm...]",
			   "only the samples of these comms"),
		OPT_SAMPLE_FILTER(&script->filter),
		OPT_INTEGER(0, "max-stack", &script->max_stack,
			    "Set the maximum stack depth when parsing the callchain. Default: 127"),
		OPT_BOOLEAN(0, "inline", &script->inline_frames, "Show inline function"),
		OPT_STRING(0, "symfs", &script->symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &script->kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('k', "vmlinux", &script->vmlinux, "file", "vmlinux pathname"),
		OPT_END()
	};
	const char **rest;
	int left;

	left = parse_options(argc, argv, options, flamegraph_usage, 0);
	if (left > 0) {
		/* what followed a "--": flamegraph.py's options in upstream's form, once more */
		rest = calloc((size_t)left + 2, sizeof(*rest));
		if (!rest)
			return PERF_EXIT_INPUT;
		rest[0] = argv[0];
		memcpy(rest + 1, argv, (size_t)left * sizeof(*rest));
		left = parse_options(left + 1, rest, options, flamegraph_usage, 0);
		if (left > 0)
			fprintf(stderr, FG_ERR "unexpected argument '%s'\n", rest[0]);
		free(rest);
	}
	if (left == -2)
		return -2;
	if (left)
		return PERF_EXIT_USAGE;

	opts->format = FLAMEGRAPH_HTML;
	if (script->fg_format && !strcmp(script->fg_format, "json")) {
		opts->format = FLAMEGRAPH_JSON;
	} else if (script->fg_format && !strcmp(script->fg_format, "svg")) {
		opts->format = FLAMEGRAPH_SVG;
	} else if (script->fg_format && strcmp(script->fg_format, "html")) {
		fprintf(stderr, FG_ERR "--format takes html, json or svg, not '%s'\n", script->fg_format);
		return PERF_EXIT_USAGE;
	}
	opts->colors = FLAMEGRAPH_BLUE_GREEN;
	if (script->fg_colors && !strcmp(script->fg_colors, "orange")) {
		opts->colors = FLAMEGRAPH_ORANGE;
	} else if (script->fg_colors && strcmp(script->fg_colors, "blue-green")) {
		fprintf(stderr, FG_ERR "--colorscheme takes blue-green or orange, not '%s'\n",
			script->fg_colors);
		return PERF_EXIT_USAGE;
	}
	opts->minwidth = 1;
	if (script->fg_minwidth) {
		char *end;

		opts->minwidth = strtod(script->fg_minwidth, &end);
		if (end == script->fg_minwidth || *end || !(opts->minwidth >= 0) ||
		    opts->minwidth > FLAMEGRAPH_WIDTH) {
			fprintf(stderr, FG_ERR "--minwidth takes a number of pixels from 0 to %d, not '%s'\n",
				FLAMEGRAPH_WIDTH, script->fg_minwidth);
			return PERF_EXIT_USAGE;
		}
	}
	if (opts->event && !*opts->event)
		opts->event = NULL;	/* upstream's default: every event */
	if (!script->fg_output)
		script->fg_output = opts->format == FLAMEGRAPH_JSON ? "stacks.json" :
				    opts->format == FLAMEGRAPH_SVG ? "flamegraph.svg" :
				    "flamegraph.html";
	opts->max_stack = script->max_stack > 0 ? (unsigned int)script->max_stack : 0;
	opts->inline_frames = script->inline_frames;
	opts->title = script->input ? script->input : "perf.data";
	return 0;
}

/* -e naming no event of the file draws nothing: say so rather than write an empty graph */
static int script__check_flamegraph_event(struct perf_session *session, const char *event)
{
	size_t nr = perf_data__nr_attrs(session->data);

	if (!event)
		return 0;
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(perf_evattr__name(perf_data__attr(session->data, i)), event))
			return 0;
	fprintf(stderr, FG_ERR "no event '%s' in the input (its events:", event);
	for (size_t i = 0; i < nr; i++)
		fprintf(stderr, "%s '%s'", i ? "," : "", perf_evattr__name(perf_data__attr(session->data, i)));
	fprintf(stderr, ")\n");
	return PERF_EXIT_INPUT;
}

/* the graph, to -o's file or stdout; 0 or the exit status */
static int script__write_flamegraph(struct perf_script *script)
{
	struct flamegraph *fg = script->flamegraph;
	bool to_stdout = !strcmp(script->fg_output, "-");
	FILE *fp = to_stdout ? stdout : fopen(script->fg_output, "w");

	if (!fp) {
		fprintf(stderr, FG_ERR "cannot write '%s': %s\n", script->fg_output, strerror(errno));
		return PERF_EXIT_INPUT;
	}
	/* upstream's line, on stdout as flamegraph.py prints it */
	if (!to_stdout)
		printf("dumping data to %s\n", script->fg_output);
	if (fg->nr_tracepoint)
		fprintf(stderr, FG_ERR "%llu tracepoint samples left out (as upstream's flamegraph.py leaves them)\n",
			(unsigned long long)fg->nr_tracepoint);
	flamegraph__sum(fg);
	switch (fg->opts.format) {
	case FLAMEGRAPH_JSON:
		flamegraph__write_json(fg, fp);
		break;
	case FLAMEGRAPH_SVG:
		flamegraph__write_svg(fg, fp);
		break;
	case FLAMEGRAPH_HTML:
	default:
		flamegraph__write_html(fg, fp);
		break;
	}
	/* stdout's failures are perf_stdout__finish()'s to say */
	if (to_stdout)
		return 0;
	if (ferror(fp) | fclose(fp)) {
		fprintf(stderr, FG_ERR "writing '%s' failed: %s\n", script->fg_output, strerror(errno));
		return PERF_EXIT_INPUT;
	}
	return 0;
}

int cmd_script(int argc, const char **argv)
{
	struct script_fields fields;
	struct perf_script script = {
		.input = NULL,
		.merge_callchains = true,
		.max_stack = PERF_MAX_STACK_DEPTH,
		.inline_frames = true,
		.demangle = true,
	};
	const struct option options[] = {
		OPT_STRING('i', "input", &script.input, "file", "input file name"),
		OPT_BOOLEAN('D', "dump-raw-trace", &script.dump_trace, "dump raw trace in ASCII"),
		OPT_INCR('v', "verbose", &script.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN('f', "force", &script.symbol_conf.force, "don't complain, do it"),
		OPT_CALLBACK('F', "fields", &fields, "str",
			     "comma separated output fields prepend with 'type:'. +field to add and -field to remove. Valid types: hw,sw,trace,raw,break,synth. Fields: comm,tid,pid,time,cpu,event,trace,ip,sym,dso,dsoff,addr,symoff,srcline,period,cgroup",
			     parse_fields_cb),
		OPT_STRING('c', "comms", &script.filter.comm_str, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_SAMPLE_FILTER(&script.filter),
		OPT_BOOLEAN('G', "hide-call-graph", &script.hide_call_graph,
			    "When printing symbols do not display call chain"),
		OPT_BOOLEAN(0, "reltime", &script.reltime, "Show time stamps relative to start"),
		OPT_BOOLEAN(0, "deltatime", &script.deltatime, "Show time stamps relative to previous event"),
		OPT_BOOLEAN(0, "ns", &script.nanosecs, "Use 9 decimal places when displaying time"),
		OPT_BOOLEAN(0, "header", &script.show_header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &script.header_only, "Show only data header."),
		OPT_BOOLEAN('I', "show-info", &script.show_info, "Display extended information from perf.data file"),
		OPT_BOOLEAN(0, "show-mmap-events", &script.show_mmap_events, "Show the mmap events"),
		OPT_BOOLEAN(0, "show-task-events", &script.show_task_events, "Show the fork/comm/exit events"),
		OPT_BOOLEAN(0, "show-switch-events", &script.show_switch_events,
			    "Show context switch events (if recorded)"),
		OPT_BOOLEAN(0, "show-namespace-events", &script.show_namespace_events,
			    "Show namespace events (if recorded)"),
		OPT_BOOLEAN(0, "show-bpf-events", &script.show_bpf_events,
			    "Show bpf related events (if recorded)"),
		OPT_BOOLEAN(0, "show-cgroup-events", &script.show_cgroup_events,
			    "Show cgroup events (if recorded)"),
		OPT_BOOLEAN(0, "show-lost-events", &script.show_lost_events,
			    "Show lost events (if recorded)"),
		OPT_BOOLEAN(0, "show-round-events", &script.show_round_events,
			    "Show round events (if recorded)"),
		OPT_STRING(0, "symfs", &script.symfs, "directory", "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &script.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('k', "vmlinux", &script.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN(0, "demangle", &script.demangle, "Enable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &script.demangle_kernel,
			    "Enable kernel symbol demangling"),
		OPT_BOOLEAN(0, "inline", &script.inline_frames,
			    "Show inline function"),
		OPT_BOOLEAN(0, "merge-callchains", &script.merge_callchains,
			    "Enable merge deferred user callchains"),
		OPT_BOOLEAN(0, "stitch-stats", &script.stitch_stats,
			    "Print deferred callchain stitching statistics at the end"),
		OPT_U64(0, "deferred-max-mb", &script.deferred_max_mb,
			"Memory cap for samples waiting for their deferred user callchain (MB, default 64)"),
		OPT_UNWIND_STYLE(),
		OPT_STRING(0, "unwind", &script.unwind, UNWIND_OPT_HELP,
			   "How to unwind user stacks recorded with regs + stack dumps (default: auto)"),
		OPT_BOOLEAN(0, "show-unwind", &script.show_unwind,
			    "Show where each callchain frame came from (kernel, user-fp, fp, entry, cfi, insn, dwarf, ...)"),
		OPT_BOOLEAN(0, "unwind-stats", &script.unwind_stats,
			    "Print user-stack unwinding statistics at the end"),
		OPT_INTEGER(0, "max-stack", &script.max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: 127"),
		OPT_END()
	};
	struct session_opts sopts = { 0 };
	struct perf_session *session;
	struct perf_err err;
	bool output_failed = false;
	enum sample_filter_fail failed;
	struct flamegraph_opts fg_opts = { .format = FLAMEGRAPH_HTML };
	struct flamegraph fg;
	int argc_left, ret;

	script_fields__init_defaults(&fields);
	/* a report's options are its own: they follow its name */
	argc_left = parse_options(argc, argv, options, script_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc_left == -2)
		return 0;
	if (argc_left < 0)
		return PERF_EXIT_USAGE;
	if (argc_left > 0 && !strcmp(argv[0], "report")) {
		if (argc_left < 2) {
			fprintf(stderr, "perf script report: which report? This perf has flamegraph\n");
			return PERF_EXIT_USAGE;
		}
		if (strcmp(argv[1], "flamegraph")) {
			fprintf(stderr, "perf script report: no report '%s' (this perf has flamegraph; upstream's Python scripts are not run)\n",
				argv[1]);
			return PERF_EXIT_USAGE;
		}
		ret = script__parse_flamegraph(&script, argc_left - 1, argv + 1, &fg_opts);
		if (ret)
			return ret == -2 ? 0 : ret;
		if (flamegraph__init(&fg, &fg_opts)) {
			flamegraph__exit(&fg);
			fprintf(stderr, FG_ERR "out of memory\n");
			return PERF_EXIT_INPUT;
		}
		script.flamegraph = &fg;
		argc_left = 0;
	}
	if (argc_left > 0) {
		fprintf(stderr, "perf script: unexpected argument '%s' (scripts are not supported)\n", argv[0]);
		return PERF_EXIT_USAGE;
	}
	/* perf's words and exit status for these two */
	if (script.vmlinux && access(script.vmlinux, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", script.vmlinux);
		return PERF_EXIT_INPUT;
	}
	if (script.reltime && script.deltatime) {
		fprintf(stderr, "reltime and deltatime - the two don't get along well. Please limit to --reltime or --deltatime.\n");
		return PERF_EXIT_INPUT;
	}
	script.symbol_conf.symfs = script.symfs ? script.symfs : "";
	script.symbol_conf.kallsyms = script.kallsyms;
	script.symbol_conf.vmlinux = script.vmlinux;
	script.symbol_conf.no_demangle = !script.demangle;
	script.symbol_conf.demangle_kernel = script.demangle_kernel;
	script.symbol_conf.warn = stderr;
	perf_script__init_tool(&script);
	perf_stdout__buffer();
	script_output__init(&script.out, stdout, &fields);
	script.out.nanosecs = script.nanosecs;
	script.out.reltime = script.reltime;
	script.out.deltatime = script.deltatime;
	script.out.use_callchain = !script.hide_call_graph;
	script.out.inline_frames = script.inline_frames;
	script.out.show_unwind = script.show_unwind;
	script.out.comm_as_read = script.show_round_events;
	script.out.max_stack = script.max_stack > 0 ? (unsigned int)script.max_stack : 0;

	sopts.path = script.input ? script.input : "perf.data";
	sopts.symbol_conf = &script.symbol_conf;
	/* upstream merges under -D too: the dump shows the records, the output the result */
	sopts.merge_deferred = script.merge_callchains;
	sopts.deferred_max_mem = (size_t)script.deferred_max_mb << 20;
	/* script prints as it reads: a progress line only beside output that goes elsewhere */
	sopts.progress = !isatty(STDOUT_FILENO);
	if (unwind_mode__parse(script.unwind, &sopts.unwind_mode)) {
		fprintf(stderr, "perf script: --unwind takes " UNWIND_OPT_HELP ", not '%s'\n", script.unwind);
		ret = PERF_EXIT_USAGE;
		goto out_output;
	}
	sopts.trace_resolver = script__resolve_kernel_addr;
	session = perf_session__new(&sopts, &script.tool, &err);
	if (!session) {
		/* upstream's lines ("failed to open ...") name the input on their own */
		fprintf(stderr, "%s\n", err.msg);
		ret = PERF_EXIT_INPUT;
		goto out_output;
	}
	script.out.tevent = perf_session__trace_event(session);
	if (script.dump_trace) {
		dump__init(&script.dump, stdout, session->data, &session->machine);
		script.dump.rounds_shown = script.show_round_events;
		script.observer = (struct session_observer){
			.record = dump__record, .event = dump__event, .arg = &script.dump,
		};
		perf_session__set_observer(session, &script.observer);
	}
	ret = sample_filter__setup(&script.filter, session->data, &failed, &err);
	if (ret) {
		fprintf(stderr, "%s\n", err.msg);
		/* upstream's exit codes: -EINVAL for --time, -1 for the lists */
		ret = failed == SAMPLE_FILTER_FAIL_TIME ? PERF_EXIT_EINVAL : PERF_EXIT_INPUT;
		goto out_delete;
	}
	if (script.show_header || script.header_only)
		dump__header(session->data, stdout, script.show_info);
	if (script.header_only)
		goto out_delete;
	if (script.flamegraph) {
		ret = script__check_flamegraph_event(session, fg_opts.event);
		if (ret)
			goto out_delete;
	} else if (script_output__setup(&script.out, session)) {
		/* upstream's words alone: they name the event and the field already */
		fprintf(stderr, "%s\n", script.out.err.msg);
		ret = -EINVAL;
		goto out_delete;
	}
	ret = perf_session__process_events(session);
	/* output that could not be written is said once, by perf_stdout__finish() */
	output_failed = perf_stdout__flush(ret);
	if (!output_failed && ret)
		fprintf(stderr, "perf script: %s\n", session->err.msg);
	/* perf leaves the lost-chunks warning out when it showed the records */
	if (script.show_lost_events)
		session->stats.nr_lost_events = 0;
	perf_session__warn_about_errors(session, stderr);
	perf_session__fprintf_stage_stats(session, stderr,
					  script.verbose ? SAMPLE_STAGE_ALL :
					  (script.stitch_stats ? 1U << SAMPLE_STAGE_DEFERRED : 0) |
					  (script.unwind_stats ? 1U << SAMPLE_STAGE_UNWIND : 0));
	/* the graph is written once every sample is in */
	if (script.flamegraph && !ret && !output_failed) {
		ret = script__write_flamegraph(&script);
		if (!ret)
			output_failed = perf_stdout__flush(0);
	}

out_delete:
	sample_filter__exit(&script.filter);
	perf_session__delete(session);
out_output:
	script_output__exit(&script.out);
	if (script.flamegraph)
		flamegraph__exit(script.flamegraph);
	/* the filters' own statuses (234, 255) stand as they are */
	return ret > 1 ? ret : perf_session__exit_code(ret, output_failed);
}
