// SPDX-License-Identifier: GPL-2.0
/*
 * perf check feature NAME[,NAME...] and perf version [--build-options]: what this perf is
 * built with, under upstream's feature names, so that scripts written for upstream (its own
 * shell tests among them: `perf check feature -q dwarf || skip`) ask us the same question.
 *
 * A feature is "on" when this perf does what upstream does with it, whatever library does
 * it here: dwarf-unwind is on because perf report unwinds --call-graph dwarf recordings
 * (with libdw's CFI), libtraceevent because tracepoints print through it. Features of
 * libraries we do not have (libbpf, libpython, ...) are OFF, as in an upstream build
 * without them.
 */
#include <stdio.h>
#include <string.h>
#include <perf/kernel.h>
#include "builtin.h"
#include "util/parse-options.h"

struct build_feature {
	const char	*name;
	const char	*macro;		/* upstream's, printed after the state */
	bool		on;
};

/* upstream 7.2's list, in its order */
static const struct build_feature build_features[] = {
	{ "aio",			"HAVE_AIO_SUPPORT",			false },
	{ "bpf",			"HAVE_LIBBPF_SUPPORT",			false },
	{ "bpf_skeletons",		"HAVE_BPF_SKEL",			false },
	{ "debuginfod",			"HAVE_DEBUGINFOD_SUPPORT",		false },
	{ "dwarf",			"HAVE_LIBDW_SUPPORT",			true },
	{ "dwarf_getlocations",		"HAVE_LIBDW_SUPPORT",			true },
	{ "dwarf-unwind",		"HAVE_DWARF_UNWIND_SUPPORT",		true },
	{ "libbfd",			"HAVE_LIBBFD_SUPPORT",			false },
	{ "babeltrace2-ctf-writer",	"HAVE_BABELTRACE2_CTF_WRITER_SUPPORT",	false },
	{ "libbpf-strings",		"HAVE_LIBBPF_STRINGS_SUPPORT",		false },
	{ "libcapstone",		"HAVE_LIBCAPSTONE_SUPPORT",		false },
	{ "libdw-dwarf-unwind",		"HAVE_LIBDW_SUPPORT",			true },
	{ "libelf",			"HAVE_LIBELF_SUPPORT",			true },
	{ "libLLVM",			"HAVE_LIBLLVM_SUPPORT",			false },
	{ "libnuma",			"HAVE_LIBNUMA_SUPPORT",			false },
	{ "libopencsd",			"HAVE_CSTRACE_SUPPORT",			false },
	{ "libperl",			"HAVE_LIBPERL_SUPPORT",			false },
	{ "libpfm4",			"HAVE_LIBPFM",				false },
	{ "libpython",			"HAVE_LIBPYTHON_SUPPORT",		false },
	/* perf report's browser is ncurses here, not S-Lang: the TUI is there all the same */
	{ "libslang",			"HAVE_SLANG_SUPPORT",			true },
	{ "libtraceevent",		"HAVE_LIBTRACEEVENT",			true },
	{ "libunwind",			"HAVE_LIBUNWIND_SUPPORT",		false },
	{ "lzma",			"HAVE_LZMA_SUPPORT",			false },
	{ "numa_num_possible_cpus",	"HAVE_LIBNUMA_SUPPORT",			false },
	{ "zlib",			"HAVE_ZLIB_SUPPORT",			false },
	{ "zstd",			"HAVE_ZSTD_SUPPORT",			true },
	{ "rust",			"HAVE_RUST_SUPPORT",			false },
};

static void build_feature__print(const struct build_feature *f)
{
	printf("%22s: [ %s ]  # %s\n", f->name, f->on ? "on " : "OFF", f->macro);
}

static const struct build_feature *build_feature__find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(build_features); i++)
		if (strlen(build_features[i].name) == len &&
		    !strncmp(build_features[i].name, name, len))
			return &build_features[i];
	return NULL;
}

static const char *const check_usage[] = {
	"perf check [<options>] {feature}",
	NULL
};

/* NAME[,NAME...]: 0 when all are on, 1 when one is off or unknown (each said unless quiet) */
static int check__features(const char *list, bool quiet)
{
	int ret = 0;

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		const struct build_feature *f = build_feature__find(p, len);

		if (!f) {
			if (!quiet)
				fprintf(stderr, "Unknown feature '%.*s', please use 'perf version --build-options' to see which ones are available.\n",
					(int)len, p);
			ret = 1;
		} else {
			if (!quiet)
				build_feature__print(f);
			if (!f->on)
				ret = 1;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return ret;
}

int cmd_check(int argc, const char **argv)
{
	bool quiet = false;
	const struct option options[] = {
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_END()
	};
	int left;

	left = parse_options(argc, argv, options, check_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	if (left == 0) {
		usage_with_options(check_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (strcmp(argv[0], "feature")) {
		fprintf(stderr, "Unknown subcommand: %s\n", argv[0]);
		usage_with_options(check_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	/* `perf check feature -q NAME`: the subcommand takes the same options */
	left = parse_options(left, argv, options, check_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	if (left == 0) {
		usage_with_options(check_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (left > 1) {
		if (!quiet)
			fprintf(stderr, "Too many arguments passed to 'perf check feature'\n");
		return PERF_EXIT_INPUT;
	}
	return check__features(argv[0], quiet);
}

static const char *const version_usage[] = {
	"perf version [<options>]",
	NULL
};

int cmd_version(int argc, const char **argv)
{
	bool build_options = false;
	const struct option options[] = {
		OPT_BOOLEAN(0, "build-options", &build_options, "display the build options"),
		OPT_END()
	};
	int left;

	left = parse_options(argc, argv, options, version_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	printf("perf version %s\n", PERF_VERSION);
	if (build_options)
		for (size_t i = 0; i < ARRAY_SIZE(build_features); i++)
			build_feature__print(&build_features[i]);
	return 0;
}
