// SPDX-License-Identifier: GPL-2.0
/*
 * The session learns the tracing data once: from the file header when it opens the input,
 * from the HEADER_TRACING_DATA record of a pipe when it goes by. It builds the trace_event
 * then, renames the tracepoint attrs from it, and a broken blob is one error naming the
 * input, in either mode. The blob and the tracepoint attr come from sched.data.
 */
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/writer.h>
#include "util/session.h"
#include "run-helpers.h"
#include "tests.h"

struct blob {
	struct perf_event_attr	attr;	/* sched.data's first attr, a tracepoint */
	const void		*data;
	size_t			size;
	char			name[128];	/* what sched.data names it */
};

static int write_input(const char *path, const struct blob *b, size_t size, bool pipe,
		       struct perf_err *err)
{
	struct perf_writer_opts opts = { .pipe = pipe };
	struct perf_writer *w = perf_writer__new(path, &opts, err);
	u64 id = 1;
	int ret;

	if (!w)
		return -EIO;
	/* no EVENT_DESC name: the tracing data is where the name comes from */
	ret = perf_writer__add_attr(w, &b->attr, &id, 1, NULL, err);
	if (ret >= 0)
		ret = perf_writer__set_tracing_data(w, b->data, size, err);
	if (!ret)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
	return ret;
}

/* 0: opened and read; else err holds the session's message */
static int read_input(const char *path, struct perf_err *err, char *name, size_t len)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts opts = { .path = path, .symbol_conf = &conf };
	struct perf_session *session;
	struct perf_tool tool;
	int ret;

	perf_tool__init(&tool);
	session = perf_session__new(&opts, &tool, err);
	if (!session)
		return -EINVAL;
	ret = perf_session__process_events(session);
	if (ret)
		*err = session->err;
	else if (!perf_session__trace_event(session))
		ret = perf_err__set(err, EINVAL, "no trace_event after the tracing data");
	snprintf(name, len, "%s", perf_evattr__name(perf_data__attr(session->data, 0)));
	perf_session__delete(session);
	return ret;
}

DEFINE_SUITE(session_tracing_data)
{
	char dir[2048], src[4096], path[4096], name[128];
	struct perf_data *sched;
	struct perf_err err;
	struct blob b;

	TEST_ASSERT(env, !test_fixture(env, "perf72", dir, sizeof(dir)), "cannot unpack perf72");
	snprintf(src, sizeof(src), "%s/data/sched.data", dir);
	sched = perf_data__open(src, &err);
	TEST_ASSERT(env, sched, "%s: %s", src, err.msg);
	b.attr = perf_data__attr(sched, 0)->attr;
	b.data = perf_data__env(sched)->tracing_data;
	b.size = perf_data__env(sched)->tracing_data_size;
	snprintf(b.name, sizeof(b.name), "%s", perf_data__attr(sched, 0)->name);
	if (b.attr.type != PERF_TYPE_TRACEPOINT || !b.data || !strchr(b.name, ':')) {
		perf_data__close(sched);
		TEST_ASSERT(env, 0, "%s: no tracepoint attr with tracing data", src);
	}
	for (int pipe = 0; pipe < 2; pipe++) {
		const char *mode = pipe ? "pipe" : "file";
		char want[4200];
		int ret;

		snprintf(path, sizeof(path), "%s/tp.%s.data", env->tmpdir, mode);
		ret = write_input(path, &b, b.size, pipe, &err);
		if (!ret)
			ret = read_input(path, &err, name, sizeof(name));
		if (ret || strcmp(name, b.name)) {
			perf_data__close(sched);
			TEST_ASSERT(env, 0, "%s mode: %s, attr named %s, want %s", mode,
				    ret ? err.msg : "ok", name, b.name);
		}
		/* cut short: one error, naming the input, whichever way it came */
		ret = write_input(path, &b, 24, pipe, &err);
		if (!ret)
			ret = read_input(path, &err, name, sizeof(name));
		snprintf(want, sizeof(want), "%s: tracing data: ", path);
		if (!ret || strncmp(err.msg, want, strlen(want)) || strchr(err.msg, '\n')) {
			perf_data__close(sched);
			TEST_ASSERT(env, 0, "%s mode, cut tracing data: %s, want \"%s...\"", mode,
				    ret ? err.msg : "accepted", want);
		}
	}
	perf_data__close(sched);
	return TEST_OK;
}
