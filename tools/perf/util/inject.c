// SPDX-License-Identifier: GPL-2.0
/*
 * perf inject's engine: a session over the input whose tool writes every record it is
 * given, samples rewritten per their attr (inject.h says what changes), through one
 * perf_writer. The writer starts at the first record delivered, when a pipe's attrs and
 * features have all gone by; build ids are inject-buildid.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <perf/data.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include <perf/record.h>
#include "build-id.h"
#include "dso.h"
#include "inject-aslr.h"
#include "inject-buildid.h"
#include "inject-lazy-mmaps.h"
#include "inject-maps.h"
#include "inject-jit.h"
#include "inject.h"
#include "machine.h"
#include "map.h"
#include "session.h"
#include "unwind.h"

/* the largest record: a sample is synthesized into a buffer of this size */
#define INJECT_BUF_BYTES	65536

/* how an input attr's samples are written */
struct inject_attr {
	struct perf_event_attr	out;		/* the output's attr */
	bool			as_recorded;	/* --call-graph dwarf without --convert-callchain */
	bool			has_dump;	/* callchain + user regs + stack dump */
};

/* a feature's bytes in the output's (host) order: a file section or a pipe record body */
struct inject_feature {
	void	*bytes;
	size_t	size;
};

struct inject {
	struct perf_tool	tool;
	const struct inject_opts *opts;
	struct perf_session	*session;	/* borrowed from inject__run() */
	struct perf_writer	*w;		/* NULL until the first record */
	struct inject_attr	*attrs;		/* one per input attr, from the start on */
	size_t			nr_attrs;
	u64			*buf;		/* INJECT_BUF_BYTES: the record being synthesized */
	u64			*chain;		/* the rewritten callchain */
	size_t			chain_alloc;
	u64			*scratch;	/* INJECT_BUF_BYTES: a re-parse of a swapped record */
	/* a pipe's HEADER_FEATURE bodies (host order input only) */
	struct inject_feature	features[HEADER_LAST_FEATURE];
	/* perf's own records before the writer started, written right after its start */
	u8			*held;
	size_t			held_len, held_alloc;
	struct inject_buildids	*bids;		/* NULL without -b / --buildid-all */
	struct inject_maps	*maps;		/* MMAPs, for stitched chains (inject-maps.h) */
	struct inject_jit	*jit;		/* NULL without -j */
	struct lazy_mmaps	*lazy;		/* NULL without -B */
	struct inject_aslr	*aslr;		/* NULL without --aslr */
	u64			*aslr_buf;	/* INJECT_BUF_BYTES: a side-band record moved */
	struct perf_branch_entry *branches;	/* a sample's branch stack moved */
	size_t			branches_alloc;
	bool			jit_checked;	/* the attrs' clock, at the first jitdump */
	struct perf_evattr	*jit_ea;	/* the marker's attr, while its dump is written */
	struct inject_stats	stats;
};

static struct inject *inject_of(const struct perf_tool *tool)
{
	return (struct inject *)container_of(tool, struct inject, tool);
}

/* ---- the output's attrs and header -------------------------------------------------------- */

static void inject__out_attr(const struct inject *inj, const struct perf_event_attr *in,
			     struct inject_attr *ia)
{
	const u64 dump = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	bool dwarf;

	ia->out = *in;
	/* registers hold addresses that cannot be moved: they leave the samples */
	if (inj->aslr) {
		ia->out.sample_type &= ~(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR);
		ia->out.sample_regs_user = 0;
		ia->out.sample_regs_intr = 0;
	}
	ia->has_dump = (in->sample_type & dump) == dump;
	/* perf's --call-graph dwarf: the kernel gives no user chain, the dump is the stack */
	dwarf = ia->has_dump && (in->flags & PERF_ATTR_FLAG(EXCLUDE_CALLCHAIN_USER));
	ia->as_recorded = dwarf && (!inj->opts->convert_callchain || inj->opts->keep_stack);
	if (!inj->opts->keep_deferred)
		ia->out.flags &= ~(PERF_ATTR_FLAG(DEFER_CALLCHAIN) | PERF_ATTR_FLAG(DEFER_OUTPUT));
	if (!ia->has_dump || ia->as_recorded)
		return;
	/* the reader unwinds again: the chain stays the recorded one (see inject.h) */
	if (inj->opts->keep_stack)
		return;
	if (dwarf)
		ia->out.flags &= ~PERF_ATTR_FLAG(EXCLUDE_CALLCHAIN_USER);
	ia->out.sample_type &= ~(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	ia->out.sample_regs_user = 0;
	ia->out.sample_stack_user = 0;
}

/* features the writer makes itself, or that mean nothing in the output */
static bool inject__own_feature(int feat)
{
	switch (feat) {
	case HEADER_TRACING_DATA:
	case HEADER_BUILD_ID:
	case HEADER_HOSTNAME:
	case HEADER_OSRELEASE:
	case HEADER_VERSION:
	case HEADER_ARCH:
	case HEADER_CPUDESC:
	case HEADER_CPUID:
	case HEADER_NRCPUS:
	case HEADER_CMDLINE:
	case HEADER_EVENT_DESC:
	case HEADER_COMPRESSED:
	case HEADER_AUXTRACE:		/* file offsets of the input's AUXTRACE records */
	case HEADER_DIR_FORMAT:		/* one file is written */
		return true;
	default:
		return false;
	}
}

/*
 * A feature from its parsed form, for an input in the other byte order (whose bytes we
 * cannot copy): the features the writer can make. Others are left out.
 */
static int inject__copy_parsed(struct inject *inj, const struct perf_env *env, int feat,
			       struct perf_err *err)
{
	struct perf_writer *w = inj->w;

