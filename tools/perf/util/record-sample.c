// SPDX-License-Identifier: GPL-2.0
/* perf record's sample-field and sampling options. See record-sample.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "clockid.h"
#include "parse-options.h"
#include "perf-regs.h"
#include "record-sample.h"

/* branch_sample_type bits (include/uapi/linux/perf_event.h) */
#define BRANCH_USER		(1ULL << 0)
#define BRANCH_KERNEL		(1ULL << 1)
#define BRANCH_HV		(1ULL << 2)
#define BRANCH_ANY		(1ULL << 3)
#define BRANCH_PLM		(BRANCH_USER | BRANCH_KERNEL | BRANCH_HV)

/* -j's words, perf 6.1's list */
static const struct {
	const char	*name;
	u64		bit;
} branch_modes[] = {
	{ "u", BRANCH_USER },
	{ "k", BRANCH_KERNEL },
	{ "hv", BRANCH_HV },
	{ "any", BRANCH_ANY },
	{ "any_call", 1ULL << 4 },
	{ "any_ret", 1ULL << 5 },
	{ "ind_call", 1ULL << 6 },
	{ "abort_tx", 1ULL << 7 },
	{ "in_tx", 1ULL << 8 },
	{ "no_tx", 1ULL << 9 },
	{ "cond", 1ULL << 10 },
	{ "stack", 1ULL << 11 },	/* CALL_STACK */
	{ "ind_jmp", 1ULL << 12 },
	{ "call", 1ULL << 13 },
	{ "save_type", 1ULL << 16 },	/* TYPE_SAVE */
	{ "priv", 1ULL << 18 },		/* PRIV_SAVE */
};

