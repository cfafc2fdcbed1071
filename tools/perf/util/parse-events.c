// SPDX-License-Identifier: GPL-2.0
/* perf record -e: event names, groups and modifiers into attrs. See parse-events.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <perf/kernel.h>
#include "parse-events.h"
#include "pmu-terms.h"

#define EVENT_HINT	"(Run 'perf list' for a list of valid events)"
/* every modifier letter once (p up to three times): perf's limit on a modifier's length */
#define MODIFIER_LETTERS	"ukhGHpppPSDIWe"

struct event_name {
	const char	*name;
	u32		type;
	u64		config;
};

/* the generic events' ABI numbers (PERF_COUNT_HW_*, PERF_COUNT_SW_*), aliases included */
static const struct event_name event_names[] = {
	{ "cycles",			PERF_TYPE_HARDWARE, 0 },
	{ "cpu-cycles",			PERF_TYPE_HARDWARE, 0 },
	{ "instructions",		PERF_TYPE_HARDWARE, 1 },
	{ "cache-references",		PERF_TYPE_HARDWARE, 2 },
	{ "cache-misses",		PERF_TYPE_HARDWARE, 3 },
	{ "branches",			PERF_TYPE_HARDWARE, 4 },
	{ "branch-instructions",	PERF_TYPE_HARDWARE, 4 },
	{ "branch-misses",		PERF_TYPE_HARDWARE, 5 },
	{ "bus-cycles",			PERF_TYPE_HARDWARE, 6 },
	{ "stalled-cycles-frontend",	PERF_TYPE_HARDWARE, 7 },
	{ "idle-cycles-frontend",	PERF_TYPE_HARDWARE, 7 },
	{ "stalled-cycles-backend",	PERF_TYPE_HARDWARE, 8 },
	{ "idle-cycles-backend",	PERF_TYPE_HARDWARE, 8 },
	{ "ref-cycles",			PERF_TYPE_HARDWARE, 9 },
	{ "cpu-clock",			PERF_TYPE_SOFTWARE, 0 },
	{ "task-clock",			PERF_TYPE_SOFTWARE, 1 },
	{ "page-faults",		PERF_TYPE_SOFTWARE, 2 },
	{ "faults",			PERF_TYPE_SOFTWARE, 2 },
	{ "context-switches",		PERF_TYPE_SOFTWARE, 3 },
	{ "cs",				PERF_TYPE_SOFTWARE, 3 },
	{ "cpu-migrations",		PERF_TYPE_SOFTWARE, 4 },
	{ "migrations",			PERF_TYPE_SOFTWARE, 4 },
	{ "minor-faults",		PERF_TYPE_SOFTWARE, 5 },
	{ "major-faults",		PERF_TYPE_SOFTWARE, 6 },
	{ "alignment-faults",		PERF_TYPE_SOFTWARE, 7 },
	{ "emulation-faults",		PERF_TYPE_SOFTWARE, 8 },
	{ "dummy",			PERF_TYPE_SOFTWARE, 9 },
	{ "bpf-output",			PERF_TYPE_SOFTWARE, 10 },
	{ "cgroup-switches",		PERF_TYPE_SOFTWARE, 11 },
};

/*
 * The hardware cache events: CACHE[-OP][-RESULT] (or CACHE-RESULT), with perf's aliases, in
 * PERF_COUNT_HW_CACHE_* order. An op a cache has not (L1-icache-stores) is perf's error too.
 */
static const char *const cache_names[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const cache_ops[][4] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[][4] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

/* which ops (bit per op) each cache counts */
static const u8 cache_valid_ops[] = { 7, 5, 7, 7, 1, 1, 7 };

struct modifiers {
	bool	eu, ek, eh, eH, eG, eI;
	bool	exclude_GH, sample_read, precise_max, weak, pinned, exclusive;
	int	precise;
};

static const struct event_name *event_name__find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_names); i++)
		if (strlen(event_names[i].name) == len && !strncmp(event_names[i].name, name, len))
			return &event_names[i];
	return NULL;
}

/* the alias of table (rows of up to cols names) that s starts with, longest first */
static int alias__match(const char *s, size_t len, const char *const *table, size_t rows,
			size_t cols, size_t *used)
{
	int best = -1;

	*used = 0;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols && table[r * cols + c]; c++) {
			size_t n = strlen(table[r * cols + c]);

			if (n <= len && n > *used && !strncasecmp(s, table[r * cols + c], n) &&
			    (n == len || s[n] == '-')) {
				best = (int)r;
				*used = n;
			}
		}
	return best;
}

