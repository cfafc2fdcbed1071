// SPDX-License-Identifier: GPL-2.0
/*
 * hist-output.c - perf report's stdio table: column widths, the header, each entry's
 * columns and callchains, and the --hierarchy form, as upstream perf 7.2 prints them.
 * The entry and callchain lines are formatted by one function each, for --stdio and for
 * the interactive browser (ui/browser-hists.c), which shows the same lines.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"
#include "hist-internal.h"
#include "hist-output.h"
#include "symbol.h"

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
	[SORT_KEY_PARALLELISM]	= "Parallelism",
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
void hists__calc_col_len(struct hists *hists, const struct hist_entry *he)
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
		hists__new_col_len(hists, SORT_KEY_DSO, strlen(hist_opts__dso_name(hists->opts, he->key.dso)));
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

static const char *col_name(const struct hists *hists, int col)
{
	switch (col) {
	case HIST_COL_OVERHEAD_ACC:	return "Children";
	case HIST_COL_OVERHEAD:		return hists->opts->self_named ? "Self" : "Overhead";
	case HIST_COL_SAMPLES:		return "Samples";
	case HIST_COL_PERIOD:		return "Period";
	case HIST_COL_LATENCY:
	case HIST_COL_LATENCY_ACC:	return "Latency";
	case HIST_COL_OVERHEAD_SYS:	return "sys";
	case HIST_COL_OVERHEAD_US:	return "usr";
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

void hists__format_header(struct hists *hists, struct sbuf *sb)
{
	const struct hist_opts *o = hists->opts;
	const char *sep = o->field_sep;

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
}

static void print_header(struct hists *hists, struct sbuf *sb)
{
	const struct hist_opts *o = hists->opts;

	sbuf__adds(sb, "# ");
	hists__format_header(hists, sb);
	sbuf__addc(sb, '\n');
	if (o->field_sep)
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

/* where a dso's symbols came from, as upstream's dso__symtab_origin() says it ('!': none) */
static char dso__origin(const struct dso *dso)
{
	if (!dso || !dso->loaded || dso->load_errno)
		return '!';
	/* a kernel's from a vmlinux (-k) names the file; 'v' */
	if (dso->kind == DSO_KIND_KERNEL || dso->kind == DSO_KIND_KMODULE)
		return dso->symsrc_path ? 'v' : 'k';
	return dso->symsrc_path && dso->symsrc_origin ? dso->symsrc_origin : '!';
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
		sbuf__printf(sb, "%-*.*s", w, w, he->key.dso ? hist_opts__dso_name(hists->opts, he->key.dso) : "[unknown]");
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
	case SORT_KEY_PARALLELISM:
		sbuf__printf(sb, "%*d", w, he->key.parallelism);
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
	case HIST_COL_OVERHEAD_SYS:
		print_percent(sb, he->period_sys, hists__total_period(hists), w - 2);
		break;
	case HIST_COL_OVERHEAD_US:
		print_percent(sb, he->period_us, hists__total_period(hists), w - 2);
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

void hists__format_entry(struct hists *hists, const struct hist_entry *he, struct sbuf *sb)
{
	const struct hist_opts *o = hists->opts;
	const char *sep = o->field_sep;
	size_t line_start = sb->len, line_max = hists__line_max(hists);

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
}

/* the period --percent-limit and the callchain's percentages are of */
static u64 hist_entry__shown_period(const struct hists *hists, const struct hist_entry *he)
{
	return hists->opts->children ? he->period_acc : he->period;
}

static bool hists__entry_shown(const struct hists *hists, const struct hist_entry *he)
{
	u64 total = hists__total_period(hists), period = hist_entry__shown_period(hists, he);
	float percent = total ? (float)((double)period * 100.0 / (double)total) : 0;

	return percent >= (float)hists->opts->min_percent;
}

static const struct hist_entry *hists__shown_from(const struct hists *hists,
						  const struct rbnode *n)
{
	for (; n; n = rbtree__next(n)) {
		const struct hist_entry *he = rbtree__entry(n, struct hist_entry, rb_out);

		if (hists__entry_shown(hists, he))
			return he;
	}
	return NULL;
}

const struct hist_entry *hists__first_entry(const struct hists *hists)
{
	return hists__shown_from(hists, rbtree__first(&hists->entries));
}

const struct hist_entry *hists__next_entry(const struct hists *hists,
					   const struct hist_entry *he)
{
	return hists__shown_from(hists, rbtree__next(&he->rb_out));
}

void hists__format_callchain(struct hists *hists, const struct hist_entry *he, struct sbuf *sb,
			     struct chain_lines *lines)
{
	const struct hist_opts *o = hists->opts;

	if (!o->use_callchain || o->chain.mode == CHAIN_NONE)
		return;
	chain_root__print(&he->callchain, &o->chain, sb, hists__chain_total(hists),
			  hist_entry__shown_period(hists, he), o->skip_first_frame, o->field_sep,
			  lines);
}

void hists__entry_ids(const struct hists *hists, const struct hist_entry *he,
		      struct hist_entry_ids *ids)
{
	*ids = (struct hist_entry_ids){
		.comm = he->key.comm,
		.thread_comm = he->thread_comm ? he->thread_comm : he->key.comm,
		.tid = he->key.tid,
		.dso = he->key.dso ? hist_opts__dso_name(hists->opts, he->key.dso) : NULL,
		.dso_short = he->key.dso ? he->key.dso->short_name : NULL,
		.sym = he->key.sym ? he->key.sym->name : NULL,
		.ip = he->key.ip,
	};
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

/*
 * hist_entry__sort() of two nodes: < 0 when l comes first. As upstream, every sort key
 * counts, not only the level's: nodes whose own key ties (two unresolved addresses) are
 * ordered by the other keys of the entries that made them (-s sym,dso: their DSOs).
 */
static int hierarchy_output_cmp(const struct hierarchy_sort *ctx,
				const struct hierarchy_group *l, const struct hierarchy_group *r)
{
	int ret = 0;

	for (unsigned int i = 0; i < ctx->o->nr_sort && !ret; i++) {
		if (ctx->o->sort[i].is_key) {
			ret = -hist_key__cmp(ctx->o, ctx->o->sort[i].id, &l->first->key,
					     &r->first->key, true);
			continue;
		}
		switch (ctx->o->sort[i].id) {
		case HIST_COL_LATENCY:
			ret = hist_u64_cmp(r->sum.latency, l->sum.latency);
			break;
		case HIST_COL_LATENCY_ACC:
			if (!ctx->o->acc_na)
				ret = hist_u64_cmp(r->sum.latency_acc, l->sum.latency_acc);
			break;
		case HIST_COL_OVERHEAD_ACC:
			if (!ctx->o->acc_na)
				ret = hist_u64_cmp(r->sum.period_acc, l->sum.period_acc);
			break;
		case HIST_COL_SAMPLES:
			ret = hist_u64_cmp(r->sum.nr_events, l->sum.nr_events);
			break;
		case HIST_COL_OVERHEAD_SYS:
			ret = hist_u64_cmp(r->sum.period_sys, l->sum.period_sys);
			break;
		case HIST_COL_OVERHEAD_US:
			ret = hist_u64_cmp(r->sum.period_us, l->sum.period_us);
			break;
		default:
			ret = hist_u64_cmp(r->sum.period, l->sum.period);
			break;
		}
	}
	return ret;
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
		chain_root__print(&root, &o->chain, sb, hists__chain_total(hists),
				  o->children ? grp->sum.period_acc : grp->sum.period,
				  o->skip_first_frame, o->field_sep, NULL);
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
			/* a level's node gathers its entries as upstream's collapse does */
			int cmp = hist_key__collapse(o, ctx.key, &it->first->key, &he[i]->key);

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
		grp->sum.period_sys += he[i]->period_sys;
		grp->sum.period_us += he[i]->period_us;
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
		/* upstream pads a level's text to its column, but for the keys it prints bare */
		if (level + 1 < nr_keys && sb->len - start < hists->col_len[ctx.key] &&
		    ctx.key != SORT_KEY_SYM && ctx.key != SORT_KEY_SRCLINE &&
		    ctx.key != SORT_KEY_TRACE)
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
	struct hist_entry **he;
	size_t nr = 0;
	struct sbuf sb;
	int ret;

	he = malloc((hists->nr_entries + 1) * sizeof(*he));
	if (!he)
		return -ENOMEM;
	/*
	 * upstream's input order: its tree of entries as they came, whose entries its hierarchy
	 * takes one by one (that is its collapse). Not our collapsed tree: where the keys are no
	 * total order (unresolved addresses beside symbols) its order is another. An entry the
	 * collapse merged into one before it (which holds its period) would land in that one's
	 * nodes: left out.
	 */
	for (struct rbnode *n = rbtree__first(&hists->entries_in); n; n = rbtree__next(n)) {
		struct hist_entry *e = rbtree__entry(n, struct hist_entry, rb_in);

		if (!e->merged)
			he[nr++] = e;
	}
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

void hists__calc_header_len(struct hists *hists)
{
	const struct hist_opts *o = hists->opts;

	/* a column is never narrower than its header */
	for (unsigned int i = 0; i < o->nr_out; i++)
		if (o->out[i].is_key)
			hists__new_col_len(hists, o->out[i].id, strlen(key_headers[o->out[i].id]));
}

int hists__fprintf(struct hists *hists, FILE *fp)
{
	const struct hist_opts *o = hists->opts;
	struct sbuf sb;
	int ret = 0;

	/* hists__output_resort() did it, unless the event has no samples */
	hists__calc_header_len(hists);
	if (o->hierarchy)
		return hists__fprintf_hierarchy(hists, fp);
	sbuf__init(&sb);
	if (o->show_header)
		print_header(hists, &sb);
	for (const struct hist_entry *he = hists__first_entry(hists); he;
	     he = hists__next_entry(hists, he)) {
		hists__format_entry(hists, he, &sb);
		sbuf__addc(&sb, '\n');
		hists__format_callchain(hists, he, &sb, NULL);
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
