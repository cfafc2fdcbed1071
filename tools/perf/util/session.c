// SPDX-License-Identifier: GPL-2.0
/*
 * The session: reader -> validation -> ordered events -> deferred stitching -> tool.
 *
 * Validation ladder, per record:
 *   reader    size < 8, past the section, bad zstd ............ abort (the rest is unreadable)
 *   type      unknown kernel record type ....................... skip, counted
 *   sample    id matches no attr ................................ skip, counted
 *   sample    a field (callchain, branches, stack...) past the end abort, names offset + type
 *   side-band body shorter than its fixed part, unterminated name abort, names offset + type
 *   deferred  nr larger than the record ........................ abort, names offset + type
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "deferred.h"
#include "dump.h"
#include "session.h"

#define SCRATCH_WORDS	(65536 / 8)

static int session__deliver_sample(void *arg, const struct perf_event_header *event,
				   struct perf_sample *sample, struct perf_evattr *evattr)
{
	struct perf_session *session = arg;

	session->stats.nr_samples++;
	session->stats.total_period += sample->period;
	return session->tool->sample(session->tool, session, event, sample, evattr);
}

/* parse into sample with scratch; a failure names the record and its offset in err */
static int session__parse_into(struct perf_err *err, const struct perf_event_header *event,
			       u64 file_offset, struct perf_evattr *ea, bool swapped, u64 *scratch,
			       struct perf_sample *sample)
{
	char why[sizeof(err->msg)];
	struct perf_err perr;

	if (!perf_evattr__parse_sample(ea, event, swapped, scratch, sample, &perr))
		return 0;
	snprintf(why, sizeof(why), "%s", perr.msg);
	perf_err__set(err, EINVAL, "%s record at offset %#" PRIx64 ": %s",
		      perf_record_type__name(event->type), file_offset, why);
	return -EINVAL;
}

/* the stitcher's parse of a sample it queued after a peek: errors name the sample's offset */
static int session__stitcher_parse(void *arg, const struct perf_event_header *event,
				   u64 file_offset, struct perf_evattr *ea, bool swapped,
				   u64 *scratch, struct perf_sample *sample)
{
	struct perf_session *session = arg;
	struct perf_err err;
	int ret = session__parse_into(&err, event, file_offset, ea, swapped, scratch, sample);

	/* several queued samples can fail in one go: the first one is the one to report */
	if (ret && !session->err.msg[0])
		session->err = err;
	return ret;
}

/* build ids from the header (or pipe records) tell the dsos which debug files fit them */
static int session__apply_build_ids(struct perf_session *session)
{
	const struct perf_env *env = perf_data__env(session->data);

	for (size_t i = 0; i < env->nr_build_ids; i++) {
		const struct perf_build_id_entry *e = &env->build_ids[i];
		struct dso *dso;

		if (!e->filename[0])
			continue;
		dso = dsos__findnew(&session->machine.dsos, e->filename, dso__kind_of(e->filename));
		if (!dso)
			return -ENOMEM;
		if (!dso->has_build_id)
			dso__set_build_id(dso, e->build_id, e->size);
	}
	return 0;
}

static void session__name_attrs(struct perf_session *session)
{
	for (size_t i = 0; i < perf_data__nr_attrs(session->data); i++)
		perf_session__evattr_name(session, perf_data__attr(session->data, i));
}

struct perf_session *perf_session__new(const struct session_opts *opts, const struct perf_tool *tool,
				       struct perf_err *err)
{
	struct perf_session *session = calloc(1, sizeof(*session));

	if (!session) {
		perf_err__set(err, ENOMEM, "out of memory");
		return NULL;
	}
	session->opts = *opts;
	session->tool = tool;
	session->data = perf_data__open(opts->path, err);
	if (!session->data)
		goto out_free;
	if (machine__init(&session->machine, opts->symbol_conf)) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_close;
	}
	session->scratch = malloc(SCRATCH_WORDS * sizeof(u64));
	if (!session->scratch) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_machine;
	}
	if (tool->merge_deferred_callchains) {
		session->stitcher = deferred_stitcher__new(opts->deferred_max_mem,
							   session__deliver_sample, session);
		if (!session->stitcher) {
			perf_err__set(err, ENOMEM, "out of memory");
			goto out_scratch;
		}
		deferred_stitcher__set_parse(session->stitcher, session__stitcher_parse);
	}
	if (session__apply_build_ids(session)) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_stitcher;
	}
	session__name_attrs(session);
	return session;

