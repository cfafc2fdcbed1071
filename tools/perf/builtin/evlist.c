// SPDX-License-Identifier: GPL-2.0
/*
 * perf evlist: the events of a recording, one line each, as upstream prints them: the name,
 * or with -F its sample frequency or period, with -v every attr field, with --trace-fields a
 * tracepoint's fields, and with -g the groups ("{a,b}"). Reads the header only; a pipe is
 * read to its end, since its attrs and features may come anywhere in it.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <perf/data.h>
#include <perf/env.h>
#include "builtin.h"
#include "util/header-fprintf.h"
#include "util/parse-options.h"
#include "util/trace-event.h"
#include "util/tracing-data.h"

struct evlist_opts {
	const char	*input;
	bool		force;
	bool		freq;
	bool		group;
	bool		verbose;
	bool		trace_fields;
};

static const char *const evlist_usage[] = {
	"perf evlist [<options>]",
	NULL
};

/* the group event idx leads, NULL when it leads none of two or more */
static const struct perf_env_group *evlist__group_of(const struct perf_env *env, size_t idx)
{
	for (u32 i = 0; i < env->nr_groups; i++)
		if (env->groups[i].leader == idx && env->groups[i].nr_members > 1)
			return &env->groups[i];
	return NULL;
}

/* idx is a member of a group, not its leader */
static bool evlist__is_member(const struct perf_env *env, size_t idx)
{
	for (u32 i = 0; i < env->nr_groups; i++)
		if (idx > env->groups[i].leader &&
		    idx < (size_t)env->groups[i].leader + env->groups[i].nr_members)
			return true;
	return false;
}

static void evlist__print_group(struct perf_data *data, const struct perf_env *env, size_t idx)
{
	const struct perf_env_group *g = evlist__group_of(env, idx);

	if (evlist__is_member(env, idx))
		return;
	if (!g) {
		printf("%s\n", perf_evattr__name(perf_data__attr(data, idx)));
		return;
	}
	/* perf writes "{anon_group}" for a group without a name and reads it back as none */
	printf("%s{", g->name && strcmp(g->name, "{anon_group}") ? g->name : "");
	for (u32 m = 0; m < g->nr_members && idx + m < perf_data__nr_attrs(data); m++)
		printf("%s%s", m ? "," : "", perf_evattr__name(perf_data__attr(data, idx + m)));
	printf("}\n");
}

/* ", trace_fields: a,b,c" for a tracepoint whose format the tracing data has */
static void evlist__print_trace_fields(struct trace_event *te, const struct perf_event_attr *attr,
				       const char *lead)
{
	struct tep_event *event;

	if (attr->type != PERF_TYPE_TRACEPOINT) {
		printf("%s(not a tracepoint)", lead);
		return;
	}
	event = te ? tep_find_event(trace_event__tep(te), (int)attr->config) : NULL;
	if (!event)
		return;
	printf("%strace_fields: ", lead);
	for (struct tep_format_field *f = event->format.fields; f; f = f->next)
		printf("%s%s", f == event->format.fields ? "" : ",", f->name);
}

static void evlist__print_one(const struct evlist_opts *opts, struct perf_evattr *ea,
			      struct trace_event *te)
{
	const struct perf_event_attr *attr = &ea->attr;

	printf("%s", perf_evattr__name(ea));
	if (opts->verbose) {
		char tracefs[PATH_MAX], name[512];
		struct perf_err err;
		bool named = false;

		/* upstream names a tracepoint's config by this machine's tracefs, not the file */
		if (attr->type == PERF_TYPE_TRACEPOINT &&
		    !tracefs__find(NULL, tracefs, sizeof(tracefs), &err))
			named = !tracepoint__name(tracefs, attr->config, name, sizeof(name));
		attr__fprintf_fields(stdout, attr, ": ", ": ", named ? name : NULL);
		if (opts->trace_fields)
			evlist__print_trace_fields(te, attr, ", ");
	} else if (opts->freq) {
		printf(": %s=%" PRIu64, perf_attr__has(attr, PERF_ATTR_BIT_FREQ) ? "sample_freq" : "sample_period",
		       attr->sample_period);
	} else if (opts->trace_fields) {
		evlist__print_trace_fields(te, attr, ": ");
	}
	printf("\n");
}

static int evlist__print(const struct evlist_opts *opts, struct perf_data *data)
{
	const struct perf_env *env = perf_data__env(data);
	struct trace_event *te = NULL;
	bool tracepoints = false;
	struct perf_err err = {};

	if (opts->trace_fields && env->tracing_data_size) {
		te = trace_event__new(env->tracing_data, env->tracing_data_size, &err);
		if (!te)
			fprintf(stderr, "perf evlist: %s: tracepoint fields unknown\n", err.msg);
	}
	for (size_t i = 0; i < perf_data__nr_attrs(data); i++) {
		struct perf_evattr *ea = perf_data__attr(data, i);

		if (ea->attr.type == PERF_TYPE_TRACEPOINT)
			tracepoints = true;
		if (opts->group)
			evlist__print_group(data, env, i);
		else
			evlist__print_one(opts, ea, te);
	}
	if (tracepoints && !opts->trace_fields)
		printf("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n");
	if (!opts->group) {
		for (u32 i = 0; i < env->nr_groups; i++) {
			if (env->groups[i].nr_members > 1) {
				printf("# Tip: use 'perf evlist -g' to show group information\n");
				break;
			}
		}
	}
	trace_event__delete(te);
	return 0;
}

int cmd_evlist(int argc, const char **argv)
{
	struct evlist_opts opts = { .input = NULL };
	const struct option options[] = {
		OPT_BOOLEAN('f', "force", &opts.force, "don't complain, do it"),
		OPT_BOOLEAN('F', "freq", &opts.freq, "Show the sample frequency"),
		OPT_BOOLEAN('g', "group", &opts.group, "Show event group information"),
		OPT_STRING('i', "input", &opts.input, "file", "Input file name"),
		OPT_BOOLEAN('v', "verbose", &opts.verbose, "Show all event attr details"),
		OPT_BOOLEAN(0, "trace-fields", &opts.trace_fields, "Show tracepoint fields"),
		OPT_END()
	};
	struct perf_data *data;
	struct perf_err err = {};
	int left, ret;

	left = parse_options(argc, argv, options, evlist_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	if (left > 0) {
		usage_with_options(evlist_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (opts.group && (opts.freq || opts.verbose || opts.trace_fields)) {
		fprintf(stderr, "  Error: --group option is not compatible with other options\n\n");
		usage_with_options(evlist_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (!opts.input)
		opts.input = isatty(0) ? "perf.data" : "-";
	data = perf_data__open_whole(opts.input, &err);
	if (!data) {
		fprintf(stderr, "perf evlist: %s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	ret = evlist__print(&opts, data);
	perf_data__close(data);
	return ret ? PERF_EXIT_INPUT : 0;
}