/* a hardware cache event name (no modifiers) into its config, -ENOENT when it is none */
static int cache_event__parse(const char *name, size_t len, u64 *config)
{
	size_t used;
	int cache, op = -1, result = -1;

	cache = alias__match(name, len, &cache_names[0][0], ARRAY_SIZE(cache_names),
			     ARRAY_SIZE(cache_names[0]), &used);
	if (cache < 0)
		return -ENOENT;
	name += used;
	len -= used;
	for (int part = 0; part < 2 && len; part++) {
		int o = -1, r = -1;

		if (*name != '-')
			return -ENOENT;
		name++;
		len--;
		if (op < 0)
			o = alias__match(name, len, &cache_ops[0][0], ARRAY_SIZE(cache_ops),
					 ARRAY_SIZE(cache_ops[0]), &used);
		if (o < 0 && result < 0)
			r = alias__match(name, len, &cache_results[0][0], ARRAY_SIZE(cache_results),
					 ARRAY_SIZE(cache_results[0]), &used);
		if (o < 0 && r < 0)
			return -ENOENT;
		if (o >= 0)
			op = o;
		else
			result = r;
		name += used;
		len -= used;
	}
	if (len)
		return -ENOENT;
	if (op < 0)
		op = 0;		/* read */
	if (result < 0)
		result = 0;	/* access */
	if (!(cache_valid_ops[cache] & (1 << op)))
		return -EINVAL;
	*config = (u64)cache | (u64)op << 8 | (u64)result << 16;
	return 0;
}

/* rNNNN: up to 16 hex digits, perf's raw event */
static int raw_event__parse(const char *name, size_t len, u64 *config)
{
	if (len < 2 || len > 17 || name[0] != 'r')
		return -ENOENT;
	for (size_t i = 1; i < len; i++)
		if (!isxdigit((unsigned char)name[i]))
			return -ENOENT;
	*config = strtoull(name + 1, NULL, 16);
	return 0;
}

static void modifiers__load(struct modifiers *m, const struct parsed_event *ev)
{
	const struct perf_event_attr *a = &ev->attr;

	memset(m, 0, sizeof(*m));
	m->eu = perf_attr__has(a, PERF_ATTR_BIT_EXCLUDE_USER);
	m->ek = perf_attr__has(a, PERF_ATTR_BIT_EXCLUDE_KERNEL);
	m->eh = perf_attr__has(a, PERF_ATTR_BIT_EXCLUDE_HV);
	m->eH = perf_attr__has(a, PERF_ATTR_BIT_EXCLUDE_HOST);
	m->eG = perf_attr__has(a, PERF_ATTR_BIT_EXCLUDE_GUEST);
	m->eI = perf_attr__has(a, PERF_ATTR_BIT_EXCLUDE_IDLE);
	m->pinned = perf_attr__has(a, PERF_ATTR_BIT_PINNED);
	m->exclusive = perf_attr__has(a, PERF_ATTR_BIT_EXCLUSIVE);
	m->precise = (int)((a->flags >> PERF_ATTR_BIT_PRECISE_IP) & 3);
	m->exclude_GH = ev->exclude_GH;
}

/*
 * perf's modifier rules: the first of u/k/h excludes every level and each then lets its own
 * in; likewise the first of G/H for guest and host. u and p also exclude the guest unless G
 * or H said otherwise (precise sampling of a guest needs it). Each letter at most once, p up
 * to three times.
 */
static int modifiers__parse(struct modifiers *m, const char *s)
{
	bool exclude = m->eu || m->ek || m->eh;

	if (strlen(s) > strlen(MODIFIER_LETTERS))
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (*p != 'p' && strchr(p + 1, *p))
			return -EINVAL;
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case 'u': case 'k': case 'h':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			if (*p == 'u') {
				m->eu = false;
				if (!m->exclude_GH)
					m->eG = true;
			}
			if (*p == 'k')
				m->ek = false;
			if (*p == 'h')
				m->eh = false;
			break;
		case 'G': case 'H':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = true;
			if (*p == 'G')
				m->eG = false;
			else
				m->eH = false;
			break;
		case 'I': m->eI = true; break;
		case 'p':
			m->precise++;
			if (!m->exclude_GH)
				m->eG = true;
			break;
		case 'P': m->precise_max = true; break;
		case 'S': m->sample_read = true; break;
		case 'D': m->pinned = true; break;
		case 'e': m->exclusive = true; break;
		case 'W': m->weak = true; break;
		default:
			return -EINVAL;
		}
	}
	return m->precise > 3 ? -EINVAL : 0;
}

