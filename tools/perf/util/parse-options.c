// SPDX-License-Identifier: GPL-2.0
/*
 * parse-options.c - perf's command-line grammar: see parse-options.h. Errors are reported in
 * upstream perf's words and layout (" Error: ..." then the usage lines and the offending
 * option's help), since users and scripts read them.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"

/* one parse: the words, where we are in them, and what to show on an error */
struct parse_ctx {
	int			argc;
	const char		**argv;
	int			i;		/* the word being parsed */
	const struct option	*opts;
	const char *const	*usagestr;
};

static bool takes_arg(const struct option *o)
{
	return o->type == OPTION_STRING || o->type == OPTION_INTEGER || o->type == OPTION_U64 ||
	       (o->type == OPTION_CALLBACK && o->argh);
}

/* --no-NAME: booleans and counters are cleared, a callback is told (unset), as upstream */
static bool takes_no(const struct option *o)
{
	return !takes_arg(o) || o->type == OPTION_CALLBACK;
}

static void print_option_help(const struct option *o, FILE *fp)
{
	char head[160];
	int n;

	if (o->short_name && o->long_name)
		n = snprintf(head, sizeof(head), "    -%c, --%s", o->short_name, o->long_name);
	else if (o->short_name)
		n = snprintf(head, sizeof(head), "    -%c", o->short_name);
	else
		n = snprintf(head, sizeof(head), "        --%s", o->long_name);
	if (o->argh && n > 0 && (size_t)n < sizeof(head))
		n += snprintf(head + n, sizeof(head) - (size_t)n, o->optarg ? "[=<%s>]" : " <%s>",
			      o->argh);
	if (n >= 0 && n <= 24)
		fprintf(fp, "%-25s %s\n", head, o->help);
	else
		fprintf(fp, "%s\n%-25s %s\n", head, "", o->help);
}

static void print_usage_lines(const char *const usagestr[], FILE *fp)
{
	fprintf(fp, "\n Usage: %s\n", usagestr[0]);
	for (int i = 1; usagestr[i]; i++)
		fprintf(fp, "    or: %s\n", usagestr[i]);
	fputc('\n', fp);
}

/*
 * After a bad value: the usage lines and the help of the options the word named, as
 * upstream matches them (the word as typed, "max-stack=x" naming none).
 */
static int parse_ctx__usage(const struct parse_ctx *ctx, const char *word, bool short_opt)
{
	print_usage_lines(ctx->usagestr, stderr);
	for (const struct option *o = ctx->opts; o->type != OPTION_END; o++) {
		if (o->type == OPTION_GROUP)
			continue;
		if (short_opt) {
			if (o->short_name == *word) {
				print_option_help(o, stderr);
				break;
			}
			continue;
		}
		if (!o->long_name)
			continue;
		if (!strncmp(o->long_name, word, strlen(word)) ||
		    (!strncmp(word, "no-", 3) && !strncmp(o->long_name, word + 3, strlen(word + 3))))
			print_option_help(o, stderr);
	}
	return -1;
}

int parse_options__error(const struct option *opt, bool short_opt, const char *fmt, ...)
{
	va_list ap;

	if (short_opt && opt->short_name)
		fprintf(stderr, " Error: switch `%c' ", opt->short_name);
	else
		fprintf(stderr, " Error: option `%s' ", opt->long_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* no newline: the usage that follows starts with one, as in upstream's layout */
	return -1;
}

/*
 * The whole word a decimal number: no leading blanks, no trailing garbage, no empty
 * string, in range, no sign for a u64.
 */
static int parse_int(const char *arg, int *out)
{
	char *end;
	long v;

	if (isspace((unsigned char)arg[0]))
		return -1;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < INT_MIN || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_u64(const char *arg, unsigned long long *out)
{
	char *end;

	/* strtoull takes "-1" as ULLONG_MAX */
	if (!arg[0] || arg[0] == '-' || arg[0] == '+' || isspace((unsigned char)arg[0]))
		return -1;
	errno = 0;
	*out = strtoull(arg, &end, 10);
	return errno || end == arg || *end ? -1 : 0;
}

int parse_options__double(const char *arg, double *out)
{
	char *end;

	if (isspace((unsigned char)arg[0]))
		return -1;
	errno = 0;
	*out = strtod(arg, &end);
	/* inf and nan are words strtod knows, not numbers a user means */
	if (errno || end == arg || *end || *out != *out || *out > 1e308 || *out < -1e308)
		return -1;
	return 0;
}

static int set_value(const struct option *o, const char *arg, bool unset, bool short_opt)
{
	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPTION_INTEGER:
		if (parse_int(arg, o->value))
			return parse_options__error(o, short_opt, "expects a numerical value");
		return 0;
	case OPTION_U64:
		if (parse_u64(arg, o->value))
			return parse_options__error(o, short_opt, "expects an unsigned numerical value");
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, arg, unset) ? -1 : 0;
	case OPTION_GROUP:
	case OPTION_END:
	default:
		return -1;
	}
}

/*
 * The argument of option o: ATTACHED (--opt=ARG, -oARG) or the next word. An option with
 * a default argument (OPT_CALLBACK_DEFAULT) takes the next word only when there is one
 * that does not start with '-', else its default; an OPT_CALLBACK_OPTARG never takes it.
 */
