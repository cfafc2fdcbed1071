// SPDX-License-Identifier: GPL-2.0
/*
 * report-callchain.c - callchain trees of perf report: merge, prune/sort, print.
 *
 * Layout of a tree after appending [a b c], [a b d] and [a e] (graph order):
 *
 *	root (no frames)
 *	 `- node {a}            children_hit = 3 periods
 *	     |- node {b}        children_hit = 2
 *	     |   |- node {c}    hit = 1
 *	     |   `- node {d}    hit = 1
 *	     `- node {e}        hit = 1
 *
 * A node is created holding the whole rest of a chain ({b c} after the first append) and
 * split when a later chain diverges inside it ({b} keeps the shared part, {c} inherits the
 * old node's children and counts).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "dso.h"
#include "report-callchain.h"
#include "symbol.h"

/* ---- parameters ---- */

void chain_params__init(struct chain_params *p)
{
	*p = (struct chain_params){
		.mode		= CHAIN_GRAPH_ABS,
		.order		= ORDER_CALLEE,
		.value		= CCVAL_PERCENT,
		.min_percent	= 0.5,
	};
}

/* upstream matches a token against a word's prefix: "f" is flat, "fo" folded */
static bool word_prefix(const char *tok, const char *word)
{
	return !strncmp(tok, word, strlen(tok));
}

static bool parse_mode(struct chain_params *p, const char *tok)
{
	static const struct { const char *word; enum chain_mode mode; } modes[] = {
		{ "graph", CHAIN_GRAPH_ABS }, { "flat", CHAIN_FLAT },
		{ "fractal", CHAIN_GRAPH_REL }, { "folded", CHAIN_FOLDED },
	};

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if (word_prefix(tok, modes[i].word)) {
			p->mode = modes[i].mode;
			return true;
		}
	}
	return false;
}

static bool parse_order(struct chain_params *p, const char *tok)
{
	if (word_prefix(tok, "caller"))
		p->order = ORDER_CALLER;
	else if (word_prefix(tok, "callee"))
		p->order = ORDER_CALLEE;
	else
		return false;
	p->order_set = true;
	return true;
}

static bool parse_value(struct chain_params *p, const char *tok)
{
	if (word_prefix(tok, "percent"))
		p->value = CCVAL_PERCENT;
	else if (word_prefix(tok, "period"))
		p->value = CCVAL_PERIOD;
	else if (word_prefix(tok, "count"))
		p->value = CCVAL_COUNT;
	else
		return false;
	return true;
}

static bool parse_key(struct chain_params *p, const char *tok)
{
	if (word_prefix(tok, "function"))
		p->key = CCKEY_FUNCTION;
	else if (word_prefix(tok, "address"))
		p->key = CCKEY_ADDRESS;
	else if (word_prefix(tok, "srcline"))
		p->key = CCKEY_SRCLINE;
	else
		return false;
	return true;
}

int chain_params__parse(struct chain_params *p, const char *arg, struct perf_err *err)
{
	bool threshold_set = false;
	char *copy, *tok, *save = NULL;
	int ret = 0;

	p->enabled = true;
	if (!arg)
		return 0;
	copy = strdup(arg);
	if (!copy)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (word_prefix(tok, "none")) {
			p->mode = CHAIN_NONE;
			p->enabled = false;
			goto out;
		}
		if (parse_mode(p, tok) || parse_order(p, tok) || parse_value(p, tok) ||
		    parse_key(p, tok))
			continue;
		if (word_prefix(tok, "branch")) {
			ret = perf_err__set(err, EINVAL,
					    "callchain sort key '%s' is not supported", tok);
			goto out;
		}
		if (!threshold_set) {
			p->min_percent = strtod(tok, &end);
			threshold_set = true;
		} else {
			p->print_limit = (unsigned int)strtoul(tok, &end, 0);
		}
		if (end == tok) {
			ret = perf_err__set(err, EINVAL, "invalid callchain option '%s' in '%s'", tok, arg);
			goto out;
		}
	}
out:
	free(copy);
	return ret;
}

/* ---- building ---- */

void chain_root__init(struct chain_root *root, enum chain_key key)
{
	memset(root, 0, sizeof(*root));
	root->key = key;
}