static void attr__set_flag(struct perf_event_attr *a, int bit, bool on)
{
	if (on)
		a->flags |= 1ULL << bit;
	else
		a->flags &= ~(1ULL << bit);
}

/* pinned and exclusive only on a leader, as perf: the kernel takes them from no member */
static void modifiers__store(const struct modifiers *m, struct parsed_event *ev, bool leader)
{
	struct perf_event_attr *a = &ev->attr;

	attr__set_flag(a, PERF_ATTR_BIT_EXCLUDE_USER, m->eu);
	attr__set_flag(a, PERF_ATTR_BIT_EXCLUDE_KERNEL, m->ek);
	attr__set_flag(a, PERF_ATTR_BIT_EXCLUDE_HV, m->eh);
	attr__set_flag(a, PERF_ATTR_BIT_EXCLUDE_HOST, m->eH);
	attr__set_flag(a, PERF_ATTR_BIT_EXCLUDE_GUEST, m->eG);
	attr__set_flag(a, PERF_ATTR_BIT_EXCLUDE_IDLE, m->eI);
	a->flags &= ~(3ULL << PERF_ATTR_BIT_PRECISE_IP);
	a->flags |= (u64)m->precise << PERF_ATTR_BIT_PRECISE_IP;
	if (m->precise_max)
		a->flags |= 3ULL << PERF_ATTR_BIT_PRECISE_IP;	/* lowered on refusal */
	if (leader) {
		attr__set_flag(a, PERF_ATTR_BIT_PINNED, m->pinned);
		attr__set_flag(a, PERF_ATTR_BIT_EXCLUSIVE, m->exclusive);
	}
	ev->exclude_GH = m->exclude_GH;
	ev->sample_read = m->sample_read;
	ev->precise_max = m->precise_max;
	ev->weak_group = m->weak;
}

static int bad_modifier(const char *item, const char *mod, struct perf_err *err)
{
	return perf_err__set(err, EINVAL, "event syntax error: '%s': Bad modifier '%s' " EVENT_HINT,
			     item, mod);
}

static void parsed_event__free(struct parsed_event *ev)
{
	free(ev->name);
	free(ev->tp_sys);
	free(ev->tp_name);
	free(ev->filter);
}

static int parsed_events__push(struct parsed_events *evs, struct parsed_event *ev,
			       struct perf_err *err)
{
	struct parsed_event *n = realloc(evs->ev, (evs->nr + 1) * sizeof(*n));

