// SPDX-License-Identifier: GPL-2.0
/*
 * Records from host order into the other byte order, as perf on a host of that order lays
 * them out: the writer's half of cross-endian support (swap.c is the reader's). Bodies go by
 * the record table's layouts (record.c), samples field by field (synthesize.c); here are the
 * header and the sample_id trailer, whose u64 words are swapped and whose u32 pairs (pid/tid,
 * cpu/res) are swapped each in place.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/record.h>
#include "swap-out.h"

static void swap_u64(u8 **p)
{
	u64 v;

	memcpy(&v, *p, 8);
	v = bswap_64(v);
	memcpy(*p, &v, 8);
	*p += 8;
}

static void swap_u32_pair(u8 **p)
{
	u32 v[2];

	memcpy(v, *p, 8);
	v[0] = bswap_32(v[0]);
	v[1] = bswap_32(v[1]);
	memcpy(*p, v, 8);
	*p += 8;
}

/* the sample_id trailer: TID TIME ID STREAM_ID CPU IDENTIFIER; no counts: either direction */
void perf_trailer__swap(const struct perf_event_attr *attr, struct perf_event_header *h,
			u16 trailer_size)
{
	u8 *p = (u8 *)h + h->size - trailer_size;
	u64 type = attr->sample_type;

	/* the caller checked that the trailer fits: every step below does */
	if (type & PERF_SAMPLE_TID)
		swap_u32_pair(&p);
	if (type & PERF_SAMPLE_TIME)
		swap_u64(&p);
	if (type & PERF_SAMPLE_ID)
		swap_u64(&p);
	if (type & PERF_SAMPLE_STREAM_ID)
		swap_u64(&p);
	if (type & PERF_SAMPLE_CPU)
		swap_u32_pair(&p);
	if (type & PERF_SAMPLE_IDENTIFIER)
		swap_u64(&p);
}

void perf_header__swap_out(struct perf_event_header *h)
{
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
}

int perf_record__swap_body_out(struct perf_event_header *h, u16 trailer)
{
	return perf_record__swap_fields(h, trailer, false, true);
}