/* post-order over the sibling tree: nothing is read after it was freed */
static void free_siblings(struct rbnode *n)
{
	struct chain_node *child;

	if (!n)
		return;
	free_siblings(n->left);
	free_siblings(n->right);
	child = rbtree__entry(n, struct chain_node, rb_in);
	free_siblings(child->children_in.node);
	free(child->val);
	free(child);
}

void chain_root__exit(struct chain_root *root)
{
	free_siblings(root->node.children_in.node);
	chain_root__init(root, root->key);
}

/* a chain being appended: frames[pos..nr) are still to place */
struct chain_cursor {
	const struct chain_frame	*frames;
	enum chain_key			key;
	u32				pos, nr;
	u64				period;
	struct chain_node		*end;		/* where the chain ended up */
	bool				reshaped;	/* a node was added or split */
};

enum match_result {
	MATCH_EQ,
	MATCH_LT,	/* the tree's frame sorts before the new one */
	MATCH_GT,
};

static enum match_result str_match(const char *l, const char *r)
{
	int cmp = strcmp(l, r);

	return !cmp ? MATCH_EQ : cmp < 0 ? MATCH_LT : MATCH_GT;
}

/*
 * Frames are the same entry when they are the same function of the same dso, or, when
 * either is unresolved, the same address in the same dso (upstream's "function" key).
 * dsos compare by creation rank, as upstream compares their addresses. The "srcline" key
 * compares the lines' texts where either frame has one, the "address" key addresses only.
 */
static enum match_result chain_frame__match(const struct chain_frame *existing,
					    const struct chain_frame *new, enum chain_key key)
{
	u64 l, r;

	if (key == CCKEY_SRCLINE && (existing->srcline || new->srcline)) {
		if (!existing->srcline || !new->srcline)
			return existing->srcline ? MATCH_LT : MATCH_GT;
		return str_match(existing->srcline, new->srcline);
	}
	/* inlined functions share their frame symbol's start: upstream compares their names */
	if (key != CCKEY_ADDRESS && existing->sym && new->sym &&
	    (existing->sym->inlined || new->sym->inlined))
		return str_match(existing->sym->name, new->sym->name);
	if (existing->dso_order != new->dso_order)
		return existing->dso_order < new->dso_order ? MATCH_LT : MATCH_GT;
	if (key != CCKEY_ADDRESS && existing->sym && new->sym) {
		l = existing->sym->start;
		r = new->sym->start;
	} else {
		l = existing->ip;
		r = new->ip;
	}
	if (l != r)
		return l < r ? MATCH_LT : MATCH_GT;
	return MATCH_EQ;
}

static u64 chain_node__cumul_hit(const struct chain_node *node)
{
	return node->hit + node->children_hit;
}

static u64 chain_node__cumul_count(const struct chain_node *node)
{
	return node->count + node->children_count;
}

/* a new node holding the rest of the cursor */
static struct chain_node *chain_node__add_child(struct chain_node *parent, struct chain_cursor *c)
{
	struct chain_node *new = calloc(1, sizeof(*new));

	if (!new)
		return NULL;
	new->val_nr = c->nr - c->pos;
	new->val = malloc(new->val_nr * sizeof(*new->val));
	if (!new->val) {
		free(new);
		return NULL;
	}
	memcpy(new->val, c->frames + c->pos, new->val_nr * sizeof(*new->val));
	new->parent = parent;
	new->hit = c->period;
	new->count = 1;
	c->pos = c->nr;
	c->end = new;
	c->reshaped = true;
	return new;
}

static void reparent_all(struct rbnode *n, struct chain_node *parent)
{
	for (; n; n = n->right) {
		rbtree__entry(n, struct chain_node, rb_in)->parent = parent;
		reparent_all(n->left, parent);
	}
}

/*
 * The cursor matched node->val[0..at) and then diverged (or ended): node keeps the shared
 * frames, a new first child takes the rest with node's children and counts, and the rest of
 * the cursor (if any) becomes a second child.
 */
