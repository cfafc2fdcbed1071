// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of util/trace-event: the tracepoint text of the golden sched.data against upstream
 * perf 7.2's script output (read at run time), truncated and corrupted tracing data, raw
 * data that does not fit its format, the other byte order (sched.data's tracing data and
 * samples byte-swapped print the same) and 4-byte longs in a synthetic big-endian blob.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include <perf/data.h>
#include <perf/kernel.h>
#include "run-helpers.h"
#include "tests.h"
#include "util/trace-event.h"

/* in the perf72 fixture */
#define SCHED_DATA	"data/sched.data"
#define SCHED_SCRIPT	"upstream/sched.script-noinline.txt"

/* ---- sched.data: its tracing data and its tracepoint samples ---- */

struct raw_sample {
	u64	config;
	u32	cpu;
	u32	size;
	u8	*data;
};

struct recording {
	u8			*tracing;
	size_t			tracing_size;
	struct raw_sample	*samples;
	size_t			nr;
};

static void recording__exit(struct recording *r)
{
	for (size_t i = 0; i < r->nr; i++)
		free(r->samples[i].data);
	free(r->samples);
	free(r->tracing);
}

static bool fixture_path(const struct test_env *env, const char *rel, char *buf, size_t len)
{
	char dir[2048];
	struct stat st;

	if (test_fixture(env, "perf72", dir, sizeof(dir)))
		return false;
	snprintf(buf, len, "%s/%s", dir, rel);
	if (stat(buf, &st)) {
		if (env->verbose)
			fprintf(stderr, "no fixture %s\n", buf);
		return false;
	}
	return true;
}