	if (!perf_env__parsed(env, feat))
		return 0;
	switch (feat) {
	case HEADER_TOTAL_MEM:
		return perf_writer__set_total_mem(w, env->total_mem, err);
	case HEADER_CLOCKID:
		return perf_writer__set_clockid(w, env->clockid_res_ns, err);
	case HEADER_CLOCK_DATA:
		return perf_writer__set_clock_data(w, env->clock_clockid, env->clock_tod_ns,
						   env->clock_clk_ns, err);
	case HEADER_SAMPLE_TIME:
		return perf_writer__set_sample_time(w, env->first_sample_time,
						    env->last_sample_time, err);
	case HEADER_CPU_TOPOLOGY:
		return perf_writer__set_cpu_topology(w, &env->cpu_topology, err);
	case HEADER_NUMA_TOPOLOGY:
		return perf_writer__set_numa_topology(w, env->numa_nodes, env->nr_numa_nodes, err);
	case HEADER_PMU_MAPPINGS:
		return perf_writer__set_pmu_mappings(w, env->pmus, env->nr_pmus, err);
	case HEADER_GROUP_DESC:
		return perf_writer__set_group_desc(w, env->groups, env->nr_groups, err);
	case HEADER_CACHE:
		return perf_writer__set_cache(w, env->caches, env->nr_caches, err);
	case HEADER_MEM_TOPOLOGY:
		return perf_writer__set_mem_topology(w, env->mem_block_size, env->mem_nodes,
						     env->nr_mem_nodes, err);
	case HEADER_PMU_CAPS:
		return perf_writer__set_pmu_caps(w, env->pmu_caps, env->nr_pmu_caps, err);
	case HEADER_CPU_PMU_CAPS:
		return perf_writer__set_cpu_pmu_caps(w, &env->cpu_pmu_caps, err);
	default:
		return 0;
	}
}

static int inject__copy_features(struct inject *inj, struct perf_err *err)
{
	struct perf_data *data = inj->session->data;
	const struct perf_env *env = perf_data__env(data);
	bool swapped = perf_data__needs_swap(data);
	int ret = perf_writer__copy_features(inj->w, data, err);

	for (int feat = 1; feat < HEADER_LAST_FEATURE && !ret; feat++) {
		const void *bytes = inj->features[feat].bytes;
		size_t size = inj->features[feat].size;

		if (inject__own_feature(feat) || !perf_env__has_feat(env, feat))
			continue;
		/* the BPF programs' load addresses */
		if (inj->aslr && feat == HEADER_BPF_PROG_INFO)
			continue;
		if (swapped) {
			ret = inject__copy_parsed(inj, env, feat, err);
			continue;
		}
		if (!perf_data__is_pipe(data) &&
		    perf_data__feature_bytes(data, feat, &bytes, &size, err))
			return -EINVAL;
		if (bytes)
			ret = perf_writer__set_feature_bytes(inj->w, feat, bytes, size, err);
	}
	return ret;
}

/*
 * The writer, once every attr and feature of the input is known: at the first record
 * delivered (a pipe's header records all come before its data) or at the end.
 */
static int inject__start(struct inject *inj, struct perf_err *err)
{
	struct perf_data *data = inj->session->data;
	struct perf_writer_opts wo = {
		.pipe = !strcmp(inj->opts->output, "-"),
		.zstd_level = inj->opts->zstd_level,
	};
	size_t nr = perf_data__nr_attrs(data);
	int ret = 0;

	if (inj->w)
		return 0;
	inj->attrs = calloc(nr ? nr : 1, sizeof(*inj->attrs));
	if (!inj->attrs)
		return perf_err__set(err, ENOMEM, "out of memory");
	inj->nr_attrs = nr;
	/*
	 * perf 6.1's attr size unless a field past it is set: perf >= 6.19 writes 144 bytes,
	 * which 6.1 refuses, with nothing in the last 16 of them
	 */
	wo.attr_size = PERF_WRITER_DEFAULT_ATTR_SIZE;
	for (size_t i = 0; i < nr; i++) {
		const u8 *bytes = (const u8 *)&perf_data__attr(data, i)->attr;

		for (u32 end = sizeof(struct perf_event_attr); end > wo.attr_size; end--)
			if (bytes[end - 1]) {
				wo.attr_size = (end + 7) & ~7u;
				break;
			}
	}
	inj->w = perf_writer__new(inj->opts->output, &wo, err);
	if (!inj->w)
		return -EIO;
	for (size_t i = 0; i < nr && !ret; i++) {
		struct perf_evattr *ea = perf_data__attr(data, i);

		inject__out_attr(inj, &ea->attr, &inj->attrs[i]);
		ret = perf_writer__add_attr(inj->w, &inj->attrs[i].out, ea->ids, ea->nr_ids,
					    perf_evattr__name(ea), err);
		ret = ret < 0 ? ret : 0;
	}
	if (!ret)
		ret = inject__copy_features(inj, err);
	if (!ret && inj->bids)
		ret = inject_buildids__start(inj->bids, perf_data__env(data), err);
	/* perf's own records that came before: after the header, in their order */
	for (size_t off = 0; !ret && off < inj->held_len;) {
		const struct perf_event_header *h = (const void *)(inj->held + off);

		ret = perf_writer__write(inj->w, h, err);
		off += h->size;
	}
	free(inj->held);
	inj->held = NULL;
	inj->held_len = 0;
	return ret;
}

static struct inject_attr *inject__attr(struct inject *inj, const struct perf_evattr *ea)
{
	size_t idx;

