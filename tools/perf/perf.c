// SPDX-License-Identifier: GPL-2.0
/*
 * perf: dispatch to the subcommand. Usage and options are each builtin's business.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "builtin.h"
#include "util/pager.h"

struct cmd_struct {
	const char	*name;
	int		(*fn)(int argc, const char **argv);
	const char	*help;
};

static const struct cmd_struct commands[] = {
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list", cmd_buildid_list, "List the buildids in a perf.data file" },
	{ "check",	cmd_check,	"check if features are present in perf" },
	{ "data",	cmd_data,	"Data file related processing" },
	{ "evlist",	cmd_evlist,	"List the event names in a perf.data file" },
	{ "inject",	cmd_inject,	"Filter to augment the events stream with additional information" },
	{ "kallsyms",	cmd_kallsyms,	"Searches running kernel for symbols" },
	{ "list",	cmd_list,	"List all symbolic event types" },
	{ "record",	cmd_record,	"Run a command and record its profile into perf.data" },
	{ "report",	cmd_report,	"Read perf.data and display the profile" },
	{ "script",	cmd_script,	"Read perf.data and display trace output" },
	{ "test",	cmd_test,	"Runs sanity tests" },
	{ "version",	cmd_version,	"display the version of perf binary" },
};

static char exec_dir[PATH_MAX] = ".";

const char *perf_exec_dir(void)
{
	return exec_dir;
}

static void find_exec_dir(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n <= 0)
		return;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(exec_dir, sizeof(exec_dir), "%s", path);
}

static void usage(FILE *fp)
{
	fprintf(fp, "\n usage: perf [-P|--no-pager] [-p|--paginate] [--buildid-dir DIR] COMMAND [ARGS]\n\n The most commonly used perf commands are:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "   %-14s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n See 'perf help COMMAND' for more information on a specific command.\n\n");
}

int main(int argc, const char **argv)
{
	const char *cmd;

	find_exec_dir();
	perf_stdout__init();
	/* perf's own options, before the command: the pager's */
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-P") || !strcmp(argv[1], "--no-pager"))
			pager__set_mode(PAGER_NEVER);
		else if (!strcmp(argv[1], "-p") || !strcmp(argv[1], "--paginate"))
			pager__set_mode(PAGER_ALWAYS);
		else if (!strncmp(argv[1], "--buildid-dir=", 14))
			setenv("PERF_BUILDID_DIR", argv[1] + 14, 1);
		else if (!strcmp(argv[1], "--buildid-dir") && argc > 2) {
			/* every reader and writer of the cache takes it from there, children too */
			setenv("PERF_BUILDID_DIR", argv[2], 1);
			argv[2] = argv[0];
			argv++;
			argc--;
		} else
			break;
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (argc < 2) {
		usage(stdout);
		return perf_stdout__finish(NULL, 1);
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v"))
		cmd = "version";
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return perf_stdout__finish(NULL, 0);
	}
	if (!strcmp(cmd, "help")) {
		if (argc < 3) {
			usage(stdout);
			return perf_stdout__finish(NULL, 0);
		}
		/* `perf help CMD` == `perf CMD --help` */
		argv[1] = argv[2];
		argv[2] = "--help";
		argc = 3;
		cmd = argv[1];
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, cmd)) {
			if (pager__mode() == PAGER_ALWAYS)
				pager__request();
			return perf_stdout__finish(commands[i].name,
						   commands[i].fn(argc - 1, argv + 1));
		}
	fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n", cmd);
	return 1;
}