static int chain_node__split(struct chain_node *node, struct chain_cursor *c, u32 at)
{
	struct chain_node *tail = calloc(1, sizeof(*tail)), *branch;

	if (!tail)
		return -ENOMEM;
	tail->val_nr = node->val_nr - at;
	tail->val = malloc(tail->val_nr * sizeof(*tail->val));
	if (!tail->val) {
		free(tail);
		return -ENOMEM;
	}
	memcpy(tail->val, node->val + at, tail->val_nr * sizeof(*tail->val));

	if (c->pos < c->nr) {
		branch = chain_node__add_child(node, &(struct chain_cursor){
			.frames = c->frames, .key = c->key, .pos = c->pos, .nr = c->nr,
			.period = c->period });
		if (!branch) {
			free(tail->val);
			free(tail);
			return -ENOMEM;
		}
	} else {
		branch = NULL;
	}

	/* nothing can fail from here on: the tree changes in one go */
	node->val_nr = at;
	tail->children_in = node->children_in;
	reparent_all(tail->children_in.node, tail);
	node->children_in.node = NULL;
	tail->parent = node;
	tail->hit = node->hit;
	tail->children_hit = node->children_hit;
	tail->count = node->count;
	tail->children_count = node->children_count;
	node->children_hit = chain_node__cumul_hit(tail);
	node->children_count = chain_node__cumul_count(tail);
	rbtree__insert(&node->children_in, &tail->rb_in, NULL, &node->children_in.node);

	if (branch) {
		struct rbnode *p = node->children_in.node;
		enum match_result m = chain_frame__match(&tail->val[0], &c->frames[c->pos], c->key);

		node->hit = 0;
		node->count = 0;
		node->children_hit += c->period;
		node->children_count += 1;
		c->pos = c->nr;
		c->end = branch;
		rbtree__insert(&node->children_in, &branch->rb_in, p,
			       m == MATCH_LT ? &p->left : &p->right);
	} else {
		node->hit = c->period;
		node->count = 1;
		c->end = node;
	}
	c->reshaped = true;
	return 0;
}

static int chain_node__append_children(struct chain_node *node, struct chain_cursor *c);

/*
 * Try the cursor against node: MATCH_LT/GT when even its first frame differs (the caller
 * descends the sibling tree), else the cursor is merged here or below and MATCH_EQ comes
 * back. A negative errno on allocation failure.
 */
static int chain_node__append(struct chain_node *node, struct chain_cursor *c)
{
	u32 start = c->pos, matched;
	enum match_result m = MATCH_EQ;
	int ret;

	for (matched = 0; matched < node->val_nr && c->pos < c->nr; matched++) {
		m = chain_frame__match(&node->val[matched], &c->frames[c->pos], c->key);
		if (m != MATCH_EQ)
			break;
		c->pos++;
	}
	if (!matched)
		return m;
	if (matched < node->val_nr) {
		ret = chain_node__split(node, c, matched);
		if (ret)
			c->pos = start;
		return ret ? ret : MATCH_EQ;
	}
	if (c->pos == c->nr) {
		node->hit += c->period;
		node->count++;
		c->end = node;
		return MATCH_EQ;
	}
	ret = chain_node__append_children(node, c);
	if (ret)
		c->pos = start;
	return ret ? ret : MATCH_EQ;
}

static int chain_node__append_children(struct chain_node *node, struct chain_cursor *c)
{
	struct rbnode **link = &node->children_in.node, *parent = NULL;
	struct chain_node *child;

	while (*link) {
		int ret;

		parent = *link;
		child = rbtree__entry(parent, struct chain_node, rb_in);
		ret = chain_node__append(child, c);
		if (ret < 0)
			return ret;
		if (ret == MATCH_EQ)
			goto inc_children;
		link = ret == MATCH_LT ? &parent->left : &parent->right;
	}
	child = chain_node__add_child(node, c);
	if (!child)
		return -ENOMEM;
	rbtree__insert(&node->children_in, &child->rb_in, parent, link);
inc_children:
	node->children_hit += c->period;
	node->children_count++;
	return 0;
}

int chain_root__append(struct chain_root *root, const struct chain_frame *frames, u32 nr,
		       u64 period, struct chain_node **end)
{
	struct chain_cursor c = {
		.frames = frames, .key = root->key, .pos = 0, .nr = nr, .period = period,
	};
	int ret;

	if (end)
		*end = NULL;
	if (!nr)
		return 0;
	ret = chain_node__append_children(&root->node, &c);
	if (c.reshaped)
		root->shape_gen++;
	if (ret)
		return ret;
	if (nr > root->max_depth)
		root->max_depth = nr;
	if (end)
		*end = c.end;
	return 0;
}

