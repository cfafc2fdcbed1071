/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader-walk.h - read a whole perf.data the way a consumer does: open it, take every record
 * with perf_data__next(), parse samples and sample_id trailers against their attr, and read
 * every byte each returned pointer claims to cover. An array that claims more than its record
 * holds then shows up as an out-of-bounds read under ASan instead of staying latent.
 *
 * The header features the reader parsed are printed too (to /dev/null), from the parsed form,
 * in the -I and the summarised forms: the printer trusts the parser's counts and strings, so
 * a parser that lets an inconsistent structure through shows up here.
 *
 * Shared by the libFuzzer target (fuzz_reader.c) and the perf test that replays the corpus
 * and the regressions (tests/reader-replay.c), so both exercise exactly the same calls.
 * Static functions: each includer gets its own copy, there is no state.
 */
#ifndef PERF_TESTS_FUZZ_READER_WALK_H
#define PERF_TESTS_FUZZ_READER_WALK_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <perf/data.h>
#include "util/header-fprintf.h"

struct reader_walk {
	u64		records;	/* handed out by perf_data__next() */
	u64		samples;	/* PERF_RECORD_SAMPLE among them */
	u64		bad_samples;	/* samples perf_evattr__parse_sample() rejected */
	int		err;		/* 0, or the negative errno that stopped the walk */
	struct perf_err	why;		/* the reader's message when err != 0 */
};

/* volatile: the compiler may not drop the reads, which are the point */
static inline void reader_walk__touch(const void *p, size_t len)
{
	const volatile u8 *b = p;

	for (size_t i = 0; i < len; i++)
		(void)b[i];
}

static inline void reader_walk__touch_str(const char *s)
{
	if (s)
		reader_walk__touch(s, strlen(s) + 1);
}

static inline void reader_walk__touch_env(const struct perf_env *env)
{
	reader_walk__touch_str(env->hostname);
	reader_walk__touch_str(env->osrelease);
	reader_walk__touch_str(env->version);
	reader_walk__touch_str(env->arch);
	reader_walk__touch_str(env->cpudesc);
	reader_walk__touch_str(env->cpuid);
	for (u32 i = 0; i < env->nr_cmdline; i++)
		reader_walk__touch_str(env->cmdline[i]);
	for (size_t i = 0; i < env->nr_build_ids; i++) {
		reader_walk__touch(env->build_ids[i].build_id, sizeof(env->build_ids[i].build_id));
		reader_walk__touch_str(env->build_ids[i].filename);
	}
	if (env->tracing_data)
		reader_walk__touch(env->tracing_data, env->tracing_data_size);
}

static inline const char *reader_walk__event_name(void *arg, size_t idx)
{
	struct perf_evattr *ea = perf_data__attr(arg, idx);

	return ea && ea->name ? ea->name : "unknown";
}

/* every feature the input has, as --header -I and --header print it */
static inline void reader_walk__print_features(struct perf_data *data)
{
	const struct perf_env *env = perf_data__env(data);
	struct header_events events = {
		.nr = perf_data__nr_attrs(data), .name = reader_walk__event_name, .arg = data,
	};
	FILE *null = fopen("/dev/null", "w");

	if (!null)
		abort();
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		if (!perf_env__has_feat(env, feat))
			continue;
		header__fprintf_feature(null, env, feat, true, &events);
		header__fprintf_feature(null, env, feat, false, &events);
	}
	fclose(null);
}

static inline void reader_walk__touch_attrs(struct perf_data *data)
{
	for (size_t i = 0; i < perf_data__nr_attrs(data); i++) {
		struct perf_evattr *ea = perf_data__attr(data, i);

		reader_walk__touch(&ea->attr, sizeof(ea->attr));
		if (ea->nr_ids)
			reader_walk__touch(ea->ids, ea->nr_ids * sizeof(u64));
		reader_walk__touch_str(ea->name);
	}
}

