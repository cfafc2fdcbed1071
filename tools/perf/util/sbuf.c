// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include "sbuf.h"

void sbuf__init(struct sbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void sbuf__exit(struct sbuf *sb)
{
	free(sb->buf);
	sbuf__init(sb);
}

bool sbuf__grow(struct sbuf *sb, size_t extra)
{
	size_t want = sb->len + extra, n = sb->alloc ? sb->alloc : 4096;
	char *p;

	if (sb->oom)
		return false;
	while (n < want)
		n *= 2;
	p = realloc(sb->buf, n);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->buf = p;
	sb->alloc = n;
	return true;
}

void sbuf__hex(struct sbuf *sb, u64 v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[32], *p = tmp + sizeof(tmp);
	int n = 0;

	do {
		*--p = digits[v & 0xf];
		v >>= 4;
		n++;
	} while (v);
	while (n++ < width && p > tmp)
		*--p = ' ';
	sbuf__add(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

void sbuf__dec(struct sbuf *sb, u64 v, int width, bool zero_pad)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	int n = 0;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
		n++;
	} while (v);
	while (n++ < width && p > tmp)
		*--p = zero_pad ? '0' : ' ';
	sbuf__add(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

void sbuf__printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL, sb->alloc - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		if (!sbuf__grow(sb, (size_t)n + 1))
			return;
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

int sbuf__flush(struct sbuf *sb, FILE *fp)
{
	int ret = 0;

	errno = 0;
	if (sb->oom)
		ret = -ENOMEM;
	else if (sb->len && fwrite(sb->buf, 1, sb->len, fp) != sb->len)
		ret = errno ? -errno : -EIO;	/* the write's own reason: ENOSPC, EPIPE */
	sb->len = 0;
	sb->oom = false;
	return ret;
}
