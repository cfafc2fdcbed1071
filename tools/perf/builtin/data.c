// SPDX-License-Identifier: GPL-2.0
/*
 * perf data convert --to-pprof FILE: the recording as a pprof profile (tools/perf/pprof),
 * its samples read through the same session as perf script's, so deferred callchains are
 * stitched and fallback recordings unwound as script shows them. Upstream's other targets
 * (--to-json, --to-ctf) are refused with a line saying so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "builtin.h"
#include "pprof/pprof.h"
#include "util/parse-options.h"
#include "util/sample-filter.h"
#include "util/session.h"
#include "util/temp-output.h"
#include "util/tool.h"
#include "util/unwind.h"

struct perf_data_convert {
	struct perf_tool	tool;
	struct pprof		*pprof;
	struct symbol_conf	symbol_conf;
	struct sample_filter	filter;
	const char		*input;
	const char		*to_pprof;
	const char		*to_json;
	const char		*to_ctf;
	const char		*symfs;
	const char		*kallsyms;
	const char		*vmlinux;
	const char		*unwind;
	bool			force;
	bool			all;
	bool			inline_frames;
	int			verbose;
};

static const char *const data_usage[] = {
	"perf data convert [<options>]",
	NULL
};

static int convert__sample(const struct perf_tool *tool, struct perf_session *session,
			   const struct perf_event_header *event, struct perf_sample *sample,
			   struct perf_evattr *evattr)
{
	/* the tool is handed out const; the state around it is the command's */
	struct perf_data_convert *c =
		(struct perf_data_convert *)container_of(tool, struct perf_data_convert, tool);
	int ret;

	(void)event;
	if (!evattr)
		return 0;
	if (sample_filter__skips(&c->filter, session, sample))
		return 0;
	ret = pprof__add_sample(c->pprof, perf_session__sample_thread(session, sample), sample,
				evattr);
	return ret ? perf_session__tool_error(session, -ret, "out of memory") : 0;
}

/* FILE, written whole under a temporary name and renamed: no half profile is ever there */
static int convert__write(struct perf_data_convert *c, struct perf_err *err)
{
	char tmp[4096];
	int fd, ret;

	if (!strcmp(c->to_pprof, "-"))
		return pprof__write(c->pprof, STDOUT_FILENO, err);
	fd = temp_output__create(c->to_pprof, tmp, sizeof(tmp));
	if (fd < 0)
		return perf_err__set(err, -fd, "cannot create %s: %s", c->to_pprof, strerror(-fd));
	ret = pprof__write(c->pprof, fd, err);
	if (!ret && (fchmod(fd, 0644) || fsync(fd)))
		ret = perf_err__set(err, errno, "cannot write %s: %m", c->to_pprof);
	if (close(fd) && !ret)
		ret = perf_err__set(err, errno, "cannot write %s: %m", c->to_pprof);
	if (!ret && rename(tmp, c->to_pprof))
		ret = perf_err__set(err, errno, "cannot write %s: %m", c->to_pprof);
	if (ret)
		unlink(tmp);
	return ret;
}