	/* a pipe attr after the data began: written as recorded (the writer cannot add it) */
	if (!inj->nr_attrs)
		return NULL;
	idx = (size_t)(ea - perf_data__attr(inj->session->data, 0));
	return idx < inj->nr_attrs ? &inj->attrs[idx] : NULL;
}

/* the writer, from a tool callback: a failure is the session's tool error */
static int inject__started(struct inject *inj)
{
	struct perf_err err;
	int ret = inject__start(inj, &err);

	return ret ? perf_session__tool_error(inj->session, -ret, err.msg) : 0;
}

/* --aslr: a side-band record with an address, moved in a copy; others as they are */
static const struct perf_event_header *inject__aslr_record(struct inject *inj,
							   const struct perf_event_header *h)
{
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_TEXT_POKE:
		memcpy(inj->aslr_buf, h, h->size);
		inject_aslr__record(inj->aslr, (struct perf_event_header *)inj->aslr_buf);
		return (const struct perf_event_header *)inj->aslr_buf;
	default:
		return h;
	}
}

static int inject__write(struct inject *inj, const struct perf_event_header *h)
{
	struct perf_err err;
	int ret = inject__started(inj);

	if (ret)
		return ret;
	if (inj->aslr)
		h = inject__aslr_record(inj, h);
	ret = perf_writer__write(inj->w, h, &err);
	return ret ? perf_session__tool_error(inj->session, -ret, err.msg) : 0;
}

static int inject__write_cb(void *arg, const struct perf_event_header *h)
{
	return inject__write(arg, h);
}

/* ---- samples ------------------------------------------------------------------------------ */

static int inject__grow_chain(struct inject *inj, size_t nr)
{
	u64 *c;

	if (nr <= inj->chain_alloc)
		return 0;
	c = realloc(inj->chain, nr * sizeof(*c));
	if (!c)
		return -ENOMEM;
	inj->chain = c;
	inj->chain_alloc = nr;
	return 0;
}

/*
 * The chain as an ordinary inline one: a stitched user part's deferred marker becomes
 * PERF_CONTEXT_USER; an unstitched sample's marker and cookie go, unless kept. *stitched_at:
 * where a stitched user part begins in the new chain, 0 when there is none.
 */
static int inject__chain(struct inject *inj, const struct perf_event_attr *attr,
			 struct perf_sample *s, size_t *stitched_at)
{
	/* perf's rule: without the attr's flag the marker is no deferral, and stays */
	bool deferred = attr->flags & PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	size_t n = 0;

	*stitched_at = 0;
	if (inject__grow_chain(inj, s->callchain_nr + 1))
		return -ENOMEM;
	for (u64 i = 0; i < s->callchain_nr; i++) {
		u64 ip = s->callchain[i];

		if (ip == PERF_CONTEXT_USER_DEFERRED && deferred) {
			if (!s->deferred_callchain) {
				ip = PERF_CONTEXT_USER;
				inj->stats.stitched++;
				*stitched_at = n + 1;
			} else if (!inj->opts->keep_deferred) {
				break;
			}
		}
		inj->chain[n++] = ip;
	}
	if (s->deferred_callchain)
		inj->stats.unstitched++;
	s->callchain = inj->chain;
	s->callchain_nr = n;
	return 0;
}

