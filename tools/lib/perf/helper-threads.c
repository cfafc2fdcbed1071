// SPDX-License-Identifier: GPL-2.0
/*
 * helper-threads.c - the budget as a count of free slots (helper-threads.h).
 */
#include <stdlib.h>
#include <unistd.h>
#include <perf/helper-threads.h>

struct helper_budget {
	int	slots;
	int	free;		/* atomic */
};

struct helper_budget *helper_budget__new(int slots)
{
	struct helper_budget *hb = calloc(1, sizeof(*hb));

	if (!hb)
		return NULL;
	if (slots < 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		slots = cpus > 1 ? (int)(cpus - 1) : 0;
	}
	hb->slots = slots;
	hb->free = slots;
	return hb;
}

void helper_budget__delete(struct helper_budget *hb)
{
	free(hb);
}

int helper_budget__slots(const struct helper_budget *hb)
{
	return hb ? hb->slots : 0;
}

int helper_budget__free(const struct helper_budget *hb)
{
	return hb ? __atomic_load_n(&hb->free, __ATOMIC_ACQUIRE) : 0;
}

bool helper_budget__acquire(struct helper_budget *hb)
{
	int n;

	if (!hb)
		return false;
	n = __atomic_load_n(&hb->free, __ATOMIC_RELAXED);
	while (n > 0) {
		if (__atomic_compare_exchange_n(&hb->free, &n, n - 1, true, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return true;
	}
	return false;
}

void helper_budget__release(struct helper_budget *hb)
{
	__atomic_add_fetch(&hb->free, 1, __ATOMIC_RELEASE);
}

static void *helper_thread__run(void *arg)
{
	struct helper_thread *ht = arg;

	ht->work(ht->arg);
	/* done: the slot is free for the next helper even before this one is joined */
	if (ht->slot)
		helper_budget__release(ht->budget);
	return NULL;
}

bool helper_thread__start(struct helper_thread *ht, struct helper_budget *hb,
			  void (*work)(void *arg), void *arg, enum helper_mode mode)
{
	*ht = (struct helper_thread){ .budget = hb, .work = work, .arg = arg };
	if (mode == HELPER_IDLE) {
		if (helper_budget__slots(hb) <= 0)
			return false;
	} else {
		ht->slot = helper_budget__acquire(hb);
	}
	if (ht->slot || mode == HELPER_IDLE) {
		ht->running = !pthread_create(&ht->thread, NULL, helper_thread__run, ht);
		if (ht->running)
			return true;
		if (ht->slot)
			helper_budget__release(hb);
		ht->slot = false;
	}
	/* no thread (no slot, or none could be made): as without helpers */
	if (mode == HELPER_INLINE)
		work(arg);
	return false;
}

void helper_thread__join(struct helper_thread *ht)
{
	if (!ht->running)
		return;
	pthread_join(ht->thread, NULL);
	ht->running = false;
}
