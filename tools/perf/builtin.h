/* SPDX-License-Identifier: GPL-2.0 */
/* builtin.h - the subcommands perf.c dispatches to; each lives in builtin/<name>.c. */
#ifndef PERF_BUILTIN_H
#define PERF_BUILTIN_H

#include <stdbool.h>
#include "util/perf-stdout.h"	/* stdout and its write errors, for every command */

/* what `perf version` says and perf record writes into HEADER_VERSION */
#define PERF_VERSION "7.2.0-defer"

int cmd_record(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_test(int argc, const char **argv);
int cmd_version(int argc, const char **argv);

/* the directory holding the running perf binary (for tests/shell), "." when unknown */
const char *perf_exec_dir(void);

#endif
