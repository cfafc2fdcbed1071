// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the whole pipeline of perf script and perf report: the input is a
 * perf.data file (file or pipe mode), opened from a memfd as perf opens a regular file, and
 * read once for both commands:
 *
 *   session (reader, validation ladder, ordered events) -> sample stages (deferred
 *   stitching, the user-stack unwinder, the read stage) -> machine, maps and symbols of a
 *   small --symfs tree -> script_output lines and a report's histograms, then its --stdio
 *   table, -T and --tasks, all written to /dev/null.
 *
 * The symfs tree (FUZZ_PIPELINE_SYMFS, made by the fuzz Makefile from demo/symfs and the
 * corpus' DSOs) has the ELF files the seed recordings mapped, with their symbol tables and
 * .eh_frame, so that mutated samples resolve, unwind and print through real symbols; the
 * kallsyms beside it is a slice of the corpus' (the first few thousand kernel symbols).
 *
 * The tool callbacks are those of builtin/script.c and builtin/report.c reduced to what
 * reaches the library: the builtins' option handling is not fuzzed here. A rejected input
 * (an error return) is fine; a crash, a sanitizer report, a leak or a hang is a finding.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz-memfd.h"
#include <perf/kernel.h>
#include "util/report-callchain.h"
#include "util/report.h"
#include "util/script-output.h"
#include "util/session.h"
#include "util/sort.h"

#ifndef FUZZ_PIPELINE_SYMFS
#error "FUZZ_PIPELINE_SYMFS: the fuzz Makefile passes the symfs tree it builds"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

static FILE *null_fp;

static struct symbol_conf fuzz_symbol_conf = {
	.symfs		= FUZZ_PIPELINE_SYMFS,
	.kallsyms	= FUZZ_PIPELINE_SYMFS "/kallsyms",
	/* nothing of the host: no /proc/kallsyms, no ~/.debug */
	.running_root	= FUZZ_PIPELINE_SYMFS,
	.buildid_dir	= FUZZ_PIPELINE_SYMFS "/.debug",
};

/*
 * perf script's default fields, and with all every sample has a field for (srcline and
 * inline frames through the DWARF too): script refuses a field the samples lack
 */
static void fuzz__init_output(struct script_output *out, bool all)
{
	struct script_fields fields;
	struct perf_err err;

	script_fields__init_defaults(&fields);
	if (all)
		(void)script_fields__parse(&fields, "+srcline,+period,+addr,+dsoff,+symoff,+cgroup",
					   null_fp, &err);
	script_output__init(out, null_fp, &fields);
	out->use_callchain = true;
	out->inline_frames = true;
	out->show_unwind = true;
	out->max_stack = PERF_MAX_STACK_DEPTH;
}

/* all fields when the samples have them, else the defaults */
static int fuzz__setup_output(struct script_output *out, struct perf_session *session)
{
	if (!script_output__setup(out, session))
		return 0;
	script_output__exit(out);
	fuzz__init_output(out, false);
	out->tevent = perf_session__trace_event(session);
	return script_output__setup(out, session);
}

/*
 * One session feeds both commands' outputs: each record goes where builtin/script.c's and
 * builtin/report.c's callbacks send it (one read of the input instead of two)
 */
struct fuzz_pipeline {
	struct perf_tool	tool;
	struct script_output	out;
	struct report		report;
};

static struct fuzz_pipeline *fuzz_of(const struct perf_tool *tool)
{
	return (struct fuzz_pipeline *)container_of(tool, struct fuzz_pipeline, tool);
}

static int fuzz__sample(const struct perf_tool *tool, struct perf_session *session,
			const struct perf_event_header *event, struct perf_sample *sample,
			struct perf_evattr *evattr)
{
	struct fuzz_pipeline *fp = fuzz_of(tool);
	int ret;

	(void)event;
	ret = script_output__sample(&fp->out, session, sample, evattr);
	if (ret)
		return ret;
	if (report__add_sample(&fp->report, sample, evattr))
		return perf_session__tool_error(session, EINVAL, fp->report.err.msg);
	return 0;
}

static int fuzz__other(const struct perf_tool *tool, struct perf_session *session,
		       const struct perf_event_header *event, struct perf_sample *sample,
		       struct perf_evattr *evattr)
{
	struct fuzz_pipeline *fp = fuzz_of(tool);
	struct thread *thread;
	int ret;

	/* report: READ counts (-T), switches, cgroups (machine__process_cgroup) and namespaces */
	ret = event->type == PERF_RECORD_READ ? report__add_read(&fp->report, event, evattr) :
						report__side_record(&fp->report, event);
	if (ret)
		return perf_session__tool_error(session, ret, fp->report.err.msg);
	/* script: the --show-*-events prefix, for every side-band record */
	thread = machine__findnew_thread(&session->machine, (s32)sample->pid, (s32)sample->tid);
	script_output__fprintf_start(&fp->out, session, thread, sample, evattr);
	return 0;
}

static int fuzz__exit(const struct perf_tool *tool, struct perf_session *session,
		      const struct perf_event_header *event, struct perf_sample *sample,
		      struct perf_evattr *evattr)
{
	report__task_exit(&fuzz_of(tool)->report);
	return perf_event__process_exit(tool, session, event, sample, evattr);
}

static int fuzz__user_meta(const struct perf_tool *tool, struct perf_session *session,
			   const struct perf_event_header *event, struct perf_sample *sample,
			   struct perf_evattr *evattr)
{
	struct fuzz_pipeline *fp = fuzz_of(tool);

	(void)sample;
	(void)evattr;
	switch (event->type) {
	case PERF_RECORD_HEADER_TRACING_DATA:
		fp->out.tevent = perf_session__trace_event(session);
		/* fall through */
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
		if (fuzz__setup_output(&fp->out, session))
			return perf_session__tool_error(session, EINVAL, fp->out.err.msg);
		break;
	default:
		break;
	}
	return 0;
}

static void fuzz__init_tool(struct fuzz_pipeline *fp)
{
	struct perf_tool *tool = &fp->tool;

	perf_tool__init(tool);
	tool->sample = fuzz__sample;
	tool->mmap = perf_event__process_mmap;
	tool->comm = perf_event__process_comm;
	tool->fork = perf_event__process_fork;
	tool->exit = fuzz__exit;
	tool->lost = perf_event__process_nop;
	tool->throttle = perf_event__process_nop;
	tool->ksymbol = perf_event__process_ksymbol;
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = fuzz__other;
	tool->user_meta = fuzz__user_meta;
	tool->ordered_events = true;
}

static void fuzz_pipeline(const char *path, enum unwind_mode unwind)
{
	struct session_opts sopts = {
		.path = path,
		.symbol_conf = &fuzz_symbol_conf,
		.merge_deferred = true,
		.unwind_mode = unwind,
	};
	/* perf report's defaults (builtin/report.c), -T and the srcline and parent keys on top */
	struct report_opts ropts = {
		.max_stack = PERF_MAX_STACK_DEPTH,
		.inline_frames = true,
		.skip_empty = true,
		.parent_pattern = "^sys_|^do_page_fault",
		.thread_counts = true,
		.hopts.children = true,
		.hopts.use_callchain = true,
		.hopts.show_header = true,
	};
	struct fuzz_pipeline fp = { 0 };
	struct perf_session *session;
	struct perf_err err;
	int ret;

	fuzz__init_tool(&fp);
	fuzz__init_output(&fp.out, true);
	chain_params__init(&ropts.hopts.chain);
	session = perf_session__new(&sopts, &fp.tool, &err);
	if (!session)
		goto out_exit;
	fp.out.tevent = perf_session__trace_event(session);
	if (hist_opts__setup(&ropts.hopts, "comm,dso,sym,srcline,parent", NULL, false, true, true,
			     &err) ||
	    report__init(&fp.report, &ropts, session, NULL) || report__setup_parent(&fp.report) ||
	    fuzz__setup_output(&fp.out, session))
		goto out_delete;
	/* as the commands: a stream cut inside a record is reported up to the cut */
	ret = perf_session__process_events(session);
	if (ret && ret != -ENODATA)
		goto out_warn;
	(void)report__fprintf(&fp.report, null_fp);
	(void)report__fprintf_tasks(&fp.report, null_fp, true);
	report__fprintf_stats(&fp.report, null_fp);
out_warn:
	perf_session__warn_about_errors(session, null_fp);
	perf_session__fprintf_stage_stats(session, null_fp, SAMPLE_STAGE_ALL);
out_delete:
	report__exit(&fp.report);
	perf_session__delete(session);
out_exit:
	script_output__exit(&fp.out);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	char path[64];
	int fd;

	/* failing to set up the harness is not a finding: stop loudly */
	if (!null_fp) {
		null_fp = fopen("/dev/null", "w");
		if (!null_fp)
			abort();
	}
	fd = fuzz__memfd("fuzz.data", bytes, size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* the unwinder's walks: fp or dwarf, whatever the file was recorded with */
	fuzz_pipeline(path, size & 1 ? UNWIND_MODE_FP : UNWIND_MODE_DWARF);
	close(fd);
	return 0;
}
