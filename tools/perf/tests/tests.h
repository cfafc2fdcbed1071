/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests.h - the C tests of `perf test`.
 *
 * Every test is listed once in tests-list.h (stable order = stable numbers) and defined with
 * DEFINE_SUITE in its own file. A test returns TEST_OK, TEST_FAIL, TEST_SKIP or TEST_PARTIAL;
 * it prints details only with -v (test->verbose). Tests run in a fresh child process each.
 *
 * A skip and a partial pass say why on perf test's result line: return them through
 * test__skip() and test__partial(), which print the reason as the line perf test looks for
 * in the test's output (the same "skip: " and "partial: " lines the shell tests' lib.sh
 * prints).
 */
#ifndef PERF_TESTS_H
#define PERF_TESTS_H

#include <stdbool.h>
#include <stdio.h>

enum {
	TEST_OK = 0,
	TEST_FAIL = -1,
	TEST_SKIP = -2,
	TEST_PARTIAL = -3,	/* passed, but some of its cases could not run here */
};

struct test_env {
	const char	*perf;		/* path of the perf binary under test */
	const char	*srcdir;	/* top of the source tree */
	const char	*tmpdir;	/* a private temp dir, removed after the test */
	int		verbose;
};

typedef int (*test_fn)(const struct test_env *env);

/*
 * test__skip(env, "no upstream perf at %s", path): a prerequisite is missing; returns
 * TEST_SKIP, shown as "Skip (REASON)".
 * test__partial(env, "3 of 5 cases: no hotspot"): every case that ran passed, but some could
 * not run here; returns TEST_PARTIAL, shown as "Ok (REASON)": how many cases ran and why the
 * others did not.
 * The reason is printed whatever env->verbose: perf test finds it in the test's output.
 */
#define test__skip(env, ...)	test__reason(env, TEST_SKIP, __VA_ARGS__)
#define test__partial(env, ...)	test__reason(env, TEST_PARTIAL, __VA_ARGS__)

/* prints ret's reason line ("skip: " or "partial: " and the text); returns ret */
int test__reason(const struct test_env *env, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
