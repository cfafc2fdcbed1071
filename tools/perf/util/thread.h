/* SPDX-License-Identifier: GPL-2.0 */
/*
 * thread.h - a task seen in the recording: its pid/tid, its comm history and its maps.
 *
 * Threads are owned by their machine (machine__findnew_thread); callers borrow them for the
 * duration of one event. The comm history lets output use the comm a thread had at the time
 * of a sample, as perf does.
 */
#ifndef PERF_UTIL_THREAD_H
#define PERF_UTIL_THREAD_H

#include <stdbool.h>
#include <perf/abi.h>

struct maps;

struct comm_entry {
	u64	start;		/* time the comm took effect */
	char	*str;
	bool	exec;
};

struct thread {
	s32			pid, tid, ppid;
	struct comm_entry	*comms;		/* in time order; comms[nr_comms-1] is the latest */
	size_t			nr_comms;
	bool			comm_set;	/* a COMM record was seen (not just inherited) */
	struct maps		*maps;		/* owned reference */
	bool			dead;
	struct thread		*hash_next;
	void			*priv;		/* per-command data (inject, stitcher) */
};

struct thread *thread__new(s32 pid, s32 tid);
void thread__delete(struct thread *thread);
int thread__set_comm(struct thread *thread, const char *comm, u64 time, bool exec);
/* the comm in effect at time (latest when time is 0), or a "pid" string when none */
const char *thread__comm_str(const struct thread *thread, u64 time);

#endif
