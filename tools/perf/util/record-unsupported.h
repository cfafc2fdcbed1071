/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-unsupported.h - perf record options of perf 6.1 that this perf refuses, each with
 * one line saying what is not supported and why, and exit 129 (a usage error) rather than
 * "unknown option": a script written for perf learns what to drop.
 *
 *   --aio[=n]		asynchronous (POSIX AIO) writes of the rings
 *   --call-graph lbr	callchains from the LBR call stack (record__opt_call_graph asks here)
 *
 * --no-aio is accepted: it asks for what this perf does anyway.
 */
#ifndef PERF_UTIL_RECORD_UNSUPPORTED_H
#define PERF_UTIL_RECORD_UNSUPPORTED_H

#include <stdbool.h>

struct option;

/* OPT_CALLBACK_OPTARG callback for --aio; opt->value unused */
int record_unsupported__opt_aio(const struct option *opt, const char *arg, bool unset);
/* why --call-graph lbr is refused: the text after " Error: option `call-graph' " */
const char *record_unsupported__lbr(void);

#endif