void chain_root__append_again(struct chain_root *root, struct chain_node *end, u64 period,
			      u64 nr)
{
	end->hit += period;
	end->count += nr;
	for (struct chain_node *n = end->parent; n; n = n->parent) {
		n->children_hit += period;
		n->children_count += nr;
	}
	(void)root;
}

struct merge_path {
	struct chain_frame	*frames;
	u32			nr, alloc;
};

static int merge_node(struct chain_root *dst, struct merge_path *path, const struct chain_node *node)
{
	u32 saved = path->nr;
	int ret = 0;

	if (path->nr + node->val_nr > path->alloc) {
		u32 n = (path->nr + node->val_nr) * 2;
		struct chain_frame *f = realloc(path->frames, n * sizeof(*f));

		if (!f)
			return -ENOMEM;
		path->frames = f;
		path->alloc = n;
	}
	/* the root holds no frames (and maybe no buffer yet) */
	if (node->val_nr)
		memcpy(path->frames + path->nr, node->val, node->val_nr * sizeof(*node->val));
	/*
	 * upstream's merge re-adds each frame with its map and address but no symbol: merged
	 * branches match by address from then on and print as addresses
	 */
	for (u32 i = 0; i < node->val_nr; i++)
		path->frames[path->nr + i].sym = NULL;
	path->nr += node->val_nr;
	if (node->hit && path->nr) {
		struct chain_cursor c = {
			.frames = path->frames, .key = dst->key, .nr = path->nr, .period = node->hit,
		};

		ret = chain_node__append_children(&dst->node, &c);
		if (c.reshaped)
			dst->shape_gen++;
	}
	for (struct rbnode *n = rbtree__first(&node->children_in); n && !ret; n = rbtree__next(n))
		ret = merge_node(dst, path, rbtree__entry(n, struct chain_node, rb_in));
	path->nr = saved;
	return ret;
}

int chain_root__merge(struct chain_root *dst, const struct chain_root *src)
{
	struct merge_path path = { 0 };
	int ret = merge_node(dst, &path, &src->node);

	free(path.frames);
	return ret;
}

/* ---- pruning and sorting ---- */

/* larger first; equal values keep the order they come in (they go right) */
static void sorted_insert(struct rbroot *root, struct chain_node *node, bool by_hit)
{
	struct rbnode **link = &root->node, *parent = NULL;
	u64 v = by_hit ? node->hit : chain_node__cumul_hit(node);

	while (*link) {
		struct chain_node *r;
		u64 rv;

		parent = *link;
		r = rbtree__entry(parent, struct chain_node, rb_sorted);
		rv = by_hit ? r->hit : chain_node__cumul_hit(r);
		link = rv < v ? &parent->left : &parent->right;
	}
	rbtree__insert(root, &node->rb_sorted, parent, link);
}

static void sort_graph_abs(struct chain_node *node, u64 min_hit)
{
	node->sorted.node = NULL;
	for (struct rbnode *n = rbtree__first(&node->children_in); n; n = rbtree__next(n)) {
		struct chain_node *child = rbtree__entry(n, struct chain_node, rb_in);

		sort_graph_abs(child, min_hit);
		if (chain_node__cumul_hit(child) >= min_hit)
			sorted_insert(&node->sorted, child, false);
	}
}

static void sort_graph_rel(struct chain_node *node, double min_percent)
{
	double hit = ceil((double)node->children_hit * min_percent);
	u64 min_hit = (u64)hit;

	node->sorted.node = NULL;
	for (struct rbnode *n = rbtree__first(&node->children_in); n; n = rbtree__next(n)) {
		struct chain_node *child = rbtree__entry(n, struct chain_node, rb_in);

		sort_graph_rel(child, min_percent);
		if (chain_node__cumul_hit(child) >= min_hit)
			sorted_insert(&node->sorted, child, false);
	}
}

/* every node where chains end, after its descendants */
static void sort_flat(struct rbroot *flat, struct chain_node *node, u64 min_hit)
{
	for (struct rbnode *n = rbtree__first(&node->children_in); n; n = rbtree__next(n))
		sort_flat(flat, rbtree__entry(n, struct chain_node, rb_in), min_hit);
	if (node->hit && node->hit >= min_hit)
		sorted_insert(flat, node, true);
}

