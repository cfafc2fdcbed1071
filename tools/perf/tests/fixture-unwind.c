// SPDX-License-Identifier: GPL-2.0
/*
 * fixture-unwind.c - a --call-graph dwarf recording rewritten as our fallback recording
 * would have been written (fixture-unwind.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include "fixture-unwind.h"

/* the kernel's default kernel.perf_event_max_stack */
#define KERNEL_MAX_STACK	127
#define FALLBACK_REGS		((1ULL << PERF_REG_X86_BP) | (1ULL << PERF_REG_X86_SP) | \
				 (1ULL << PERF_REG_X86_IP))
#define MAX_CHAIN		(1024 + KERNEL_MAX_STACK + 2)

struct uc {
	struct perf_data	*data;
	struct perf_evattr	*orig;		/* the attrs as recorded, for parsing */
	size_t			nr_attrs;
	unsigned int		dump_size;
	u64			chain[MAX_CHAIN];
	u64			regs[3];
	u8			buf[65536];
	struct unwind_convert_stats *stats;
};

static bool reg_of(const struct perf_sample *s, int bit, u64 *val)
{
	if (!s->user_regs || !((s->user_regs_mask >> bit) & 1))
		return false;
	*val = s->user_regs[__builtin_popcountll(s->user_regs_mask & ((1ULL << bit) - 1))];
	return true;
}

static bool dump_word(const struct perf_sample *s, u64 sp, u64 addr, u64 *val)
{
	if (addr < sp || addr - sp > s->user_stack_dyn_size ||
	    s->user_stack_dyn_size - (addr - sp) < 8)
		return false;
	memcpy(val, s->user_stack + (addr - sp), 8);
	return true;
}

/* the sample's kernel part, then the kernel's user FP chain over the full dump */
static u64 uc__kernel_chain(struct uc *uc, const struct perf_sample *s, u64 ip, u64 sp, u64 fp)
{
	u64 n = 0, user = 0, next, ra;

	for (u64 i = 0; i < s->callchain_nr && n < MAX_CHAIN - KERNEL_MAX_STACK - 1; i++)
		uc->chain[n++] = s->callchain[i];
	uc->chain[n++] = PERF_CONTEXT_USER;
	uc->chain[n++] = ip;
	user++;
	while (user < KERNEL_MAX_STACK) {
		/* the kernel reads any user address; what we have is the dump */
		if (!dump_word(s, sp, fp, &next) || !dump_word(s, sp, fp + 8, &ra))
			break;
		uc->chain[n++] = ra;
		user++;
		fp = next;
	}
	uc->stats->user_frames += user;
	return n;
}

static int uc__sample(struct uc *uc, struct perf_writer *w, const struct perf_event_header *h,
		      struct perf_evattr *ea, u64 offset, struct perf_err *err)
{
	const u64 need = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	struct perf_err perr;
	struct perf_sample s;
	u64 ip, sp, fp;
	int size;

	if ((ea->attr.sample_type & need) != need)
		return perf_writer__write(w, h, err);
	if (perf_evattr__parse_sample(&uc->orig[ea->idx], h, false, NULL, &s, &perr))
		return perf_err__set(err, EINVAL, "sample at offset %#llx: %s",
				     (unsigned long long)offset, perr.msg);
	if (s.user_regs_abi != PERF_SAMPLE_REGS_ABI_64 || !reg_of(&s, PERF_REG_X86_IP, &ip) ||
	    !reg_of(&s, PERF_REG_X86_SP, &sp) || !reg_of(&s, PERF_REG_X86_BP, &fp)) {
		/* no user state (a kernel thread): nothing for the kernel to walk either */
		s.user_regs_abi = PERF_SAMPLE_REGS_ABI_NONE;
		s.user_regs_mask = 0;
		s.user_stack_size = 0;
		s.user_stack_dyn_size = 0;
	} else {
		s.callchain_nr = uc__kernel_chain(uc, &s, ip, sp, fp);
		s.callchain = uc->chain;
		uc->regs[0] = fp;
		uc->regs[1] = sp;
		uc->regs[2] = ip;
		s.user_regs = uc->regs;
		s.user_regs_mask = FALLBACK_REGS;
		if (s.user_stack_size > uc->dump_size)
			s.user_stack_size = uc->dump_size;
		if (s.user_stack_dyn_size > s.user_stack_size)
			s.user_stack_dyn_size = s.user_stack_size;
		uc->stats->samples++;
	}
	size = perf_sample__synthesize(&ea->attr, &s, false, uc->buf, sizeof(uc->buf), err);
	if (size < 0)
		return size;
	return perf_writer__write(w, (const void *)uc->buf, err);
}

