// SPDX-License-Identifier: GPL-2.0
/*
 * Byte-swapping of cross-endian perf.data: attrs and the fixed bodies of non-sample records.
 * Samples and sample_id trailers are not swapped here; the sample parser reads them in file
 * order (their u32 pairs and raw data would need undoing otherwise).
 */
#include <byteswap.h>
#include <stddef.h>
#include <perf/data.h>

static void swap64_array(void *p, size_t bytes)
{
	u64 *v = p;

	for (size_t i = 0; i < bytes / 8; i++)
		v[i] = bswap_64(v[i]);
}

static void swap32_array(void *p, size_t bytes)
{
	u32 *v = p;

	for (size_t i = 0; i < bytes / 4; i++)
		v[i] = bswap_32(v[i]);
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
	u8 *body = (u8 *)(h + 1);
	size_t len;

	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
	if (h->size < sizeof(*h))
		return;
	len = h->size - sizeof(*h);
	if (h->type != PERF_RECORD_SAMPLE && h->type < PERF_RECORD_USER_TYPE_START)
		len = len >= trailer_size ? len - trailer_size : 0;

	switch (h->type) {
	case PERF_RECORD_MMAP:		/* pid tid | start len pgoff | filename */
		if (len >= 32) {
			swap32_array(body, 8);
			swap64_array(body + 8, 24);
		}
		break;
	case PERF_RECORD_MMAP2:		/* pid tid | start len pgoff | maj min ino gen | prot flags */
		if (len >= 64) {
			swap32_array(body, 8);
			swap64_array(body + 8, 24);
			if (!(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
				swap32_array(body + 32, 8);
				swap64_array(body + 40, 16);
			}
			swap32_array(body + 56, 8);
		}
		break;
	case PERF_RECORD_COMM:
		if (len >= 8)
			swap32_array(body, 8);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (len >= 24) {
			swap32_array(body, 16);
			swap64_array(body + 16, 8);
		}
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_CALLCHAIN_DEFERRED:
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
	case PERF_RECORD_TIME_CONV:
		swap64_array(body, len);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:	/* next_prev_pid next_prev_tid */
	case PERF_RECORD_ITRACE_START:		/* pid tid */
		if (len >= 8)
			swap32_array(body, 8);
		break;
	case PERF_RECORD_READ:		/* pid tid | values... */
	case PERF_RECORD_NAMESPACES:	/* pid tid | nr | {dev ino}... */
		if (len >= 8) {
			swap32_array(body, 8);
			swap64_array(body + 8, len - 8);
		}
		break;
	case PERF_RECORD_AUX:			/* aux_offset aux_size flags */
	case PERF_RECORD_AUX_OUTPUT_HW_ID:	/* hw_id */
	case PERF_RECORD_ID_INDEX:		/* nr | {id idx cpu tid}... */
		swap64_array(body, len);
		break;
	case PERF_RECORD_CGROUP:	/* id | path */
		if (len >= 8)
			swap64_array(body, 8);
		break;
	case PERF_RECORD_BPF_EVENT:	/* type flags | id | tag */
		if (len >= 8) {
			((u16 *)body)[0] = bswap_16(((u16 *)body)[0]);
			((u16 *)body)[1] = bswap_16(((u16 *)body)[1]);
			swap32_array(body + 4, 4);
		}
		break;
	case PERF_RECORD_TEXT_POKE:	/* addr | old_len new_len | bytes */
		if (len >= 12) {
			swap64_array(body, 8);
			((u16 *)(body + 8))[0] = bswap_16(((u16 *)(body + 8))[0]);
			((u16 *)(body + 8))[1] = bswap_16(((u16 *)(body + 8))[1]);
		}
		break;
	case PERF_RECORD_THREAD_MAP:	/* nr | {pid, comm[16]}... */
		if (len >= 8) {
			u64 nr = bswap_64(*(u64 *)body);

			*(u64 *)body = nr;
			for (u64 i = 0; i < nr && 8 + (i + 1) * 24 <= len; i++)
				swap64_array(body + 8 + i * 24, 8);
		}
		break;
	case PERF_RECORD_KSYMBOL:	/* addr | len type flags | name */
		if (len >= 16) {
			swap64_array(body, 8);
			swap32_array(body + 8, 4);
			((u16 *)(body + 12))[0] = bswap_16(((u16 *)(body + 12))[0]);
			((u16 *)(body + 12))[1] = bswap_16(((u16 *)(body + 12))[1]);
		}
		break;
	case PERF_RECORD_HEADER_ATTR:
		if (len >= PERF_ATTR_SIZE_VER0) {
			struct perf_event_attr *attr = (void *)body;
			u32 asz = bswap_32(attr->size);

			if (asz < PERF_ATTR_SIZE_VER0 || asz > len)
				asz = PERF_ATTR_SIZE_VER0;
			perf_event_attr__swap(attr, asz);
			swap64_array(body + asz, len - asz);
		}
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (len >= 4)
			swap32_array(body, 4);
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (len >= 4)
			swap32_array(body, 4);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		if (len >= 8)
			swap64_array(body, 8);	/* feature bodies are swapped by their parser */
		break;
	case PERF_RECORD_EVENT_UPDATE:	/* type, id; the rest depends on the type */
		swap64_array(body, len < 16 ? len : 16);
		break;
	case PERF_RECORD_COMPRESSED2:
		if (len >= 8)
			swap64_array(body, 8);
		break;
	default:
		break;
	}
}
