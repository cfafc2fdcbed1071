// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - perf report's histogram: aggregation by sort keys, children accumulation, output
 * order, column widths and the stdio table.
 *
 * Comparisons follow upstream's sort functions one for one, including their argument order
 * (most compare right against left) and where a missing dso or symbol sorts: the entry
 * order, and the order of ties, is part of the byte-exact output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "dso.h"
#include "hist.h"
#include "machine.h"
#include "symbol.h"
#include "thread.h"

/* ---- interned strings ---- */

struct strset_entry {
	struct strset_entry	*next;
	u64			hash;
	char			str[];
};

struct strset {
	struct strset_entry	**buckets;
	size_t			nr_buckets, nr;
};

static u64 hash_bytes(u64 h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return h;
}

static u64 hash_str(u64 h, const char *s)
{
	return s ? hash_bytes(h, s, strlen(s) + 1) : h * 0x9e3779b97f4a7c15ULL;
}

static u64 hash_u64(u64 h, u64 v)
{
	return hash_bytes(h, &v, sizeof(v));
}

static struct strset *strset__new(void)
{
	struct strset *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	set->nr_buckets = 64;
	set->buckets = calloc(set->nr_buckets, sizeof(*set->buckets));
	if (!set->buckets) {
		free(set);
		return NULL;
	}
	return set;
}

static void strset__delete(struct strset *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->nr_buckets; i++) {
		struct strset_entry *e = set->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e);
		}
	}
	free(set->buckets);
	free(set);
}

static void strset__grow(struct strset *set)
{
	size_t n = set->nr_buckets * 2;
	struct strset_entry **b = calloc(n, sizeof(*b));

	if (!b)
		return;	/* longer chains, still correct */
	for (size_t i = 0; i < set->nr_buckets; i++) {
		struct strset_entry *e = set->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
		}
	}
	free(set->buckets);
	set->buckets = b;
	set->nr_buckets = n;
}

/* the set's copy of s (equal strings share one), NULL on allocation failure */
static const char *strset__intern(struct strset *set, const char *s)
{
	u64 h = hash_str(0xcbf29ce484222325ULL, s);
	size_t len = strlen(s);
	struct strset_entry *e;

	for (e = set->buckets[h & (set->nr_buckets - 1)]; e; e = e->next)
		if (e->hash == h && !strcmp(e->str, s))
			return e->str;
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	e->hash = h;
	memcpy(e->str, s, len + 1);
	e->next = set->buckets[h & (set->nr_buckets - 1)];
	set->buckets[h & (set->nr_buckets - 1)] = e;
	if (++set->nr > set->nr_buckets)
		strset__grow(set);
	return e->str;
}

/* ---- options ---- */

struct sort_dim {
	const char	*name;
	int		key;		/* enum sort_key, -1: known upstream, not here */
};

/* upstream 7.2's sort dimensions in its order: a --sort token picks the first it prefixes */
static const struct sort_dim sort_dims[] = {
	{ "pid", SORT_KEY_PID }, { "comm", SORT_KEY_COMM }, { "comm_nodigit", -1 },
	{ "dso", SORT_KEY_DSO }, { "symbol", SORT_KEY_SYM }, { "parent", SORT_KEY_PARENT },
	{ "cpu", SORT_KEY_CPU }, { "socket", -1 }, { "srcline", SORT_KEY_SRCLINE }, { "srcfile", -1 },
	{ "local_weight", -1 }, { "weight", -1 }, { "transaction", -1 },
	{ "trace", SORT_KEY_TRACE }, { "symbol_size", -1 }, { "dso_size", -1 }, { "cgroup", SORT_KEY_CGROUP },
	{ "cgroup_id", SORT_KEY_CGROUP_ID }, { "ipc_null", SORT_KEY_IPC_NULL }, { "time", -1 },
	{ "code_page_size", -1 }, { "local_ins_lat", -1 }, { "ins_lat", -1 },
	{ "local_p_stage_cyc", -1 }, { "p_stage_cyc", -1 }, { "addr", -1 },
	{ "local_retire_lat", -1 }, { "retire_lat", -1 }, { "simd", -1 }, { "type", -1 },
	{ "typeoff", -1 }, { "symoff", SORT_KEY_SYMOFF }, { "typecln", -1 }, { "parallelism", -1 },
	{ "tgid", -1 },
};

struct col_dim {
	const char	*name;
	int		col;		/* enum hist_column, -1: not here */
};

static const struct col_dim col_dims[] = {
	{ "overhead", HIST_COL_OVERHEAD }, { "latency", HIST_COL_LATENCY }, { "overhead_sys", -1 },
	{ "overhead_us", -1 }, { "overhead_guest_sys", -1 }, { "overhead_guest_us", -1 },
	{ "overhead_children", HIST_COL_OVERHEAD_ACC }, { "latency_children", HIST_COL_LATENCY_ACC },
	{ "sample", HIST_COL_SAMPLES }, { "period", HIST_COL_PERIOD }, { "weight1", -1 },
	{ "weight2", -1 }, { "weight3", -1 },
};

static bool token_prefixes(const char *tok, const char *name)
{
	return !strncasecmp(tok, name, strlen(tok));
}

static bool field_eq(struct hist_field a, struct hist_field b)
{
	return a.is_key == b.is_key && a.id == b.id;
}

static bool fields_have(const struct hist_field *f, unsigned int nr, struct hist_field x)
{
	for (unsigned int i = 0; i < nr; i++)
		if (field_eq(f[i], x))
			return true;
	return false;
}

static int fields_add(struct hist_field *f, unsigned int *nr, struct hist_field x, bool dedup,
		      struct perf_err *err)
{
	if (dedup && fields_have(f, *nr, x))
		return 0;
	if (*nr == HIST_MAX_FIELDS)
		return perf_err__set(err, EINVAL, "too many sort keys or fields");
	f[(*nr)++] = x;
	return 0;
}

/* a --sort or --fields token: sort dimensions first for --sort, columns first for -F */
static int parse_token(const char *tok, bool cols_first, struct hist_field *out,
		       const char *what, struct perf_err *err)
{
	for (int pass = 0; pass < 2; pass++) {
		if ((pass == 0) == cols_first) {
			for (size_t i = 0; i < ARRAY_SIZE(col_dims); i++) {
				if (!token_prefixes(tok, col_dims[i].name))
					continue;
				if (col_dims[i].col < 0)
					return perf_err__set(err, EINVAL, "%s key '%s' is not supported",
							     what, col_dims[i].name);
				*out = (struct hist_field){ .is_key = false, .id = col_dims[i].col };
				return 0;
			}
		} else {
			for (size_t i = 0; i < ARRAY_SIZE(sort_dims); i++) {
				if (!token_prefixes(tok, sort_dims[i].name))
					continue;
				if (sort_dims[i].key < 0)
					return perf_err__set(err, EINVAL, "%s key '%s' is not supported",
							     what, sort_dims[i].name);
				*out = (struct hist_field){ .is_key = true, .id = sort_dims[i].key };
				return 0;
			}
		}
	}
	return perf_err__set(err, ENOENT, "Unknown %s key: `%s'", what, tok);
}

static int parse_list(const char *list, bool cols_first, struct hist_field *f, unsigned int *nr,
		      const char *what, struct perf_err *err)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		struct hist_field x;

		ret = parse_token(tok, cols_first, &x, what, err);
		if (ret)
			break;
		/* upstream takes each sort dimension and each column once */
		ret = fields_add(f, nr, x, true, err);
		if (ret)
			break;
	}
	free(copy);
	return ret;
}

int hist_opts__setup(struct hist_opts *o, const char *sort_order, const char *field_order,
		     bool all_tracepoints, bool show_nr_samples, bool show_total_period,
		     struct perf_err *err)
{
	const char *dflt = all_tracepoints ? "trace" : "comm,dso,symbol";
	bool strict_fields = field_order && field_order[0] != '+';
	const char *base = NULL;
	char *keys = NULL;
	int ret = 0;
	/* acc_na: the children columns stand, without values */
	bool kids = o->children || o->acc_na;

	o->nr_sort = o->nr_out = 0;
	/* upstream renames the column when it sets up the default flat columns only */
	o->self_named = kids && !strict_fields && !o->hierarchy;
	if (sort_order && sort_order[0] == '+')
		base = sort_order + 1;
	else if (sort_order)
		base = sort_order;
	else if (!strict_fields)
		base = dflt;
	if (base) {
		/* the period columns lead the sort unless -F says otherwise (a substring test) */
		bool named_lat = strstr(base, "latency");
		bool pre_children = !strict_fields && kids && !strstr(base, "overhead_children") &&
				    !named_lat;
		bool pre_overhead = !strict_fields && !strstr(base, "overhead") && !named_lat;
		const char *lead = "";

		/* upstream's setup_overhead(): --latency prefixes both, else latency follows */
		if (o->prefer_latency && !strict_fields)
			lead = kids ? "latency_children,overhead_children,latency,overhead," :
					     "latency,overhead,";
		else if (o->latency && pre_overhead)
			lead = kids ? "overhead_children,latency_children,overhead,latency," :
					     "overhead,latency,";
		if (*lead)
			pre_children = pre_overhead = false;
		if (asprintf(&keys, "%s%s%s%s%s%s", lead, pre_children ? "overhead_children," : "",
			     pre_overhead ? "overhead," : "",
			     sort_order && sort_order[0] == '+' ? dflt : "",
			     sort_order && sort_order[0] == '+' ? "," : "", base) < 0)
			return perf_err__set(err, ENOMEM, "out of memory");
		ret = parse_list(keys, false, o->sort, &o->nr_sort, "--sort", err);
		free(keys);
		if (ret)
			return ret;
	}

