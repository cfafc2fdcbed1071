// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the whole pipeline of perf script and perf report: the input is a
 * perf.data file (file or pipe mode), opened from a memfd as perf opens a regular file, and
 * read twice, as the commands read it:
 *
 *   session (reader, validation ladder, ordered events) -> sample stages (deferred
 *   stitching, the user-stack unwinder, the read stage) -> machine, maps and symbols of a
 *   small --symfs tree -> script_output lines, then a report's histograms and its --stdio
 *   table, both written to /dev/null.
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

/* ---- perf script ---- */

struct fuzz_script {
	struct perf_tool	tool;
	struct script_output	out;
};

static struct fuzz_script *fuzz_script_of(const struct perf_tool *tool)
{
	return (struct fuzz_script *)container_of(tool, struct fuzz_script, tool);
}

static int fuzz_script__sample(const struct perf_tool *tool, struct perf_session *session,
			       const struct perf_event_header *event, struct perf_sample *sample,
			       struct perf_evattr *evattr)
{
	(void)event;
	return script_output__sample(&fuzz_script_of(tool)->out, session, sample, evattr);
}

static int fuzz_script__other(const struct perf_tool *tool, struct perf_session *session,
			      const struct perf_event_header *event, struct perf_sample *sample,
			      struct perf_evattr *evattr)
{
	struct fuzz_script *fs = fuzz_script_of(tool);
	struct thread *thread;

	(void)evattr;
	if (event->type == PERF_RECORD_CGROUP && machine__process_cgroup(&session->machine, event))
		return -ENOMEM;
	/* the --show-*-events prefix, for every side-band record */
	thread = machine__findnew_thread(&session->machine, (s32)sample->pid, (s32)sample->tid);
	script_output__fprintf_start(&fs->out, session, thread, sample, evattr);
	return 0;
}

static int fuzz_script__user_meta(const struct perf_tool *tool, struct perf_session *session,
				  const struct perf_event_header *event, struct perf_sample *sample,
				  struct perf_evattr *evattr)
{
	struct fuzz_script *fs = fuzz_script_of(tool);

	(void)sample;
	(void)evattr;
	switch (event->type) {
	case PERF_RECORD_HEADER_TRACING_DATA:
		fs->out.tevent = perf_session__trace_event(session);
		/* fall through */
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
		if (script_output__setup(&fs->out, session))
			return perf_session__tool_error(session, EINVAL, fs->out.err.msg);
		break;
	default:
		break;
	}
	return 0;
}

static void fuzz_script__init_tool(struct fuzz_script *fs)
{
	struct perf_tool *tool = &fs->tool;

	perf_tool__init(tool);
	tool->sample = fuzz_script__sample;
	tool->mmap = perf_event__process_mmap;
	tool->comm = perf_event__process_comm;
	tool->fork = perf_event__process_fork;
	tool->exit = perf_event__process_exit;
	tool->lost = perf_event__process_nop;
	tool->throttle = perf_event__process_nop;
	tool->ksymbol = perf_event__process_ksymbol;
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = fuzz_script__other;
	tool->user_meta = fuzz_script__user_meta;
	tool->ordered_events = true;
}

static void fuzz_script(const char *path, enum unwind_mode unwind)
{
	struct session_opts sopts = {
		.path = path,
		.symbol_conf = &fuzz_symbol_conf,
		.merge_deferred = true,
		.unwind_mode = unwind,
	};
	struct script_fields fields;
	struct fuzz_script fs;
	struct perf_session *session;
	struct perf_err err;

	fuzz_script__init_tool(&fs);
	script_fields__init_defaults(&fields);
	/* every field the samples can have: srcline and inline frames through the DWARF too */
	(void)script_fields__parse(&fields, "+srcline,+period,+addr,+dsoff,+symoff,+cgroup",
				   null_fp, &err);
	script_output__init(&fs.out, null_fp, &fields);
	fs.out.use_callchain = true;
	fs.out.inline_frames = true;
	fs.out.show_unwind = true;
	fs.out.max_stack = PERF_MAX_STACK_DEPTH;
	session = perf_session__new(&sopts, &fs.tool, &err);
	if (!session)
		goto out_exit;
	fs.out.tevent = perf_session__trace_event(session);
	if (!script_output__setup(&fs.out, session))
		(void)perf_session__process_events(session);
	perf_session__warn_about_errors(session, null_fp);
	perf_session__fprintf_stage_stats(session, null_fp, SAMPLE_STAGE_ALL);
	perf_session__delete(session);
out_exit:
	script_output__exit(&fs.out);
}