	if (!n) {
		parsed_event__free(ev);
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	ev->leader = (int)evs->nr;
	ev->nr_members = 1;
	evs->ev = n;
	evs->ev[evs->nr++] = *ev;
	return 0;
}

/* pmu/terms/[modifiers]: item has its closing slash at close */
static int parse_pmu_event(struct parsed_event *ev, const char *item, const char *slash,
			   const char **mods, struct perf_err *err)
{
	const char *close = strchr(slash + 1, '/');
	struct pmu_event pe = { .attr = &ev->attr };
	char *pmu, *terms;
	int ret;

	if (!close)
		return perf_err__set(err, EINVAL,
				     "event syntax error: '%s': no closing '/' after the PMU's terms " EVENT_HINT,
				     item);
	pmu = strndup(item, (size_t)(slash - item));
	terms = strndup(slash + 1, (size_t)(close - slash - 1));
	if (!pmu || !terms) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	ret = pmu_terms__parse(PMU_SYSFS_DEVICES, pmu, terms, &pe, err);
	if (ret) {
		free(pe.name);
		goto out_free;
	}
	ev->name = pe.name;
	ev->period = pe.period;
	ev->has_period = pe.has_period;
	ev->has_freq = pe.has_freq;
	*mods = close[1] == ':' ? close + 2 : close + 1;
out_free:
	free(pmu);
	free(terms);
	return ret;
}

/* one event of the list (no commas, no braces) */
static int parse_one(struct parsed_events *evs, const char *item, tracepoint_id_fn tp_id,
		     void *tp_ctx, struct perf_err *err)
{
	struct parsed_event ev = { .attr = { .size = sizeof(struct perf_event_attr) } };
	const char *colon = strchr(item, ':'), *slash = strchr(item, '/');
	const char *mods = NULL;
	size_t len = colon ? (size_t)(colon - item) : strlen(item);
	const struct event_name *en = event_name__find(item, len);
	struct modifiers m;
	int ret;

	/* perf's event_attr_init: no guest samples unless a modifier says otherwise */
	ev.attr.flags = PERF_ATTR_FLAG(EXCLUDE_GUEST);
	if (slash && (!colon || slash < colon)) {
		ret = parse_pmu_event(&ev, item, slash, &mods, err);
		if (ret)
			return ret;
	} else if (en) {
		ev.attr.type = en->type;
		ev.attr.config = en->config;
	} else if (!raw_event__parse(item, len, &ev.attr.config)) {
		ev.attr.type = PERF_TYPE_RAW;
	} else if ((ret = cache_event__parse(item, len, &ev.attr.config)) != -ENOENT) {
		if (ret)
			return perf_err__set(err, EINVAL,
					     "event syntax error: '%.*s': that cache has no such operation " EVENT_HINT,
					     (int)len, item);
		ev.attr.type = PERF_TYPE_HW_CACHE;
	} else {
		goto tracepoint;
	}
	if (!mods)
		mods = colon ? colon + 1 : "";
	/* a ':' with nothing after it */
	if (!*mods && mods > item && mods[-1] == ':') {
		free(ev.name);
		return bad_modifier(item, mods, err);
	}
	if (*mods) {
		memset(&m, 0, sizeof(m));	/* a modifier of one event starts from nothing */
		if (modifiers__parse(&m, mods)) {
			free(ev.name);
			return bad_modifier(item, mods, err);
		}
		modifiers__store(&m, &ev, true);
	}
	if (!ev.name)
		ev.name = strdup(item);
	if (!ev.name)
		return perf_err__set(err, ENOMEM, "out of memory");
	return parsed_events__push(evs, &ev, err);

tracepoint:
	/* sys:name[:modifiers]; perf names the event without its modifiers */
	mods = colon ? strchr(colon + 1, ':') : NULL;
	if (!colon || !len || !colon[1] || colon[1] == ':' || slash ||
	    (mods && (!mods[1] || strchr(mods + 1, ':'))))
		return perf_err__set(err, ENOENT,
				     "event syntax error: unknown event '%s' " EVENT_HINT, item);
	if (!tp_id)
		return perf_err__set(err, ENOENT, "tracepoint '%s': tracepoints are not supported here",
				     item);
	if (mods && *++mods) {
		memset(&m, 0, sizeof(m));
		if (modifiers__parse(&m, mods))
			return bad_modifier(item, mods, err);
		modifiers__store(&m, &ev, true);
	}
	ev.tp_sys = strndup(item, len);
	ev.tp_name = mods ? strndup(colon + 1, (size_t)(mods - colon - 2)) : strdup(colon + 1);
	ev.name = mods ? strndup(item, (size_t)(mods - item - 1)) : strdup(item);
	if (!ev.tp_sys || !ev.tp_name || !ev.name) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	ev.attr.type = PERF_TYPE_TRACEPOINT;
	ret = tp_id(tp_ctx, ev.name, &ev.attr.config, err);
	if (ret)
		goto out_free;
	return parsed_events__push(evs, &ev, err);

out_free:
	parsed_event__free(&ev);
	return ret;
}

/* the end of the item at p: the next ',', '{' or '}' outside a pmu's /terms/ */
static const char *item__end(const char *p)
{
	bool in_terms = false;

	for (; *p; p++) {
		if (*p == '/')
			in_terms = !in_terms;
		else if (!in_terms && (*p == ',' || *p == '{' || *p == '}'))
			break;
	}
	return p;
}

static int parse_item(struct parsed_events *evs, const char *p, const char *end,
		      tracepoint_id_fn tp_id, void *tp_ctx, struct perf_err *err)
{
	char *item = strndup(p, (size_t)(end - p));
	int ret;

	if (!item)
		return perf_err__set(err, ENOMEM, "out of memory");
	ret = parse_one(evs, item, tp_id, tp_ctx, err);
	free(item);
	return ret;
}

/* {a,b,...}[:mods] at p (on the '{'); *next is where the list goes on */
static int parse_group(struct parsed_events *evs, const char *spec, const char *p,
		       const char **next, tracepoint_id_fn tp_id, void *tp_ctx, struct perf_err *err)
{
	size_t first = evs->nr;
	const char *end;
	int ret;

	for (p++;;) {
		end = item__end(p);
		if (end == p || *end == '{' || !*end)
			return perf_err__set(err, EINVAL,
					     "event syntax error: '%s': %s " EVENT_HINT, spec,
					     *end == '{' ? "groups do not nest" :
					     !*end ? "a group without its closing '}'" : "an empty event in a group");
		ret = parse_item(evs, p, end, tp_id, tp_ctx, err);
		if (ret)
			return ret;
		p = end + 1;
		if (*end == '}')
			break;
	}
	for (size_t i = first; i < evs->nr; i++) {
		evs->ev[i].leader = (int)first;
		evs->ev[i].nr_members = i == first ? (int)(evs->nr - first) : 0;
	}
	if (*p == ':') {
		char *mods;

		end = item__end(p);
		mods = strndup(p + 1, (size_t)(end - p - 1));
		if (!mods)
			return perf_err__set(err, ENOMEM, "out of memory");
		if (!*mods)
			ret = bad_modifier(spec, mods, err);
		/* a group's modifiers go on top of what each member has */
		for (size_t i = first; i < evs->nr && !ret; i++) {
			struct modifiers m;

			modifiers__load(&m, &evs->ev[i]);
			if (modifiers__parse(&m, mods))
				ret = bad_modifier(spec, mods, err);
			else
				modifiers__store(&m, &evs->ev[i], i == first);
		}
		free(mods);
		p = end;
	}
	*next = p;
	return ret;
}

int parse_events__add(struct parsed_events *evs, const char *spec, tracepoint_id_fn tp_id,
		      void *tp_ctx, struct perf_err *err)
{
	size_t first = evs->nr;
	const char *p = spec;
	int ret = 0;

	if (!*spec)
		return perf_err__set(err, EINVAL, "event syntax error: empty event list");
	while (!ret) {
		const char *end = p;

		if (*p == '{') {
			ret = parse_group(evs, spec, p, &end, tp_id, tp_ctx, err);
		} else {
			end = item__end(p);
			if (end == p || *end == '{' || *end == '}')
				ret = perf_err__set(err, EINVAL,
						    "event syntax error: '%s': %s " EVENT_HINT, spec,
						    *end == '}' ? "a '}' without its group" :
						    end == p ? "an empty event" : "a '{' inside an event");
			else
				ret = parse_item(evs, p, end, tp_id, tp_ctx, err);
		}
		if (ret)
			break;
		if (!*end)
			break;
		if (*end != ',')
			ret = perf_err__set(err, EINVAL,
					    "event syntax error: '%s': '%s' after a group " EVENT_HINT,
					    spec, end);
		else if (!end[1])
			ret = perf_err__set(err, EINVAL,
					    "event syntax error: '%s': an empty event " EVENT_HINT, spec);
		p = end + 1;
	}
	if (ret) {
		/* a failed -e adds nothing */
		for (size_t i = first; i < evs->nr; i++)
			parsed_event__free(&evs->ev[i]);
		evs->nr = first;
		return ret;
	}
	evs->last_first = first;
	return 0;
}

int parse_events__add_default(struct parsed_events *evs, struct perf_err *err)
{
	int ret = parse_events__add(evs, "cycles:P", NULL, NULL, err);

	if (!ret)
		evs->ev[evs->nr - 1].is_default = true;
	return ret;
}

static int filter__append(struct parsed_events *evs, const char *filter, const char *option,
			  struct perf_err *err)
{
	if (!evs->nr)
		return perf_err__set(err, EINVAL, "%s option should follow a -e tracepoint option",
				     option);
	for (size_t i = evs->last_first; i < evs->nr; i++)
		if (!evs->ev[i].tp_sys)
			return perf_err__set(err, EINVAL,
					     "%s option should follow a -e tracepoint option: '%s' is not a tracepoint (address filters of hardware tracers are not supported)",
					     option, evs->ev[i].name);
	for (size_t i = evs->last_first; i < evs->nr; i++) {
		struct parsed_event *ev = &evs->ev[i];
		char *f;

		if (ev->filter && asprintf(&f, "(%s) && (%s)", ev->filter, filter) < 0)
			return perf_err__set(err, ENOMEM, "out of memory");
		if (!ev->filter && !(f = strdup(filter)))
			return perf_err__set(err, ENOMEM, "out of memory");
		free(ev->filter);
		ev->filter = f;
	}
	return 0;
}

int parse_events__add_filter(struct parsed_events *evs, const char *filter, struct perf_err *err)
{
	return filter__append(evs, filter, "--filter", err);
}

int parse_events__exclude_perf(struct parsed_events *evs, pid_t pid, struct perf_err *err)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "common_pid != %d", (int)pid);
	return filter__append(evs, filter, "--exclude-perf", err);
}

