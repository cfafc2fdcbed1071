/* SPDX-License-Identifier: GPL-2.0 */
/* builtin.h - the subcommands perf.c dispatches to; each lives in builtin/<name>.c. */
#ifndef PERF_BUILTIN_H
#define PERF_BUILTIN_H

#include <stdbool.h>
#include "util/perf-stdout.h"	/* stdout and its write errors, for every command */

/* what `perf version` says and perf record writes into HEADER_VERSION */
#define PERF_VERSION "7.2.0-defer"

/*
 * Exit statuses, as upstream perf's (scripts test them). Upstream's cmd_* return negative
 * errnos that the shell sees modulo 256: these are the ones it shows.
 */
#define PERF_EXIT_USAGE		129	/* a bad option or argument, after the usage */
#define PERF_EXIT_EINVAL	234	/* upstream's -EINVAL: a bad --time, an unreadable -k */
#define PERF_EXIT_INPUT		255	/* upstream's -1: the input or the setup failed */

int cmd_buildid_cache(int argc, const char **argv);
int cmd_buildid_list(int argc, const char **argv);
int cmd_check(int argc, const char **argv);
int cmd_data(int argc, const char **argv);
int cmd_evlist(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_kallsyms(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_test(int argc, const char **argv);
int cmd_version(int argc, const char **argv);

/* the directory holding the running perf binary (for tests/shell), "." when unknown */
const char *perf_exec_dir(void);

#endif
