// SPDX-License-Identifier: GPL-2.0
/*
 * data-prefetch.c - a helper thread that maps the file in ahead of the reader and gives back
 * what is behind it.
 *
 * Reading a large perf.data through its mapping costs a page fault per 64 KiB (fault-around)
 * and, to keep RSS flat, an madvise(MADV_DONTNEED) per 64 MB: about a fifth of the time of a
 * report that does little else with its samples. The thread does both on the other core:
 * MADV_POPULATE_READ over the next PREFETCH_AHEAD bytes (page-table entries only: the page
 * cache already holds the file, or the kernel reads it), and the drop behind the reader. It
 * never touches the bytes and changes nothing the reader sees, only when the faults are taken,
 * so every result stays the same. The reader reports its position once per PREFETCH_CHUNK.
 * It sleeps between chunks: a helper of the budget's HELPER_IDLE kind (helper-threads.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <perf/helper-threads.h>
#include "data-internal.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#endif

#define PAGE			4096UL
#define PREFETCH_CHUNK		(2UL << 20)
#define PREFETCH_AHEAD		(16UL << 20)

struct data_prefetch {
	struct helper_thread thread;
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	u8		*map;
	size_t		end;		/* populate up to here */
	size_t		drop_step;	/* 0: keep every page (a swapped file is changed in place) */
	/* under lock */
	size_t		reader;		/* the reader's position when it last reported */
	size_t		released;	/* given back below this */
	bool		stop;
	/* the thread's own */
	size_t		populated;
	bool		touch;		/* no MADV_POPULATE_READ (Linux < 5.14): read a byte a page */
};

static size_t page_down(size_t x)
{
	return x & ~(PAGE - 1);
}

static size_t page_up(size_t x)
{
	return (x + PAGE - 1) & ~(PAGE - 1);
}

static void populate(struct data_prefetch *pf, size_t from, size_t len)
{
	if (!pf->touch && !madvise(pf->map + from, len, MADV_POPULATE_READ))
		return;
	if (!pf->touch && errno != EINVAL) {
		/* EFAULT (the file shrank) or a signal: the reader will meet it, we stop */
		pf->populated = pf->end;
		return;
	}
	pf->touch = true;
	for (size_t off = 0; off < len; off += PAGE)
		(void)*(volatile const u8 *)(pf->map + from + off);
}

/* called and returns with the lock held */
static void drop_behind(struct data_prefetch *pf)
{
	size_t from = pf->released, upto = page_down(pf->reader);

	pf->released = upto;
	pthread_mutex_unlock(&pf->lock);
	/* the pages read back from the file if touched again: pointers stay good */
	madvise(pf->map + from, upto - from, MADV_DONTNEED);
	pthread_mutex_lock(&pf->lock);
}

static void prefetch__run(void *arg)
{
	struct data_prefetch *pf = arg;

	pthread_mutex_lock(&pf->lock);
	while (!pf->stop) {
		size_t reader = pf->reader;
		/* whole pages: madvise wants an aligned start, and the map ends on a page */
		size_t want = page_up(reader + PREFETCH_AHEAD < pf->end ? reader + PREFETCH_AHEAD
									 : pf->end);

		/* giving back first: RSS stays flat even when populating falls behind */
		if (pf->drop_step && reader - pf->released > pf->drop_step) {
			drop_behind(pf);
			continue;
		}
		/* what the reader passed it faulted in itself, or it was given back since */
		if (pf->populated < page_down(reader))
			pf->populated = page_down(reader);
		if (pf->populated < want) {
			size_t from = pf->populated;
			size_t len = want - from < PREFETCH_CHUNK ? want - from : PREFETCH_CHUNK;

			pthread_mutex_unlock(&pf->lock);
			pf->populated = from + len;
			populate(pf, from, len);
			pthread_mutex_lock(&pf->lock);
			continue;
		}
		pthread_cond_wait(&pf->cond, &pf->lock);
	}
	pthread_mutex_unlock(&pf->lock);
}

struct data_prefetch *data_prefetch__start(struct helper_budget *hb, u8 *map, size_t begin,
					   size_t end, size_t released, size_t drop_step)
{
	struct data_prefetch *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return NULL;
	pf->map = map;
	pf->end = end;
	pf->drop_step = drop_step;
	pf->reader = begin;
	pf->populated = page_down(begin);
	pf->released = released;
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->cond, NULL);
	if (!helper_thread__start(&pf->thread, hb, prefetch__run, pf, HELPER_IDLE)) {
		/* no thread: the reader faults the pages in itself, as without one */
		pthread_cond_destroy(&pf->cond);
		pthread_mutex_destroy(&pf->lock);
		free(pf);
		return NULL;
	}
	return pf;
}

void data_prefetch__advance(struct data_prefetch *pf, size_t pos)
{
	pthread_mutex_lock(&pf->lock);
	pf->reader = pos;
	/* a thread kept from running must not let RSS grow: then the reader drops itself */
	if (pf->drop_step && pos - pf->released > pf->drop_step + PREFETCH_AHEAD)
		drop_behind(pf);
	pthread_cond_signal(&pf->cond);
	pthread_mutex_unlock(&pf->lock);
}

size_t data_prefetch__step(void)
{
	return PREFETCH_CHUNK;
}

void data_prefetch__stop(struct data_prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_cond_signal(&pf->cond);
	pthread_mutex_unlock(&pf->lock);
	helper_thread__join(&pf->thread);
	pthread_cond_destroy(&pf->cond);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
}
