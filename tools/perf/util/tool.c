// SPDX-License-Identifier: GPL-2.0
#include "session.h"
#include "tool.h"

int perf_event__process_mmap(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	(void)tool;
	(void)evattr;
	return machine__process_mmap(&session->machine, event, sample->time);
}

int perf_event__process_comm(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	(void)tool;
	(void)evattr;
	return machine__process_comm(&session->machine, event, sample->time);
}

int perf_event__process_fork(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	(void)tool;
	(void)evattr;
	return machine__process_fork(&session->machine, event, sample->time);
}

int perf_event__process_exit(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	(void)tool;
	(void)evattr;
	return machine__process_exit(&session->machine, event, sample->time);
}

int perf_event__process_ksymbol(const struct perf_tool *tool, struct perf_session *session,
				const struct perf_event_header *event, struct perf_sample *sample,
				struct perf_evattr *evattr)
{
	(void)tool;
	(void)sample;
	(void)evattr;
	return machine__process_ksymbol(&session->machine, event);
}

int perf_event__process_nop(const struct perf_tool *tool, struct perf_session *session,
			    const struct perf_event_header *event, struct perf_sample *sample,
			    struct perf_evattr *evattr)
{
	(void)tool;
	(void)session;
	(void)event;
	(void)sample;
	(void)evattr;
	return 0;
}

void perf_tool__init(struct perf_tool *tool)
{
	*tool = (struct perf_tool){
		.sample			= perf_event__process_nop,
		.mmap			= perf_event__process_mmap,
		.comm			= perf_event__process_comm,
		.fork			= perf_event__process_fork,
		.exit			= perf_event__process_exit,
		.lost			= perf_event__process_nop,
		.throttle		= perf_event__process_nop,
		.ksymbol		= perf_event__process_ksymbol,
		.callchain_deferred	= perf_event__process_nop,
		.other			= perf_event__process_nop,
		.user_meta		= perf_event__process_nop,
		.ordered_events		= true,
	};
}
