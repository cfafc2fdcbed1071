// SPDX-License-Identifier: GPL-2.0
/* Starting the profiled command: fork, wait for the go byte, exec. See workload.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "workload.h"

/* the exit code of a child whose exec failed, as a shell's */
#define EXEC_FAILED	127

int workload__prepare(struct workload *wl, const char *const *argv, bool stdout_to_stderr,
		      struct perf_err *err)
{
	int go[2], ex[2];
	pid_t pid;

	memset(wl, 0, sizeof(*wl));
	wl->go_fd = wl->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return perf_err__set(err, errno, "pipe: %m");
	if (pipe2(ex, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return perf_err__set(err, errno, "pipe: %m");
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(ex[0]);
		close(ex[1]);
		return perf_err__set(err, e, "cannot fork the workload: %s", strerror(e));
	}
	if (!pid) {
		char c;
		int e;

		/* the child: Ctrl-C reaches it from the terminal; our handlers are not its own */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		prctl(PR_SET_NAME, WORKLOAD_COMM);
		close(go[1]);
		close(ex[0]);
		if (stdout_to_stderr)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		if (read(go[0], &c, 1) != 1)
			_exit(EXEC_FAILED);	/* the parent gave up before starting us */
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(EXEC_FAILED);
		_exit(EXEC_FAILED);
	}
	close(go[0]);
	close(ex[1]);
	wl->pid = pid;
	wl->go_fd = go[1];
	wl->err_fd = ex[0];
	return 0;
}

int workload__start(struct workload *wl, const char *name, struct perf_err *err)
{
	ssize_t n;
	int e = 0;

	if (write(wl->go_fd, "", 1) != 1)
		return perf_err__set(err, errno, "cannot start the workload: %m");
	close(wl->go_fd);
	wl->go_fd = -1;
	do
		n = read(wl->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(wl->err_fd);
	wl->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		return perf_err__set(err, e, "%s: %s",
				     name, strerror(e));
	return 0;
}

bool workload__reap(struct workload *wl)
{
	int st;

	if (!wl->pid || wl->exited)
		return true;
	if (waitpid(wl->pid, &st, WNOHANG) == wl->pid) {
		wl->exited = true;
		wl->status = st;
	}
	return wl->exited;
}

void workload__stop(struct workload *wl, int sig)
{
	int st;

	if (wl->go_fd >= 0) {
		close(wl->go_fd);	/* a child never started reads EOF and exits */
		wl->go_fd = -1;
	}
	if (wl->err_fd >= 0) {
		close(wl->err_fd);
		wl->err_fd = -1;
	}
	if (!wl->pid || wl->exited)
		return;
	if (sig)
		kill(wl->pid, sig);
	while (waitpid(wl->pid, &st, 0) < 0)
		if (errno != EINTR)
			return;
	wl->exited = true;
	wl->status = st;
}

int workload__exit_code(const struct workload *wl)
{
	if (!wl->pid || !wl->exited)
		return 0;
	if (WIFEXITED(wl->status))
		return WEXITSTATUS(wl->status);
	if (WIFSIGNALED(wl->status))
		return 128 + WTERMSIG(wl->status);
	return 1;
}