	if (!strict_fields) {
		const struct hist_field lat = { false, HIST_COL_LATENCY };
		const struct hist_field lat_acc = { false, HIST_COL_LATENCY_ACC };
		/* latency columns only where the sort has them (upstream's was_taken) */
		bool acc_taken = kids && fields_have(o->sort, o->nr_sort, lat_acc);
		bool lat_taken = fields_have(o->sort, o->nr_sort, lat);
		bool only_lat = base && strstr(base, "latency") && !strstr(base, "overhead");

		if (acc_taken && o->prefer_latency)
			o->out[o->nr_out++] = lat_acc;
		if (kids && !only_lat)
			o->out[o->nr_out++] = (struct hist_field){ false, HIST_COL_OVERHEAD_ACC };
		if (acc_taken && !o->prefer_latency)
			o->out[o->nr_out++] = lat_acc;
		if (lat_taken && o->prefer_latency)
			o->out[o->nr_out++] = lat;
		if (!only_lat)
			o->out[o->nr_out++] = (struct hist_field){ false, HIST_COL_OVERHEAD };
		if (lat_taken && !o->prefer_latency)
			o->out[o->nr_out++] = lat;
		if (show_nr_samples)
			o->out[o->nr_out++] = (struct hist_field){ false, HIST_COL_SAMPLES };
		if (show_total_period)
			o->out[o->nr_out++] = (struct hist_field){ false, HIST_COL_PERIOD };
	}
	if (field_order) {
		const char *list = strict_fields ? field_order : field_order + 1;

		if (!*list)
			return perf_err__set(err, EINVAL, "Invalid --fields key: `+'");
		ret = parse_list(list, true, o->out, &o->nr_out, "--fields", err);
		if (ret)
			return ret;
	}
	/* sort keys become columns, columns become (last) sort steps */
	for (unsigned int i = 0; i < o->nr_sort; i++) {
		ret = fields_add(o->out, &o->nr_out, o->sort[i], true, err);
		if (ret)
			return ret;
	}
	for (unsigned int i = 0; i < o->nr_out; i++) {
		ret = fields_add(o->sort, &o->nr_sort, o->out[i], true, err);
		if (ret)
			return ret;
	}
	return 0;
}

bool hist_opts__has_key(const struct hist_opts *o, enum sort_key k)
{
	return fields_have(o->sort, o->nr_sort, (struct hist_field){ .is_key = true, .id = k });
}

static void fields_drop(struct hist_field *f, unsigned int *nr)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < *nr; i++)
		if (f[i].is_key || (f[i].id != HIST_COL_LATENCY && f[i].id != HIST_COL_LATENCY_ACC))
			f[n++] = f[i];
	*nr = n;
}

void hist_opts__drop_latency(struct hist_opts *o, const char *sort_order, const char *field_order)
{
	if ((field_order && field_order[0] != '+') || (sort_order && strstr(sort_order, "latency")))
		return;
	fields_drop(o->out, &o->nr_out);
}

/* ---- entries ---- */

struct hist_key {
	const char		*comm;		/* interned */
	s32			pid, tid, cpu;
	struct dso		*dso;
	const struct symbol	*sym;
	u64			ip;
	const char		*trace;		/* interned, NULL for other events */
	char			level;
	/* the rarely used keys last, off the cache line the common ones share */
	const struct symbol	*parent;
	u64			cgroup;
	const char		*cgroup_name;	/* interned */
	u64			cgroup_ns_dev, cgroup_ns_ino;
	u64			sym_off;	/* symoff's offset; key.ip - sym->start without one */
	bool			has_sym_off;
	const char		*srcline;	/* interned, SORT_KEY_SRCLINE only */
};

struct hist_entry {
	struct hist_key		key;
	struct hist_entry	*hash_next;	/* only entries found by hash are in the table */
	struct hist_entry	*all_next;	/* every entry, for freeing */
	u64			hash;
	struct rbnode		rb_in, rb_collapsed, rb_out;
	const char		*thread_comm;	/* the thread's last comm, set for output */
	u64			period, nr_events;		/* own samples */
	u64			period_acc, nr_events_acc;	/* own and callees' samples */
	u64			latency, latency_acc;		/* their latency weights */
	bool			has_callchain;
	bool			merged;		/* folded into an equal entry by the collapse */
	u64			stamp;		/* hists->stamp of the last sample that fed it */
	struct chain_root	callchain;
};

#define HIST_WALK_MEMO	4096
#define HIST_REPEAT_BITS	10

/* an entry a sample fed, and the callchain node its chain ended at there (NULL: none) */
struct hist_step {
	struct hist_entry	*he;
	struct chain_node	*end;
	u64			shape_gen;	/* he's callchain shape when remembered */
};

/* one remembered sample (see hists__add_repeat()) */
struct hist_repeat {
	u64			chain_key;	/* 0: empty slot */
	const char		*comm;		/* interned */
	s32			tid, cpu;	/* 0 unless a sort key uses them */
	struct dso		*dso;
	const struct symbol	*sym;
	u64			ip;
	char			level;
	bool			has_callchain;
	u64			tree_gen;
	struct hist_step	*steps;		/* the entries fed, the sample's own first */
	u32			nr_steps, alloc;
	u64			pending_period, pending_nr;	/* repeats not yet applied */
	u64			pending_latency;
	u64			checked;	/* hists->nr_slow when the steps were last checked */
};


/* the entry a tree walk found for a key, while the tree is as it was (tree_gen) */
struct hist_walk_memo {
	struct hist_entry	*entry;
	u64			hash;
	u64			gen;
};

/* upstream's -v compares and prints the dsos' full paths */
static const char *dso__name(const struct hist_opts *o, const struct dso *dso)
{
	if (!dso)
		return NULL;
	if (!o->verbose)
		return dso->short_name;
	/* upstream names the kernel (and its sections) by the vmlinux they came from (-k) */
	if (dso->kind == DSO_KIND_KERNEL && dso->symsrc_path)
		return dso->symsrc_path;
	return dso->long_name;
}

static u64 key_hash(const struct hists *hists, const struct hist_key *k)
{
	const struct hist_opts *o = hists->opts;
	u64 h = 0xcbf29ce484222325ULL;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		if (!o->sort[i].is_key)
			continue;
		switch (o->sort[i].id) {
		case SORT_KEY_PID:
			h = hash_u64(h, (u64)(u32)k->tid);
			break;
		case SORT_KEY_COMM:
			h = hash_u64(h, (u64)(uintptr_t)k->comm);
			break;
		case SORT_KEY_DSO:
			h = hash_str(h, dso__name(o, k->dso));
			break;
		case SORT_KEY_SYM:
		case SORT_KEY_IPC_NULL:
			if (k->sym)
				h = hash_u64(hash_u64(h, k->sym->start), k->sym->end);
			else
				h = hash_u64(h, k->ip);
			break;
		case SORT_KEY_CPU:
			h = hash_u64(h, (u64)(u32)k->cpu);
			break;
		case SORT_KEY_TRACE:
			h = hash_u64(h, (u64)(uintptr_t)k->trace);
			break;
		case SORT_KEY_PARENT:
			h = hash_str(h, k->parent ? k->parent->name : "");
			break;
		case SORT_KEY_SYMOFF:
			h = hash_u64(h, k->ip);
			break;
		case SORT_KEY_SRCLINE:
			h = hash_str(hash_u64(h, k->ip), dso__name(o, k->dso));
			break;
		case SORT_KEY_CGROUP:
			h = hash_u64(h, k->cgroup);
			break;
		case SORT_KEY_CGROUP_ID:
			h = hash_u64(hash_u64(h, k->cgroup_ns_dev), k->cgroup_ns_ino);
			break;
		default:
			break;
		}
	}
	return h;
}

/* upstream's cmp_null: a missing one sorts first */
static int cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int sign64(s64 v)
{
	return v < 0 ? -1 : v > 0;
}

static int dso_cmp(const struct hist_opts *o, const struct hist_key *l, const struct hist_key *r)
{
	/* upstream passes (right, left) and tests them the other way round for NULL */
	if (!l->dso || !r->dso)
		return cmp_null(l->dso, r->dso);
	if (l->dso == r->dso)
		return 0;
	return strcmp(dso__name(o, r->dso), dso__name(o, l->dso));
}

static int sym_cmp(const struct hist_opts *o, const struct hist_key *l, const struct hist_key *r)
{
	const struct symbol *sl = l->sym, *sr = r->sym;
	int ret;

	if (!sl && !sr)
		return sign64((s64)(r->ip - l->ip));
	ret = dso_cmp(o, l, r);
	if (ret)
		return ret;
	if (!sl || !sr)
		return cmp_null(sl, sr);
	if (sl == sr)
		return 0;
	/* inlined functions share their frame symbol's range: names tell them apart */
	if (sl->inlined || sr->inlined) {
		ret = strcmp(sl->name, sr->name);
		if (ret)
			return ret < 0 ? -1 : 1;
		if (sl->start <= sr->end && sl->end >= sr->start)
			return 0;
	}
	if (sl->start != sr->start)
		return sign64((s64)(sr->start - sl->start));
	return sign64((s64)(sr->end - sl->end));
}

static int sym_sort(const struct hist_key *l, const struct hist_key *r)
{
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	return strcmp(r->sym->name, l->sym->name);
}

static int str_cmp_r(const char *l, const char *r)
{
	if (!l || !r)
		return 0;	/* not a tracepoint: upstream compares nothing */
	return strcmp(r, l);
}

static bool dso_name_eq(const struct hist_opts *o, const struct dso *l, const struct dso *r)
{
	if (l == r)
		return true;
	return l && r && !strcmp(dso__name(o, l), dso__name(o, r));
}

