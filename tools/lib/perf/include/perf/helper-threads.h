/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helper-threads.h - the one budget of helper threads, and starting and joining one.
 *
 * A command does its work on one thread; some of it can go ahead on another CPU: mapping the
 * file in ahead of the reader (data-prefetch.c), reading /proc/kallsyms while it is parsed
 * (kallsyms.c), opening a DSO's DWARF before its first inline lookup (dso-file.c). Helpers
 * beyond the spare CPUs only take the command's own CPU from it, so they share one budget:
 * a slot per CPU online less the command's one. A helper holds its slot while its work runs
 * and gives it back when the work returns, before it is joined. With no slot free the work
 * runs on the caller's thread (HELPER_INLINE) or not at all (HELPER_REFUSE), as the caller
 * chooses; either way the results are the same, only where the time is spent differs.
 *
 * A helper that sleeps almost all its life (the prefetch: page-table work once per few MB
 * read) would keep a slot idle that a loader could use: HELPER_IDLE starts it only when the
 * budget has a spare CPU at all, and it holds no slot.
 *
 * Ownership: the session makes the budget and deletes it after its last helper was joined;
 * the reader and the machine borrow it. A NULL budget has no slots: work runs inline or is
 * refused. Threads: acquire and release are atomic, any thread may call them; a helper_thread
 * is started and joined by one thread.
 */
#ifndef PERF_HELPER_THREADS_H
#define PERF_HELPER_THREADS_H

#include <pthread.h>
#include <stdbool.h>

struct helper_budget;

/* slots < 0: the CPUs online less one, at least 0; NULL: out of memory */
struct helper_budget *helper_budget__new(int slots);
void helper_budget__delete(struct helper_budget *hb);
/* all the slots, held or not */
int helper_budget__slots(const struct helper_budget *hb);
/* the slots free now */
int helper_budget__free(const struct helper_budget *hb);
/* true: a slot is the caller's until helper_budget__release() */
bool helper_budget__acquire(struct helper_budget *hb);
void helper_budget__release(struct helper_budget *hb);

enum helper_mode {
	HELPER_INLINE,	/* no slot: the work runs now on the caller's thread */
	HELPER_REFUSE,	/* no slot: nothing is done */
	HELPER_IDLE,	/* a thread holding no slot, if the budget has any; else refused */
};

struct helper_thread {
	pthread_t		thread;
	struct helper_budget	*budget;
	void			(*work)(void *arg);
	void			*arg;
	bool			slot;		/* the thread gives a slot back when work returns */
	bool			running;	/* started and not joined */
};

/*
 * Runs work(arg) on a helper thread when the budget allows (true: join it with
 * helper_thread__join()); false: it ran inline (HELPER_INLINE) or was refused.
 */
bool helper_thread__start(struct helper_thread *ht, struct helper_budget *hb,
			  void (*work)(void *arg), void *arg, enum helper_mode mode);
/* waits for the work to return; nothing when it was not started on a thread */
void helper_thread__join(struct helper_thread *ht);

#endif /* PERF_HELPER_THREADS_H */