void parse_events__modifier_name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	bool guest_default = false;
	int precise = (int)((attr->flags >> PERF_ATTR_BIT_PRECISE_IP) & 3);
	char mod[16];
	size_t n = 0;

	if (perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_KERNEL) ||
	    perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_USER) ||
	    perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_HV)) {
		if (!perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_KERNEL))
			mod[n++] = 'k';
		if (!perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_USER))
			mod[n++] = 'u';
		if (!perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_HV))
			mod[n++] = 'h';
		guest_default = true;
	}
	for (int i = 0; i < precise; i++)
		mod[n++] = 'p';
	if (precise)
		guest_default = true;
	/* perf names what differs from the guest exclusion it would have chosen */
	if (perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_HOST) ||
	    perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_GUEST) == guest_default) {
		if (!perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_HOST))
			mod[n++] = 'H';
		if (!perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_GUEST))
			mod[n++] = 'G';
	}
	mod[n] = '\0';
	snprintf(buf, size, "%s%s", n ? ":" : "", mod);
}

bool parse_events__fallback(struct parsed_event *ev, int errnum, char *msg, size_t msg_size)
{
	char mod[16], *name;

	/* no CPU PMU: the kernel finds none for the type (ENOENT), or no such device */
	if (ev->attr.type != PERF_TYPE_HARDWARE || ev->attr.config != 0 ||
	    (errnum != ENOENT && errnum != ENODEV && errnum != ENXIO && errnum != EOPNOTSUPP))
		return false;
	parse_events__modifier_name(&ev->attr, mod, sizeof(mod));
	if (asprintf(&name, "cpu-clock%s", mod) < 0)
		return false;
	snprintf(msg, msg_size, "The %s event is not supported, trying to fall back to cpu-clock-ticks",
		 ev->name);
	free(ev->name);
	ev->name = name;
	ev->attr.type = PERF_TYPE_SOFTWARE;
	ev->attr.config = 0;
	/* cpu-clock gets its own tries of :P */
	ev->precise_max = ev->precise_max || ev->precise_rearm;
	ev->precise_rearm = false;
	return true;
}