void chain_root__sort(struct chain_root *root, const struct chain_params *p, u64 min_hit)
{
	root->sorted.node = NULL;
	switch (p->mode) {
	case CHAIN_GRAPH_ABS:
		sort_graph_abs(&root->node, min_hit);
		root->sorted = root->node.sorted;
		break;
	case CHAIN_GRAPH_REL:
		sort_graph_rel(&root->node, p->min_percent / 100.0);
		root->sorted = root->node.sorted;
		break;
	case CHAIN_FLAT:
	case CHAIN_FOLDED:
		sort_flat(&root->sorted, &root->node, min_hit);
		break;
	case CHAIN_NONE:
	default:
		break;
	}
}

/* ---- printing ---- */

struct chain_printer {
	const struct chain_params	*p;
	struct sbuf			*sb;
	bool				printed;	/* anything at all (a blank line follows) */
	struct chain_lines		*lines;		/* each line's fold parent; NULL: not asked */
};

void chain_lines__exit(struct chain_lines *l)
{
	free(l->line);
	*l = (struct chain_lines){ 0 };
}

/*
 * A line starts at the end of the buffer: note where, and the line whose folding hides it.
 * Returns the line's index for the lines it hides in turn, -1 when nobody asked.
 */
static int line_start(struct chain_printer *pr, int parent)
{
	struct chain_lines *l = pr->lines;

	if (!l || l->oom)
		return -1;
	if (l->nr == l->alloc) {
		size_t n = l->alloc ? 2 * l->alloc : 64;
		struct chain_line *line = realloc(l->line, n * sizeof(*line));

		if (!line) {
			l->oom = true;
			return -1;
		}
		l->line = line;
		l->alloc = n;
	}
	l->line[l->nr] = (struct chain_line){ .off = pr->sb->len, .parent = parent };
	return (int)l->nr++;
}

/*
 * upstream formats a frame's name, with its srcline and " (inlined)" mark, in a 1024-byte
 * buffer: longer (C++) names are cut at its end, the mark first
 */
#define FRAME_NAME_MAX	1023

static void frame_name(struct sbuf *sb, const struct chain_frame *f, enum chain_key key)
{
	char buf[FRAME_NAME_MAX + 1];

	if (key != CCKEY_FUNCTION && f->sym && f->srcline) {
		/* the name, line and mark share the one buffer */
		snprintf(buf, sizeof(buf), "%s %s%s", f->sym->name, f->srcline,
			 f->sym->inlined ? " (inlined)" : "");
		sbuf__adds(sb, buf);
	} else if (f->sym && f->sym->inlined) {
		/* the mark too: a name that fills the buffer loses it, as upstream's does */
		snprintf(buf, sizeof(buf), "%s (inlined)", f->sym->name);
		sbuf__adds(sb, buf);
	} else if (f->sym)
		sbuf__printf(sb, "%.*s", FRAME_NAME_MAX, f->sym->name);
	else
		sbuf__printf(sb, "%#llx", (unsigned long long)f->ip);
}

static void print_value(const struct chain_printer *pr, u64 period, u64 count, u64 total)
{
	double percent = 0.0;

	switch (pr->p->value) {
	case CCVAL_PERIOD:
		sbuf__printf(pr->sb, "%llu", (unsigned long long)period);
		break;
	case CCVAL_COUNT:
		sbuf__printf(pr->sb, "%llu", (unsigned long long)count);
		break;
	case CCVAL_PERCENT:
	default:
		if (total)
			percent = (double)period * 100.0 / (double)total;
		sbuf__printf(pr->sb, "%.2f%%", percent);
		break;
	}
}

static void print_node_value(const struct chain_printer *pr, const struct chain_node *node,
			     u64 total)
{
	if (pr->p->mode == CHAIN_FOLDED)
		print_value(pr, node->hit, node->count, total);
	else
		print_value(pr, chain_node__cumul_hit(node), chain_node__cumul_count(node), total);
}

/*
 * Upstream keeps the open levels in an int and shifts 1 by the level: past 32 levels the
 * shift count wraps (x86 masks it to 5 bits), and so do the pipes it prints there.
 */
static u32 level_bit(int level)
{
	return 1U << (level & 31);
}