out_stitcher:
	deferred_stitcher__delete(session->stitcher);
out_scratch:
	free(session->scratch);
out_machine:
	machine__exit(&session->machine);
out_close:
	perf_data__close(session->data);
out_free:
	free(session);
	return NULL;
}

void perf_session__delete(struct perf_session *session)
{
	if (!session)
		return;
	ordered_events__exit(&session->oe);
	deferred_stitcher__delete(session->stitcher);
	machine__exit(&session->machine);
	perf_data__close(session->data);
	free(session->scratch);
	free(session);
}

const char *perf_session__evattr_name(struct perf_session *session, struct perf_evattr *ea)
{
	char buf[128];

	(void)session;
	if (!ea)
		return "unknown";
	if (!ea->name) {
		perf_evattr__default_name(&ea->attr, buf, sizeof(buf));
		ea->name = strdup(buf);
		if (!ea->name)
			return "unknown";
	}
	return ea->name;
}

/* the fixed part of each side-band record that must fit before its sample_id */
static size_t fixed_size(u32 type)
{
	return perf_record_type__min_size(type);
}

static int session__parse(struct perf_session *session, const struct perf_event_header *event,
			  u64 file_offset, struct perf_evattr *ea, struct perf_sample *sample)
{
	if (!ea) {
		memset(sample, 0, sizeof(*sample));
		sample->pid = sample->tid = sample->cpu = (u32)-1;
		return event->type == PERF_RECORD_SAMPLE ? -ENOENT : 0;
	}
	return session__parse_into(&session->err, event, file_offset, ea,
				   perf_data__needs_swap(session->data), session->scratch, sample);
}

static int session__bad_record(struct perf_session *session, const struct perf_event_header *event,
			       u64 file_offset, const char *what)
{
	return perf_err__set(&session->err, EINVAL, "%s record at offset %#" PRIx64 " (size %u): %s",
			     perf_record_type__name(event->type), file_offset, event->size, what);
}

static int session__check_deferred_record(struct perf_session *session,
					  const struct perf_event_header *event, u64 file_offset,
					  const struct perf_evattr *ea)
{
	char why[sizeof(session->err.msg)];

	if (!perf_record_callchain_deferred__check(event, ea ? ea->id_hdr_size : 0, &session->err))
		return 0;
	snprintf(why, sizeof(why), "%s", session->err.msg);
	return session__bad_record(session, event, file_offset, why);
}

/* a side-band record must hold its fixed fields and its sample_id */
static int session__check_fixed(struct perf_session *session, const struct perf_event_header *event,
				u64 file_offset, const struct perf_evattr *ea)
{
	if (event->size >= fixed_size(event->type) + (ea ? ea->id_hdr_size : 0))
		return 0;
	return session__bad_record(session, event, file_offset,
				   "shorter than its fixed fields and sample_id");
}

/* a failure nothing explained yet gets the record's name and offset */
static int session__failed(struct perf_session *session, const struct perf_event_header *event,
			   u64 file_offset, int ret)
{
	if (ret && !session->err.msg[0])
		session__bad_record(session, event, file_offset,
				    ret == -ENOMEM ? "out of memory" : "malformed record");
	return ret;
}

/* a record in the file mapping waits by reference, others as a copy */
static int session__queue_deferred(struct perf_session *session,
				   const struct perf_event_header *event, u64 file_offset,
				   struct perf_evattr *ea, bool stable, u32 tid, u64 cookie)
{
	struct deferred_sample ds = {
		.event = event, .evattr = ea, .file_offset = file_offset, .cookie = cookie,
		.tid = tid, .swapped = perf_data__needs_swap(session->data), .stable = stable,
	};

	return deferred_stitcher__queue(session->stitcher, &ds);
}

/*
 * The stitcher's share of the records, without the full parse: a deferred sample is
 * peeked at for its tid and cookie and fully parsed once, when the stitcher delivers it; a
 * type-22 record only needs its tid. Returns 1 for a record this did not take.
 */
static int session__deliver_to_stitcher(struct perf_session *session,
					const struct perf_event_header *event, u64 file_offset,
					struct perf_evattr *ea, bool stable)
{
	bool swapped = perf_data__needs_swap(session->data);
	u64 cookie;
	u32 tid;
	int ret;

