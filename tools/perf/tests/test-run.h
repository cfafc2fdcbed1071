/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-run.h - how `perf test` runs the tests it picked: each in a forked child with its own
 * temporary directory, HOME and time limit, up to --jobs of them at once, and one result line
 * each, printed in the order the tests were picked whatever order they end in.
 *
 * builtin-test.c owns the command (options, the list of tests, which ones a run picks);
 * test-run.c owns the children, their output and the counts.
 */
#ifndef PERF_TESTS_TEST_RUN_H
#define PERF_TESTS_TEST_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "tests.h"

struct test_entry {
	const char	*desc;
	test_fn		fn;		/* C test, or NULL */
	char		*script;	/* shell test: absolute path, owned */
	char		*desc_buf;	/* shell test: owned storage behind desc */
	int		timeout;	/* shell test's own limit in seconds, 0: the default */
	bool		exclusive;	/* runs alone, after the others ("(exclusive)", as upstream) */
};

struct test_cmd {
	/* options */
	int		verbose;
	const char	*workload;
	bool		list_workloads;
	const char	*skip;
	int		timeout;
	bool		dont_fork;
	bool		sequential;
	int		jobs;		/* tests at once; 0: one per online CPU */
	int		runs;		/* runs of each test, 1 or more */
	/* what the tests run against */
	char		perf[PATH_MAX];		/* the binary under test */
	char		srcdir[PATH_MAX];
	char		shell_dir[PATH_MAX];	/* "" when no shell test directory was found */
	char		tmp_base[PATH_MAX];	/* where the tests' directories go: $TMPDIR or /tmp */
	struct test_entry *tests;	/* owned, C tests first */
	size_t		nr_tests;
	int		width;		/* of the longest description, for the result column */
	unsigned int	passed, failed, skipped;
	unsigned int	partial;	/* of passed: Ok for only some of their cases */
};

/* one test a run picked: its index in cmd->tests, and whether --skip named it */
struct test_pick {
	size_t		idx;
	bool		user_skip;
};

/*
 * Runs the picked tests (cmd->runs times each), the exclusive ones last and one at a time,
 * and adds their results to cmd's counts. Returns 0, or -EINTR when SIGINT, SIGTERM or
 * SIGHUP stopped the run (the running tests are killed; the signal is test_run__signal()).
 */
int test_cmd__run_picked(struct test_cmd *cmd, const struct test_pick *picks, size_t nr);
int test_run__signal(void);

#endif
