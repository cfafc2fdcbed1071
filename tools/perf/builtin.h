/* SPDX-License-Identifier: GPL-2.0 */
/* builtin.h - the subcommands perf.c dispatches to; each lives in builtin/<name>.c. */
#ifndef PERF_BUILTIN_H
#define PERF_BUILTIN_H

#include <stdbool.h>

int cmd_script(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_test(int argc, const char **argv);
int cmd_version(int argc, const char **argv);

/*
 * script and report refuse --inline (and accept --no-inline) until inline frames are read
 * from DWARF: silently printing no inline frames would pass for "there are none".
 */
#define INLINE_UNSUPPORTED \
	"--inline is not supported yet: inline frames need DWARF (use --no-inline)"

/* the directory holding the running perf binary (for tests/shell), "." when unknown */
const char *perf_exec_dir(void);

/* one large buffer for stdout, for commands whose output is the product (script, report) */
void perf_stdout__buffer(void);

/*
 * Called once by main() after the command CMD (NULL: perf's own usage) returned STATUS:
 * flushes and closes stdout. On a failed write it prints "perf CMD: write error: <strerror>"
 * and returns non-zero (the
 * command's status, or 1); a closed pipe (EPIPE) ends the process by SIGPIPE, quietly.
 */
int perf_stdout__finish(const char *cmd, int status);

/*
 * Flushes stdout; true once a write to it failed. ERR is the command's error code (0 or
 * -errno), taken as the failure's reason when stdio no longer knows it. A command that stops
 * because its output failed says nothing itself: perf_stdout__finish() prints the one line.
 */
bool perf_stdout__flush(int err);

#endif
