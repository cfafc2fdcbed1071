// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "map.h"
#include "thread.h"

struct thread *thread__new(s32 pid, s32 tid)
{
	struct thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->refcnt = 1;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	return t;
}

static void thread__delete(struct thread *thread)
{
	for (size_t i = 0; i < thread->nr_comms; i++)
		free(thread->comms[i].str);
	free(thread->comms);
	maps__put(thread->maps);
	free(thread);
}

struct thread *thread__get(struct thread *thread)
{
	if (thread)
		thread->refcnt++;
	return thread;
}

void thread__put(struct thread *thread)
{
	if (thread && --thread->refcnt == 0)
		thread__delete(thread);
}

int thread__set_comm(struct thread *thread, const char *comm, u64 time, bool exec)
{
	struct comm_entry *n;
	char *s;

	/* the first real COMM replaces the placeholder (":tid" or the parent's comm) */
	if (!thread->comm_set && thread->nr_comms) {
		struct comm_entry *last = &thread->comms[thread->nr_comms - 1];

		s = strdup(comm);
		if (!s)
			return -ENOMEM;
		free(last->str);
		*last = (struct comm_entry){ .start = time, .str = s, .exec = exec };
		thread->comm_set = true;
		return 0;
	}
	s = strdup(comm);
	if (!s)
		return -ENOMEM;
	n = realloc(thread->comms, (thread->nr_comms + 1) * sizeof(*n));
	if (!n) {
		free(s);
		return -ENOMEM;
	}
	thread->comms = n;
	n[thread->nr_comms++] = (struct comm_entry){ .start = time, .str = s, .exec = exec };
	thread->comm_set = true;
	return 0;
}

const char *thread__comm_str(const struct thread *thread, u64 time)
{
	if (!thread->nr_comms)
		return ":-1";
	if (!time)
		return thread->comms[thread->nr_comms - 1].str;
	for (size_t i = thread->nr_comms; i-- > 0;)
		if (thread->comms[i].start <= time)
			return thread->comms[i].str;
	return thread->comms[0].str;
}
