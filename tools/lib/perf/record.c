// SPDX-License-Identifier: GPL-2.0
/*
 * The record-type table (record.h) and the one routine that swaps a body by its layout, in
 * either direction: the reader (swap.c) and the writer (swap-out.c) differ only in the
 * direction and in what a body too short for its fields means.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/record.h>

#define SID	PERF_RECORD_F_SAMPLE_ID
#define STR	PERF_RECORD_F_STRING
#define PART	PERF_RECORD_F_PARTIAL
#define FIXED(s, field)	((u16)offsetof(struct s, field))

#define KREC(t, n, size, fl, lay)	[PERF_RECORD_##t] = { n, size, (fl) | SID, lay }
#define UREC(t, n, size, fl, lay)	[PERF_RECORD_##t] = { n, size, fl, lay }

static const struct perf_record_info record_types[PERF_RECORD_HEADER_MAX] = {
	KREC(MMAP, "MMAP", FIXED(perf_record_mmap, filename), STR, "pqqq"),
	KREC(LOST, "LOST", sizeof(struct perf_record_lost), 0, "*"),
	KREC(COMM, "COMM", FIXED(perf_record_comm, comm), STR, "p"),
	KREC(EXIT, "EXIT", sizeof(struct perf_record_fork), 0, "ppq"),
	KREC(THROTTLE, "THROTTLE", sizeof(struct perf_record_throttle), 0, "*"),
	KREC(UNTHROTTLE, "UNTHROTTLE", sizeof(struct perf_record_throttle), 0, "*"),
	KREC(FORK, "FORK", sizeof(struct perf_record_fork), 0, "ppq"),
	KREC(READ, "READ", FIXED(perf_record_read, values), 0, "p*"),
	/* a sample's fields are laid out by its attr: evattr.c and swap-out.c know them */
	[PERF_RECORD_SAMPLE] = { "SAMPLE", sizeof(struct perf_event_header), 0, NULL },
	KREC(MMAP2, "MMAP2", FIXED(perf_record_mmap2, filename), STR, "pqqqmp"),
	KREC(AUX, "AUX", sizeof(struct perf_record_aux), 0, "*"),
	KREC(ITRACE_START, "ITRACE_START", sizeof(struct perf_record_itrace_start), 0, "p"),
	KREC(LOST_SAMPLES, "LOST_SAMPLES", sizeof(struct perf_record_lost_samples), 0, "*"),
	KREC(SWITCH, "SWITCH", sizeof(struct perf_record_switch), 0, ""),
	KREC(SWITCH_CPU_WIDE, "SWITCH_CPU_WIDE", sizeof(struct perf_record_switch_cpu_wide), 0, "p"),
	KREC(NAMESPACES, "NAMESPACES", FIXED(perf_record_namespaces, link_info), 0, "p*"),
	KREC(KSYMBOL, "KSYMBOL", FIXED(perf_record_ksymbol, name), STR, "qlw"),
	KREC(BPF_EVENT, "BPF_EVENT", sizeof(struct perf_record_bpf_event), 0, "wl"),
	KREC(CGROUP, "CGROUP", FIXED(perf_record_cgroup, path), STR, "q"),
	KREC(TEXT_POKE, "TEXT_POKE", FIXED(perf_record_text_poke, bytes), 0, "qw"),
	KREC(AUX_OUTPUT_HW_ID, "AUX_OUTPUT_HW_ID", sizeof(struct perf_record_aux_output_hw_id), 0, "*"),
	KREC(CALLCHAIN_DEFERRED, "CALLCHAIN_DEFERRED",
	     FIXED(perf_record_callchain_deferred, ips), 0, "*"),

	UREC(HEADER_ATTR, "ATTR", sizeof(struct perf_event_header) + PERF_ATTR_SIZE_VER0, 0, "a"),
	UREC(HEADER_EVENT_TYPE, "EVENT_TYPE", sizeof(struct perf_record_header_event_type), 0, NULL),
	UREC(HEADER_TRACING_DATA, "TRACING_DATA", FIXED(perf_record_header_tracing_data, pad), 0, "l"),
	UREC(HEADER_BUILD_ID, "BUILD_ID", FIXED(perf_record_header_build_id, filename), STR, "l"),
	UREC(FINISHED_ROUND, "FINISHED_ROUND", sizeof(struct perf_record_finished), 0, "*"),
	UREC(ID_INDEX, "ID_INDEX", FIXED(perf_record_id_index, entries), 0, "*"),
	UREC(AUXTRACE_INFO, "AUXTRACE_INFO", FIXED(perf_record_auxtrace_info, priv), 0, NULL),
	UREC(AUXTRACE, "AUXTRACE", sizeof(struct perf_record_auxtrace), 0, NULL),
	UREC(AUXTRACE_ERROR, "AUXTRACE_ERROR", sizeof(struct perf_record_auxtrace_error), 0, NULL),
	UREC(THREAD_MAP, "THREAD_MAP", FIXED(perf_record_thread_map, entries), 0, "t"),
	UREC(CPU_MAP, "CPU_MAP", FIXED(perf_record_cpu_map, data), 0, NULL),
	UREC(STAT_CONFIG, "STAT_CONFIG", FIXED(perf_record_stat_config, data), 0, NULL),
	UREC(STAT, "STAT", sizeof(struct perf_record_stat), 0, NULL),
	UREC(STAT_ROUND, "STAT_ROUND", sizeof(struct perf_record_stat_round), 0, NULL),
	UREC(EVENT_UPDATE, "EVENT_UPDATE", FIXED(perf_record_event_update, data), PART, "qq"),
	UREC(TIME_CONV, "TIME_CONV", FIXED(perf_record_time_conv, more), 0, "*"),
	/* feature bodies are swapped by their parser */
	UREC(HEADER_FEATURE, "FEATURE", FIXED(perf_record_header_feature, data), PART, "q"),
	UREC(COMPRESSED, "COMPRESSED", FIXED(perf_record_compressed, data), 0, NULL),
	UREC(FINISHED_INIT, "FINISHED_INIT", sizeof(struct perf_record_finished), 0, "*"),
	UREC(COMPRESSED2, "COMPRESSED2", FIXED(perf_record_compressed2, data), 0, "q"),
};

