// SPDX-License-Identifier: GPL-2.0
/* Comparing parsed samples (sample-cmp.h). */
#include <string.h>
#include "sample-cmp.h"

#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)

/* n bytes at a and b, either may be NULL only when n is 0 */
static bool same_bytes(const void *a, const void *b, u64 n)
{
	if (!n)
		return true;
	return a && b && !memcmp(a, b, (size_t)n);
}

bool sample__same(const struct perf_event_attr *attr, const struct perf_sample *a,
		  const struct perf_sample *b, const char **what)
{
	u64 type = attr->sample_type, rf = attr->read_format;
	const char *w = NULL;

#define CHECK(name, cond)			\
	do {					\
		if (!w && !(cond))		\
			w = name;		\
	} while (0)

	CHECK("misc", a->misc == b->misc && a->cpumode == b->cpumode);
	if (type & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
		CHECK("id", a->id == b->id);
	if (type & PERF_SAMPLE_IP)
		CHECK("ip", a->ip == b->ip);
	if (type & PERF_SAMPLE_TID)
		CHECK("tid", a->pid == b->pid && a->tid == b->tid);
	if (type & PERF_SAMPLE_TIME)
		CHECK("time", a->time == b->time && a->has_time == b->has_time);
	if (type & PERF_SAMPLE_ADDR)
		CHECK("addr", a->addr == b->addr);
	if (type & PERF_SAMPLE_STREAM_ID)
		CHECK("stream_id", a->stream_id == b->stream_id);
	if (type & PERF_SAMPLE_CPU)
		CHECK("cpu", a->cpu == b->cpu);
	if (type & PERF_SAMPLE_PERIOD)
		CHECK("period", a->period == b->period);
	if (type & PERF_SAMPLE_READ) {
		const struct perf_sample_read *x = &a->read, *y = &b->read;

		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			CHECK("read time_enabled", x->time_enabled == y->time_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			CHECK("read time_running", x->time_running == y->time_running);
		if (rf & PERF_FORMAT_GROUP) {
			u64 per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

			CHECK("read nr", x->nr == y->nr);
			CHECK("read group", x->nr != y->nr || same_bytes(x->group, y->group, x->nr * per * 8));
		} else {
			CHECK("read value", x->one.value == y->one.value);
			if (rf & PERF_FORMAT_ID)
				CHECK("read id", x->one.id == y->one.id);
			if (rf & PERF_FORMAT_LOST)
				CHECK("read lost", x->one.lost == y->one.lost);
		}
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		CHECK("callchain nr", a->callchain_nr == b->callchain_nr);
		CHECK("callchain", a->callchain_nr != b->callchain_nr ||
		      same_bytes(a->callchain, b->callchain, a->callchain_nr * 8));
		CHECK("deferred", a->deferred_callchain == b->deferred_callchain &&
		      (!a->deferred_callchain || a->deferred_cookie == b->deferred_cookie));
	}
	if (type & PERF_SAMPLE_RAW) {
		CHECK("raw size", a->raw_size == b->raw_size);
		CHECK("raw data", a->raw_size != b->raw_size ||
		      same_bytes(a->raw_data, b->raw_data, a->raw_size));
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		CHECK("branch nr", a->branch_nr == b->branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			CHECK("branch hw_idx", a->branch_has_hw_idx == b->branch_has_hw_idx &&
			      a->branch_hw_idx == b->branch_hw_idx);
		CHECK("branch stack", a->branch_nr != b->branch_nr ||
		      same_bytes(a->branches, b->branches, a->branch_nr * sizeof(*a->branches)));
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			CHECK("branch counters", a->branch_nr != b->branch_nr ||
			      same_bytes(a->branch_counters, b->branch_counters, a->branch_nr * 8));
	}
	if (type & PERF_SAMPLE_REGS_USER) {
		CHECK("user regs abi", a->user_regs_abi == b->user_regs_abi &&
		      a->user_regs_mask == b->user_regs_mask);
		if (a->user_regs_abi)
			CHECK("user regs", same_bytes(a->user_regs, b->user_regs,
						      8 * (u64)__builtin_popcountll(attr->sample_regs_user)));
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		CHECK("user stack size", a->user_stack_size == b->user_stack_size);
		CHECK("user stack", a->user_stack_size != b->user_stack_size ||
		      same_bytes(a->user_stack, b->user_stack, a->user_stack_size));
		CHECK("user stack dyn_size", a->user_stack_dyn_size == b->user_stack_dyn_size);
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		CHECK("weight", a->weight == b->weight && a->ins_lat == b->ins_lat &&
		      a->p_stage_cyc == b->p_stage_cyc);
	if (type & PERF_SAMPLE_DATA_SRC)
		CHECK("data_src", a->data_src == b->data_src);
	if (type & PERF_SAMPLE_TRANSACTION)
		CHECK("transaction", a->transaction == b->transaction);
	if (type & PERF_SAMPLE_REGS_INTR) {
		CHECK("intr regs abi", a->intr_regs_abi == b->intr_regs_abi &&
		      a->intr_regs_mask == b->intr_regs_mask);
		if (a->intr_regs_abi)
			CHECK("intr regs", same_bytes(a->intr_regs, b->intr_regs,
						      8 * (u64)__builtin_popcountll(attr->sample_regs_intr)));
	}
	if (type & PERF_SAMPLE_PHYS_ADDR)
		CHECK("phys_addr", a->phys_addr == b->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		CHECK("cgroup", a->cgroup == b->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		CHECK("data_page_size", a->data_page_size == b->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		CHECK("code_page_size", a->code_page_size == b->code_page_size);
	if (type & PERF_SAMPLE_AUX) {
		CHECK("aux size", a->aux_size == b->aux_size);
		CHECK("aux data", a->aux_size != b->aux_size ||
		      same_bytes(a->aux_data, b->aux_data, a->aux_size));
	}
#undef CHECK
	if (what)
		*what = w;
	return !w;
}
