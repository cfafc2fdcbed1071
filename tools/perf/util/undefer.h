/* SPDX-License-Identifier: GPL-2.0 */
/*
 * undefer.h - a deferred-callchain recording rewritten as if recorded with plain `-g`: the
 * user stacks the session stitched written inline, for the tools that cannot stitch (the
 * ground for perf inject; the tests compare reports of both forms).
 *
 * The twin keeps every record but PERF_RECORD_CALLCHAIN_DEFERRED, in delivery (time) order;
 * its attrs lose the defer bits, so no reader waits for records. Samples nothing could be
 * stitched to keep their marker and cookie.
 */
#ifndef PERF_UTIL_UNDEFER_H
#define PERF_UTIL_UNDEFER_H

#include <perf/error.h>

/* in (a file or "-") to the file out; 0 or a negative errno with err saying why */
int undefer__file(const char *in, const char *out, struct perf_err *err);

#endif
