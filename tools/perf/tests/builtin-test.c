// SPDX-License-Identifier: GPL-2.0
/*
 * perf test: runs the C tests of tests-list.h, then the shell tests of tests/shell/, each in
 * a forked child with a private temporary directory and a timeout, and prints one line per
 * test in upstream's layout. `perf test -w NAME` runs a built-in workload instead.
 *
 * Numbering: C tests are 1..N in tests-list.h order, shell tests follow sorted by file name,
 * so a number stays stable as long as tests are only appended.
 *
 * A child's exit code carries the result (0 Ok, 2 Skip, 3 Ok in part, anything else or a
 * signal FAILED), which is also the shell tests' convention. The child's stdout and stderr go
 * to an anonymous file the parent prints with -v, so a verbose run never interleaves two
 * tests. A skip or a partial pass also leaves its reason there, as its last line starting
 * with "skip: " or "partial: " (lib.sh's skip and pass, test__skip() and test__partial()):
 * the result line shows it, with or without -v.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "builtin.h"
#include "util/parse-options.h"
#include "tests.h"
#include "workloads.h"

#define TEST_DEFAULT_TIMEOUT	120	/* seconds; the slowest test is expected to take a few */
#define CHILD_EXIT_SKIP		2	/* the shell tests' "skip" code, reused for C tests */
#define CHILD_EXIT_PARTIAL	3	/* passed, but not every case ran: lib.sh's pass */
#define CHILD_EXIT_EXEC		127	/* as the shell reports a command it could not run */

/* the lines that carry a skip's or a partial pass's reason; lib.sh prints the same */
#define REASON_SKIP		"skip: "
#define REASON_PARTIAL		"partial: "
#define REASON_MAX		200	/* of it on the result line: one line, not a log */

static const struct c_test {
	const char	*desc;
	test_fn		fn;
} c_tests[] = {
#define TEST(name, desc) { desc, test__##name },
#include "tests-list.h"
#undef TEST
};

struct test_entry {
	const char	*desc;
	test_fn		fn;		/* C test, or NULL */
	char		*script;	/* shell test: absolute path, owned */
	char		*desc_buf;	/* shell test: owned storage behind desc */
	int		timeout;	/* shell test's own limit in seconds, 0: the default */
};

struct test_cmd {
	/* options */
	int		verbose;
	const char	*workload;
	bool		list_workloads;
	const char	*skip;
	int		timeout;
	bool		dont_fork;
	/* what the tests run against */
	char		perf[PATH_MAX];		/* the binary under test */
	char		srcdir[PATH_MAX];
	char		shell_dir[PATH_MAX];	/* "" when no shell test directory was found */
	struct test_entry *tests;	/* owned, C tests first */
	size_t		nr_tests;
	int		width;		/* of the longest description, for the result column */
	unsigned int	passed, failed, skipped;
	unsigned int	partial;	/* of passed: Ok for only some of their cases */
};

/*
 * The signal that interrupted the run. A handler can only talk to the main loop through
 * a static, so this is the one piece of process-wide state here.
 */
static volatile sig_atomic_t stop_signal;

static void stop_handler(int sig)
{
	stop_signal = sig;
}

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