/* copies the tracing data and every tracepoint sample's raw data out of a perf.data */
static int recording__read(struct recording *r, const char *path, struct perf_err *err)
{
	static u64 scratch[65536 / 8];
	struct perf_data_record rec;
	struct perf_data *data;
	const struct perf_env *penv;
	int ret;

	memset(r, 0, sizeof(*r));
	data = perf_data__open(path, err);
	if (!data)
		return -1;
	while ((ret = perf_data__next(data, &rec, err)) == 1) {
		struct perf_evattr *ea;
		struct perf_sample s;
		struct raw_sample *rs;

		if (rec.header->type != PERF_RECORD_SAMPLE)
			continue;
		ea = perf_data__attr_of(data, rec.header);
		if (!ea || ea->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		ret = perf_evattr__parse_sample(ea, rec.header, perf_data__needs_swap(data), scratch,
						&s, err);
		if (ret)
			break;
		rs = realloc(r->samples, (r->nr + 1) * sizeof(*rs));
		if (!rs)
			break;
		r->samples = rs;
		rs += r->nr;
		rs->config = ea->attr.config;
		rs->cpu = s.cpu;
		rs->size = s.raw_size;
		rs->data = malloc(s.raw_size ? s.raw_size : 1);
		if (!rs->data)
			break;
		memcpy(rs->data, s.raw_data, s.raw_size);
		r->nr++;
	}
	penv = perf_data__env(data);
	if (!ret && penv->tracing_data) {
		r->tracing = malloc(penv->tracing_data_size);
		if (r->tracing) {
			memcpy(r->tracing, penv->tracing_data, penv->tracing_data_size);
			r->tracing_size = penv->tracing_data_size;
		}
	}
	perf_data__close(data);
	if (ret || !r->tracing) {
		recording__exit(r);
		return -1;
	}
	return 0;
}

static int sched_recording(const struct test_env *env, struct recording *r)
{
	char path[4096];
	struct perf_err err = { "" };

	if (!fixture_path(env, SCHED_DATA, path, sizeof(path)))
		return TEST_FAIL;
	if (recording__read(r, path, &err)) {
		if (env->verbose)
			fprintf(stderr, "reading %s: %s\n", path, err.msg);
		return TEST_FAIL;
	}
	return TEST_OK;
}

/* ---- lists of lines ---- */

struct lines {
	char	**v;
	size_t	nr;
};

static int lines__add(struct lines *l, const char *s, size_t len)
{
	char **v = realloc(l->v, (l->nr + 1) * sizeof(*v));

	if (!v)
		return -1;
	l->v = v;
	v[l->nr] = strndup(s, len);
	if (!v[l->nr])
		return -1;
	l->nr++;
	return 0;
}

static void lines__exit(struct lines *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * "event: text" of a perf script sample line ("comm  tid [cpu]  secs.usecs: event: text"),
 * or NULL for callchain and other lines.
 */
static const char *script_line__event(const char *line)
{
	const char *p = strstr(line, " [");

	for (; p; p = strstr(p + 1, " [")) {
		const char *q = p + 2;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q == p + 2 || *q != ']')
			continue;
		for (q++; *q == ' '; q++)
			;
		while ((*q >= '0' && *q <= '9') || *q == '.')
			q++;
		if (q[0] != ':' || q[1] != ' ')
			continue;
		for (q++; *q == ' '; q++)
			;
		return *q ? q : NULL;
	}
	return NULL;
}

DEFINE_SUITE(trace_event_golden)
{
	struct lines ours = { 0 }, theirs = { 0 };
	struct recording r;
	struct trace_event *te;
	struct perf_err err = { "" };
	char path[4096], line[8192 + 512], name[256], text[8192];
	int ret = TEST_FAIL;
	FILE *f;

	ret = sched_recording(env, &r);
	if (ret != TEST_OK)
		return ret;
	if (!fixture_path(env, SCHED_SCRIPT, path, sizeof(path))) {
		recording__exit(&r);
		return TEST_FAIL;
	}
	ret = TEST_FAIL;
	te = trace_event__new(r.tracing, r.tracing_size, &err);
	if (!te) {
		if (env->verbose)
			fprintf(stderr, "trace_event__new: %s\n", err.msg);
		goto out;
	}
	for (size_t i = 0; i < r.nr; i++) {
		struct raw_sample *s = &r.samples[i];
		int n = trace_event__format(te, s->config, s->data, s->size, s->cpu, text,
					    sizeof(text), &err);

		if (n < 0 || (size_t)n >= sizeof(text) ||
		    !trace_event__name(te, s->config, name, sizeof(name))) {
			if (env->verbose)
				fprintf(stderr, "sample %zu: %d %s\n", i, n, err.msg);
			goto out_delete;
		}
		snprintf(line, sizeof(line), "%s: %s", name, text);
		if (lines__add(&ours, line, strlen(line)))
			goto out_delete;
	}

	f = fopen(path, "r");
	if (!f)
		goto out_delete;
	while (fgets(line, sizeof(line), f)) {
		const char *ev = script_line__event(line);

		if (ev && lines__add(&theirs, ev, strcspn(ev, "\n"))) {
			fclose(f);
			goto out_delete;
		}
	}
	fclose(f);

	/* upstream prints in time order, we see the samples in file order: compare as sets */
	if (ours.nr != theirs.nr || !ours.nr) {
		if (env->verbose)
			fprintf(stderr, "%zu tracepoint samples, %zu sample lines in %s\n", ours.nr,
				theirs.nr, path);
		goto out_delete;
	}
	qsort(ours.v, ours.nr, sizeof(char *), str_cmp);
	qsort(theirs.v, theirs.nr, sizeof(char *), str_cmp);
	for (size_t i = 0; i < ours.nr; i++) {
		if (strcmp(ours.v[i], theirs.v[i])) {
			if (env->verbose)
				fprintf(stderr, "ours:     %s\nupstream: %s\n", ours.v[i], theirs.v[i]);
			goto out_delete;
		}
	}
	ret = TEST_OK;
out_delete:
	trace_event__delete(te);
out:
	lines__exit(&ours);
	lines__exit(&theirs);
	recording__exit(&r);
	return ret;
}

/* ---- corrupt tracing data ---- */

static bool parse_fails(const struct test_env *env, const u8 *blob, size_t size,
			const char *expect, const char *what)
{
	struct perf_err err = { "" };
	struct trace_event *te = trace_event__new(blob, size, &err);

	if (te) {
		trace_event__delete(te);
		if (env->verbose)
			fprintf(stderr, "%s: parsed without an error\n", what);
		return false;
	}
	if (!strstr(err.msg, "tracing data offset") || (expect && !strstr(err.msg, expect))) {
		if (env->verbose)
			fprintf(stderr, "%s: unexpected error \"%s\"\n", what, err.msg);
		return false;
	}
	return true;
}

DEFINE_SUITE(trace_event_truncated)
{
	struct recording r;
	int ret = sched_recording(env, &r);
	size_t cut;

	if (ret != TEST_OK)
		return ret;
	/* every prefix is missing at least the last section; 61 keeps this under a second */
	for (cut = 0; cut < r.tracing_size; cut += (cut < 64 || cut + 64 > r.tracing_size) ? 1 : 61) {
		char what[64];

		snprintf(what, sizeof(what), "cut at %zu of %zu", cut, r.tracing_size);
		if (!parse_fails(env, r.tracing, cut, NULL, what)) {
			ret = TEST_FAIL;
			break;
		}
	}
	recording__exit(&r);
	return ret;
}

/* replaces the first from (after the first after, if given) with to of the same length */
static bool patch(u8 *blob, size_t size, const char *after, const char *from, const char *to)
{
	u8 *start = blob;
	u8 *p;

	if (after) {
		start = memmem(blob, size, after, strlen(after));
		if (!start)
			return false;
	}
	p = memmem(start, size - (start - blob), from, strlen(from));
	if (!p || strlen(from) != strlen(to))
		return false;
	memcpy(p, to, strlen(to));
	return true;
}

/* ---- synthetic tracing data: either byte order, 4 or 8 byte longs ---- */

struct blob {
	u8	*p;
	size_t	len;
	bool	be;
	bool	failed;
};

static void blob__put(struct blob *b, const void *data, size_t len)
{
	u8 *p = realloc(b->p, b->len + len);

	if (!p) {
		b->failed = true;
		return;
	}
	b->p = p;
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void put_num(u8 *p, u64 v, int size, bool be)
{
	for (int i = 0; i < size; i++)
		p[be ? size - 1 - i : i] = v >> (8 * i);
}

static void blob__num(struct blob *b, u64 v, int size)
{
	u8 tmp[8];

	put_num(tmp, v, size, b->be);
	blob__put(b, tmp, size);
}

static void blob__text(struct blob *b, const char *text, int size_bytes)
{
	blob__num(b, strlen(text), size_bytes);
	blob__put(b, text, strlen(text));
}

/*
 * Two events. te_a prints a long, a string, an array, a pointer to a printk string and a
 * kernel address; te_b takes an array count and a divisor from the record.
 * Record of te_a (L = long size):
 *   0 common  8 val(L)  8+L name loc  12+L arr loc  16+L msg(L)  16+2L ip(L)
 *   16+3L n  20+3L d  24+3L: name data, arr data
 */
#define TE_A_ID	7
#define TE_B_ID	8

static void synthetic_formats(char *a, char *b, size_t len, int L)
{
	static const char common[] =
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";
	char fields[1024];

	snprintf(fields, sizeof(fields),
		 "\tfield:long val;\toffset:8;\tsize:%d;\tsigned:1;\n"
		 "\tfield:__data_loc char[] name;\toffset:%d;\tsize:4;\tsigned:0;\n"
		 "\tfield:__data_loc u32[] arr;\toffset:%d;\tsize:4;\tsigned:0;\n"
		 "\tfield:const char * msg;\toffset:%d;\tsize:%d;\tsigned:0;\n"
		 "\tfield:void * ip;\toffset:%d;\tsize:%d;\tsigned:0;\n"
		 "\tfield:unsigned int n;\toffset:%d;\tsize:4;\tsigned:0;\n"
		 "\tfield:unsigned int d;\toffset:%d;\tsize:4;\tsigned:0;\n\n",
		 L, 8 + L, 12 + L, 16 + L, L, 16 + 2 * L, L, 16 + 3 * L, 20 + 3 * L);
	snprintf(a, len, "name: te_a\nID: %d\nformat:\n%s%s"
		 "print fmt: \"val=%%ld name=%%s arr=%%s msg=%%s ip=%%pS\", REC->val, __get_str(name), "
		 "__print_array(__get_dynamic_array(arr), __get_dynamic_array_len(arr) / 4, 4), "
		 "REC->msg, REC->ip\n", TE_A_ID, common, fields);
	snprintf(b, len, "name: te_b\nID: %d\nformat:\n%s%s"
		 "print fmt: \"q=%%u arr=%%s\", REC->n / REC->d, "
		 "__print_array(__get_dynamic_array(arr), REC->n, 4)\n", TE_B_ID, common, fields);
}

/* from, if not NULL, is replaced by to in te_b's format */
static void synthetic_blob(struct blob *b, bool be, int L, const char *from, const char *to)
{
	char header_page[512], fa[4096], fb[4096];

	memset(b, 0, sizeof(*b));
	b->be = be;
	snprintf(header_page, sizeof(header_page),
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n", L, 8 + L, 4096 - 8 - L);
	synthetic_formats(fa, fb, sizeof(fa), L);
	if (from) {
		char *at = strstr(fb, from);

		if (!at || strlen(fb) - strlen(from) + strlen(to) >= sizeof(fb)) {
			b->failed = true;
			return;
		}
		memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
		memcpy(at, to, strlen(to));
	}

	blob__put(b, "\027\010Dtracing0.6", 14);	/* with its NUL */
	blob__num(b, be, 1);
	/* the long size byte says 8: header_page's commit field overrides it, as in perf */
	blob__num(b, 8, 1);
	blob__num(b, 4096, 4);
	blob__put(b, "header_page", 12);
	blob__text(b, header_page, 8);
	blob__put(b, "header_event", 13);
	blob__text(b, "# compressed entry header\n", 8);
	blob__num(b, 0, 4);		/* ftrace formats */
	blob__num(b, 1, 4);		/* systems */
	blob__put(b, "test", 5);
	blob__num(b, 2, 4);
	blob__text(b, fa, 8);
	blob__text(b, fb, 8);
	blob__num(b, 0, 4);		/* kallsyms */
	blob__text(b, "0x1000 : \"hello\"\n0x2000 : \"x\"\n", 4);
	blob__text(b, "42 worker\n", 8);
}

struct te_rec {
	u8	v[256];
	u32	size;
};

/* a te_a/te_b record: name "abc", arr {1, 2}, msg 0x1000, ip 0xffff0010 */
static void synthetic_record(struct te_rec *r, int id, bool be, int L, u32 n, u32 d)
{
	u32 fixed = 24 + 3 * L;

	memset(r, 0, sizeof(*r));
	put_num(r->v, id, 2, be);
	put_num(r->v + 4, 42, 4, be);
	put_num(r->v + 8, 5, L, be);
	put_num(r->v + 8 + L, (4u << 16) | fixed, 4, be);
	put_num(r->v + 12 + L, (8u << 16) | (fixed + 4), 4, be);
	put_num(r->v + 16 + L, 0x1000, L, be);
	put_num(r->v + 16 + 2 * L, 0xffff0010, L, be);
	put_num(r->v + 16 + 3 * L, n, 4, be);
	put_num(r->v + 20 + 3 * L, d, 4, be);
	memcpy(r->v + fixed, "abc", 4);
	put_num(r->v + fixed + 4, 1, 4, be);
	put_num(r->v + fixed + 8, 2, 4, be);
	r->size = fixed + 12;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	static char name[] = "te_func";

	(void)priv;
	if (*addrp < 0xffff0000ULL)
		return NULL;
	*addrp = 0xffff0000ULL;
	*modp = NULL;
	return name;
}

DEFINE_SUITE(trace_event_long_size)
{
	/*
	 * What the synthetic record holds that depends on the byte order and the long size: a
	 * long, a dynamic string, and a kernel address through the resolver. libtraceevent
	 * (1.7 to 1.9, so upstream perf too) reads __print_array() elements and pointer fields
	 * printed with %s in host order: those are checked in the host's order only.
	 */
	static const char *const expect[] = { "val=5 ", "name=abc ", "ip=te_func+0x10" };
	const bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	struct perf_err err = { "" };
	char text[512];

	for (int i = 0; i < 2; i++) {
		bool be = i;
		struct trace_event *te;
		struct te_rec r;
		struct blob b;
		int n;

		synthetic_blob(&b, be, 4, NULL, NULL);
		TEST_ASSERT(env, !b.failed, "out of memory");
		te = trace_event__new(b.p, b.len, &err);
		free(b.p);
		TEST_ASSERT(env, te, "%s: %s", be ? "big endian" : "little endian", err.msg);
		synthetic_record(&r, TE_A_ID, be, 4, 2, 1);
		n = -1;
		if (trace_event__long_size(te) == 4 && trace_event__file_bigendian(te) == be &&
		    !trace_event__set_resolver(te, resolve, NULL))
			n = trace_event__format(te, TE_A_ID, r.v, r.size, 0, text, sizeof(text), &err);
		trace_event__delete(te);
		TEST_ASSERT(env, n > 0, "%s: %d (%s)", be ? "big endian" : "little endian", n, err.msg);
		for (size_t k = 0; k < ARRAY_SIZE(expect); k++)
			TEST_ASSERT(env, strstr(text, expect[k]), "%s: no \"%s\" in \"%s\"",
				    be ? "big endian" : "little endian", expect[k], text);
		/* a pointer-sized field names a printk string: 4 bytes here */
		TEST_ASSERT(env, be != host_be || strstr(text, "msg=hello "), "no msg=hello in \"%s\"",
			    text);
	}
	return TEST_OK;
}

DEFINE_SUITE(trace_event_bad_sample)
{
	struct perf_err err = { "" };
	struct trace_event *te;
	struct te_rec r;
	struct blob b;
	char text[512], small[8];
	int n, ret = TEST_FAIL;
	const int L = 8;

	synthetic_blob(&b, false, L, NULL, NULL);
	TEST_ASSERT(env, !b.failed, "out of memory");
	te = trace_event__new(b.p, b.len, &err);
	free(b.p);
	TEST_ASSERT(env, te, "%s", err.msg);

#define EXPECT(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			if (env->verbose) {					\
				fprintf(stderr, "line %d: ", __LINE__);		\
				fprintf(stderr, __VA_ARGS__);			\
				fprintf(stderr, " (%s)\n", err.msg);		\
			}							\
			goto out;						\
		}								\
	} while (0)

	/* a good te_b record prints; the checks below must be what rejects the bad ones */
	synthetic_record(&r, TE_B_ID, false, L, 2, 1);
	n = trace_event__format(te, TE_B_ID, r.v, r.size, 0, text, sizeof(text), &err);
	EXPECT(n > 0 && !strncmp(text, "q=2 arr=", 8), "good te_b: %d \"%s\"", n, text);

	/* snprintf semantics: the whole length, a NUL-terminated prefix */
	n = trace_event__format(te, TE_B_ID, r.v, r.size, 0, small, sizeof(small), &err);
	EXPECT(n == (int)strlen(text) && !strcmp(small, "q=2 arr"), "small buffer: %d \"%s\"", n, small);

	/* no format for the config */
	n = trace_event__format(te, 12345, r.v, r.size, 0, text, sizeof(text), &err);
	EXPECT(n == -ENOENT, "unknown config: %d", n);

	/* raw data shorter than the fixed fields */
	n = trace_event__format(te, TE_B_ID, r.v, 20, 0, text, sizeof(text), &err);
	EXPECT(n == -EINVAL, "short raw data: %d", n);
	n = trace_event__format(te, TE_B_ID, r.v, 1, 0, text, sizeof(text), &err);
	EXPECT(n == -EINVAL, "1 byte of raw data: %d", n);

	/* a count from the record reaching past it */
	synthetic_record(&r, TE_B_ID, false, L, 1000, 1);
	n = trace_event__format(te, TE_B_ID, r.v, r.size, 0, text, sizeof(text), &err);
	EXPECT(n == -EINVAL, "__print_array count 1000: %d", n);

	/* a divisor of 0 from the record: libtraceevent would trap */
	synthetic_record(&r, TE_B_ID, false, L, 2, 0);
	n = trace_event__format(te, TE_B_ID, r.v, r.size, 0, text, sizeof(text), &err);
	EXPECT(n == -EINVAL, "divisor 0: %d", n);

	/* dynamic data outside the record */
	synthetic_record(&r, TE_A_ID, false, L, 2, 1);
	put_num(r.v + 8 + L, (4u << 16) | 250, 4, false);
	n = trace_event__format(te, TE_A_ID, r.v, r.size, 0, text, sizeof(text), &err);
	EXPECT(n == -EINVAL, "string offset 250: %d", n);
	synthetic_record(&r, TE_A_ID, false, L, 2, 1);
	put_num(r.v + 12 + L, (200u << 16) | (24 + 3 * L + 4), 4, false);
	n = trace_event__format(te, TE_A_ID, r.v, r.size, 0, text, sizeof(text), &err);
	EXPECT(n == -EINVAL, "array length 200: %d", n);

	/* a string with no NUL at the very end of the record still ends */
	synthetic_record(&r, TE_A_ID, false, L, 2, 1);
	put_num(r.v + 8 + L, (3u << 16) | (r.size - 3), 4, false);
	memcpy(r.v + r.size - 3, "xyz", 3);
	n = trace_event__format(te, TE_A_ID, r.v, r.size, 0, text, sizeof(text), &err);
	EXPECT(n > 0 && strstr(text, "name=xyz "), "unterminated string: %d \"%s\"", n, text);
#undef EXPECT
	ret = TEST_OK;
out:
	trace_event__delete(te);
	return ret;
}

