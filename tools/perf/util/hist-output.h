/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist-output.h - perf report's stdio output of a struct hists, after
 * hists__output_resort(): the column header, entries and callchains, and the --hierarchy
 * form, as upstream perf 7.2's `perf report --stdio`. It writes to the caller's stream
 * and owns nothing.
 */
#ifndef PERF_UTIL_HIST_OUTPUT_H
#define PERF_UTIL_HIST_OUTPUT_H

#include <stdio.h>
#include "hist.h"

/* the column header, entries and callchains as upstream's stdio output; -EIO/-ENOMEM */
int hists__fprintf(struct hists *hists, FILE *fp);

#endif
