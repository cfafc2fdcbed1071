/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests.h - the C tests of `perf test`.
 *
 * Every test is listed once in tests-list.h (stable order = stable numbers) and defined with
 * DEFINE_SUITE in its own file. A test returns TEST_OK, TEST_FAIL or TEST_SKIP; it prints
 * details only with -v (test->verbose). Tests run in a fresh child process each.
 */
#ifndef PERF_TESTS_H
#define PERF_TESTS_H

#include <stdbool.h>
#include <stdio.h>

enum {
	TEST_OK = 0,
	TEST_FAIL = -1,
	TEST_SKIP = -2,
};

struct test_env {
	const char	*perf;		/* path of the perf binary under test */
	const char	*srcdir;	/* top of the source tree */
	const char	*tmpdir;	/* a private temp dir, removed after the test */
	int		verbose;
};

typedef int (*test_fn)(const struct test_env *env);

#define DEFINE_SUITE(name) int test__##name(const struct test_env *env)

#define TEST_ASSERT(env, cond, ...)						\
	do {									\
		if (!(cond)) {							\
			if ((env)->verbose) {					\
				fprintf(stderr, "%s:%d: assertion '%s' failed: ", __FILE__, __LINE__, #cond); \
				fprintf(stderr, __VA_ARGS__);			\
				fputc('\n', stderr);				\
			}							\
			return TEST_FAIL;					\
		}								\
	} while (0)

#define TEST(name, desc) DEFINE_SUITE(name);
#include "tests-list.h"
#undef TEST

#endif