DEFINE_SUITE(trace_event_corrupt)
{
	static const struct {
		const char	*after;		/* where to look for from */
		const char	*from;
		const char	*to;
		const char	*expect;	/* in the error */
	} edits[] = {
		{ NULL, "\027\010D", "\027\010E", "magic" },
		{ NULL, "header_page", "header_pagX", "header_page" },
		{ "name: sched_switch", "\tsize:16;", "\tsize:-1;", "malformed field line" },
		{ "name: sched_switch", "<< 1) - 1)", "<< 1) % 0)", "by a constant 0" },
		{ "name: sched_switch", "REC->prev_state", "REC->prev_stata", "not one of its fields" },
		{ "name: sched_wakeup", "common_type", "common_typo", "common_type" },
		{ NULL, "name: sched_wakeup", "name:\001sched_wakeup", "not text" },
	};
	/* te_b with 8-byte longs: d is at offset 44, see synthetic_formats() */
	static const struct {
		const char	*from;
		const char	*to;
		const char	*expect;
	} synthetic[] = {
		{ "d;\toffset:44;", "d;\toffset:99999;", "does not fit" },
		{ "arr;\toffset:20;\tsize:4;", "arr;\toffset:20;\tsize:3;", "does not fit" },
		{ "REC->n / REC->d", "REC->n / (4 / nope)", "by a constant 0" },
		{ "REC->n / REC->d", "REC->n + 2 % 0x0", "by a constant 0" },
		{ "REC->n / REC->d", "REC->n / 4 / 2 * 0", "by a constant 0" },
		{ "__print_array(", "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((__print_array(",
		  "nests brackets" },
		{ "REC->n, 4)", "REC->nn, 4)", "not one of its fields" },
	};
	struct recording r;
	int ret = sched_recording(env, &r);
	size_t vlen;
	u8 *blob;

	if (ret != TEST_OK)
		return ret;
	blob = malloc(r.tracing_size);
	if (!blob)
		goto out_fail;

	for (size_t i = 0; i < ARRAY_SIZE(edits); i++) {
		memcpy(blob, r.tracing, r.tracing_size);
		TEST_ASSERT(env, patch(blob, r.tracing_size, edits[i].after, edits[i].from, edits[i].to),
			    "edit %zu: \"%s\" not in the tracing data", i, edits[i].from);
		if (!parse_fails(env, blob, r.tracing_size, edits[i].expect, edits[i].to))
			goto out_fail;
	}

	/* the bytes after the version string: endianness, long size, page size */
	vlen = strlen((const char *)r.tracing + 10) + 1;
	memcpy(blob, r.tracing, r.tracing_size);
	blob[10 + vlen] = 2;
	if (!parse_fails(env, blob, r.tracing_size, "endianness", "endianness 2"))
		goto out_fail;
	memcpy(blob, r.tracing, r.tracing_size);
	blob[10 + vlen + 1] = 3;
	if (!parse_fails(env, blob, r.tracing_size, "long size", "long size 3"))
		goto out_fail;
	memcpy(blob, r.tracing, r.tracing_size);
	blob[10 + vlen + 2] ^= 1;
	if (!parse_fails(env, blob, r.tracing_size, "page size", "page size"))
		goto out_fail;

	/* the size before the sched_switch format: past the end, then inside a field line */
	memcpy(blob, r.tracing, r.tracing_size);
	{
		u8 *fmt = memmem(blob, r.tracing_size, "name: sched_switch", 18), *cut;
		u64 size;

		TEST_ASSERT(env, fmt && fmt - blob >= 8, "no sched_switch format");
		memset(fmt - 8, 0xff, 8);
		if (!parse_fails(env, blob, r.tracing_size, "runs past the end", "format size"))
			goto out_fail;
		/* libtraceevent reads past "field:char prev_comm[" at the end of a text */
		cut = memmem(fmt, r.tracing_size - (fmt - blob), "prev_comm[", 10);
		TEST_ASSERT(env, cut, "no prev_comm in sched_switch");
		size = cut + 10 - fmt;
		put_num(fmt - 8, size, 8, blob[10 + vlen]);
		if (!parse_fails(env, blob, r.tracing_size, "malformed field line", "format cut in a field"))
			goto out_fail;
	}

	/* what a real format never has, in a synthetic one */
	for (size_t i = 0; i < ARRAY_SIZE(synthetic); i++) {
		struct blob b;
		bool ok;

		synthetic_blob(&b, false, 8, synthetic[i].from, synthetic[i].to);
		if (b.failed && env->verbose)
			fprintf(stderr, "\"%s\" is not in te_b's format\n", synthetic[i].from);
		ok = !b.failed && parse_fails(env, b.p, b.len, synthetic[i].expect, synthetic[i].to);
		free(b.p);
		if (!ok)
			goto out_fail;
	}
	free(blob);
	recording__exit(&r);
	return TEST_OK;

out_fail:
	free(blob);
	recording__exit(&r);
	return TEST_FAIL;
}

