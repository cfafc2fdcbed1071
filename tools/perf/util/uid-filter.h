/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uid-filter.h - perf record -a/-C --uid: only the samples of one user's tasks, as perf 7.x
 * keeps them with its BPF filter "uid == N", decided here in user space as records leave the
 * rings (no BPF: nothing to load, no CAP_BPF).
 *
 * A task's user is its real uid, the one the BPF helper reads, from /proc/PID/status: of
 * every process once the events count, and of a new one the first time it is seen. A FORK
 * gives the new process its parent's uid; an EXEC (COMM with the exec flag) and the EXIT of a
 * process forget it, for su-like programs and reused pids. pid 0, the idle task, is root's.
 *
 * The rings are read one after the other, so a sample may come before the FORK of its
 * process, in another CPU's ring read later in the pass or, when written after that ring was
 * read, in the next pass. A sample whose process is unknown and gone from /proc is therefore
 * held over to the end of the next pass, and decided then; the process table forgets exited
 * processes only when nothing is held. One still unknown (a process that started and ended
 * unseen, its FORK lost) is dropped and counted apart, for perf record to say so. By the same
 * disorder, a pid reused within one pass may keep its former owner's uid until its next exec.
 *
 * Samples and CALLCHAIN_DEFERRED records (the user stacks of samples) are filtered; the
 * side-band of every task stays, as perf keeps it.
 *
 * Owns its pid table. No global state.
 */
#ifndef PERF_UTIL_UID_FILTER_H
#define PERF_UTIL_UID_FILTER_H

#include <stdbool.h>
#include <sys/types.h>
#include <perf/abi.h>
#include <perf/data.h>
#include "hashmap.h"

struct uid_filter {
	uid_t		uid;
	const char	*proc;		/* "/proc", or a test's tree */
	struct hashmap	pids;		/* struct uid_filter_pid */
	size_t		nr_exited;	/* of them, to forget at the end of the pass */
	void		*held;		/* records held to the end of the pass */
	size_t		held_size, held_alloc;
	u64		kept, dropped;	/* samples of the user, of others */
	u64		unknown;	/* samples dropped: their process ended unseen */
};

enum uid_filter_verdict {
	UID_FILTER_KEEP,
	UID_FILTER_DROP,
	UID_FILTER_HELD,	/* copied: uid_filter__flush() decides it */
};

void uid_filter__init(struct uid_filter *f, uid_t uid, const char *proc);
/*
 * Every process in proc now into the table: 0 or -errno (proc unreadable). Once the events
 * count, so that every process either is found here or has its FORK recorded.
 */
int uid_filter__scan(struct uid_filter *f);
void uid_filter__exit(struct uid_filter *f);
/*
 * What becomes of ev: every record but the samples (and deferred callchains) of other users
 * is kept. Side-band records update the table. ea: the record's attr (NULL: unknown, kept).
 * Out of memory only makes later lookups read /proc again (and a record that cannot be held
 * is decided at once).
 */
enum uid_filter_verdict uid_filter__keep(struct uid_filter *f, const struct perf_evattr *ea,
					 const struct perf_event_header *ev);
/*
 * At the end of a pass over the rings: emit the held records of the user (with their attrs),
 * in the order they came, and drop the others; a record whose process is still unknown is
 * held over once more (last: not, the recording ends or changes files). The first non-zero
 * return of emit stops it and is returned; the records not emitted yet are forgotten.
 * Whether records are still held: uid_filter__holding().
 */
int uid_filter__flush(struct uid_filter *f, bool last,
		      int (*emit)(void *ctx, const struct perf_event_header *ev), void *ctx);

static inline bool uid_filter__holding(const struct uid_filter *f)
{
	return f->held_size > 0;
}

#endif
