// SPDX-License-Identifier: GPL-2.0
/*
 * The record-type table (perf/record.h): its entries against the ABI's rules, the byte swap by
 * layout going out and back to the same bytes for every type whose layout is complete, and
 * `perf script` refusing, in one line, every kernel record too short for its fixed fields and
 * sample_id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/record.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include "tests.h"

static int check_entries(const struct test_env *env)
{
	for (u32 type = 0; type < 128; type++) {
		const struct perf_record_info *ri = perf_record_type__info(type);
		bool kernel = type && type < PERF_RECORD_USER_TYPE_START;
		bool known = (type && type < PERF_RECORD_MAX) ||
			     (type >= PERF_RECORD_USER_TYPE_START && type < PERF_RECORD_HEADER_MAX);

		TEST_ASSERT(env, ri && ri->name, "type %u has no entry", type);
		TEST_ASSERT(env, known == !!strcmp(ri->name, "UNKNOWN"), "type %u is named %s", type,
			    ri->name);
		/* the kernel's rule: every kernel record but the sample ends in sample_id */
		TEST_ASSERT(env, perf_record_type__has_sample_id(type) == (kernel && type != PERF_RECORD_SAMPLE),
			    "type %u (%s): sample_id flag", type, ri->name);
		TEST_ASSERT(env, ri->fixed_size >= sizeof(struct perf_event_header),
			    "type %u (%s): fixed size %u", type, ri->name, ri->fixed_size);
		TEST_ASSERT(env, perf_record_type__min_size(type) ==
			    (size_t)ri->fixed_size + !!(ri->flags & PERF_RECORD_F_STRING),
			    "type %u (%s): min size", type, ri->name);
	}
	/* the sizes the readers relied on before the table, spelled out */
	TEST_ASSERT(env, perf_record_type__min_size(PERF_RECORD_MMAP) == 41, "MMAP");
	TEST_ASSERT(env, perf_record_type__min_size(PERF_RECORD_MMAP2) == 73, "MMAP2");
	TEST_ASSERT(env, perf_record_type__min_size(PERF_RECORD_COMM) == 17, "COMM");
	TEST_ASSERT(env, perf_record_type__min_size(PERF_RECORD_KSYMBOL) == 25, "KSYMBOL");
	TEST_ASSERT(env, perf_record_type__min_size(PERF_RECORD_TEXT_POKE) == 20, "TEXT_POKE");
	TEST_ASSERT(env, perf_record_type__min_size(PERF_RECORD_CALLCHAIN_DEFERRED) == 24, "DEFERRED");
	TEST_ASSERT(env, !strcmp(perf_record_type__name(PERF_RECORD_HEADER_FEATURE), "FEATURE"), "FEATURE");
	return TEST_OK;
}

static u64 lcg(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state;
}

/* out to the other order (strict) and back (lenient): the same bytes, for every complete layout */
static int check_swap(const struct test_env *env)
{
	u64 state = 0xfeed;

	for (u32 type = 1; type < PERF_RECORD_HEADER_MAX; type++) {
		const struct perf_record_info *ri = perf_record_type__info(type);
		u64 rec[40], copy[40];
		struct perf_event_header *h = (void *)rec;
		u16 trailer = perf_record_type__has_sample_id(type) ? 16 : 0;
		int ret;

		if (!ri->layout || (ri->flags & PERF_RECORD_F_PARTIAL))
			continue;
		for (size_t i = 0; i < sizeof(rec) / 8; i++)
			rec[i] = lcg(&state);
		h->type = type;
		h->misc = 0;
		h->size = sizeof(rec);
		if (type == PERF_RECORD_THREAD_MAP)
			rec[1] = 3;	/* nr: three entries of 24 bytes fit */
		if (type == PERF_RECORD_HEADER_ATTR)
			((struct perf_event_attr *)(h + 1))->size = PERF_ATTR_SIZE_VER0;
		memcpy(copy, rec, sizeof(rec));
		ret = perf_record__swap_fields(h, trailer, false, true);
		TEST_ASSERT(env, ret == 0, "%s: swap out: %d", ri->name, ret);
		TEST_ASSERT(env, strcmp(ri->layout, "") == 0 || memcmp(copy, rec, sizeof(rec)),
			    "%s: nothing was swapped", ri->name);
		perf_record__swap_fields(h, trailer, true, false);
		TEST_ASSERT(env, !memcmp(copy, rec, sizeof(rec)), "%s: out and back differ", ri->name);
		/* the trailer is not the body's business */
		TEST_ASSERT(env, !memcmp((u8 *)copy + sizeof(rec) - trailer,
					 (u8 *)rec + sizeof(rec) - trailer, trailer), "%s: trailer", ri->name);
		/*
		 * a body cut short: the writer's mode refuses it; the reader's swaps only the
		 * fields that fit (ASan checks it stays inside), the size check reports it later
		 */
		h->size = (u16)(sizeof(*h) + trailer + (ri->fixed_size > 8 ? ri->fixed_size - 9 : 0));
		if (ri->fixed_size > sizeof(*h)) {
			TEST_ASSERT(env, perf_record__swap_fields(h, trailer, false, true) == -EINVAL,
				    "%s: short body written", ri->name);
			perf_record__swap_fields(h, trailer, true, false);
		}
	}
	TEST_ASSERT(env, perf_record__swap_fields(&(struct perf_event_header){ 90, 0, 8 }, 0, false, true) ==
		    -EOPNOTSUPP, "an unknown type is written swapped");
	return TEST_OK;
}

