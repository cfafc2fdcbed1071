// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's profile: samples into histograms, and the --stdio text around them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "dump.h"
#include "frame-resolver.h"
#include "build-id.h"
#include "hash.h"
#include "hist-output.h"
#include "callchain.h"
#include "report.h"
#include "sample-filter.h"
#include "session.h"
#include "trace-event.h"

/*
 * Upstream compares callchain frames of different dsos by the dsos' heap addresses, which
 * mostly follow the order perf created them in (the build-id table, then the mmaps), so
 * that is the order used here. One exception is known: in recordings with kernel modules,
 * upstream 7.2 allocates the dso of the first module mmap below the kernel's (seen in every
 * real recording with modules we have), so that module sorts before the kernel.
 */
static u32 dso_order(const struct machine *machine, const struct dso *dso)
{
	const struct dso *kernel = machine->kernel_dso;

	if (!dso)
		return 0;
	if (kernel && dso->kind == DSO_KIND_KMODULE && dso->seq == kernel->seq + 1)
		return 2 * kernel->seq + 1;
	return 2 * dso->seq + 2;
}

static char cpumode_level(u16 cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:		return 'k';
	case PERF_RECORD_MISC_USER:		return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL:	return 'g';
	case PERF_RECORD_MISC_GUEST_USER:	return 'u';
	default:				return 'H';
	}
}

static int report__grow_frames(struct report *r, size_t n)
{
	const struct resolved_frame **rf;
	struct chain_frame *cf;

	if (n <= r->frames_alloc)
		return 0;
	cf = realloc(r->chain_frames, n * sizeof(*cf));
	if (!cf)
		return -ENOMEM;
	r->chain_frames = cf;
	rf = realloc(r->chain_rf, n * sizeof(*rf));
	if (!rf)
		return -ENOMEM;
	r->chain_rf = rf;
	r->frames_alloc = n;
	return 0;
}

/*
 * The sample's callchain as shown: innermost first (callee order) or reversed, at most
 * --max-stack addresses counted from the side the order starts with, as upstream walks it.
 * An unstitched deferred cookie stays in as the user address upstream takes it for.
 */
/*
 * The line a callchain frame carries under -g address or srcline, as upstream's does: an
 * inlined function's (and its caller's) from the inline list, else the address's
 * (map-relative), and without one "??:0" (srcline) or "+offset" / "dso[addr]" (address)
 */
static const char *report__chain_srcline(struct report *r, struct hists *hists,
					 const struct resolved_frame *rf)
{
	unsigned int how = r->opts->hopts.chain.key == CCKEY_ADDRESS ? FRAME_SRCLINE_OFF :
			   FRAME_SRCLINE_UNKNOWN;
	char buf[4096];

	return hists__intern(hists, frame__srcline(rf, &r->session->machine, how, buf,
						   sizeof(buf)));
}

static int report__chain_frames(struct report *r, struct machine *machine, struct hists *hists,
				const struct resolved_chain *chain, u32 *nr_out)
{
	bool lines = r->opts->hopts.chain.key != CCKEY_FUNCTION;
	bool callee = r->opts->hopts.chain.order == ORDER_CALLEE;
	size_t n = chain->nr, groups = 0, keep, first, last, out = 0;
	int ret;

	*nr_out = 0;
	ret = report__grow_frames(r, n + 1);
	if (ret)
		return ret;
	/* a recorded address and the functions inlined at it count as one (see frame-resolver.h) */
	for (size_t i = 0; i < n; i++)
		groups += chain->frames[i].origin != FRAME_ORIGIN_INLINE;
	keep = r->opts->max_stack >= 0 && groups > (size_t)r->opts->max_stack ?
	       (size_t)r->opts->max_stack : groups;
	/* frames [first, last) in callee order hold the groups kept */
	first = 0;
	last = n;
	for (size_t i = 0, g = 0; i < n; i++) {
		if (chain->frames[i].origin == FRAME_ORIGIN_INLINE)
			continue;
		g++;
		if (callee && g == keep)
			last = i + 1;
		if (!callee && g == groups - keep)
			first = i + 1;
	}
	if (!keep)
		first = last = 0;
	for (size_t i = 0; i < last - first; i++) {
		size_t j = callee ? first + i : last - 1 - i;
		const struct resolved_frame *rf = &chain->frames[j];
		struct chain_frame *f = &r->chain_frames[out];

		*f = (struct chain_frame){
			.ip = rf->ip, .dso = rf->dso, .sym = rf->sym,
			.dso_order = dso_order(machine, rf->dso),
		};
		if (lines && rf->map) {
			f->srcline = report__chain_srcline(r, hists, rf);
			if (!f->srcline)
				return -ENOMEM;
		}
		r->chain_rf[out] = rf;
		/* -U leaves unresolved frames out of the chain (they still count for --max-stack) */
		if (!r->opts->hopts.hide_unresolved || f->sym)
			*nr_out = (u32)++out;
	}
	return 0;
}

