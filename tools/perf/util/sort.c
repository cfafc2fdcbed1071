// SPDX-License-Identifier: GPL-2.0
/*
 * sort.c - perf report's sort keys: --sort / --fields parsed into columns and sort steps,
 * and the comparisons of entries by them.
 *
 * Comparisons follow upstream's sort functions one for one, including their argument order
 * (most compare right against left) and where a missing dso or symbol sorts: the entry
 * order, and the order of ties, is part of the byte-exact output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "hist-internal.h"
#include "sort.h"
#include "symbol.h"

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
	{ "typeoff", -1 }, { "symoff", SORT_KEY_SYMOFF }, { "typecln", -1 },
	{ "parallelism", SORT_KEY_PARALLELISM },
	{ "tgid", -1 },
};

struct col_dim {
	const char	*name;
	int		col;		/* enum hist_column, -1: not here */
};

static const struct col_dim col_dims[] = {
	{ "overhead", HIST_COL_OVERHEAD }, { "latency", HIST_COL_LATENCY }, { "overhead_sys", HIST_COL_OVERHEAD_SYS },
	{ "overhead_us", HIST_COL_OVERHEAD_US }, { "overhead_guest_sys", -1 }, { "overhead_guest_us", -1 },
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
	o->dso_sort_key = false;
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
		o->dso_sort_key = fields_have(o->sort, o->nr_sort,
					      (struct hist_field){ .is_key = true, .id = SORT_KEY_DSO });
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
		if (o->cpu_util) {
			o->out[o->nr_out++] = (struct hist_field){ false, HIST_COL_OVERHEAD_SYS };
			o->out[o->nr_out++] = (struct hist_field){ false, HIST_COL_OVERHEAD_US };
		}
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
	return strcmp(hist_opts__dso_name(o, r->dso), hist_opts__dso_name(o, l->dso));
}

static int sym_cmp(const struct hist_opts *o, const struct hist_key *l, const struct hist_key *r)
{
	const struct symbol *sl = l->sym, *sr = r->sym;
	int ret;

	if (!sl && !sr)
		return sign64((s64)(r->ip - l->ip));
	ret = o->dso_sort_key ? 0 : dso_cmp(o, l, r);
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
int hist_key__cmp(const struct hist_opts *o, int key, const struct hist_key *l,
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
	case SORT_KEY_PARALLELISM:
		return sign64((s64)r->parallelism - (s64)l->parallelism);
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

int hist_key__collapse(const struct hist_opts *o, int key, const struct hist_key *l,
		       const struct hist_key *r)
{
	return key == SORT_KEY_SRCLINE ? srcline_cmp(l, r) : hist_key__cmp(o, key, l, r, false);
}

/*
 * hist_entry__cmp (collapse false): the identity of an entry in entries_in;
 * hist_entry__collapse (true): the keys with a collapse function of their own (srcline)
 * compare by it, when the collapse merges entries
 */
int hists__key_cmp_mode(const struct hists *hists, const struct hist_key *l,
			       const struct hist_key *r, bool collapse)
{
	const struct hist_opts *o = hists->opts;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		int ret;

		if (!o->sort[i].is_key)
			continue;
		if (collapse)
			ret = hist_key__collapse(o, o->sort[i].id, l, r);
		else
			ret = hist_key__cmp(o, o->sort[i].id, l, r, false);
		if (ret)
			return ret;
	}
	return 0;
}

int hists__key_cmp(const struct hists *hists, const struct hist_key *l,
			  const struct hist_key *r)
{
	return hists__key_cmp_mode(hists, l, r, false);
}

/*
 * hist_entry__sort: the output order. Equal accumulated periods put the caller first when
 * both come from one thread (the deeper callchain), as upstream does.
 */
int hists__entry_sort(const struct hists *hists, const struct hist_entry *a,
			     const struct hist_entry *b)
{
	const struct hist_opts *o = hists->opts;

	for (unsigned int i = 0; i < o->nr_sort; i++) {
		int ret = 0;

		if (o->sort[i].is_key) {
			ret = hist_key__cmp(o, o->sort[i].id, &a->key, &b->key, true);
		} else {
			switch (o->sort[i].id) {
			case HIST_COL_OVERHEAD_ACC:
			case HIST_COL_LATENCY_ACC:
				if (!o->children)
					break;
				if (o->sort[i].id == HIST_COL_LATENCY_ACC)
					ret = hist_u64_cmp(a->latency_acc, b->latency_acc);
				else
					ret = hist_u64_cmp(a->period_acc, b->period_acc);
				if (ret || a->key.tid != b->key.tid || a->key.pid != b->key.pid ||
				    !a->has_callchain || !o->use_callchain)
					break;
				ret = (int)b->callchain.max_depth - (int)a->callchain.max_depth;
				if (o->chain.order == ORDER_CALLER)
					ret = -ret;
				break;
			case HIST_COL_OVERHEAD:
			case HIST_COL_PERIOD:
				ret = hist_u64_cmp(a->period, b->period);
				break;
			case HIST_COL_SAMPLES:
				ret = hist_u64_cmp(a->nr_events, b->nr_events);
				break;
			case HIST_COL_LATENCY:
				ret = hist_u64_cmp(a->latency, b->latency);
				break;
			case HIST_COL_OVERHEAD_SYS:
				ret = hist_u64_cmp(a->period_sys, b->period_sys);
				break;
			case HIST_COL_OVERHEAD_US:
				ret = hist_u64_cmp(a->period_us, b->period_us);
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
