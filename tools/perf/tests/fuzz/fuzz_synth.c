// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for perf_sample__synthesize(): the input's first 48 bytes are an attr
 * (sample_type, read_format, branch flags, regs masks, misc), the rest a sample body. Where
 * the parser takes the body, its sample is synthesized back, in host order and in the other
 * byte order, and both must parse to the same sample; the other-order bytes swapped back by
 * perf_sample__swap() must equal the host-order ones, and a second synthesis must give the
 * same bytes. The body is also read as a cross-endian record, with the same checks.
 */
#include <byteswap.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include "tests/sample-cmp.h"

#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#define CONFIG_BYTES			48
#define MAX_RECORD			65528	/* the largest 8-aligned u16 size */

static u64 in_rec[MAX_RECORD / 8], host[MAX_RECORD / 8], cross[MAX_RECORD / 8],
	   again[MAX_RECORD / 8], scratch[MAX_RECORD / 8], scratch2[MAX_RECORD / 8];

static u64 word(const uint8_t *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;
}

static void header__swap(struct perf_event_header *h)
{
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
}

/* s parsed from a record (swapped: from the other byte order) must survive the way back */
static void check(const struct perf_evattr *ea, const struct perf_sample *s)
{
	struct perf_event_header *hh = (void *)host, *ch = (void *)cross;
	struct perf_sample p, q;
	int n, m, k;

	n = perf_sample__synthesize(&ea->attr, s, false, host, sizeof(host), NULL);
	if (n < 0)
		abort();	/* it came out of a record: it fits one */
	if (perf_evattr__parse_sample(ea, hh, false, NULL, &p, NULL) ||
	    !sample__same(&ea->attr, s, &p, NULL))
		abort();
	m = perf_sample__synthesize(&ea->attr, s, true, cross, sizeof(cross), NULL);
	if (m != n)
		abort();
	header__swap(ch);
	if (perf_evattr__parse_sample(ea, ch, true, scratch2, &q, NULL) ||
	    !sample__same(&ea->attr, s, &q, NULL))
		abort();
	if (perf_sample__swap(&ea->attr, ch, true, NULL) || memcmp(cross, host, (size_t)n))
		abort();
	k = perf_sample__synthesize(&ea->attr, &p, false, again, sizeof(again), NULL);
	if (k != n || memcmp(again, host, (size_t)n))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_header *h = (void *)in_rec;
	struct perf_evattr ea;
	struct perf_sample s;
	size_t body;

	if (size < CONFIG_BYTES)
		return 0;
	memset(&ea, 0, sizeof(ea));
	ea.attr.sample_type = word(data) & (PERF_SAMPLE_MAX - 1);
	ea.attr.read_format = word(data + 8) & (PERF_FORMAT_MAX - 1);
	ea.attr.branch_sample_type = word(data + 16) &
				     (PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS);
	ea.attr.sample_regs_user = word(data + 24);
	ea.attr.sample_regs_intr = word(data + 32);
	ea.attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) |
			(data[40] & 1 ? PERF_ATTR_FLAG(DEFER_CALLCHAIN) : 0);
	perf_evattr__init_positions(&ea);

	body = size - CONFIG_BYTES;
	if (body > MAX_RECORD - sizeof(*h))
		body = MAX_RECORD - sizeof(*h);
	h->type = PERF_RECORD_SAMPLE;
	memcpy(&h->misc, data + 41, 2);
	h->size = (u16)(sizeof(*h) + body);
	memcpy(h + 1, data + CONFIG_BYTES, body);

	if (!perf_evattr__parse_sample(&ea, h, false, NULL, &s, NULL))
		check(&ea, &s);
	/* the same bytes as a record of a cross-endian file (the reader swaps the header) */
	if (!perf_evattr__parse_sample(&ea, h, true, scratch, &s, NULL))
		check(&ea, &s);
	return 0;
}
