// SPDX-License-Identifier: GPL-2.0
/*
 * The session: reader -> validation -> ordered events -> sample stages -> tool.
 *
 * Validation ladder, per record:
 *   reader    size < 8, past the section, bad zstd ............ abort (the rest is unreadable)
 *   type      user type past perf 7.2's (>= 87) ................. skip, warned per record
 *   type      unknown kernel record type ....................... skip, counted
 *   sample    id matches no attr ................................ skip, counted
 *   sample    a field (callchain, branches, stack...) past the end abort, names offset + type
 *   side-band body shorter than its fixed part, unterminated name abort, names offset + type
 *   deferred  nr larger than the record ........................ abort, names offset + type
 *   tracing   the tracing data does not parse ................... abort, names the input
 *
 * A record a stage claims raw (a deferred sample, peeked at only) passes the side-band and
 * deferred checks first; a sample it holds is parsed when it is emitted, and a field past its
 * end aborts then, naming the sample's offset.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <perf/helper-threads.h>
#include "callchain.h"
#include "deferred.h"
#include "deferred-stage.h"
#include "read-stage.h"
#include "session.h"

#define SCRATCH_WORDS	(65536 / 8)
/* perf 7.2's PERF_RECORD_HEADER_MAX: it knows 84..86 (BPF_METADATA, SCHEDSTAT_*) too */
#define UPSTREAM_USER_TYPE_END	87