/* a sample of a cross-endian input, as it was before the stages changed it */
static int inject__reparse(struct inject *inj, const struct perf_event_header *event,
			   struct perf_evattr *ea, struct perf_sample *s)
{
	struct perf_err why;

	if (perf_evattr__parse_sample(ea, event, true, inj->scratch, s, &why))
		return perf_session__tool_error(inj->session, EINVAL, why.msg);
	return 0;
}

static bool inject__points_into(const u64 *p, const struct perf_event_header *event)
{
	const u8 *b = (const u8 *)event;

	return (const u8 *)p >= b && (const u8 *)p < b + event->size;
}

/* an MMAP2 with a build id, in the output's order, into buf; NULL when it does not fit */
struct mmap2_fields {
	u32		pid, tid;
	u64		start, len, pgoff;
	u32		prot, flags;
	u16		misc;
	const char	*name;
	size_t		name_len;
	const u8	*id;
	size_t		id_size;
};

static const struct perf_event_header *inject__synth_mmap2(struct inject *inj,
							    const struct mmap2_fields *f,
							    struct perf_sample *sample,
							    struct perf_evattr *evattr)
{
	struct perf_record_mmap2 *out = (void *)inj->buf;
	size_t body = (sizeof(*out) + f->name_len + 1 + sizeof(u64) - 1) & ~(sizeof(u64) - 1);

	if (body + evattr->id_hdr_size > INJECT_BUF_BYTES || f->id_size > sizeof(out->build_id))
		return NULL;
	memset(out, 0, body);
	out->header.type = PERF_RECORD_MMAP2;
	out->header.misc = f->misc | PERF_RECORD_MISC_MMAP_BUILD_ID;
	out->header.size = (u16)(body + evattr->id_hdr_size);
	out->pid = f->pid;
	out->tid = f->tid;
	out->start = f->start;
	out->len = f->len;
	out->pgoff = f->pgoff;
	out->build_id_size = (u8)f->id_size;
	memcpy(out->build_id, f->id, f->id_size);
	out->prot = f->prot;
	out->flags = f->flags;
	memcpy(out->filename, f->name, f->name_len);
	if (perf_sample__synthesize_id(&evattr->attr, sample, false, (u8 *)inj->buf + body,
				       evattr->id_hdr_size) != evattr->id_hdr_size)
		return NULL;
	return &out->header;
}

/*
 * --mmap2-buildid-all: a file mapping's MMAP or MMAP2 (learnt already) as an MMAP2 carrying
 * its DSO's build id, so readers need no build-id table; NULL: as it is (no file, no build
 * id, an id there already, a kernel map)
 */
static const struct perf_event_header *inject__mmap2_build_id(struct inject *inj,
							       const struct perf_event_header *event,
							       struct perf_sample *sample,
							       struct perf_evattr *evattr)
{
	const struct perf_record_mmap *m1 = (const void *)event;
	const struct perf_record_mmap2 *m2 = (const void *)event;
	bool v2 = event->type == PERF_RECORD_MMAP2;
	size_t fixed = v2 ? sizeof(*m2) : sizeof(*m1);
	struct mmap2_fields f;
	struct thread *thread;
	struct map *map;
	u8 id[BUILD_ID_SIZE_MAX];
	size_t size = 0;

