// SPDX-License-Identifier: GPL-2.0
/*
 * perf list [hw|sw|cache|tracepoint|pmu|GLOB...]: the events perf record -e takes on this
 * machine (util/event-list.h), one line each as perf prints them ("  NAME [TYPE]", aliases
 * joined by " OR ", with -d a description below), or with -j/--json an array of objects
 * with upstream's keys (Unit, EventName, EventType, BriefDescription, Encoding).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "util/event-list.h"
#include "util/parse-options.h"

struct list_opts {
	const char	*output;
	const char	*unit;
	bool		json;
	bool		desc;
	bool		long_desc;
	bool		details;
	bool		deprecated;
	bool		debug;
	/* the filters given, none: everything */
	const char	**filters;
	int		nr_filters;
	FILE		*fp;
	size_t		printed;
};

static const char *const list_usage[] = {
	"perf list [<options>] [hw|sw|cache|tracepoint|pmu|sdt|metric|metricgroup|event_glob]",
	NULL
};

static bool list__kind_matches(const char *f, enum event_kind kind)
{
	switch (kind) {
	case EVENT_KIND_HW:		return !strcmp(f, "hw") || !strcmp(f, "hardware");
	case EVENT_KIND_SW:		return !strcmp(f, "sw") || !strcmp(f, "software");
	case EVENT_KIND_CACHE:		return !strcmp(f, "cache") || !strcmp(f, "hwcache");
	case EVENT_KIND_PMU:		return !strcmp(f, "pmu");
	case EVENT_KIND_TRACEPOINT:	return !strcmp(f, "tracepoint");
	case EVENT_KIND_RAW:
	default:			return false;
	}
}

static bool list__is_kind(const char *f)
{
	static const char *const kinds[] = {
		"hw", "hardware", "sw", "software", "cache", "hwcache", "pmu", "tracepoint",
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(f, kinds[i]))
			return true;
	return false;
}

/* a filter names a kind, a subsystem ("sched:") or is a glob of the name (or alias) */
static bool list__wanted(const struct list_opts *o, const struct event_info *ev)
{
	if (o->unit && strcmp(o->unit, ev->unit))
		return false;
	if (!o->nr_filters)
		return true;
	for (int i = 0; i < o->nr_filters; i++) {
		const char *f = o->filters[i];
		size_t n = strlen(f);

		if (list__kind_matches(f, ev->kind))
			return true;
		if (list__is_kind(f))
			continue;	/* "sw" names the kind, not a substring */
		if (n && f[n - 1] == ':' && ev->kind == EVENT_KIND_TRACEPOINT && !strncmp(f, ev->name, n))
			return true;
		if (!fnmatch(f, ev->name, 0) || (ev->alias && !fnmatch(f, ev->alias, 0)))
			return true;
		/* a word matches names that hold it, as perf's "*word*" */
		if (!strpbrk(f, "*?[") && (strstr(ev->name, f) || (ev->alias && strstr(ev->alias, f))))
			return true;
	}
	return false;
}

static void json__string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static void json__field(FILE *fp, bool *first, const char *key, const char *val)
{
	if (!val)
		return;
	fprintf(fp, "%s\t\"%s\": ", *first ? "" : ",\n", key);
	json__string(fp, val);
	*first = false;
}

static int list__one(const struct event_info *ev, void *arg)
{
	struct list_opts *o = arg;

	if (!list__wanted(o, ev))
		return 0;
	if (o->json) {
		bool first = true;

		fprintf(o->fp, "%s{\n", o->printed ? ",\n" : "");
		json__field(o->fp, &first, "Unit", ev->unit);
		json__field(o->fp, &first, "EventName", ev->name);
		json__field(o->fp, &first, "EventAlias", ev->alias);
		json__field(o->fp, &first, "EventType", ev->type);
		json__field(o->fp, &first, "BriefDescription", ev->desc);
		json__field(o->fp, &first, "Encoding", ev->encoding);
		fprintf(o->fp, "\n}");
	} else {
		char name[512];

		snprintf(name, sizeof(name), "%s%s%s", ev->name, ev->alias ? " OR " : "",
			 ev->alias ? ev->alias : "");
		fprintf(o->fp, "  %-50s [%s]\n", name, ev->type);
		if (o->desc && ev->desc)
			fprintf(o->fp, "       [%s]\n", ev->desc);
		if (o->details && ev->encoding)
			fprintf(o->fp, "       %s\n", ev->encoding);
	}
	o->printed++;
	return 0;
}

int cmd_list(int argc, const char **argv)
{
	struct list_opts o = { .desc = true };
	const struct option options[] = {
		OPT_BOOLEAN('d', "desc", &o.desc,
			    "Print extra event descriptions. --no-desc to not print."),
		OPT_BOOLEAN('j', "json", &o.json, "JSON encode events and metrics"),
		OPT_STRING('o', "output", &o.output, "file", "output file name"),
		OPT_BOOLEAN('v', "long-desc", &o.long_desc,
			    "Print longer event descriptions and all similar PMUs with alphanumeric suffixes."),
		OPT_BOOLEAN(0, "debug", &o.debug, "Enable debugging output"),
		OPT_BOOLEAN(0, "deprecated", &o.deprecated, "Print deprecated events."),
		OPT_BOOLEAN(0, "details", &o.details,
			    "Print information on the perf event names and expressions used internally by events."),
		OPT_STRING(0, "unit", &o.unit, "PMU name",
			   "Limit PMU or metric printing to the specified PMU."),
		OPT_END()
	};
	int left, ret;

	left = parse_options(argc, argv, options, list_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	o.filters = argv;
	o.nr_filters = left;
	o.fp = stdout;
	if (o.output) {
		o.fp = fopen(o.output, "w");
		if (!o.fp) {
			fprintf(stderr, "Failed to open file %s: %m\n", o.output);
			return PERF_EXIT_INPUT;
		}
	}
	if (o.json)
		fprintf(o.fp, "[\n");
	ret = event_list__walk(NULL, NULL, list__one, &o);
	if (o.json)
		fprintf(o.fp, "%s]\n", o.printed ? "\n" : "");
	if (o.fp != stdout && fclose(o.fp)) {
		fprintf(stderr, "perf list: cannot write %s: %m\n", o.output);
		return PERF_EXIT_INPUT;
	}
	if (ret) {
		fprintf(stderr, "perf list: %s\n", strerror(-ret));
		return PERF_EXIT_INPUT;
	}
	return 0;
}
