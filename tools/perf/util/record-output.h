/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-output.h - what perf record does with an output that is already there, files and
 * perf.data directories (perf record --kcore's, or --threads' of upstream) alike.
 *
 * A perf.data directory holds what perf record writes and nothing else: data, data.N, and
 * kcore_dir (or kcore_dir__N) with kcore, kallsyms and modules (upstream's rm_rf_perf_data()
 * patterns). Only such a directory is ever removed; one with anything else in it is named in
 * the error, and nothing of it goes.
 */
#ifndef PERF_UTIL_RECORD_OUTPUT_H
#define PERF_UTIL_RECORD_OUTPUT_H

#include <perf/error.h>

/*
 * As perf's check_backup(): an output with something in it (a file with bytes, any
 * directory) becomes PATH.old, after the PATH.old before it went (a file, or a perf.data
 * directory). What has no size (an empty file, a FIFO, /dev/null) is written in place. 0,
 * or a negative errno with err saying what failed, and both names as they were.
 */
int record_output__backup(const char *path, struct perf_err *err);

/* removes path, a file or a perf.data directory (see above); 0 or a negative errno with err */
int record_output__remove(const char *path, struct perf_err *err);

#endif