	if ((const void *)event == inj->buf) {
		/* swapped into buf by inject__host_order: buf is where the result goes */
		memcpy(inj->scratch, event, event->size);
		event = (const void *)inj->scratch;
		m1 = (const void *)event;
		m2 = (const void *)event;
	}
	if (event->size < fixed + evattr->id_hdr_size ||
	    (event->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ||
	    (v2 && perf_record_mmap2__has_build_id(m2)))
		return NULL;
	thread = machine__find_thread(&inj->session->machine, (s32)m1->tid);
	map = thread ? maps__find(thread->maps, m1->start) : NULL;
	if (!map || !map->dso || map->dso->kind != DSO_KIND_USER ||
	    inject_buildids__dso_id(inj->opts->symbol_conf, map->dso, id, &size))
		return NULL;
	f = (struct mmap2_fields){
		.pid = m1->pid, .tid = m1->tid, .start = m1->start, .len = m1->len,
		.pgoff = m1->pgoff, .misc = event->misc, .id = id, .id_size = size,
		/* an MMAP is an executable mapping (the kernel writes only those as MMAP) */
		.prot = v2 ? m2->prot : PROT_READ | PROT_EXEC,
		.flags = v2 ? m2->flags : MAP_PRIVATE,
		.name = v2 ? m2->filename : m1->filename,
	};
	f.name_len = strnlen(f.name, event->size - fixed - evattr->id_hdr_size);
	return inject__synth_mmap2(inj, &f, sample, evattr);
}

/* a user MMAP/MMAP2 of a file ([vdso], anonymous memory and the kernel's are none) */
static bool inject__is_file_mmap(const struct perf_event_header *event)
{
	size_t fixed = event->type == PERF_RECORD_MMAP2 ? sizeof(struct perf_record_mmap2) :
						   sizeof(struct perf_record_mmap);

	return (event->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL &&
	       event->size > fixed && ((const char *)event)[fixed] == '/';
}

/* -B: the map of a file ip hits in the sample's process, written before its first hit */
static int inject__lazy_map(struct inject *inj, struct thread *thread, u64 ip,
			    struct perf_sample *sample, struct perf_evattr *evattr)
{
	struct map *map = thread && thread->maps ? maps__find(thread->maps, ip) : NULL;
	const struct perf_event_header *m2;
	u8 id[BUILD_ID_SIZE_MAX];
	struct mmap2_fields f;
	size_t size = 0;
	int ret;

	if (!map || !map->dso || map->dso->kind != DSO_KIND_USER)
		return 0;
	ret = lazy_mmaps__first_hit(inj->lazy, sample->pid, map);
	if (ret <= 0)
		return ret;
	if (inject_buildids__dso_id(inj->opts->symbol_conf, map->dso, id, &size))
		size = 0;
	f = (struct mmap2_fields){
		.pid = sample->pid, .tid = sample->tid, .start = map->start,
		.len = map->end - map->start, .pgoff = map->pgoff,
		.prot = map->prot ? map->prot : PROT_READ | PROT_EXEC,
		.flags = map->flags ? map->flags : MAP_PRIVATE, .misc = PERF_RECORD_MISC_USER,
		.name = map->dso->long_name, .name_len = strlen(map->dso->long_name),
		.id = id, .id_size = size,
	};
	m2 = inject__synth_mmap2(inj, &f, sample, evattr);
	return m2 ? inject__write(inj, m2) : 0;
}

/* -B: the maps of the sample's ip and user callchain that no earlier sample hit */
static int inject__lazy_maps(struct inject *inj, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	struct thread *thread = perf_session__sample_thread(inj->session, sample);
	bool user = sample->cpumode == PERF_RECORD_MISC_USER;
	int ret = user ? inject__lazy_map(inj, thread, sample->ip, sample, evattr) : 0;

	for (u64 i = 0; i < sample->callchain_nr && !ret; i++) {
		u64 ip = sample->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_USER_DEFERRED)
				break;	/* the cookie follows, not an address */
			user = ip == PERF_CONTEXT_USER;
			continue;
		}
		if (user)
			ret = inject__lazy_map(inj, thread, ip, sample, evattr);
	}
	return ret < 0 ? perf_session__tool_error(inj->session, -ret, "out of memory") : ret;
}

/* --aslr: the sample's addresses moved, its chain and branches copied first */
static int inject__aslr_sample(struct inject *inj, struct perf_sample *s)
{
	if (inject__grow_chain(inj, s->callchain_nr))
		return -ENOMEM;
	if (s->branch_nr > inj->branches_alloc) {
		struct perf_branch_entry *b = realloc(inj->branches, s->branch_nr * sizeof(*b));

		if (!b)
			return -ENOMEM;
		inj->branches = b;
		inj->branches_alloc = s->branch_nr;
	}
	inject_aslr__sample(inj->aslr, s, inj->chain, inj->branches);
	return 0;
}