static struct hists *report__hists(struct report *r, const struct perf_evattr *ea)
{
	size_t idx = ea->idx >= 0 ? (size_t)ea->idx : 0;

	if (idx >= r->nr_hists) {
		struct hists **h = realloc(r->hists, (idx + 1) * sizeof(*h));

		if (!h)
			return NULL;
		memset(h + r->nr_hists, 0, (idx + 1 - r->nr_hists) * sizeof(*h));
		r->hists = h;
		r->nr_hists = idx + 1;
	}
	if (!r->hists[idx])
		r->hists[idx] = hists__new(&r->opts->hopts);
	return r->hists[idx];
}

static bool report__hides(const struct sample_filter *f, struct thread *thread,
			  const struct perf_sample *sample, const struct resolved_frame *rf)
{
	return sample_filter__has_hide(f) &&
	       sample_filter__hides(f, thread__comm_str(thread, sample->time), thread->pid,
				    thread->tid, rf->dso, rf->sym, rf->ip, rf->map);
}

/* index of the cgroup link in a NAMESPACES record (net uts ipc pid user mnt cgroup) */
#define NS_CGROUP_INDEX	6

static struct report_cgroup_ns *report__find_cgroup_ns(const struct report *r, s32 tid)
{
	for (size_t i = r->nr_cgroup_ns; i-- > 0;)
		if (r->cgroup_ns[i].tid == tid)
			return &r->cgroup_ns[i];
	return NULL;
}

static int report__add_namespaces(struct report *r, const struct perf_event_header *event)
{
	const struct perf_record_namespaces *ns = (const void *)event;
	const struct perf_ns_link_info *link;
	struct report_cgroup_ns *e;

	if (event->size < sizeof(*ns) + (NS_CGROUP_INDEX + 1) * sizeof(*link) ||
	    ns->nr_namespaces <= NS_CGROUP_INDEX)
		return 0;
	link = &ns->link_info[NS_CGROUP_INDEX];
	e = report__find_cgroup_ns(r, (s32)ns->tid);
	if (!e) {
		e = realloc(r->cgroup_ns, (r->nr_cgroup_ns + 1) * sizeof(*e));
		if (!e)
			return perf_err__set(&r->err, ENOMEM, "out of memory");
		r->cgroup_ns = e;
		e = &e[r->nr_cgroup_ns++];
		e->tid = (s32)ns->tid;
	}
	e->dev = link->dev;
	e->ino = link->ino;
	return 0;
}

int report__side_record(struct report *r, const struct perf_event_header *event)
{
	switch (event->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		r->parallelism += event->misc & PERF_RECORD_MISC_SWITCH_OUT ? -1 : 1;
		return 0;
	case PERF_RECORD_CGROUP:
		return machine__process_cgroup(&r->session->machine, event) ?
		       perf_err__set(&r->err, ENOMEM, "out of memory") : 0;
	case PERF_RECORD_NAMESPACES:
		return r->opts->hopts.nr_sort && hist_opts__has_key(&r->opts->hopts,
								    SORT_KEY_CGROUP_ID) ?
		       report__add_namespaces(r, event) : 0;
	default:
		return 0;
	}
}

static bool report__is_parent(struct report *r, const struct symbol *sym)
{
	return sym && !regexec(&r->parent_regex, sym->name, 0, NULL, 0);
}

/*
 * A chain with an unknown context marker is dropped, frames and all, but upstream's walk
 * has matched -p on the frames it met before the marker, in the order -g walks: from the
 * leaf (callee) or from the root (caller), where a marker takes the cpumode of the marker
 * before it. Either walk stops at an unknown marker (a user stack word in that range,
 * seen in a live recording: upstream finds the parent from the leaf, none from the root).
 */
static const struct symbol *report__parent_of_dropped(struct report *r, struct thread *thread,
						      const struct perf_sample *sample)
{
	bool callee = r->opts->hopts.chain.order == ORDER_CALLEE;
	u64 nr = sample->callchain_nr - (sample->deferred_callchain ? 1 : 0), entries = 0;
	u64 max = r->opts->max_stack >= 0 ? (u64)r->opts->max_stack : nr;
	u8 cpumode = PERF_RECORD_MISC_USER;

	for (u64 i = 0; i < nr && entries < max; i++) {
		u64 j = callee ? i : nr - 1 - i, ip = sample->callchain[j];
		const struct symbol *sym;

		if (ip >= PERF_CONTEXT_MAX) {
			u8 unused;

			if (!callchain__context_cpumode(ip, callee ? &cpumode : &unused))
				return NULL;
			if (callee)
				continue;
			while (j > 0 && sample->callchain[j - 1] < PERF_CONTEXT_MAX)
				j--;
			if (j > 0 && !callchain__context_cpumode(sample->callchain[j - 1], &cpumode))
				return NULL;
			continue;
		}
		entries++;
		sym = frame_resolver__addr(r->resolver, thread, cpumode, ip)->sym;
		if (report__is_parent(r, sym))
			return sym;
	}
	return NULL;
}