/* maple_tree:ma_op prints "%s\tNode: ..." with a real tab inside the string */
DEFINE_SUITE(trace_event_tab)
{
	struct perf_err err = { "" };
	struct trace_event *te;
	struct te_rec r;
	struct blob b;
	char text[512];
	int n;

	synthetic_blob(&b, false, 8, "\"q=%u arr=%s\"", "\"q=%u\tarr=%s\"");
	TEST_ASSERT(env, !b.failed, "out of memory");
	te = trace_event__new(b.p, b.len, &err);
	free(b.p);
	TEST_ASSERT(env, te, "%s", err.msg);
	synthetic_record(&r, TE_B_ID, false, 8, 2, 1);
	n = trace_event__format(te, TE_B_ID, r.v, r.size, 0, text, sizeof(text), &err);
	trace_event__delete(te);
	TEST_ASSERT(env, n > 0 && !strncmp(text, "q=2\tarr=", 8), "got %d \"%s\" (%s)", n,
		    n >= 0 ? text : "", err.msg);
	return TEST_OK;
}

/* ---- the other byte order ---- */

/* byte-swaps every number of a tracing data blob in place and flips its endianness byte */
static int swap_blob(u8 *p, size_t size, bool from_be)
{
	size_t pos = 10;
	const u8 *nul;

#define NEED(n)		do { if ((n) > size - pos) return -1; } while (0)
#define NUM(sz, var)	do { NEED(sz); var = 0;						\
			     for (int k_ = 0; k_ < (sz); k_++)				\
				var |= (u64)p[pos + (from_be ? (sz) - 1 - k_ : k_)] << (8 * k_); \
			     for (int k_ = 0; k_ < (sz) / 2; k_++) {			\
				u8 t_ = p[pos + k_];					\
				p[pos + k_] = p[pos + (sz) - 1 - k_];			\
				p[pos + (sz) - 1 - k_] = t_;				\
			     }								\
			     pos += (sz); } while (0)
