// SPDX-License-Identifier: GPL-2.0
/*
 * The sample filters' hook into the histogram (hists__add_filtered()): samples left out
 * count in the totals with --percentage absolute (upstream's default), not with relative.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/hist.h"
#include "tests.h"

/* the report of one kept sample of period 25 and a filtered one of 75 */
static char *filtered_report(bool relative, u64 *total, u64 *samples)
{
	struct hist_opts o = { .show_header = false, .filter_relative = relative };
	struct hist_sample s = { .comm = "kept", .pid = 1, .tid = 1, .level = '.',
				 .period = 25, .ip = 0x1000 };
	struct perf_err err;
	struct hists *h;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int ret;

	chain_params__init(&o.chain);
	if (hist_opts__setup(&o, "comm", NULL, false, false, false, &err))
		return NULL;
	h = hists__new(&o);
	if (!h)
		return NULL;
	ret = hists__add_sample(h, &s);
	hists__add_filtered(h, 75, 0);
	fp = open_memstream(&buf, &len);
	if (!ret && fp && !hists__output_resort(h, NULL))
		ret = hists__fprintf(h, fp);
	if (fp)
		fclose(fp);
	*total = hists__total_period(h);
	*samples = hists__total_samples(h);
	hists__delete(h);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

DEFINE_SUITE(hist_filtered)
{
	u64 total, samples;
	char *out;

	out = filtered_report(false, &total, &samples);
	TEST_ASSERT(env, out, "absolute report failed");
	TEST_ASSERT(env, total == 100 && samples == 2, "absolute totals %llu/%llu",
		    (unsigned long long)total, (unsigned long long)samples);
	TEST_ASSERT(env, strstr(out, " 25.00%  kept"), "absolute: got '%s'", out);
	free(out);

	out = filtered_report(true, &total, &samples);
	TEST_ASSERT(env, out, "relative report failed");
	TEST_ASSERT(env, total == 25 && samples == 1, "relative totals %llu/%llu",
		    (unsigned long long)total, (unsigned long long)samples);
	TEST_ASSERT(env, strstr(out, "100.00%  kept"), "relative: got '%s'", out);
	free(out);
	return TEST_OK;
}