/*
 * the first symbol of the chain, as shown, that -p matches; NULL for "[other]". Upstream
 * matches each address's own symbol, before the functions inlined there are added.
 */
static const struct symbol *report__parent(struct report *r, const struct resolved_chain *chain,
					   struct thread *thread, const struct perf_sample *sample)
{
	size_t n = chain->nr;
	struct perf_err err;

	if (!r->want_parent)
		return NULL;
	if (!n && sample->callchain_nr && !callchain__valid(sample, &err))
		return report__parent_of_dropped(r, thread, sample);
	for (size_t i = 0; i < n; i++) {
		size_t j = r->opts->hopts.chain.order == ORDER_CALLEE ? i : n - 1 - i;

		if (chain->frames[j].origin != FRAME_ORIGIN_INLINE &&
		    report__is_parent(r, chain->frames[j].sym))
			return chain->frames[j].sym;
	}
	return NULL;
}

/* one more element for an array of *nr of size bytes each: the new one, zeroed; NULL: ENOMEM */
static void *grow_one(void **array, size_t *nr, size_t size)
{
	char *n = realloc(*array, (*nr + 1) * size);

	if (!n)
		return NULL;
	*array = n;
	memset(n + *nr * size, 0, size);
	return n + (*nr)++ * size;
}

/* upstream's read values table: threads and counters as they first come, counts added up */
int report__add_read(struct report *r, const struct perf_event_header *event,
		     struct perf_evattr *ea)
{
	const struct perf_record_read *rd = (const void *)event;
	struct report_counts *c = &r->counts;
	struct report_counts_thread *th;
	struct report_counts_counter *ctr;
	struct report_counts_cell *cell;
	size_t t, k;

	if (!r->opts->thread_counts || !ea)
		return 0;
	for (t = 0; t < c->nr_threads; t++)
		if (c->threads[t].pid == (s32)rd->pid && c->threads[t].tid == (s32)rd->tid)
			break;
	if (t == c->nr_threads) {
		th = grow_one((void **)&c->threads, &c->nr_threads, sizeof(*th));
		if (!th)
			return perf_err__set(&r->err, ENOMEM, "out of memory");
		*th = (struct report_counts_thread){ .pid = (s32)rd->pid, .tid = (s32)rd->tid };
	}
	for (k = 0; k < c->nr_counters; k++)
		if (c->counters[k].ea == ea)
			break;
	if (k == c->nr_counters) {
		ctr = grow_one((void **)&c->counters, &c->nr_counters, sizeof(*ctr));
		if (!ctr)
			return perf_err__set(&r->err, ENOMEM, "out of memory");
		*ctr = (struct report_counts_counter){ .ea = ea, .name = perf_evattr__name(ea) };
	}
	/* a thread's later records are its other CPUs' or its children's: most recent first */
	for (size_t i = c->nr_cells; i-- > 0;) {
		if (c->cells[i].thread == t && c->cells[i].counter == k) {
			c->cells[i].value += rd->value;
			return 0;
		}
	}
	cell = grow_one((void **)&c->cells, &c->nr_cells, sizeof(*cell));
	if (!cell)
		return perf_err__set(&r->err, ENOMEM, "out of memory");
	*cell = (struct report_counts_cell){
		.thread = (u32)t, .counter = (u32)k, .value = rd->value,
	};
	return 0;
}

static int u64_width(u64 v)
{
	return snprintf(NULL, 0, "%llu", (unsigned long long)v);
}

/* -T's table after the report: every column as wide as its widest text, upstream's layout */
static int report__fprintf_counts(const struct report *r, FILE *fp)
{
	const struct report_counts *c = &r->counts;
	u64 *values = calloc(c->nr_threads * c->nr_counters + 1, sizeof(*values));
	int *widths = calloc(c->nr_counters + 1, sizeof(*widths));
	int pidw = 3, tidw = 3;

	if (!values || !widths) {
		free(values);
		free(widths);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->nr_cells; i++)
		values[c->cells[i].thread * c->nr_counters + c->cells[i].counter] = c->cells[i].value;
	for (size_t k = 0; k < c->nr_counters; k++)
		widths[k] = (int)strlen(c->counters[k].name);
	for (size_t t = 0; t < c->nr_threads; t++) {
		int w = snprintf(NULL, 0, "%d", c->threads[t].pid);

		if (w > pidw)
			pidw = w;
		w = snprintf(NULL, 0, "%d", c->threads[t].tid);
		if (w > tidw)
			tidw = w;
		for (size_t k = 0; k < c->nr_counters; k++)
			if (u64_width(values[t * c->nr_counters + k]) > widths[k])
				widths[k] = u64_width(values[t * c->nr_counters + k]);
	}
	fprintf(fp, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t k = 0; k < c->nr_counters; k++)
		fprintf(fp, "  %*s", widths[k], c->counters[k].name);
	fputc('\n', fp);
	for (size_t t = 0; t < c->nr_threads; t++) {
		fprintf(fp, "  %*d  %*d", pidw, c->threads[t].pid, tidw, c->threads[t].tid);
		for (size_t k = 0; k < c->nr_counters; k++)
			fprintf(fp, "  %*llu", widths[k],
				(unsigned long long)values[t * c->nr_counters + k]);
		fputc('\n', fp);
	}
	free(values);
	free(widths);
	return 0;
}

