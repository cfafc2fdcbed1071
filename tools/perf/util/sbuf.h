/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbuf.h - a growable byte buffer with the few formatters perf script's hot path needs.
 *
 * perf script prints ~15 lines per sample; building a sample's text here and writing it
 * with one fwrite() is several times cheaper than fprintf() per field. The buffer owns its
 * memory; sbuf__reset() keeps the allocation for the next use. Allocation failure is sticky
 * (sbuf.oom) and checked once by the writer, so the formatters stay branch-light.
 */
#ifndef PERF_UTIL_SBUF_H
#define PERF_UTIL_SBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <perf/abi.h>

struct sbuf {
	char	*buf;
	size_t	len, alloc;
	bool	oom;
};

void sbuf__init(struct sbuf *sb);
void sbuf__exit(struct sbuf *sb);
bool sbuf__grow(struct sbuf *sb, size_t extra);

static inline void sbuf__reset(struct sbuf *sb)
{
	sb->len = 0;
}

static inline void sbuf__add(struct sbuf *sb, const void *p, size_t n)
{
	if (sb->alloc - sb->len < n && !sbuf__grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
}

static inline void sbuf__addc(struct sbuf *sb, char c)
{
	if (sb->alloc == sb->len && !sbuf__grow(sb, 1))
		return;
	sb->buf[sb->len++] = c;
}

static inline void sbuf__adds(struct sbuf *sb, const char *s)
{
	sbuf__add(sb, s, strlen(s));
}

/* lowercase hex, right-aligned with spaces to width ("%*llx") */
void sbuf__hex(struct sbuf *sb, u64 v, int width);
/* decimal, right-aligned to width with spaces or zeros ("%*llu", "%0*llu") */
void sbuf__dec(struct sbuf *sb, u64 v, int width, bool zero_pad);
void sbuf__printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* writes the buffer to fp and resets it; -ENOMEM, or the failed write's -errno (-EIO if none) */
int sbuf__flush(struct sbuf *sb, FILE *fp);

#endif