static int key_cmp(const struct hist_opts *o, int key, const struct hist_key *l,
		   const struct hist_key *r, bool sort);

/*
 * key_cmp(...) == 0 for every key, the cheap way: comm and trace strings are interned, so
 * equal texts are one pointer (the hot path of children mode compares keys a lot).
 */
static bool hists__key_equal(const struct hists *hists, const struct hist_key *l,
			     const struct hist_key *r)
{
	const struct hist_opts *o = hists->opts;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		if (!o->sort[i].is_key)
			continue;
		switch (o->sort[i].id) {
		case SORT_KEY_PID:
			if (l->tid != r->tid)
				return false;
			break;
		case SORT_KEY_COMM:
			if (l->comm != r->comm)
				return false;
			break;
		case SORT_KEY_DSO:
			if (!dso_name_eq(o, l->dso, r->dso))
				return false;
			break;
		case SORT_KEY_SYM:
		case SORT_KEY_IPC_NULL:
			if (!l->sym || !r->sym) {
				if (l->sym || r->sym || l->ip != r->ip)
					return false;
				break;
			}
			if (!dso_name_eq(o, l->dso, r->dso))
				return false;
			if (l->sym != r->sym && (l->sym->inlined || r->sym->inlined)) {
				if (key_cmp(o, o->sort[i].id, l, r, false))
					return false;
			} else if (l->sym != r->sym &&
				   (l->sym->start != r->sym->start || l->sym->end != r->sym->end)) {
				return false;
			}
			break;
		case SORT_KEY_CPU:
			if (l->cpu != r->cpu)
				return false;
			break;
		case SORT_KEY_TRACE:
			/* not a tracepoint (NULL): upstream compares nothing */
			if (l->trace && r->trace && l->trace != r->trace)
				return false;
			break;
		case SORT_KEY_PARENT:
		case SORT_KEY_SYMOFF:
		case SORT_KEY_CGROUP:
		case SORT_KEY_CGROUP_ID:
		case SORT_KEY_SRCLINE:
			if (key_cmp(o, o->sort[i].id, l, r, false))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

static int parent_cmp(const struct hist_key *l, const struct hist_key *r)
{
	if (!l->parent || !r->parent)
		return cmp_null(l->parent, r->parent);
	return strcmp(r->parent->name, l->parent->name);
}

/*
 * upstream's symoff: by symbol (its name for output order), then by address (the offset,
 * as the symbol is the same), this one left minus right
 */
static int symoff_cmp(const struct hist_opts *o, const struct hist_key *l,
		      const struct hist_key *r, bool sort)
{
	int ret = sort ? sym_sort(l, r) : sym_cmp(o, l, r);

	return ret ? ret : sign64((s64)(l->ip - r->ip));
}

static int srcline_cmp(const struct hist_key *l, const struct hist_key *r)
{
	if (l->srcline == r->srcline)
		return 0;
	if (!l->srcline || !r->srcline)
		return cmp_null(l->srcline, r->srcline);
	return strcmp(r->srcline, l->srcline);
}

static int u64_cmp_r(u64 l, u64 r)
{
	return r > l ? 1 : r < l ? -1 : 0;
}

/* upstream's se_cmp (sort == false) or se_sort (sort == true) of one key */
static int key_cmp(const struct hist_opts *o, int key, const struct hist_key *l,
		   const struct hist_key *r, bool sort)
{
	switch (key) {
	case SORT_KEY_PID:
		return sign64((s64)r->tid - (s64)l->tid);
	case SORT_KEY_COMM:
		return l->comm == r->comm ? 0 : strcmp(r->comm, l->comm);
	case SORT_KEY_DSO:
		return dso_cmp(o, l, r);
	case SORT_KEY_SYM:
		return sort ? sym_sort(l, r) : sym_cmp(o, l, r);
	case SORT_KEY_IPC_NULL:
		return sym_cmp(o, l, r);
	case SORT_KEY_CPU:
		return sign64((s64)r->cpu - (s64)l->cpu);
	case SORT_KEY_TRACE:
		return str_cmp_r(l->trace, r->trace);
	case SORT_KEY_PARENT:
		return parent_cmp(l, r);
	case SORT_KEY_SYMOFF:
		return symoff_cmp(o, l, r, sort);
	case SORT_KEY_CGROUP:
		return u64_cmp_r(l->cgroup, r->cgroup);
	case SORT_KEY_CGROUP_ID: {
		int ret = u64_cmp_r(l->cgroup_ns_dev, r->cgroup_ns_dev);

		return ret ? ret : u64_cmp_r(l->cgroup_ns_ino, r->cgroup_ns_ino);
	}
	case SORT_KEY_SRCLINE: {
		int ret;

		/* upstream tells entries apart by address and dso, and sorts them by text */
		if (sort)
			return srcline_cmp(l, r);
		ret = sign64((s64)(r->ip - l->ip));
		return ret ? ret : dso_cmp(o, l, r);
	}
	default:
		return 0;
	}
}

/*
 * hist_entry__cmp (collapse false): the identity of an entry in entries_in;
 * hist_entry__collapse (true): the keys with a collapse function of their own (srcline)
 * compare by it, when the collapse merges entries
 */
static int hists__key_cmp_mode(const struct hists *hists, const struct hist_key *l,
			       const struct hist_key *r, bool collapse)
{
	const struct hist_opts *o = hists->opts;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		int ret;

		if (!o->sort[i].is_key)
			continue;
		if (collapse && o->sort[i].id == SORT_KEY_SRCLINE)
			ret = srcline_cmp(l, r);
		else
			ret = key_cmp(o, o->sort[i].id, l, r, false);
		if (ret)
			return ret;
	}
	return 0;
}

static int hists__key_cmp(const struct hists *hists, const struct hist_key *l,
			  const struct hist_key *r)
{
	return hists__key_cmp_mode(hists, l, r, false);
}

static int field_cmp(u64 a, u64 b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

/*
 * hist_entry__sort: the output order. Equal accumulated periods put the caller first when
 * both come from one thread (the deeper callchain), as upstream does.
 */
static int hists__entry_sort(const struct hists *hists, const struct hist_entry *a,
			     const struct hist_entry *b)
{
	const struct hist_opts *o = hists->opts;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		int ret = 0;

		if (o->sort[i].is_key) {
			ret = key_cmp(o, o->sort[i].id, &a->key, &b->key, true);
		} else {
			switch (o->sort[i].id) {
			case HIST_COL_OVERHEAD_ACC:
			case HIST_COL_LATENCY_ACC:
				if (!o->children)
					break;
				if (o->sort[i].id == HIST_COL_LATENCY_ACC)
					ret = field_cmp(a->latency_acc, b->latency_acc);
				else
					ret = field_cmp(a->period_acc, b->period_acc);
				if (ret || a->key.tid != b->key.tid || a->key.pid != b->key.pid ||
				    !a->has_callchain || !o->use_callchain)
					break;
				ret = (int)b->callchain.max_depth - (int)a->callchain.max_depth;
				if (o->chain.order == ORDER_CALLER)
					ret = -ret;
				break;
			case HIST_COL_OVERHEAD:
			case HIST_COL_PERIOD:
				ret = field_cmp(a->period, b->period);
				break;
			case HIST_COL_SAMPLES:
				ret = field_cmp(a->nr_events, b->nr_events);
				break;
			case HIST_COL_LATENCY:
				ret = field_cmp(a->latency, b->latency);
				break;
			default:
				break;
			}
		}
		if (ret)
			return ret;
	}
	return 0;
}

const char *hists__intern(struct hists *hists, const char *s)
{
	return strset__intern(hists->strings, s);
}

struct hists *hists__new(const struct hist_opts *opts)
{
	struct hists *hists = calloc(1, sizeof(*hists));

	if (!hists)
		return NULL;
	hists->opts = opts;
	hists->nr_buckets = 1024;
	hists->buckets = calloc(hists->nr_buckets, sizeof(*hists->buckets));
	hists->strings = strset__new();
	hists->memo = calloc(HIST_WALK_MEMO, sizeof(*hists->memo));
	hists->repeats = calloc(1U << HIST_REPEAT_BITS, sizeof(*hists->repeats));
	hists->dirty = calloc(1U << HIST_REPEAT_BITS, sizeof(*hists->dirty));
	if (!hists->buckets || !hists->strings || !hists->memo || !hists->repeats || !hists->dirty) {
		hists__delete(hists);
		return NULL;
	}
	for (unsigned int i = 0; i < opts->nr_sort; i++) {
		if (!opts->sort[i].is_key)
			continue;
		if (opts->sort[i].id == SORT_KEY_SYM || opts->sort[i].id == SORT_KEY_IPC_NULL)
			hists->has_sym_key = true;
		/* upstream collapses only for keys with a collapse function of their own */
		if (opts->sort[i].id == SORT_KEY_COMM || opts->sort[i].id == SORT_KEY_SRCLINE)
			hists->need_collapse = true;
		hists->repeat_comm |= opts->sort[i].id == SORT_KEY_COMM;
		hists->repeat_tid |= opts->sort[i].id == SORT_KEY_PID;
		hists->repeat_cpu |= opts->sort[i].id == SORT_KEY_CPU;
		hists->has_sym_key |= opts->sort[i].id == SORT_KEY_SYMOFF;
		/* the repeat slots do not key on cgroups, which change without chain or tid */
		if (opts->sort[i].id == SORT_KEY_CGROUP || opts->sort[i].id == SORT_KEY_CGROUP_ID) {
			free(hists->repeats);
			hists->repeats = NULL;
		}
	}
	return hists;
}

void hists__delete(struct hists *hists)
{
	struct hist_entry *he, *next;

	if (!hists)
		return;
	for (he = hists->all; he; he = next) {
		next = he->all_next;
		chain_root__exit(&he->callchain);
		free(he);
	}
	free(hists->buckets);
	free(hists->cache);
	free(hists->memo);
	if (hists->repeats)
		for (size_t i = 0; i < (1U << HIST_REPEAT_BITS); i++)
			free(hists->repeats[i].steps);
	free(hists->repeats);
	free(hists->dirty);
	strset__delete(hists->strings);
	free(hists);
}

static void hists__grow(struct hists *hists)
{
	size_t n = hists->nr_buckets * 2;
	struct hist_entry **b = calloc(n, sizeof(*b));

	if (!b)
		return;	/* longer chains, still correct */
	for (size_t i = 0; i < hists->nr_buckets; i++) {
		struct hist_entry *he = hists->buckets[i], *next;

		for (; he; he = next) {
			next = he->hash_next;
			he->hash_next = b[he->hash & (n - 1)];
			b[he->hash & (n - 1)] = he;
		}
	}
	free(hists->buckets);
	hists->buckets = b;
	hists->nr_buckets = n;
}

/*
 * Finding an entry. Upstream walks its entries_in tree. Two unresolved symbols compare by
 * the wrapping difference of their addresses, which is no order at all for addresses more
 * than 2^63 apart (a kernel address against a user one, garbage frames): there the walk can
 * miss an equal entry and add a second one, and the tree's shape decides the output order.
 * Such keys take the same walk here; every other key compares consistently, and a hash
 * finds what the walk would.
 */
struct hist_slot {
	struct rbnode	**link, *parent;	/* where a new entry goes in entries_in */
	u64		hash;
	bool		by_hash;
};

static struct hist_entry *hists__lookup(struct hists *hists, const struct hist_key *key,
					struct hist_slot *slot)
{
	struct hist_entry *he;

	struct hist_walk_memo *memo = NULL;
	u64 h = key_hash(hists, key);

	/*
	 * an inlined function's symbol equals one of the same name whose range touches its
	 * own: no hash finds that, the walk does (and upstream's walk decides which merge).
	 * Once the tree holds one, symbols compare by name against it and by address against
	 * the others, no order at all: any symbol's walk can miss its equal entry and add a
	 * second one (the collapse of a comm key merges them again), so every symbol walks.
	 */
	slot->by_hash = !hists->has_sym_key || (key->sym && !key->sym->inlined && !hists->has_inlined);
	slot->hash = slot->by_hash ? h : 0;
	slot->link = &hists->entries_in.node;
	slot->parent = NULL;
	if (slot->by_hash) {
		for (he = hists->buckets[slot->hash & (hists->nr_buckets - 1)]; he; he = he->hash_next)
			if (he->hash == slot->hash && hists__key_equal(hists, &he->key, key))
				return he;
	} else if (hists->memo) {
		/* equal keys take the same walk: its result holds until the tree changes */
		memo = &hists->memo[h & (HIST_WALK_MEMO - 1)];
		if (memo->entry && memo->gen == hists->tree_gen && memo->hash == h &&
		    hists__key_equal(hists, &memo->entry->key, key))
			return memo->entry;
	}
	while (*slot->link) {
		int cmp;

		he = rbtree__entry(*slot->link, struct hist_entry, rb_in);
		cmp = hists__key_cmp(hists, &he->key, key);
		if (!cmp && !slot->by_hash) {
			if (memo)
				*memo = (struct hist_walk_memo){ .entry = he, .hash = h, .gen = hists->tree_gen };
			return he;
		}
		slot->parent = *slot->link;
		slot->link = cmp < 0 ? &slot->parent->left : &slot->parent->right;
	}
	return NULL;
}

static struct hist_entry *hists__add(struct hists *hists, const struct hist_key *key,
				     const struct hist_slot *slot, bool has_callchain)
{
	struct hist_entry *he = calloc(1, sizeof(*he));

	if (!he)
		return NULL;
	he->key = *key;
	if (key->sym && key->sym->inlined)
		hists->has_inlined = true;
	he->hash = slot->hash;
	he->has_callchain = has_callchain;
	chain_root__init(&he->callchain, hists->opts->chain.key);
	he->all_next = hists->all;
	hists->all = he;
	rbtree__insert(&hists->entries_in, &he->rb_in, slot->parent, slot->link);
	hists->tree_gen++;
	hists->nr_entries++;
	if (slot->by_hash) {
		he->hash_next = hists->buckets[slot->hash & (hists->nr_buckets - 1)];
		hists->buckets[slot->hash & (hists->nr_buckets - 1)] = he;
		if (++hists->nr_hashed > hists->nr_buckets)
			hists__grow(hists);
	}
	return he;
}

/* what a sample adds to an entry: as its own period (self) or only accumulated (a caller) */
static void hist_entry__feed(struct hists *hists, struct hist_entry *he, u64 period,
			     u64 latency, bool self)
{
	if (self) {
		he->period += period;
		he->latency += latency;
		he->nr_events++;
	}
	he->period_acc += period;
	he->latency_acc += latency;
	he->nr_events_acc++;
	he->stamp = hists->stamp;
}

/* nr repeats of what a remembered sample fed, period their sum */
static void hist_repeat__apply(struct hist_repeat *r, u64 period, u64 latency, u64 nr)
{
	for (u32 i = 0; i < r->nr_steps; i++) {
		struct hist_step *st = &r->steps[i];
		struct hist_entry *he = st->he;

		if (i == 0) {
			he->period += period;
			he->latency += latency;
			he->nr_events += nr;
		}
		he->period_acc += period;
		he->latency_acc += latency;
		he->nr_events_acc += nr;
		if (st->end)
			chain_root__append_again(&he->callchain, st->end, period, nr);
	}
}

/*
 * Repeats are counted in their slot and added to the entries and trees here, before
 * anything reads those counts or changes a tree (a split moves a node's counts).
 */
static void hists__flush_repeats(struct hists *hists)
{
	for (u32 i = 0; i < hists->nr_dirty; i++) {
		struct hist_repeat *r = &hists->repeats[hists->dirty[i]];

		hist_repeat__apply(r, r->pending_period, r->pending_latency, r->pending_nr);
		r->pending_period = 0;
		r->pending_latency = 0;
		r->pending_nr = 0;
	}
	hists->nr_dirty = 0;
}

/*
 * hists__collapse_resort: entries_in walked in order into a second tree, where entries the
 * walk above kept apart but that compare equal now meet and are merged.
 */
static int hists__collapse(struct hists *hists)
{
	const struct hist_opts *o = hists->opts;

	hists->collapsed.node = NULL;
	if (!hists->need_collapse) {
		for (struct rbnode *n = rbtree__first(&hists->entries_in); n; n = rbtree__next(n))
			rbtree__entry(n, struct hist_entry, rb_in)->merged = false;
		return 0;
	}
	for (struct rbnode *n = rbtree__first(&hists->entries_in); n; n = rbtree__next(n)) {
		struct hist_entry *he = rbtree__entry(n, struct hist_entry, rb_in);
		struct rbnode **link = &hists->collapsed.node, *parent = NULL;

		he->merged = false;
		while (*link) {
			struct hist_entry *it = rbtree__entry(*link, struct hist_entry, rb_collapsed);
			int cmp = hists__key_cmp_mode(hists, &it->key, &he->key, true);

			if (!cmp) {
				it->period += he->period;
				it->nr_events += he->nr_events;
				it->period_acc += he->period_acc;
				it->latency += he->latency;
				it->latency_acc += he->latency_acc;
				it->nr_events_acc += he->nr_events_acc;
				if (he->has_callchain && o->use_callchain &&
				    chain_root__merge(&it->callchain, &he->callchain))
					return -ENOMEM;
				he->merged = true;
				break;
			}
			parent = *link;
			link = cmp < 0 ? &parent->left : &parent->right;
		}
		if (!he->merged)
			rbtree__insert(&hists->collapsed, &he->rb_collapsed, parent, link);
	}
	return 0;
}

static int hists__grow_cache(struct hists *hists, size_t n)
{
	struct hist_step *c;

	if (n <= hists->cache_alloc)
		return 0;
	c = realloc(hists->cache, n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	hists->cache = c;
	hists->cache_alloc = n;
	return 0;
}

/*
 * Repeats. A sample equal to an earlier one in everything hists__add_sample() looks at
 * (its key fields, comm text, callchain by chain_key) takes the same lookups and the same
 * walks down the same callchain trees, as long as no entry was added since (tree_gen) and
 * none of those trees changed shape (shape_gen): it feeds the same entries and ends at the
 * same chain nodes. Those are remembered, and the repeat only adds its period along them.
 * Output order cannot tell the difference: it depends on which keys and chain nodes were
 * added in which order, and a repeat adds none.
 */
/*
 * The fields of a sample the lookups depend on: those of the sort keys, the symbol (it
 * chooses between hash and tree walk) and the chain. Others (the tid under a comm,dso,sym
 * sort) are left out, so samples differing only there share one slot.
 */
static void hist_repeat__key(const struct hists *hists, const struct hist_sample *s,
			     struct hist_repeat *k)
{
	k->chain_key = s->chain_key;
	k->tid = hists->repeat_tid ? s->tid : 0;
	k->cpu = hists->repeat_cpu ? s->cpu : 0;
	k->dso = s->dso;
	k->sym = s->sym;
	k->ip = s->ip;
	k->level = s->level;
	k->has_callchain = s->has_callchain;
}

/* comm: the sample's text (its thread's, so one pointer per thread), or NULL to leave out */
static u32 hist_repeat__slot(const struct hist_repeat *k, const char *comm)
{
	u64 h = (k->chain_key ^ (u64)(uintptr_t)comm) * 0x9e3779b97f4a7c15ULL;

	h = (h ^ (u64)(u32)k->tid ^ ((u64)(u32)k->cpu << 32)) * 0x9e3779b97f4a7c15ULL;
	h = (h ^ k->ip ^ (u64)(uintptr_t)k->sym) * 0x9e3779b97f4a7c15ULL;
	return (u32)(h >> (64 - HIST_REPEAT_BITS));
}

static bool hist_repeat__matches(struct hist_repeat *r, const struct hists *hists,
				 const struct hist_repeat *k, const char *comm)
{
	if (r->chain_key != k->chain_key || r->tree_gen != hists->tree_gen || r->tid != k->tid ||
	    r->cpu != k->cpu || r->ip != k->ip || r->sym != k->sym || r->dso != k->dso ||
	    r->level != k->level || r->has_callchain != k->has_callchain ||
	    (hists->repeat_comm && strcmp(r->comm, comm)))
		return false;
	/* trees change only on the slow path: checked since the last one, still the same */
	if (r->checked == hists->nr_slow)
		return true;
	for (u32 i = 0; i < r->nr_steps; i++)
		if (r->steps[i].end && r->steps[i].he->callchain.shape_gen != r->steps[i].shape_gen)
			return false;
	r->checked = hists->nr_slow;
	return true;
}

bool hists__add_repeat(struct hists *hists, const struct hist_sample *s)
{
	const struct hist_opts *o = hists->opts;
	struct hist_repeat *r, k;

	if (!s->chain_key || s->trace || !hists->repeats)
		return false;
	hist_repeat__key(hists, s, &k);
	r = &hists->repeats[hist_repeat__slot(&k, hists->repeat_comm ? s->comm : NULL)];
	if (!hist_repeat__matches(r, hists, &k, s->comm))
		return false;
	hists->nr_samples++;
	hists->total_period += s->period;
	if (o->use_callchain)
		hists->callchain_period += s->period;
	if (!r->pending_nr++)
		hists->dirty[hists->nr_dirty++] = (u32)(r - hists->repeats);
	r->pending_period += s->period;
	r->pending_latency += s->latency;
	return true;
}

/* remember what the sample just added fed (hists->cache[0..nr)); no memory, no memo */
static void hists__remember(struct hists *hists, const struct hist_sample *s, const char *comm,
			    u32 nr)
{
	struct hist_repeat *r, k;

	if (!s->chain_key || s->trace || !hists->repeats)
		return;
	hist_repeat__key(hists, s, &k);
	r = &hists->repeats[hist_repeat__slot(&k, hists->repeat_comm ? s->comm : NULL)];
	r->chain_key = 0;
	if (nr > r->alloc) {
		struct hist_step *st = realloc(r->steps, nr * sizeof(*st));

		if (!st)
			return;
		r->steps = st;
		r->alloc = nr;
	}
	for (u32 i = 0; i < nr; i++) {
		r->steps[i] = hists->cache[i];
		r->steps[i].shape_gen = r->steps[i].he->callchain.shape_gen;
	}
	r->nr_steps = nr;
	r->comm = comm;
	r->tid = k.tid;
	r->cpu = k.cpu;
	r->dso = k.dso;
	r->sym = k.sym;
	r->ip = k.ip;
	r->level = k.level;
	r->has_callchain = k.has_callchain;
	r->tree_gen = hists->tree_gen;
	r->checked = hists->nr_slow;
	r->chain_key = k.chain_key;
}

int hists__add_sample(struct hists *hists, const struct hist_sample *s)
{
	const struct hist_opts *o = hists->opts;
	bool chains = o->use_callchain && s->has_callchain;
	struct hist_key key = {
		.pid = s->pid, .tid = s->tid, .cpu = s->cpu, .dso = s->dso, .sym = s->sym,
		.ip = s->ip, .level = s->level,
	};
	struct chain_node *end = NULL;
	struct hist_entry *he;
	struct hist_slot slot;
	size_t nr_cached = 0;
	int ret;

	key.comm = strset__intern(hists->strings, s->comm);
	if (!key.comm)
		return -ENOMEM;
	if (s->trace) {
		key.trace = strset__intern(hists->strings, s->trace);
		if (!key.trace)
			return -ENOMEM;
	}
	if (s->keys) {
		key.parent = s->keys->parent;
		key.cgroup = s->keys->cgroup;
		key.cgroup_ns_dev = s->keys->cgroup_ns_dev;
		key.cgroup_ns_ino = s->keys->cgroup_ns_ino;
		if (s->keys->has_sym_addr && s->sym) {
			key.sym_off = s->keys->sym_addr - s->sym->start;
			key.has_sym_off = true;
		}
		if (s->keys->cgroup_name) {
			key.cgroup_name = strset__intern(hists->strings, s->keys->cgroup_name);
			if (!key.cgroup_name)
				return -ENOMEM;
		}
		if (s->keys->srcline) {
			key.srcline = strset__intern(hists->strings, s->keys->srcline);
			if (!key.srcline)
				return -ENOMEM;
		}
	}
	hists__flush_repeats(hists);
	hists->nr_slow++;
	ret = hists__grow_cache(hists, s->nr_frames + 1);
	if (ret)
		return ret;
	hists->stamp++;
	he = hists__lookup(hists, &key, &slot);
	if (!he)
		he = hists__add(hists, &key, &slot, s->has_callchain);
	if (!he)
		return -ENOMEM;
	hist_entry__feed(hists, he, s->period, s->latency, true);
	hists->nr_samples++;
	hists->total_period += s->period;
	if (o->use_callchain)
		hists->callchain_period += s->period;
	if (chains) {
		ret = chain_root__append(&he->callchain, s->frames, s->nr_frames, s->period, &end);
		if (ret)
			return ret;
	}
	hists->cache[nr_cached++] = (struct hist_step){ .he = he, .end = end };
	if (!o->children)
		goto out;

	/*
	 * Every function on the callchain gets the period as accumulated, once per sample
	 * however often it recurs, with the part of the chain from it on as its callchain.
	 */
	for (u32 i = 0; i < s->nr_frames; i++) {
		const struct chain_frame *f = &s->frames[i];
		bool dup = false;

		key.dso = f->dso;
		key.sym = f->sym;
		/* the address as recorded: upstream's symoff of a caller shows it so too */
		key.ip = f->ip;
		/*
		 * An ET_EXEC image's symbols are at file offsets in upstream: a caller's symoff
		 * is its address less that offset, the image's load bias included
		 */
		key.has_sym_off = f->sym && f->dso && f->dso->is_exec;
		if (key.has_sym_off)
			key.sym_off = f->ip - dso__vaddr_to_offset(f->dso, f->sym->start);
		/* upstream leaves the level of an unmapped frame as the previous one had it */
		if (f->sym || f->dso)
			key.level = '.';
		he = hists__lookup(hists, &key, &slot);
		if (slot.by_hash) {
			/* a consistent key has one entry: seen this sample if it was fed */
			dup = he && he->stamp == hists->stamp;
		} else {
			for (size_t j = 0; j < nr_cached && !dup; j++) {
				const struct hist_key *c = &hists->cache[j].he->key;

				/*
				 * an unresolved key equals only another unresolved one at its
				 * address, an inlined one only a symbol of its name: one function
				 * listed twice in an inline chain counts once, as upstream's
				 */
				if (key.sym ? !c->sym || (c->sym != key.sym &&
							  strcmp(c->sym->name, key.sym->name)) :
					      c->sym || c->ip != key.ip)
					continue;
				dup = hists__key_equal(hists, c, &key);
			}
		}
		if (dup)
			continue;
		if (!he && s->frame_srcline) {
			char line[4096];

			key.srcline = strset__intern(hists->strings,
						     s->frame_srcline(s->frame_srcline_arg, i, line,
								      sizeof(line)));
			if (!key.srcline)
				return -ENOMEM;
		}
		if (!he)
			he = hists__add(hists, &key, &slot, s->has_callchain);
		if (!he)
			return -ENOMEM;
		hist_entry__feed(hists, he, s->period, s->latency, false);
		end = NULL;
		if (chains) {
			ret = chain_root__append(&he->callchain, f, s->nr_frames - i, s->period, &end);
			if (ret)
				return ret;
		}
		hists->cache[nr_cached++] = (struct hist_step){ .he = he, .end = end };
	}
out:
	hists__remember(hists, s, key.comm, (u32)nr_cached);
	return 0;
}

void hists__add_filtered(struct hists *hists, u64 period, u64 latency)
{
	hists->nr_filtered++;
	hists->filtered_period += period;
	hists->filtered_latency += latency;
	/* upstream counts it as a sample it does not show, callchain threshold included */
	hists->nr_samples++;
	hists->total_period += period;
	hists->total_latency += latency;
	if (hists->opts->use_callchain)
		hists->callchain_period += period;
}

u64 hists__total_period(const struct hists *hists)
{
	return hists->total_period - (hists->opts->filter_relative ? hists->filtered_period : 0);
}

u64 hists__total_samples(const struct hists *hists)
{
	return hists->nr_samples - (hists->opts->filter_relative ? hists->nr_filtered : 0);
}

static u64 hists__total_latency(const struct hists *hists)
{
	return hists->total_latency - (hists->opts->filter_relative ? hists->filtered_latency : 0);
}

/* ---- output ---- */

static const char *const key_headers[SORT_KEY__NR] = {
	[SORT_KEY_PID]		= "    Pid:Command",
	[SORT_KEY_COMM]		= "Command",
	[SORT_KEY_DSO]		= "Shared Object",
	[SORT_KEY_SYM]		= "Symbol",
	[SORT_KEY_CPU]		= "CPU",
	[SORT_KEY_TRACE]	= "Trace output",
	[SORT_KEY_IPC_NULL]	= "IPC   [IPC Coverage]",
	[SORT_KEY_PARENT]	= "Parent symbol",
	[SORT_KEY_SYMOFF]	= "Symbol Offset",
	[SORT_KEY_CGROUP]	= "Cgroup",
	[SORT_KEY_CGROUP_ID]	= "cgroup id (dev/inode)",
	[SORT_KEY_SRCLINE]	= "Source:Line",
};

static void hists__new_col_len(struct hists *hists, enum sort_key key, size_t len)
{
	if (len > hists->col_len[key])
		hists->col_len[key] = (u16)(len > 0xffff ? 0xffff : len);
}

/*
 * The length upstream sizes the symbol column by. A module symbol from kallsyms is named
 * "name\t[module]" there and cut at the tab after its length was taken, so the column is
 * as wide as if the module name were still printed.
 */
static size_t symbol_name_len(const struct symbol *sym, const struct dso *dso)
{
	size_t len = strlen(sym->name);

	if (dso && dso->kind == DSO_KIND_KMODULE && dso->long_name[0] == '[')
		len += 1 + strlen(dso->long_name);
	return len;
}

/* hists__calc_col_len: widths from every entry, as upstream sizes them */
static void hists__calc_col_len(struct hists *hists, const struct hist_entry *he)
{
	/* an unresolved symbol prints as "[x] 0x" + 16 hex digits */
	const size_t unresolved = 16;
	size_t len;

	if (he->key.sym) {
		/* -v: the address (18) and the origin letter, each followed by a space */
		hists__new_col_len(hists, SORT_KEY_SYM, symbol_name_len(he->key.sym, he->key.dso) + 4 +
				   (hists->opts->verbose ? 18 + 3 : 0));
	} else {
		hists__new_col_len(hists, SORT_KEY_SYM, unresolved + 4 + 2);
		if (hists->col_len[SORT_KEY_DSO] < unresolved && !hists->opts->field_sep)
			hists->col_len[SORT_KEY_DSO] = unresolved;
	}
	len = strlen(he->thread_comm);
	if (len > hists->col_len[SORT_KEY_COMM]) {
		hists->col_len[SORT_KEY_COMM] = (u16)len;
		hists->col_len[SORT_KEY_PID] = (u16)(len + 8);
	}
	if (he->key.dso)
		hists__new_col_len(hists, SORT_KEY_DSO, strlen(dso__name(hists->opts, he->key.dso)));
	hists__new_col_len(hists, SORT_KEY_CPU, 3);
	if (he->key.parent)
		hists__new_col_len(hists, SORT_KEY_PARENT, strlen(he->key.parent->name));
	if (he->key.cgroup)
		hists__new_col_len(hists, SORT_KEY_CGROUP,
				   strlen(he->key.cgroup_name ? he->key.cgroup_name : "unknown"));
	if (he->key.trace)
		hists__new_col_len(hists, SORT_KEY_TRACE, strlen(he->key.trace));
	if (he->key.srcline)
		hists__new_col_len(hists, SORT_KEY_SRCLINE, strlen(he->key.srcline));
}

int hists__output_resort(struct hists *hists, struct machine *machine)
{
	const struct hist_opts *o = hists->opts;
	u64 min_hit = (u64)((double)hists->callchain_period * (o->chain.min_percent / 100.0));
	int ret;

	hists__flush_repeats(hists);
	ret = hists__collapse(hists);
	const struct rbroot *in = hists->need_collapse ? &hists->collapsed : &hists->entries_in;

	hists->entries.node = NULL;
	/* what filters hid counts in the totals; --percentage relative takes it out again */
	hists->total_period = hists->filtered_period;
	hists->total_latency = hists->filtered_latency;
	memset(hists->col_len, 0, sizeof(hists->col_len));
	if (ret)
		return ret;
	for (struct rbnode *n = rbtree__first(in); n; n = rbtree__next(n)) {
		struct hist_entry *he = hists->need_collapse ?
					rbtree__entry(n, struct hist_entry, rb_collapsed) :
					rbtree__entry(n, struct hist_entry, rb_in);
		struct thread *t = machine ? machine__find_thread(machine, he->key.tid) : NULL;
		struct rbnode **link = &hists->entries.node, *parent = NULL;

		he->thread_comm = he->key.comm;
		if (t && t->nr_comms) {
			he->thread_comm = strset__intern(hists->strings, thread__comm_str(t, 0));
			if (!he->thread_comm)
				return -ENOMEM;
		}
		if (o->use_callchain)
			chain_root__sort(&he->callchain, &o->chain, min_hit);
		while (*link) {
			struct hist_entry *it = rbtree__entry(*link, struct hist_entry, rb_out);

			parent = *link;
			link = hists__entry_sort(hists, he, it) > 0 ? &parent->left : &parent->right;
		}
		rbtree__insert(&hists->entries, &he->rb_out, parent, link);
		hists->total_period += he->period;
		hists->total_latency += he->latency;
		hists__calc_col_len(hists, he);
	}
	return 0;
}

static const char *col_name(const struct hists *hists, int col)
{
	switch (col) {
	case HIST_COL_OVERHEAD_ACC:	return "Children";
	case HIST_COL_OVERHEAD:		return hists->opts->self_named ? "Self" : "Overhead";
	case HIST_COL_SAMPLES:		return "Samples";
	case HIST_COL_PERIOD:		return "Period";
	case HIST_COL_LATENCY:
	case HIST_COL_LATENCY_ACC:	return "Latency";
	default:			return "";
	}
}

static size_t field_width(const struct hists *hists, struct hist_field f)
{
	size_t len;

	if (f.is_key)
		return hists->col_len[f.id];
	/* upstream gives the accumulated latency no minimum width */
	len = f.id == HIST_COL_SAMPLES || f.id == HIST_COL_PERIOD ? 12 :
	      f.id == HIST_COL_LATENCY_ACC ? 0 : 8;
	if (len < strlen(col_name(hists, f.id)))
		len = strlen(col_name(hists, f.id));
	return len;
}

static void print_header(struct hists *hists, struct sbuf *sb)
{
	const struct hist_opts *o = hists->opts;
	const char *sep = o->field_sep;

	sbuf__adds(sb, "# ");
	for (unsigned int i = 0; i < o->nr_out; i++) {
		struct hist_field f = o->out[i];
		int w = (int)field_width(hists, f);

		if (i)
			sbuf__adds(sb, sep ? sep : "  ");
		/* upstream prints each header into a 1024-byte buffer: a wider one is cut */
		if (f.is_key)
			sbuf__printf(sb, "%-*.*s", w > 1023 ? 1023 : w, w, key_headers[f.id]);
		else
			sbuf__printf(sb, "%*s", w, col_name(hists, f.id));
	}
	sbuf__addc(sb, '\n');
	if (sep)
		return;
	sbuf__adds(sb, "# ");
	for (unsigned int i = 0; i < o->nr_out; i++) {
		size_t w = field_width(hists, o->out[i]);

		if (i)
			sbuf__adds(sb, "  ");
		for (size_t j = 0; j < w; j++)
			sbuf__addc(sb, '.');
	}
	sbuf__adds(sb, "\n#\n");
}

static void print_percent(struct sbuf *sb, u64 val, u64 total, int w)
{
	double percent = total ? 100.0 * (double)val / (double)total : 0.0;

	sbuf__printf(sb, " %*.2f%%", w, percent);
}

/*
 * Where a dso's symbols came from, by the letters of upstream's dso__symtab_origin(): '!'
 * for none, 'k' kallsyms, 'b' a /usr/lib/debug/.build-id file, 'B' the build-id cache,
 * 'l' a .gnu_debuglink file, 'd' the file itself.
 */
static char dso__origin(const struct dso *dso)
{
	size_t path_len, name_len;

	if (!dso || !dso->loaded || dso->load_errno)
		return '!';
	/* a kernel's from a vmlinux (-k) names the file; 'v' */
	if (dso->kind == DSO_KIND_KERNEL || dso->kind == DSO_KIND_KMODULE)
		return dso->symsrc_path ? 'v' : 'k';
	if (!dso->symsrc_path)
		return '!';
	if (strstr(dso->symsrc_path, "/usr/lib/debug/.build-id/"))
		return 'b';
	if (strstr(dso->symsrc_path, "/.debug/"))
		return 'B';
	/* the file itself is long_name under --symfs */
	path_len = strlen(dso->symsrc_path);
	name_len = strlen(dso->long_name);
	if (path_len < name_len || strcmp(dso->symsrc_path + path_len - name_len, dso->long_name))
		return 'l';
	return 'd';
}

/* one key's text, upstream's se_snprintf */
static void print_key(struct hists *hists, struct sbuf *sb, const struct hist_entry *he,
		      int key, int w)
{
	switch (key) {
	case SORT_KEY_PID: {
		int cw = (w < 7 ? 7 : w) - 8;

		sbuf__printf(sb, "%7d:%-*.*s", he->key.tid, cw, cw < 0 ? 0 : cw, he->thread_comm);
		break;
	}
	case SORT_KEY_COMM:
		sbuf__printf(sb, "%-*.*s", w, w, he->key.comm);
		break;
	case SORT_KEY_DSO:
		sbuf__printf(sb, "%-*.*s", w, w, he->key.dso ? dso__name(hists->opts, he->key.dso) : "[unknown]");
		break;
	case SORT_KEY_SYM:
		if (hists->opts->verbose) {
			u64 ip = he->key.ip;

			/* a vmlinux's kernel entries are at file offsets: perf unmaps them */
			if (he->key.dso && he->key.dso->kind == DSO_KIND_KERNEL &&
			    he->key.dso->symsrc_path)
				ip += he->key.dso->vmlinux_unmap;
			sbuf__printf(sb, "%-#*llx %c ", 18, (unsigned long long)ip,
				     dso__origin(he->key.dso));
		}
		sbuf__printf(sb, "[%c] ", he->key.level);
		/* a negative precision (a -w width under 4) prints the whole name, as printf does */
		if (he->key.sym) {
			sbuf__printf(sb, "%.*s", w - 4, he->key.sym->name);
			if (he->key.sym->inlined)
				sbuf__adds(sb, " (inlined)");
		} else
			sbuf__printf(sb, "%-#.*llx", 16, (unsigned long long)he->key.ip);
		break;
	case SORT_KEY_CPU:
		sbuf__printf(sb, "%*.*d", w, w, he->key.cpu);
		break;
	case SORT_KEY_TRACE:
		sbuf__printf(sb, "%-.*s", w, he->key.trace ? he->key.trace : "N/A");
		break;
	case SORT_KEY_SRCLINE:
		sbuf__printf(sb, "%-.*s", w, he->key.srcline ? he->key.srcline : "??:0");
		break;
	case SORT_KEY_IPC_NULL:
		sbuf__printf(sb, "%-*s", w, "-      -");
		break;
	case SORT_KEY_PARENT:
		sbuf__printf(sb, "%-*.*s", w, w, he->key.parent ? he->key.parent->name : "[other]");
		break;
	case SORT_KEY_SYMOFF:
		if (he->key.sym)
			sbuf__printf(sb, "[%c] %s+0x%llx", he->key.level, he->key.sym->name,
				     (unsigned long long)(he->key.has_sym_off ? he->key.sym_off :
							  he->key.ip - he->key.sym->start));
		else
			/* upstream sizes nothing by it: the header's width decides the digits */
			sbuf__printf(sb, "[%c] %-#.*llx", he->key.level, w - 4,
				     (unsigned long long)he->key.ip);
		break;
	case SORT_KEY_CGROUP:
		sbuf__printf(sb, "%s", !he->key.cgroup ? "N/A" :
			     he->key.cgroup_name ? he->key.cgroup_name : "unknown");
		break;
	case SORT_KEY_CGROUP_ID:
		sbuf__printf(sb, "%llu/0x%llx", (unsigned long long)he->key.cgroup_ns_dev,
			     (unsigned long long)he->key.cgroup_ns_ino);
		break;
	default:
		break;
	}
	(void)hists;
}

/*
 * Upstream prints an entry's columns into a line buffer sized by the column widths (the
 * sort list width), 3 + 1 bytes more and what it reserves for colour escapes (504 bytes,
 * measured on upstream 7.2 with one to three percentage columns): a column wider than its
 * width (a long symbol+offset) is cut there.
 */
#define HIST_LINE_SLACK	(3 + 504)

static size_t hists__line_max(const struct hists *hists)
{
	const struct hist_opts *o = hists->opts;
	size_t len = 0;

	for (unsigned int i = 0; i < o->nr_out; i++)
		len += (i ? 2 : 0) + field_width(hists, o->out[i]);
	if (o->verbose && hists->has_sym_key)
		len += 18 + 3 - 2;	/* -v: the address and origin (BITS_PER_LONG / 4 + 3) */
	return len + HIST_LINE_SLACK;
}

/* a period column of he in width w; packed (-t): no padding */
static void print_value(const struct hists *hists, struct sbuf *sb, const struct hist_entry *he,
			int col, int w, bool packed)
{
	if (packed)
		w = col == HIST_COL_SAMPLES || col == HIST_COL_PERIOD ? 2 : 3;
	if (hists->opts->acc_na && (col == HIST_COL_OVERHEAD_ACC || col == HIST_COL_LATENCY_ACC)) {
		sbuf__printf(sb, "%*s", w, "N/A");
		return;
	}
	switch (col) {
	case HIST_COL_OVERHEAD_ACC:
		print_percent(sb, he->period_acc, hists__total_period(hists), w - 2);
		break;
	case HIST_COL_OVERHEAD:
		print_percent(sb, he->period, hists__total_period(hists), w - 2);
		break;
	case HIST_COL_LATENCY_ACC:
		print_percent(sb, he->latency_acc, hists__total_latency(hists), w - 2);
		break;
	case HIST_COL_LATENCY:
		print_percent(sb, he->latency, hists__total_latency(hists), w - 2);
		break;
	case HIST_COL_SAMPLES:
		sbuf__printf(sb, " %*llu", w - 1, (unsigned long long)he->nr_events);
		break;
	case HIST_COL_PERIOD:
		sbuf__printf(sb, " %*llu", w - 1, (unsigned long long)he->period);
		break;
	default:
		break;
	}
}

static void print_entry(struct hists *hists, struct sbuf *sb, const struct hist_entry *he,
			size_t line_max)
{
	const struct hist_opts *o = hists->opts;
	const char *sep = o->field_sep;
	size_t line_start = sb->len;

	for (unsigned int i = 0; i < o->nr_out; i++) {
		struct hist_field f = o->out[i];
		int w = (int)field_width(hists, f);
		size_t start;

		if (!sep || i)
			sbuf__adds(sb, sep ? sep : "  ");
		start = sb->len;
		if (f.is_key) {
			print_key(hists, sb, he, f.id, w);
			/* -t: the separator never shows inside a field */
			for (size_t j = start; sep && j < sb->len; j++)
				if (sb->buf[j] == sep[0])
					sb->buf[j] = '.';
		} else {
			print_value(hists, sb, he, f.id, w, sep);
		}
		/* columns but the last are padded to their width */
		if (i + 1 < o->nr_out && sb->len - start < (size_t)w)
			sbuf__printf(sb, "%-*s", (int)((size_t)w - (sb->len - start)), " ");
	}
	if (sb->len - line_start > line_max)
		sb->len = line_start + line_max;
	sbuf__addc(sb, '\n');
}

/* ---- --hierarchy ---- */

#define HIERARCHY_INDENT	3
#define HIERARCHY_DOTS		207	/* measured: a 2000-character symbol column */

/* the sort keys, in --sort order: one level each */
static unsigned int hierarchy_levels(const struct hist_opts *o, int *keys)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < o->nr_out; i++)
		if (o->out[i].is_key)
			keys[n++] = o->out[i].id;
	return n;
}