static const struct perf_record_info unknown_kernel = {
	"UNKNOWN", sizeof(struct perf_event_header), SID, NULL
};
static const struct perf_record_info unknown_user = {
	"UNKNOWN", sizeof(struct perf_event_header), 0, NULL
};

const struct perf_record_info *perf_record_type__info(u32 type)
{
	if (type < PERF_RECORD_HEADER_MAX && record_types[type].name)
		return &record_types[type];
	return type && type < PERF_RECORD_USER_TYPE_START ? &unknown_kernel : &unknown_user;
}

const char *perf_record_type__name(u32 type)
{
	return perf_record_type__info(type)->name;
}

size_t perf_record_type__min_size(u32 type)
{
	const struct perf_record_info *ri = perf_record_type__info(type);

	return ri->fixed_size + (ri->flags & PERF_RECORD_F_STRING ? 1 : 0);
}

bool perf_record_type__has_sample_id(u32 type)
{
	return perf_record_type__info(type)->flags & PERF_RECORD_F_SAMPLE_ID;
}

bool perf_record_mmap2__has_build_id(const struct perf_record_mmap2 *m)
{
	return (m->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && m->build_id_size <= 20 &&
	       !m->reserved_1 && !m->reserved_2;
}

bool perf_record_mmap2__stray_build_id_bit(const struct perf_record_mmap2 *m)
{
	return (m->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	       !perf_record_mmap2__has_build_id(m);
}

/* ---- swapping by layout -------------------------------------------------------------------- */

struct swap_cursor {
	u8	*p, *end;
	bool	to_host;
};

/* the host-order value of the u64 at c->p, whichever side of the swap it is on */
static u64 swap_cursor__u64(struct swap_cursor *c)
{
	u64 v;

	memcpy(&v, c->p, 8);
	v = bswap_64(v);
	memcpy(c->p, &v, 8);
	c->p += 8;
	return c->to_host ? v : bswap_64(v);
}

static void swap_cursor__u64s(struct swap_cursor *c, size_t n)
{
	while (n--)
		swap_cursor__u64(c);
}

static void swap_cursor__u32s(struct swap_cursor *c, size_t n)
{
	for (; n; n--, c->p += 4) {
		u32 v;

		memcpy(&v, c->p, 4);
		v = bswap_32(v);
		memcpy(c->p, &v, 4);
	}
}

static void swap_cursor__u16s(struct swap_cursor *c, size_t n)
{
	for (; n; n--, c->p += 2) {
		u16 v;

		memcpy(&v, c->p, 2);
		v = bswap_16(v);
		memcpy(c->p, &v, 2);
	}
}

/* the bytes the layout's fixed letters need ('*', 't' and 'a' count their minimum) */
static size_t layout__min_bytes(const char *layout)
{
	size_t n = 0;

	for (const char *l = layout; *l; l++) {
		switch (*l) {
		case 'q': case 'p': case 't':	n += 8; break;
		case 'l': case 'w':		n += 4; break;
		case 'm':			n += 24; break;
		case 'a':			n += PERF_ATTR_SIZE_VER0; break;
		default:			break;
		}
	}
	return n;
}

int perf_record__swap_fields(struct perf_event_header *h, u16 trailer_size, bool to_host,
			     bool strict)
{
	const struct perf_record_info *ri = perf_record_type__info(h->type);
	struct swap_cursor c = { (u8 *)(h + 1), (u8 *)h + h->size, to_host };
	u64 n;

	if (h->size < sizeof(*h))
		return strict ? -EINVAL : 0;
	if (ri->flags & PERF_RECORD_F_SAMPLE_ID) {
		if (h->size - sizeof(*h) < trailer_size && strict)
			return -EINVAL;
		c.end = h->size - sizeof(*h) >= trailer_size ? c.end - trailer_size : c.p;
	}
	if (!ri->layout || (strict && (ri->flags & PERF_RECORD_F_PARTIAL)))
		return strict ? -EOPNOTSUPP : 0;
	/* a writer refuses what a reader would refuse: a body shorter than its fixed part */
	if (strict && (size_t)(c.end - c.p) < ri->fixed_size - sizeof(*h))
		return -EINVAL;
	if ((size_t)(c.end - c.p) < layout__min_bytes(ri->layout))
		return strict ? -EINVAL : 0;

	/* the minimum fits: only the variable letters check again */
	for (const char *l = ri->layout; *l; l++) {
		switch (*l) {
		case 'q':
			swap_cursor__u64s(&c, 1);
			break;
		case 'p':
			swap_cursor__u32s(&c, 2);
			break;
		case 'l':
			swap_cursor__u32s(&c, 1);
			break;
		case 'w':
			swap_cursor__u16s(&c, 2);
			break;
		case '*':
			swap_cursor__u64s(&c, (size_t)(c.end - c.p) / 8);
			break;
		case 'm':
			if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				c.p += 24;	/* size, reserved, the build id bytes */
			} else {
				swap_cursor__u32s(&c, 2);
				swap_cursor__u64s(&c, 2);
			}
			break;
		case 't':
			n = swap_cursor__u64(&c);
			if (strict && n > (u64)(c.end - c.p) / sizeof(struct perf_thread_map_entry))
				return -EINVAL;
			for (; n && (size_t)(c.end - c.p) >= sizeof(struct perf_thread_map_entry); n--) {
				swap_cursor__u64s(&c, 1);
				c.p += sizeof(((struct perf_thread_map_entry *)0)->comm);
			}
			break;
		case 'a': {
			struct perf_event_attr *attr = (void *)c.p;
			u32 asz = to_host ? bswap_32(attr->size) : attr->size;

			if (asz < PERF_ATTR_SIZE_VER0 || asz > (size_t)(c.end - c.p))
				asz = PERF_ATTR_SIZE_VER0;
			perf_event_attr__swap(attr, asz);
			c.p += asz;
			swap_cursor__u64s(&c, (size_t)(c.end - c.p) / 8);
			break;
		}
		default:
			break;
		}
	}
	return 0;
}

int perf_record__check_counts(const struct perf_event_header *h, bool swapped,
			      struct perf_err *err)
{
	size_t body = h->size >= sizeof(*h) ? h->size - sizeof(*h) : 0;
	u64 nr;

	switch (h->type) {
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_THREAD_MAP: {
		/* u64 nr, then nr entries (ID_INDEX: upstream may append more after them) */
		size_t entry = h->type == PERF_RECORD_ID_INDEX ? sizeof(struct perf_id_index_entry)
							       : sizeof(struct perf_thread_map_entry);

		if (body < sizeof(u64))
			return perf_err__set(err, EINVAL, "too short for its count");
		memcpy(&nr, h + 1, sizeof(nr));
		if (nr > (body - sizeof(u64)) / entry)
			return perf_err__set(err, EINVAL, "%llu entries do not fit its %zu bytes",
					     (unsigned long long)nr, body - sizeof(u64));
		return 0;
	}
	case PERF_RECORD_CPU_MAP: {
		const struct perf_record_cpu_map *m = (const void *)h;
		u16 type, n;

		if (body < sizeof(m->type))
			return perf_err__set(err, EINVAL, "too short for its type");
		type = swapped ? bswap_16(m->type) : m->type;
		/* 0: u16 nr, u16 cpu[nr]; 1: a mask; 2: a range (u8 any_cpu, u8 pad, u16 start, end) */
		if (type > 2)
			return perf_err__set(err, EINVAL, "cpu map type %u is none of cpus (0), mask (1), range (2)",
					     type);
		if (type == 0) {
			if (body < 2 * sizeof(u16))
				return perf_err__set(err, EINVAL, "too short for its cpu count");
			memcpy(&n, m->data, sizeof(n));
			if (swapped)
				n = bswap_16(n);
			if ((size_t)n > (body - 2 * sizeof(u16)) / sizeof(u16))
				return perf_err__set(err, EINVAL, "%u cpus do not fit its %zu bytes", n, body);
		}
		return 0;
	}
	default:
		return 0;
	}
}
