// SPDX-License-Identifier: GPL-2.0
/*
 * perf inject: read a recording and write it again in the form every reader understands
 * (deferred user callchains stitched inline, user stacks unwound into the callchain, build
 * ids added). Option parsing and wiring only: the rewrite is util/inject.c's.
 *
 * A file output is written under a temporary name in its directory and renamed at the
 * end, so the user's name never holds a half-written file (a corrupt input, a full disk);
 * an output that exists and is no regular file (/dev/null) is written in place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "util/dso.h"
#include "util/inject.h"
#include "util/parse-options.h"
#include "util/temp-output.h"

struct perf_inject {
	const char	*input;
	const char	*output;
	const char	*symfs;
	bool		build_ids;
	bool		buildid_all;
	bool		mmap2_buildid_all;
	bool		mmap2_buildids;
	bool		convert_callchain;
	bool		keep_deferred;
	bool		keep_stack;
	bool		jit;
	bool		aslr;
	bool		force;
	int		verbose;
	int		zstd_level;
};

static int inject__opt_compression(const struct option *opt, const char *arg, bool unset)
{
	struct perf_inject *inject = opt->value;
	char *end;
	long v;

	if (unset) {
		inject->zstd_level = 0;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > 19)
		return parse_options__error(opt, false, "level '%s': a number from 1 to 19", arg);
	inject->zstd_level = (int)v;
	return 0;
}

static const char *const inject_usage[] = {
	"perf inject [<options>]",
	NULL
};

/* perf's check, with its words: someone else's file is read only when forced */
static int inject__check_owner(const char *input, bool force)
{
	struct stat st;

	if (force || !strcmp(input, "-") || stat(input, &st))
		return 0;	/* a missing file is the reader's to name */
	if (st.st_uid && st.st_uid != geteuid()) {
		fprintf(stderr, "File %s not owned by current user or root (use -f to override)\n",
			input);
		return -1;
	}
	return 0;
}

static void inject__print_stats(const struct inject_stats *st)
{
	fprintf(stderr, "perf inject: %llu samples written: %llu stitched, %llu deferred without a user chain, %llu unwound; %llu deferred callchain records dropped; %llu build ids added\n",
		(unsigned long long)st->samples, (unsigned long long)st->stitched,
		(unsigned long long)st->unstitched, (unsigned long long)st->unwound,
		(unsigned long long)st->deferred_dropped, (unsigned long long)st->build_ids);
	if (st->jit_dumps || st->jit_maps)
		fprintf(stderr, "perf inject: %llu jitdump files read, %llu maps of JIT'd code written\n",
			(unsigned long long)st->jit_dumps, (unsigned long long)st->jit_maps);
	if (st->aslr_dropped)
		fprintf(stderr, "perf inject: --aslr: %llu samples dropped: their physical addresses or user stack dumps would tell the layout\n",
			(unsigned long long)st->aslr_dropped);
	if (st->aslr_straddling)
		fprintf(stderr, "perf inject: --aslr: %llu maps were cut by the new layout's rotation (inject-aslr.h)\n",
			(unsigned long long)st->aslr_straddling);
	if (st->in_bytes)
		fprintf(stderr, "perf inject: data %llu bytes in, %llu bytes out\n",
			(unsigned long long)st->in_bytes, (unsigned long long)st->out_bytes);
}