static inline void reader_walk__touch_sample(const struct perf_evattr *ea,
					     const struct perf_sample *s)
{
	u64 rf = ea->attr.read_format;
	/* a group entry: value, then id and lost when read_format asks for them */
	size_t group_entry = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));

	if (s->callchain_nr)
		reader_walk__touch(s->callchain, s->callchain_nr * sizeof(u64));
	if (s->raw_size)
		reader_walk__touch(s->raw_data, s->raw_size);
	if (s->branch_nr)
		reader_walk__touch(s->branches, s->branch_nr * sizeof(struct perf_branch_entry));
	if (s->user_regs_mask && s->user_regs)
		reader_walk__touch(s->user_regs,
				   (size_t)__builtin_popcountll(s->user_regs_mask) * sizeof(u64));
	if (s->user_stack_size)
		reader_walk__touch(s->user_stack, s->user_stack_size);
	if (s->intr_regs_mask && s->intr_regs)
		reader_walk__touch(s->intr_regs,
				   (size_t)__builtin_popcountll(s->intr_regs_mask) * sizeof(u64));
	if (s->aux_size)
		reader_walk__touch(s->aux_data, s->aux_size);
	if (s->read.group && s->read.nr)
		reader_walk__touch(s->read.group, s->read.nr * group_entry);
}

/*
 * The single-field readers (ordering, the stitcher's peek) on the same record: bounded like
 * the parser, and agreeing with it where it accepted the sample.
 */
static inline void reader_walk__single_fields(struct perf_data *data, const struct perf_evattr *ea,
					      const struct perf_event_header *h,
					      const struct perf_sample *parsed)
{
	bool swapped = perf_data__needs_swap(data);
	u64 time, cookie;
	u32 tid;

	if (!perf_evattr__parse_time(ea, h, swapped, &time) && parsed && parsed->has_time &&
	    time != parsed->time)
		abort();
	if (!perf_evattr__parse_tid(ea, h, swapped, &tid) && parsed && tid != parsed->tid)
		abort();
	if (perf_evattr__peek_deferred(ea, h, swapped, &tid, &cookie) && parsed &&
	    (!parsed->deferred_callchain || cookie != parsed->deferred_cookie || tid != parsed->tid))
		abort();
}

static inline void reader_walk__record(struct reader_walk *w, struct perf_data *data,
				       const struct perf_event_header *h)
{
	struct perf_sample sample;
	struct perf_evattr *ea;
	struct perf_err err;
	u64 *scratch;
	int ret;

	reader_walk__touch(h, h->size);
	/* user record types (metadata, >= 64) carry no sample fields */
	if (h->type >= PERF_RECORD_USER_TYPE_START)
		return;
	ea = perf_data__attr_of(data, h);
	if (!ea)
		return;
	/* exactly the size data.h asks for, so an overrun of scratch is caught too */
	scratch = malloc(h->size);
	if (!scratch)
		return;
	ret = perf_evattr__parse_sample(ea, h, perf_data__needs_swap(data), scratch, &sample, &err);
	if (!ret)
		reader_walk__touch_sample(ea, &sample);
	reader_walk__single_fields(data, ea, h, ret ? NULL : &sample);
	if (h->type == PERF_RECORD_SAMPLE) {
		w->samples++;
		w->bad_samples += ret != 0;
	}
	free(scratch);
}

/*
 * Walks the perf.data on fd, which it takes ownership of (closed in every case). Returns 0
 * when the whole input was read, else the reader's negative errno with w->why set.
 */
static inline int reader_walk__fd(struct reader_walk *w, int fd, const char *name)
{
	struct perf_data_record rec;
	struct perf_data *data;
	int ret;

	memset(w, 0, sizeof(*w));
	data = perf_data__open_fd(fd, name, &w->why);
	if (!data) {
		w->err = -EINVAL;
		return w->err;
	}
	reader_walk__touch_env(perf_data__env(data));
	reader_walk__touch_attrs(data);
	reader_walk__print_features(data);
	while ((ret = perf_data__next(data, &rec, &w->why)) == 1) {
		w->records++;
		reader_walk__record(w, data, rec.header);
		/* a pipe-mode feature record was just parsed into the env */
		if (rec.header->type == PERF_RECORD_HEADER_FEATURE)
			reader_walk__print_features(data);
	}
	w->err = ret < 0 ? ret : 0;
	/* pipe mode adds attrs and features as it goes */
	reader_walk__touch_env(perf_data__env(data));
	reader_walk__touch_attrs(data);
	perf_data__close(data);
	return w->err;
}

#endif
