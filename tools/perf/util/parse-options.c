// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"

static bool takes_arg(const struct option *o)
{
	return o->type == OPTION_STRING || o->type == OPTION_INTEGER || o->type == OPTION_U64 ||
	       (o->type == OPTION_CALLBACK && o->argh);
}

static int set_value(const struct option *o, const char *arg, bool unset, const char *as)
{
	char *end;

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
		errno = 0;
		*(int *)o->value = (int)strtol(arg, &end, 0);
		if (errno || *end || end == arg) {
			fprintf(stderr, "  Error: option `%s' expects a numerical value\n", as);
			return -1;
		}
		return 0;
	case OPTION_U64:
		errno = 0;
		*(unsigned long long *)o->value = strtoull(arg, &end, 0);
		if (errno || *end || end == arg) {
			fprintf(stderr, "  Error: option `%s' expects an unsigned numerical value\n", as);
			return -1;
		}
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, arg, unset) ? -1 : 0;
	default:
		return -1;
	}
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
			    !strncmp(o->long_name, name + 3, len - 3) && !takes_arg(o)) {
				*unset = true;
				return o;
			}
	}
	return NULL;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usagestr[], int flags)
{
	int out = 0, i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_with_options(usagestr, opts, stdout);
			return -2;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			const struct option *o;
			const char *arg = NULL;
			bool unset;

			o = find_long(opts, name, len, &unset);
			if (!o) {
				fprintf(stderr, "  Error: unknown option `%.*s'\n", (int)len, name);
				usage_with_options(usagestr, opts, stderr);
				return -1;
			}
			if (takes_arg(o) && !unset) {
				if (eq)
					arg = eq + 1;
				else if (!o->optional_arg && i + 1 < argc)
					arg = argv[++i];
				else if (!o->optional_arg) {
					fprintf(stderr, "  Error: option `%s' requires a value\n", o->long_name);
					return -1;
				}
			} else if (eq) {
				fprintf(stderr, "  Error: option `%s' takes no value\n", o->long_name);
				return -1;
			}
			if (set_value(o, arg, unset, o->long_name))
				return -1;
			continue;
		}
		/* a cluster of short options: -vvg, -iFILE, -i FILE */
		for (const char *p = a + 1; *p; p++) {
			const struct option *o;
			char as[3] = { '-', *p, 0 };

			for (o = opts; o->type != OPTION_END; o++)
				if (o->short_name == *p)
					break;
			if (o->type == OPTION_END) {
				fprintf(stderr, "  Error: unknown switch `%c'\n", *p);
				usage_with_options(usagestr, opts, stderr);
				return -1;
			}
			if (takes_arg(o)) {
				const char *arg = NULL;

				if (p[1])
					arg = p + 1;
				else if (!o->optional_arg && i + 1 < argc)
					arg = argv[++i];
				else if (!o->optional_arg) {
					fprintf(stderr, "  Error: switch `%c' requires a value\n", *p);
					return -1;
				}
				if (set_value(o, arg, false, as))
					return -1;
				break;
			}
			if (set_value(o, NULL, false, as))
				return -1;
		}
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}

void usage_with_options(const char *const usagestr[], const struct option *opts, FILE *fp)
{
	const struct option *o;

	fprintf(fp, "\n Usage: %s\n", usagestr[0]);
	for (int i = 1; usagestr[i]; i++)
		fprintf(fp, "    or: %s\n", usagestr[i]);
	fputc('\n', fp);
	for (o = opts; o->type != OPTION_END; o++) {
		char head[64];
		int n = 0;

		if (o->type == OPTION_GROUP) {
			fprintf(fp, "\n%s\n", o->help);
			continue;
		}
		if (o->short_name && o->long_name)
			n = snprintf(head, sizeof(head), "    -%c, --%s", o->short_name, o->long_name);
		else if (o->short_name)
			n = snprintf(head, sizeof(head), "    -%c", o->short_name);
		else
			n = snprintf(head, sizeof(head), "        --%s", o->long_name);
		if (o->argh && n > 0 && (size_t)n < sizeof(head))
			n += snprintf(head + n, sizeof(head) - (size_t)n, o->optional_arg ? "[=<%s>]" : " <%s>", o->argh);
		if (n >= 0 && n <= 24)
			fprintf(fp, "%-25s %s\n", head, o->help);
		else
			fprintf(fp, "%s\n%-25s %s\n", head, "", o->help);
	}
	fputc('\n', fp);
}
