// SPDX-License-Identifier: GPL-2.0
/*
 * perf record --defer's probe of bit 38 (util/record-probe.c) against kernels faked by the
 * open function: one that defers, one without the bit (EINVAL for it alone), one that refuses
 * the probe's plain attr too (no conclusion: the real events decide), one that refuses for
 * permission; then this kernel's own answer, which Linux < 6.19 gives as "missing". And the
 * -v line of the deferred counters after a record read before its samples (as when the
 * task migrated and the rings are drained in CPU order). make vmtest runs the real path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "util/record-loop.h"
#include "util/record-probe.h"
#include "tests.h"

static int opens;	/* how many times a fake was asked: each probe asks at most twice */

static int fake_fd(void)
{
	opens++;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int fake_refuse(int err)
{
	opens++;
	errno = err;
	return -1;
}

static int open_defers(const struct perf_event_attr *a)
{
	(void)a;
	return fake_fd();
}

static int open_no_defer(const struct perf_event_attr *a)
{
	return perf_attr__has(a, PERF_ATTR_BIT_DEFER_CALLCHAIN) ? fake_refuse(EINVAL) : fake_fd();
}

static int open_einval(const struct perf_event_attr *a)
{
	(void)a;
	return fake_refuse(EINVAL);
}

static int open_eacces(const struct perf_event_attr *a)
{
	return perf_attr__has(a, PERF_ATTR_BIT_DEFER_CALLCHAIN) ? fake_refuse(EACCES) : fake_fd();
}

/* Linux >= 6.19 from uname's release, "6.18.44-..." -> false */
static bool kernel_may_defer(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return true;
	return major > 6 || (major == 6 && minor >= 19);
}

DEFINE_SUITE(record_defer_probe)
{
	struct record_stats st;
	enum probe_result r;
	char line[512] = "";
	FILE *fp;

	opens = 0;
	TEST_ASSERT(env, probe__defer_callchain(open_defers) == PROBE_PRESENT && opens == 1,
		    "a deferring kernel: not present (%d opens)", opens);
	opens = 0;
	TEST_ASSERT(env, probe__defer_callchain(open_no_defer) == PROBE_MISSING && opens == 2,
		    "a kernel without bit 38: not missing (%d opens)", opens);
	TEST_ASSERT(env, probe__defer_callchain(open_einval) == PROBE_UNKNOWN,
		    "EINVAL for the plain attr too: a conclusion was drawn");
	TEST_ASSERT(env, probe__defer_callchain(open_eacces) == PROBE_UNKNOWN,
		    "EACCES: taken for a missing feature");

	r = probe__defer_callchain(NULL);
	if (env->verbose)
		fprintf(stderr, "this kernel: %s\n", r == PROBE_PRESENT ? "defers" :
			r == PROBE_MISSING ? "no deferred callchains" : "no answer");
	TEST_ASSERT(env, r != PROBE_UNKNOWN || !kernel_may_defer(),
		    "the probe's plain cpu-clock attr was refused on this kernel");
	if (!kernel_may_defer())
		TEST_ASSERT(env, r == PROBE_MISSING, "Linux < 6.19 said it defers (%d)", r);

	/* the -v line: one record drained before both its samples answers them */
	record_stats__init(&st);
	st.deferred_samples = 2;
	st.deferred_records = 1;
	defer_pending__record(&st.pending, 42, 0x500000003ULL);
	defer_pending__sample(&st.pending, 42, 0x500000003ULL);
	defer_pending__sample(&st.pending, 42, 0x500000003ULL);
	defer_pending__sample(&st.pending, 43, 0x700000005ULL);
	st.deferred_samples++;
	fp = fmemopen(line, sizeof(line) - 1, "w");
	TEST_ASSERT(env, fp, "fmemopen");
	record_stats__fprintf_deferred(&st, fp);
	fclose(fp);
	record_stats__exit(&st);
	TEST_ASSERT(env, !strcmp(line, "perf record: deferred callchains: 3 samples asked for one, 1 CALLCHAIN_DEFERRED records, 2 samples answered, 1 unanswered\n"),
		    "-v line: '%s'", line);
	return TEST_OK;
}
