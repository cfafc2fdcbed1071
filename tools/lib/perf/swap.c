// SPDX-License-Identifier: GPL-2.0
/*
 * Byte-swapping of cross-endian perf.data as it is read: attrs, and records by the layouts of
 * the record table (record.c). Samples and sample_id trailers are not swapped here; the sample
 * parser reads them in file order (their u32 pairs and raw data would need undoing otherwise).
 */
#include <byteswap.h>
#include <stddef.h>
#include <perf/data.h>
#include <perf/record.h>

static void swap64_array(void *p, size_t bytes)
{
	u64 *v = p;

	for (size_t i = 0; i < bytes / 8; i++)
		v[i] = bswap_64(v[i]);
}

static u8 reverse_bits(u8 b)
{
	b = (u8)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (u8)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (u8)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/*
 * The flag word is a C bitfield: a big-endian compiler allocates it from the most significant
 * bit of each byte, so the bytes keep their place and each byte's bits are mirrored.
 */
void perf_event_attr__swap(struct perf_event_attr *attr, size_t size)
{
	u8 *flags = (u8 *)&attr->flags;

	attr->type = bswap_32(attr->type);
	attr->size = bswap_32(attr->size);
	swap64_array(&attr->config, 32);	/* config .. read_format */
	if (size < offsetof(struct perf_event_attr, wakeup_events))
		return;
	for (int i = 0; i < 8; i++)
		flags[i] = reverse_bits(flags[i]);
#define SWAP_IF(field, fn)						\
	do {								\
		if (size >= offsetof(struct perf_event_attr, field) + sizeof(attr->field)) \
			attr->field = fn(attr->field);			\
	} while (0)
	SWAP_IF(wakeup_events, bswap_32);
	SWAP_IF(bp_type, bswap_32);
	SWAP_IF(config1, bswap_64);
	SWAP_IF(config2, bswap_64);
	SWAP_IF(branch_sample_type, bswap_64);
	SWAP_IF(sample_regs_user, bswap_64);
	SWAP_IF(sample_stack_user, bswap_32);
	SWAP_IF(clockid, (s32)bswap_32);
	SWAP_IF(sample_regs_intr, bswap_64);
	SWAP_IF(aux_watermark, bswap_32);
	SWAP_IF(sample_max_stack, bswap_16);
	SWAP_IF(aux_sample_size, bswap_32);
	SWAP_IF(aux_action, bswap_32);
	SWAP_IF(sig_data, bswap_64);
	SWAP_IF(config3, bswap_64);
	SWAP_IF(config4, bswap_64);
#undef SWAP_IF
}

/*
 * Swap the header and the fixed body of a record in place. trailer_size bytes at the end (the
 * sample_id) are left alone. Bodies are only swapped as far as the record really extends.
 */
void perf_record__swap(struct perf_event_header *h, u16 trailer_size)
{
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
	perf_record__swap_fields(h, trailer_size, true, false);
}
