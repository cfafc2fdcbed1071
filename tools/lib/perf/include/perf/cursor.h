/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cursor.h - the one way to read untrusted bytes (records, header features, tracing data):
 * a bounded, forward-only window that never reads outside [base + pos, base + end).
 *
 * Invariants:
 *  - pos <= end at all times; every read is checked against end before it touches memory;
 *  - offsets (pos, end, err_at) count from base, so a sub-cursor reports the same offsets
 *    as its parent and an error names a place in the whole buffer;
 *  - the first failed read is sticky: it is recorded in err*, pos moves to end, and every
 *    later read fails too and returns 0 / NULL. A caller may therefore read several fields
 *    and test perf_cursor__failed() once, or test after each read to stop at the first;
 *  - multi-byte values are converted from the buffer's byte order when swapped is set;
 *    strings and byte ranges are handed out in place, never copied or swapped.
 *
 * The cursor owns nothing: the buffer must outlive it and every pointer it returns.
 * It never prints; callers turn err* into their own message (what, where).
 */
#ifndef PERF_CURSOR_H
#define PERF_CURSOR_H

#include <stdbool.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <perf/abi.h>

enum perf_cursor_fault {
	PERF_CURSOR_OK = 0,
	PERF_CURSOR_SHORT,	/* err_need bytes were needed, err_left were left */
	PERF_CURSOR_NO_NUL,	/* a string has no NUL within its err_need bytes */
};

struct perf_cursor {
	const u8		*base;
	size_t			pos;		/* next byte to read, from base */
	size_t			end;		/* one past the last readable byte, from base */
	bool			swapped;	/* the buffer is in the other byte order */
	const char		*what;		/* set by the caller: what it is reading now */
	/* the first failure; err is 0 until then, -EINVAL after */
	int			err;
	enum perf_cursor_fault	fault;
	size_t			err_at;		/* offset from base of the failed read */
	size_t			err_need, err_left;
	const char		*err_what;	/* c->what at the time (may be NULL) */
};

/* a window on size bytes at buf, offsets from buf; a NULL buf is an empty window */
void perf_cursor__init(struct perf_cursor *c, const void *buf, size_t size, bool swapped);

static inline size_t perf_cursor__left(const struct perf_cursor *c)
{
	return c->end - c->pos;
}

/* the next byte to read (one past the last byte when nothing is left) */
static inline const u8 *perf_cursor__ptr(const struct perf_cursor *c)
{
	return c->base + c->pos;
}

static inline bool perf_cursor__failed(const struct perf_cursor *c)
{
	return c->err != 0;
}

/*
 * Record a failed read of need bytes (kept only when it is the first) and exhaust c. Readers
 * call it for what they find wrong in bytes that did fit, so one message path serves both.
 */
void perf_cursor__fail(struct perf_cursor *c, enum perf_cursor_fault fault, size_t need);

/*
 * The reads below are inline: sample parsing runs them millions of times per file, and the
 * only out-of-line part is the failure.
 */

/* n bytes in place, or NULL when fewer are left (n == 0 gives the current position) */
static inline const u8 *perf_cursor__bytes(struct perf_cursor *c, size_t n)
{
	const u8 *p;

	if (__builtin_expect(c->err || n > perf_cursor__left(c), 0)) {
		perf_cursor__fail(c, PERF_CURSOR_SHORT, n);
		return NULL;
	}
	p = c->base + c->pos;
	c->pos += n;
	return p;
}

/* advance by n bytes: 0, or -EINVAL when fewer are left */
static inline int perf_cursor__skip(struct perf_cursor *c, size_t n)
{
	return perf_cursor__bytes(c, n) ? 0 : -EINVAL;
}

/* fixed-width values in host order; 0 when they do not fit */
static inline u8 perf_cursor__u8(struct perf_cursor *c)
{
	const u8 *p = perf_cursor__bytes(c, 1);

	return p ? *p : 0;
}

static inline u16 perf_cursor__u16(struct perf_cursor *c)
{
	const u8 *p = perf_cursor__bytes(c, 2);
	u16 v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return c->swapped ? __builtin_bswap16(v) : v;
}

static inline u32 perf_cursor__u32(struct perf_cursor *c)
{
	const u8 *p = perf_cursor__bytes(c, 4);
	u32 v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return c->swapped ? __builtin_bswap32(v) : v;
}

static inline u64 perf_cursor__u64(struct perf_cursor *c)
{
	const u8 *p = perf_cursor__bytes(c, 8);
	u64 v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return c->swapped ? __builtin_bswap64(v) : v;
}

/*
 * A NUL-terminated string of at most max bytes with its NUL (or what is left, when less),
 * in place; the cursor moves past the NUL. NULL (fault NO_NUL) when there is none.
 */
const char *perf_cursor__cstring(struct perf_cursor *c, size_t max);

/*
 * perf's header string: u32 len, then len bytes (padded, normally NUL-terminated within
 * them). perf_cursor__pstring() checks the length only and gives the bytes and *len;
 * perf_cursor__str() also wants the NUL within len (fault NO_NUL) and gives the string.
 */
const u8 *perf_cursor__pstring(struct perf_cursor *c, u32 *len);
const char *perf_cursor__str(struct perf_cursor *c);

/*
 * The next n bytes as a cursor of their own (same base, byte order and what), and the parent
 * moved past them: 0, or -EINVAL (sub left empty) when fewer are left. A failure inside sub
 * does not mark the parent.
 */
int perf_cursor__sub(struct perf_cursor *c, size_t n, struct perf_cursor *sub);

#endif /* PERF_CURSOR_H */
