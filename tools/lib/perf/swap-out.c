// SPDX-License-Identifier: GPL-2.0
/*
 * Records from host order into the other byte order, as perf on a host of that order lays
 * them out: the writer's half of cross-endian support (swap.c is the reader's). u64 fields
 * are swapped, u32 pairs (pid/tid, cpu/res) each in place, u16 pairs each in place, and
 * strings, build ids, RAW payloads and stack dumps are left as they are.
 *
 * Counts (callchain nr, branch nr, read nr, sizes) are read before their word is swapped:
 * these functions only go from host order out, never back.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/writer.h>
#include "swap-out.h"

#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)

struct sw_cursor {
	u8	*p, *end;
};

static int sw__u64(struct sw_cursor *c, u64 *host)
{
	u64 v;

	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(&v, c->p, 8);
	if (host)
		*host = v;
	v = bswap_64(v);
	memcpy(c->p, &v, 8);
	c->p += 8;
	return 0;
}

static int sw__u64s(struct sw_cursor *c, u64 n)
{
	if (n > (u64)(c->end - c->p) / 8)
		return -EINVAL;
	while (n--)
		sw__u64(c, NULL);
	return 0;
}

/* pid/tid and cpu/res: a big-endian kernel stores two u32, each in its own order */
static int sw__u32_pair(struct sw_cursor *c)
{
	u32 v[2];

	if (c->end - c->p < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	v[0] = bswap_32(v[0]);
	v[1] = bswap_32(v[1]);
	memcpy(c->p, v, 8);
	c->p += 8;
	return 0;
}

static int sw__u32x1(struct sw_cursor *c)
{
	u32 v;

	if (c->end - c->p < 4)
		return -EINVAL;
	memcpy(&v, c->p, 4);
	v = bswap_32(v);
	memcpy(c->p, &v, 4);
	c->p += 4;
	return 0;
}

static int sw__skip(struct sw_cursor *c, u64 n)
{
	if (n > (u64)(c->end - c->p))
		return -EINVAL;
	c->p += n;
	return 0;
}

static int sw__regs(struct sw_cursor *c, u64 mask)
{
	u64 abi;

	if (sw__u64(c, &abi))
		return -EINVAL;
	return abi == PERF_SAMPLE_REGS_ABI_NONE ? 0 : sw__u64s(c, (u64)__builtin_popcountll(mask));
}

static int sw__read(struct sw_cursor *c, u64 read_format)
{
	u64 words = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	u64 per = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);
	u64 nr;

	if (!(read_format & PERF_FORMAT_GROUP))
		return sw__u64s(c, words + per);
	if (sw__u64(c, &nr) || sw__u64s(c, words))
		return -EINVAL;
	if (nr > (u64)(c->end - c->p) / (8 * per))
		return -EINVAL;
	return sw__u64s(c, nr * per);
}

/* the fields in perf_output_sample() order, as evattr.c parses them */
int perf_sample__swap_body(const struct perf_event_attr *attr, struct perf_event_header *h,
			   struct perf_err *err)
{
	struct sw_cursor c = { (u8 *)(h + 1), (u8 *)h + h->size };
	u64 type = attr->sample_type, n;
	const char *field = NULL;

#define SW(name, expr)						\
	do {							\
		field = name;					\
		if (expr)					\
			goto out_short;				\
	} while (0)