/* the period columns, the first widened by the indent of the deepest level */
static void print_hierarchy_header(struct hists *hists, struct sbuf *sb, const int *keys,
				   unsigned int nr)
{
	const struct hist_opts *o = hists->opts;
	int indent = HIERARCHY_INDENT * (int)(nr - 1), w = 0;
	size_t dots = 0, start;
	bool first = true;

	sbuf__adds(sb, "# ");
	for (unsigned int i = 0; i < o->nr_out; i++) {
		int cw;

		if (o->out[i].is_key)
			continue;
		cw = (int)field_width(hists, o->out[i]) + (first ? indent : 0);
		sbuf__printf(sb, "%s%*s", first ? "" : "  ", cw, col_name(hists, o->out[i].id));
		w += cw + (first ? 0 : 2);
		first = false;
	}
	sbuf__adds(sb, "  ");
	start = sb->len;
	for (unsigned int i = 0; i < nr; i++) {
		size_t lw = hists->col_len[keys[i]] + HIERARCHY_INDENT * i;
		const char *name = key_headers[keys[i]];

		/* upstream trims the headers' leading blanks ("    Pid:Command") */
		sbuf__printf(sb, "%s%s", i ? " / " : "", name + strspn(name, " "));
		if (lw > dots)
			dots = lw;
	}
	if (sb->len - start > dots)
		dots = sb->len - start;
	/* upstream prints the dots from a string of HIERARCHY_DOTS of them */
	if (dots > HIERARCHY_DOTS)
		dots = HIERARCHY_DOTS;
	if (w > HIERARCHY_DOTS)
		w = HIERARCHY_DOTS;
	sbuf__adds(sb, "\n# ");
	for (int j = 0; j < w; j++)
		sbuf__addc(sb, '.');
	sbuf__adds(sb, "  ");
	for (size_t j = 0; j < dots; j++)
		sbuf__addc(sb, '.');
	sbuf__adds(sb, "\n#\n");
}