/* a file with one record of type and size bytes (its tail the sample_id), then perf script */
static int check_short(const struct test_env *env, u32 type, u16 size)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL),
	};
	char path[4096], errf[4096], cmd[12288], line[512], want[128];
	struct perf_err err = { "" };
	struct perf_writer *w;
	u64 rec[32] = { 0 }, id = 1;
	struct perf_event_header *h = (void *)rec;
	int st, lines = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/short-%u.data", env->tmpdir, type);
	snprintf(errf, sizeof(errf), "%s/short-%u.err", env->tmpdir, type);
	w = perf_writer__new(path, NULL, &err);
	TEST_ASSERT(env, w, "%s", err.msg);
	h->type = type;
	h->size = size;
	/* the trailer: pid/tid 7/7, time 1000 */
	rec[size / 8 - 2] = (u64)7 << 32 | 7;
	rec[size / 8 - 1] = 1000;
	st = perf_writer__add_attr(w, &attr, &id, 1, "cpu-clock", &err) < 0 ||
	     perf_writer__write(w, h, &err) || perf_writer__finish(w, &err);
	perf_writer__delete(w);
	TEST_ASSERT(env, !st, "writing %s: %s", path, err.msg);

	snprintf(cmd, sizeof(cmd), "'%s' script -i '%s' >/dev/null 2>'%s'", env->perf, path, errf);
	st = system(cmd);
	TEST_ASSERT(env, st != -1 && WIFEXITED(st) && WEXITSTATUS(st) != 0,
		    "a short %s record is accepted", perf_record_type__name(type));
	snprintf(want, sizeof(want), "%s (%u) record at offset", perf_record_type__name(type), type);
	f = fopen(errf, "r");
	TEST_ASSERT(env, f, "no %s", errf);
	while (fgets(line, sizeof(line), f)) {
		lines++;
		found |= strstr(line, want) && strstr(line, "shorter than its fixed fields and sample_id");
	}
	fclose(f);
	TEST_ASSERT(env, found && lines == 1, "%s: %d lines, the error %sfound", perf_record_type__name(type),
		    lines, found ? "" : "not ");
	return TEST_OK;
}

static int check_short_records(const struct test_env *env)
{
	for (u32 type = 1; type < PERF_RECORD_MAX; type++) {
		/* the trailer (16 bytes) and the fixed part less a byte, rounded down to u64 */
		size_t size = (perf_record_type__min_size(type) - 1 + 16) / 8 * 8;

		if (type == PERF_RECORD_SAMPLE || perf_record_type__min_size(type) <= sizeof(struct perf_event_header))
			continue;
		if (check_short(env, type, (u16)size))
			return TEST_FAIL;
	}
	return TEST_OK;
}

DEFINE_SUITE(record_table)
{
	if (check_entries(env) || check_swap(env) || check_short_records(env))
		return TEST_FAIL;
	return TEST_OK;
}
