// SPDX-License-Identifier: GPL-2.0
/*
 * test-run.c - runs the tests `perf test` picked (see test-run.h): forked children, up to
 * --jobs at once, each with a private directory, HOME and a time limit, its output in an
 * anonymous file printed with -v, its result in its exit code (0 Ok, 2 Skip, 3 Ok in part,
 * anything else or a signal FAILED, as the shell tests exit too).
 *
 * A skip or a partial pass also leaves its reason in the output, as its last line starting
 * with "skip: " or "partial: " (lib.sh's skip and pass, test__skip() and test__partial()):
 * the result line shows it, with or without -v.
 *
 * As upstream, tests run in parallel unless -S, and those marked exclusive run after the
 * others, one at a time. Upstream starts every test at once; here at most one per online
 * CPU (or --jobs): tests that record live workloads for a given CPU time gain nothing from
 * more, and a machine with few CPUs would only hit their time limits.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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
#include "test-run.h"

#define CHILD_EXIT_SKIP		2	/* the shell tests' "skip" code, reused for C tests */
#define CHILD_EXIT_PARTIAL	3	/* passed, but not every case ran: lib.sh's pass */
#define CHILD_EXIT_EXEC		127	/* as the shell reports a command it could not run */

/* the lines that carry a skip's or a partial pass's reason; lib.sh prints the same */
#define REASON_SKIP		"skip: "
#define REASON_PARTIAL		"partial: "
#define REASON_MAX		200	/* of it on the result line: one line, not a log */

/*
 * The signal that interrupted the run. A handler can only talk to the main loop through
 * a static, so this is the one piece of process-wide state here.
 */
static volatile sig_atomic_t stop_signal;

static void stop_handler(int sig)
{
	stop_signal = sig;
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
 * that failed once is the only copy of what made it fail). What it did for them goes to msg
 * (size bytes), printed by the caller with the test's result: tests end out of order.
 */
