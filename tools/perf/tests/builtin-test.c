// SPDX-License-Identifier: GPL-2.0
/*
 * perf test: the C tests of tests-list.h, then the shell tests of tests/shell/; this file
 * finds them, numbers them and picks those a run asks for, test-run.c runs them. `perf test
 * -w NAME` runs a built-in workload instead.
 *
 * Numbering: C tests are 1..N in tests-list.h order, shell tests follow sorted by file name,
 * so a number stays stable as long as tests are only appended.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "builtin.h"
#include "util/parse-options.h"
#include "test-run.h"
#include "tests.h"
#include "workloads.h"

/*
 * seconds: about ten times what the slowest test without a limit of its own (a C test of
 * hostile inputs) takes under ASan on an idle machine; with the tests in parallel on a
 * loaded one it took over 120
 */
#define TEST_DEFAULT_TIMEOUT	240

static const struct c_test {
	const char	*desc;
	test_fn		fn;
} c_tests[] = {
#define TEST(name, desc) { desc, test__##name },
#include "tests-list.h"
#undef TEST
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* realpath() into a PATH_MAX buffer, false when path does not exist */
static bool abs_path(const char *path, char *out)
{
	char buf[PATH_MAX];

	if (!realpath(path, buf))
		return false;
	snprintf(out, PATH_MAX, "%s", buf);
	return true;
}

/* the source tree: $PERF_SRCDIR, else the nearest ancestor of the binary holding tools/perf */
static void find_srcdir(struct test_cmd *cmd, const char *exec_dir)
{
	const char *env = getenv("PERF_SRCDIR");
	char path[PATH_MAX];

	if (env && *env && abs_path(env, cmd->srcdir))
		return;
	snprintf(path, sizeof(path), "%s", exec_dir);
	for (int up = 0; up < 4; up++) {
		char probe[PATH_MAX + 32];

		snprintf(probe, sizeof(probe), "%s/tools/perf/tests/tests.h", path);
		if (is_file(probe) && abs_path(path, cmd->srcdir))
			return;
		if (strlen(path) + 4 >= sizeof(path))
			break;
		strcat(path, "/..");
	}
	cmd->srcdir[0] = '\0';
}

/* $TMPDIR when it is a directory, else /tmp: each test's directory goes there */
static void find_tmp_base(struct test_cmd *cmd)
{
	const char *env = getenv("TMPDIR");

	snprintf(cmd->tmp_base, sizeof(cmd->tmp_base), "%s",
		 env && *env && is_dir(env) ? env : "/tmp");
}

/*
 * The shell tests live in the source tree; the binary may be tools/perf/perf (in-tree copy),
 * build/perf or build-asan/perf (build outputs) or an installed bin/perf.
 */
static void find_shell_dir(struct test_cmd *cmd, const char *exec_dir)
{
	const char *env = getenv("PERF_TEST_SHELL_DIR");
	const char *rel[] = {
		"tests/shell",
		"../tools/perf/tests/shell",
		"../libexec/perf-core/tests/shell",
	};
	char path[PATH_MAX + 64];

	cmd->shell_dir[0] = '\0';
	if (env && *env) {
		if (!abs_path(env, cmd->shell_dir) || !is_dir(cmd->shell_dir)) {
			fprintf(stderr, "perf test: PERF_TEST_SHELL_DIR=%s is not a directory, no shell tests run\n",
				env);
			cmd->shell_dir[0] = '\0';
		}
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		snprintf(path, sizeof(path), "%s/%s", exec_dir, rel[i]);
		if (is_dir(path) && abs_path(path, cmd->shell_dir))
			return;
	}
	if (cmd->srcdir[0]) {
		snprintf(path, sizeof(path), "%s/tools/perf/tests/shell", cmd->srcdir);
		if (is_dir(path) && abs_path(path, cmd->shell_dir))
			return;
	}
}

/*
 * Shell tests are *.sh files; lib*.sh files are helpers they source. The description is the
 * second line's comment, "# what the test checks"; the file name stands in if it is missing.
 */
static bool is_shell_test(const char *name)
{
	size_t len = strlen(name);

	return len > 3 && !strcmp(name + len - 3, ".sh") && strncmp(name, "lib", 3) &&
	       name[0] != '.';
}

/* the description, and whether upstream's "(exclusive)" tag, which it does not show, was there */
static char *shell_test__description(const char *path, const char *name, bool *exclusive)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, *desc = NULL;
	size_t cap = 0;

	*exclusive = false;
	if (fp) {
		if (getline(&line, &cap, fp) > 0 && getline(&line, &cap, fp) > 0 && line[0] == '#') {
			char *p = line + strspn(line, "# \t"), *end, *tag;

			end = p + strlen(p);
			while (end > p && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t' ||
					   end[-1] == '\r'))
				*--end = '\0';
			/* a test that must have the machine to itself: run alone, after the others */
			tag = strstr(p, " (exclusive)");
			*exclusive = tag != NULL;
			if (tag)
				*tag = '\0';
			if (*p)
				desc = strdup(p);
		}
		free(line);
		fclose(fp);
	}
	if (!desc)
		desc = strndup(name, strlen(name) - 3);
	return desc;
}

