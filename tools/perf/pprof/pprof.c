// SPDX-License-Identifier: GPL-2.0
/*
 * The profile's tables, filled sample by sample, then handed to protobuf-c's encoder of
 * profile.proto and gzip (zlib). See pprof.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <perf/kernel.h>
#include "profile.pb-c.h"
#include "pprof.h"
#include "util/build-id.h"
#include "util/dso.h"
#include "util/frame-resolver.h"
#include "util/hash.h"
#include "util/hashmap.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/symbol.h"
#include "util/thread.h"

struct pp_str {
	struct hashmap_node	node;
	u64			idx;
	char			s[];
};

struct pp_mapping {
	struct hashmap_node	node;
	struct map		*map;		/* a reference */
	s32			pid;
	u64			id;		/* final, after the main binary is put first */
	u64			samples;	/* leaf hits of the process's samples */
	s64			filename, build_id;
	bool			has_functions, has_filenames, has_lines, has_inline;
};

struct pp_function {
	struct hashmap_node	node;
	s64			name, filename;
	u64			id;
};

struct pp_line {
	u64	function;
	s64	line;
};

struct pp_location {
	struct hashmap_node	node;
	const struct map	*map;
	u64			addr;
	u64			id;
	struct pp_mapping	*mapping;	/* NULL: no map covers addr */
	struct pp_line		*lines;
	size_t			nr_lines;
};

struct pp_sample {
	struct hashmap_node	node;
	s32			pid, tid;
	s64			comm, event;
	s64			count, period;
	size_t			nr;
	uint64_t		locs[];
};

/* a resolved chain's locations, by the resolver's chain id */
struct pp_chain {
	struct hashmap_node	node;
	u64			id;
	size_t			nr;
	uint64_t		locs[];
};

struct pp_table {
	struct hashmap	map;
	void		**v;
	size_t		nr, alloc;
};

struct pprof {
	struct machine		*machine;
	struct frame_resolver	*resolver;
	struct pp_table		strings, mappings, functions, locations, samples, chains;
	uint64_t		*scratch;	/* a sample's location ids */
	size_t			scratch_alloc;
	unsigned long long	nr_samples;
	u64			first_time, last_time;
	struct perf_evattr	*events[64];	/* the attrs seen, for sample_type and labels */
	size_t			nr_events;
	bool			only_clocks;
	/* the last sample's comm and event: most samples repeat them (no string lookup) */
	const char		*last_comm;
	s64			last_comm_idx;
	struct perf_evattr	*last_ea;
	s64			last_event_idx;
	s64			s_pid, s_tid, s_comm, s_event, s_unknown;
};