/* one level's node: entries[0..nr) share the keys of the levels down to this one */
struct hierarchy_group {
	struct hist_entry	**entries;	/* in upstream's input order */
	size_t			nr;
	struct hist_entry	sum;		/* the entries' periods added up */
	const struct hist_entry	*first;		/* the entry that made the node */
	struct rbnode		rb_collapse, rb_out;
};

struct hierarchy_sort {
	const struct hist_opts	*o;
	int			key;
};

/* hist_entry__sort() of two nodes: < 0 when l comes first */
static int hierarchy_output_cmp(const struct hierarchy_sort *ctx,
				const struct hierarchy_group *l, const struct hierarchy_group *r)
{
	int ret = 0;

	/* the period columns in sort order, then the level's key */
	for (unsigned int i = 0; i < ctx->o->nr_sort && !ret; i++) {
		if (ctx->o->sort[i].is_key)
			continue;
		switch (ctx->o->sort[i].id) {
		case HIST_COL_LATENCY:
			ret = field_cmp(r->sum.latency, l->sum.latency);
			break;
		case HIST_COL_LATENCY_ACC:
			if (!ctx->o->acc_na)
				ret = field_cmp(r->sum.latency_acc, l->sum.latency_acc);
			break;
		case HIST_COL_OVERHEAD_ACC:
			if (!ctx->o->acc_na)
				ret = field_cmp(r->sum.period_acc, l->sum.period_acc);
			break;
		case HIST_COL_SAMPLES:
			ret = field_cmp(r->sum.nr_events, l->sum.nr_events);
			break;
		default:
			ret = field_cmp(r->sum.period, l->sum.period);
			break;
		}
	}
	if (ret)
		return ret;
	return -key_cmp(ctx->o, ctx->key, &l->first->key, &r->first->key, true);
}

