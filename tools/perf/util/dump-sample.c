// SPDX-License-Identifier: GPL-2.0
/*
 * -D output of sample bodies and deferred callchains: the fields perf's dump_sample() shows,
 * in its order and format. Everything comes from the parsed struct perf_sample; the only
 * raw reads are the deferred record's ips and the user stack's offset, both bounded by the
 * record.
 */
#include <inttypes.h>
#include <string.h>
#include <perf/kernel.h>
#include "dump-internal.h"
#include "perf-regs.h"

#define BRANCH_CALL_STACK	(1ULL << 11)	/* PERF_SAMPLE_BRANCH_CALL_STACK */

static const char *callchain_context_str(u64 ip)
{
	switch (ip) {
	case PERF_CONTEXT_HV:			return " (PERF_CONTEXT_HV)";
	case PERF_CONTEXT_KERNEL:		return " (PERF_CONTEXT_KERNEL)";
	case PERF_CONTEXT_USER:			return " (PERF_CONTEXT_USER)";
	case PERF_CONTEXT_GUEST:		return " (PERF_CONTEXT_GUEST)";
	case PERF_CONTEXT_GUEST_KERNEL:		return " (PERF_CONTEXT_GUEST_KERNEL)";
	case PERF_CONTEXT_GUEST_USER:		return " (PERF_CONTEXT_GUEST_USER)";
	case PERF_CONTEXT_USER_DEFERRED:	return " (PERF_CONTEXT_USER_DEFERRED)";
	default:				return "";
	}
}

static bool has_branch_callstack(const struct perf_event_attr *attr)
{
	return (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       (attr->branch_sample_type & BRANCH_CALL_STACK);
}

/*
 * An LBR call stack is printed first as the chain perf rebuilds from it: the kernel part of
 * the callchain up to PERF_CONTEXT_USER, the first branch's target, then every source.
 */
static void dump__lbr_callstack(FILE *fp, const struct perf_sample *s)
{
	u64 i, nr_kernel;

	for (i = 0; i < s->callchain_nr; i++)
		if (s->callchain[i] == PERF_CONTEXT_USER)
			break;
	if (i == s->callchain_nr || !s->branch_nr)
		return;
	nr_kernel = i + 1;
	fprintf(fp, "... LBR call chain: nr:%" PRIu64 "\n", nr_kernel + s->branch_nr + 1);
	for (i = 0; i < nr_kernel; i++)
		fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain[i]);
	fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)nr_kernel, s->branches[0].to);
	for (i = 0; i < s->branch_nr; i++)
		fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)(i + nr_kernel + 1),
			s->branches[i].from);
}

static void dump__callchain(FILE *fp, const u64 *ips, u64 nr, bool deferred)
{
	fprintf(fp, "... FP chain: nr:%" PRIu64 "\n", nr);
	for (u64 i = 0; i < nr; i++)
		fprintf(fp, "..... %2d: %016" PRIx64 "%s\n", (int)i, ips[i], callchain_context_str(ips[i]));
	if (deferred)
		fprintf(fp, "...... (deferred)\n");
}

/* perf_branch_entry.flags, as the kernel's bitfield lays it out on little-endian */
#define BR_MISPRED(f)	((f) & 1)
#define BR_PREDICTED(f)	(((f) >> 1) & 1)
#define BR_IN_TX(f)	(((f) >> 2) & 1)
#define BR_ABORT(f)	(((f) >> 3) & 1)
#define BR_CYCLES(f)	(((f) >> 4) & 0xffff)
#define BR_TYPE(f)	(((f) >> 20) & 0xf)
#define BR_SPEC(f)	(((f) >> 24) & 0x3)
#define BR_NEW_TYPE(f)	(((f) >> 26) & 0xf)
#define BR_RESERVED(f)	((f) >> 33)

#define PERF_BR_EXTEND_ABI	15

static const char *branch_type_str(u64 flags)
{
	static const char *const types[16] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
	};
	static const char *const new_types[16] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};
	const char *name;

	if (BR_TYPE(flags) == 0)
		return "";
	if (BR_TYPE(flags) == PERF_BR_EXTEND_ABI) {
		name = new_types[BR_NEW_TYPE(flags)];
		return name ? name : "N/A";
	}
	return types[BR_TYPE(flags)];
}