static int inject__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr)
{
	struct inject *inj = inject_of(tool);
	const struct inject_attr *ia;
	struct perf_sample s = *sample;
	struct perf_err why;
	int size, ret;

	if (!evattr)
		return 0;
	ret = inject__started(inj);
	if (ret)
		return ret;
	ia = inject__attr(inj, evattr);
	/* --aslr: what tells the layout and cannot be moved (inject-aslr.h) */
	if (inj->aslr && ((ia ? ia->out.sample_type : evattr->attr.sample_type) &
			  (PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_STACK_USER))) {
		inj->aslr->dropped++;
		return 0;
	}
	if (inj->bids) {
		ret = inject_buildids__sample(inj->bids, session, sample);
		if (ret)
			return ret;
	}
	if (inj->lazy) {
		ret = inject__lazy_maps(inj, sample, evattr);
		if (ret)
			return ret;
	}
	inj->stats.samples++;
	if (!ia || ia->as_recorded) {
		if (!session->swapped && !inj->aslr)
			return inject__write(inj, event);
		ret = session->swapped ? inject__reparse(inj, event, evattr, &s) : 0;
		if (ret)
			return ret;
	} else if (!session->swapped && !inj->aslr &&
		   (!s.callchain_nr || inject__points_into(s.callchain, event)) &&
		   !s.deferred_callchain && !ia->has_dump &&
		   ia->out.sample_type == evattr->attr.sample_type) {
		/* what no stage touched and no field leaves is written as it came */
		return inject__write(inj, event);
	} else {
		size_t user;

		if (ia->has_dump && s.callchain_origin)
			inj->stats.unwound++;
		ret = inject__chain(inj, &evattr->attr, &s, &user);
		if (ret)
			return perf_session__tool_error(session, -ret, "out of memory");
		if (user)
			ret = inject_maps__before(inj->maps, perf_session__sample_thread(session, sample),
						  sample, s.callchain + user, s.callchain_nr - user,
						  inject__write_cb, inj);
		if (ret)
			return ret;
	}
	if (inj->aslr) {
		ret = inject__aslr_sample(inj, &s);
		if (ret)
			return perf_session__tool_error(session, -ret, "out of memory");
	}
	size = perf_sample__synthesize(ia ? &ia->out : &evattr->attr, &s, false, inj->buf,
				       INJECT_BUF_BYTES, &why);
	if (size < 0)
		return perf_session__tool_error(session, -size, why.msg);
	return inject__write(inj, (const struct perf_event_header *)inj->buf);
}

/* ---- the other records -------------------------------------------------------------------- */

/*
 * A side-band record of a cross-endian input: the reader swapped its fields, not its
 * sample_id trailer, which is written again from its parse. NULL-safe on evattr.
 */
static const struct perf_event_header *inject__host_order(struct inject *inj,
							  const struct perf_event_header *event,
							  const struct perf_sample *sample,
							  const struct perf_evattr *evattr)
{
	size_t body;

	if (!inj->session->swapped || !evattr || !evattr->id_hdr_size ||
	    evattr->id_hdr_size > event->size)
		return event;
	body = event->size - evattr->id_hdr_size;
	memcpy(inj->buf, event, body);
	if (perf_sample__synthesize_id(&evattr->attr, sample, false, (u8 *)inj->buf + body,
				       evattr->id_hdr_size) != evattr->id_hdr_size)
		return event;
	return (const struct perf_event_header *)inj->buf;
}

/* an MMAP or MMAP2 the machine learns (-b, the unwinder) and stitched chains may repeat */
static int inject__learn_mmap(struct inject *inj, const struct perf_event_header *event,
			      struct perf_sample *sample, struct perf_evattr *evattr)
{
	int ret = perf_event__process_mmap(&inj->tool, inj->session, event, sample, evattr);

	if (!ret && inject_maps__remember(inj->maps, event, sample, evattr))
		ret = perf_session__tool_error(inj->session, ENOMEM, "out of memory");
	return ret;
}

/* an MMAP2 of JIT'd code: learnt as the recorded ones are, then out */
static int inject__jit_write(void *arg, const struct perf_event_header *event,
			     struct perf_sample *id)
{
	struct inject *inj = arg;
	int ret = inject__learn_mmap(inj, event, id, inj->jit_ea);

	return ret ? ret : inject__write(inj, event);
}

/* -j: 1 when event is a jitdump marker (its dump's maps written instead), else 0 or -errno */
static int inject__jit_marker(struct inject *inj, const struct perf_event_header *event,
			      struct perf_sample *sample, struct perf_evattr *evattr)
{
	struct perf_err err = { .msg = "-j: cannot write the maps of the JIT'd code" };
	int ret;

	inj->jit_ea = evattr;
	ret = inject_jit__mmap(inj->jit, event, sample, evattr,
			       inj->jit_checked ? NULL : inj->session->data, inject__jit_write, inj,
			       &err);
	inj->jit_ea = NULL;
	if (ret < 0 && inj->session->err.msg[0])
		return ret;	/* the writer's failure, said already */
	if (ret < 0)
		return perf_session__tool_error(inj->session, -ret, err.msg);
	if (ret > 0)
		inj->jit_checked = true;
	return ret;
}

/* side-band records: the machine learns them (build ids, the unwinder's maps), then out */
static int inject__sideband(const struct perf_tool *tool, struct perf_session *session,
			    const struct perf_event_header *event, struct perf_sample *sample,
			    struct perf_evattr *evattr)
{
	struct inject *inj = inject_of(tool);
	int ret;

