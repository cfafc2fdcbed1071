// SPDX-License-Identifier: GPL-2.0
/* perf record's poll/drain loop and its end-of-run counters. See record-loop.h. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <perf/event.h>
#include "record-loop.h"
#include "record-overwrite.h"

/* a safety net only: the kernel wakes us at its watermark and SIGCHLD/SIGINT interrupt poll */
#define POLL_TIMEOUT_MS	500

void record_stats__init(struct record_stats *st)
{
	memset(st, 0, sizeof(*st));
	defer_pending__init(&st->pending);
}

void record_stats__exit(struct record_stats *st)
{
	defer_pending__exit(&st->pending);
}

static const struct perf_evattr *attr_of(const struct perf_evattr *attrs, size_t nr,
					 const struct perf_event_header *ev)
{
	const struct perf_evattr *first = &attrs[0];
	u64 id;

	if (nr == 1)
		return first;
	if (ev->type == PERF_RECORD_SAMPLE) {
		if (first->id_pos < 0 || sizeof(*ev) + (size_t)(first->id_pos + 1) * 8 > ev->size)
			return NULL;
		memcpy(&id, (const u8 *)(ev + 1) + first->id_pos * 8, 8);
	} else {
		/* is_pos counts from the trailer's end: 1 is its last u64 */
		if (first->is_pos < 1 || (size_t)first->is_pos * 8 > ev->size - sizeof(*ev))
			return NULL;
		memcpy(&id, (const u8 *)ev + ev->size - (size_t)first->is_pos * 8, 8);
	}
	for (size_t i = 0; i < nr; i++)
		for (size_t k = 0; k < attrs[i].nr_ids; k++)
			if (attrs[i].ids[k] == id)
				return &attrs[i];
	return NULL;
}

void record_stats__account(struct record_stats *st, const struct perf_evattr *attrs,
			   size_t nr_attrs, const struct perf_event_header *ev)
{
	const struct perf_evattr *ea;
	u64 cookie, time;
	u32 tid;

	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		st->samples++;
		ea = attr_of(attrs, nr_attrs, ev);
		if (ea && !perf_evattr__parse_time(ea, ev, false, &time)) {
			if (!st->first_time || time < st->first_time)
				st->first_time = time;
			if (time > st->last_time)
				st->last_time = time;
		}
		if (ea && perf_attr__has(&ea->attr, PERF_ATTR_BIT_DEFER_CALLCHAIN) &&
		    perf_evattr__peek_deferred(ea, ev, false, &tid, &cookie)) {
			st->deferred_samples++;
			defer_pending__sample(&st->pending, tid, cookie);
		}
		break;
	case PERF_RECORD_LOST:
		if (ev->size >= sizeof(struct perf_record_lost)) {
			st->lost_records++;
			st->lost += ((const struct perf_record_lost *)ev)->lost;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (ev->size >= sizeof(struct perf_record_lost_samples))
			st->lost_samples += ((const struct perf_record_lost_samples *)ev)->lost;
		break;
	case PERF_RECORD_CALLCHAIN_DEFERRED:
		st->deferred_records++;
		ea = attr_of(attrs, nr_attrs, ev);
		if (ea && ev->size >= sizeof(struct perf_record_callchain_deferred) &&
		    !perf_evattr__parse_tid(ea, ev, false, &tid))
			defer_pending__record(&st->pending, tid,
					      ((const struct perf_record_callchain_deferred *)ev)->cookie);
		break;
	default:
		break;
	}
}

void record_stats__fprintf_deferred(const struct record_stats *st, FILE *fp)
{
	fprintf(fp, "perf record: deferred callchains: %llu samples asked for one, %llu CALLCHAIN_DEFERRED records, %llu samples answered, %llu unanswered%s\n",
		(unsigned long long)st->deferred_samples,
		(unsigned long long)st->deferred_records,
		(unsigned long long)st->pending.answered,
		(unsigned long long)st->pending.waiting,
		st->pending.oom ? " (out of memory: counts are low)" : "");
}

/* a record that goes to the output */
static int record_loop__emit(void *ctx, const struct perf_event_header *ev)
{
	struct record_loop *rl = ctx;
	int ret;

	record_stats__account(&rl->stats, rl->attrs, rl->nr_attrs, ev);
	if (rl->hook) {
		ret = rl->hook(rl->hook_ctx, ev);
		if (ret)
			return ret;
	}
	ret = perf_writer__write(rl->w, ev, &rl->write_err);
	if (ret && !rl->write_errno)
		rl->write_errno = -ret;
	return ret;
}

static int record_loop__one(void *ctx, const struct perf_event_header *ev)
{
	struct record_loop *rl = ctx;

	if (rl->uid_filter &&
	    uid_filter__keep(rl->uid_filter, attr_of(rl->attrs, rl->nr_attrs, ev), ev) !=
	    UID_FILTER_KEEP)
		return 0;
	return record_loop__emit(rl, ev);
}

/*
 * One pass over every ring; FINISHED_ROUND after it when it moved anything, then a flush.
 * all: whatever each ring holds (else only rings with flush_min bytes, and no backward ring).
 */