void report__task_exit(struct report *r)
{
	/* a thread that exits is switched out without a record saying so */
	r->parallelism--;
}

bool report__was_parallel(const struct report *r)
{
	return !r->nr_weighed || r->nr_single * 100 / r->nr_weighed < 99;
}

/* the threads running now, as upstream bounds them: 1 to the cpus (switches may come late) */
static int report__parallelism(const struct report *r)
{
	int par = r->parallelism;

	if (par > (int)r->nr_cpus)
		par = (int)r->nr_cpus;
	return par < 1 ? 1 : par;
}

/* --parallelism: the level the sample is taken at is not among the ones kept */
static bool report__parallelism_hides(const struct report *r)
{
	int par;

	if (!r->opts->parallelism_mask || !r->opts->hopts.latency)
		return false;
	par = report__parallelism(r);
	return !(r->opts->parallelism_mask & (1ULL << (par < 63 ? par : 63)));
}

/* what a sample of period weighs in the latency columns, as upstream computes it */
static u64 report__latency(struct report *r, u64 period)
{
	int par = report__parallelism(r);

	r->nr_weighed++;
	if (par == 1)
		r->nr_single++;
	/* upstream's scale: the factor keeps the integer division precise enough */
	return period * 1000 / (u64)par;
}

/* what the parent, cgroup and cgroup_id sort keys need of a sample */
static void report__extra_keys(struct report *r, struct hist_sample_keys *keys,
			       const struct perf_sample *sample, struct thread *thread,
			       const struct resolved_chain *chain, const struct resolved_frame *rf,
			       char *srcline, size_t size)
{
	const struct report_cgroup_ns *ns;

	*keys = (struct hist_sample_keys){
		.parent = report__parent(r, chain, thread, sample),
		.cgroup = sample->cgroup,
	};
	if (keys->cgroup)
		keys->cgroup_name = machine__find_cgroup(&r->session->machine, keys->cgroup);
	ns = r->cgroup_ns ? report__find_cgroup_ns(r, thread->tid) : NULL;
	if (ns) {
		keys->cgroup_ns_dev = ns->dev;
		keys->cgroup_ns_ino = ns->ino;
	}
	if (r->srcline_key)
		keys->srcline = frame__srcline(rf, &r->session->machine, FRAME_SRCLINE_SYM, srcline, size);
}

/*
 * A caller's source line, as upstream takes it from the callchain: with inline frames, the
 * line of the frame's entry in the inline list (each inlined function's call site); else,
 * or where the address has no line, the line at the address as recorded (a return address
 * is not moved back), which is none in a DSO not loaded at its vaddrs, and the address
 * (or the symbol's offset from it) names the caller
 */
static const char *report__frame_srcline(void *arg, u32 i, char *buf, size_t size)
{
	struct report *r = arg;
	unsigned int how = FRAME_SRCLINE_SYM | FRAME_SRCLINE_RECORDED;

	/* the line the callchain holds, where -g address or srcline made one */
	if (r->chain_frames[i].srcline)
		return r->chain_frames[i].srcline;
	if (!r->opts->inline_frames)
		how |= FRAME_SRCLINE_AT_RECORDED;
	return frame__srcline(r->chain_rf[i], &r->session->machine, how, buf, size);
}