static int table__push(struct pp_table *t, void *e)
{
	if (t->nr == t->alloc) {
		size_t n = t->alloc ? 2 * t->alloc : 256;
		void **v = realloc(t->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->alloc = n;
	}
	t->v[t->nr++] = e;
	return 0;
}

static void table__init(struct pp_table *t)
{
	memset(t, 0, sizeof(*t));
	hashmap__init(&t->map, 1024);
}

static void table__exit(struct pp_table *t, void (*fn)(void *))
{
	for (size_t i = 0; i < t->nr; i++)
		fn(t->v[i]);
	free(t->v);
	hashmap__exit(&t->map);
}

/* the string's index in string_table, added when new; -1 when out of memory */
static s64 pprof__str(struct pprof *p, const char *s)
{
	size_t h = (size_t)hash__str(s), len = strlen(s);
	struct hashmap_node *pos;
	struct pp_str *e;

	hashmap__for_each_hash(&p->strings.map, pos, h) {
		e = container_of(pos, struct pp_str, node);
		if (!strcmp(e->s, s))
			return (s64)e->idx;
	}
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return -1;
	memcpy(e->s, s, len + 1);
	e->idx = p->strings.nr;
	if (table__push(&p->strings, e) || hashmap__add(&p->strings.map, &e->node, h)) {
		if (p->strings.nr > e->idx)
			p->strings.nr--;
		free(e);
		return -1;
	}
	return (s64)e->idx;
}

struct pprof *pprof__new(struct machine *machine, bool inline_frames)
{
	struct pprof *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->machine = machine;
	p->only_clocks = true;
	table__init(&p->strings);
	table__init(&p->mappings);
	table__init(&p->functions);
	table__init(&p->locations);
	table__init(&p->samples);
	table__init(&p->chains);
	p->resolver = frame_resolver__new(machine);
	if (!p->resolver)
		goto err;
	frame_resolver__set_inline(p->resolver, inline_frames, stderr);
	/* string_table[0] must be "" */
	if (pprof__str(p, "") != 0)
		goto err;
	p->s_pid = pprof__str(p, "pid");
	p->s_tid = pprof__str(p, "tid");
	p->s_comm = pprof__str(p, "comm");
	p->s_event = pprof__str(p, "event");
	p->s_unknown = pprof__str(p, "[unknown]");
	if (p->s_pid < 0 || p->s_tid < 0 || p->s_comm < 0 || p->s_event < 0 || p->s_unknown < 0)
		goto err;
	return p;
err:
	pprof__delete(p);
	return NULL;
}

static void mapping__free(void *e)
{
	struct pp_mapping *m = e;

	map__put(m->map);
	free(m);
}

static void location__free(void *e)
{
	struct pp_location *l = e;

	free(l->lines);
	free(l);
}

void pprof__delete(struct pprof *p)
{
	if (!p)
		return;
	table__exit(&p->strings, free);
	table__exit(&p->mappings, mapping__free);
	table__exit(&p->functions, free);
	table__exit(&p->locations, location__free);
	table__exit(&p->samples, free);
	table__exit(&p->chains, free);
	frame_resolver__delete(p->resolver);
	free(p->scratch);
	free(p);
}

unsigned long long pprof__nr_samples(const struct pprof *p)
{
	return p->nr_samples;
}

static struct pp_mapping *pprof__mapping(struct pprof *p, struct map *map, s32 pid)
{
	size_t h = (size_t)hash__ptr(map);
	struct hashmap_node *pos;
	struct pp_mapping *m;
	char hex[BUILD_ID_HEX_SIZE] = "";
	struct dso *dso = map->dso;

	hashmap__for_each_hash(&p->mappings.map, pos, h) {
		m = container_of(pos, struct pp_mapping, node);
		if (m->map == map)
			return m;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->map = map__get(map);
	m->pid = pid;
	if (dso && dso->has_build_id)
		dso__build_id_hex(dso, hex);
	m->filename = pprof__str(p, dso ? dso->long_name : "");
	m->build_id = pprof__str(p, hex);
	if (m->filename < 0 || m->build_id < 0 || table__push(&p->mappings, m)) {
		mapping__free(m);
		return NULL;
	}
	if (hashmap__add(&p->mappings.map, &m->node, h)) {
		p->mappings.nr--;
		mapping__free(m);
		return NULL;
	}
	return m;
}

static s64 pprof__function(struct pprof *p, s64 name, s64 filename)
{
	size_t h = (size_t)hash__u64x2((u64)name, (u64)filename);
	struct hashmap_node *pos;
	struct pp_function *f;

	hashmap__for_each_hash(&p->functions.map, pos, h) {
		f = container_of(pos, struct pp_function, node);
		if (f->name == name && f->filename == filename)
			return (s64)f->id;
	}
	f = malloc(sizeof(*f));
	if (!f)
		return -1;
	f->name = name;
	f->filename = filename;
	f->id = p->functions.nr + 1;
	if (table__push(&p->functions, f)) {
		free(f);
		return -1;
	}
	if (hashmap__add(&p->functions.map, &f->node, h)) {
		p->functions.nr--;
		free(f);
		return -1;
	}
	return (s64)f->id;
}

/* "file:line" (perhaps " (discriminator N)" after it) into its parts; line 0 without one */
static void srcline__split(const char *srcline, char *file, size_t size, s64 *line)
{
	const char *colon = srcline ? strrchr(srcline, ':') : NULL;
	char *end;
	unsigned long n;

	*line = 0;
	file[0] = '\0';
	if (!colon || colon == srcline || colon[1] < '0' || colon[1] > '9')
		return;
	n = strtoul(colon + 1, &end, 10);
	if (!n || strncmp(srcline, "??", 2) == 0)
		return;
	snprintf(file, size, "%.*s", (int)(colon - srcline), srcline);
	*line = (s64)n;
}

/* one frame's Line: its function (the symbol's name, the file of its source line) */
static int pprof__line(struct pprof *p, const struct resolved_frame *f, struct pp_line *line,
		       struct pp_mapping *m)
{
	char buf[4096], file[4096];
	const char *srcline = f->srcline;
	s64 name, fname;
	s64 fn;

	if (!srcline && f->sym && f->map)
		srcline = frame__srcline(f, p->machine, 0, buf, sizeof(buf));
	srcline__split(srcline, file, sizeof(file), &line->line);
	name = f->sym ? pprof__str(p, f->sym->name) : p->s_unknown;
	fname = pprof__str(p, file);
	if (name < 0 || fname < 0)
		return -ENOMEM;
	fn = pprof__function(p, name, fname);
	if (fn < 0)
		return -ENOMEM;
	line->function = (u64)fn;
	if (m) {
		m->has_functions |= f->sym != NULL;
		m->has_filenames |= file[0] != '\0';
		m->has_lines |= line->line > 0;
		m->has_inline |= f->origin == FRAME_ORIGIN_INLINE;
	}
	return 0;
}

/*
 * The Location of frames[0..nr): the inline expansion at one address (innermost first,
 * the last frame the function they are inlined into), or one plain frame
 */
static s64 pprof__location(struct pprof *p, const struct resolved_frame *frames, size_t nr,
			   s32 pid)
{
	const struct resolved_frame *f = &frames[nr - 1];
	size_t h = (size_t)hash__u64x2((u64)(uintptr_t)f->map, f->ip);
	struct hashmap_node *pos;
	struct pp_location *l;

	hashmap__for_each_hash(&p->locations.map, pos, h) {
		l = container_of(pos, struct pp_location, node);
		if (l->map == f->map && l->addr == f->ip)
			return (s64)l->id;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return -1;
	l->map = f->map;
	l->addr = f->ip;
	l->id = p->locations.nr + 1;
	l->lines = calloc(nr, sizeof(*l->lines));
	if (!l->lines || (f->map && !(l->mapping = pprof__mapping(p, f->map, pid))))
		goto err;
	for (size_t i = 0; i < nr; i++)
		if (pprof__line(p, &frames[i], &l->lines[i], l->mapping))
			goto err;
	l->nr_lines = nr;
	if (table__push(&p->locations, l))
		goto err;
	if (hashmap__add(&p->locations.map, &l->node, h)) {
		p->locations.nr--;
		goto err;
	}
	return (s64)l->id;
err:
	location__free(l);
	return -1;
}

static int pprof__scratch(struct pprof *p, size_t nr)
{
	uint64_t *v;

	if (nr <= p->scratch_alloc)
		return 0;
	v = realloc(p->scratch, nr * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->scratch = v;
	p->scratch_alloc = nr;
	return 0;
}

/* the chain's location ids into p->scratch; their number, or -ENOMEM */
static ssize_t pprof__chain_locations(struct pprof *p, const struct resolved_chain *chain,
				      s32 pid)
{
	size_t n = 0, start = 0;

	if (pprof__scratch(p, chain->nr))
		return -ENOMEM;
	for (size_t i = 0; i < chain->nr; i++) {
		const struct resolved_frame *f = &chain->frames[i];
		s64 id;

		/* an inline expansion ends at its first frame of another origin */
		if (f->origin == FRAME_ORIGIN_INLINE)
			continue;
		if (f->origin == FRAME_ORIGIN_COOKIE) {
			start = i + 1;	/* a deferred cookie nothing was stitched to: no address */
			continue;
		}
		id = pprof__location(p, &chain->frames[start], i + 1 - start, pid);
		if (id < 0)
			return -ENOMEM;
		p->scratch[n++] = (u64)id;
		start = i + 1;
	}
	return (ssize_t)n;
}

static struct pp_chain *pprof__chain(struct pprof *p, u64 id)
{
	struct hashmap_node *pos;

	hashmap__for_each_hash(&p->chains.map, pos, (size_t)hash__u64(id)) {
		struct pp_chain *c = container_of(pos, struct pp_chain, node);

		if (c->id == id)
			return c;
	}
	return NULL;
}

static int pprof__remember_chain(struct pprof *p, u64 id, const uint64_t *locs, size_t nr)
{
	struct pp_chain *c = malloc(sizeof(*c) + nr * sizeof(*locs));

	if (!c)
		return -ENOMEM;
	c->id = id;
	c->nr = nr;
	memcpy(c->locs, locs, nr * sizeof(*locs));
	if (table__push(&p->chains, c)) {
		free(c);
		return -ENOMEM;
	}
	if (hashmap__add(&p->chains.map, &c->node, (size_t)hash__u64(id))) {
		p->chains.nr--;
		free(c);
		return -ENOMEM;
	}
	return 0;
}

static s64 pprof__event(struct pprof *p, struct perf_evattr *ea)
{
	size_t i;

	for (i = 0; i < p->nr_events && p->events[i] != ea; i++)
		;
	if (i == p->nr_events && i < ARRAY_SIZE(p->events)) {
		p->events[p->nr_events++] = ea;
		/* cpu-clock and task-clock count nanoseconds */
		if (ea->attr.type != PERF_TYPE_SOFTWARE || ea->attr.config > 1)
			p->only_clocks = false;
	}
	return pprof__str(p, perf_evattr__name(ea));
}

int pprof__add_sample(struct pprof *p, struct thread *thread, const struct perf_sample *sample,
		      struct perf_evattr *ea)
{
	struct resolved_chain chain = { .nr = 0 };
	const struct pp_chain *known = NULL;
	const char *comm = thread ? thread__comm_str(thread, sample->time) : NULL;
	struct hashmap_node *pos;
	struct pp_sample *s;
	const uint64_t *locs;
	ssize_t nr;
	s64 comm_idx, event;
	size_t h;
	int ret;

	if (ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
		ret = frame_resolver__chain(p->resolver, thread, sample, &chain);
		if (ret)
			return ret;
		if (chain.id)
			known = pprof__chain(p, chain.id);
	} else {
		/* no callchain: the sample's ip alone */
		chain.frames = frame_resolver__addr(p->resolver, thread, (u8)sample->cpumode,
						    sample->ip);
		chain.nr = chain.frames ? 1 : 0;
	}
	if (known) {
		locs = known->locs;
		nr = (ssize_t)known->nr;
	} else {
		nr = pprof__chain_locations(p, &chain, (s32)sample->pid);
		if (nr < 0)
			return -ENOMEM;
		locs = p->scratch;
		if (chain.id && pprof__remember_chain(p, chain.id, locs, (size_t)nr))
			return -ENOMEM;
	}
	if (!comm)
		comm = "[unknown]";
	/* a thread's comm string stays where it is while the thread has that comm */
	if (comm != p->last_comm ||
	    strcmp(comm, ((struct pp_str *)p->strings.v[p->last_comm_idx])->s)) {
		p->last_comm_idx = pprof__str(p, comm);
		p->last_comm = p->last_comm_idx < 0 ? NULL : comm;
	}
	comm_idx = p->last_comm_idx;
	if (ea != p->last_ea) {
		p->last_event_idx = pprof__event(p, ea);
		p->last_ea = p->last_event_idx < 0 ? NULL : ea;
	}
	event = p->last_event_idx;
	if (comm_idx < 0 || event < 0)
		return -ENOMEM;
	/* the process's leaf mapping, for the main binary */
	if (nr > 0) {
		const struct pp_location *leaf = p->locations.v[locs[0] - 1];

		if (leaf->mapping)
			leaf->mapping->samples++;
	}
	/* a word a step: FNV over the bytes cost a quarter of the export's time */
	h = (size_t)hash__u64x2(((u64)(u32)sample->pid << 32) | (u32)sample->tid,
				((u64)comm_idx << 32) | (u64)event);
	for (ssize_t i = 0; i < nr; i++)
		h = (size_t)hash__step(h, locs[i]);
	h = (size_t)hash__fold(h);
	hashmap__for_each_hash(&p->samples.map, pos, h) {
		s = container_of(pos, struct pp_sample, node);
		if (s->pid == (s32)sample->pid && s->tid == (s32)sample->tid &&
		    s->comm == comm_idx && s->event == event && s->nr == (size_t)nr &&
		    !memcmp(s->locs, locs, (size_t)nr * sizeof(*locs)))
			goto count;
	}
	s = calloc(1, sizeof(*s) + (size_t)nr * sizeof(*locs));
	if (!s)
		return -ENOMEM;
	s->pid = (s32)sample->pid;
	s->tid = (s32)sample->tid;
	s->comm = comm_idx;
	s->event = event;
	s->nr = (size_t)nr;
	memcpy(s->locs, locs, (size_t)nr * sizeof(*locs));
	if (table__push(&p->samples, s)) {
		free(s);
		return -ENOMEM;
	}
	if (hashmap__add(&p->samples.map, &s->node, h)) {
		p->samples.nr--;
		free(s);
		return -ENOMEM;
	}
count:
	s->count++;
	s->period += (s64)sample->period;
	if (!p->nr_samples || sample->time < p->first_time)
		p->first_time = sample->time;
	if (sample->time > p->last_time)
		p->last_time = sample->time;
	p->nr_samples++;
	return 0;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* protobuf-c's output, gzip-compressed on its way out */
struct gz_buffer {
	ProtobufCBuffer	base;
	gzFile		gz;
	bool		failed;
};

static void gz_buffer__append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_buffer *g = container_of(b, struct gz_buffer, base);

	while (len && !g->failed) {
		unsigned int n = len > (1u << 30) ? 1u << 30 : (unsigned int)len;

		if (gzwrite(g->gz, data, n) != (int)n)
			g->failed = true;
		data += n;
		len -= n;
	}
}

/*
 * mapping[0] is the main binary: of the mappings hit by the samples' leaves, the one with
 * the most; the others keep the order they were met in
 */
static void pprof__order_mappings(struct pprof *p)
{
	size_t best = 0;

	for (size_t i = 1; i < p->mappings.nr; i++)
		if (((struct pp_mapping *)p->mappings.v[i])->samples >
		    ((struct pp_mapping *)p->mappings.v[best])->samples)
			best = i;
	if (best) {
		void *main_binary = p->mappings.v[best];

		memmove(&p->mappings.v[1], &p->mappings.v[0], best * sizeof(void *));
		p->mappings.v[0] = main_binary;
	}
	for (size_t i = 0; i < p->mappings.nr; i++)
		((struct pp_mapping *)p->mappings.v[i])->id = i + 1;
}

/* the message's arrays, allocated together and freed after packing */
struct pp_message {
	Perftools__Profiles__Profile	profile;
	Perftools__Profiles__ValueType	types[2], period_type;
	Perftools__Profiles__ValueType	*type_ptrs[2];
	Perftools__Profiles__Sample	*samples;
	Perftools__Profiles__Sample	**sample_ptrs;
	Perftools__Profiles__Label	*labels;
	Perftools__Profiles__Label	**label_ptrs;
	int64_t				*values;
	Perftools__Profiles__Mapping	*mappings;
	Perftools__Profiles__Mapping	**mapping_ptrs;
	Perftools__Profiles__Location	*locations;
	Perftools__Profiles__Location	**location_ptrs;
	Perftools__Profiles__Line	*lines;
	Perftools__Profiles__Line	**line_ptrs;
	Perftools__Profiles__Function	*functions;
	Perftools__Profiles__Function	**function_ptrs;
	char				**strings;
};

static void pp_message__free(struct pp_message *m)
{
	free(m->samples);
	free(m->sample_ptrs);
	free(m->labels);
	free(m->label_ptrs);
	free(m->values);
	free(m->mappings);
	free(m->mapping_ptrs);
	free(m->locations);
	free(m->location_ptrs);
	free(m->lines);
	free(m->line_ptrs);
	free(m->functions);
	free(m->function_ptrs);
	free(m->strings);
}

static int pprof__fill_samples(struct pprof *p, struct pp_message *m)
{
	size_t nr = p->samples.nr, labels = p->nr_events > 1 ? 4 : 3;

	m->samples = calloc(nr ? nr : 1, sizeof(*m->samples));
	m->sample_ptrs = calloc(nr ? nr : 1, sizeof(*m->sample_ptrs));
	m->labels = calloc(nr * labels + 1, sizeof(*m->labels));
	m->label_ptrs = calloc(nr * labels + 1, sizeof(*m->label_ptrs));
	m->values = calloc(nr * 2 + 1, sizeof(*m->values));
	if (!m->samples || !m->sample_ptrs || !m->labels || !m->label_ptrs || !m->values)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const struct pp_sample *s = p->samples.v[i];
		Perftools__Profiles__Sample *ps = &m->samples[i];
		Perftools__Profiles__Label *l = &m->labels[i * labels];

		perftools__profiles__sample__init(ps);
		ps->n_location_id = s->nr;
		ps->location_id = (uint64_t *)s->locs;
		ps->n_value = 2;
		ps->value = &m->values[i * 2];
		ps->value[0] = s->count;
		ps->value[1] = s->period;
		for (size_t j = 0; j < labels; j++) {
			perftools__profiles__label__init(&l[j]);
			m->label_ptrs[i * labels + j] = &l[j];
		}
		l[0].key = p->s_pid;
		l[0].num = s->pid;
		l[1].key = p->s_tid;
		l[1].num = s->tid;
		l[2].key = p->s_comm;
		l[2].str = s->comm;
		if (labels > 3) {
			l[3].key = p->s_event;
			l[3].str = s->event;
		}
		ps->n_label = labels;
		ps->label = &m->label_ptrs[i * labels];
		m->sample_ptrs[i] = ps;
	}
	m->profile.n_sample = nr;
	m->profile.sample = m->sample_ptrs;
	return 0;
}

static int pprof__fill_tables(struct pprof *p, struct pp_message *m)
{
	size_t nr_lines = 0, line = 0;

	m->mappings = calloc(p->mappings.nr + 1, sizeof(*m->mappings));
	m->mapping_ptrs = calloc(p->mappings.nr + 1, sizeof(*m->mapping_ptrs));
	m->locations = calloc(p->locations.nr + 1, sizeof(*m->locations));
	m->location_ptrs = calloc(p->locations.nr + 1, sizeof(*m->location_ptrs));
	m->functions = calloc(p->functions.nr + 1, sizeof(*m->functions));
	m->function_ptrs = calloc(p->functions.nr + 1, sizeof(*m->function_ptrs));
	m->strings = calloc(p->strings.nr + 1, sizeof(*m->strings));
	for (size_t i = 0; i < p->locations.nr; i++)
		nr_lines += ((struct pp_location *)p->locations.v[i])->nr_lines;
	m->lines = calloc(nr_lines + 1, sizeof(*m->lines));
	m->line_ptrs = calloc(nr_lines + 1, sizeof(*m->line_ptrs));
	if (!m->mappings || !m->mapping_ptrs || !m->locations || !m->location_ptrs ||
	    !m->functions || !m->function_ptrs || !m->strings || !m->lines || !m->line_ptrs)
		return -ENOMEM;
	for (size_t i = 0; i < p->mappings.nr; i++) {
		const struct pp_mapping *pm = p->mappings.v[i];
		Perftools__Profiles__Mapping *mm = &m->mappings[i];
		const struct map *map = pm->map;
		bool kernel = map->dso && (map->dso->kind == DSO_KIND_KERNEL ||
					   map->dso->kind == DSO_KIND_KMODULE);

		perftools__profiles__mapping__init(mm);
		mm->id = pm->id;
		mm->memory_start = map->start;
		mm->memory_limit = map->end;
		/* kernel maps are identities (pgoff = start): no file offset */
		mm->file_offset = kernel || map->identity ? 0 : map->pgoff;
		mm->filename = pm->filename;
		mm->build_id = pm->build_id;
		mm->has_functions = pm->has_functions;
		mm->has_filenames = pm->has_filenames;
		mm->has_line_numbers = pm->has_lines;
		mm->has_inline_frames = pm->has_inline;
		m->mapping_ptrs[i] = mm;
	}
	for (size_t i = 0; i < p->locations.nr; i++) {
		const struct pp_location *pl = p->locations.v[i];
		Perftools__Profiles__Location *ml = &m->locations[i];

		perftools__profiles__location__init(ml);
		ml->id = pl->id;
		ml->mapping_id = pl->mapping ? pl->mapping->id : 0;
		ml->address = pl->addr;
		ml->n_line = pl->nr_lines;
		ml->line = &m->line_ptrs[line];
		for (size_t j = 0; j < pl->nr_lines; j++, line++) {
			perftools__profiles__line__init(&m->lines[line]);
			m->lines[line].function_id = pl->lines[j].function;
			m->lines[line].line = pl->lines[j].line;
			m->line_ptrs[line] = &m->lines[line];
		}
		m->location_ptrs[i] = ml;
	}
	for (size_t i = 0; i < p->functions.nr; i++) {
		const struct pp_function *pf = p->functions.v[i];
		Perftools__Profiles__Function *mf = &m->functions[i];

		perftools__profiles__function__init(mf);
		mf->id = pf->id;
		mf->name = pf->name;
		mf->system_name = pf->name;
		mf->filename = pf->filename;
		m->function_ptrs[i] = mf;
	}
	for (size_t i = 0; i < p->strings.nr; i++)
		m->strings[i] = ((struct pp_str *)p->strings.v[i])->s;
	m->profile.n_mapping = p->mappings.nr;
	m->profile.mapping = m->mapping_ptrs;
	m->profile.n_location = p->locations.nr;
	m->profile.location = m->location_ptrs;
	m->profile.n_function = p->functions.nr;
	m->profile.function = m->function_ptrs;
	m->profile.n_string_table = p->strings.nr;
	m->profile.string_table = m->strings;
	return 0;
}

int pprof__write(struct pprof *p, int fd, struct perf_err *err)
{
	struct pp_message m = { 0 };
	struct gz_buffer g = { .base = { .append = gz_buffer__append } };
	s64 s_samples = pprof__str(p, "samples"), s_count = pprof__str(p, "count");
	s64 s_period = pprof__str(p, p->only_clocks ? "cpu" : "events");
	s64 s_unit = pprof__str(p, p->only_clocks ? "nanoseconds" : "count");
	int ret = -ENOMEM, dupfd;

	/* the strings for the sample types come before the table is handed out */
	if (s_samples < 0 || s_count < 0 || s_period < 0 || s_unit < 0)
		goto out;
	pprof__order_mappings(p);
	perftools__profiles__profile__init(&m.profile);
	for (int i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&m.types[i]);
		m.type_ptrs[i] = &m.types[i];
	}
	m.types[0].type = s_samples;
	m.types[0].unit = s_count;
	m.types[1].type = s_period;
	m.types[1].unit = s_unit;
	m.profile.n_sample_type = 2;
	m.profile.sample_type = m.type_ptrs;
	perftools__profiles__value_type__init(&m.period_type);
	m.period_type.type = s_period;
	m.period_type.unit = s_unit;
	m.profile.period_type = &m.period_type;
	m.profile.duration_nanos = (int64_t)(p->last_time - p->first_time);
	if (pprof__fill_samples(p, &m) || pprof__fill_tables(p, &m))
		goto out;
	dupfd = dup(fd);
	g.gz = dupfd < 0 ? NULL : gzdopen(dupfd, "wb");
	if (!g.gz) {
		if (dupfd >= 0)
			close(dupfd);
		ret = perf_err__set(err, errno ? errno : ENOMEM, "cannot start the gzip stream: %m");
		goto out_free;
	}
	perftools__profiles__profile__pack_to_buffer(&m.profile, &g.base);
	/* gzclose flushes what is left: its failure is a write failure too */
	if (gzclose(g.gz) != Z_OK || g.failed) {
		ret = perf_err__set(err, EIO, "cannot write the profile: %m");
		goto out_free;
	}
	ret = 0;
out_free:
	pp_message__free(&m);
	return ret;
out:
	pp_message__free(&m);
	return perf_err__set(err, ENOMEM, "out of memory");
}