/* every graph line starts here; returns the line's index (see line_start()) */
static int left_margin(struct chain_printer *pr, int margin, int parent)
{
	int line = line_start(pr, parent);

	sbuf__adds(pr->sb, "            ");
	for (int i = 0; i < margin; i++)
		sbuf__addc(pr->sb, ' ');
	pr->printed = true;
	return line;
}

/* the spacer line before each child: the pipes of every open level */
static void graph_line(struct chain_printer *pr, int depth, u32 depth_mask, int margin,
		       int parent)
{
	left_margin(pr, margin, parent);
	for (int i = 0; i < depth; i++)
		sbuf__adds(pr->sb, depth_mask & level_bit(i) ? "|          " : "           ");
	sbuf__addc(pr->sb, '\n');
}

/* one frame of a child; the first one carries the "--value--" label. Returns its line. */
static int graph_frame(struct chain_printer *pr, const struct chain_frame *f, u64 period,
		       u64 count, int depth, u32 depth_mask, bool first, u64 total, int margin,
		       int parent)
{
	int line = left_margin(pr, margin, parent);

	for (int i = 0; i < depth; i++) {
		sbuf__addc(pr->sb, depth_mask & level_bit(i) ? '|' : ' ');
		if (first && i == depth - 1) {
			sbuf__adds(pr->sb, "--");
			print_value(pr, period, count, total);
			sbuf__adds(pr->sb, "--");
		} else {
			sbuf__adds(pr->sb, "          ");
		}
	}
	if (f)
		frame_name(pr->sb, f, pr->p->key);
	else
		sbuf__adds(pr->sb, "[...]");
	sbuf__addc(pr->sb, '\n');
	return line;
}

/*
 * depth_mask keeps a pipe per open level; the last child of a level closes its pipe for its
 * own frames and below, but the spacer line before it still shows the pipe. parent: the
 * line of the node whose children these are, which folds them (-1: none).
 */
static void graph_children(struct chain_printer *pr, const struct rbroot *root, u64 total,
			   int depth, u32 depth_mask, int margin, int parent)
{
	u64 remaining = total, cumul_count = 0, parent_children_count = 0;
	u32 new_mask = depth_mask;
	const struct chain_node *child = NULL;
	unsigned int printed = 0;
	const struct rbnode *n = rbtree__first(root);

	while (n) {
		const struct rbnode *next = rbtree__next(n);
		u64 new_total;
		int line = parent;

		child = rbtree__entry(n, struct chain_node, rb_sorted);
		remaining -= chain_node__cumul_hit(child);
		cumul_count += chain_node__cumul_count(child);
		if (!next && (pr->p->mode != CHAIN_GRAPH_REL || !remaining))
			new_mask &= ~level_bit(depth - 1);
		graph_line(pr, depth, depth_mask, margin, parent);
		/* the child's first line folds its other frames and its children */
		for (u32 i = 0; i < child->val_nr; i++) {
			int l = graph_frame(pr, &child->val[i], chain_node__cumul_hit(child),
					    chain_node__cumul_count(child), depth, new_mask, i == 0,
					    total, margin, line);

			if (i == 0)
				line = l;
		}
		new_total = pr->p->mode == CHAIN_GRAPH_REL ? child->children_hit : total;
		graph_children(pr, &child->sorted, new_total, depth + 1,
			       new_mask | level_bit(depth), margin, line);
		n = next;
		if (++printed == pr->p->print_limit)
			break;
	}
	if (pr->p->mode == CHAIN_GRAPH_REL && remaining && remaining != total) {
		u64 rem_count = 0;

		if (pr->p->value == CCVAL_COUNT && child && child->parent) {
			parent_children_count = child->parent->children_count;
			if (parent_children_count <= cumul_count)
				return;
			rem_count = parent_children_count - cumul_count;
		}
		new_mask &= ~level_bit(depth - 1);
		graph_frame(pr, NULL, remaining, rem_count, depth, new_mask, true, total, margin,
			    parent);
	}
}

