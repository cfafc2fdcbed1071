// SPDX-License-Identifier: GPL-2.0
/*
 * helper-threads.c - the helper-thread budget (perf/helper-threads.h): a helper holds a slot
 * while its work runs and gives it back when the work returns; with none free the work runs
 * on the caller's thread or not at all; an idle helper holds none.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <perf/helper-threads.h>
#include "tests.h"

struct gate {
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	bool		open;
	pthread_t	ran_on;
	int		runs;
};

/* waits for the gate when it is shut: the slot stays held until the test opens it */
static void gate_work(void *arg)
{
	struct gate *g = arg;

	pthread_mutex_lock(&g->lock);
	g->ran_on = pthread_self();
	g->runs++;
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void gate_init(struct gate *g, bool open)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->open = open;
	g->runs = 0;
}

static void gate_exit(struct gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

static int budget_slots(const struct test_env *env)
{
	struct helper_budget *hb = helper_budget__new(2);
	struct helper_budget *cpus = helper_budget__new(-1);
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	TEST_ASSERT(env, hb && cpus, "out of memory");
	TEST_ASSERT(env, helper_budget__slots(cpus) == (online > 1 ? online - 1 : 0),
		    "%d slots for %ld CPUs", helper_budget__slots(cpus), online);
	TEST_ASSERT(env, helper_budget__free(hb) == 2, "free %d", helper_budget__free(hb));
	TEST_ASSERT(env, helper_budget__acquire(hb) && helper_budget__acquire(hb), "two slots");
	TEST_ASSERT(env, !helper_budget__acquire(hb), "a third slot");
	helper_budget__release(hb);
	TEST_ASSERT(env, helper_budget__free(hb) == 1 && helper_budget__acquire(hb), "given back");
	helper_budget__release(hb);
	helper_budget__release(hb);
	TEST_ASSERT(env, !helper_budget__acquire(NULL) && !helper_budget__slots(NULL),
		    "no budget, no slots");
	helper_budget__delete(hb);
	helper_budget__delete(cpus);
	return TEST_OK;
}

static int one_slot(const struct test_env *env)
{
	struct helper_budget *hb = helper_budget__new(1);
	struct helper_thread a, b, c;
	struct gate ga, gb, gc;

	TEST_ASSERT(env, hb, "out of memory");
	gate_init(&ga, false);
	gate_init(&gb, true);
	gate_init(&gc, true);
	/* a holds the one slot while its work waits */
	TEST_ASSERT(env, helper_thread__start(&a, hb, gate_work, &ga, HELPER_INLINE), "a thread");
	TEST_ASSERT(env, helper_budget__free(hb) == 0, "a holds no slot");
	/* none free: b runs here and now, c not at all */
	TEST_ASSERT(env, !helper_thread__start(&b, hb, gate_work, &gb, HELPER_INLINE), "b threaded");
	TEST_ASSERT(env, gb.runs == 1 && pthread_equal(gb.ran_on, pthread_self()), "b not inline");
	TEST_ASSERT(env, !helper_thread__start(&c, hb, gate_work, &gc, HELPER_REFUSE), "c threaded");
	TEST_ASSERT(env, gc.runs == 0, "a refused helper ran");
	/* joins of helpers never started return at once */
	helper_thread__join(&b);
	helper_thread__join(&c);
	gate_open(&ga);
	helper_thread__join(&a);
	TEST_ASSERT(env, ga.runs == 1 && !pthread_equal(ga.ran_on, pthread_self()), "a inline");
	TEST_ASSERT(env, helper_budget__free(hb) == 1, "the slot not given back");
	/* the slot is given back when the work returns, before the join */
	TEST_ASSERT(env, helper_thread__start(&c, hb, gate_work, &gc, HELPER_REFUSE), "c again");
	while (helper_budget__free(hb) != 1)
		sched_yield();
	helper_thread__join(&c);
	TEST_ASSERT(env, gc.runs == 1, "c ran %d times", gc.runs);
	gate_exit(&ga);
	gate_exit(&gb);
	gate_exit(&gc);
	helper_budget__delete(hb);
	return TEST_OK;
}

static int idle_helpers(const struct test_env *env)
{
	struct helper_budget *none = helper_budget__new(0), *one = helper_budget__new(1);
	struct helper_thread a, b, c;
	struct gate ga, gb;

	TEST_ASSERT(env, none && one, "out of memory");
	gate_init(&ga, false);
	gate_init(&gb, true);
	/* no spare CPU: no idle helper either, and inline work runs here */
	TEST_ASSERT(env, !helper_thread__start(&a, none, gate_work, &ga, HELPER_IDLE), "idle on 0");
	TEST_ASSERT(env, ga.runs == 0, "a refused idle helper ran");
	TEST_ASSERT(env, !helper_thread__start(&b, NULL, gate_work, &gb, HELPER_INLINE), "no budget");
	TEST_ASSERT(env, gb.runs == 1, "inline work without a budget did not run");
	/* an idle helper holds no slot: a loader still gets the one there is */
	TEST_ASSERT(env, helper_thread__start(&a, one, gate_work, &ga, HELPER_IDLE), "idle on 1");
	TEST_ASSERT(env, helper_budget__free(one) == 1, "the idle helper took the slot");
	TEST_ASSERT(env, helper_thread__start(&c, one, gate_work, &gb, HELPER_REFUSE), "loader");
	helper_thread__join(&c);
	gate_open(&ga);
	helper_thread__join(&a);
	TEST_ASSERT(env, ga.runs == 1 && gb.runs == 2 && helper_budget__free(one) == 1,
		    "runs %d %d, free %d", ga.runs, gb.runs, helper_budget__free(one));
	gate_exit(&ga);
	gate_exit(&gb);
	helper_budget__delete(none);
	helper_budget__delete(one);
	return TEST_OK;
}

DEFINE_SUITE(helper_threads)
{
	int ret = budget_slots(env);

	if (!ret)
		ret = one_slot(env);
	if (!ret)
		ret = idle_helpers(env);
	return ret;
}
