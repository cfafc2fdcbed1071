// SPDX-License-Identifier: GPL-2.0
/*
 * perf buildid-list: the build ids a recording names (its HEADER_BUILD_ID table, or a pipe's
 * HEADER_BUILD_ID records), "ID NAME" a line, or with -k the running kernel's.
 */
#include <stdio.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/env.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/parse-options.h"

static const char *const buildid_list_usage[] = {
	"perf buildid-list [<options>]",
	NULL
};

static int buildid_list__kernel(void)
{
	u8 id[BUILD_ID_SIZE_MAX];
	char hex[BUILD_ID_HEX_SIZE];
	size_t size = 0;
	int ret = build_id__read_notes("/sys/kernel/notes", id, &size);

	if (ret || !size) {
		fprintf(stderr, "perf buildid-list: no build id in /sys/kernel/notes\n");
		return PERF_EXIT_INPUT;
	}
	printf("%s\n", build_id__hex(id, size, hex));
	return 0;
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = NULL;
	bool force = false, kernel = false, with_hits = false, kernel_maps = false, verbose = false;
	const struct option options[] = {
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('H', "with-hits", &with_hits, "Show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('k', "kernel", &kernel, "Show current kernel build id"),
		OPT_BOOLEAN('m', "kernel-maps", &kernel_maps,
			    "Show build id of current kernel + modules"),
		OPT_BOOLEAN('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	const struct perf_env *env;
	struct perf_data *data;
	struct perf_err err = { 0 };
	int left;

	left = parse_options(argc, argv, options, buildid_list_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	if (left > 0) {
		usage_with_options(buildid_list_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (kernel)
		return buildid_list__kernel();
	if (with_hits || kernel_maps) {
		fprintf(stderr, "perf buildid-list: %s is not supported: every DSO of the recording is listed\n",
			with_hits ? "-H/--with-hits" : "-m/--kernel-maps");
		return PERF_EXIT_USAGE;
	}
	if (!input)
		input = isatty(0) ? "perf.data" : "-";
	data = perf_data__open_whole(input, &err);
	if (!data) {
		fprintf(stderr, "perf buildid-list: %s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	env = perf_data__env(data);
	for (size_t i = 0; i < env->nr_build_ids; i++) {
		const struct perf_build_id_entry *e = &env->build_ids[i];
		char hex[BUILD_ID_HEX_SIZE];

		printf("%s %s\n", build_id__hex(e->build_id, e->size, hex), e->filename);
	}
	perf_data__close(data);
	return 0;
}
