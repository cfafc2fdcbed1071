// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads upstream perf's own shell tests run (`perf test -w NAME`), under upstream's
 * names and with the function and data names those tests look for: thloop's thfunc and
 * test_loop, brstack's brstack, datasym's buf1. Written here from what the tests expect of
 * them; inlineloop, whose source file name and lines the tests read, is in inlineloop.c.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workloads.h"
/* last: it sets the optimisation flags of what follows */
#include "workload.h"

#define MAX_THREADS	1024

/* thloop [SECONDS] [THREADS]: THREADS - 1 threads in thfunc -> test_loop, main in test_loop */

WORKLOAD_FN void test_loop(struct spin *s);
WORKLOAD_FN void test_loop(struct spin *s)
{
	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++)
			s->acc += 1;
	} while (!spin__expired(s));
}

static WORKLOAD_FN void *thfunc(void *arg)
{
	struct spin s = *(const struct spin *)arg;

	test_loop(&s);
	return NULL;
}

int workload__thloop(int argc, const char **argv)
{
	pthread_t th[MAX_THREADS];
	long nr = 2;
	struct spin s;
	int ret = 0;

	if (spin__init(&s, "thloop", argc, argv))
		return 1;
	if (argc > 1) {
		char *end;

		errno = 0;
		nr = strtol(argv[1], &end, 10);
		if (errno || end == argv[1] || *end || nr < 1 || nr > MAX_THREADS) {
			fprintf(stderr, "perf test -w thloop: THREADS must be an integer from 1 to %d, not '%s'\n",
				MAX_THREADS, argv[1]);
			return 1;
		}
	}
	for (long i = 1; i < nr; i++) {
		int err = pthread_create(&th[i], NULL, thfunc, &s);

		if (err) {
			fprintf(stderr, "perf test -w thloop: cannot start a thread: %s\n", strerror(err));
			nr = i;
			ret = 1;
			break;
		}
	}
	test_loop(&s);
	for (long i = 1; i < nr; i++)
		pthread_join(th[i], NULL);
	return ret;
}

/* sqrtloop [SECONDS]: libm's sqrt() from sqrtloop_spin() */

static WORKLOAD_FN void sqrtloop_spin(struct spin *s)
{
	volatile double x = 0;

	do {
		for (unsigned int i = 0; i < SPIN_BATCH / 64; i++)
			x += sqrt((double)(s->acc++ & 0xffff));
	} while (!spin__expired(s));
}

int workload__sqrtloop(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "sqrtloop", argc, argv))
		return 1;
	sqrtloop_spin(&s);
	return 0;
}

/* brstack [LOOPS]: taken branches between brstack_bar, brstack_foo and brstack_bench */

#define BRSTACK_LOOPS	100000

static volatile unsigned long brstack_cnt;

static WORKLOAD_FN void brstack_bar(void)
{
	brstack_cnt++;
}

static WORKLOAD_FN void brstack_foo(void)
{
	brstack_bar();
	brstack_cnt++;
}

static WORKLOAD_FN void brstack_bench(void)
{
	if (brstack_cnt & 1)
		brstack_foo();
	else
		brstack_bar();
	brstack_cnt++;
}

WORKLOAD_FN void brstack(unsigned long loops);
WORKLOAD_FN void brstack(unsigned long loops)
{
	for (unsigned long i = 0; i < loops; i++)
		brstack_bench();
}

int workload__brstack(int argc, const char **argv)
{
	unsigned long loops = BRSTACK_LOOPS;

	if (argc > 0) {
		char *end;

		errno = 0;
		loops = strtoul(argv[0], &end, 10);
		if (errno || end == argv[0] || *end || argv[0][0] == '-') {
			fprintf(stderr, "perf test -w brstack: LOOPS must be a count, not '%s'\n",
				argv[0]);
			return 1;
		}
	}
	brstack(loops);
	return 0;
}

/* datasym [SECONDS]: loads and stores of the two fields of the global buf1 */

struct datasym_buf {
	char		data1;
	char		reserved[55];
	char		data2;
};

struct datasym_buf buf1 = { .data1 = 'a', .data2 = 'b' };

static WORKLOAD_FN void datasym_spin(struct spin *s)
{
	volatile struct datasym_buf *b = &buf1;

	do {
		for (unsigned int i = 0; i < SPIN_BATCH; i++) {
			b->data1++;
			b->data2 += b->data1;
		}
	} while (!spin__expired(s));
}

int workload__datasym(int argc, const char **argv)
{
	struct spin s;

	if (spin__init(&s, "datasym", argc, argv))
		return 1;
	datasym_spin(&s);
	return 0;
}
