// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-line half of cursor.h: failures, strings and sub-cursors. Every read goes through
 * perf_cursor__bytes(), the only place that compares a length with what is left.
 */
#include <errno.h>
#include <string.h>
#include <perf/cursor.h>

void perf_cursor__init(struct perf_cursor *c, const void *buf, size_t size, bool swapped)
{
	/* a NULL buffer is an empty one: base stays a valid pointer for perf_cursor__ptr() */
	static const u8 empty[1];

	memset(c, 0, sizeof(*c));
	c->base = buf ? buf : empty;
	c->end = buf ? size : 0;
	c->swapped = swapped;
}

void perf_cursor__fail(struct perf_cursor *c, enum perf_cursor_fault fault, size_t need)
{
	if (!c->err) {
		c->err = -EINVAL;
		c->fault = fault;
		c->err_at = c->pos;
		c->err_need = need;
		c->err_left = perf_cursor__left(c);
		c->err_what = c->what;
	}
	/* exhausted: every later read fails too */
	c->pos = c->end;
}

const char *perf_cursor__cstring(struct perf_cursor *c, size_t max)
{
	size_t n = perf_cursor__left(c) < max ? perf_cursor__left(c) : max;
	const u8 *s = c->base + c->pos, *nul;

	if (c->err) {
		perf_cursor__fail(c, PERF_CURSOR_SHORT, 1);
		return NULL;
	}
	nul = memchr(s, '\0', n);
	if (!nul) {
		perf_cursor__fail(c, PERF_CURSOR_NO_NUL, n);
		return NULL;
	}
	c->pos += (size_t)(nul - s) + 1;
	return (const char *)s;
}

const u8 *perf_cursor__pstring(struct perf_cursor *c, u32 *len)
{
	const u8 *s;

	*len = perf_cursor__u32(c);
	s = perf_cursor__bytes(c, *len);
	if (!s)
		*len = 0;
	return s;
}

const char *perf_cursor__str(struct perf_cursor *c)
{
	size_t at = c->pos;
	u32 len;
	const u8 *s = perf_cursor__pstring(c, &len);

	if (s && !memchr(s, '\0', len)) {
		/* the failure is the string's, not the bytes after it */
		c->pos = at + 4;
		perf_cursor__fail(c, PERF_CURSOR_NO_NUL, len);
		return NULL;
	}
	return (const char *)s;
}

int perf_cursor__sub(struct perf_cursor *c, size_t n, struct perf_cursor *sub)
{
	size_t at = c->pos;

	if (!perf_cursor__bytes(c, n)) {
		perf_cursor__init(sub, NULL, 0, c->swapped);
		return -EINVAL;
	}
	*sub = *c;
	sub->pos = at;
	sub->end = at + n;
	return 0;
}