static int uc__attrs(struct uc *uc, struct perf_err *err)
{
	uc->nr_attrs = perf_data__nr_attrs(uc->data);
	uc->orig = calloc(uc->nr_attrs ? uc->nr_attrs : 1, sizeof(*uc->orig));
	if (!uc->orig)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < uc->nr_attrs; i++) {
		struct perf_evattr *ea = perf_data__attr(uc->data, i);

		/* a shallow copy: parsing needs the recorded layout, not the written one */
		uc->orig[i] = *ea;
		if (!(ea->attr.sample_type & PERF_SAMPLE_STACK_USER))
			continue;
		ea->attr.flags &= ~PERF_ATTR_FLAG(EXCLUDE_CALLCHAIN_USER);
		ea->attr.sample_regs_user = FALLBACK_REGS;
		if (ea->attr.sample_stack_user > uc->dump_size)
			ea->attr.sample_stack_user = uc->dump_size;
	}
	return 0;
}

int unwind_fixture__convert(const char *in, const char *out, unsigned int dump_size,
			    struct unwind_convert_stats *stats, struct perf_err *err)
{
	struct unwind_convert_stats dummy;
	struct perf_data_record r;
	struct perf_writer *w = NULL;
	struct uc *uc;
	int ret;

	if (dump_size % 8)
		return perf_err__set(err, EINVAL, "the dump size %u is not a multiple of 8", dump_size);
	uc = calloc(1, sizeof(*uc));
	if (!uc)
		return perf_err__set(err, ENOMEM, "out of memory");
	memset(stats ? stats : &dummy, 0, sizeof(dummy));
	uc->stats = stats ? stats : &dummy;
	uc->dump_size = dump_size;
	uc->data = perf_data__open(in, err);
	if (!uc->data) {
		ret = -EINVAL;
		goto out_free;
	}
	if (perf_data__needs_swap(uc->data)) {
		ret = perf_err__set(err, EOPNOTSUPP, "%s: cross-endian input is not supported", in);
		goto out_close;
	}
	ret = uc__attrs(uc, err);
	if (ret)
		goto out_close;
	w = perf_writer__new(out, NULL, err);
	if (!w) {
		ret = -EIO;
		goto out_close;
	}
	ret = perf_writer__copy_header(w, uc->data, err);
	while (!ret && (ret = perf_data__next(uc->data, &r, err)) > 0) {
		const struct perf_event_header *h = r.header;
		struct perf_evattr *ea;

		/* the writer makes these itself from the attrs and features */
		switch (h->type) {
		case PERF_RECORD_HEADER_ATTR: case PERF_RECORD_HEADER_EVENT_TYPE:
		case PERF_RECORD_HEADER_TRACING_DATA: case PERF_RECORD_HEADER_FEATURE:
		case PERF_RECORD_COMPRESSED: case PERF_RECORD_COMPRESSED2:
			ret = 0;
			continue;
		default:
			break;
		}
		ea = h->type == PERF_RECORD_SAMPLE ? perf_data__attr_of(uc->data, h) : NULL;
		if (h->type == PERF_RECORD_SAMPLE && !ea) {
			ret = perf_err__set(err, EINVAL, "%s: sample at offset %#llx matches no attr",
					    in, (unsigned long long)r.file_offset);
			break;
		}
		ret = ea ? uc__sample(uc, w, h, ea, r.file_offset, err) : perf_writer__write(w, h, err);
	}
	if (!ret)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
out_close:
	perf_data__close(uc->data);
out_free:
	free(uc->orig);
	free(uc);
	return ret;
}

int unwind_got__sample(const struct perf_tool *tool, struct perf_session *session,
		       const struct perf_event_header *event, struct perf_sample *sample,
		       struct perf_evattr *evattr)
{
	struct unwind_got *g = &((struct unwind_got_tool *)(void *)tool)->got;
	u32 i = g->samples++;

	(void)session, (void)event;
	g->evattr = evattr;
	if (i >= UNWIND_GOT_SAMPLES || sample->callchain_nr > UNWIND_GOT_WORDS)
		return -E2BIG;
	g->nr[i] = (u32)sample->callchain_nr;
	memcpy(g->words[i], sample->callchain, sample->callchain_nr * sizeof(u64));
	g->has_origins[i] = sample->callchain_origin;
	if (sample->callchain_origin)
		memcpy(g->origins[i], sample->callchain_origin, sample->callchain_nr);
	return 0;
}
