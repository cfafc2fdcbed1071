/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample-stage.h - the ordered list of sample stages the session runs between ordered
 * events and the tool's callbacks (deferred stitching first, the user-stack unwinder next, the split of samples with
 * read values last).
 *
 *   session --sample--> stage 0 --emit--> stage 1 --emit--> ... --emit--> sink (the tool)
 *
 * A stage takes a sample in and emits zero or more samples to the next stage, now or later
 * (from a later record, a thread's exit or the end of input). Its hooks, all called in
 * delivery (time) order:
 *  - claim():   optional. A raw record before the session parses it, for a stage that only
 *               needs a peek at most of them (the stitcher queues a deferred sample on its
 *               tid and cookie; it is parsed once, when it is emitted). Raw records pass the
 *               leading stages that have claim(), in order; the first stage without one ends
 *               the raw path, so every stage still sees every sample in order. Returns 1 for
 *               a sample it lets pass unchanged: it goes on raw to the next claiming stage,
 *               then parsed to the stage after the claiming ones; for a record type it
 *               consumes, 1 means it wants it parsed, in record(). Not called while an
 *               observer wants every record parsed (-D): the same records then come to
 *               sample() / record() parsed, from stage 0 on.
 *  - sample():  a parsed sample. Emit it (sample_stage__emit()) or keep what it needs to
 *               emit it later. A stage may change what it emits (the stitcher and an
 *               unwinder give it a new callchain, in memory of theirs that lives until the
 *               emit returns); sample_stage__thread() finds its thread and maps.
 *  - record():  a parsed record of a type in ops->consumes: it goes to the first stage that
 *               consumes it instead of the tool.
 *  - thread_exit(): an EXIT record's tid, before the tool sees the EXIT.
 *  - flush():   the end of input: emit everything still held.
 *  - fprintf_stats(): the stage's end-of-run lines: warnings always, its statistics when
 *               full (the command asked for them: perf script --stitch-stats, -v).
 *
 * Ownership: the pipeline owns its stages (ops->delete() in sample_pipeline__exit()). What a
 * stage gets in a struct stage_sample is borrowed for the call; a stage keeping a sample past
 * the call copies what it needs and takes its own reference on s->thread (thread__get()),
 * which it hands to the stage_sample it emits and puts after that emit returns. Hooks return
 * 0 or a negative errno, which stops the session.
 *
 * A stage sees nothing of the session: what it may use comes in a struct sample_stage_env
 * the session fills (a test can fill one by hand), and this header is the only one of the
 * session's side a stage includes. The session decides which stages run and in what order.
 */
#ifndef PERF_UTIL_SAMPLE_STAGE_H
#define PERF_UTIL_SAMPLE_STAGE_H

#include <stdio.h>
#include <perf/data.h>
#include <perf/error.h>
#include "machine.h"

struct sample_stage;
struct sample_pipeline;
struct symbol_conf;

/*
 * What a stage may use of the pass it runs in. Every pointer is borrowed and outlives the
 * stage; the stage keeps a copy of the struct (sample_stage__init()). No callbacks: stages
 * use each of these once per sample, where a pointer costs nothing and a call would.
 */
struct sample_stage_env {
	struct machine		*machine;	/* threads and maps, kept up to date for the stages */
	struct perf_data	*data;		/* the input's attrs (perf_data__attr_by_id()) */
	const struct symbol_conf *symbol_conf;	/* --symfs, debug files; NULL: the defaults */
	/* why a hook failed, for the failures the hook's errno does not explain */
	struct perf_err		*err;
	u64			*nr_unknown_id;	/* bumped for a sample (value) of an id no attr lists */
};

/* a sample going down the pipeline */
struct stage_sample {
	const struct perf_event_header	*event;	/* the record: sample body in file byte order */
	struct perf_sample		*sample;	/* its parsed fields */
	struct perf_evattr		*evattr;	/* never NULL: samples of no attr stop earlier */
	/* the thread the sample belongs to, or NULL: the sink looks it up by pid/tid */
	struct thread			*thread;
	u64				file_offset;
	bool				stable;		/* event outlives the session: keep by reference */
	bool				swapped;	/* the body is in the other byte order */
};

/* a record before its parse, for claim() */
struct stage_record {
	const struct perf_event_header	*event;	/* a sample body in file byte order, else host */
	struct perf_evattr		*evattr;	/* NULL: no attr matches its id */
	u64				file_offset;
	bool				stable;
	bool				swapped;
};

/* which stage it is, for asking for one stage's statistics (a bit each) */
enum sample_stage_kind {
	SAMPLE_STAGE_DEFERRED,		/* deferred callchain stitching */
	SAMPLE_STAGE_UNWIND,		/* the user-stack unwinder (unwind.h) */
	SAMPLE_STAGE_READ,		/* one sample per read value (read-stage.h) */
	SAMPLE_STAGE_NR,
};

#define SAMPLE_STAGE_ALL	((1U << SAMPLE_STAGE_NR) - 1)

struct sample_stage_ops {
	const char	*name;
	enum sample_stage_kind kind;
	u64		consumes;	/* bit n: kernel records of type n go to record() */
	int	(*claim)(struct sample_stage *st, const struct stage_record *r);
	int	(*sample)(struct sample_stage *st, struct stage_sample *s);
	int	(*record)(struct sample_stage *st, const struct perf_event_header *event,
			  struct perf_sample *sample, struct perf_evattr *evattr, bool stable);
	int	(*thread_exit)(struct sample_stage *st, u32 tid);
	int	(*flush)(struct sample_stage *st);
	void	(*fprintf_stats)(const struct sample_stage *st, FILE *fp, bool full);
	void	(*delete)(struct sample_stage *st);
};

/* embedded first in each stage's own struct */
struct sample_stage {
	const struct sample_stage_ops	*ops;
	struct sample_pipeline		*pipe;	/* set by sample_pipeline__add() */
	unsigned int			idx;
	struct sample_stage_env		env;	/* a copy: its pointers are borrowed */
};

/* a stage's constructor: ops and a copy of env (borrowed pointers only) */
static inline void sample_stage__init(struct sample_stage *st, const struct sample_stage_ops *ops,
				      const struct sample_stage_env *env)
{
	st->ops = ops;
	st->env = *env;
}

/*
 * The thread of a sample: held, the one a stage kept with it (tid reuse while it waited
 * does not change it), else the machine's for its pid/tid. Borrowed; NULL when out of
 * memory. Inline: the sink and the unwinder ask once per sample.
 */
static inline struct thread *sample_stage__thread_of(struct machine *machine, struct thread *held,
						     const struct perf_sample *sample)
{
	if (!held)
		return machine__findnew_thread(machine, (s32)sample->pid, (s32)sample->tid);
	/* as machine__findnew_thread() does for a thread first seen without its pid */
	if (held->pid == -1 && (s32)sample->pid != -1)
		held->pid = (s32)sample->pid;
	return held;
}

/* the same from a stage, for a sample it was given: s->thread, else the machine's */
static inline struct thread *sample_stage__thread(const struct sample_stage *st,
						  const struct stage_sample *s)
{
	return sample_stage__thread_of(st->env.machine, s->thread, s->sample);
}

/* names r in err after its parse failed for the reason in why; returns -EINVAL */
int stage_record__parse_failed(const struct stage_record *r, const struct perf_err *why,
			       struct perf_err *err);

/*
 * The full parse of a record (perf_evattr__parse_sample() with scratch, r->evattr not NULL),
 * for the session and for a stage that held a sample raw: a failure names the record and
 * its offset in err. Inline: the session parses every record with it.
 */
static inline int stage_record__parse(const struct stage_record *r, u64 *scratch,
				      struct perf_sample *sample, struct perf_err *err)
{
	struct perf_err why;

	if (!perf_evattr__parse_sample(r->evattr, r->event, r->swapped, scratch, sample, &why))
		return 0;
	return stage_record__parse_failed(r, &why, err);
}

/* where the last stage's samples go (the session's delivery to the tool) */
typedef int (*sample_sink_t)(void *arg, struct stage_sample *s);

#define SAMPLE_STAGES_MAX	4

struct sample_pipeline {
	struct sample_stage	*stages[SAMPLE_STAGES_MAX];
	unsigned int		nr_stages;
	unsigned int		nr_claiming;	/* leading stages with a claim() hook */
	u64			consumes;	/* union of the stages' ops->consumes */
	sample_sink_t		sink;
	void			*sink_arg;
};

void sample_pipeline__init(struct sample_pipeline *pipe, sample_sink_t sink, void *sink_arg);
/* deletes every stage */
void sample_pipeline__exit(struct sample_pipeline *pipe);
/* appends st (the pipeline owns it from now on, even on error); -ENOSPC past the maximum */
int sample_pipeline__add(struct sample_pipeline *pipe, struct sample_stage *st);

/* a raw record to the claiming stages: 1 when none took it */
int sample_pipeline__claim(struct sample_pipeline *pipe, const struct stage_record *r);
static inline bool sample_pipeline__claims(const struct sample_pipeline *pipe)
{
	return pipe->nr_claiming > 0;
}
/* s into stage idx, or the sink past the last: inline, it runs once per sample */
static inline int sample_pipeline__sample_at(struct sample_pipeline *pipe, unsigned int idx,
					     struct stage_sample *s)
{
	if (idx >= pipe->nr_stages)
		return pipe->sink(pipe->sink_arg, s);
	return pipe->stages[idx]->ops->sample(pipe->stages[idx], s);
}

/*
 * A parsed sample into the first stage (the sink when there is none); after_claim: it went
 * through sample_pipeline__claim() already, which every claiming stage let pass.
 */
static inline int sample_pipeline__sample(struct sample_pipeline *pipe, struct stage_sample *s,
					  bool after_claim)
{
	return sample_pipeline__sample_at(pipe, after_claim ? pipe->nr_claiming : 0, s);
}
static inline bool sample_pipeline__consumes(const struct sample_pipeline *pipe, u32 type)
{
	return type < 64 && (pipe->consumes >> type) & 1;
}
/* a record of a consumed type to the first stage that consumes it */
int sample_pipeline__record(struct sample_pipeline *pipe, const struct perf_event_header *event,
			    struct perf_sample *sample, struct perf_evattr *evattr, bool stable);
int sample_pipeline__thread_exit(struct sample_pipeline *pipe, u32 tid);
/* the end of input: each stage in order, so what one flushes passes the later ones */
int sample_pipeline__flush(struct sample_pipeline *pipe);
/* full: bit (1 << kind) set for the stages whose statistics are wanted, not only warnings */
void sample_pipeline__fprintf_stats(const struct sample_pipeline *pipe, FILE *fp, unsigned int full);

/* from a stage: s goes on to the next stage, or to the sink after the last */
static inline int sample_stage__emit(struct sample_stage *st, struct stage_sample *s)
{
	return sample_pipeline__sample_at(st->pipe, st->idx + 1, s);
}

#endif
