// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing samples and sample_id trailers against their attr, in the kernel's field order
 * (perf_output_sample()). Every read is bounds-checked against the record: the record is
 * untrusted input.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <perf/cursor.h>
#include <perf/data.h>

#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)

/* a failed read leaves c->err set and c->what naming the field, for the one message below */
static int cursor__short(struct perf_cursor *c, u64 need)
{
	perf_cursor__fail(c, PERF_CURSOR_SHORT, need > SIZE_MAX ? SIZE_MAX : (size_t)need);
	return c->err;
}

static int cursor__u64(struct perf_cursor *c, u64 *v)
{
	*v = perf_cursor__u64(c);
	return c->err;
}

/* two u32 packed in one u64 word (pid/tid, cpu/res), each in its own byte order */
static int cursor__u32_pair(struct perf_cursor *c, u32 *a, u32 *b)
{
	if (perf_cursor__left(c) < 8)
		return perf_cursor__skip(c, 8);
	*a = perf_cursor__u32(c);
	*b = perf_cursor__u32(c);
	return 0;
}

/*
 * An array of n u64 words. In a host-order file it is used in place; in a cross-endian one
 * it is copied to scratch, which the caller sized to the record.
 */
static int cursor__u64_array(struct perf_cursor *c, u64 n, u64 **scratch, const u64 **out)
{
	const u8 *p;

	if (n > perf_cursor__left(c) / 8)
		return cursor__short(c, n > SIZE_MAX / 8 ? SIZE_MAX : n * 8);
	p = perf_cursor__bytes(c, n * 8);
	if (c->swapped) {
		u64 *dst = *scratch;

		memcpy(dst, p, n * 8);
		for (u64 i = 0; i < n; i++)
			dst[i] = bswap_64(dst[i]);
		*scratch += n;
		*out = dst;
	} else {
		*out = (const u64 *)p;
	}
	return 0;
}

static int cursor__bytes(struct perf_cursor *c, u64 n, const u8 **out)
{
	if (n > perf_cursor__left(c))
		return cursor__short(c, n);
	*out = perf_cursor__bytes(c, n);
	return 0;
}

static int parse_read(struct perf_cursor *c, u64 read_format, struct perf_sample_read *r,
		      u64 **scratch)
{
	if (read_format & PERF_FORMAT_GROUP) {
		u64 per = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);
		const u64 *vals;

		if (cursor__u64(c, &r->nr))
			return -EINVAL;
		if ((read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) && cursor__u64(c, &r->time_enabled))
			return -EINVAL;
		if ((read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) && cursor__u64(c, &r->time_running))
			return -EINVAL;
		if (r->nr > perf_cursor__left(c) / (8 * per))
			return -EINVAL;
		if (cursor__u64_array(c, r->nr * per, scratch, &vals))
			return -EINVAL;
		r->group = (const u8 *)vals;
		return 0;
	}
	r->nr = 1;
	if (cursor__u64(c, &r->one.value))
		return -EINVAL;
	if ((read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) && cursor__u64(c, &r->time_enabled))
		return -EINVAL;
	if ((read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) && cursor__u64(c, &r->time_running))
		return -EINVAL;
	if ((read_format & PERF_FORMAT_ID) && cursor__u64(c, &r->one.id))
		return -EINVAL;
	if ((read_format & PERF_FORMAT_LOST) && cursor__u64(c, &r->one.lost))
		return -EINVAL;
	return 0;
}

static int parse_regs(struct perf_cursor *c, u64 mask, u64 *abi, u64 *out_mask, const u64 **regs,
		      u64 **scratch)
{
	if (cursor__u64(c, abi))
		return -EINVAL;
	*out_mask = 0;
	*regs = NULL;
	if (*abi == PERF_SAMPLE_REGS_ABI_NONE)
		return 0;
	*out_mask = mask;
	return cursor__u64_array(c, (u64)__builtin_popcountll(mask), scratch, regs);
}