static int parse_ctx__arg(struct parse_ctx *ctx, const struct option *o, const char *attached,
			  bool short_opt, const char **arg)
{
	const char *next = ctx->i + 1 < ctx->argc ? ctx->argv[ctx->i + 1] : NULL;

	if (attached)
		*arg = attached;
	else if (o->optarg)
		*arg = o->defval;
	else if (o->defval && (!next || next[0] == '-'))
		*arg = o->defval;
	else if (next)
		*arg = ctx->argv[++ctx->i];
	else
		return parse_options__error(o, short_opt, "requires a value");
	return 0;
}

/* what find_abbrev() returns for a word that starts several long names */
static const struct option ambiguous_option = { .type = OPTION_END };

/* a word unless it is the start of a long name, or of a --no- form, of more than one option */
static const struct option *find_abbrev(const struct option *opts, const char *name, size_t len,
					bool *unset)
{
	const struct option *found = NULL, *other = NULL;
	bool found_unset = false, other_unset = false;

	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		bool neg = false;

		if (!o->long_name)
			continue;
		if (strncmp(o->long_name, name, len)) {
			if (len <= 3 || strncmp(name, "no-", 3) || !takes_no(o) ||
			    strncmp(o->long_name, name + 3, len - 3))
				continue;
			neg = true;
		}
		other = found, other_unset = found_unset;
		found = o, found_unset = neg;
	}
	if (other) {
		/* upstream names the last two it matched */
		fprintf(stderr, " Error: Ambiguous option: %s (could be --%s%s or --%s%s)\n", name,
			other_unset ? "no-" : "", other->long_name, found_unset ? "no-" : "",
			found->long_name);
		return &ambiguous_option;
	}
	*unset = found_unset;
	return found;
}

static const struct option *find_long(const struct option *opts, const char *name, size_t len,
				      bool *unset)
{
	const struct option *o;

	*unset = false;
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	if (len > 3 && !strncmp(name, "no-", 3)) {
		for (o = opts; o->type != OPTION_END; o++)
			if (o->long_name && strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, name + 3, len - 3) && takes_no(o)) {
				*unset = true;
				return o;
			}
	}
	return find_abbrev(opts, name, len, unset);
}

static int parse_ctx__long(struct parse_ctx *ctx, const char *name)
{
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o;
	const char *arg = NULL;
	bool unset;

	o = find_long(ctx->opts, name, len, &unset);
	if (o == &ambiguous_option) {
		usage_with_options(ctx->usagestr, ctx->opts, stderr);
		return -1;
	}
	if (!o) {
		fprintf(stderr, "  Error: unknown option `%.*s'\n", (int)len, name);
		usage_with_options(ctx->usagestr, ctx->opts, stderr);
		return -1;
	}
	if (eq && (unset || !takes_arg(o))) {
		parse_options__error(o, false, "takes no value");
		return parse_ctx__usage(ctx, name, false);
	}
	if (takes_arg(o) && !unset && parse_ctx__arg(ctx, o, eq ? eq + 1 : NULL, false, &arg))
		return parse_ctx__usage(ctx, name, false);
	if (set_value(o, arg, unset, false))
		return parse_ctx__usage(ctx, name, false);
	return 0;
}

/* a cluster of short options: -vvg, -iFILE, -i FILE */
static int parse_ctx__short(struct parse_ctx *ctx, const char *cluster)
{
	for (const char *p = cluster; *p; p++) {
		const struct option *o;
		const char *arg = NULL;

		for (o = ctx->opts; o->type != OPTION_END; o++)
			if (o->short_name == *p)
				break;
		if (o->type == OPTION_END) {
			fprintf(stderr, "  Error: unknown switch `%c'\n", *p);
			usage_with_options(ctx->usagestr, ctx->opts, stderr);
			return -1;
		}
		if (takes_arg(o) && parse_ctx__arg(ctx, o, p[1] ? p + 1 : NULL, true, &arg))
			return parse_ctx__usage(ctx, p, true);
		if (set_value(o, arg, false, true))
			return parse_ctx__usage(ctx, p, true);
		if (takes_arg(o))
			break;
	}
	return 0;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usagestr[], int flags)
{
	struct parse_ctx ctx = {
		.argc = argc, .argv = argv, .opts = opts, .usagestr = usagestr,
	};
	int out = 0;

	for (ctx.i = 1; ctx.i < argc; ctx.i++) {
		const char *a = argv[ctx.i];

		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			ctx.i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_with_options(usagestr, opts, stdout);
			return -2;
		}
		if (a[1] == '-' ? parse_ctx__long(&ctx, a + 2) : parse_ctx__short(&ctx, a + 1))
			return -1;
	}
	for (; ctx.i < argc; ctx.i++)
		argv[out++] = argv[ctx.i];
	argv[out] = NULL;
	return out;
}

void usage_with_options(const char *const usagestr[], const struct option *opts, FILE *fp)
{
	print_usage_lines(usagestr, fp);
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		if (o->type == OPTION_GROUP)
			fprintf(fp, "\n%s\n", o->help);
		else
			print_option_help(o, fp);
	}
	fputc('\n', fp);
}

void usage_with_option(const char *const usagestr[], const struct option *opts, char short_name,
		       FILE *fp)
{
	print_usage_lines(usagestr, fp);
	for (const struct option *o = opts; o->type != OPTION_END; o++) {
		if (o->type != OPTION_GROUP && o->short_name == short_name)
			print_option_help(o, fp);
	}
}
