/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-options.h - perf-style command-line options: short and long names, --no-<long> for
 * booleans and callbacks, --opt=value and --opt value, and a --help listing in perf's layout.
 *
 * Numbers are whole words: OPT_INTEGER and OPT_U64 refuse an empty string, trailing
 * garbage, a sign on a u64 and values out of range, in upstream's words (" Error: option
 * `max-stack' expects a numerical value", then the usage; the caller exits 129).
 *
 * Option tables are const arrays ending in OPT_END(); values are written through the
 * pointers the table holds (into the command's options struct).
 */
#ifndef PERF_UTIL_PARSE_OPTIONS_H
#define PERF_UTIL_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_BOOLEAN,		/* bool *, --no-x clears */
	OPTION_INCR,		/* int *, each use adds one (-v -v) */
	OPTION_STRING,		/* const char **, takes an argument */
	OPTION_INTEGER,		/* int * */
	OPTION_U64,		/* unsigned long long * */
	OPTION_CALLBACK,	/* callback(opt, arg, unset) */
	OPTION_GROUP,		/* a heading in --help */
};

struct option;
typedef int (*parse_opt_cb)(const struct option *opt, const char *arg, bool unset);

struct option {
	enum parse_opt_type	type;
	char			short_name;
	const char		*long_name;
	void			*value;
	const char		*argh;		/* argument name in --help, NULL: none */
	const char		*help;
	parse_opt_cb		callback;
	/*
	 * Callback options: the argument when none is given, as upstream's
	 * PARSE_OPT_LASTARG_DEFAULT: `-g` alone, `-g -n` or `-g --stdio` pass defval, `-g caller`
	 * and `-gcaller` and `--call-graph=caller` pass "caller". NULL: the argument is required.
	 */
	const char		*defval;
	/*
	 * Upstream's PARSE_OPT_OPTARG: the argument only when attached (--user-regs=ip,sp); a
	 * next word is never taken (`--user-regs ls` records ls), defval is passed instead.
	 */
	bool			optarg;
	void			*data;		/* for the callback */
};

#define OPT_END()					{ .type = OPTION_END }
#define OPT_GROUP(h)					{ .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h)				{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INCR(s, l, v, h)				{ .type = OPTION_INCR, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_STRING(s, l, v, a, h)			{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_INTEGER(s, l, v, h)				{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_U64(s, l, v, h)				{ .type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb)			{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (cb) }
#define OPT_CALLBACK_NOARG(s, l, v, h, cb)		{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .callback = (cb) }
#define OPT_CALLBACK_DEFAULT(s, l, v, a, h, cb, d)	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (cb), .defval = (d) }
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, cb, d)	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (cb), .defval = (d), .optarg = true }

enum {
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,	/* record: stop at the workload command */
	PARSE_OPT_KEEP_ARGS = 1 << 1,		/* leave non-options in argv (default) */
};

/*
 * Parses argv[1..]; returns the number of remaining non-option arguments, moved to the front
 * of argv. Prints usage and returns -1 (caller exits 129) on an unknown option, a missing or
 * bad argument, or a callback that returned non-zero; prints the help and returns -2 (caller
 * exits 0) for -h/--help.
 *
 * A callback that refuses its argument returns -1, having said why: with
 * parse_options__error(), or with a line of its own. The parser then prints the usage lines
 * and the option's help, as upstream does.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usagestr[], int flags);
/*
 * For callbacks: " Error: option `NAME' " and the formatted reason, with no newline (the
 * usage the parser prints next starts with one). SHORT_OPT names the switch instead,
 * " Error: switch `c' ". Returns -1.
 */
int parse_options__error(const struct option *opt, bool short_opt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* a whole-word finite decimal number (strtod's syntax) into *out; -1 when ARG is none */
int parse_options__double(const char *arg, double *out);

void usage_with_options(const char *const usagestr[], const struct option *opts, FILE *fp);
/*
 * The usage lines and the help of the option SHORT_NAME only, as upstream prints them after
 * a value it refused once parsing was over (report's unknown --sort key).
 */
void usage_with_option(const char *const usagestr[], const struct option *opts, char short_name,
		       FILE *fp);

#endif