static char *shell_test__description(const char *path, const char *name)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, *desc = NULL;
	size_t cap = 0;

	if (fp) {
		if (getline(&line, &cap, fp) > 0 && getline(&line, &cap, fp) > 0 && line[0] == '#') {
			char *p = line + strspn(line, "# \t"), *end, *tag;

			end = p + strlen(p);
			while (end > p && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t' ||
					   end[-1] == '\r'))
				*--end = '\0';
			/* upstream's scheduling hint; tests run one at a time here anyway */
			tag = strstr(p, " (exclusive)");
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
		t->desc_buf = shell_test__description(path, names[i]);
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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/*
 * PERF_TEST_KEEP_TMPDIR=1 keeps each test's directory to look at what it wrote;
 * PERF_TEST_KEEP_FAILED=DIR moves a failed test's directory to DIR/NR (a live recording
 * that failed once is the only copy of what made it fail)
 */
static void tmpdir__remove(const char *dir, size_t nr, int res)
{
	const char *keep = getenv("PERF_TEST_KEEP_TMPDIR");
	const char *failed = getenv("PERF_TEST_KEEP_FAILED");
	char to[PATH_MAX];

	if (keep && *keep && strcmp(keep, "0")) {
		fprintf(stderr, "perf test: kept %s\n", dir);
		return;
	}
	if (res == TEST_FAIL && failed && *failed) {
		snprintf(to, sizeof(to), "%s/%zu", failed, nr);
		nftw(to, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		if (!rename(dir, to)) {
			fprintf(stderr, "perf test: test %zu's directory kept in %s\n", nr, to);
			return;
		}
		fprintf(stderr, "perf test: cannot move %s to %s: %s\n", dir, to, strerror(errno));
	}
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int tmpdir__create(char *out, size_t len)
{
	const char *base = getenv("TMPDIR");

	if (!base || !*base || !is_dir(base))
		base = "/tmp";
	snprintf(out, len, "%s/perf-test-XXXXXX", base);
	if (!mkdtemp(out)) {
		fprintf(stderr, "perf test: cannot create a temporary directory in %s: %s\n", base,
			strerror(errno));
		return -errno;
	}
	return 0;
}

/* the script itself when executable, else the interpreter of its #! line, else sh */
static void exec_script(const char *path, int verbose)
{
	const char *argv[5];
	char line[256] = "";
	int argc = 0;
	FILE *fp;

	if (!access(path, X_OK)) {
		argv[argc++] = path;
		if (verbose)
			argv[argc++] = "-v";
		argv[argc] = NULL;
		execv(path, (char *const *)argv);
		return;
	}
	fp = fopen(path, "r");
	if (fp) {
		if (!fgets(line, sizeof(line), fp))
			line[0] = '\0';
		fclose(fp);
	}
	if (!strncmp(line, "#!", 2)) {
		char *interp = line + 2 + strspn(line + 2, " \t"), *arg;

		interp[strcspn(interp, "\r\n")] = '\0';
		arg = interp + strcspn(interp, " \t");
		if (*arg) {
			*arg++ = '\0';
			arg += strspn(arg, " \t");
		}
		argv[argc++] = interp;
		if (*arg)
			argv[argc++] = arg;
	} else {
		argv[argc++] = "/bin/sh";
	}
	argv[argc++] = path;
	if (verbose)
		argv[argc++] = "-v";
	argv[argc] = NULL;
	execv(argv[0], (char *const *)argv);
}

static int result__to_exit_code(int ret)
{
	switch (ret) {
	case TEST_OK:
		return 0;
	case TEST_SKIP:
		return CHILD_EXIT_SKIP;
	case TEST_PARTIAL:
		return CHILD_EXIT_PARTIAL;
	default:
		return 1;
	}
}

int test__reason(const struct test_env *env, int ret, const char *fmt, ...)
{
	va_list ap;

	(void)env;
	/* whatever -v says: this line is how the reason reaches the result line */
	fputs(ret == TEST_PARTIAL ? REASON_PARTIAL : REASON_SKIP, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return ret;
}

/* runs in the child: never returns */
static void test__child(const struct test_cmd *cmd, const struct test_entry *t, const char *tmpdir,
			int out_fd)
{
	struct test_env env = {
		.perf = cmd->perf,
		.srcdir = cmd->srcdir,
		.tmpdir = tmpdir,
		.verbose = cmd->verbose,
	};
	char level[16];
	int null_fd, ret;

	/* own process group: a timeout or ^C kills the test and everything it started */
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd >= 0) {
		dup2(null_fd, STDIN_FILENO);
		close(null_fd);
	}
	dup2(out_fd, STDOUT_FILENO);
	dup2(out_fd, STDERR_FILENO);
	close(out_fd);
	snprintf(level, sizeof(level), "%d", cmd->verbose);
	if (setenv("PERF", cmd->perf, 1) || setenv("PERF_SRCDIR", cmd->srcdir, 1) ||
	    setenv("TMPDIR", tmpdir, 1) || setenv("PERF_TEST_VERBOSE", level, 1) ||
	    chdir(tmpdir)) {
		fprintf(stderr, "perf test: cannot set up the test environment: %s\n", strerror(errno));
		exit(1);
	}
	if (t->script) {
		exec_script(t->script, cmd->verbose);
		fprintf(stderr, "perf test: cannot run %s: %s\n", t->script, strerror(errno));
		_exit(CHILD_EXIT_EXEC);
	}
	ret = t->fn(&env);
	fflush(NULL);
	/* exit(), not _exit(): LeakSanitizer checks the test at exit in sanitizer builds */
	exit(result__to_exit_code(ret));
}

static void child__kill(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/*
 * Waits for the child (pid is also its process group) for at most timeout seconds (0: no
 * limit). Returns 0 with *status set, 1 when the child was killed for the timeout, or
 * -EINTR when perf test itself got SIGINT/SIGTERM/SIGHUP and killed the child.
 * Whatever the child left running in its group is killed before the child is reaped, so
 * its pid (the group id) cannot be reused in between.
 */
static int child__wait(pid_t pid, int timeout, int *status)
{
	struct timespec start, now, nap = { 0, 1000000 };
	int ret = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		siginfo_t info = { .si_pid = 0 };

		if (!waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) && info.si_pid == pid)
			break;
		if (stop_signal) {
			ret = -EINTR;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (timeout > 0 && (now.tv_sec - start.tv_sec) * 1000000000LL +
				   (now.tv_nsec - start.tv_nsec) >= timeout * 1000000000LL) {
			ret = 1;
			break;
		}
		nanosleep(&nap, NULL);
		/* back off from 1 ms to 32 ms: quick tests stay quick, long ones cost nothing */
		if (nap.tv_nsec < 32000000)
			nap.tv_nsec *= 2;
	}
	child__kill(pid);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return ret;
}

static void output__dump(int fd, const char *note)
{
	char buf[4096];
	ssize_t n;

	fprintf(stderr, "--- start ---\n");
	fflush(stderr);
	if (fd >= 0 && lseek(fd, 0, SEEK_SET) == 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(STDERR_FILENO, buf, (size_t)n) != n)
				break;
	}
	if (note)
		fprintf(stderr, "%s\n", note);
}

/*
 * PERF_TEST_FAILED_DIR=DIR keeps a failed test's output (what -v shows) in DIR/NR.log: a
 * failure seen once, in a run without -v, still says why (scripts/run-tests.sh prints it)
 */
static void output__save_failed(int fd, size_t nr, const char *note)
{
	const char *dir = getenv("PERF_TEST_FAILED_DIR");
	char path[PATH_MAX], buf[4096];
	ssize_t n;
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%zu.log", dir, nr);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "perf test: cannot write %s: %s\n", path, strerror(errno));
		return;
	}
	if (fd >= 0 && lseek(fd, 0, SEEK_SET) == 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, f);
	}
	if (note)
		fprintf(f, "%s\n", note);
	fclose(f);
}

