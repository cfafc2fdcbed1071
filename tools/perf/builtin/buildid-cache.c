// SPDX-License-Identifier: GPL-2.0
/*
 * perf buildid-cache: add files to the build-id cache perf record fills, remove or purge
 * them, purge it all, list it (util/build-id-cache.h). The messages of -v are upstream's
 * ("Adding ID PATH: Ok"); a file that cannot be added or removed is said on stderr and makes
 * the exit status non-zero (upstream's stays 0).
 */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/build-id-cache.h"
#include "util/parse-options.h"

struct buildid_cache_cmd {
	const char	*add;
	const char	*remove;
	const char	*purge;
	const char	*update;
	const char	*kcore;
	const char	*missing;
	const char	*target_ns;
	const char	*debuginfod;
	bool		purge_all;
	bool		list;
	bool		force;
	bool		verbose;
};

static const char *const buildid_cache_usage[] = {
	"perf buildid-cache [<options>]",
	NULL
};

enum cache_op { OP_ADD, OP_REMOVE, OP_PURGE };

/* each file of a comma-separated list; the number that failed */
static int buildid_cache__each(const struct buildid_cache_cmd *cmd, const char *list,
			       enum cache_op op)
{
	char buf[4096], hex[BUILD_ID_HEX_SIZE];
	int failed = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		struct perf_err err = { 0 };
		unsigned int nr;
		bool added;
		int ret;

		switch (op) {
		case OP_ADD:
			ret = build_id_cache__add(NULL, f, &added, &err);
			if (!ret && cmd->verbose && !build_id_cache__file_id(f, hex, &err))
				printf("Adding %s %s: Ok\n", hex, f);
			break;
		case OP_REMOVE:
			ret = build_id_cache__file_id(f, hex, &err);
			if (!ret)
				ret = build_id_cache__remove(NULL, f, &err);
			if (cmd->verbose && hex[0])
				printf("Removing %s %s: %s\n", hex, f, ret ? "FAIL" : "Ok");
			break;
		case OP_PURGE:
		default:
			ret = build_id_cache__purge(NULL, f, &nr, &err);
			if (cmd->verbose)
				printf("Purging %s: %s\n", f, ret ? "FAIL" : "Ok");
			break;
		}
		if (ret) {
			fprintf(stderr, "%s\n", err.msg);
			failed++;
		}
		hex[0] = '\0';
	}
	return failed;
}

static int buildid_cache__print(const char *hex, const char *path, void *arg)
{
	(void)arg;
	/* kernel, modules and the vDSO are cached as "/[name]" */
	printf("%s %s\n", hex, path[0] == '/' && path[1] == '[' ? path + 1 : path);
	return 0;
}

int cmd_buildid_cache(int argc, const char **argv)
{
	struct buildid_cache_cmd cmd = { 0 };
	const struct option options[] = {
		OPT_STRING('a', "add", &cmd.add, "file list", "file(s) to add"),
		OPT_BOOLEAN('f', "force", &cmd.force, "don't complain, do it"),
		OPT_STRING('k', "kcore", &cmd.kcore, "file", "kcore file to add"),
		OPT_BOOLEAN('l', "list", &cmd.list, "list all cached files"),
		OPT_STRING('M', "missing", &cmd.missing, "file", "to find missing build ids in the cache"),
		OPT_STRING('p', "purge", &cmd.purge, "file list",
			   "file(s) to remove (remove old caches too)"),
		OPT_BOOLEAN('P', "purge-all", &cmd.purge_all, "purge all cached files"),
		OPT_STRING('r', "remove", &cmd.remove, "file list", "file(s) to remove"),
		OPT_STRING('u', "update", &cmd.update, "file list", "file(s) to update"),
		OPT_BOOLEAN('v', "verbose", &cmd.verbose, "be more verbose"),
		OPT_STRING(0, "target-ns", &cmd.target_ns, "n", "target pid for namespace context"),
		OPT_END()
	};
	struct perf_err err = { 0 };
	int left, failed = 0;

	left = parse_options(argc, argv, options, buildid_cache_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	if (left > 0) {
		usage_with_options(buildid_cache_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (cmd.kcore || cmd.missing || cmd.target_ns) {
		fprintf(stderr, "perf buildid-cache: %s is not supported\n",
			cmd.kcore ? "--kcore" : cmd.missing ? "--missing" : "--target-ns");
		return PERF_EXIT_USAGE;
	}
	if (cmd.add)
		failed += buildid_cache__each(&cmd, cmd.add, OP_ADD);
	if (cmd.remove)
		failed += buildid_cache__each(&cmd, cmd.remove, OP_REMOVE);
	if (cmd.purge)
		failed += buildid_cache__each(&cmd, cmd.purge, OP_PURGE);
	/* update: the file's current build is what the cache holds for it from now on */
	if (cmd.update)
		failed += buildid_cache__each(&cmd, cmd.update, OP_ADD);
	if (cmd.purge_all) {
		unsigned int nr;

		if (build_id_cache__purge_all(NULL, &nr, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			failed++;
		} else if (cmd.verbose) {
			printf("Purged all: Ok\n");
		}
	}
	if (cmd.list && build_id_cache__for_each(NULL, buildid_cache__print, NULL, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		failed++;
	}
	return failed ? PERF_EXIT_INPUT : 0;
}
