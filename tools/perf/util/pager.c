// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/select.h>
#include <sys/wait.h>
#include "pager.h"
#include "perf-stdout.h"

static enum pager_mode pager_mode;
static const char *pager_cmd;
static pid_t pager_pid = -1;

void pager__set_mode(enum pager_mode mode)
{
	pager_mode = mode;
}

enum pager_mode pager__mode(void)
{
	return pager_mode;
}

bool pager__active(void)
{
	return pager_pid > 0;
}

/* closing our ends tells the pager the text is complete; then it is waited for */
static void pager__wait(void)
{
	int status;

	if (pager_pid <= 0)
		return;
	fflush(stderr);
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}

/* async-signal-safe: close, waitpid, then die of the signal as we would have */
static void pager__signal(int sig)
{
	int status;

	if (pager_pid > 0) {
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void pager__start(void)
{
	static const int fatal[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE };
	const char *argv[] = { "sh", "-c", pager_cmd, NULL };
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return;		/* no pager: the text goes to the terminal as it is */
	/* set here, not in the child: after fork only async-signal-safe calls are safe */
	setenv("LESS", "FRSX", 0);
	setenv("LV", "-c", 0);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pid) {
		fd_set in, ex;

		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		/* the pager starts reading only when there is text: less then sizes it right */
		FD_ZERO(&in);
		FD_SET(STDIN_FILENO, &in);
		ex = in;
		select(1, &in, NULL, &ex, NULL);
		execv("/bin/sh", (char *const *)argv);
		_exit(127);
	}
	pager_pid = pid;
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fds[1], STDERR_FILENO);
	close(fds[0]);
	close(fds[1]);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], pager__signal);
	atexit(pager__wait);
}

static const char *pager__command(void)
{
	const char *cmd = getenv("PERF_PAGER");

	if (!cmd)
		cmd = getenv("PAGER");
	if (!cmd && !access("/usr/bin/pager", X_OK))
		cmd = "/usr/bin/pager";
	if (!cmd && !access("/usr/bin/less", X_OK))
		cmd = "/usr/bin/less";
	if (!cmd || !*cmd || !strcmp(cmd, "cat"))
		return NULL;
	return cmd;
}

void pager__request(void)
{
	if (pager_mode == PAGER_NEVER || pager_cmd || !isatty(STDOUT_FILENO))
		return;
	pager_cmd = pager__command();
	if (pager_cmd)
		perf_stdout__on_first_write(pager__start);
}