static void print_graph(struct chain_printer *pr, const struct chain_root *root, u64 total,
			u64 parent, bool skip_first)
{
	const struct rbroot *top = &root->sorted;
	const struct rbnode *n = rbtree__first(top);
	int margin = 0, line = -1;

	/* one root worth the whole entry: its frames head the graph without a percentage */
	if (n && !rbtree__next(n) &&
	    chain_node__cumul_hit(rbtree__entry(n, struct chain_node, rb_sorted)) == parent) {
		const struct chain_node *node = rbtree__entry(n, struct chain_node, rb_sorted);
		bool started = false;
		unsigned int printed = 0;

		for (u32 i = 0; i < node->val_nr; i++) {
			if (i == 0 && skip_first)
				continue;
			/* the root's first frame line folds the rest of the graph */
			if (!started) {
				left_margin(pr, margin, -1);
				sbuf__adds(pr->sb, "|\n");
				line = left_margin(pr, margin, -1);
				sbuf__adds(pr->sb, "---");
				margin += 3;
				started = true;
			} else {
				left_margin(pr, margin, line);
			}
			frame_name(pr->sb, &node->val[i], pr->p->key);
			sbuf__addc(pr->sb, '\n');
			if (++printed == pr->p->print_limit)
				break;
		}
		top = &node->sorted;
	}
	if (pr->p->mode == CHAIN_GRAPH_REL)
		total = parent;
	graph_children(pr, top, total, 1, 1, margin, line);
	if (pr->printed) {
		line_start(pr, -1);
		sbuf__addc(pr->sb, '\n');
	}
}

/* a flat chain's frames, folded by its value line */
static void flat_path(struct chain_printer *pr, const struct chain_node *node, int parent)
{
	if (!node)
		return;
	flat_path(pr, node->parent, parent);
	for (u32 i = 0; i < node->val_nr; i++) {
		line_start(pr, parent);
		sbuf__adds(pr->sb, "                ");
		frame_name(pr->sb, &node->val[i], pr->p->key);
		sbuf__addc(pr->sb, '\n');
	}
}

static void print_flat(struct chain_printer *pr, const struct chain_root *root, u64 total)
{
	unsigned int printed = 0;

	for (const struct rbnode *n = rbtree__first(&root->sorted); n; n = rbtree__next(n)) {
		const struct chain_node *node = rbtree__entry(n, struct chain_node, rb_sorted);
		int line = line_start(pr, -1);

		sbuf__adds(pr->sb, "           ");
		print_node_value(pr, node, total);
		sbuf__addc(pr->sb, '\n');
		flat_path(pr, node, line);
		line_start(pr, -1);
		sbuf__addc(pr->sb, '\n');
		if (++printed == pr->p->print_limit)
			break;
	}
}

/* returns whether anything was printed (the separator goes between frames) */
static bool folded_path(struct chain_printer *pr, const struct chain_node *node, const char *sep)
{
	bool any;

	if (!node)
		return false;
	any = folded_path(pr, node->parent, sep);
	for (u32 i = 0; i < node->val_nr; i++) {
		if (any)
			sbuf__adds(pr->sb, sep);
		frame_name(pr->sb, &node->val[i], pr->p->key);
		any = true;
	}
	return any;
}

static void print_folded(struct chain_printer *pr, const struct chain_root *root, u64 total,
			 const char *sep)
{
	unsigned int printed = 0;

	for (const struct rbnode *n = rbtree__first(&root->sorted); n; n = rbtree__next(n)) {
		const struct chain_node *node = rbtree__entry(n, struct chain_node, rb_sorted);

		line_start(pr, -1);
		print_node_value(pr, node, total);
		sbuf__addc(pr->sb, ' ');
		folded_path(pr, node, sep);
		sbuf__addc(pr->sb, '\n');
		if (++printed == pr->p->print_limit)
			break;
	}
}

void chain_root__print(const struct chain_root *root, const struct chain_params *p,
		       struct sbuf *sb, u64 total, u64 parent, bool skip_first, const char *sep,
		       struct chain_lines *lines)
{
	struct chain_printer pr = { .p = p, .sb = sb, .lines = lines };

	switch (p->mode) {
	case CHAIN_GRAPH_ABS:
	case CHAIN_GRAPH_REL:
		print_graph(&pr, root, total, parent, skip_first);
		break;
	case CHAIN_FLAT:
		print_flat(&pr, root, total);
		break;
	case CHAIN_FOLDED:
		print_folded(&pr, root, total, sep ? sep : ";");
		break;
	case CHAIN_NONE:
	default:
		break;
	}
}
