// SPDX-License-Identifier: GPL-2.0
/* LOST_SAMPLES from the counters' PERF_FORMAT_LOST. See record-lost.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/event.h>
#include <perf/synthesize.h>
#include "record-lost.h"

int read_format__lost(u64 read_format, const u64 *buf, size_t size, u64 *lost)
{
	/* value, time_enabled, time_running, id, lost: each present as its bit says */
	size_t at = 1;

	if (!(read_format & PERF_FORMAT_LOST) || (read_format & PERF_FORMAT_GROUP))
		return -EINVAL;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		at++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		at++;
	if (read_format & PERF_FORMAT_ID)
		at++;
	if (size < (at + 1) * sizeof(u64))
		return -EINVAL;
	*lost = buf[at];
	return 0;
}

int read_format__group_lost(u64 read_format, const u64 *buf, size_t size, size_t idx, u64 *id,
			    u64 *lost)
{
	/* nr, [time_enabled], [time_running], then per member: value, id, lost */
	size_t head = 1, words = size / sizeof(u64);

	if ((read_format & (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST)) !=
	    (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST) || !words || idx >= buf[0])
		return -EINVAL;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head++;
	if (head + 3 * (idx + 1) > words)
		return -EINVAL;
	*id = buf[head + 3 * idx + 1];
	*lost = buf[head + 3 * idx + 2];
	return 0;
}

static int record_lost__emit(const struct perf_event_attr *attr, u64 id, u64 lost,
			     record_lost_emit_fn emit, void *ctx, struct perf_err *err)
{
	u64 rec[64];	/* the record and the largest sample_id trailer */
	int ret = record_lost__synthesize(rec, sizeof(rec), attr, id, lost);

	if (ret < 0)
		return perf_err__set(err, -ret, "cannot build a LOST_SAMPLES record");
	return emit(ctx, (const struct perf_event_header *)rec);
}

/*
 * A group read (-e '{a,b}:S') gives every member's count, whichever member's descriptor is
 * read: the leader's descriptor (the first entry is its own id) reports for all of them.
 */
static int record_lost__group(const struct evlist_open *el, const struct perf_event_attr *attrs,
			      size_t slot, size_t e, record_lost_emit_fn emit, void *ctx,
			      u64 *total, struct perf_err *err)
{
	size_t words = 3 + 3 * el->nr_events;
	u64 *buf = calloc(words, sizeof(*buf));
	int fd = el->fds[slot * el->nr_events + e];
	u64 id, lost;
	ssize_t n;
	int ret = 0;

	if (!buf)
		return perf_err__set(err, ENOMEM, "out of memory");
	n = read(fd, buf, words * sizeof(*buf));
	if (n < 0) {
		ret = perf_err__set(err, errno, "cannot read the lost samples of event %zu: %m", e);
		goto out_free;
	}
	if (read_format__group_lost(attrs[e].read_format, buf, (size_t)n, 0, &id, &lost)) {
		ret = perf_err__set(err, EINVAL, "event %zu: a short read (%zd bytes) of its group",
				    e, n);
		goto out_free;
	}
	if (id != el->ids[slot * el->nr_events + e])
		goto out_free;	/* a member: its leader reports */
	for (size_t k = 0; k < buf[0] && !ret; k++) {
		size_t m;

		if (read_format__group_lost(attrs[e].read_format, buf, (size_t)n, k, &id, &lost)) {
			ret = perf_err__set(err, EINVAL, "event %zu: a short read (%zd bytes) of its group",
					    e, n);
			break;
		}
		if (!lost)
			continue;
		for (m = 0; m < el->nr_events; m++)
			if (el->ids[slot * el->nr_events + m] == id)
				break;
		if (m == el->nr_events) {
			ret = perf_err__set(err, EINVAL, "event %zu: its group read has an unknown id %llu",
					    e, (unsigned long long)id);
			break;
		}
		ret = record_lost__emit(&attrs[m], id, lost, emit, ctx, err);
		if (!ret)
			*total += lost;
	}
out_free:
	free(buf);
	return ret;
}

int record_lost__synthesize(void *buf, size_t len, const struct perf_event_attr *attr, u64 id,
			    u64 lost)
{
	struct perf_record_lost_samples *ls = buf;
	struct perf_sample s = { .id = id };
	int n;

	if (len < sizeof(*ls))
		return -E2BIG;
	memset(ls, 0, sizeof(*ls));
	n = perf_sample__synthesize_id(attr, &s, false, ls + 1, len - sizeof(*ls));
	if (n < 0)
		return n;
	ls->header.type = PERF_RECORD_LOST_SAMPLES;
	ls->header.size = (u16)(sizeof(*ls) + (size_t)n);
	ls->lost = lost;
	return (int)ls->header.size;
}

int record_lost__write_all(const struct evlist_open *el, const struct perf_event_attr *attrs,
			   record_lost_emit_fn emit, void *ctx, u64 *total, struct perf_err *err)
{
	*total = 0;
	for (size_t s = 0; s < el->nr_slots; s++) {
		for (size_t e = 0; e < el->nr_events; e++) {
			const struct perf_event_attr *a = &attrs[e];
			int fd = el->fds[s * el->nr_events + e];
			u64 buf[8], lost;
			ssize_t n;
			int ret;

			if (fd < 0 || !(a->read_format & PERF_FORMAT_LOST))
				continue;
			if (a->read_format & PERF_FORMAT_GROUP) {
				ret = record_lost__group(el, attrs, s, e, emit, ctx, total, err);
				if (ret)
					return ret;
				continue;
			}
			n = read(fd, buf, sizeof(buf));
			if (n < 0)
				return perf_err__set(err, errno, "cannot read the lost samples of event %zu: %m",
						     e);
			if (read_format__lost(a->read_format, buf, (size_t)n, &lost))
				return perf_err__set(err, EINVAL,
						     "event %zu: a short read (%zd bytes) of its counter",
						     e, n);
			if (!lost)
				continue;
			ret = record_lost__emit(a, el->ids[s * el->nr_events + e], lost, emit, ctx,
						err);
			if (ret)
				return ret;
			*total += lost;
		}
	}
	return 0;
}