bool parse_events__open_strerror(const struct parsed_events *evs, size_t idx, int errnum,
				 bool cpu_wide, char *msg, size_t msg_size)
{
	const struct parsed_event *ev = &evs->ev[idx];
	const struct perf_event_attr *a = &ev->attr;
	bool member = ev->leader != (int)idx;

	if (errnum == ENOENT && a->type != PERF_TYPE_TRACEPOINT) {
		snprintf(msg, msg_size, "The %s event is not supported.", ev->name);
		return true;
	}
	if (errnum == EOPNOTSUPP && ((a->flags >> PERF_ATTR_BIT_PRECISE_IP) & 3)) {
		snprintf(msg, msg_size,
			 "'precise' request may not be supported. Try removing 'p' modifier.");
		return true;
	}
	if (errnum == EINVAL && member &&
	    (perf_attr__has(a, PERF_ATTR_BIT_PINNED) || perf_attr__has(a, PERF_ATTR_BIT_EXCLUSIVE))) {
		snprintf(msg, msg_size,
			 "The %s event cannot be opened in its group: only a group leader can be pinned (:D) or exclusive (:e) (a weak group, :W, opens it alone instead)",
			 ev->name);
		return true;
	}
	/* an uncore-like PMU (msr, ...): per CPU only */
	if (errnum == EINVAL && !cpu_wide && a->type >= PERF_TYPE_MAX) {
		snprintf(msg, msg_size,
			 "Invalid event (%s) in per-thread mode, enable system wide with '-a'.",
			 ev->name);
		return true;
	}
	return false;
}

void parse_events__ungroup(struct parsed_events *evs, size_t idx)
{
	int leader = evs->ev[idx].leader;

	for (size_t i = (size_t)leader; i < evs->nr && evs->ev[i].leader == leader; i++) {
		evs->ev[i].leader = (int)i;
		evs->ev[i].nr_members = 1;
	}
}

void parsed_events__exit(struct parsed_events *evs)
{
	for (size_t i = 0; i < evs->nr; i++)
		parsed_event__free(&evs->ev[i]);
	free(evs->ev);
	evs->ev = NULL;
	evs->nr = 0;
}