	switch (event->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (inj->jit) {
			ret = inject__jit_marker(inj, event, sample, evattr);
			if (ret)
				return ret < 0 ? ret : 0;	/* the marker is not written */
		}
		ret = inject__learn_mmap(inj, event, sample, evattr);
		/* -B: a file's maps go out when a sample hits them (inject__lazy_maps) */
		if (!ret && inj->lazy && inject__is_file_mmap(event))
			return 0;
		if (!ret && inj->opts->mmap2_build_ids) {
			const struct perf_event_header *m2 =
				inject__mmap2_build_id(inj, inject__host_order(inj, event, sample,
									       evattr),
						       sample, evattr);

			if (m2)
				return inject__write(inj, m2);
		}
		break;
	case PERF_RECORD_COMM:
		ret = perf_event__process_comm(tool, session, event, sample, evattr);
		break;
	case PERF_RECORD_FORK:
		ret = perf_event__process_fork(tool, session, event, sample, evattr);
		break;
	case PERF_RECORD_EXIT:
		ret = perf_event__process_exit(tool, session, event, sample, evattr);
		break;
	case PERF_RECORD_KSYMBOL:
		ret = perf_event__process_ksymbol(tool, session, event, sample, evattr);
		break;
	default:
		ret = 0;
		break;
	}
	if (ret)
		return ret;
	return inject__write(inj, inject__host_order(inj, event, sample, evattr));
}

static int inject__hold(struct inject *inj, const struct perf_event_header *event)
{
	if (inj->held_len + event->size > inj->held_alloc) {
		size_t alloc = (inj->held_alloc ? inj->held_alloc * 2 : 4096) + event->size;
		u8 *p = realloc(inj->held, alloc);

		if (!p)
			return perf_session__tool_error(inj->session, ENOMEM, "out of memory");
		inj->held = p;
		inj->held_alloc = alloc;
	}
	memcpy(inj->held + inj->held_len, event, event->size);
	inj->held_len += event->size;
	return 0;
}

static int inject__keep_feature(struct inject *inj, const struct perf_event_header *event)
{
	const struct perf_record_header_feature *f = (const void *)event;
	struct inject_feature *k;
	void *bytes;

	if (event->size < sizeof(*f))
		return perf_session__tool_error(inj->session, EINVAL,
						"HEADER_FEATURE record shorter than its header");
	if (inj->session->swapped || f->feat_id >= HEADER_LAST_FEATURE ||
	    inject__own_feature((int)f->feat_id))
		return 0;
	k = &inj->features[f->feat_id];
	bytes = malloc(event->size - sizeof(*f) + 1);
	if (!bytes)
		return perf_session__tool_error(inj->session, ENOMEM, "out of memory");
	memcpy(bytes, f->data, event->size - sizeof(*f));
	free(k->bytes);
	k->bytes = bytes;
	k->size = event->size - sizeof(*f);
	return 0;
}

/* perf's own records (type >= 64): what the header now says is not repeated */
static int inject__user_meta(const struct perf_tool *tool, struct perf_session *session,
			     const struct perf_event_header *event, struct perf_sample *sample,
			     struct perf_evattr *evattr)
{
	struct inject *inj = inject_of(tool);

	(void)sample;
	(void)evattr;
	switch (event->type) {
	case PERF_RECORD_HEADER_FEATURE:
		return inject__keep_feature(inj, event);
	case PERF_RECORD_HEADER_BUILD_ID:
		/* before the start the env has it, and the header copies it */
		if (!inj->w)
			return 0;
		return inject_buildids__record(inj->bids, inj->w, session, event);
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_EVENT_UPDATE:
	case PERF_RECORD_FINISHED_ROUND:	/* see inject.h: no rounds */
	case PERF_RECORD_AUXTRACE_INFO:
	case PERF_RECORD_AUXTRACE:
	case PERF_RECORD_AUXTRACE_ERROR:
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return 0;
	default:
		if (!inj->w)
			return inject__hold(inj, event);
		return inject__write(inj, event);
	}
}

static void inject__init_tool(struct perf_tool *tool)
{
	perf_tool__init(tool);
	tool->sample = inject__sample;
	tool->mmap = inject__sideband;
	tool->comm = inject__sideband;
	tool->fork = inject__sideband;
	tool->exit = inject__sideband;
	tool->lost = inject__sideband;
	tool->throttle = inject__sideband;
	tool->ksymbol = inject__sideband;
	/* reached only without a stitching stage (never: inject always stitches): dropped */
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = inject__sideband;
	tool->user_meta = inject__user_meta;
	tool->ordered_events = true;
}

/* ---- the run ------------------------------------------------------------------------------ */

static void inject__exit(struct inject *inj)
{
	perf_writer__delete(inj->w);
	inject_buildids__delete(inj->bids);
	lazy_mmaps__delete(inj->lazy);
	free(inj->aslr);
	free(inj->aslr_buf);
	free(inj->branches);
	inject_maps__delete(inj->maps);
	inject_jit__delete(inj->jit);
	for (size_t i = 0; i < ARRAY_SIZE(inj->features); i++)
		free(inj->features[i].bytes);
	free(inj->held);
	free(inj->attrs);
	free(inj->buf);
	free(inj->scratch);
	free(inj->chain);
}