static const char *branch_spec_str(u64 flags)
{
	static const char *const spec[4] = {
		"N/A", "SPEC_WRONG_PATH", "NON_SPEC_CORRECT_PATH", "SPEC_CORRECT_PATH",
	};

	return BR_SPEC(flags) ? spec[BR_SPEC(flags)] : "";
}

static void dump__branch_stack(FILE *fp, const struct perf_sample *s, bool callstack)
{
	if (!callstack)
		fprintf(fp, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
	else	/* the call stack has one more frame: the first branch's target */
		fprintf(fp, "... branch callstack: nr:%" PRIu64 "\n", s->branch_nr + 1);

	for (u64 i = 0; i < s->branch_nr; i++) {
		const struct perf_branch_entry *e = &s->branches[i];

		if (!callstack) {
			fprintf(fp, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
				" %hu cycles %s%s%s%s %x %s %s\n",
				i, e->from, e->to, (unsigned short)BR_CYCLES(e->flags),
				BR_MISPRED(e->flags) ? "M" : " ", BR_PREDICTED(e->flags) ? "P" : " ",
				BR_ABORT(e->flags) ? "A" : " ", BR_IN_TX(e->flags) ? "T" : " ",
				(unsigned int)BR_RESERVED(e->flags), branch_type_str(e->flags),
				branch_spec_str(e->flags));
		} else if (i == 0) {
			fprintf(fp, "..... %2" PRIu64 ": %016" PRIx64 "\n..... %2" PRIu64 ": %016" PRIx64 "\n",
				i, e->to, i + 1, e->from);
		} else {
			fprintf(fp, "..... %2" PRIu64 ": %016" PRIx64 "\n", i + 1, e->from);
		}
	}
}

static void dump__regs(FILE *fp, const char *type, u64 abi, u64 mask, const u64 *regs)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	unsigned int i = 0;

	if (abi == PERF_SAMPLE_REGS_ABI_NONE || !regs)
		return;
	fprintf(fp, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", type, mask,
		abi <= PERF_SAMPLE_REGS_ABI_64 ? abis[abi] : "unknown");
	for (unsigned int rid = 0; rid < 64; rid++) {
		if (!(mask & (1ULL << rid)))
			continue;
		fprintf(fp, ".... %-5s 0x%016" PRIx64 "\n", perf_reg__name(rid), regs[i++]);
	}
}

/* "4K", "2M": perf's unit_number__scnprintf(), "N/A" for 0 */
static void dump__page_size(FILE *fp, const char *what, u64 size)
{
	static const char units[] = "BKMG";
	unsigned int i = 0;

	if (!size) {
		fprintf(fp, " .. %s page size: N/A\n", what);
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	fprintf(fp, " .. %s page size: %" PRIu64 "%c\n", what, size, units[i]);
}

static u64 read_word(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void dump__sample_read(FILE *fp, const struct perf_sample *s, u64 read_format)
{
	const struct perf_sample_read *r = &s->read;

	fprintf(fp, "... sample_read:\n");
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(fp, "...... time enabled %016" PRIx64 "\n", r->time_enabled);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(fp, "...... time running %016" PRIx64 "\n", r->time_running);
	if (!(read_format & PERF_FORMAT_GROUP)) {
		fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, r->one.id, r->one.value);
		if (read_format & PERF_FORMAT_LOST)
			fprintf(fp, ", lost %" PRIu64, r->one.lost);
		fprintf(fp, "\n");
		return;
	}
	fprintf(fp, ".... group nr %" PRIu64 "\n", r->nr);
	if (!r->group)
		return;
	{
		size_t stride = 8 * (1 + !!(read_format & PERF_FORMAT_ID) +
				     !!(read_format & PERF_FORMAT_LOST));
		size_t total = stride * (size_t)r->nr;

		for (size_t off = 0; off < total; off += stride) {
			/* perf reads each entry as {value, id, lost} whatever the stride */
			u64 value = read_word(r->group + off);
			u64 id = off + 16 <= total ? read_word(r->group + off + 8) : 0;

			fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, id, value);
			if (read_format & PERF_FORMAT_LOST) {
				u64 lost = off + 24 <= total ?
					   read_word(r->group + off + 16) : 0;

				fprintf(fp, ", lost %" PRIu64, lost);
			}
			fprintf(fp, "\n");
		}
	}
}

