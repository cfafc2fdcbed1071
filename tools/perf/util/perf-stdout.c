// SPDX-License-Identifier: GPL-2.0
/*
 * stdout through a cookie stream that remembers why its first write failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "perf-stdout.h"

/*
 * glibc ignores setvbuf's size when it is not given the buffer and sizes its own by
 * st_blksize: 4 KB on a pipe, one write() per 4 KB of perf script. The buffer is never
 * freed: stdout writes through it until exit flushes it.
 */
#define STDOUT_BUFFER_SIZE	(1U << 20)

/* why stdout's first write failed: 0 while none has */
static int stdout_errno;
/* run before the first write, then forgotten */
static void (*stdout_first_write)(void);

void perf_stdout__on_first_write(void (*fn)(void))
{
	stdout_first_write = fn;
}

static ssize_t stdout__write(void *cookie, const char *buf, size_t size)
{
	size_t done = 0;

	(void)cookie;
	if (stdout_first_write && size) {
		void (*fn)(void) = stdout_first_write;

		stdout_first_write = NULL;
		fn();
	}
	while (done < size) {
		ssize_t n = write(STDOUT_FILENO, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!stdout_errno)
				stdout_errno = n < 0 ? errno : EIO;
			/* stdio takes a short count as the part written, -1 as nothing written */
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

void perf_stdout__init(void)
{
	cookie_io_functions_t io = { .write = stdout__write };
	FILE *fp;

	fp = fopencookie(NULL, "w", io);
	if (!fp)
		return;
	/* a cookie stream has no descriptor for stdio to size or test: say what stdio would */
	if (setvbuf(fp, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ)) {
		fclose(fp);
		return;
	}
	/* glibc's stdout is a plain variable, documented as assignable */
	stdout = fp;
}

void perf_stdout__buffer(void)
{
	char *buf = malloc(STDOUT_BUFFER_SIZE);

	if (buf && setvbuf(stdout, buf, _IOFBF, STDOUT_BUFFER_SIZE))
		free(buf);
}

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