/*
 * The reason of the last line in the output fd that starts with prefix, into reason (size
 * bytes, cut to one line); false when there is none. The last: a test may run commands that
 * print such lines, its own reason comes just before it exits.
 */
static bool output__reason(int fd, const char *prefix, char *reason, size_t size)
{
	size_t plen = strlen(prefix), cap = 0;
	char *line = NULL;
	bool found = false;
	int dup_fd;
	FILE *fp;

	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
		return false;
	dup_fd = dup(fd);
	fp = dup_fd >= 0 ? fdopen(dup_fd, "r") : NULL;
	if (!fp) {
		if (dup_fd >= 0)
			close(dup_fd);
		return false;
	}
	while (getline(&line, &cap, fp) > 0) {
		char *p = line + plen;

		if (strncmp(line, prefix, plen))
			continue;
		p[strcspn(p, "\r\n")] = '\0';
		if (!*p)
			continue;
		snprintf(reason, size, "%s", p);
		found = true;
	}
	free(line);
	fclose(fp);
	return found;
}

static int output__open(void)
{
	int fd = memfd_create("perf-test-output", MFD_CLOEXEC);

	if (fd < 0) {
		FILE *fp = tmpfile();

		fd = fp ? dup(fileno(fp)) : -1;
		if (fp)
			fclose(fp);
	}
	return fd;
}