/*
 * A shell test whose work is long by nature (a whole corpus through two perfs) says so in a
 * "# perf test timeout: N" line among its first lines: its limit is then N seconds, unless
 * --timeout asks for more (or 0, none).
 */
#define TIMEOUT_TAG	"# perf test timeout: "
#define TIMEOUT_LINES	10

static int shell_test__timeout(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int timeout = 0;

	if (!fp)
		return 0;
	for (int i = 0; i < TIMEOUT_LINES && getline(&line, &cap, fp) > 0; i++) {
		if (!strncmp(line, TIMEOUT_TAG, strlen(TIMEOUT_TAG))) {
			timeout = atoi(line + strlen(TIMEOUT_TAG));
			break;
		}
	}
	free(line);
	fclose(fp);
	return timeout > 0 ? timeout : 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int test_cmd__add_shell_tests(struct test_cmd *cmd)
{
	DIR *dir = opendir(cmd->shell_dir);
	struct test_entry *tests;
	char **names = NULL;
	size_t nr = 0, i;
	struct dirent *de;
	int ret = 0;

	if (!dir) {
		fprintf(stderr, "perf test: cannot read %s: %s\n", cmd->shell_dir, strerror(errno));
		return 0;
	}
	while ((de = readdir(dir))) {
		char **tmp;

		if (!is_shell_test(de->d_name))
			continue;
		tmp = realloc(names, (nr + 1) * sizeof(*names));
		if (!tmp)
			goto out_nomem;
		names = tmp;
		names[nr] = strdup(de->d_name);
		if (!names[nr])
			goto out_nomem;
		nr++;
	}
	if (!nr)
		goto out_free;
	qsort(names, nr, sizeof(*names), name_cmp);
	tests = realloc(cmd->tests, (cmd->nr_tests + nr) * sizeof(*tests));
	if (!tests)
		goto out_nomem;
	cmd->tests = tests;
	for (i = 0; i < nr; i++) {
		struct test_entry *t = &cmd->tests[cmd->nr_tests];
		char path[PATH_MAX + NAME_MAX + 2];

		snprintf(path, sizeof(path), "%s/%s", cmd->shell_dir, names[i]);
		if (!is_file(path))
			continue;
		memset(t, 0, sizeof(*t));
		t->script = strdup(path);
		t->desc_buf = shell_test__description(path, names[i], &t->exclusive);
		if (!t->script || !t->desc_buf) {
			free(t->script);
			free(t->desc_buf);
			goto out_nomem;
		}
		t->desc = t->desc_buf;
		t->timeout = shell_test__timeout(path);
		cmd->nr_tests++;
	}
	goto out_free;

out_nomem:
	fprintf(stderr, "perf test: out of memory listing %s\n", cmd->shell_dir);
	ret = -ENOMEM;
out_free:
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return ret;
}

static int test_cmd__build_list(struct test_cmd *cmd)
{
	size_t nr_c = ARRAY_SIZE(c_tests);

	cmd->tests = calloc(nr_c ? nr_c : 1, sizeof(*cmd->tests));
	if (!cmd->tests) {
		fprintf(stderr, "perf test: out of memory\n");
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr_c; i++) {
		cmd->tests[i].desc = c_tests[i].desc;
		cmd->tests[i].fn = c_tests[i].fn;
	}
	cmd->nr_tests = nr_c;
	if (cmd->shell_dir[0] && test_cmd__add_shell_tests(cmd))
		return -ENOMEM;
	for (size_t i = 0; i < cmd->nr_tests; i++) {
		int len = (int)strlen(cmd->tests[i].desc);

		if (len > cmd->width)
			cmd->width = len;
	}
	return 0;
}

static void test_cmd__exit(struct test_cmd *cmd)
{
	for (size_t i = 0; i < cmd->nr_tests; i++) {
		free(cmd->tests[i].script);
		free(cmd->tests[i].desc_buf);
	}
	free(cmd->tests);
	cmd->tests = NULL;
	cmd->nr_tests = 0;
}

/* "12" or "3-7"; false when arg is neither */
static bool parse_range(const char *arg, long *lo, long *hi)
{
	char *end;

	if (*arg < '0' || *arg > '9')
		return false;
	*lo = strtol(arg, &end, 10);
	if (!*end) {
		*hi = *lo;
		return true;
	}
	if (*end != '-' || end[1] < '0' || end[1] > '9')
		return false;
	*hi = strtol(end + 1, &end, 10);
	return !*end;
}

/* desc's title, the text before its first ": ", is word (case-insensitive) */
static bool test__titled(const char *desc, const char *word)
{
	const char *colon = strstr(desc, ": ");
	size_t n = strlen(word);

	return colon && (size_t)(colon - desc) == n && !strncasecmp(desc, word, n);
}

/*
 * As upstream: a number selects by number, anything else by case-insensitive substring;
 * but a word that is some test's whole title ("Symbols: ...") selects the tests of that
 * title only, so that `perf test -F Symbols` (upstream's shell tests ask it for the perf
 * binary's symbol listing) runs the one test upstream's name means.
 */
static bool test__selected(const struct test_cmd *cmd, const char *desc, size_t nr, int argc,
			   const char **argv)
{
	if (!argc)
		return true;
	for (int i = 0; i < argc; i++) {
		bool titled = false;
		long lo, hi;

		if (parse_range(argv[i], &lo, &hi)) {
			if ((long)nr >= lo && (long)nr <= hi)
				return true;
			continue;
		}
		for (size_t t = 0; t < cmd->nr_tests && !titled; t++)
			titled = test__titled(cmd->tests[t].desc, argv[i]);
		if (titled ? test__titled(desc, argv[i]) : strcasestr(desc, argv[i]) != NULL)
			return true;
	}
	return false;
}

/* --skip: "1,4-6"; returns -1 on a malformed list */
static int skiplist__has(const char *list, size_t nr)
{
	char buf[64];

	while (list && *list) {
		size_t len = strcspn(list, ",");
		long lo, hi;

		if (len == 0 || len >= sizeof(buf))
			return -1;
		memcpy(buf, list, len);
		buf[len] = '\0';
		if (!parse_range(buf, &lo, &hi))
			return -1;
		if ((long)nr >= lo && (long)nr <= hi)
			return 1;
		list += len;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* the tests this run picks, in number order; NULL (and *nr 0) when out of memory */
static struct test_pick *test_cmd__pick(const struct test_cmd *cmd, int argc, const char **argv,
					size_t *nr)
{
	struct test_pick *picks = calloc(cmd->nr_tests + 1, sizeof(*picks));

	*nr = 0;
	if (!picks)
		return NULL;
	for (size_t i = 0; i < cmd->nr_tests; i++) {
		if (!test__selected(cmd, cmd->tests[i].desc, i + 1, argc, argv))
			continue;
		picks[*nr].idx = i;
		picks[*nr].user_skip = skiplist__has(cmd->skip, i + 1) == 1;
		(*nr)++;
	}
	return picks;
}


static void test_cmd__list(const struct test_cmd *cmd, int argc, const char **argv)
{
	for (size_t i = 0; i < cmd->nr_tests; i++)
		if (test__selected(cmd, cmd->tests[i].desc, i + 1, argc, argv))
			printf("%3zu: %s\n", i + 1, cmd->tests[i].desc);
}

static int run_workload(const char *name, int argc, const char **argv)
{
	const struct test_workload *wl = workload__find(name);

	if (!wl) {
		fprintf(stderr, "No workload found: %s (see perf test --list-workloads)\n", name);
		return 1;
	}
	return wl->run(argc, argv);
}

static const char *const test_usage[] = {
	"perf test [<options>] [{list <test-name-fragment>|[<test-name-fragments>|<test-numbers>]}]",
	NULL,
};

int cmd_test(int argc, const char **argv)
{
	struct test_cmd cmd = { .timeout = TEST_DEFAULT_TIMEOUT, .runs = 1 };
	struct test_pick *picks;
	size_t nr_picks;
	const struct option options[] = {
		OPT_INCR('v', "verbose", &cmd.verbose,
			 "be more verbose: show each test's output (-vv: more details from tests)"),
		OPT_STRING('s', "skip", &cmd.skip, "tests", "tests to skip: numbers and ranges, 1,4-6"),
		OPT_BOOLEAN('S', "sequential", &cmd.sequential,
			    "run the tests one after the other, not in parallel"),
		OPT_INTEGER('j', "jobs", &cmd.jobs,
			    "tests run at once (default: one per online CPU)"),
		OPT_INTEGER('r', "runs-per-test", &cmd.runs,
			    "run each test this many times (finds flaky tests)"),
		OPT_BOOLEAN('F', "dont-fork", &cmd.dont_fork,
			    "run C tests in this process (for debuggers): no timeout, no isolation, one at a time"),
		OPT_INTEGER(0, "timeout", &cmd.timeout,
			    "seconds a test may run before it is killed and FAILED (0: no limit)"),
		OPT_STRING('w', "workload", &cmd.workload, "work", "workload to run for testing"),
		OPT_BOOLEAN(0, "list-workloads", &cmd.list_workloads,
			    "list the builtin workloads for -w/--workload"),
		OPT_END()
	};
	char exec_dir[PATH_MAX], self[PATH_MAX];
	int ret;

	argc = parse_options(argc, argv, options, test_usage, 0);
	if (argc == -2)
		return 0;
	if (argc < 0)
		return 129;
	if (cmd.list_workloads) {
		workloads__fprintf_list(stdout, cmd.verbose);
		return 0;
	}
	if (cmd.workload)
		return run_workload(cmd.workload, argc, argv);
	if (cmd.timeout < 0) {
		fprintf(stderr, "perf test: --timeout must be 0 or more seconds, not %d\n", cmd.timeout);
		return 129;
	}
	if (cmd.jobs < 0) {
		fprintf(stderr, "perf test: --jobs must be 1 or more (0: one per online CPU), not %d\n",
			cmd.jobs);
		return 129;
	}
	if (cmd.runs < 1) {
		fprintf(stderr, "perf test: --runs-per-test must be 1 or more, not %d\n", cmd.runs);
		return 129;
	}
	if (cmd.skip && skiplist__has(cmd.skip, 0) < 0) {
		fprintf(stderr, "perf test: --skip expects numbers and ranges like 1,4-6, not '%s'\n",
			cmd.skip);
		return 129;
	}

	if (!abs_path("/proc/self/exe", self))
		snprintf(self, sizeof(self), "%s/perf", perf_exec_dir());
	snprintf(cmd.perf, sizeof(cmd.perf), "%s", self);
	snprintf(exec_dir, sizeof(exec_dir), "%s", perf_exec_dir());
	find_srcdir(&cmd, exec_dir);
	find_shell_dir(&cmd, exec_dir);
	find_tmp_base(&cmd);
	if (!cmd.srcdir[0])
		snprintf(cmd.srcdir, sizeof(cmd.srcdir), "%s", exec_dir);
	if (test_cmd__build_list(&cmd)) {
		test_cmd__exit(&cmd);
		return 1;
	}

	if (argc > 0 && !strcmp(argv[0], "list")) {
		test_cmd__list(&cmd, argc - 1, argv + 1);
		test_cmd__exit(&cmd);
		return 0;
	}

	picks = test_cmd__pick(&cmd, argc, argv, &nr_picks);
	ret = picks ? test_cmd__run_picked(&cmd, picks, nr_picks) : -ENOMEM;
	free(picks);
	if (ret == -ENOMEM) {
		test_cmd__exit(&cmd);
		return 1;
	}
	/* partial passes count as passed (none failed); this line says how many were */
	if (cmd.partial)
		fprintf(stderr, "%u partial: passed, but not every case ran (reasons above)\n",
			cmd.partial);
	fprintf(stderr, "%u passed, %u failed, %u skipped\n", cmd.passed, cmd.failed, cmd.skipped);
	test_cmd__exit(&cmd);
	if (ret == -EINTR) {
		int sig = test_run__signal();

		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return cmd.failed ? 1 : 0;
}