/* the pipeline's sink: the tool, with the thread the sample's stage held, if any */
static int session__deliver_sample(void *arg, struct stage_sample *s)
{
	struct perf_session *session = arg;
	int ret;

	session->stats.nr_samples++;
	session->stats.total_period += s->sample->period;
	if ((s->evattr->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    callchain__user_stack_only(s->sample))
		session->stats.nr_user_stack_only++;
	session->sample_thread = s->thread;
	ret = session->tool->sample(session->tool, session, s->event, s->sample, s->evattr);
	session->sample_thread = NULL;
	return ret;
}

struct thread *perf_session__sample_thread(struct perf_session *session,
					   const struct perf_sample *sample)
{
	return sample_stage__thread_of(&session->machine, session->sample_thread, sample);
}

int perf_session__tool_error(struct perf_session *session, int errnum, const char *why)
{
	return perf_err__set(&session->err, errnum, "%s", why);
}

/*
 * Build ids from the header (or pipe records, each applied once) tell the dsos which debug
 * files fit them. An entry names a path, not a file: as upstream, it goes to the first dso
 * of that path, and of two entries of one path (a chroot's libc and the host's) the later
 * wins; the MMAP2s' own ids then tell the files apart (dsos__findnew_id()).
 */
static int session__apply_build_ids(struct perf_session *session)
{
	const struct perf_env *env = perf_data__env(session->data);

	for (; session->nr_build_ids_applied < env->nr_build_ids; session->nr_build_ids_applied++) {
		const struct perf_build_id_entry *e = &env->build_ids[session->nr_build_ids_applied];
		struct dso *dso;

		if (!e->filename[0])
			continue;
		dso = dsos__findnew(&session->machine.dsos, e->filename, dso__kind_of(e->filename));
		if (!dso)
			return -ENOMEM;
		dso__set_build_id(dso, e->build_id, e->size);
	}
	return 0;
}

/* tracepoint attrs get their names from the tracing data (a pipe's come before it) */
static int session__name_tracepoints(struct perf_session *session)
{
	for (size_t i = 0; i < perf_data__nr_attrs(session->data); i++) {
		struct perf_evattr *ea = perf_data__attr(session->data, i);
		char dflt[64], buf[256];
		char *name;

		if (ea->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		/* named before the tracing data came: replace the placeholder, nothing else */
		perf_evattr__default_name(&ea->attr, dflt, sizeof(dflt));
		if (ea->name && strcmp(ea->name, dflt))
			continue;
		if (!trace_event__name(session->tevent, ea->attr.config, buf, sizeof(buf)))
			continue;
		name = strdup(buf);
		if (!name)
			return perf_err__set(&session->err, ENOMEM, "out of memory");
		free(ea->name);
		ea->name = name;
	}
	return 0;
}

static int session__name_attrs(struct perf_session *session)
{
	for (size_t i = 0; i < perf_data__nr_attrs(session->data); i++)
		perf_evattr__name(perf_data__attr(session->data, i));
	return session->tevent ? session__name_tracepoints(session) : 0;
}

/* the tracing data is known (file header, or a pipe record that just went by) */
static int session__setup_trace_event(struct perf_session *session)
{
	const struct perf_env *env = perf_data__env(session->data);
	struct perf_err err;

	if (!env->tracing_data || session->tevent)
		return 0;
	session->tevent = trace_event__new(env->tracing_data, env->tracing_data_size, &err);
	if (!session->tevent)
		return perf_err__set(&session->err, EINVAL, "%s: tracing data: %s",
				     perf_data__name(session->data), err.msg);
	if (session->opts.trace_resolver &&
	    trace_event__set_resolver(session->tevent, session->opts.trace_resolver, session))
		return perf_err__set(&session->err, ENOMEM, "out of memory");
	return session__name_tracepoints(session);
}

struct trace_event *perf_session__trace_event(const struct perf_session *session)
{
	return session->tevent;
}

static bool session__may_have_reads(struct perf_session *session)
{
	if (perf_data__is_pipe(session->data))
		return true;
	for (size_t i = 0; i < perf_data__nr_attrs(session->data); i++)
		if (perf_data__attr(session->data, i)->attr.sample_type & PERF_SAMPLE_READ)
			return true;
	return false;
}

/* the stages, in their order: deferred stitching, the unwinder, the split of read values */
static int session__add_stages(struct perf_session *session)
{
	const struct sample_stage_env env = {
		.machine	= &session->machine,
		.data		= session->data,
		.symbol_conf	= session->opts.symbol_conf,
		.err		= &session->err,
		.nr_unknown_id	= &session->stats.nr_unknown_id,
	};
	struct sample_stage *rd;

	sample_pipeline__init(&session->pipe, session__deliver_sample, session);
	if (session->opts.merge_deferred) {
		struct sample_stage *st = deferred_stage__new(&env, session->opts.deferred_max_mem);

		if (!st || sample_pipeline__add(&session->pipe, st))
			return -ENOMEM;
	}
	if (session->opts.unwind_mode != UNWIND_MODE_NONE) {
		struct sample_stage *st = unwind_stage__new(&env, session->opts.unwind_mode);

		if (!st || sample_pipeline__add(&session->pipe, st))
			return -ENOMEM;
	}
	/* a pipe's attrs come later; a file without read values needs no stage to pass through */
	if (session->opts.keep_read_values || !session__may_have_reads(session))
		return 0;
	rd = read_stage__new(&env);
	if (!rd || sample_pipeline__add(&session->pipe, rd))
		return -ENOMEM;
	return 0;
}

/*
 * As upstream's perf_data__kallsyms_name(): the kallsyms perf record --kcore copied into a
 * perf.data directory (DIR/kcore_dir/kallsyms) gives the kernel's symbols unless --kallsyms
 * or -k says otherwise; the kcore beside it then gives the kernel's maps (kcore.h).
 */
static int session__dir_kallsyms(struct perf_session *session)
{
	const struct symbol_conf *conf = session->opts.symbol_conf;
	const char *dir = perf_data__dir(session->data);
	struct stat st;
	char *path;

	if (!dir || (conf && (conf->kallsyms || conf->vmlinux)))
		return 0;
	if (asprintf(&path, "%s/kcore_dir/kallsyms", dir) < 0)
		return -ENOMEM;
	if (stat(path, &st)) {
		free(path);
		return 0;
	}
	session->machine.dir_kallsyms = path;
	return 0;
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
	session->swapped = perf_data__needs_swap(session->data);
	session->helpers = helper_budget__new(-1);
	if (!session->helpers || machine__init(&session->machine, opts->symbol_conf)) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_close;
	}
	perf_data__set_helpers(session->data, session->helpers);
	session->machine.helpers = session->helpers;
	if (session__dir_kallsyms(session)) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_machine;
	}
	session->scratch = malloc(SCRATCH_WORDS * sizeof(u64));
	if (!session->scratch) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_machine;
	}
	if (session__add_stages(session) || session__apply_build_ids(session)) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_stages;
	}
	if (session__name_attrs(session) || session__setup_trace_event(session)) {
		*err = session->err;
		goto out_stages;
	}
	return session;