int report__add_sample(struct report *r, struct perf_sample *sample, struct perf_evattr *evattr)
{
	struct perf_session *session = r->session;
	struct machine *machine = &session->machine;
	const struct resolved_frame *rf;
	struct resolved_chain chain;
	struct trace_event *tevent;
	char trace[16384], srcline[4096];
	struct hist_sample_keys keys;
	struct hist_sample hs;
	struct thread *thread;
	struct hists *hists;
	u32 nr_frames = 0;
	bool want_chain;
	int ret;

	if (!evattr)
		return 0;
	thread = perf_session__sample_thread(session, sample);
	if (!thread)
		return perf_err__set(&r->err, ENOMEM, "out of memory");
	want_chain = (evattr->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
		     (r->opts->hopts.use_callchain || r->opts->hopts.children || r->want_parent);
	chain = (struct resolved_chain){ .id = FRAME_CHAIN_ID_EMPTY };
	if (want_chain) {
		ret = frame_resolver__chain(r->resolver, thread, sample, &chain);
		if (ret)
			return perf_err__set(&r->err, ret, "out of memory");
	}
	/* the chain starts at the sample's ip, mostly: then it is resolved already */
	/* ... unless functions are inlined there: the entry is the ELF symbol's, as upstream's */
	if (chain.nr && chain.frames[0].ip == sample->ip &&
	    chain.frames[0].cpumode == sample->cpumode &&
	    chain.frames[0].origin != FRAME_ORIGIN_INLINE &&
	    !(chain.frames[0].sym && chain.frames[0].sym->inlined))
		rf = &chain.frames[0];
	else
		rf = frame_resolver__addr(r->resolver, thread, (u8)sample->cpumode, sample->ip);
	if (r->dump) {
		struct addr_location al = {
			.thread = thread, .map = rf->map, .sym = rf->sym, .addr = rf->ip,
			.sym_addr = rf->sym_addr, .cpumode = (u8)sample->cpumode,
		};

		dump__resolved(r->dump, thread, &al);
	}
	if (r->opts->hopts.hide_unresolved && !rf->sym)
		return 0;
	if (r->opts->filter && sample_filter__drops(r->opts->filter, sample->cpu, sample->time))
		return 0;
	hists = report__hists(r, evattr);
	if (!hists)
		return perf_err__set(&r->err, ENOMEM, "out of memory");
	if ((r->opts->filter && report__hides(r->opts->filter, thread, sample, rf)) ||
	    report__parallelism_hides(r)) {
		hists__add_filtered(hists, sample->period,
				    r->opts->hopts.latency ? report__latency(r, sample->period) : 0);
		return 0;
	}

	hs = (struct hist_sample){
		.comm = thread__comm_str(thread, sample->time),
		.pid = thread->pid, .tid = thread->tid, .cpu = (s32)sample->cpu,
		.dso = rf->dso, .sym = rf->sym, .ip = rf->map_ip,
		.level = cpumode_level(sample->cpumode),
		.period = sample->period,
		.has_callchain = evattr->attr.sample_type & PERF_SAMPLE_CALLCHAIN,
		/* the frames shown follow from the resolved chain alone, so its id names them */
		.chain_key = chain.id,
	};
	/* a dropped chain's parent comes from its words, which no chain id names */
	if (r->want_parent && !chain.nr && sample->callchain_nr)
		hs.chain_key = 0;
	if (r->opts->hopts.latency) {
		hs.latency = report__latency(r, sample->period);
		hs.parallelism = report__parallelism(r);
	}
	if (r->extra_keys) {
		report__extra_keys(r, &keys, sample, thread, &chain, rf, srcline, sizeof(srcline));
		/*
		 * upstream keeps an ET_EXEC image's symbols at file offsets, where its symoff
		 * is the map-relative ip less the symbol's start; ours are at their vaddrs
		 */
		keys.sym_addr = rf->sym_addr;
		keys.has_sym_addr = rf->dso && rf->dso->is_exec;
		hs.keys = &keys;
	}
	tevent = perf_session__trace_event(session);
	if (evattr->attr.type == PERF_TYPE_TRACEPOINT && sample->raw_data && tevent &&
	    trace_event__format(tevent, evattr->attr.config, sample->raw_data,
				sample->raw_size, (int)sample->cpu, trace, sizeof(trace),
				&r->err) >= 0)
		hs.trace = trace;
	if (hists__add_repeat(hists, &hs))
		return 0;
	if (want_chain) {
		ret = report__chain_frames(r, machine, hists, &chain, &nr_frames);
		if (ret)
			return perf_err__set(&r->err, ret, "out of memory");
		hs.frames = r->chain_frames;
		hs.nr_frames = nr_frames;
		if (r->srcline_key && r->opts->hopts.children) {
			hs.frame_srcline = report__frame_srcline;
			hs.frame_srcline_arg = r;
		}
	}
	ret = hists__add_sample(hists, &hs);
	if (ret)
		return perf_err__set(&r->err, ret, "out of memory");
	return 0;
}

/* ---- --tasks ---- */

/* depth in the task tree: 0 for the idle task (and orphans of an unknown parent) */
static int task_level(struct machine *machine, const struct thread *t)
{
	int level = 0;

	/* bounded: a ppid cycle in a broken file must not loop */
	for (size_t hops = 0; hops <= hashmap__nr(&machine->threads); hops++) {
		const struct thread *parent;

		if (t->tid <= 0)
			return level;
		if (t->ppid <= 0)
			return level + 1;
		parent = machine__find_thread(machine, t->ppid);
		if (!parent)
			return 0;
		level++;
		t = parent;
	}
	return level;
}

static const struct thread *task_parent(struct machine *machine, const struct thread *t)
{
	return t->ppid > 0 ? machine__find_thread(machine, t->ppid) : NULL;
}

/* upstream's task_list_cmp(): parents before children, siblings by tid */
static int task_cmp(const void *pa, const void *pb, void *arg)
{
	struct machine *machine = arg;
	const struct thread *a = *(const struct thread *const *)pa;
	const struct thread *b = *(const struct thread *const *)pb;
	int level_a, level_b;

	if (a->tid == b->tid)
		return 0;
	if (a->tid == 0)
		return -1;
	if (b->tid == 0)
		return 1;
	if (a->ppid == b->ppid)
		return a->tid < b->tid ? -1 : 1;
	level_a = task_level(machine, a);
	level_b = task_level(machine, b);
	for (int i = level_a; i > level_b && a; i--)
		a = task_parent(machine, a);
	for (int i = level_b; i > level_a && b; i--)
		b = task_parent(machine, b);
	for (size_t hops = 0; a && b && a->ppid != b->ppid && hops <= hashmap__nr(&machine->threads); hops++) {
		a = task_parent(machine, a);
		b = task_parent(machine, b);
	}
	if (!a || !b)
		return !a ? -1 : 1;
	if (a->tid == b->tid)
		return level_a < level_b ? -1 : level_a > level_b;
	return a->tid < b->tid ? -1 : 1;
}

/* upstream's --mmaps line: what /proc/PID/maps would say, the inode or build id, the dso */
static void task_maps__fprintf(const struct maps *maps, int indent, FILE *fp)
{
	for (size_t i = 0; i < maps->nr; i++) {
		const struct map *map = maps->entries[i];
		const struct dso *dso = map->dso;
		char id[2 * sizeof(dso->build_id) + 1] = "";

		if (map->ino_valid)
			snprintf(id, sizeof(id), "%llu", (unsigned long long)map->ino);
		else if (dso->has_build_id)
			dso__build_id_hex(dso, id);
		fprintf(fp, "%*s  %llx-%llx %c%c%c%c %08llx %s %s\n", indent, "",
			(unsigned long long)map->start, (unsigned long long)map->end,
			map->prot & PROT_READ ? 'r' : '-', map->prot & PROT_WRITE ? 'w' : '-',
			map->prot & PROT_EXEC ? 'x' : '-', map->flags ? 's' : 'p',
			(unsigned long long)map->pgoff, id, dso->long_name);
	}
}

int report__fprintf_tasks(struct report *r, FILE *fp, bool with_maps)
{
	struct machine *machine = &r->session->machine;
	const struct thread **tasks;
	struct hashmap_node *pos;
	bool has_idle = false;
	size_t nr = 0, b;

	tasks = calloc(hashmap__nr(&machine->threads) + 1, sizeof(*tasks));
	if (!tasks)
		return -ENOMEM;
	hashmap__for_each(&machine->threads, pos, b) {
		const struct thread *t = container_of(pos, struct thread, hash_node);

		has_idle |= t->tid == 0;
		tasks[nr++] = t;
	}
	qsort_r(tasks, nr, sizeof(*tasks), task_cmp, machine);
	fprintf(fp, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	/* upstream registers the idle task in every session */
	if (!has_idle)
		fprintf(fp, "  %8d %8d %8d |%s\n", 0, 0, -1, "swapper");
	for (size_t i = 0; i < nr; i++) {
		const struct thread *t = tasks[i];

		int indent = fprintf(fp, "  %8d %8d %8d |%*s", t->pid, t->tid, t->ppid,
				     task_level(machine, t), "");

		fprintf(fp, "%s\n", thread__comm_str(t, 0));
		if (with_maps && t->maps)
			task_maps__fprintf(t->maps, indent, fp);
	}
	free(tasks);
	return ferror(fp) ? -EIO : 0;
}

/* a random line of upstream's tips file, as upstream picks one; NULL when none is found */
static char *report__tip(const char *exec_dir)
{
	const char *dirs[] = { NULL, "/usr/share/doc/perf-tip", "/usr/share/doc/linux-perf",
			       "/usr/share/doc/perf-doc" };
	char path[PATH_MAX], line[1024];
	char **tips = NULL, *tip = NULL;
	size_t nr = 0, alloc = 0;
	FILE *fp = NULL;
	u64 seed;

	snprintf(path, sizeof(path), "%s/../share/doc/perf-tip", exec_dir);
	dirs[0] = path;
	for (size_t i = 0; i < ARRAY_SIZE(dirs) && !fp; i++) {
		char file[PATH_MAX + 16];

		snprintf(file, sizeof(file), "%s/tips.txt", dirs[i]);
		fp = fopen(file, "r");
	}
	if (!fp)
		return NULL;
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strcspn(line, "\n");
		size_t at = 0;
		bool dup = false;

		line[len] = '\0';
		/* upstream keeps them as a sorted set of distinct lines */
		while (at < nr && !dup) {
			int c = strcmp(tips[at], line);

			if (c >= 0) {
				dup = !c;
				break;
			}
			at++;
		}
		if (dup)
			continue;
		if (nr == alloc) {
			char **t = realloc(tips, (alloc ? alloc * 2 : 64) * sizeof(*t));

			if (!t)
				break;
			tips = t;
			alloc = alloc ? alloc * 2 : 64;
		}
		memmove(tips + at + 1, tips + at, (nr - at) * sizeof(*tips));
		tips[at] = strdup(line);
		if (!tips[at])
			break;
		nr++;
	}
	fclose(fp);
	seed = (u64)time(NULL) ^ ((u64)getpid() << 32);
	seed = hash__mix64(seed);
	if (nr && asprintf(&tip, "Tip: %s", tips[seed % nr]) < 0)
		tip = NULL;
	for (size_t i = 0; i < nr; i++)
		free(tips[i]);
	free(tips);
	return tip;
}

static unsigned long convert_unit(unsigned long value, char *unit)
{
	*unit = ' ';
	if (value > 1000) {
		value /= 1000;
		*unit = 'K';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'M';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'G';
	}
	return value;
}

void report__fprintf_stats(const struct report *r, FILE *fp)
{
	const struct session_stats *st = &r->session->stats;
	const struct perf_data *data = r->session->data;
	u64 nr_events[PERF_RECORD_HEADER_MAX];

	/* perf counts the compressed containers too, which our reader unpacks unseen */
	memcpy(nr_events, st->nr_events, sizeof(nr_events));
	nr_events[PERF_RECORD_COMPRESSED] += perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED);
	nr_events[PERF_RECORD_COMPRESSED2] += perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED2);
	nr_events[0] += perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED) +
			perf_data__nr_compressed(data, PERF_RECORD_COMPRESSED2);

	fprintf(fp, "\nAggregated stats:\n");
	for (u32 i = 0; i < PERF_RECORD_HEADER_MAX; i++) {
		const char *name = i ? perf_record_type__name(i) : "TOTAL";

		if (!strcmp(name, "UNKNOWN"))
			continue;
		if (r->opts->skip_empty && !nr_events[i])
			continue;
		if (i && nr_events[0])
			fprintf(fp, "%20s events: %10llu  (%4.1f%%)\n", name,
				(unsigned long long)nr_events[i],
				(double)nr_events[i] * 100.0 / (double)nr_events[0]);
		else
			fprintf(fp, "%20s events: %10llu\n", name, (unsigned long long)nr_events[i]);
	}
	for (size_t i = 0; i < perf_data__nr_attrs(r->session->data); i++) {
		struct perf_evattr *ea = perf_data__attr(r->session->data, i);
		u64 nr = i < r->nr_hists && r->hists[i] ? r->hists[i]->nr_samples : 0;

		if (r->opts->skip_empty && !nr)
			continue;
		fprintf(fp, "%s stats:\n", perf_evattr__name(ea));
		fprintf(fp, "%20s events: %10llu\n", "SAMPLE", (unsigned long long)nr);
	}
}