#define STR()		do { nul = memchr(p + pos, 0, size - pos); if (!nul) return -1;	\
			     pos = nul - p + 1; } while (0)
	u64 n, count, nr;

	STR();				/* version */
	NEED(2);
	p[pos] ^= 1;			/* endianness */
	pos += 2;			/* and long size */
	NUM(4, n);			/* page size */
	for (int i = 0; i < 2; i++) {	/* header_page, header_event */
		STR();
		NUM(8, n);
		NEED(n);
		pos += n;
	}
	NUM(4, count);			/* ftrace formats */
	for (u64 i = 0; i < count; i++) {
		NUM(8, n);
		NEED(n);
		pos += n;
	}
	NUM(4, count);			/* systems */
	for (u64 i = 0; i < count; i++) {
		STR();
		NUM(4, nr);
		for (u64 j = 0; j < nr; j++) {
			NUM(8, n);
			NEED(n);
			pos += n;
		}
	}
	for (int i = 0; i < 3; i++) {	/* kallsyms, printk formats, saved cmdlines */
		NUM(i == 2 ? 8 : 4, n);
		NEED(n);
		pos += n;
	}
	return 0;
#undef NEED
#undef NUM
#undef STR
}

/* byte-swaps the numbers of a record as its event's format lays them out */
static int swap_record(struct trace_event *te, u8 *raw, u32 size)
{
	struct tep_handle *tep = trace_event__tep(te);
	struct tep_event *event = tep_find_event(tep, (int)tep_read_number(tep, raw, 2));
	struct tep_format_field *lists[2];

	if (!event)
		return -1;
	lists[0] = event->format.common_fields;
	lists[1] = event->format.fields;
	for (int l = 0; l < 2; l++) {
		for (struct tep_format_field *f = lists[l]; f; f = f->next) {
			int el = f->flags & TEP_FIELD_IS_DYNAMIC ? f->size : (int)f->elementsize;

			if ((f->flags & TEP_FIELD_IS_DYNAMIC) && f->size != 4)
				return -1;
			if (f->offset + f->size > (int)size)
				return -1;
			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				/* the dynamic data: char arrays only, which need no swapping */
				if (!strstr(f->type, "char"))
					return -1;
			} else if (el <= 1) {
				continue;
			}
			if (el != 2 && el != 4 && el != 8)
				return -1;
			for (int o = f->offset; o + el <= f->offset + f->size; o += el) {
				for (int k = 0; k < el / 2; k++) {
					u8 t = raw[o + k];

					raw[o + k] = raw[o + el - 1 - k];
					raw[o + el - 1 - k] = t;
				}
			}
		}
	}
	return 0;
}