out_stages:
	sample_pipeline__exit(&session->pipe);
	trace_event__delete(session->tevent);
	free(session->scratch);
out_machine:
	machine__exit(&session->machine);
out_close:
	perf_data__close(session->data);
	helper_budget__delete(session->helpers);
out_free:
	free(session);
	return NULL;
}

void perf_session__delete(struct perf_session *session)
{
	if (!session)
		return;
	ordered_events__exit(&session->oe);
	/* the stages hold thread references: before the machine goes */
	sample_pipeline__exit(&session->pipe);
	trace_event__delete(session->tevent);
	/* their helpers are joined: the DWARF openers with the dsos, the prefetch at the close */
	machine__exit(&session->machine);
	perf_data__close(session->data);
	helper_budget__delete(session->helpers);
	free(session->unsupported);
	free(session->scratch);
	free(session);
}

void perf_session__set_observer(struct perf_session *session, const struct session_observer *obs)
{
	session->observer = obs;
}

/* the fixed part of each side-band record that must fit before its sample_id */
static size_t fixed_size(u32 type)
{
	return perf_record_type__min_size(type);
}

static int session__parse(struct perf_session *session, const struct perf_event_header *event,
			  u64 file_offset, struct perf_evattr *ea, struct perf_sample *sample)
{
	const struct stage_record r = {
		.event = event, .evattr = ea, .file_offset = file_offset, .swapped = session->swapped,
	};

	if (!ea) {
		memset(sample, 0, sizeof(*sample));
		sample->pid = sample->tid = sample->cpu = (u32)-1;
		return event->type == PERF_RECORD_SAMPLE ? -ENOENT : 0;
	}
	return stage_record__parse(&r, session->scratch, sample, &session->err);
}