/*
 * Runs one test in a child; returns TEST_OK/TEST_FAIL/TEST_SKIP/TEST_PARTIAL or -EINTR, with
 * the reason of a skip or partial pass in reason (size bytes).
 */
static int test__run_forked(const struct test_cmd *cmd, const struct test_entry *t,
			    size_t nr, const char *tmpdir, char *reason, size_t size)
{
	char note[128] = "";
	int out_fd, status = 0, ret, waited;
	int timeout = cmd->timeout && t->timeout > cmd->timeout ? t->timeout : cmd->timeout;
	pid_t pid;

	out_fd = output__open();
	if (out_fd < 0) {
		fprintf(stderr, "perf test: cannot create an output file: %s\n", strerror(errno));
		return TEST_FAIL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "perf test: fork failed: %s\n", strerror(errno));
		close(out_fd);
		return TEST_FAIL;
	}
	if (pid == 0)
		test__child(cmd, t, tmpdir, out_fd);
	/* the child does this too; both, so a kill right after fork reaches the group */
	setpgid(pid, pid);
	waited = child__wait(pid, timeout, &status);
	if (waited < 0) {
		close(out_fd);
		return waited;
	}
	if (waited > 0) {
		snprintf(note, sizeof(note), "---- timed out after %d s, killed ----", timeout);
		ret = TEST_FAIL;
	} else if (WIFSIGNALED(status)) {
		snprintf(note, sizeof(note), "---- unexpected signal (%d) ----", WTERMSIG(status));
		ret = TEST_FAIL;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = TEST_OK;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_EXIT_SKIP) {
		ret = TEST_SKIP;
		if (!output__reason(out_fd, REASON_SKIP, reason, size))
			snprintf(reason, size, "no reason given");
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_EXIT_PARTIAL) {
		ret = TEST_PARTIAL;
		/* a partial pass names what did not run; exit 3 alone is some command's failure */
		if (!output__reason(out_fd, REASON_PARTIAL, reason, size)) {
			snprintf(note, sizeof(note), "---- exit %d without a '%s' line ----",
				 CHILD_EXIT_PARTIAL, REASON_PARTIAL);
			ret = TEST_FAIL;
		}
	} else {
		ret = TEST_FAIL;
	}
	if (ret == TEST_FAIL)
		output__save_failed(out_fd, nr, note[0] ? note : NULL);
	if (cmd->verbose) {
		output__dump(out_fd, note[0] ? note : NULL);
		fprintf(stderr, "---- end(%d) ----\n",
			WIFEXITED(status) ? -WEXITSTATUS(status) : -WTERMSIG(status));
	}
	close(out_fd);
	return ret;
}

/* -F: a C test in this process, for debuggers; no timeout, a crash ends perf test */
static int test__run_inline(const struct test_cmd *cmd, const struct test_entry *t,
			    const char *tmpdir)
{
	struct test_env env = {
		.perf = cmd->perf,
		.srcdir = cmd->srcdir,
		.tmpdir = tmpdir,
		.verbose = cmd->verbose,
	};
	int ret;

	if (cmd->verbose)
		fprintf(stderr, "--- start ---\n");
	ret = t->fn(&env);
	if (cmd->verbose)
		fprintf(stderr, "---- end(%d) ----\n", ret);
	return ret;
}

