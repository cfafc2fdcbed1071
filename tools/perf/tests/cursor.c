// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded cursor (perf/cursor.h) at every edge, and the header-feature parser built on it
 * (perf/env.h): what is parsed, what is only read, what is an error, and the message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perf/cursor.h>
#include <perf/env.h>
#include "tests.h"

/* a read that must fail: the cursor failed with this fault at this offset */
#define ASSERT_FAULT(env, c, f, at, need)						\
	TEST_ASSERT(env, perf_cursor__failed(c) && (c)->fault == (f) && (c)->err_at == (at) &&	\
		    (c)->err_need == (need) && perf_cursor__left(c) == 0,			\
		    "fault %d at %zu need %zu left %zu, want %d at %zu need %zu",		\
		    (c)->fault, (c)->err_at, (c)->err_need, perf_cursor__left(c), f,		\
		    (size_t)(at), (size_t)(need))

static int cursor_fixed_width(const struct test_env *env)
{
	static const u8 buf[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct perf_cursor c, s;
	u16 host16;
	u64 host;

	/* 1 + 2 + 4 + 8 = 15 of 16 bytes: every read fits, the 16th byte is left */
	perf_cursor__init(&c, buf, sizeof(buf), false);
	TEST_ASSERT(env, perf_cursor__u8(&c) == 1, "u8");
	memcpy(&host16, buf + 1, 2);
	TEST_ASSERT(env, perf_cursor__u16(&c) == host16, "u16");
	perf_cursor__u32(&c);
	host = perf_cursor__u64(&c);
	TEST_ASSERT(env, !perf_cursor__failed(&c) && c.pos == 15 && perf_cursor__left(&c) == 1,
		    "pos %zu after 15 bytes", c.pos);
	/* a u16 at the last byte: one short, at offset 15 */
	c.what = "the last word";
	TEST_ASSERT(env, perf_cursor__u16(&c) == 0, "a short u16 reads as 0");
	ASSERT_FAULT(env, &c, PERF_CURSOR_SHORT, 15, 2);
	TEST_ASSERT(env, c.err_left == 1 && c.err_what && !strcmp(c.err_what, "the last word"),
		    "left %zu, what %s", c.err_left, c.err_what ? c.err_what : "(null)");
	/* sticky: a later read that would have fitted before fails and keeps the first error */
	c.what = "later";
	TEST_ASSERT(env, perf_cursor__u8(&c) == 0 && c.err_at == 15 && !strcmp(c.err_what, "the last word"),
		    "the first failure is kept");
	TEST_ASSERT(env, !perf_cursor__bytes(&c, 0), "nothing after a failure");

	/* swapped values are the host ones reversed, whatever the host's order */
	perf_cursor__init(&s, buf, sizeof(buf), true);
	perf_cursor__skip(&s, 7);
	TEST_ASSERT(env, perf_cursor__u64(&s) == __builtin_bswap64(host), "swapped u64");
	perf_cursor__init(&c, buf, 6, false);
	perf_cursor__init(&s, buf, 6, true);
	TEST_ASSERT(env, perf_cursor__u16(&s) == __builtin_bswap16(perf_cursor__u16(&c)), "swapped u16");
	TEST_ASSERT(env, perf_cursor__u32(&s) == __builtin_bswap32(perf_cursor__u32(&c)), "swapped u32");
	TEST_ASSERT(env, !perf_cursor__failed(&s) && !perf_cursor__left(&s), "6 bytes, all read");

	/* exactly at the end: the read fits, the next one does not */
	perf_cursor__init(&c, buf, 8, false);
	perf_cursor__u64(&c);
	TEST_ASSERT(env, !perf_cursor__failed(&c) && perf_cursor__bytes(&c, 0), "8 of 8 bytes");
	perf_cursor__u8(&c);
	ASSERT_FAULT(env, &c, PERF_CURSOR_SHORT, 8, 1);

	/* lengths that would overflow a pointer addition */
	perf_cursor__init(&c, buf, sizeof(buf), false);
	perf_cursor__u8(&c);
	TEST_ASSERT(env, perf_cursor__skip(&c, SIZE_MAX) == -EINVAL, "skip SIZE_MAX");
	ASSERT_FAULT(env, &c, PERF_CURSOR_SHORT, 1, SIZE_MAX);

	/* no buffer at all is an empty one */
	perf_cursor__init(&c, NULL, 100, false);
	TEST_ASSERT(env, perf_cursor__ptr(&c) && !perf_cursor__left(&c) && perf_cursor__bytes(&c, 0),
		    "NULL buffer");
	perf_cursor__u32(&c);
	ASSERT_FAULT(env, &c, PERF_CURSOR_SHORT, 0, 4);
	return TEST_OK;
}

static int cursor_strings(const struct test_env *env)
{
	static const char cs[] = "ab\0cdef";	/* 8 bytes with the literal's NUL */
	/* header strings: len 4 "abc\0", len 4 "wxyz" (no NUL), len 0, len 9 (past the end) */
	static const u8 ps[] = { 4, 0, 0, 0, 'a', 'b', 'c', 0, 4, 0, 0, 0, 'w', 'x', 'y', 'z',
				 0, 0, 0, 0, 9, 0, 0, 0, 'q' };
	struct perf_cursor c;
	const char *s;
	u32 len;

	perf_cursor__init(&c, cs, 7, false);	/* "cdef" has no NUL within the window */
	s = perf_cursor__cstring(&c, 16);
	TEST_ASSERT(env, s && !strcmp(s, "ab") && c.pos == 3, "first cstring");
	TEST_ASSERT(env, !perf_cursor__cstring(&c, 16), "cdef without its NUL");
	ASSERT_FAULT(env, &c, PERF_CURSOR_NO_NUL, 3, 4);
	/* max counts the NUL: "ab\0" fits in 3, not in 2 */
	perf_cursor__init(&c, cs, sizeof(cs), false);
	TEST_ASSERT(env, perf_cursor__cstring(&c, 3), "max 3");
	perf_cursor__init(&c, cs, sizeof(cs), false);
	TEST_ASSERT(env, !perf_cursor__cstring(&c, 2), "max 2");
	ASSERT_FAULT(env, &c, PERF_CURSOR_NO_NUL, 0, 2);
	/* at the very end there is no string */
	perf_cursor__init(&c, cs, 0, false);
	TEST_ASSERT(env, !perf_cursor__cstring(&c, 16), "empty window");
	ASSERT_FAULT(env, &c, PERF_CURSOR_NO_NUL, 0, 0);

	perf_cursor__init(&c, ps, sizeof(ps), false);
	s = perf_cursor__str(&c);
	TEST_ASSERT(env, s && !strcmp(s, "abc") && c.pos == 8, "str abc");
	/* the lenient read takes "wxyz" as 4 bytes; the strict one refuses it at its bytes */
	{
		struct perf_cursor l = c;
		const u8 *p = perf_cursor__pstring(&l, &len);

		TEST_ASSERT(env, p && len == 4 && !memcmp(p, "wxyz", 4) && l.pos == 16, "pstring wxyz");
	}
	TEST_ASSERT(env, !perf_cursor__str(&c), "str wxyz");
	ASSERT_FAULT(env, &c, PERF_CURSOR_NO_NUL, 12, 4);
	perf_cursor__init(&c, ps, sizeof(ps), false);
	perf_cursor__skip(&c, 16);
	TEST_ASSERT(env, !perf_cursor__str(&c), "a string of length 0 has no NUL");
	ASSERT_FAULT(env, &c, PERF_CURSOR_NO_NUL, 20, 0);
	perf_cursor__init(&c, ps, sizeof(ps), false);
	perf_cursor__skip(&c, 20);
	TEST_ASSERT(env, !perf_cursor__pstring(&c, &len) && len == 0, "length past the end");
	ASSERT_FAULT(env, &c, PERF_CURSOR_SHORT, 24, 9);
	/* the length itself cut short */
	perf_cursor__init(&c, ps, 2, false);
	TEST_ASSERT(env, !perf_cursor__str(&c), "cut length");
	ASSERT_FAULT(env, &c, PERF_CURSOR_SHORT, 0, 4);
	return TEST_OK;
}

static int cursor_sub(const struct test_env *env)
{
	static const u8 buf[24];
	struct perf_cursor c, sub;

	perf_cursor__init(&c, buf, sizeof(buf), true);
	perf_cursor__skip(&c, 4);
	c.what = "section";
	TEST_ASSERT(env, !perf_cursor__sub(&c, 12, &sub), "sub of 12");
	/* the sub-cursor speaks in the parent's offsets and byte order */
	TEST_ASSERT(env, sub.pos == 4 && sub.end == 16 && sub.swapped && c.pos == 16,
		    "sub [%zu, %zu), parent at %zu", sub.pos, sub.end, c.pos);
	perf_cursor__u64(&sub);
	perf_cursor__u64(&sub);
	ASSERT_FAULT(env, &sub, PERF_CURSOR_SHORT, 12, 8);
	TEST_ASSERT(env, !strcmp(sub.err_what, "section"), "what is inherited");
	/* a failure inside stays inside */
	TEST_ASSERT(env, !perf_cursor__failed(&c) && perf_cursor__left(&c) == 8, "parent untouched");
	/* a sub-cursor larger than what is left fails the parent and is empty */
	TEST_ASSERT(env, perf_cursor__sub(&c, 9, &sub) == -EINVAL, "sub of 9 with 8 left");
	ASSERT_FAULT(env, &c, PERF_CURSOR_SHORT, 16, 9);
	TEST_ASSERT(env, !perf_cursor__left(&sub) && !perf_cursor__u8(&sub) && perf_cursor__failed(&sub),
		    "the failed sub-cursor is empty");
	/* a sub-cursor of everything left, then nothing more */
	perf_cursor__init(&c, buf, sizeof(buf), false);
	TEST_ASSERT(env, !perf_cursor__sub(&c, 24, &sub) && perf_cursor__left(&sub) == 24 &&
		    !perf_cursor__left(&c), "sub of all");
	TEST_ASSERT(env, !perf_cursor__sub(&c, 0, &sub) && !perf_cursor__left(&sub), "empty sub at the end");
	return TEST_OK;
}

DEFINE_SUITE(cursor)
{
	int ret = cursor_fixed_width(env);

	if (!ret)
		ret = cursor_strings(env);
	if (!ret)
		ret = cursor_sub(env);
	return ret;
}

/* ---- the feature parser ---- */

struct sec {
	u8	buf[512];
	size_t	len;
};

static void sec__u32(struct sec *s, u32 v)
{
	memcpy(s->buf + s->len, &v, 4);
	s->len += 4;
}

static void sec__u64(struct sec *s, u64 v)
{
	memcpy(s->buf + s->len, &v, 8);
	s->len += 8;
}

/* perf's padded header string; nul false leaves the NUL out */
static void sec__str(struct sec *s, const char *str, bool nul)
{
	u32 n = (u32)strlen(str), len = nul ? (n + 1 + 7) / 8 * 8 : n;

	sec__u32(s, len);
	memset(s->buf + s->len, 0, len);
	memcpy(s->buf + s->len, str, n);
	s->len += len;
}

static int parse(struct perf_env *penv, int feat, const struct sec *s, struct perf_err *err)
{
	err->msg[0] = '\0';
	return perf_env__parse_feature(penv, feat, s->buf, s->len, false, 0x40, err);
}

DEFINE_SUITE(feature_parse)
{
	struct perf_env penv;
	struct perf_err err;
	struct sec s = { .len = 0 };
	int ret = TEST_FAIL;

	perf_env__init(&penv);
	/* a string the printer wants: NUL within its length */
	sec__str(&s, "host1", true);
	TEST_ASSERT(env, !parse(&penv, HEADER_HOSTNAME, &s, &err) &&
		    perf_env__parsed(&penv, HEADER_HOSTNAME) && !strcmp(penv.hostname, "host1"),
		    "hostname");
	/* without it: the reader cuts it at its length, the printer will not show it */
	s.len = 0;
	sec__str(&s, "host2", false);
	TEST_ASSERT(env, !parse(&penv, HEADER_HOSTNAME, &s, &err) &&
		    !perf_env__parsed(&penv, HEADER_HOSTNAME) && !strcmp(penv.hostname, "host2") &&
		    perf_env__has_feat(&penv, HEADER_HOSTNAME), "hostname without NUL");
	/* a length past the section: the reader's error, naming feature and offset */
	s.len -= 2;
	if (parse(&penv, HEADER_HOSTNAME, &s, &err) != -EINVAL ||
	    strcmp(err.msg, "header feature hostname (3) at offset 0x40 is malformed"))
		goto out;

	/* NRCPUS sizes CPU_TOPOLOGY: 2 cpus */
	s.len = 0;
	sec__u32(&s, 2);
	sec__u32(&s, 2);
	TEST_ASSERT(env, !parse(&penv, HEADER_NRCPUS, &s, &err) && penv.nr_cpus_avail == 2, "nrcpus");
	s.len = 0;
	sec__u32(&s, 1);
	sec__str(&s, "0-1", true);
	sec__u32(&s, 2);
	sec__str(&s, "0", true);
	sec__str(&s, "1", true);
	for (u32 cpu = 0; cpu < 2; cpu++) {
		sec__u32(&s, cpu);	/* core */
		sec__u32(&s, 0);	/* socket */
	}
	if (parse(&penv, HEADER_CPU_TOPOLOGY, &s, &err) ||
	    !perf_env__parsed(&penv, HEADER_CPU_TOPOLOGY) ||
	    penv.cpu_topology.nr_thread_siblings != 2 || !penv.cpu_topology.has_ids ||
	    penv.cpu_topology.core_id[1] != 1 || strcmp(penv.cpu_topology.thread_siblings[1], "1"))
		goto out;
	/* the same feature again, cut inside the ids: not fatal, no longer parsed, nothing left */
	s.len -= 4;
	if (parse(&penv, HEADER_CPU_TOPOLOGY, &s, &err) ||
	    perf_env__parsed(&penv, HEADER_CPU_TOPOLOGY) || penv.cpu_topology.core_siblings ||
	    penv.cpu_topology.nr_core_siblings)
		goto out;
	/* a socket id above the cpu count is refused (x86) */
	s.len -= 4;
	sec__u32(&s, 7);
	sec__u32(&s, 7);
	if (parse(&penv, HEADER_CPU_TOPOLOGY, &s, &err) || perf_env__parsed(&penv, HEADER_CPU_TOPOLOGY))
		goto out;

	/*
	 * NRCPUS claiming 2^32 - 1 cpus: the ids cannot all be in the section, refused before
	 * anything is allocated for them (the old printer looped over them for minutes)
	 */
	penv.nr_cpus_avail = UINT32_MAX;
	if (parse(&penv, HEADER_CPU_TOPOLOGY, &s, &err) || perf_env__parsed(&penv, HEADER_CPU_TOPOLOGY) ||
	    penv.cpu_topology.core_id)
		goto out;

	/* swapped: a big-endian writer's u32 pair */
	s.len = 0;
	sec__u32(&s, __builtin_bswap32(8));
	sec__u32(&s, __builtin_bswap32(6));
	if (perf_env__parse_feature(&penv, HEADER_NRCPUS, s.buf, s.len, true, 0, &err) ||
	    penv.nr_cpus_avail != 8 || penv.nr_cpus_online != 6)
		goto out;

	/* an event description with flags perf does not know: names kept, not shown */
	s.len = 0;
	sec__u32(&s, 1);
	sec__u32(&s, PERF_ATTR_SIZE_VER0);
	{
		struct perf_event_attr attr = { .flags = 1ULL << 63 };

		memcpy(s.buf + s.len, &attr, PERF_ATTR_SIZE_VER0);
		s.len += PERF_ATTR_SIZE_VER0;
	}
	sec__u32(&s, 1);
	sec__str(&s, "cycles", true);
	sec__u64(&s, 42);
	if (parse(&penv, HEADER_EVENT_DESC, &s, &err) || perf_env__parsed(&penv, HEADER_EVENT_DESC) ||
	    penv.nr_events != 1 || strcmp(penv.events[0].name, "cycles") ||
	    penv.events[0].ids[0] != 42)
		goto out;
	/* and one cut inside its ids: the reader's error */
	s.len -= 4;
	if (parse(&penv, HEADER_EVENT_DESC, &s, &err) != -EINVAL || penv.nr_events)
		goto out;

	/* features newer than perf 7.2 are skipped */
	if (perf_env__parse_feature(&penv, HEADER_LAST_FEATURE, s.buf, 1, false, 0, &err) ||
	    perf_env__has_feat(&penv, HEADER_LAST_FEATURE))
		goto out;
	ret = TEST_OK;
out:
	if (ret && env->verbose)
		fprintf(stderr, "feature parse failed (last message: %s)\n", err.msg);
	perf_env__exit(&penv);
	return ret;
}