/* perf says "events" for the leader of a group of several (HEADER_GROUP_DESC) */
static bool report__leads_group(struct perf_session *session, size_t idx)
{
	const struct perf_env *env = perf_data__env(session->data);

	for (u32 i = 0; i < env->nr_groups; i++)
		if (env->groups[i].leader == idx && env->groups[i].nr_members > 1)
			return true;
	return false;
}

int report__output_events(struct report *r, struct report_event **events, size_t *nr_events,
			  size_t *nr_entries)
{
	struct perf_session *session = r->session;
	size_t nr_attrs = perf_data__nr_attrs(session->data);
	struct report_event *ev;
	int ret;

	*events = NULL;
	*nr_events = 0;
	*nr_entries = 0;
	for (size_t i = 0; i < r->nr_hists; i++) {
		if (!r->hists[i])
			continue;
		/* upstream keeps hidden samples as entries it does not show */
		*nr_entries += r->hists[i]->nr_entries + r->hists[i]->nr_filtered;
		ret = hists__output_resort(r->hists[i], &session->machine);
		if (ret)
			return ret;
	}
	if (!*nr_entries)
		return 0;
	ev = calloc(nr_attrs ? nr_attrs : 1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < nr_attrs; i++) {
		struct perf_evattr *ea = perf_data__attr(session->data, i);
		struct hists *hists = i < r->nr_hists ? r->hists[i] : NULL;

		if (r->opts->skip_empty && (!hists || !hists->nr_samples))
			continue;
		if (!hists) {
			/* an event without samples shows its (empty) table */
			hists = report__hists(r, ea);
			if (!hists || hists__output_resort(hists, &session->machine)) {
				free(ev);
				return -ENOMEM;
			}
		}
		ev[(*nr_events)++] = (struct report_event){
			.ea = ea, .hists = hists, .leads_group = report__leads_group(session, i),
		};
	}
	*events = ev;
	return 0;
}