/* a leaf's callchains: its entries' merged, by address (chain_root__merge() leaves them unresolved) */
static int print_hierarchy_chain(struct hists *hists, struct sbuf *sb,
				 const struct hierarchy_group *grp)
{
	const struct hist_opts *o = hists->opts;
	u64 min_hit = (u64)((double)hists->callchain_period * (o->chain.min_percent / 100.0));
	struct chain_root root;
	int ret = 0;

	chain_root__init(&root, o->chain.key);
	for (size_t i = 0; i < grp->nr && !ret; i++)
		if (grp->entries[i]->has_callchain)
			ret = chain_root__merge(&root, &grp->entries[i]->callchain);
	if (!ret) {
		chain_root__sort(&root, &o->chain, min_hit);
		chain_root__print(&root, &o->chain, sb, hists__total_period(hists),
				  o->children ? grp->sum.period_acc : grp->sum.period, false,
				  o->field_sep);
	}
	chain_root__exit(&root);
	return ret;
}

/*
 * Upstream builds each level as two red-black trees: the nodes, made by inserting the
 * entries in input order under the level's key, then the output order, made by inserting
 * those nodes in that tree's order. Where the key comparison is no total order
 * (unresolved garbage addresses) only the same trees give the same order: so we build them.
 */
static int print_hierarchy_level(struct hists *hists, struct sbuf *sb, struct hist_entry **he,
				 size_t nr, const int *keys, unsigned int nr_keys,
				 unsigned int level)
{
	const struct hist_opts *o = hists->opts;
	struct hierarchy_sort ctx = { .o = o, .key = keys[level] };
	struct rbroot nodes = { NULL }, out = { NULL };
	struct hierarchy_group *groups;
	struct hist_entry **sorted;
	size_t nr_groups = 0, *group_of, off = 0;
	int ret = -ENOMEM;

	groups = calloc(nr, sizeof(*groups));
	group_of = malloc(nr * sizeof(*group_of));
	sorted = malloc(nr * sizeof(*sorted));
	if (!groups || !group_of || !sorted)
		goto out_free;
	for (size_t i = 0; i < nr; i++) {
		struct rbnode **link = &nodes.node, *parent = NULL;
		struct hierarchy_group *grp = NULL;

		while (*link) {
			struct hierarchy_group *it = rbtree__entry(*link, struct hierarchy_group,
								   rb_collapse);
			int cmp = key_cmp(o, ctx.key, &it->first->key, &he[i]->key, false);

			if (!cmp) {
				grp = it;
				break;
			}
			parent = *link;
			link = cmp < 0 ? &parent->left : &parent->right;
		}
		if (!grp) {
			grp = &groups[nr_groups++];
			grp->first = he[i];
			rbtree__insert(&nodes, &grp->rb_collapse, parent, link);
		}
		group_of[i] = (size_t)(grp - groups);
		grp->nr++;
		grp->sum.period += he[i]->period;
		grp->sum.latency += he[i]->latency;
		grp->sum.nr_events += he[i]->nr_events;
	}
	for (size_t g = 0; g < nr_groups; g++) {
		groups[g].entries = sorted + off;
		off += groups[g].nr;
		groups[g].nr = 0;
		/*
		 * Children mode: upstream's node takes its accumulated period from the entry
		 * that made it, and that entry's own period only (callees' periods are not
		 * carried into the hierarchy, nor are the later entries'): so do we.
		 */
		groups[g].sum.period_acc = groups[g].first->period;
		groups[g].sum.latency_acc = groups[g].first->latency;
		groups[g].sum.nr_events_acc = groups[g].first->nr_events;
	}
	for (size_t i = 0; i < nr; i++) {
		struct hierarchy_group *grp = &groups[group_of[i]];

		grp->entries[grp->nr++] = he[i];
	}
	for (struct rbnode *n = rbtree__first(&nodes); n; n = rbtree__next(n)) {
		struct hierarchy_group *grp = rbtree__entry(n, struct hierarchy_group, rb_collapse);
		struct rbnode **link = &out.node, *parent = NULL;

		while (*link) {
			const struct hierarchy_group *it = rbtree__entry(*link, struct hierarchy_group,
									 rb_out);

			parent = *link;
			link = hierarchy_output_cmp(&ctx, grp, it) < 0 ? &parent->left : &parent->right;
		}
		rbtree__insert(&out, &grp->rb_out, parent, link);
	}
	ret = 0;
	for (struct rbnode *n = rbtree__first(&out); n && !ret; n = rbtree__next(n)) {
		const struct hierarchy_group *grp = rbtree__entry(n, struct hierarchy_group, rb_out);
		const struct hist_entry *first = grp->first;
		int pad = HIERARCHY_INDENT * (int)(nr_keys - 1);
		size_t start, lead;
		/* the level's indent first, the columns, then the indent all levels have */
		sbuf__printf(sb, "%*s", HIERARCHY_INDENT * (int)level, "");
		for (unsigned int i = 0; i < o->nr_out; i++) {
			if (o->out[i].is_key)
				continue;
			sbuf__adds(sb, "  ");
			print_value(hists, sb, &grp->sum, o->out[i].id,
				    (int)field_width(hists, o->out[i]), false);
		}
		sbuf__printf(sb, "%*s  ", pad, "");
		start = sb->len;
		print_key(hists, sb, first, ctx.key, hists->col_len[ctx.key]);
		if (level + 1 < nr_keys && sb->len - start < hists->col_len[ctx.key])
			sbuf__printf(sb, "%*s", (int)(hists->col_len[ctx.key] - (sb->len - start)), "");
		/* upstream trims the leading blanks of the padded text ("   4880:ls") */
		for (lead = start; lead < sb->len && sb->buf[lead] == ' '; lead++)
			;
		memmove(sb->buf + start, sb->buf + lead, sb->len - lead);
		sb->len -= lead - start;
		sbuf__addc(sb, '\n');
		if (level + 1 < nr_keys)
			ret = print_hierarchy_level(hists, sb, grp->entries, grp->nr, keys, nr_keys,
						    level + 1);
		else if (o->use_callchain && o->chain.mode != CHAIN_NONE)
			ret = print_hierarchy_chain(hists, sb, grp);
	}
out_free:
	free(sorted);
	free(group_of);
	free(groups);
	return ret;
}

