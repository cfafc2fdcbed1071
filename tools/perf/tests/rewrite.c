// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include "rewrite.h"

int test_rewrite(const char *in, const char *out, test_rewrite_fn each, void *ctx,
		 struct perf_err *err)
{
	struct perf_data *data = perf_data__open(in, err);
	struct perf_data_record r;
	struct perf_writer *w;
	int ret;

	if (!data)
		return -EIO;
	w = perf_writer__new(out, NULL, err);
	if (!w) {
		ret = -EIO;
		goto out_close;
	}
	ret = perf_writer__copy_header(w, data, err);
	while (!ret && (ret = perf_data__next(data, &r, err)) > 0)
		ret = each(w, data, &r, ctx, err);
	if (!ret)
		ret = each(w, data, NULL, ctx, err);
	if (!ret)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
out_close:
	perf_data__close(data);
	return ret;
}

int test_write_restrung(struct perf_writer *w, const struct perf_event_header *rec,
			size_t fixed, const char *str, struct perf_err *err)
{
	const char *old = (const char *)rec + fixed;
	size_t room = rec->size > fixed ? rec->size - fixed : 0;
	size_t old_len = (strnlen(old, room) + 8) & ~(size_t)7;
	size_t len = (strlen(str) + 8) & ~(size_t)7;
	union {
		struct perf_event_header header;
		unsigned char bytes[256];
	} u;
	size_t trailer;

	if (old_len > room || fixed + len + room - old_len > sizeof(u))
		return perf_err__set(err, EINVAL, "a record of type %u, %u bytes, has no string at %zu",
				     rec->type, rec->size, fixed);
	trailer = room - old_len;
	memset(&u, 0, sizeof(u));
	memcpy(u.bytes, rec, fixed);
	memcpy(u.bytes + fixed, str, strlen(str));
	memcpy(u.bytes + fixed + len, old + old_len, trailer);
	u.header.size = (unsigned short)(fixed + len + trailer);
	return perf_writer__write(w, &u.header, err);
}
