/* SPDX-License-Identifier: GPL-2.0 */
/*
 * thread.h - a task seen in the recording: its pid/tid, its comm history and its maps.
 *
 * Threads are reference counted. The machine holds one reference to each thread in its hash
 * (machine__findnew_thread() returns that one, borrowed: valid until the machine handles the
 * next record); whoever keeps a thread past the current event takes its own (thread__get())
 * and drops it with thread__put(). A thread whose tid is reused leaves the machine's hash
 * then, and lives on while references remain: a sample held for later still names the
 * thread it was taken in, with that thread's comm history and maps.
 *
 * The comm history lets output use the comm a thread had at the time of a sample, as perf
 * does.
 */
#ifndef PERF_UTIL_THREAD_H
#define PERF_UTIL_THREAD_H

#include <stdbool.h>
#include <perf/abi.h>
#include "hashmap.h"

struct maps;

struct comm_entry {
	u64	start;		/* time the comm took effect */
	char	*str;
	bool	exec;
};

struct thread {
	int			refcnt;
	s32			pid, tid, ppid;
	struct comm_entry	*comms;		/* in time order; comms[nr_comms-1] is the latest */
	size_t			nr_comms;
	bool			comm_set;	/* a COMM record was seen (not just inherited) */
	struct maps		*maps;		/* owned reference */
	bool			dead;		/* EXIT seen: kept until its tid is reused */
	struct hashmap_node	hash_node;	/* in the machine's threads */
};

/* one reference, the caller's; NULL when out of memory */
struct thread *thread__new(s32 pid, s32 tid);
/* NULL-safe; get returns thread */
struct thread *thread__get(struct thread *thread);
void thread__put(struct thread *thread);
int thread__set_comm(struct thread *thread, const char *comm, u64 time, bool exec);
/* the comm in effect at time (latest when time is 0), or a "pid" string when none */
const char *thread__comm_str(const struct thread *thread, u64 time);

#endif