static int session__bad_record(struct perf_session *session, const struct perf_event_header *event,
			       u64 file_offset, const char *what)
{
	return perf_err__set(&session->err, EINVAL, "%s (%u) record at offset %#" PRIx64 " (size %u): %s",
			     perf_record_type__name(event->type), event->type, file_offset, event->size, what);
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

/* a record's own checks, before a stage takes it raw (the parsed path makes them after) */
static int session__check_raw(struct perf_session *session, const struct perf_event_header *event,
			      u64 file_offset, const struct perf_evattr *ea)
{
	int ret = session__check_fixed(session, event, file_offset, ea);

	if (!ret && event->type == PERF_RECORD_CALLCHAIN_DEFERRED)
		ret = session__check_deferred_record(session, event, file_offset, ea);
	return ret;
}

/*
 * The stages' share of the records before the full parse (a deferred sample is only peeked
 * at, and parsed once, when its stage emits it). Returns 1 for a record no stage took.
 */
static int session__claim(struct perf_session *session, const struct perf_event_header *event,
			  u64 file_offset, struct perf_evattr *ea, bool stable)
{
	struct stage_record r = {
		.event = event, .evattr = ea, .file_offset = file_offset, .stable = stable,
		.swapped = session->swapped,
	};
	int ret;

	if (event->type != PERF_RECORD_SAMPLE) {
		if (!sample_pipeline__consumes(&session->pipe, event->type))
			return 1;
		ret = session__check_raw(session, event, file_offset, ea);
		if (ret)
			return ret;
	}
	ret = sample_pipeline__claim(&session->pipe, &r);
	return ret > 0 ? 1 : session__failed(session, event, file_offset, ret);
}

static int session__deliver_stages(struct perf_session *session, const struct perf_event_header *event,
				   u64 file_offset, struct perf_evattr *ea, bool stable,
				   struct perf_sample *sample, bool after_claim)
{
	struct stage_sample s = {
		.event = event, .sample = sample, .evattr = ea, .file_offset = file_offset,
		.stable = stable, .swapped = session->swapped,
	};

	return sample_pipeline__sample(&session->pipe, &s, after_claim);
}

/* deliver one kernel record (time-ordered) to the observer / stages / machine / tool */
static int session__deliver(struct perf_session *session, const struct perf_event_header *event,
			    u64 file_offset, bool stable)
{
	const struct perf_tool *tool = session->tool;
	const struct session_observer *obs = session->observer;
	struct perf_evattr *ea = perf_data__attr_of(session->data, event);
	bool claimable = !(obs && obs->event) && sample_pipeline__claims(&session->pipe);
	struct perf_sample sample;
	int ret;

	/* an observer sees every record parsed: it takes the long way */
	if (claimable) {
		ret = session__claim(session, event, file_offset, ea, stable);
		if (ret <= 0)
			return ret;
	}
	ret = session__parse(session, event, file_offset, ea, &sample);
	if (obs && obs->event)
		obs->event(obs->arg, event, file_offset, ret && ret != -ENOENT ? NULL : &sample, ea,
			   session->err.msg);
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
		/* the tool's own errors say what failed: not named after the record */
		return session__deliver_stages(session, event, file_offset, ea, stable, &sample,
					       claimable);
	case PERF_RECORD_MMAP2:
		if (perf_record_mmap2__stray_build_id_bit((const void *)event) &&
		    !session->stats.nr_stray_build_id_bit++)
			session->stats.stray_build_id_offset = file_offset;
		ret = tool->mmap(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_MMAP:
		ret = tool->mmap(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_COMM:
		ret = tool->comm(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_FORK:
		ret = tool->fork(tool, session, event, &sample, ea);
		break;
	case PERF_RECORD_EXIT: {
		const struct perf_record_fork *f = (const void *)event;

		/* what the stages hold for the thread goes out while it still exists */
		ret = sample_pipeline__thread_exit(&session->pipe, f->tid);
		if (ret)
			return ret;
		ret = tool->exit(tool, session, event, &sample, ea);
		break;
	}
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
		if (sample_pipeline__consumes(&session->pipe, event->type))
			ret = sample_pipeline__record(&session->pipe, event, &sample, ea, stable);
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
	struct perf_session *session = arg;

	if (session->final_flush)
		progress__update(&session->progress, ++session->nr_flushed);
	return session__deliver(session, oe->event, oe->file_offset, oe->stable);
}

static int session__process_user_meta(struct perf_session *session, const struct perf_data_record *rec)
{
	const struct perf_event_header *event = rec->header;
	const struct perf_tool *tool = session->tool;
	struct perf_sample sample;

	memset(&sample, 0, sizeof(sample));
	if (perf_record__check_counts(event, session->swapped, &session->err)) {
		char why[sizeof(session->err.msg)];

		snprintf(why, sizeof(why), "%s", session->err.msg);
		return session__bad_record(session, event, rec->file_offset, why);
	}
	switch (event->type) {
	case PERF_RECORD_FINISHED_ROUND:
		if (tool->ordered_events) {
			int ret = ordered_events__flush(&session->oe, OE_FLUSH__ROUND);

			if (ret)
				return ret;
		}
		break;
	case PERF_RECORD_HEADER_ATTR:
		if (session__name_attrs(session))
			return -ENOMEM;
		break;
	case PERF_RECORD_HEADER_FEATURE:
		/* a pipe's HEADER_BUILD_ID feature: build ids known before the first sample */
		if (session__name_attrs(session) || session__apply_build_ids(session))
			return -ENOMEM;
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (session__setup_trace_event(session))
			return -EINVAL;
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

static int session__add_unsupported(struct perf_session *session, u32 type)
{
	if (session->nr_unsupported == session->unsupported_alloc) {
		size_t n = session->unsupported_alloc ? session->unsupported_alloc * 2 : 16;
		u32 *a = realloc(session->unsupported, n * sizeof(*a));

		if (!a)
			return perf_err__set(&session->err, ENOMEM, "out of memory");
		session->unsupported = a;
		session->unsupported_alloc = n;
	}
	session->unsupported[session->nr_unsupported++] = type;
	return 0;
}

int perf_session__process_events(struct perf_session *session)
{
	const struct perf_tool *tool = session->tool;
	const struct session_observer *obs = session->observer;
	const struct perf_file_header *fh = perf_data__file_header(session->data);
	struct perf_data_record rec;
	u64 base = 0, total = 0;
	bool cut;
	int ret;

	session->err.msg[0] = '\0';
	ordered_events__init(&session->oe, session->opts.ordered_max_mem, session__oe_deliver, session);
	/* a file's records are read in offset order: the offset says how far (a pipe's: no) */
	if (!perf_data__is_pipe(session->data) && fh) {
		base = fh->data.offset;
		total = fh->data.size;
	}
	progress__init(&session->progress, "Processing events...", total, session->opts.progress);
	while ((ret = perf_data__next(session->data, &rec, &session->err)) > 0) {
		const struct perf_event_header *event = rec.header;

		progress__update(&session->progress, rec.file_offset > base ? rec.file_offset - base : 0);

		if (obs && obs->record)
			obs->record(obs->arg, &rec);
		if (event->type >= UPSTREAM_USER_TYPE_END) {
			/* newer than perf: warned about and skipped, uncounted, as perf does */
			ret = session__add_unsupported(session, event->type);
			if (ret)
				break;
			continue;
		}
		/* slot 0 (no record has type 0) counts every record, as in perf */
		session->stats.nr_events[0]++;
		if (event->type < PERF_RECORD_HEADER_MAX)
			session->stats.nr_events[event->type]++;
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
			if (ea && !perf_evattr__parse_time(ea, event, session->swapped,
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
	/* a cut stream: what was read before the cut is delivered, as upstream does */
	cut = ret == -ENODATA;
	if (cut)
		ret = 0;
	if (ret == 0 && tool->ordered_events) {
		progress__set_title(&session->progress, "Processing time ordered events...", 0);
		session->final_flush = true;
		ret = ordered_events__flush(&session->oe, OE_FLUSH__FINAL);
		session->final_flush = false;
	}
	if (ret == 0)
		ret = sample_pipeline__flush(&session->pipe);
	progress__finish(&session->progress);
	if (ret == 0 && cut)
		ret = -ENODATA;	/* session->err still says where */
	session->stats.nr_late_events = session->oe.nr_late;
	if (ret && !session->err.msg[0])
		perf_err__set(&session->err, ret, "processing %s failed: %s",
			      perf_data__name(session->data), strerror(-ret));
	return ret < 0 ? ret : 0;
}

int perf_session__exit_code(int ret, bool output_failed)
{
	if (output_failed)
		return 1;
	/*
	 * A cut stream is printed up to the cut, as upstream does, but it is no success:
	 * upstream's status 0 there would let a script take half a profile for a whole one.
	 */
	return ret ? 255 : 0;
}

/* the end-of-run warnings, in perf's words */
void perf_session__warn_about_errors(const struct perf_session *session, FILE *fp)
{
	const struct session_stats *st = &session->stats;
	const struct perf_env *env = perf_data__env(session->data);

	/* perf says these as it reads them, one by one, before its end-of-run warnings */
	if (session->machine.kernel_warning[0])
		fprintf(fp, "%s\n", session->machine.kernel_warning);
	/* ours: perf reads past a malformed optional feature without a word */
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		if (perf_env__malformed(env, feat))
			fprintf(fp, "Warning: header feature %s (%d) at offset %#" PRIx64 " is malformed: ignored\n",
				perf_header_feature__name(feat), feat, env->offsets[feat]);
	for (size_t i = 0; i < session->nr_unsupported; i++)
		fprintf(fp, "Warning:\nUnsupported header type %u, please consider updating perf.\n",
			session->unsupported[i]);
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
	/* ours: upstream takes the device and inode for a build id */
	if (st->nr_stray_build_id_bit)
		fprintf(fp, "Warning: %" PRIu64 " MMAP2 records (the first at offset %#" PRIx64 ") have the build-id bit over a device and inode: read as device and inode (the kernel leaves the bit there when another tool records build ids at the same time)\n",
			st->nr_stray_build_id_bit, st->stray_build_id_offset);
	/* ours: upstream unwinds these stacks */
	if (st->nr_user_stack_only)
		fprintf(fp, "Warning: %" PRIu64 " of %" PRIu64 " samples have user stacks (--call-graph dwarf) that are not unwound: callchains show the kernel part, and the sample ip for user-mode samples\n",
			st->nr_user_stack_only, st->nr_samples);
}

void perf_session__fprintf_stage_stats(const struct perf_session *session, FILE *fp,
				       unsigned int full)
{
	sample_pipeline__fprintf_stats(&session->pipe, fp, full);
}