int cmd_inject(int argc, const char **argv)
{
	struct perf_inject inject = { .input = "-", .output = "-" };
	const struct option options[] = {
		OPT_STRING('i', "input", &inject.input, "file", "input file name"),
		OPT_STRING('o', "output", &inject.output, "file", "output file name"),
		OPT_BOOLEAN(0, "aslr", &inject.aslr, "Remap virtual memory addresses similar to ASLR"),
		OPT_BOOLEAN('b', "build-ids", &inject.build_ids,
			    "Inject build-ids into the output stream"),
		OPT_BOOLEAN(0, "buildid-all", &inject.buildid_all,
			    "Inject build-ids of all DSOs into the output stream"),
		OPT_BOOLEAN('B', "mmap2-buildids", &inject.mmap2_buildids,
			    "Drop unused mmap events, make others mmap2 with build IDs"),
		OPT_BOOLEAN(0, "mmap2-buildid-all", &inject.mmap2_buildid_all,
			    "Rewrite all mmap events as mmap2 events with build IDs"),
		OPT_BOOLEAN(0, "convert-callchain", &inject.convert_callchain,
			    "Generate callchains using DWARF and drop register/stack data"),
		OPT_BOOLEAN('j', "jit", &inject.jit, "merge jitdump files into perf.data file"),
		OPT_BOOLEAN(0, "keep-deferred", &inject.keep_deferred,
			    "Keep the deferred marker and cookie of samples no deferred callchain was stitched to"),
		OPT_BOOLEAN(0, "keep-stack", &inject.keep_stack,
			    "Keep the user registers, stack dumps and recorded callchains: unwinding is left to the reader"),
		OPT_STRING(0, "symfs", &inject.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_INCR('v', "verbose", &inject.verbose, "be more verbose (show build ids, etc)"),
		OPT_BOOLEAN('f', "force", &inject.force, "don't complain, do it"),
		OPT_CALLBACK_DEFAULT('z', "compression-level", &inject, "n",
				     "Compress records using specified level (default: 1 - fastest compression, 19 - greatest compression)",
				     inject__opt_compression, "1"),
		OPT_END()
	};
	struct symbol_conf conf = { .symfs = "", .warn = stderr };
	struct inject_opts opts = { 0 };
	struct inject_stats stats = { 0 };
	char temp[4096];
	struct perf_err err;
	struct stat st;
	bool to_file;
	int argc_left, ret;

	argc_left = parse_options(argc, argv, options, inject_usage, 0);
	if (argc_left == -2)
		return 0;
	if (argc_left < 0)
		return PERF_EXIT_USAGE;
	if (argc_left > 0) {
		fprintf(stderr, "perf inject: unexpected argument '%s'\n", argv[0]);
		usage_with_options(inject_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (inject.keep_stack && inject.convert_callchain) {
		fprintf(stderr, "perf inject: --keep-stack keeps the dumps that --convert-callchain unwinds and drops: use one of them\n");
		usage_with_options(inject_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (inject.aslr && inject.keep_stack) {
		fprintf(stderr, "perf inject: --aslr drops the samples whose stack dumps --keep-stack keeps: use one of them\n");
		usage_with_options(inject_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (inject__check_owner(inject.input, inject.force))
		return PERF_EXIT_INPUT;
	conf.symfs = inject.symfs ? inject.symfs : "";
	opts.input = inject.input;
	conf.force = inject.force;
	opts.symbol_conf = &conf;
	opts.keep_deferred = inject.keep_deferred;
	opts.keep_stack = inject.keep_stack;
	opts.convert_callchain = inject.convert_callchain;
	opts.jit = inject.jit;
	opts.build_ids = inject.buildid_all ? INJECT_BUILD_IDS_ALL :
			 inject.build_ids ? INJECT_BUILD_IDS_HIT : INJECT_BUILD_IDS_NONE;
	opts.mmap2_build_ids = inject.mmap2_buildid_all;
	opts.lazy_mmaps = inject.mmap2_buildids;
	opts.aslr = inject.aslr;
	opts.zstd_level = inject.zstd_level;
	/*
	 * A file takes the temporary name and the rename; anything else that exists (/dev/null,
	 * a device, a fifo) is written in place: renaming over it would replace the node
	 */
	to_file = strcmp(inject.output, "-") != 0 &&
		  (stat(inject.output, &st) || S_ISREG(st.st_mode));
	opts.output = inject.output;
	if (to_file) {
		ret = temp_output__create(inject.output, temp, sizeof(temp));
		if (ret >= 0) {
			close(ret);
			ret = 0;
		}
		if (ret) {
			fprintf(stderr, "perf inject: cannot create a file beside %s: %s\n",
				inject.output, strerror(-ret));
			return PERF_EXIT_INPUT;
		}
		opts.output = temp;
	}
	ret = inject__run(&opts, &stats, &err);
	if (!ret && to_file && rename(temp, inject.output)) {
		ret = -errno;
		perf_err__set(&err, errno, "cannot rename %s to %s: %s", temp, inject.output,
			      strerror(errno));
	}
	if (ret) {
		fprintf(stderr, "perf inject: %s\n", err.msg);
		if (to_file)
			unlink(temp);
		return PERF_EXIT_INPUT;
	}
	if (inject.verbose)
		inject__print_stats(&stats);
	return 0;
}