/* ---- perf report --stdio ---- */

struct fuzz_report {
	struct perf_tool	tool;
	struct report		report;
};

static struct fuzz_report *fuzz_report_of(const struct perf_tool *tool)
{
	return (struct fuzz_report *)container_of(tool, struct fuzz_report, tool);
}

static int fuzz_report__sample(const struct perf_tool *tool, struct perf_session *session,
			       const struct perf_event_header *event, struct perf_sample *sample,
			       struct perf_evattr *evattr)
{
	struct report *r = &fuzz_report_of(tool)->report;

	(void)event;
	if (report__add_sample(r, sample, evattr))
		return perf_session__tool_error(session, EINVAL, r->err.msg);
	return 0;
}

static int fuzz_report__other(const struct perf_tool *tool, struct perf_session *session,
			      const struct perf_event_header *event, struct perf_sample *sample,
			      struct perf_evattr *evattr)
{
	struct report *r = &fuzz_report_of(tool)->report;
	int ret;

	(void)sample;
	ret = event->type == PERF_RECORD_READ ? report__add_read(r, event, evattr) :
						report__side_record(r, event);
	return ret ? perf_session__tool_error(session, ret, r->err.msg) : 0;
}

static int fuzz_report__exit(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	report__task_exit(&fuzz_report_of(tool)->report);
	return perf_event__process_exit(tool, session, event, sample, evattr);
}

static void fuzz_report__init_tool(struct fuzz_report *fr)
{
	struct perf_tool *tool = &fr->tool;

	perf_tool__init(tool);
	tool->sample = fuzz_report__sample;
	tool->mmap = perf_event__process_mmap;
	tool->comm = perf_event__process_comm;
	tool->fork = perf_event__process_fork;
	tool->exit = fuzz_report__exit;
	tool->lost = perf_event__process_nop;
	tool->throttle = perf_event__process_nop;
	tool->ksymbol = perf_event__process_ksymbol;
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = fuzz_report__other;
	tool->user_meta = perf_event__process_nop;
	tool->ordered_events = true;
}

static void fuzz_report(const char *path, enum unwind_mode unwind)
{
	struct session_opts sopts = {
		.path = path,
		.symbol_conf = &fuzz_symbol_conf,
		.merge_deferred = true,
		.unwind_mode = unwind,
	};
	/* perf report's defaults (builtin/report.c), -T and the srcline key on top */
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
	struct perf_session *session;
	struct fuzz_report fr = { 0 };
	struct perf_err err;
	int ret;

	chain_params__init(&ropts.hopts.chain);
	fuzz_report__init_tool(&fr);
	session = perf_session__new(&sopts, &fr.tool, &err);
	if (!session)
		return;
	if (hist_opts__setup(&ropts.hopts, "comm,dso,sym,srcline,parent", NULL, false, true, true,
			     &err))
		goto out_delete;
	if (report__init(&fr.report, &ropts, session, NULL))
		goto out_exit;
	if (report__setup_parent(&fr.report))
		goto out_exit;
	/* as the command: a stream cut inside a record is reported up to the cut */
	ret = perf_session__process_events(session);
	if (ret && ret != -ENODATA)
		goto out_exit;
	(void)report__fprintf(&fr.report, null_fp);
	(void)report__fprintf_tasks(&fr.report, null_fp, true);
	report__fprintf_stats(&fr.report, null_fp);
	perf_session__warn_about_errors(session, null_fp);
	perf_session__fprintf_stage_stats(session, null_fp, SAMPLE_STAGE_ALL);
out_exit:
	report__exit(&fr.report);
out_delete:
	perf_session__delete(session);
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
	/* the unwinder's two walks: auto (dwarf for --call-graph dwarf files) and fp */
	fuzz_script(path, UNWIND_MODE_AUTO);
	fuzz_report(path, size & 1 ? UNWIND_MODE_FP : UNWIND_MODE_DWARF);
	close(fd);
	return 0;
}
