// SPDX-License-Identifier: GPL-2.0
/*
 * The sample filters' hook into the histogram (hists__add_filtered()): samples left out
 * count in the totals with --percentage absolute (upstream's default), not with relative.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "util/hist-output.h"
#include "run-helpers.h"
#include "tests.h"

/* the report of one kept sample of period 25 and a filtered one of 75, into OUT */
static int filtered_report(bool relative, const char *out, u64 *total, u64 *samples)
{
	struct hist_opts o = { .show_header = false, .filter_relative = relative };
	struct hist_sample s = { .comm = "kept", .pid = 1, .tid = 1, .level = '.',
				 .period = 25, .ip = 0x1000 };
	struct perf_err err;
	struct hists *h;
	FILE *fp;
	int ret = -1;

	chain_params__init(&o.chain);
	if (hist_opts__setup(&o, "comm", NULL, false, false, false, &err))
		return -1;
	h = hists__new(&o);
	fp = fopen(out, "w");
	if (h && fp && !hists__add_sample(h, &s)) {
		hists__add_filtered(h, 75, 0);
		*total = hists__total_period(h);
		*samples = hists__total_samples(h);
		ret = hists__output_resort(h, NULL) ?: hists__fprintf(h, fp);
	}
	if (fp && fclose(fp))
		ret = -1;
	hists__delete(h);
	return ret;
}

DEFINE_SUITE(hist_filtered)
{
	static const struct {
		bool		relative;
		u64		total, samples;
		const char	*line;
	} cases[] = {
		{ false, 100, 2, " 25.00%  kept" },	/* absolute: of all 100 */
		{ true, 25, 1, "100.00%  kept" },	/* relative: of the 25 kept */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 total = 0, samples = 0;
		char path[4096], *text = NULL;
		size_t len;

		snprintf(path, sizeof(path), "%s/report.%zu", env->tmpdir, i);
		TEST_ASSERT(env, !filtered_report(cases[i].relative, path, &total, &samples),
			    "report %zu failed", i);
		TEST_ASSERT(env, total == cases[i].total && samples == cases[i].samples,
			    "case %zu: totals %llu/%llu", i, (unsigned long long)total,
			    (unsigned long long)samples);
		TEST_ASSERT(env, !test_read_file(path, &text, &len), "cannot read %s", path);
		if (!strstr(text, cases[i].line)) {
			free(text);
			TEST_ASSERT(env, false, "case %zu: no '%s' in the report", i, cases[i].line);
		}
		free(text);
	}
	return TEST_OK;
}