/* --aslr's layout, drawn now: the arch (a pipe's comes later) is x86_64's without a header */
static int inject__aslr_new(struct inject *inj, struct perf_err *err)
{
	const struct perf_env *env = perf_data__env(inj->session->data);
	u64 seed;

	inj->aslr = malloc(sizeof(*inj->aslr));
	inj->aslr_buf = malloc(INJECT_BUF_BYTES);
	if (!inj->aslr || !inj->aslr_buf)
		return perf_err__set(err, ENOMEM, "out of memory");
	/* a layout nobody can reproduce from the output: the kernel's random bits */
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (u64)time(NULL) * 0x9e3779b97f4a7c15ULL ^ (u64)getpid() ^ (u64)clock();
	inject_aslr__init(inj->aslr, env ? env->arch : NULL, seed);
	return 0;
}

int inject__run(const struct inject_opts *opts, struct inject_stats *stats, struct perf_err *err)
{
	struct session_opts sopts = {
		.path = opts->input,
		.symbol_conf = opts->symbol_conf,
		.merge_deferred = true,
		/*
		 * dwarf files are unwound only when asked (the mode that leaves them alone), and
		 * nothing is when the dumps stay for the reader to unwind
		 */
		.unwind_mode = opts->keep_stack ? UNWIND_MODE_NONE :
			       opts->convert_callchain ? UNWIND_MODE_AUTO : UNWIND_MODE_REPAIR,
		/* a sample with read values is written whole, not one per value */
		.keep_read_values = true,
		/* the output is a file or a pipe: the terminal, if any, is stderr's */
		.progress = !isatty(STDOUT_FILENO),
	};
	struct inject inj = { .opts = opts };
	int ret;

	inject__init_tool(&inj.tool);
	inj.buf = malloc(INJECT_BUF_BYTES);
	inj.scratch = malloc(INJECT_BUF_BYTES);
	inj.maps = inject_maps__new();
	if (!inj.buf || !inj.scratch || !inj.maps) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (opts->jit && !(inj.jit = inject_jit__new())) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (opts->build_ids != INJECT_BUILD_IDS_NONE) {
		inj.bids = inject_buildids__new(opts->build_ids == INJECT_BUILD_IDS_ALL,
						opts->symbol_conf);
		if (!inj.bids) {
			ret = perf_err__set(err, ENOMEM, "out of memory");
			goto out;
		}
	}
	if (opts->lazy_mmaps) {
		inj.lazy = lazy_mmaps__new();
		if (!inj.lazy) {
			ret = perf_err__set(err, ENOMEM, "out of memory");
			goto out;
		}
	}
	inj.session = perf_session__new(&sopts, &inj.tool, err);
	if (!inj.session) {
		ret = -EINVAL;
		goto out;
	}
	if (opts->aslr) {
		ret = inject__aslr_new(&inj, err);
		if (ret)
			goto out_session;
	}
	/* a file's header is known now: an empty or unwritable output fails before reading */
	if (!perf_data__is_pipe(inj.session->data)) {
		ret = inject__start(&inj, err);
		if (ret)
			goto out_session;
	}
	ret = perf_session__process_events(inj.session);
	if (ret) {
		*err = inj.session->err;
		goto out_session;
	}
	ret = inject__start(&inj, err);
	if (!ret && inj.bids)
		ret = inject_buildids__finish(inj.bids, inj.w, &inj.session->machine, err);
	/* the records' bytes, before finish() adds the features */
	inj.stats.out_bytes = inj.w ? perf_writer__data_size(inj.w) : 0;
	if (!ret)
		ret = perf_writer__finish(inj.w, err);
	if (!ret) {
		inj.stats.deferred_dropped =
			inj.session->stats.nr_events[PERF_RECORD_CALLCHAIN_DEFERRED];
		inj.stats.build_ids = inj.bids ? inject_buildids__nr(inj.bids) : 0;
		if (inj.jit)
			inject_jit__counts(inj.jit, &inj.stats.jit_dumps, &inj.stats.jit_maps);
		inj.stats.in_bytes = perf_data__file_header(inj.session->data)->data.size;
		if (inj.aslr) {
			inj.stats.aslr_dropped = inj.aslr->dropped;
			inj.stats.aslr_straddling = inj.aslr->straddling;
		}
		if (stats)
			*stats = inj.stats;
	}
out_session:
	perf_session__delete(inj.session);
out:
	inject__exit(&inj);
	return ret;
}
