// SPDX-License-Identifier: GPL-2.0
/*
 * The undeferred twin of a recording: every record but the deferred ones, in delivery order,
 * samples carrying the chain the session stitched with PERF_CONTEXT_USER where the deferred
 * marker was (or the marker and cookie, when nothing could be stitched).
 */
#include <errno.h>
#include <stdlib.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "session.h"
#include "undefer.h"

struct undefer {
	struct perf_tool	tool;
	struct perf_writer	*w;
	u64			*buf;
	size_t			buf_words;
	u64			*chain;
	size_t			chain_alloc;
	struct perf_err		err;
};

static struct undefer *undefer_of(const struct perf_tool *tool)
{
	return (struct undefer *)container_of(tool, struct undefer, tool);
}

static int undefer__grow(struct undefer *u, size_t nr)
{
	u64 *c;

	if (nr <= u->chain_alloc)
		return 0;
	c = realloc(u->chain, nr * sizeof(*c));
	if (!c)
		return -ENOMEM;
	u->chain = c;
	u->chain_alloc = nr;
	return 0;
}

static int undefer__sample(const struct perf_tool *tool, struct perf_session *session,
			   const struct perf_event_header *event, struct perf_sample *sample,
			   struct perf_evattr *evattr)
{
	struct undefer *u = undefer_of(tool);
	/* the sample as it came, but for its callchain */
	struct perf_sample ids = *sample;
	int size;

	(void)session;
	(void)event;
	if (!evattr)
		return 0;
	if (undefer__grow(u, sample->callchain_nr + 1))
		return -ENOMEM;
	for (u64 i = 0; i < sample->callchain_nr; i++) {
		u64 ip = sample->callchain[i];

		/* a stitched chain: its user part becomes an ordinary inline one */
		if (ip == PERF_CONTEXT_USER_DEFERRED && !sample->deferred_callchain)
			ip = PERF_CONTEXT_USER;
		u->chain[i] = ip;
	}
	ids.callchain = u->chain;
	size = perf_sample__synthesize(&evattr->attr, &ids, false, u->buf, u->buf_words * 8, NULL);
	if (size < 0)
		return perf_err__set(&u->err, -size, "cannot rewrite a sample of sample_type %#llx",
				     (unsigned long long)evattr->attr.sample_type);
	return perf_writer__write(u->w, (const struct perf_event_header *)u->buf, &u->err);
}

/* every other kernel record goes through as it came (host order) */
static int undefer__copy(const struct perf_tool *tool, struct perf_session *session,
			 const struct perf_event_header *event, struct perf_sample *sample,
			 struct perf_evattr *evattr)
{
	struct undefer *u = undefer_of(tool);
	int ret;

	(void)sample;
	(void)evattr;
	if (event->type == PERF_RECORD_MMAP || event->type == PERF_RECORD_MMAP2)
		ret = perf_event__process_mmap(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_COMM)
		ret = perf_event__process_comm(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_FORK)
		ret = perf_event__process_fork(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_EXIT)
		ret = perf_event__process_exit(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_KSYMBOL)
		ret = perf_event__process_ksymbol(tool, session, event, sample, evattr);
	else
		ret = 0;
	if (ret)
		return ret;
	return perf_writer__write(u->w, event, &u->err);
}

static void undefer__init_tool(struct perf_tool *tool)
{
	perf_tool__init(tool);
	tool->sample = undefer__sample;
	tool->mmap = undefer__copy;
	tool->comm = undefer__copy;
	tool->fork = undefer__copy;
	tool->exit = undefer__copy;
	tool->lost = undefer__copy;
	tool->throttle = undefer__copy;
	tool->ksymbol = undefer__copy;
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = undefer__copy;
	tool->user_meta = perf_event__process_nop;
	tool->ordered_events = true;
}

int undefer__file(const char *in, const char *out, struct perf_err *err)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts sopts = { .path = in, .symbol_conf = &conf, .merge_deferred = true };
	struct undefer u = { .buf_words = 8192 };
	struct perf_writer_opts wo = { 0 };
	struct perf_session *session;
	int ret;

	undefer__init_tool(&u.tool);
	u.buf = malloc(u.buf_words * 8);
	if (!u.buf)
		return perf_err__set(err, ENOMEM, "out of memory");
	session = perf_session__new(&sopts, &u.tool, err);
	if (!session) {
		free(u.buf);
		return -EINVAL;
	}
	for (size_t i = 0; i < perf_data__nr_attrs(session->data); i++) {
		u32 size = perf_data__attr(session->data, i)->attr.size;

		if (size > wo.attr_size)
			wo.attr_size = size > sizeof(struct perf_event_attr) ?
				       sizeof(struct perf_event_attr) : (size + 7) & ~7u;
	}
	u.w = perf_writer__new(out, &wo, err);
	if (!u.w) {
		ret = -EIO;
		goto out_session;
	}
	ret = 0;
	for (size_t i = 0; i < perf_data__nr_attrs(session->data) && !ret; i++) {
		struct perf_evattr *ea = perf_data__attr(session->data, i);
		struct perf_event_attr attr = ea->attr;

		attr.flags &= ~(PERF_ATTR_FLAG(DEFER_CALLCHAIN) | PERF_ATTR_FLAG(DEFER_OUTPUT));
		ret = perf_writer__add_attr(u.w, &attr, ea->ids, ea->nr_ids,
					    perf_evattr__name(ea), err);
		ret = ret < 0 ? ret : 0;
	}
	if (!ret) {
		ret = perf_session__process_events(session);
		if (ret)
			perf_err__set(err, -ret, "%s: %s", in,
				      u.err.msg[0] ? u.err.msg : session->err.msg);
	}
	if (!ret)
		ret = perf_writer__finish(u.w, err);
	perf_writer__delete(u.w);
out_session:
	perf_session__delete(session);
	free(u.buf);
	free(u.chain);
	return ret;
}