static int hists__fprintf_hierarchy(struct hists *hists, FILE *fp)
{
	const struct hist_opts *o = hists->opts;
	int keys[HIST_MAX_FIELDS];
	unsigned int nr_keys = hierarchy_levels(o, keys);
	const struct rbroot *in = hists->need_collapse ? &hists->collapsed : &hists->entries_in;
	struct hist_entry **he;
	size_t nr = 0;
	struct sbuf sb;
	int ret;

	he = malloc((hists->nr_entries + 1) * sizeof(*he));
	if (!he)
		return -ENOMEM;
	/* upstream's input order: its tree of entries as they came */
	for (struct rbnode *n = rbtree__first(in); n; n = rbtree__next(n))
		he[nr++] = hists->need_collapse ? rbtree__entry(n, struct hist_entry, rb_collapsed) :
						  rbtree__entry(n, struct hist_entry, rb_in);
	sbuf__init(&sb);
	if (o->show_header)
		print_hierarchy_header(hists, &sb, keys, nr_keys);
	ret = nr && nr_keys ? print_hierarchy_level(hists, &sb, he, nr, keys, nr_keys, 0) : 0;
	if (!ret)
		ret = sbuf__flush(&sb, fp);
	sbuf__exit(&sb);
	free(he);
	return ret;
}