void report_event__samples(const struct report_event *ev, char *buf, size_t size)
{
	unsigned long nr;
	char unit;

	nr = convert_unit((unsigned long)hists__total_samples(ev->hists), &unit);
	snprintf(buf, size, "Samples: %lu%c of event%s '%s'", nr, unit, ev->leads_group ? "s" : "",
		 perf_evattr__name(ev->ea));
}

int report__fprintf(struct report *r, FILE *fp)
{
	struct perf_session *session = r->session;
	struct report_event *events;
	size_t nr_events, nr_entries;
	char samples[1024];
	char *tip;
	int ret;

	ret = report__output_events(r, &events, &nr_events, &nr_entries);
	if (ret)
		return ret;
	if (!nr_entries) {
		fflush(fp);
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", perf_data__name(session->data));
		return 0;
	}
	if (!r->opts->quiet)
		fprintf(fp, "#\n# Total Lost Samples: %llu\n#\n",
		       (unsigned long long)session->stats.total_lost_samples);
	for (size_t i = 0; i < nr_events && !ret; i++) {
		struct hists *hists = events[i].hists;

		if (!r->opts->quiet) {
			report_event__samples(&events[i], samples, sizeof(samples));
			fprintf(fp, "# %s", samples);
			if (r->opts->filter && r->opts->filter->time_str)
				fprintf(fp, " (time slices: %s)", r->opts->filter->time_str);
			fputc('\n', fp);
			fprintf(fp, "# Event count (approx.): %llu\n#\n",
			       (unsigned long long)hists__total_period(hists));
		}
		ret = hists__fprintf(hists, fp);
		if (!ret)
			fprintf(fp, "\n\n");
	}
	free(events);
	if (ret)
		return ret;
	if (!r->opts->quiet) {
		tip = report__tip(r->opts->exec_dir);
		fprintf(fp, "#\n# (%s)\n#\n", tip ? tip : "Cannot load tips.txt file, please install perf!");
		free(tip);
	}
	if (r->opts->thread_counts)
		return report__fprintf_counts(r, fp);
	return 0;
}

