// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the header-feature parser (tools/lib/perf/env.c) and the printer of
 * its parsed form (tools/perf/util/header-fprintf.c): one feature section at a time, which
 * reaches the deep structure of every feature far faster than whole files do.
 *
 * Input: u8 feature id (modulo perf 7.2's features), u8 flags (1: the section is in the other
 * byte order, 2: parse it a second time over the first, as a repeated pipe-mode feature,
 * 4: arch "aarch64", which allows any socket id), u8 nr_cpus_avail, u8 nr_cpus_online (the
 * features sized by them read them from the env), then the section bytes.
 *
 * A malformed section is fine; a crash, a sanitizer report, a leak or a hang is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/env.h>
#include "util/header-fprintf.h"

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

static const char *event_name(void *arg, size_t idx)
{
	(void)arg;
	return idx % 2 ? "cycles" : "instructions";
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct header_events events = { .nr = 4, .name = event_name };
	struct perf_env env;
	struct perf_err err;
	FILE *null;
	int feat;

	if (size < 4)
		return 0;
	feat = 1 + bytes[0] % (HEADER_LAST_FEATURE - 1);
	perf_env__init(&env);
	env.nr_cpus_avail = bytes[2];
	env.nr_cpus_online = bytes[3];
	if (bytes[1] & 4) {
		env.arch = strdup("aarch64");
		if (!env.arch)
			abort();
	}
	null = fopen("/dev/null", "w");
	if (!null)
		abort();
	for (int pass = 0; pass < (bytes[1] & 2 ? 2 : 1); pass++) {
		perf_env__parse_feature(&env, feat, bytes + 4, size - 4, bytes[1] & 1, 0, &err);
		header__fprintf_feature(null, &env, feat, true, &events);
		header__fprintf_feature(null, &env, feat, false, &events);
	}
	fclose(null);
	perf_env__exit(&env);
	return 0;
}
