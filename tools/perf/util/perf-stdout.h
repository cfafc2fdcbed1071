/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-stdout.h - the command's output stream: stdout, written through a stream of ours so
 * that the reason of a failed write (ENOSPC, EIO, EPIPE) is known when the command ends,
 * wherever the write happened (stdio keeps only an error flag, and a flush stdio makes on
 * its own, when the buffer fills, would otherwise lose the errno).
 *
 * main() calls perf_stdout__init() before the command and perf_stdout__finish() after it.
 * The stream's state belongs to the process's stdout, which is process-wide by nature.
 */
#ifndef PERF_UTIL_PERF_STDOUT_H
#define PERF_UTIL_PERF_STDOUT_H

#include <stdbool.h>

/*
 * Makes stdout our stream over file descriptor 1, buffered as stdio would (by line on a
 * terminal, else fully). Without memory the plain stdout stays and only the flag is known.
 */
void perf_stdout__init(void);

/*
 * fn runs once, just before the first bytes are written to file descriptor 1 (the pager
 * starts then, pager.h); NULL: nothing
 */
void perf_stdout__on_first_write(void (*fn)(void));

/* one large buffer for stdout, for commands whose output is the product (script, report) */
void perf_stdout__buffer(void);

/*
 * Flushes stdout; true once a write to it failed. ERR is the command's error code (0 or
 * -errno), taken as the failure's reason when the stream does not know it. A command that
 * stops because its output failed says nothing itself: perf_stdout__finish() prints the
 * one line.
 */
bool perf_stdout__flush(int err);

/*
 * Called once by main() after the command CMD (NULL: perf's own usage) returned STATUS:
 * flushes and closes stdout. On a failed write it prints "perf CMD: write error: <strerror>"
 * and returns non-zero (the command's status, or 1); a closed pipe (EPIPE) ends the process
 * by SIGPIPE, quietly.
 */
int perf_stdout__finish(const char *cmd, int status);

#endif
