// SPDX-License-Identifier: GPL-2.0
/*
 * Records from their parsed form (synthesize.h). A sample is written field by field in the
 * kernel's order (perf_output_sample()), exactly as evattr.c reads it, in either byte order.
 * Swapping a sample body is then a parse in one order and a synthesis in the other: the
 * parser and this file are the only two walks of the sample's fields.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>
#include <perf/data.h>
#include <perf/record.h>
#include <perf/synthesize.h>
#include "swap-out.h"

#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#define MAX_RECORD_SIZE			65535

/* ---- writing -------------------------------------------------------------------------------- */

struct synth_buf {
	u8		*p;
	size_t		pos, len;
	bool		swap;		/* numbers in the other byte order */
	const char	*field;		/* the first field that did not fit */
};

static void synth__bytes(struct synth_buf *b, const char *field, const void *src, size_t n)
{
	if (b->field)
		return;
	if (n > b->len - b->pos) {
		b->field = field;
		return;
	}
	if (n)
		memcpy(b->p + b->pos, src, n);
	b->pos += n;
}

static void synth__zeros(struct synth_buf *b, const char *field, size_t n)
{
	if (b->field)
		return;
	if (n > b->len - b->pos) {
		b->field = field;
		return;
	}
	memset(b->p + b->pos, 0, n);
	b->pos += n;
}

static void synth__u64(struct synth_buf *b, const char *field, u64 v)
{
	if (b->swap)
		v = bswap_64(v);
	synth__bytes(b, field, &v, 8);
}

static void synth__u32(struct synth_buf *b, const char *field, u32 v)
{
	if (b->swap)
		v = bswap_32(v);
	synth__bytes(b, field, &v, 4);
}

/* pid/tid, cpu/res: two u32, each in the output's order in its own place */
static void synth__u32_pair(struct synth_buf *b, const char *field, u32 lo, u32 hi)
{
	synth__u32(b, field, lo);
	synth__u32(b, field, hi);
}

/* n u64 words; a NULL array with n > 0 is a sample no parser made */
static void synth__u64s(struct synth_buf *b, const char *field, const void *v, u64 n)
{
	if (n && !v) {
		b->field = b->field ? b->field : field;
		return;
	}
	if (n > (b->len - b->pos) / 8) {
		b->field = b->field ? b->field : field;
		return;
	}
	synth__bytes(b, field, v, (size_t)n * 8);
	if (b->swap && !b->field) {
		u8 *p = b->p + b->pos - (size_t)n * 8;

		for (u64 i = 0; i < n; i++, p += 8) {
			u64 w;

			memcpy(&w, p, 8);
			w = bswap_64(w);
			memcpy(p, &w, 8);
		}
	}
}

static void synth__init(struct synth_buf *b, void *buf, size_t len, bool swap)
{
	b->p = buf;
	b->pos = 0;
	b->len = len < MAX_RECORD_SIZE ? len : MAX_RECORD_SIZE;
	b->swap = swap;
	b->field = NULL;
}

static void synth__regs(struct synth_buf *b, const char *field, u64 abi, u64 mask,
			const u64 *regs)
{
	synth__u64(b, field, abi);
	if (abi != PERF_SAMPLE_REGS_ABI_NONE)
		synth__u64s(b, field, regs, (u64)__builtin_popcountll(mask));
}

static void synth__read(struct synth_buf *b, u64 read_format, const struct perf_sample_read *r)
{
	if (read_format & PERF_FORMAT_GROUP) {
		u64 per = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);

		synth__u64(b, "read", r->nr);
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			synth__u64(b, "read", r->time_enabled);
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			synth__u64(b, "read", r->time_running);
		if (r->nr > (u64)MAX_RECORD_SIZE / 8 / per) {
			b->field = b->field ? b->field : "read";
			return;
		}
		synth__u64s(b, "read", r->group, r->nr * per);
		return;
	}
	synth__u64(b, "read", r->one.value);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		synth__u64(b, "read", r->time_enabled);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		synth__u64(b, "read", r->time_running);
	if (read_format & PERF_FORMAT_ID)
		synth__u64(b, "read", r->one.id);
	if (read_format & PERF_FORMAT_LOST)
		synth__u64(b, "read", r->one.lost);
}

/*
 * TID TIME [ADDR] ID STREAM_ID CPU: the run of fields a sample and a sample_id trailer share
 * (a trailer has no ADDR: its caller takes the bit out)
 */