static void tmpdir__remove(const char *dir, size_t nr, int res, char *msg, size_t size)
{
	const char *keep = getenv("PERF_TEST_KEEP_TMPDIR");
	const char *failed = getenv("PERF_TEST_KEEP_FAILED");
	char to[PATH_MAX];

	if (keep && *keep && strcmp(keep, "0")) {
		snprintf(msg, size, "perf test: kept %s\n", dir);
		return;
	}
	if (res == TEST_FAIL && failed && *failed) {
		snprintf(to, sizeof(to), "%s/%zu", failed, nr);
		nftw(to, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		if (!rename(dir, to)) {
			snprintf(msg, size, "perf test: test %zu's directory kept in %s\n", nr, to);
			return;
		}
		snprintf(msg, size, "perf test: cannot move %s to %s: %s\n", dir, to,
			 strerror(errno));
	}
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int tmpdir__create(const char *base, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s/perf-test-XXXXXX", base) >= len) {
		fprintf(stderr, "perf test: the temporary directory %s is too long a path\n", base);
		return -ENAMETOOLONG;
	}
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
	char level[16], home[PATH_MAX + 8];
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
	snprintf(home, sizeof(home), "%s/home", tmpdir);
	/*
	 * HOME too: perf record fills $HOME/.debug, and tests that run at once must not share
	 * one build-id cache, nor leave anything in the user's
	 */
	/* the run's own: a test that runs perf test itself must not write into them */
	unsetenv("PERF_TEST_FAILED_DIR");
	unsetenv("PERF_TEST_KEEP_FAILED");
	unsetenv("PERF_TEST_TIMES");
	if (setenv("PERF", cmd->perf, 1) || setenv("PERF_SRCDIR", cmd->srcdir, 1) ||
	    setenv("TMPDIR", tmpdir, 1) || setenv("PERF_TEST_VERBOSE", level, 1) ||
	    mkdir(home, 0700) || setenv("HOME", home, 1) || chdir(tmpdir)) {
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

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE };

/* one run of one picked test */
struct test_job {
	const struct test_entry *t;
	size_t		nr;		/* the test's number, 1-based */
	bool		user_skip;
	enum job_state	state;
	pid_t		pid;		/* also its process group */
	int		out_fd;		/* the child's stdout and stderr, -1 when none */
	int		status;		/* as waitpid() gave it */
	bool		forked;
	int		timeout;	/* seconds, 0: none */
	struct timespec	start;
	double		seconds;	/* how long it ran, once done */
	char		*tmpdir;	/* owned, NULL once removed */
	int		res;
	char		reason[REASON_MAX];
	char		note[128];	/* what the harness adds to the output: a timeout, a signal */
	char		*kept;		/* owned: where its directory was kept, if it was */
};

static double elapsed(const struct timespec *from, const struct timespec *to)
{
	return (double)(to->tv_sec - from->tv_sec) + (to->tv_nsec - from->tv_nsec) / 1e9;
}

/* removes the job's directory (or keeps it, see tmpdir__remove()), res its result */
static void job__remove_dir(struct test_job *job, int res)
{
	char msg[PATH_MAX + 128] = "";

	tmpdir__remove(job->tmpdir, job->nr, res, msg, sizeof(msg));
	free(job->tmpdir);
	job->tmpdir = NULL;
	if (msg[0])
		job->kept = strdup(msg);
}

/* the job's result from its child's exit status and output */
static void job__classify(struct test_job *job)
{
	int status = job->status;

	if (job->note[0]) {
		job->res = TEST_FAIL;	/* timed out */
	} else if (WIFSIGNALED(status)) {
		snprintf(job->note, sizeof(job->note), "---- unexpected signal (%d) ----",
			 WTERMSIG(status));
		job->res = TEST_FAIL;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		job->res = TEST_OK;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_EXIT_SKIP) {
		job->res = TEST_SKIP;
		if (!output__reason(job->out_fd, REASON_SKIP, job->reason, sizeof(job->reason)))
			snprintf(job->reason, sizeof(job->reason), "no reason given");
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_EXIT_PARTIAL) {
		job->res = TEST_PARTIAL;
		/* a partial pass names what did not run; exit 3 alone is some command's failure */
		if (!output__reason(job->out_fd, REASON_PARTIAL, job->reason, sizeof(job->reason))) {
			snprintf(job->note, sizeof(job->note), "---- exit %d without a '%s' line ----",
				 CHILD_EXIT_PARTIAL, REASON_PARTIAL);
			job->res = TEST_FAIL;
		}
	} else {
		job->res = TEST_FAIL;
	}
}

/*
 * Starts the job: a forked child, or with -F a C test right here (then it is done on
 * return). A job that cannot start is done and FAILED.
 */
static void job__start(const struct test_cmd *cmd, struct test_job *job)
{
	const struct test_entry *t = job->t;
	char dir[PATH_MAX];

	job->state = JOB_DONE;
	job->res = TEST_FAIL;
	if (job->user_skip) {
		job->res = TEST_SKIP;
		snprintf(job->reason, sizeof(job->reason), "user override");
		return;
	}
	if (tmpdir__create(cmd->tmp_base, dir, sizeof(dir)))
		return;
	job->tmpdir = strdup(dir);
	if (!job->tmpdir) {
		fprintf(stderr, "perf test: out of memory\n");
		rmdir(dir);
		return;
	}
	if (cmd->dont_fork && t->fn) {
		job->res = test__run_inline(cmd, t, job->tmpdir);
		job__remove_dir(job, job->res);
		return;
	}
	job->out_fd = output__open();
	if (job->out_fd < 0) {
		fprintf(stderr, "perf test: cannot create an output file: %s\n", strerror(errno));
		goto out_rmdir;
	}
	fflush(NULL);
	job->pid = fork();
	if (job->pid < 0) {
		fprintf(stderr, "perf test: fork failed: %s\n", strerror(errno));
		close(job->out_fd);
		job->out_fd = -1;
		goto out_rmdir;
	}
	if (job->pid == 0)
		test__child(cmd, t, job->tmpdir, job->out_fd);
	/* the child does this too; both, so a kill right after fork reaches the group */
	setpgid(job->pid, job->pid);
	job->forked = true;
	job->timeout = cmd->timeout && t->timeout > cmd->timeout ? t->timeout : cmd->timeout;
	clock_gettime(CLOCK_MONOTONIC, &job->start);
	job->state = JOB_RUNNING;
	return;

out_rmdir:
	job__remove_dir(job, TEST_OK);
}

/*
 * Kills what the child left running in its group, then reaps the child: its pid (the group
 * id) cannot be reused in between.
 */
static void job__reap(struct test_job *job)
{
	kill(-job->pid, SIGKILL);
	kill(job->pid, SIGKILL);
	while (waitpid(job->pid, &job->status, 0) < 0 && errno == EINTR)
		;
}

/* true when the running job ended, by itself or by its timeout: it is then done */
static bool job__poll(struct test_job *job, const struct timespec *now)
{
	siginfo_t info = { .si_pid = 0 };

	if (waitid(P_PID, (id_t)job->pid, &info, WEXITED | WNOHANG | WNOWAIT) ||
	    info.si_pid != job->pid) {
		if (!job->timeout || elapsed(&job->start, now) < job->timeout)
			return false;
		snprintf(job->note, sizeof(job->note), "---- timed out after %d s, killed ----",
			 job->timeout);
	}
	job->seconds = elapsed(&job->start, now);
	job__reap(job);
	job__classify(job);
	if (job->res == TEST_FAIL)
		output__save_failed(job->out_fd, job->nr, job->note[0] ? job->note : NULL);
	job__remove_dir(job, job->res);
	job->state = JOB_DONE;
	return true;
}

/*
 * PERF_TEST_TIMES=FILE: a line per forked test, "NR SECONDS LIMIT", appended as it is
 * reported: which tests take long, and how near their time limit (scripts/run-tests.sh
 * prints the slowest)
 */
static void job__save_time(const struct test_job *job)
{
	const char *path = getenv("PERF_TEST_TIMES");
	FILE *f;

	if (!path || !*path || !job->forked)
		return;
	f = fopen(path, "a");
	if (!f) {
		fprintf(stderr, "perf test: cannot write %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(f, "%zu %.1f %d\n", job->nr, job->seconds, job->timeout);
	fclose(f);
}

/* the result line (after the output, with -v) and the counts */
static void job__report(struct test_cmd *cmd, struct test_job *job)
{
	if (cmd->verbose && job->forked) {
		output__dump(job->out_fd, job->note[0] ? job->note : NULL);
		fprintf(stderr, "---- end(%d) ----\n", WIFEXITED(job->status) ?
			-WEXITSTATUS(job->status) : -WTERMSIG(job->status));
	}
	if (job->out_fd >= 0) {
		close(job->out_fd);
		job->out_fd = -1;
	}
	if (job->kept) {
		fputs(job->kept, stderr);
		free(job->kept);
		job->kept = NULL;
	}
	print_result(cmd, job->nr, job->t->desc, job->res,
		     job->forked || job->user_skip ? job->reason : NULL);
	job__save_time(job);
	/* a partial pass is a pass, and counted apart as well */
	switch (job->res) {
	case TEST_PARTIAL:
		cmd->partial++;
		/* fall through */
	case TEST_OK:
		cmd->passed++;
		break;
	case TEST_SKIP:
		cmd->skipped++;
		break;
	default:
		cmd->failed++;
	}
}

/* kills what still runs (a signal stopped the run) and frees what was never reported */
static void jobs__exit(struct test_job *jobs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (jobs[i].state == JOB_RUNNING) {
			job__reap(&jobs[i]);
			job__remove_dir(&jobs[i], TEST_OK);
			jobs[i].state = JOB_DONE;
		}
		if (jobs[i].out_fd >= 0)
			close(jobs[i].out_fd);
		free(jobs[i].kept);
	}
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/*
 * Runs jobs[] (already in print order: the exclusive ones last) with at most max_jobs
 * children at once, an exclusive job alone; prints each result as soon as every job before
 * it has printed its own. Returns 0, or -EINTR when a signal stopped the run.
 */
static int jobs__run(struct test_cmd *cmd, struct test_job *jobs, size_t nr, int max_jobs)
{
	struct timespec now, nap = { 0, 1000000 };
	size_t next = 0, printed = 0;
	int running = 0;

	while (printed < nr) {
		bool progress = false;

		/*
		 * start what may start: an exclusive job waits until it is alone, and as
		 * they come last nothing starts beside it
		 */
		while (next < nr && !stop_signal &&
		       (running == 0 || (!jobs[next].t->exclusive && running < max_jobs))) {
			job__start(cmd, &jobs[next]);
			if (jobs[next].state == JOB_RUNNING)
				running++;
			next++;
			progress = true;
		}
		if (stop_signal)
			return -EINTR;
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (size_t i = printed; i < next; i++) {
			if (jobs[i].state == JOB_RUNNING && job__poll(&jobs[i], &now)) {
				running--;
				progress = true;
			}
		}
		while (printed < nr && jobs[printed].state == JOB_DONE) {
			job__report(cmd, &jobs[printed++]);
			progress = true;
		}
		if (progress) {
			nap.tv_nsec = 1000000;
			continue;
		}
		nanosleep(&nap, NULL);
		/* back off from 1 ms to 32 ms: quick tests stay quick, long ones cost nothing */
		if (nap.tv_nsec < 32000000)
			nap.tv_nsec *= 2;
	}
	return 0;
}

int test_run__signal(void)
{
	return stop_signal;
}

int test_cmd__run_picked(struct test_cmd *cmd, const struct test_pick *picks, size_t nr)
{
	struct sigaction sa = { .sa_handler = stop_handler }, old_int, old_term, old_hup;
	int max_jobs = cmd->jobs > 0 ? cmd->jobs : online_cpus();
	struct test_job *jobs;
	size_t n = 0;
	int ret;

	if (cmd->sequential || cmd->dont_fork)
		max_jobs = 1;
	jobs = calloc(nr * (size_t)cmd->runs + 1, sizeof(*jobs));
	if (!jobs) {
		fprintf(stderr, "perf test: out of memory\n");
		return -ENOMEM;
	}
	/* upstream's two passes: every test that may share the machine, then the exclusive */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < nr; i++) {
			const struct test_entry *t = &cmd->tests[picks[i].idx];

			if (t->exclusive != (pass == 1))
				continue;
			for (int r = 0; r < cmd->runs; r++) {
				jobs[n] = (struct test_job){
					.t = t,
					.nr = picks[i].idx + 1,
					.user_skip = picks[i].user_skip,
					.out_fd = -1,
				};
				n++;
			}
		}
	}

	/* no SA_RESTART: a ^C must wake the wait loop at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	ret = jobs__run(cmd, jobs, n, max_jobs);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	jobs__exit(jobs, n);
	free(jobs);
	if (ret == -EINTR)
		fprintf(stderr, "\nSignal (%d) while running tests, the running tests were killed.\n",
			(int)stop_signal);
	return ret;
}