static int data__convert(int argc, const char **argv)
{
	struct perf_data_convert c = { .inline_frames = true };
	const struct option options[] = {
		OPT_STRING(0, "to-pprof", &c.to_pprof, "file",
			   "Convert to a pprof profile (gzip-compressed profile.proto; - for stdout)"),
		OPT_STRING(0, "to-json", &c.to_json, "file", "not supported: convert to JSON format"),
		OPT_STRING(0, "to-ctf", &c.to_ctf, "dir", "not supported: convert to CTF format"),
		OPT_STRING('i', "input", &c.input, "file", "input file name"),
		OPT_BOOLEAN('f', "force", &c.force, "don't complain, do it"),
		OPT_BOOLEAN(0, "all", &c.all, "Convert all events (samples are what pprof holds)"),
		OPT_INCR('v', "verbose", &c.verbose, "be more verbose"),
		OPT_STRING('c', "comms", &c.filter.comm_str, "comm[,comm...]",
			   "only the samples of these comms"),
		OPT_SAMPLE_FILTER(&c.filter),
		OPT_STRING(0, "symfs", &c.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &c.kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('k', "vmlinux", &c.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN(0, "inline", &c.inline_frames,
			    "Inlined functions as Lines of their callers' Locations (--no-inline: none)"),
		OPT_STRING(0, "unwind", &c.unwind, UNWIND_OPT_HELP,
			   "How to unwind user stacks recorded with regs + stack dumps (default: auto)"),
		OPT_END()
	};
	struct session_opts sopts = { 0 };
	struct perf_session *session;
	enum sample_filter_fail failed;
	struct perf_err err = { 0 };
	int left, ret;

	left = parse_options(argc, argv, options, data_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	if (left > 0) {
		fprintf(stderr, "perf data convert: unexpected argument '%s'\n", argv[0]);
		usage_with_options(data_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (c.to_json || c.to_ctf) {
		fprintf(stderr, "perf data convert: %s is not supported: this perf converts to pprof (--to-pprof)\n",
			c.to_json ? "--to-json" : "--to-ctf");
		return PERF_EXIT_USAGE;
	}
	if (!c.to_pprof) {
		fprintf(stderr, "perf data convert: no output: --to-pprof FILE\n");
		usage_with_options(data_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	c.symbol_conf.symfs = c.symfs ? c.symfs : "";
	c.symbol_conf.kallsyms = c.kallsyms;
	c.symbol_conf.vmlinux = c.vmlinux;
	c.symbol_conf.force = c.force;
	c.symbol_conf.warn = stderr;
	perf_tool__init(&c.tool);
	c.tool.sample = convert__sample;
	sopts.path = c.input ? c.input : "perf.data";
	sopts.symbol_conf = &c.symbol_conf;
	sopts.merge_deferred = true;
	sopts.progress = isatty(STDERR_FILENO) && strcmp(c.to_pprof, "-");
	if (unwind_mode__parse(c.unwind, &sopts.unwind_mode)) {
		fprintf(stderr, "perf data convert: --unwind takes " UNWIND_OPT_HELP ", not '%s'\n",
			c.unwind);
		return PERF_EXIT_USAGE;
	}
	session = perf_session__new(&sopts, &c.tool, &err);
	if (!session) {
		fprintf(stderr, "%s\n", err.msg);
		return PERF_EXIT_INPUT;
	}
	ret = sample_filter__setup(&c.filter, session->data, &failed, &err);
	if (ret) {
		fprintf(stderr, "%s\n", err.msg);
		ret = failed == SAMPLE_FILTER_FAIL_TIME ? PERF_EXIT_EINVAL : PERF_EXIT_INPUT;
		goto out;
	}
	c.pprof = pprof__new(&session->machine, c.inline_frames);
	if (!c.pprof) {
		fprintf(stderr, "perf data convert: out of memory\n");
		ret = PERF_EXIT_INPUT;
		goto out;
	}
	ret = perf_session__process_events(session);
	if (ret) {
		fprintf(stderr, "perf data convert: %s\n", session->err.msg);
		ret = PERF_EXIT_INPUT;
		goto out;
	}
	perf_session__warn_about_errors(session, stderr);
	if (convert__write(&c, &err)) {
		fprintf(stderr, "perf data convert: %s\n", err.msg);
		ret = PERF_EXIT_INPUT;
		goto out;
	}
	if (c.verbose || isatty(STDERR_FILENO))
		fprintf(stderr, "[ perf data convert: Converted '%s' into pprof '%s' ]\n[ perf data convert: Converted and wrote %llu samples ]\n",
			sopts.path, c.to_pprof, pprof__nr_samples(c.pprof));
out:
	pprof__delete(c.pprof);
	sample_filter__exit(&c.filter);
	perf_session__delete(session);
	return ret;
}

static const char *const data_cmd_usage[] = {
	"perf data convert [<options>]",
	NULL
};

int cmd_data(int argc, const char **argv)
{
	const struct option options[] = { OPT_END() };

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			usage_with_options(data_cmd_usage, options, stdout);
			return 0;
		}
		usage_with_options(data_cmd_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (strcmp(argv[1], "convert")) {
		fprintf(stderr, "perf data: unknown command '%s' (this perf has: convert)\n", argv[1]);
		usage_with_options(data_cmd_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	return data__convert(argc - 1, argv + 1);
}
