// SPDX-License-Identifier: GPL-2.0
/*
 * perf: dispatch to the subcommand. Usage and options are each builtin's business.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "builtin.h"

#define PERF_VERSION "7.2.0-defer"

struct cmd_struct {
	const char	*name;
	int		(*fn)(int argc, const char **argv);
	const char	*help;
};

static const struct cmd_struct commands[] = {
	{ "report",	cmd_report,	"Read perf.data and display the profile" },
	{ "script",	cmd_script,	"Read perf.data and display trace output" },
	{ "test",	cmd_test,	"Runs sanity tests" },
	{ "version",	cmd_version,	"display the version of perf binary" },
};

static char exec_dir[PATH_MAX] = ".";

const char *perf_exec_dir(void)
{
	return exec_dir;
}

static void find_exec_dir(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n <= 0)
		return;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(exec_dir, sizeof(exec_dir), "%s", path);
}

/*
 * glibc ignores setvbuf's size when it is not given the buffer and sizes its own by
 * st_blksize: 4 KB on a pipe, one write() per 4 KB of perf script. The buffer is never
 * freed: stdout writes through it until exit flushes it. Without memory, stdio's stays.
 */
#define STDOUT_BUFFER_SIZE	(1U << 20)

void perf_stdout__buffer(void)
{
	char *buf = malloc(STDOUT_BUFFER_SIZE);

	if (buf && setvbuf(stdout, buf, _IOFBF, STDOUT_BUFFER_SIZE))
		free(buf);
}

int cmd_version(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	printf("perf version %s\n", PERF_VERSION);
	return 0;
}

static void usage(FILE *fp)
{
	fprintf(fp, "\n usage: perf COMMAND [ARGS]\n\n The most commonly used perf commands are:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "   %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n See 'perf help COMMAND' for more information on a specific command.\n\n");
}

/*
 * Why stdout's first write failed. stdio drops its buffer on a failed write and keeps only
 * the error flag, so by the time the command ends the errno (ENOSPC, EIO) would be lost.
 * It belongs to the process's stdout, which is process-wide too.
 */
static int stdout_errno;

bool perf_stdout__flush(int err)
{
	errno = 0;
	if (fflush(stdout) && !stdout_errno)
		stdout_errno = errno;
	if (!ferror(stdout))
		return false;
	if (!stdout_errno && err < 0)
		stdout_errno = -err;
	return true;
}

/*
 * Output is the product: what a command printed must reach stdout, so its fate is checked
 * once, here, after the command (as git's and perf's run_builtin do). A reader that went
 * away (`perf script | head`) is no error: perf dies of SIGPIPE there, and so do we when
 * SIGPIPE was ignored and the write failed with EPIPE instead.
 */
int perf_stdout__finish(const char *cmd, int status)
{
	struct stat st;
	int err = 0;

	/* stdout closed by the caller (>&-): nothing was meant to be kept */
	if (fstat(STDOUT_FILENO, &st))
		return status;
	/*
	 * close(), not fclose(): a file system may report the write only then (NFS), and
	 * stdout's FILE keeps its buffer (perf_stdout__buffer) reachable until exit
	 */
	if (perf_stdout__flush(0))
		err = stdout_errno ? stdout_errno : EIO;
	else if (close(STDOUT_FILENO))
		err = errno ? errno : EIO;
	if (!err)
		return status;
	if (err == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		return 128 + SIGPIPE;
	}
	fprintf(stderr, "perf%s%s: write error: %s\n", cmd ? " " : "", cmd ? cmd : "", strerror(err));
	return status ? status : 1;
}

int main(int argc, const char **argv)
{
	const char *cmd;

	find_exec_dir();
	if (argc < 2) {
		usage(stdout);
		return perf_stdout__finish(NULL, 1);
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v"))
		cmd = "version";
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return perf_stdout__finish(NULL, 0);
	}
	if (!strcmp(cmd, "help")) {
		if (argc < 3) {
			usage(stdout);
			return perf_stdout__finish(NULL, 0);
		}
		/* `perf help CMD` == `perf CMD --help` */
		argv[1] = argv[2];
		argv[2] = "--help";
		argc = 3;
		cmd = argv[1];
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, cmd))
			return perf_stdout__finish(commands[i].name,
						   commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n", cmd);
	return 1;
}