int report__init(struct report *r, const struct report_opts *opts, struct perf_session *session,
		 const struct dump *dump)
{
	long online = sysconf(_SC_NPROCESSORS_CONF);

	*r = (struct report){ .opts = opts, .session = session, .dump = dump, .parallelism = 1 };
	/* a pipe may not say how many CPUs it was recorded on: then this machine's */
	r->nr_cpus = perf_data__env(session->data)->nr_cpus_avail;
	if (!r->nr_cpus)
		r->nr_cpus = online > 0 ? (u32)online : 1;
	r->resolver = frame_resolver__new(&session->machine);
	if (r->resolver)
		frame_resolver__set_inline(r->resolver, r->opts->inline_frames, stderr);
	if (!r->resolver)
		return perf_err__set(&r->err, ENOMEM, "out of memory");
	return 0;
}

int report__setup_parent(struct report *r)
{
	const struct hist_opts *o = &r->opts->hopts;
	int ret;

	r->srcline_key = hist_opts__has_key(o, SORT_KEY_SRCLINE);
	r->extra_keys = r->srcline_key || hist_opts__has_key(o, SORT_KEY_PARENT) ||
			hist_opts__has_key(o, SORT_KEY_SYMOFF) ||
			hist_opts__has_key(o, SORT_KEY_CGROUP) ||
			hist_opts__has_key(o, SORT_KEY_CGROUP_ID);
	if (!hist_opts__has_key(o, SORT_KEY_PARENT))
		return 0;
	ret = regcomp(&r->parent_regex, r->opts->parent_pattern, REG_EXTENDED);
	if (ret) {
		char msg[128];

		regerror(ret, &r->parent_regex, msg, sizeof(msg));
		return perf_err__set(&r->err, EINVAL, "Invalid regex: %s\n%s",
				     r->opts->parent_pattern, msg);
	}
	r->want_parent = true;
	return 0;
}

void report__exit(struct report *r)
{
	for (size_t i = 0; i < r->nr_hists; i++)
		hists__delete(r->hists[i]);
	free(r->hists);
	frame_resolver__delete(r->resolver);
	free(r->chain_frames);
	free(r->chain_rf);
	free(r->cgroup_ns);
	free(r->counts.threads);
	free(r->counts.counters);
	free(r->counts.cells);
	if (r->want_parent)
		regfree(&r->parent_regex);
}