static int record_loop__drain(struct record_loop *rl, bool all, bool *moved,
			      struct perf_err *err)
{
	struct perf_record_finished round = {
		.header = { .type = PERF_RECORD_FINISHED_ROUND, .size = sizeof(round) },
	};
	long n;
	int ret;

	*moved = false;
	if (rl->ow) {
		n = all ? record_overwrite__read(rl->ow, rl->el, record_loop__one, rl, err) : 0;
		if (n < 0)
			goto out_err;
		*moved = n > 0;
	}
	for (size_t r = 0; r < rl->el->nr_rings && !rl->ow; r++) {
		if (rl->el->ring_fds[r] < 0)
			continue;	/* every thread of it exited before it was opened */
		/* --mmap-flush: fewer, larger writes; the last pass takes the rest */
		if (!all && rl->flush_min > 1 &&
		    ring_buffer__pending(&rl->el->rings[r]) < rl->flush_min)
			continue;
		n = ring_buffer__read(&rl->el->rings[r], record_loop__one, rl, err);
		if (n < 0)
			goto out_err;
		if (n)
			*moved = true;
	}
	/* what waited for the FORKs in the rings read after it */
	n = rl->uid_filter ? uid_filter__flush(rl->uid_filter, all, record_loop__emit, rl) : 0;
	if (n)
		goto out_err;
	/* held over: the next pass's records join this round, which ends with them */
	if (!*moved || (rl->uid_filter && uid_filter__holding(rl->uid_filter)))
		return 0;
	ret = perf_writer__write(rl->w, &round.header, &rl->write_err);
	/* a pipe's reader (perf script -i -) gets the round now, not a buffer later */
	if (!ret)
		ret = perf_writer__flush(rl->w, &rl->write_err);
	if (ret) {
		rl->write_errno = -ret;
		*err = rl->write_err;
	}
	return ret;
out_err:
	if (rl->write_errno) {
		*err = rl->write_err;
		return -rl->write_errno;
	}
	return (int)n;
}

int record_loop__dump(struct record_loop *rl, struct perf_err *err)
{
	bool moved;

	return record_loop__drain(rl, true, &moved, err);
}

int record_loop__run(struct record_loop *rl, struct perf_err *err)
{
	size_t nr_fds = rl->el->nr_slots * rl->el->nr_events, nr = 0;
	size_t nr_tick = rl->tick ? rl->nr_tick_fds : 0;
	struct pollfd *pfd = calloc(nr_fds + nr_tick + 1, sizeof(*pfd));
	bool moved;
	int ret = 0;

	if (!pfd)
		return perf_err__set(err, ENOMEM, "out of memory");
	/*
	 * Every descriptor, not only each ring's owner: a descriptor hangs up when its thread
	 * exits, and the owner's thread (a process's first) may leave long before the others.
	 */
	for (size_t i = 0; i < nr_fds; i++) {
		if (rl->el->fds[i] < 0)
			continue;
		pfd[nr].fd = rl->el->fds[i];
		/* a backward ring is not read as it fills: only its hang-up matters */
		pfd[nr].events = rl->ow ? 0 : POLLIN;
		nr++;
	}
	for (size_t hup = 0;;) {
		int n, timeout = POLL_TIMEOUT_MS;

		ret = record_loop__drain(rl, false, &moved, err);
		if (ret)
			goto out;
		if (*rl->stop || (rl->wl && workload__reap(rl->wl)))
			break;
		if (rl->tick) {
			rl->tick_timeout_ms = -1;
			ret = rl->tick(rl->tick_ctx, rl, err);
			if (ret < 0)
				goto out;
			if (ret > 0)
				break;
			if (rl->tick_timeout_ms >= 0 && rl->tick_timeout_ms < timeout)
				timeout = rl->tick_timeout_ms;
		}
		if (moved)
			continue;
		/* after the event descriptors, so that their hang-ups are counted as before */
		for (size_t k = 0; k < nr_tick; k++) {
			pfd[nr + k].fd = rl->tick_fds[k];
			pfd[nr + k].events = POLLIN;
			pfd[nr + k].revents = 0;
		}
		if (rl->poll_mask) {
			struct timespec ts = { .tv_sec = timeout / 1000,
					       .tv_nsec = (long)(timeout % 1000) * 1000000 };

			n = ppoll(pfd, nr + nr_tick, &ts, rl->poll_mask);
		} else {
			n = poll(pfd, nr + nr_tick, timeout);
		}
		if (n < 0 && errno != EINTR) {
			ret = perf_err__set(err, errno, "poll: %m");
			goto out;
		}
		/* as perf counts them: every return but the safety net's timeout */
		if (n > 0 || (n < 0 && errno == EINTR))
			rl->wakeups++;
		/* without a workload, the recording ends when every target thread is gone */
		for (size_t s = 0; s < nr && n > 0; s++)
			if (pfd[s].revents & POLLHUP) {
				pfd[s].fd = -1;	/* its ring is still drained; poll no more on it */
				hup++;
			}
		if (!rl->wl && hup == nr)
			break;
	}
	/* whatever the kernel wrote until the stop */
	ret = record_loop__drain(rl, true, &moved, err);
out:
	free(pfd);
	return ret;
}