/* reason: why a test skipped or passed in part, NULL when not known (-F) */
static void print_result(const struct test_cmd *cmd, size_t nr, const char *desc, int ret,
			 const char *reason)
{
	fprintf(stderr, "%3zu: %-*s:", nr, cmd->width, desc);
	if (ret == TEST_OK)
		fprintf(stderr, " Ok\n");
	else if (ret == TEST_PARTIAL)
		fprintf(stderr, " Ok (%s)\n", reason && *reason ? reason : "not every case ran");
	else if (ret == TEST_SKIP)
		fprintf(stderr, " Skip (%s)\n", reason && *reason ? reason : "reason printed above");
	else
		fprintf(stderr, " FAILED!\n");
}

static int test_cmd__run(struct test_cmd *cmd, int argc, const char **argv)
{
	struct sigaction sa = { .sa_handler = stop_handler }, old_int, old_term, old_hup;
	int ret = 0;

	/* no SA_RESTART: a ^C must wake the wait loop at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);

	for (size_t i = 0; i < cmd->nr_tests; i++) {
		const struct test_entry *t = &cmd->tests[i];
		char tmpdir[PATH_MAX], reason[REASON_MAX] = "";
		int res;

		if (!test__selected(cmd, t->desc, i + 1, argc, argv))
			continue;
		if (skiplist__has(cmd->skip, i + 1) == 1) {
			print_result(cmd, i + 1, t->desc, TEST_SKIP, "user override");
			cmd->skipped++;
			continue;
		}
		if (tmpdir__create(tmpdir, sizeof(tmpdir))) {
			res = TEST_FAIL;
		} else {
			if (cmd->dont_fork && t->fn)
				res = test__run_inline(cmd, t, tmpdir);
			else
				res = test__run_forked(cmd, t, i + 1, tmpdir, reason,
						       sizeof(reason));
			tmpdir__remove(tmpdir, i + 1, res);
		}
		if (res == -EINTR)
			break;
		print_result(cmd, i + 1, t->desc, res, reason);
		/* a partial pass is a pass, and counted apart as well */
		if (res == TEST_PARTIAL)
			cmd->partial++;
		switch (res) {
		case TEST_OK:
		case TEST_PARTIAL:
			cmd->passed++;
			break;
		case TEST_SKIP:
			cmd->skipped++;
			break;
		default:
			cmd->failed++;
		}
	}

	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	if (stop_signal) {
		fprintf(stderr, "\nSignal (%d) while running tests, the running test was killed.\n",
			(int)stop_signal);
		ret = -EINTR;
	}
	return ret;
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
	struct test_cmd cmd = { .timeout = TEST_DEFAULT_TIMEOUT };
	const struct option options[] = {
		OPT_INCR('v', "verbose", &cmd.verbose,
			 "be more verbose: show each test's output (-vv: more details from tests)"),
		OPT_STRING('s', "skip", &cmd.skip, "tests", "tests to skip: numbers and ranges, 1,4-6"),
		OPT_BOOLEAN('F', "dont-fork", &cmd.dont_fork,
			    "run C tests in this process (for debuggers): no timeout, no isolation"),
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

	ret = test_cmd__run(&cmd, argc, argv);
	/* partial passes count as passed (none failed); this line says how many were */
	if (cmd.partial)
		fprintf(stderr, "%u partial: passed, but not every case ran (reasons above)\n",
			cmd.partial);
	fprintf(stderr, "%u passed, %u failed, %u skipped\n", cmd.passed, cmd.failed, cmd.skipped);
	test_cmd__exit(&cmd);
	if (ret == -EINTR) {
		int sig = stop_signal;

		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return cmd.failed ? 1 : 0;
}