static void synth__id_run(struct synth_buf *b, u64 type, const struct perf_sample *s)
{
	if (type & PERF_SAMPLE_TID)
		synth__u32_pair(b, "tid", s->pid, s->tid);
	if (type & PERF_SAMPLE_TIME)
		synth__u64(b, "time", s->time);
	if (type & PERF_SAMPLE_ADDR)
		synth__u64(b, "addr", s->addr);
	if (type & PERF_SAMPLE_ID)
		synth__u64(b, "id", s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		synth__u64(b, "stream_id", s->stream_id);
	if (type & PERF_SAMPLE_CPU)
		synth__u32_pair(b, "cpu", s->cpu, 0);
}

static void synth__body(struct synth_buf *b, const struct perf_event_attr *attr,
			const struct perf_sample *s)
{
	u64 type = attr->sample_type;

	if (type & PERF_SAMPLE_IDENTIFIER)
		synth__u64(b, "identifier", s->id);
	if (type & PERF_SAMPLE_IP)
		synth__u64(b, "ip", s->ip);
	synth__id_run(b, type, s);
	if (type & PERF_SAMPLE_PERIOD)
		synth__u64(b, "period", s->period);
	if (type & PERF_SAMPLE_READ)
		synth__read(b, attr->read_format, &s->read);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		synth__u64(b, "callchain nr", s->callchain_nr);
		synth__u64s(b, "callchain", s->callchain, s->callchain_nr);
	}
	if (type & PERF_SAMPLE_RAW) {
		/* u32 size + data, padded to a u64 boundary */
		synth__u32(b, "raw size", s->raw_size);
		if (s->raw_size && !s->raw_data)
			b->field = b->field ? b->field : "raw data";
		synth__bytes(b, "raw data", s->raw_data, s->raw_size);
		synth__zeros(b, "raw padding", (8 - (4 + (size_t)s->raw_size) % 8) % 8);
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		synth__u64(b, "branch nr", s->branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			synth__u64(b, "branch hw_idx", s->branch_hw_idx);
		if (s->branch_nr > (u64)MAX_RECORD_SIZE / sizeof(struct perf_branch_entry)) {
			b->field = b->field ? b->field : "branch stack";
			return;
		}
		synth__u64s(b, "branch stack", s->branches, s->branch_nr * 3);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			synth__u64s(b, "branch counters", s->branch_counters, s->branch_nr);
	}
	if (type & PERF_SAMPLE_REGS_USER)
		synth__regs(b, "user regs", s->user_regs_abi, attr->sample_regs_user, s->user_regs);
	if (type & PERF_SAMPLE_STACK_USER) {
		synth__u64(b, "user stack size", s->user_stack_size);
		if (s->user_stack_size > MAX_RECORD_SIZE || (s->user_stack_size && !s->user_stack))
			b->field = b->field ? b->field : "user stack";
		else
			synth__bytes(b, "user stack", s->user_stack, (size_t)s->user_stack_size);
		if (s->user_stack_size)
			synth__u64(b, "user stack dyn_size", s->user_stack_dyn_size);
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		u64 v = s->weight;

		if (type & PERF_SAMPLE_WEIGHT_STRUCT)
			v = (s->weight & 0xffffffff) | (u64)s->ins_lat << 32 | (u64)s->p_stage_cyc << 48;
		synth__u64(b, "weight", v);
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		synth__u64(b, "data_src", s->data_src);
	if (type & PERF_SAMPLE_TRANSACTION)
		synth__u64(b, "transaction", s->transaction);
	if (type & PERF_SAMPLE_REGS_INTR)
		synth__regs(b, "intr regs", s->intr_regs_abi, attr->sample_regs_intr, s->intr_regs);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		synth__u64(b, "phys_addr", s->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		synth__u64(b, "cgroup", s->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		synth__u64(b, "data_page_size", s->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		synth__u64(b, "code_page_size", s->code_page_size);
	if (type & PERF_SAMPLE_AUX) {
		synth__u64(b, "aux size", s->aux_size);
		if (s->aux_size > MAX_RECORD_SIZE || (s->aux_size && !s->aux_data))
			b->field = b->field ? b->field : "aux data";
		else
			synth__bytes(b, "aux data", s->aux_data, (size_t)s->aux_size);
	}
}

int perf_sample__synthesize(const struct perf_event_attr *attr, const struct perf_sample *s,
			    bool cross_endian, void *buf, size_t len, struct perf_err *err)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = s->misc };
	struct synth_buf b;

	synth__init(&b, buf, len, cross_endian);
	synth__zeros(&b, "header", sizeof(h));
	synth__body(&b, attr, s);
	if (b.field) {
		perf_err__set(err, E2BIG, "sample field '%s' does not fit a record of at most %zu bytes",
			      b.field, b.len);
		return -E2BIG;
	}
	h.size = (u16)b.pos;
	if (cross_endian)
		perf_header__swap_out(&h);
	memcpy(buf, &h, sizeof(h));
	return (int)b.pos;
}

/* the trailer's fields in order, in b's byte order */
static void synth__id(struct synth_buf *b, const struct perf_event_attr *attr,
		      const struct perf_sample *s)
{
	u64 type = attr->sample_type;

	if (!perf_attr__has(attr, PERF_ATTR_BIT_SAMPLE_ID_ALL))
		return;
	synth__id_run(b, type & ~(u64)PERF_SAMPLE_ADDR, s);
	if (type & PERF_SAMPLE_IDENTIFIER)
		synth__u64(b, "identifier", s->id);
}

/* ---- swapping a sample ---------------------------------------------------------------------- */

int perf_sample__swap(const struct perf_event_attr *attr, struct perf_event_header *h,
		      bool to_host, struct perf_err *err)
{
	/* a record's arrays, and the record again: at most 64 KiB each */
	u64 scratch[(MAX_RECORD_SIZE + 1) / 8], out[(MAX_RECORD_SIZE + 1) / 8];
	struct perf_evattr ea;
	struct perf_sample s;
	int n;

	if (h->size < sizeof(*h))
		return perf_err__set(err, EINVAL, "sample record of %u bytes is smaller than its header", h->size);
	memset(&ea, 0, sizeof(ea));
	ea.attr = *attr;
	if (perf_evattr__parse_sample(&ea, h, to_host, scratch, &s, err))
		return -EINVAL;
	n = perf_sample__synthesize(attr, &s, !to_host, out, sizeof(out), err);
	if (n < 0)
		return n;
	/* the header stays as it is; bytes past the last field too (the kernel writes none) */
	memcpy(h + 1, (const u8 *)out + sizeof(*h), (size_t)n - sizeof(*h));
	return 0;
}

/* ---- side-band records --------------------------------------------------------------------- */

/* the header's place first; record__finish() fills it in */
static void record__init(struct synth_buf *b, void *buf, size_t len)
{
	synth__init(b, buf, len, false);
	synth__zeros(b, "header", sizeof(struct perf_event_header));
}

/* a NUL-terminated string padded to u64 words, as the kernel pads names */
static void synth__string(struct synth_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;

	synth__bytes(b, "string", s, n);
	synth__zeros(b, "string", (8 - n % 8) % 8);
}

static int record__finish(struct synth_buf *b, const struct perf_event_attr *attr,
			  const struct perf_sample *id, u32 type, u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	if (attr && id)
		synth__id(b, attr, id);
	if (b->field)
		return -E2BIG;
	h.size = (u16)b->pos;
	memcpy(b->p, &h, sizeof(h));
	return (int)b->pos;
}

int perf_sample__synthesize_id(const struct perf_event_attr *attr, const struct perf_sample *s,
			       bool cross_endian, void *buf, size_t len)
{
	struct synth_buf b;
	u64 rec[6];	/* the six trailer words at most */

	synth__init(&b, rec, sizeof(rec), cross_endian);
	synth__id(&b, attr, s);
	if (b.pos > len)
		return -E2BIG;
	memcpy(buf, rec, b.pos);
	return (int)b.pos;
}

int perf_record_comm__synthesize(void *buf, size_t len, const struct perf_event_attr *attr,
				 const struct perf_sample *id, const char *comm, bool exec)
{
	struct synth_buf b;

	record__init(&b, buf, len);
	synth__u32_pair(&b, "pid", id->pid, id->tid);
	synth__string(&b, comm);
	return record__finish(&b, attr, id, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
}

int perf_record_mmap2__synthesize(void *buf, size_t len, const struct perf_event_attr *attr,
				  const struct perf_sample *id, const struct perf_record_mmap2 *m,
				  const char *filename)
{
	struct synth_buf b;

	record__init(&b, buf, len);
	synth__bytes(&b, "mmap2", &m->pid, sizeof(*m) - sizeof(m->header));
	synth__string(&b, filename);
	return record__finish(&b, attr, id, PERF_RECORD_MMAP2, m->header.misc);
}

int perf_record_task__synthesize(void *buf, size_t len, const struct perf_event_attr *attr,
				 const struct perf_sample *id, u32 type, u32 ppid, u32 ptid)
{
	struct synth_buf b;

	if (type != PERF_RECORD_FORK && type != PERF_RECORD_EXIT)
		return -EINVAL;
	record__init(&b, buf, len);
	synth__u32_pair(&b, "pid", id->pid, ppid);
	synth__u32_pair(&b, "tid", id->tid, ptid);
	synth__u64(&b, "time", id->time);
	return record__finish(&b, attr, id, type, 0);
}

int perf_record_callchain_deferred__synthesize(void *buf, size_t len,
					       const struct perf_event_attr *attr,
					       const struct perf_sample *id, u64 cookie,
					       const u64 *ips, u64 nr)
{
	struct synth_buf b;

	record__init(&b, buf, len);
	synth__u64(&b, "cookie", cookie);
	synth__u64(&b, "nr", nr);
	synth__u64s(&b, "ips", ips, nr);
	/* the kernel marks it as user-space data */
	return record__finish(&b, attr, id, PERF_RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER);
}

int perf_record_finished_round__synthesize(void *buf, size_t len)
{
	struct synth_buf b;

	record__init(&b, buf, len);
	return record__finish(&b, NULL, NULL, PERF_RECORD_FINISHED_ROUND, 0);
}
