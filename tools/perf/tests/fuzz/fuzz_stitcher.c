// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the deferred-callchain stitcher: the input is a program of
 * operations (sample, record, exit, flush) on a few tids and cookies, run against a small
 * memory cap. Every sample must come out exactly once, no callchain handed to the
 * deliver callback may be longer than what it was built from, and every priv handed to
 * queue() must come back exactly once, through deliver() or put() (also on errors).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perf/data.h>
#include "util/deferred.h"

struct fuzz_state {
	u64	queued, delivered;
	u64	max_nr;
	s64	privs_out;	/* handed to queue(), not back yet */
};

static void put(void *arg, void *priv)
{
	struct fuzz_state *st = arg;

	if (priv != st)
		abort();
	st->privs_out--;
}

static int deliver(void *arg, const struct deferred_sample *from, struct perf_sample *sample)
{
	const struct perf_event_header *event = from->event;
	struct perf_evattr *evattr = from->evattr;
	struct fuzz_state *st = arg;
	volatile u64 sum = 0;

	(void)event;
	(void)evattr;
	if (from->priv)
		put(st, from->priv);
	if (sample->callchain_nr > st->max_nr)
		abort();
	for (u64 i = 0; i < sample->callchain_nr; i++)
		sum += sample->callchain[i];
	(void)sum;
	st->delivered++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_evattr ea = { 0 };
	struct fuzz_state st = { 0 };
	struct deferred_stitcher *ds;
	u64 rec[64], *kept = NULL;
	u64 time = 1;
	size_t pos = 1;

	if (size < 1)
		return 0;
	ea.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
	ea.attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	perf_evattr__init_positions(&ea);
	/* caps from 0 (the default) down to a few hundred bytes, to reach the release path */
	ds = deferred_stitcher__new((size_t)data[0] * 64, deliver, &st);
	if (!ds)
		return 0;
	deferred_stitcher__set_put(ds, put);
	st.max_nr = 4 + 2 + 8;	/* kernel ips + marker/cookie + user ips */
	while (pos + 3 <= size) {
		u8 op = data[pos] & 3, tid = data[pos + 1] & 7, cookie = data[pos + 2] & 7;
		u8 nr = (u8)(data[pos] >> 2) & 7;
		struct perf_event_header h;
		struct perf_sample s;
		struct perf_err err;
		size_t n = 1;

		pos += 3;
		time += data[pos - 1];
		switch (op) {
		case 0: {	/* a sample: [KERNEL, k ips..., USER_DEFERRED, cookie] */
			u64 k = nr & 3;

			rec[n++] = 0xffffffff81000000ULL + tid;		/* ip */
			rec[n++] = (u64)tid << 32 | tid;		/* pid/tid */
			rec[n++] = time;
			rec[n++] = k ? k + 3 : 2;			/* callchain nr */
			if (k) {
				rec[n++] = PERF_CONTEXT_KERNEL;
				for (u64 i = 0; i < k; i++)
					rec[n++] = 0xffffffff81000100ULL + i;
			}
			rec[n++] = PERF_CONTEXT_USER_DEFERRED;
			rec[n++] = 0x100000001ULL * cookie | 1;
			h = (struct perf_event_header){ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, (u16)(n * 8) };
			memcpy(rec, &h, sizeof(h));
			if (perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err))
				abort();
			if (!s.deferred_callchain)
				abort();
			st.queued++;
			if (nr & 4) {
				/* the session's way: a peek now, the full parse at delivery */
				struct deferred_sample q = { .event = (void *)rec, .evattr = &ea, .priv = &st };

				if (!perf_evattr__peek_deferred(&ea, (void *)rec, false, &q.tid, &q.cookie) ||
				    q.tid != s.tid || q.cookie != s.deferred_cookie)
					abort();
				st.privs_out++;
				if (deferred_stitcher__queue(ds, &q))
					goto out;
			} else if (deferred_stitcher__sample(ds, (void *)rec, &s, &ea, false)) {
				goto out;
			}
			break;
		}
		case 1: {	/* a record: cookie, nr, user ips, then tid/time */
			rec[n++] = 0x100000001ULL * cookie | 1;
			rec[n++] = nr;
			for (u64 i = 0; i < nr; i++)
				rec[n++] = 0x401000 + i * 16;
			rec[n++] = (u64)tid << 32 | tid;
			rec[n++] = time;
			h = (struct perf_event_header){ PERF_RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER, (u16)(n * 8) };
			memcpy(rec, &h, sizeof(h));
			if (perf_record_callchain_deferred__check((void *)rec, ea.id_hdr_size, &err))
				abort();
			if (perf_evattr__parse_sample(&ea, (void *)rec, false, NULL, &s, &err))
				abort();
			if (nr & 4) {
				/* a stable record (the file mapping): kept by reference until the end */
				u64 *keep = malloc(n * 8 + 8);

				if (!keep)
					abort();
				keep[0] = (u64)(uintptr_t)kept;
				memcpy(keep + 1, rec, n * 8);
				kept = keep;
				if (deferred_stitcher__record(ds, (void *)(keep + 1), s.tid, true))
					goto out;
			} else if (deferred_stitcher__record(ds, (void *)rec, s.tid, false)) {
				goto out;
			}
			break;
		}
		case 2:
			if (deferred_stitcher__thread_exit(ds, tid))
				goto out;
			break;
		default:
			if (deferred_stitcher__flush(ds))
				goto out;
			break;
		}
	}
	if (deferred_stitcher__flush(ds))
		goto out;
	/* every sample delivered exactly once */
	if (st.delivered != st.queued)
		abort();
out:
	deferred_stitcher__delete(ds);
	if (st.privs_out)
		abort();
	while (kept) {
		u64 *next = (u64 *)(uintptr_t)kept[0];

		free(kept);
		kept = next;
	}
	return 0;
}