	if (h->size < sizeof(*h))
		return perf_err__set(err, EINVAL, "sample record of %u bytes is smaller than its header", h->size);
	if (type & PERF_SAMPLE_IDENTIFIER)
		SW("identifier", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_IP)
		SW("ip", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_TID)
		SW("tid", sw__u32_pair(&c));
	if (type & PERF_SAMPLE_TIME)
		SW("time", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_ADDR)
		SW("addr", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_ID)
		SW("id", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_STREAM_ID)
		SW("stream_id", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_CPU)
		SW("cpu", sw__u32_pair(&c));
	if (type & PERF_SAMPLE_PERIOD)
		SW("period", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_READ)
		SW("read", sw__read(&c, attr->read_format));
	if (type & PERF_SAMPLE_CALLCHAIN) {
		SW("callchain nr", sw__u64(&c, &n));
		SW("callchain", sw__u64s(&c, n));
	}
	if (type & PERF_SAMPLE_RAW) {
		u32 size;

		field = "raw size";
		if (c.end - c.p < 4)
			goto out_short;
		memcpy(&size, c.p, 4);
		sw__u32x1(&c);
		/* the payload is the tracepoint's own bytes: the caller gives them as wanted */
		SW("raw data", sw__skip(&c, size + (8 - (4 + (u64)size) % 8) % 8));
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		SW("branch nr", sw__u64(&c, &n));
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			SW("branch hw_idx", sw__u64(&c, NULL));
		field = "branch stack";
		if (n > (u64)(c.end - c.p) / 24)
			goto out_short;
		sw__u64s(&c, n * 3);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			SW("branch counters", sw__u64s(&c, n));
	}
	if (type & PERF_SAMPLE_REGS_USER)
		SW("user regs", sw__regs(&c, attr->sample_regs_user));
	if (type & PERF_SAMPLE_STACK_USER) {
		SW("user stack size", sw__u64(&c, &n));
		SW("user stack", sw__skip(&c, n));
		if (n)
			SW("user stack dyn_size", sw__u64(&c, NULL));
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		SW("weight", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_DATA_SRC)
		SW("data_src", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_TRANSACTION)
		SW("transaction", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_REGS_INTR)
		SW("intr regs", sw__regs(&c, attr->sample_regs_intr));
	if (type & PERF_SAMPLE_PHYS_ADDR)
		SW("phys_addr", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_CGROUP)
		SW("cgroup", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		SW("data_page_size", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		SW("code_page_size", sw__u64(&c, NULL));
	if (type & PERF_SAMPLE_AUX) {
		SW("aux size", sw__u64(&c, &n));
		SW("aux data", sw__skip(&c, n));
	}
#undef SW
	return 0;

out_short:
	return perf_err__set(err, EINVAL, "sample field '%s' runs past the end of the %u-byte record",
			     field, h->size);
}

/* the sample_id trailer: TID TIME ID STREAM_ID CPU IDENTIFIER */
void perf_trailer__swap_out(const struct perf_evattr *ea, struct perf_event_header *h)
{
	struct sw_cursor c = { (u8 *)h + h->size - ea->id_hdr_size, (u8 *)h + h->size };
	u64 type = ea->attr.sample_type;

	/* the caller checked that the trailer fits: every step below does */
	if (type & PERF_SAMPLE_TID)
		sw__u32_pair(&c);
	if (type & PERF_SAMPLE_TIME)
		sw__u64(&c, NULL);
	if (type & PERF_SAMPLE_ID)
		sw__u64(&c, NULL);
	if (type & PERF_SAMPLE_STREAM_ID)
		sw__u64(&c, NULL);
	if (type & PERF_SAMPLE_CPU)
		sw__u32_pair(&c);
	if (type & PERF_SAMPLE_IDENTIFIER)
		sw__u64(&c, NULL);
}

void perf_header__swap_out(struct perf_event_header *h)
{
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
}

/*
 * The body of a non-sample record (host order, trailer excluded) into the other byte order,
 * field by field as perf lays each type out. -EOPNOTSUPP for a type whose layout we do not
 * know: leaving it as it is would write a record no reader could take apart.
 */
int perf_record__swap_body_out(struct perf_event_header *h, u16 trailer)
{
	struct sw_cursor c = { (u8 *)(h + 1), (u8 *)h + h->size - trailer };
	u64 n;

	if (h->size < sizeof(*h) + trailer)
		return -EINVAL;
	switch (h->type) {
	case PERF_RECORD_MMAP:		/* pid tid | start len pgoff | filename */
		return sw__u32_pair(&c) || sw__u64s(&c, 3) ? -EINVAL : 0;
	case PERF_RECORD_MMAP2:		/* pid tid | start len pgoff | maj min ino gen | prot flags */
		if (sw__u32_pair(&c) || sw__u64s(&c, 3))
			return -EINVAL;
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			if (sw__skip(&c, 24))	/* size, reserved, the build id bytes */
				return -EINVAL;
		} else if (sw__u32_pair(&c) || sw__u64s(&c, 2)) {
			return -EINVAL;
		}
		return sw__u32_pair(&c);
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return sw__u32_pair(&c);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return sw__u32_pair(&c) || sw__u32_pair(&c) || sw__u64s(&c, 1) ? -EINVAL : 0;
	case PERF_RECORD_READ:		/* pid tid | read values */
		if (sw__u32_pair(&c))
			return -EINVAL;
		return sw__u64s(&c, (u64)(c.end - c.p) / 8);
	case PERF_RECORD_NAMESPACES:	/* pid tid | nr | { dev ino } * nr */
		if (sw__u32_pair(&c) || sw__u64(&c, &n) || n > (u64)(c.end - c.p) / 16)
			return -EINVAL;
		return sw__u64s(&c, 2 * n);
	case PERF_RECORD_KSYMBOL: {	/* addr | len | type flags | name */
		u16 v[2];

		if (sw__u64s(&c, 1) || sw__u32x1(&c) || c.end - c.p < 4)
			return -EINVAL;
		memcpy(v, c.p, 4);
		v[0] = bswap_16(v[0]);
		v[1] = bswap_16(v[1]);
		memcpy(c.p, v, 4);
		return 0;
	}
	case PERF_RECORD_BPF_EVENT: {	/* type flags | id | tag */
		u16 v[2];

		if (c.end - c.p < 8)
			return -EINVAL;
		memcpy(v, c.p, 4);
		v[0] = bswap_16(v[0]);
		v[1] = bswap_16(v[1]);
		memcpy(c.p, v, 4);
		c.p += 4;
		return sw__u32x1(&c);
	}
	case PERF_RECORD_TEXT_POKE: {	/* addr | old_len new_len | bytes */
		u16 v[2];

		if (sw__u64s(&c, 1) || c.end - c.p < 4)
			return -EINVAL;
		memcpy(v, c.p, 4);
		v[0] = bswap_16(v[0]);
		v[1] = bswap_16(v[1]);
		memcpy(c.p, v, 4);
		return 0;
	}
	case PERF_RECORD_CGROUP:	/* id | path */
		return sw__u64s(&c, 1);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
		return 0;
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
	case PERF_RECORD_CALLCHAIN_DEFERRED:
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_TIME_CONV:
		/* nothing but u64 words */
		return sw__u64s(&c, (u64)(c.end - c.p) / 8);
	case PERF_RECORD_THREAD_MAP:	/* nr | { pid, comm[16] } * nr */
		if (sw__u64(&c, &n) || n > (u64)(c.end - c.p) / 24)
			return -EINVAL;
		for (u64 i = 0; i < n; i++) {
			sw__u64(&c, NULL);
			c.p += 16;
		}
		return 0;
	case PERF_RECORD_HEADER_BUILD_ID:	/* pid | build id | size ... | filename */
		return sw__u32x1(&c);
	default:
		return -EOPNOTSUPP;
	}
}