	if (event->type == PERF_RECORD_SAMPLE) {
		if (!ea || !perf_evattr__peek_deferred(ea, event, swapped, &tid, &cookie))
			return 1;
		ret = session__queue_deferred(session, event, file_offset, ea, stable, tid, cookie);
	} else if (event->type == PERF_RECORD_CALLCHAIN_DEFERRED) {
		ret = session__check_fixed(session, event, file_offset, ea);
		if (!ret)
			ret = session__check_deferred_record(session, event, file_offset, ea);
		if (ret)
			return ret;
		if (!ea || perf_evattr__parse_tid(ea, event, swapped, &tid))
			tid = (u32)-1;
		ret = deferred_stitcher__record(session->stitcher, (const void *)event, tid, stable);
	} else {
		return 1;
	}
	return session__failed(session, event, file_offset, ret);
}

/* deliver one kernel record (time-ordered) to the stitcher / machine / tool */
static int session__deliver(struct perf_session *session, const struct perf_event_header *event,
			    u64 file_offset, bool stable)
{
	const struct perf_tool *tool = session->tool;
	struct perf_evattr *ea = perf_data__attr_of(session->data, event);
	struct perf_sample sample;
	int ret;

	/* -D prints every record parsed: it takes the long way */
	if (session->stitcher && !session->opts.dump_trace) {
		ret = session__deliver_to_stitcher(session, event, file_offset, ea, stable);
		if (ret <= 0)
			return ret;
	}
	ret = session__parse(session, event, file_offset, ea, &sample);
	if (session->opts.dump_trace)
		dump__event(session, event, file_offset, ret && ret != -ENOENT ? NULL : &sample, ea);
	if (ret == -ENOENT) {
		/* a sample of an event the header does not list: skipped, counted, as in perf */
		session->stats.nr_unknown_id++;
		session->err.msg[0] = '\0';
		return 0;
	}
	if (ret)
		return ret;	/* fields past the end of the record: the file is corrupt */
	if (event->type != PERF_RECORD_SAMPLE) {
		ret = session__check_fixed(session, event, file_offset, ea);
		if (ret)
			return ret;
	}

	switch (event->type) {
	case PERF_RECORD_SAMPLE:
		if (sample.deferred_callchain && sample.callchain_nr >= 2 && session->stitcher) {
			ret = session__queue_deferred(session, event, file_offset, ea, stable,
						      sample.tid, sample.deferred_cookie);
			break;
		}
		return session__deliver_sample(session, event, &sample, ea);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		ret = tool->mmap(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_COMM:
		ret = tool->comm(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_FORK:
		ret = tool->fork(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_EXIT:
		if (session->stitcher) {
			const struct perf_record_fork *f = (const void *)event;

			ret = deferred_stitcher__thread_exit(session->stitcher, f->tid);
			if (ret)
				return ret;
		}
		ret = tool->exit(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_LOST: {
		const struct perf_record_lost *l = (const void *)event;

		session->stats.nr_lost_events++;
		session->stats.total_lost += l->lost;
		ret = tool->lost(tool, session, event, &sample, ea);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		const struct perf_record_lost_samples *l = (const void *)event;

		session->stats.total_lost_samples += l->lost;
		ret = tool->lost(tool, session, event, &sample, ea);
		break;
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (event->type == PERF_RECORD_THROTTLE)
			session->stats.nr_throttle++;
		else
			session->stats.nr_unthrottle++;
		ret = tool->throttle(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_KSYMBOL:
		ret = tool->ksymbol(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_CALLCHAIN_DEFERRED:
		ret = session__check_deferred_record(session, event, file_offset, ea);
		if (ret)
			return ret;
		if (session->stitcher)
			ret = deferred_stitcher__record(session->stitcher, (const void *)event, sample.tid,
								stable);
		else
			ret = tool->callchain_deferred(tool, session, event, &sample, ea);
		break;
	default:
		ret = tool->other(tool, session, event, &sample, ea);
		break;
	}
	return session__failed(session, event, file_offset, ret);
}

static int session__oe_deliver(void *arg, const struct ordered_event *oe)
{
	return session__deliver(arg, oe->event, oe->file_offset, oe->stable);
}

static int session__process_user_meta(struct perf_session *session, const struct perf_data_record *rec)
{
	const struct perf_event_header *event = rec->header;
	const struct perf_tool *tool = session->tool;
	struct perf_sample sample;

	memset(&sample, 0, sizeof(sample));
	switch (event->type) {
	case PERF_RECORD_FINISHED_ROUND:
		if (tool->ordered_events) {
			int ret = ordered_events__flush(&session->oe, OE_FLUSH__ROUND);

			if (ret)
				return ret;
		}
		break;
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
		session__name_attrs(session);
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (session__apply_build_ids(session))
			return -ENOMEM;
		break;
	default:
		break;
	}
	return tool->user_meta(tool, session, event, &sample, NULL);
}

int perf_session__process_events(struct perf_session *session)
{
	const struct perf_tool *tool = session->tool;
	struct perf_data_record rec;
	int ret;

	session->err.msg[0] = '\0';
	ordered_events__init(&session->oe, session->opts.ordered_max_mem, session__oe_deliver, session);
	while ((ret = perf_data__next(session->data, &rec, &session->err)) > 0) {
		const struct perf_event_header *event = rec.header;

		/* slot 0 (no record has type 0) counts every record, as in perf */
		session->stats.nr_events[0]++;
		if (event->type < PERF_RECORD_HEADER_MAX)
			session->stats.nr_events[event->type]++;
		if (session->opts.dump_trace)
			dump__record(session, &rec);
		if (event->type >= PERF_RECORD_USER_TYPE_START) {
			ret = session__process_user_meta(session, &rec);
			if (ret)
				break;
			continue;
		}
		if (event->type >= PERF_RECORD_MAX || event->type == 0) {
			/* a record type newer than us: skip it, never stop (perf 6.1 stops) */
			session->stats.nr_unknown_events++;
			continue;
		}
		if (tool->ordered_events) {
			struct perf_evattr *ea = perf_data__attr_of(session->data, event);
			u64 time;

			/* the timestamp alone: the full parse happens once, at delivery */
			if (ea && !perf_evattr__parse_time(ea, event, perf_data__needs_swap(session->data),
							    &time)) {
				ret = ordered_events__queue(&session->oe, event, time, rec.file_offset,
							    rec.stable);
				if (ret)
					break;
				continue;
			}
		}
		ret = session__deliver(session, event, rec.file_offset, rec.stable);
		if (ret)
			break;
	}
	if (ret == 0 && tool->ordered_events)
		ret = ordered_events__flush(&session->oe, OE_FLUSH__FINAL);
	if (ret == 0 && session->stitcher)
		ret = deferred_stitcher__flush(session->stitcher);
	session->stats.nr_late_events = session->oe.nr_late;
	if (ret && !session->err.msg[0])
		perf_err__set(&session->err, ret, "processing %s failed: %s",
			      perf_data__name(session->data), strerror(-ret));
	return ret < 0 ? ret : 0;
}

/* the end-of-run warnings, in perf's words */
void perf_session__warn_about_errors(const struct perf_session *session, FILE *fp)
{
	const struct session_stats *st = &session->stats;

	if (st->nr_lost_events)
		fprintf(fp, "Processed %" PRIu64 " events and lost %" PRIu64 " chunks!\n\n"
			"Check IO/CPU overload!\n\n",
			st->nr_events[0], st->nr_lost_events);
	if (st->total_lost_samples) {
		double rate = (double)st->total_lost_samples /
			      (double)(st->nr_events[PERF_RECORD_SAMPLE] + st->total_lost_samples);

		/* perf stays quiet below 5% */
		if (rate > 0.05)
			fprintf(fp, "Processed %" PRIu64 " samples and lost %3.2f%%!\n\n",
				st->nr_events[PERF_RECORD_SAMPLE] + st->total_lost_samples, rate * 100.0);
	}
	if (st->nr_unknown_events)
		fprintf(fp, "Found %" PRIu64 " unknown events!\n\n"
			"Is this an older tool processing a perf.data file generated by a more recent tool?\n\n",
			st->nr_unknown_events);
	if (st->nr_unknown_id)
		fprintf(fp, "%" PRIu64 " samples with id not present in the header\n", st->nr_unknown_id);
	if (st->nr_late_events)
		fprintf(fp, "%" PRIu64 " out of order events recorded.\n", st->nr_late_events);
}