DEFINE_SUITE(trace_event_cross_endian)
{
	struct perf_err err = { "" };
	struct trace_event *te = NULL, *swapped = NULL;
	struct recording r;
	char a[8192], b[8192];
	u8 *blob = NULL;
	int ret = sched_recording(env, &r);

	if (ret != TEST_OK)
		return ret;
	ret = TEST_FAIL;
	te = trace_event__new(r.tracing, r.tracing_size, &err);
	blob = malloc(r.tracing_size);
	if (!te || !blob)
		goto out;
	memcpy(blob, r.tracing, r.tracing_size);
	if (swap_blob(blob, r.tracing_size, trace_event__file_bigendian(te))) {
		if (env->verbose)
			fprintf(stderr, "cannot walk the tracing data of sched.data\n");
		goto out;
	}
	swapped = trace_event__new(blob, r.tracing_size, &err);
	if (!swapped || trace_event__file_bigendian(swapped) == trace_event__file_bigendian(te)) {
		if (env->verbose)
			fprintf(stderr, "swapped tracing data: %s\n", swapped ? "same byte order" : err.msg);
		goto out;
	}
	for (size_t i = 0; i < r.nr; i++) {
		struct raw_sample *s = &r.samples[i];
		int na, nb;

		na = trace_event__format(te, s->config, s->data, s->size, s->cpu, a, sizeof(a), &err);
		/* the raw data is read through the unswapped format first, then swapped */
		if (na < 0 || swap_record(te, s->data, s->size))
			goto out;
		nb = trace_event__format(swapped, s->config, s->data, s->size, s->cpu, b, sizeof(b),
					 &err);
		if (nb != na || strcmp(a, b)) {
			if (env->verbose)
				fprintf(stderr, "sample %zu:\n  file order: %s\n  swapped:    %s\n", i, a,
					nb >= 0 ? b : err.msg);
			goto out;
		}
	}
	ret = r.nr ? TEST_OK : TEST_FAIL;
out:
	if (ret != TEST_OK && env->verbose && err.msg[0])
		fprintf(stderr, "%s\n", err.msg);
	trace_event__delete(te);
	trace_event__delete(swapped);
	free(blob);
	recording__exit(&r);
	return ret;
}