/* the trailer of non-sample records: TID TIME ID STREAM_ID CPU IDENTIFIER */
static int parse_trailer(const struct perf_evattr *ea, const struct perf_event_header *h,
			 bool swapped, struct perf_sample *s, struct perf_err *err)
{
	u64 type = ea->attr.sample_type;
	struct perf_cursor c;

	if (!perf_attr__has(&ea->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL))
		return 0;
	if (h->size < sizeof(*h) + ea->id_hdr_size)
		return perf_err__set(err, EINVAL, "sample_id of %u bytes does not fit a record of %u bytes",
				     ea->id_hdr_size, h->size);
	perf_cursor__init(&c, (const u8 *)h + h->size - ea->id_hdr_size, ea->id_hdr_size, swapped);
	/* sizes were checked above: every read below fits */
	if (type & PERF_SAMPLE_TID)
		cursor__u32_pair(&c, &s->pid, &s->tid);
	if (type & PERF_SAMPLE_TIME) {
		cursor__u64(&c, &s->time);
		s->has_time = true;
	}
	if (type & PERF_SAMPLE_ID)
		cursor__u64(&c, &s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		cursor__u64(&c, &s->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		u32 res;

		cursor__u32_pair(&c, &s->cpu, &res);
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		cursor__u64(&c, &s->id);
	return 0;
}

int perf_evattr__parse_sample(const struct perf_evattr *ea, const struct perf_event_header *h,
			      bool swapped, u64 *scratch, struct perf_sample *s,
			      struct perf_err *err)
{
	const struct perf_event_attr *attr = &ea->attr;
	u64 type = attr->sample_type;
	struct perf_cursor c;
	u64 v;

	memset(s, 0, sizeof(*s));
	s->pid = s->tid = (u32)-1;
	s->cpu = (u32)-1;
	s->cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->misc = h->misc;
	s->period = 1;

	if (h->type != PERF_RECORD_SAMPLE)
		return parse_trailer(ea, h, swapped, s, err);
	perf_cursor__init(&c, h + 1, h->size - sizeof(*h), swapped);

#define FIELD(name, expr)						\
	do {								\
		c.what = name;						\
		if (expr)						\
			goto out_short;					\
	} while (0)

	if (type & PERF_SAMPLE_IDENTIFIER)
		FIELD("identifier", cursor__u64(&c, &s->id));
	if (type & PERF_SAMPLE_IP)
		FIELD("ip", cursor__u64(&c, &s->ip));
	if (type & PERF_SAMPLE_TID)
		FIELD("tid", cursor__u32_pair(&c, &s->pid, &s->tid));
	if (type & PERF_SAMPLE_TIME) {
		FIELD("time", cursor__u64(&c, &s->time));
		s->has_time = true;
	}
	if (type & PERF_SAMPLE_ADDR)
		FIELD("addr", cursor__u64(&c, &s->addr));
	if (type & PERF_SAMPLE_ID)
		FIELD("id", cursor__u64(&c, &s->id));
	if (type & PERF_SAMPLE_STREAM_ID)
		FIELD("stream_id", cursor__u64(&c, &s->stream_id));
	if (type & PERF_SAMPLE_CPU) {
		u32 res;

		FIELD("cpu", cursor__u32_pair(&c, &s->cpu, &res));
	}
	if (type & PERF_SAMPLE_PERIOD)
		FIELD("period", cursor__u64(&c, &s->period));
	if (type & PERF_SAMPLE_READ)
		FIELD("read", parse_read(&c, attr->read_format, &s->read, &scratch));
	if (type & PERF_SAMPLE_CALLCHAIN) {
		FIELD("callchain nr", cursor__u64(&c, &s->callchain_nr));
		FIELD("callchain", cursor__u64_array(&c, s->callchain_nr, &scratch, &s->callchain));
		/* deferral is only recognised as perf does: flag set, nr >= 2, marker second to last */
		if (perf_attr__has(attr, PERF_ATTR_BIT_DEFER_CALLCHAIN) && s->callchain_nr >= 2 &&
		    s->callchain[s->callchain_nr - 2] == PERF_CONTEXT_USER_DEFERRED) {
			s->deferred_callchain = true;
			s->deferred_cookie = s->callchain[s->callchain_nr - 1];
		}
	}
	if (type & PERF_SAMPLE_RAW) {
		const u8 *raw;

		c.what = "raw size";
		s->raw_size = perf_cursor__u32(&c);
		if (c.err)
			goto out_short;
		FIELD("raw data", cursor__bytes(&c, s->raw_size, &raw));
		s->raw_data = raw;
		/* u32 size + data are padded to a u64 boundary */
		FIELD("raw padding", cursor__bytes(&c, (8 - (4 + s->raw_size) % 8) % 8, &raw));
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		const u8 *entries;

		FIELD("branch nr", cursor__u64(&c, &s->branch_nr));
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			FIELD("branch hw_idx", cursor__u64(&c, &s->branch_hw_idx));
			s->branch_has_hw_idx = true;
		}
		c.what = "branch stack";
		if (s->branch_nr > perf_cursor__left(&c) / sizeof(struct perf_branch_entry))
			goto out_short;
		if (swapped) {
			const u64 *words;

			FIELD("branch stack", cursor__u64_array(&c, s->branch_nr * 3, &scratch, &words));
			entries = (const u8 *)words;
		} else {
			FIELD("branch stack", cursor__bytes(&c, s->branch_nr * 24, &entries));
		}
		s->branches = (const struct perf_branch_entry *)entries;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			FIELD("branch counters", cursor__u64_array(&c, s->branch_nr, &scratch,
								   &s->branch_counters));
	}
	if (type & PERF_SAMPLE_REGS_USER)
		FIELD("user regs", parse_regs(&c, attr->sample_regs_user, &s->user_regs_abi,
					      &s->user_regs_mask, &s->user_regs, &scratch));
	if (type & PERF_SAMPLE_STACK_USER) {
		FIELD("user stack size", cursor__u64(&c, &s->user_stack_size));
		FIELD("user stack", cursor__bytes(&c, s->user_stack_size, &s->user_stack));
		if (s->user_stack_size) {
			FIELD("user stack dyn_size", cursor__u64(&c, &s->user_stack_dyn_size));
			/* the kernel never claims more valid bytes than it copied: upstream refuses it */
			if (s->user_stack_dyn_size > s->user_stack_size)
				return perf_err__set(err, EINVAL,
						     "user stack dump failure: dyn_size %llu is larger than the %llu-byte dump",
						     (unsigned long long)s->user_stack_dyn_size,
						     (unsigned long long)s->user_stack_size);
		}
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		FIELD("weight", cursor__u64(&c, &v));
		if (type & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = v & 0xffffffff;
			s->ins_lat = (v >> 32) & 0xffff;
			s->p_stage_cyc = (v >> 48) & 0xffff;
		} else {
			s->weight = v;
		}
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		FIELD("data_src", cursor__u64(&c, &s->data_src));
	if (type & PERF_SAMPLE_TRANSACTION)
		FIELD("transaction", cursor__u64(&c, &s->transaction));
	if (type & PERF_SAMPLE_REGS_INTR)
		FIELD("intr regs", parse_regs(&c, attr->sample_regs_intr, &s->intr_regs_abi,
					      &s->intr_regs_mask, &s->intr_regs, &scratch));
	if (type & PERF_SAMPLE_PHYS_ADDR)
		FIELD("phys_addr", cursor__u64(&c, &s->phys_addr));
	if (type & PERF_SAMPLE_CGROUP)
		FIELD("cgroup", cursor__u64(&c, &s->cgroup));
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		FIELD("data_page_size", cursor__u64(&c, &s->data_page_size));
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		FIELD("code_page_size", cursor__u64(&c, &s->code_page_size));
	if (type & PERF_SAMPLE_AUX) {
		const u8 *aux;

		FIELD("aux size", cursor__u64(&c, &s->aux_size));
		FIELD("aux data", cursor__bytes(&c, s->aux_size, &aux));
		s->aux_data = aux;
	}
#undef FIELD
	/*
	 * The kernel sizes a sample to its fields: bytes past the last one mean a field that
	 * said less than it had (a callchain nr, a stack size), and the fields before may be
	 * misread too
	 */
	if (perf_cursor__left(&c))
		return perf_err__set(err, EINVAL, "sample fields end %zu bytes before the end of the %u-byte record",
				     perf_cursor__left(&c), h->size);
	return 0;

out_short:
	return perf_err__set(err, EINVAL, "sample field '%s' runs past the end of the %u-byte record",
			     c.what, h->size);
}

void perf_evattr__init_positions(struct perf_evattr *ea)
{
	u64 type = ea->attr.sample_type;
	int size = 0;

	ea->id_pos = -1;
	ea->is_pos = -1;
	if (type & PERF_SAMPLE_IDENTIFIER) {
		ea->id_pos = 0;
		ea->is_pos = 1;
	} else if (type & PERF_SAMPLE_ID) {
		int pos = 0;

		pos += !!(type & PERF_SAMPLE_IP) + !!(type & PERF_SAMPLE_TID) +
		       !!(type & PERF_SAMPLE_TIME) + !!(type & PERF_SAMPLE_ADDR);
		ea->id_pos = pos;
		ea->is_pos = 1 + !!(type & PERF_SAMPLE_STREAM_ID) + !!(type & PERF_SAMPLE_CPU);
	}
	if (type & PERF_SAMPLE_TID)
		size += 8;
	if (type & PERF_SAMPLE_TIME)
		size += 8;
	if (type & PERF_SAMPLE_ID)
		size += 8;
	if (type & PERF_SAMPLE_STREAM_ID)
		size += 8;
	if (type & PERF_SAMPLE_CPU)
		size += 8;
	if (type & PERF_SAMPLE_IDENTIFIER)
		size += 8;
	ea->id_hdr_size = perf_attr__has(&ea->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL) ? (u16)size : 0;

	/* a sample starts IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD [READ] CALLCHAIN */
	size = sizeof(struct perf_event_header);
	size += type & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	size += type & PERF_SAMPLE_IP ? 8 : 0;
	ea->tid_off = type & PERF_SAMPLE_TID ? (s16)size : -1;
	size += type & PERF_SAMPLE_TID ? 8 : 0;
	ea->time_off = type & PERF_SAMPLE_TIME ? (s16)size : -1;
	size += type & PERF_SAMPLE_TIME ? 8 : 0;
	size += type & PERF_SAMPLE_ADDR ? 8 : 0;
	size += type & PERF_SAMPLE_ID ? 8 : 0;
	size += type & PERF_SAMPLE_STREAM_ID ? 8 : 0;
	size += type & PERF_SAMPLE_CPU ? 8 : 0;
	size += type & PERF_SAMPLE_PERIOD ? 8 : 0;
	/* a read group's size is in the sample: past it, offsets are the parser's business */
	ea->callchain_off = type & PERF_SAMPLE_CALLCHAIN && !(type & PERF_SAMPLE_READ) ? (s16)size : -1;
	/* the trailer: TID TIME ID STREAM_ID CPU IDENTIFIER, only with sample_id_all */
	ea->id_tid_off = ea->id_time_off = -1;
	if (ea->id_hdr_size) {
		ea->id_tid_off = type & PERF_SAMPLE_TID ? 0 : -1;
		ea->id_time_off = type & PERF_SAMPLE_TIME ? (type & PERF_SAMPLE_TID ? 8 : 0) : -1;
	}
}

/*
 * Where a field's word sits in h: at soff in a sample, at toff inside the sample_id trailer
 * of any other record (-1: the record has no such field).
 */
static int id_field_offset(const struct perf_evattr *ea, const struct perf_event_header *h,
			   int soff, int toff, size_t *off)
{
	if (h->type == PERF_RECORD_SAMPLE) {
		if (soff < 0)
			return -ENOENT;
		*off = (size_t)soff;
	} else {
		if (toff < 0 || h->size < sizeof(*h) + ea->id_hdr_size)
			return -ENOENT;
		*off = h->size - ea->id_hdr_size + (size_t)toff;
	}
	return *off + 8 > h->size ? -ENOENT : 0;
}

int perf_evattr__parse_time(const struct perf_evattr *ea, const struct perf_event_header *h,
			    bool swapped, u64 *time)
{
	size_t off;

	if (id_field_offset(ea, h, ea->time_off, ea->id_time_off, &off))
		return -ENOENT;
	memcpy(time, (const u8 *)h + off, 8);
	if (swapped)
		*time = bswap_64(*time);
	return 0;
}

/* one of the (pid, tid) pair of a sample or sample_id: at 0 the pid, at 4 the tid */
static int parse_pid_tid(const struct perf_evattr *ea, const struct perf_event_header *h,
			 bool swapped, size_t at, u32 *v)
{
	size_t off;

	if (id_field_offset(ea, h, ea->tid_off, ea->id_tid_off, &off))
		return -ENOENT;
	memcpy(v, (const u8 *)h + off + at, 4);
	if (swapped)
		*v = bswap_32(*v);
	return 0;
}

int perf_evattr__parse_tid(const struct perf_evattr *ea, const struct perf_event_header *h,
			   bool swapped, u32 *tid)
{
	return parse_pid_tid(ea, h, swapped, 4, tid);
}

int perf_evattr__parse_pid(const struct perf_evattr *ea, const struct perf_event_header *h,
			   bool swapped, u32 *pid)
{
	return parse_pid_tid(ea, h, swapped, 0, pid);
}

bool perf_evattr__peek_deferred(const struct perf_evattr *ea, const struct perf_event_header *h,
				bool swapped, u32 *tid, u64 *cookie)
{
	const u8 *p = (const u8 *)h;
	u64 nr, marker;
	size_t off;

	if (h->type != PERF_RECORD_SAMPLE || ea->callchain_off < 0 ||
	    !perf_attr__has(&ea->attr, PERF_ATTR_BIT_DEFER_CALLCHAIN))
		return false;
	off = (size_t)ea->callchain_off;
	if (off + 8 > h->size)
		return false;
	memcpy(&nr, p + off, 8);
	if (swapped)
		nr = bswap_64(nr);
	off += 8;
	if (nr < 2 || nr > (h->size - off) / 8)
		return false;
	off += 8 * (nr - 2);
	memcpy(&marker, p + off, 8);
	memcpy(cookie, p + off + 8, 8);
	if (swapped) {
		marker = bswap_64(marker);
		*cookie = bswap_64(*cookie);
	}
	if (marker != PERF_CONTEXT_USER_DEFERRED)
		return false;
	if (perf_evattr__parse_tid(ea, h, swapped, tid))
		*tid = (u32)-1;
	return true;
}

const char *perf_evattr__name(struct perf_evattr *ea)
{
	char buf[128];

	if (!ea)
		return "unknown";
	if (!ea->name) {
		perf_evattr__default_name(&ea->attr, buf, sizeof(buf));
		ea->name = strdup(buf);
		if (!ea->name)
			return "unknown";
	}
	return ea->name;
}