void dump__sample(FILE *fp, const struct perf_event_header *event, const struct perf_sample *s,
		  const struct perf_evattr *ea)
{
	const struct perf_event_attr *attr = &ea->attr;
	u64 type = attr->sample_type;
	/* perf shows the attr's period for samples that carry none */
	u64 period = (type & PERF_SAMPLE_PERIOD) ? s->period : attr->sample_period;

	fprintf(fp, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		event->misc, (int)s->pid, (int)s->tid, s->ip, period, s->addr);

	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (has_branch_callstack(attr))
			dump__lbr_callstack(fp, s);
		dump__callchain(fp, s->callchain, s->callchain_nr, s->deferred_callchain);
	}
	if ((type & PERF_SAMPLE_BRANCH_STACK) && s->branches)
		dump__branch_stack(fp, s, has_branch_callstack(attr));
	if (type & PERF_SAMPLE_REGS_USER)
		dump__regs(fp, "user", s->user_regs_abi, s->user_regs_mask, s->user_regs);
	if (type & PERF_SAMPLE_REGS_INTR)
		dump__regs(fp, "intr", s->intr_regs_abi, s->intr_regs_mask, s->intr_regs);
	if (type & PERF_SAMPLE_STACK_USER) {
		/* perf shows where the stack's size word sits in the record */
		unsigned int offset = s->user_stack ?
			(unsigned int)(s->user_stack - (const u8 *)event - 8) : 0;

		fprintf(fp, "... ustack: size %" PRIu64 ", offset 0x%x\n",
			s->user_stack_size ? s->user_stack_dyn_size : 0, offset);
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		fprintf(fp, "... weight: %" PRIu64, s->weight);
		if (type & PERF_SAMPLE_WEIGHT_STRUCT)
			fprintf(fp, ",0x%" PRIx16 ",0x%" PRIx16, s->ins_lat, s->p_stage_cyc);
		fprintf(fp, "\n");
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		fprintf(fp, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		fprintf(fp, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		dump__page_size(fp, "data", s->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		dump__page_size(fp, "code", s->code_page_size);
	if (type & PERF_SAMPLE_TRANSACTION)
		fprintf(fp, "... transaction: %" PRIx64 "\n", s->transaction);
	if (type & PERF_SAMPLE_READ)
		dump__sample_read(fp, s, attr->read_format);
}

void dump__deferred(FILE *fp, const struct perf_event_header *event,
		    const struct perf_sample *s, const struct perf_evattr *ea)
{
	const struct perf_record_callchain_deferred *d = (const void *)event;
	size_t trailer = ea ? ea->id_hdr_size : 0;
	size_t room = 0;
	u64 nr = 0;

	if (event->size >= sizeof(*d)) {
		room = (event->size - sizeof(*d)) / 8;
		room = room > trailer / 8 ? room - trailer / 8 : 0;
	}
	fprintf(fp, "(IP, 0x%x): %d/%d: %#" PRIx64 "\n", event->misc, (int)s->pid, (int)s->tid,
		event->size >= sizeof(*d) ? d->cookie : 0);
	if (!ea || !(ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return;
	if (event->size >= sizeof(*d))
		nr = d->nr;
	if (nr > room) {
		fprintf(fp, "... FP chain: nr:%" PRIu64 " (only %zu ips fit the record)\n", nr, room);
		nr = room;
		for (u64 i = 0; i < nr; i++)
			fprintf(fp, "..... %2d: %016" PRIx64 "%s\n", (int)i, d->ips[i],
				callchain_context_str(d->ips[i]));
		return;
	}
	dump__callchain(fp, d->ips, nr, false);
}