void record_sample__config_attr(const struct record_sample_opts *o, struct perf_event_attr *a,
				const struct record_sample_where *where)
{
	bool no_time = o->timestamp_set && !o->timestamp;

	if (o->no_samples)
		a->sample_period = 0;	/* sample_freq too: the same field */
	if (o->inherit_stat) {
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
				  PERF_FORMAT_ID;
		a->flags |= PERF_ATTR_FLAG(INHERIT_STAT);
	}
	if (o->data) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		if (where->tracking)
			a->flags |= PERF_ATTR_FLAG(MMAP_DATA);
	}
	if (o->phys_data)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (o->data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (o->code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (o->intr_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->intr_regs;
	}
	if (o->user_regs) {
		/* beside --call-graph dwarf's own: perf asks for both */
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->user_regs;
	}
	/* --no-timestamp only keeps TIME from being added: a tracepoint has it of its own */
	if (!no_time && (where->time_by_default || o->timestamp_set))
		a->sample_type |= PERF_SAMPLE_TIME;
	if (o->raw)
		a->sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (o->branch) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch;
	}
	if (o->weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (o->period_set) {
		if (o->period)
			a->sample_type |= PERF_SAMPLE_PERIOD;
		else
			a->sample_type &= ~PERF_SAMPLE_PERIOD;
	}
	if (o->use_clockid) {
		a->flags |= PERF_ATTR_FLAG(USE_CLOCKID);
		a->clockid = o->clockid;
	}
}

int record_sample__opt_timestamp(const struct option *opt, const char *arg, bool unset)
{
	struct record_sample_opts *o = opt->value;

	(void)arg;
	o->timestamp = !unset;
	o->timestamp_set = true;
	return 0;
}

int record_sample__opt_period(const struct option *opt, const char *arg, bool unset)
{
	struct record_sample_opts *o = opt->value;

	(void)arg;
	o->period = !unset;
	o->period_set = true;
	return 0;
}

int record_sample__opt_clockid(const struct option *opt, const char *arg, bool unset)
{
	struct record_sample_opts *o = opt->value;
	struct timespec res;
	int clockid;

	if (unset) {
		o->use_clockid = false;
		return 0;
	}
	/* perf refuses a second -k rather than pick one */
	if (o->use_clockid)
		return parse_options__error(opt, false, "given twice: one clock for all events");
	if (clockid__parse(arg, &clockid))
		return parse_options__error(opt, false,
					    "unknown clock '%s': monotonic, monotonic_raw, realtime, boottime, tai or a clockid number (see clock_gettime(2))",
					    arg);
	if (clock_getres(clockid, &res))
		return parse_options__error(opt, false, "clock '%s' (%d): not a clock of this machine: %m",
					    arg, clockid);
	o->use_clockid = true;
	o->clockid = clockid;
	return 0;
}

/* --user-regs and -I: NULL is every register, "?" lists them */
static int opt_regs(const struct option *opt, const char *arg, bool unset, u64 *mask,
		    const char *list_hint)
{
	const char *bad;
	char buf[256];

	if (unset) {
		*mask = 0;
		return 0;
	}
	if (!arg) {
		*mask = PERF_REGS_X86_64_USER_MASK;
		return 0;
	}
	if (!strcmp(arg, "?")) {
		/* perf's listing, then the usage and exit 129, as perf does */
		perf_regs__fprintf_names(stderr);
		return -1;
	}
	if (perf_regs__parse(arg, mask, buf, sizeof(buf), &bad))
		return parse_options__error(opt, false,
					    "unknown register \"%s\", check man page or run \"perf record %s?\"",
					    bad, list_hint);
	return 0;
}

int record_sample__opt_user_regs(const struct option *opt, const char *arg, bool unset)
{
	struct record_sample_opts *o = opt->value;

	return opt_regs(opt, arg, unset, &o->user_regs, "--user-regs=");
}

int record_sample__opt_intr_regs(const struct option *opt, const char *arg, bool unset)
{
	struct record_sample_opts *o = opt->value;

	return opt_regs(opt, arg, unset, &o->intr_regs, "-I");
}

static int branch__conflict(const struct option *opt)
{
	return parse_options__error(opt, false,
				    "can't use --branch-any (-b) with --branch-filter (-j), or either twice");
}

int record_sample__opt_branch_any(const struct option *opt, const char *arg, bool unset)
{
	struct record_sample_opts *o = opt->value;

	(void)arg;
	if (unset) {
		o->branch = 0;
		return 0;
	}
	if (o->branch)
		return branch__conflict(opt);
	o->branch = BRANCH_ANY;
	return 0;
}

int record_sample__opt_branch_filter(const struct option *opt, const char *arg, bool unset)
{
	struct record_sample_opts *o = opt->value;
	const char *p = arg;
	u64 mode = 0;

	if (unset) {
		o->branch = 0;
		return 0;
	}
	if (o->branch)
		return branch__conflict(opt);
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < sizeof(branch_modes) / sizeof(branch_modes[0]); i++)
			if (strlen(branch_modes[i].name) == len &&
			    !strncasecmp(p, branch_modes[i].name, len))
				break;
		if (i == sizeof(branch_modes) / sizeof(branch_modes[0]))
			return parse_options__error(opt, false,
						    "unknown branch filter '%.*s', check man page (u, k, hv, any, any_call, any_ret, ind_call, ind_jmp, call, cond, stack, save_type, priv, abort_tx, in_tx, no_tx)",
						    (int)len, p);
		mode |= branch_modes[i].bit;
		if (!p[len])
			break;
		p += len + 1;
	}
	/* only privilege levels: any branch, as perf (which drops the levels then) */
	if (!(mode & ~BRANCH_PLM))
		mode = BRANCH_ANY;
	o->branch = mode;
	return 0;
}

const char *record_sample__open_error(const struct record_sample_opts *o,
				      const struct perf_event_attr *a, int errnum, char *buf,
				      size_t size)
{
	/* the kernel's answer for an event whose PMU has no branch stack (not EINVAL: bad bits) */
	if ((a->sample_type & PERF_SAMPLE_BRANCH_STACK) && errnum == EOPNOTSUPP) {
		snprintf(buf, size, "%s: branch stacks (-b, -j) need a hardware PMU with LBR (Intel) or BRS (AMD) sampling this event; this event or machine has none",
			 strerror(errnum));
		return buf;
	}
	if (o->use_clockid && errnum == EINVAL && !clockid__kernel_supported(o->clockid)) {
		snprintf(buf, size, "%s: -k %d: the kernel stamps samples only with monotonic (1), monotonic_raw (4), realtime (0), boottime (7) or tai (11)",
			 strerror(errnum), o->clockid);
		return buf;
	}
	return NULL;
}