int hists__fprintf(struct hists *hists, FILE *fp)
{
	const struct hist_opts *o = hists->opts;
	size_t line_max;
	struct sbuf sb;
	int ret = 0;

	/* a column is never narrower than its header */
	for (unsigned int i = 0; i < o->nr_out; i++)
		if (o->out[i].is_key)
			hists__new_col_len(hists, o->out[i].id, strlen(key_headers[o->out[i].id]));
	if (o->hierarchy)
		return hists__fprintf_hierarchy(hists, fp);
	line_max = hists__line_max(hists);
	sbuf__init(&sb);
	if (o->show_header)
		print_header(hists, &sb);
	for (struct rbnode *n = rbtree__first(&hists->entries); n; n = rbtree__next(n)) {
		const struct hist_entry *he = rbtree__entry(n, struct hist_entry, rb_out);
		u64 period = o->children ? he->period_acc : he->period;
		u64 total = hists__total_period(hists);
		float percent = total ? (float)((double)period * 100.0 / (double)total) : 0;

		if (percent < (float)o->min_percent)
			continue;
		print_entry(hists, &sb, he, line_max);
		if (o->use_callchain && o->chain.mode != CHAIN_NONE)
			chain_root__print(&he->callchain, &o->chain, &sb, total,
					  period, o->skip_first_frame, o->field_sep);
		if (sb.len > (1 << 16)) {
			ret = sbuf__flush(&sb, fp);
			if (ret)
				break;
		}
	}
	if (!ret)
		ret = sbuf__flush(&sb, fp);
	sbuf__exit(&sb);
	return ret;
}
