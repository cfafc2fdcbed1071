/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-callchain.h - perf report's callchain trees: the callchains of a histogram entry's
 * samples merged into one tree, pruned and sorted for output, and printed in upstream perf
 * 7.2's stdio layouts (graph, fractal, flat, folded).
 *
 * The tree is the one upstream builds: a radix tree whose nodes hold runs of frames
 * (val[0..val_nr)); a node's children are kept in a red-black tree keyed by their first
 * frame, and a node is split when a new chain leaves it half way. Sibling order, and the
 * order of siblings with equal counts in the output, come out of those red-black trees'
 * shapes, so they are built with the same insertion algorithm as the kernel's lib/rbtree
 * (rbtree.h): byte-identical output depends on it, also where the comparison of
 * frames is not a total order (a symbol's start against another frame's raw address).
 *
 * Ownership: a chain_root owns its nodes and their frame arrays. Frames borrow their dso
 * and symbol: the caller keeps the dsos alive (hist entries hold a reference on each dso
 * their chains name, see hist.h) for as long as the tree is used.
 */
#ifndef PERF_UTIL_REPORT_CALLCHAIN_H
#define PERF_UTIL_REPORT_CALLCHAIN_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "rbtree.h"
#include "sbuf.h"

struct dso;
struct symbol;

/* ---- parameters: perf report -g print_type,threshold,print_limit,order,sort_key,value ---- */

enum chain_mode {
	CHAIN_NONE,
	CHAIN_GRAPH_ABS,	/* "graph": percentages of the whole event */
	CHAIN_GRAPH_REL,	/* "fractal": percentages of the parent */
	CHAIN_FLAT,
	CHAIN_FOLDED,
};

enum chain_order {
	ORDER_CALLEE,		/* innermost frame first */
	ORDER_CALLER,
};

/* how frames are told apart and shown: -g's sort key */
enum chain_key {
	CCKEY_FUNCTION,
	CCKEY_ADDRESS,		/* by dso and address; shown with their line (or offset) */
	CCKEY_SRCLINE,		/* by source line text; shown with it */
};

enum chain_value {
	CCVAL_PERCENT,
	CCVAL_PERIOD,
	CCVAL_COUNT,
};

struct chain_params {
	enum chain_mode		mode;
	enum chain_order	order;
	enum chain_value	value;
	enum chain_key		key;
	double			min_percent;	/* threshold, in percent */
	unsigned int		print_limit;	/* 0: no limit */
	bool			order_set;	/* the user chose the order */
	bool			enabled;	/* callchains are shown */
};

/* upstream's defaults: graph, 0.5%, callee order, percent */
void chain_params__init(struct chain_params *p);
/*
 * Parses a -g/--call-graph argument ("graph,0.5,caller", "folded", "none", ...) over p, as
 * upstream does: each token is a mode, an order, a sort key, a value type, or a number
 * (threshold first, then print limit); prefixes of the words are accepted. The "branch"
 * sort key is not supported. 0 or -EINVAL.
 */
int chain_params__parse(struct chain_params *p, const char *arg, struct perf_err *err);

/* ---- the tree ---- */

/* one resolved frame, as a callchain node holds it */
struct chain_frame {
	u64			ip;		/* the address as recorded */
	struct dso		*dso;		/* NULL: no map covers ip (borrowed) */
	const struct symbol	*sym;		/* NULL: unresolved (borrowed) */
	u32			dso_order;	/* rank of dso by creation, 0 for none */
	/*
	 * CCKEY_ADDRESS/SRCLINE: the frame's source line as upstream's callchain holds it
	 * (NULL without a map; borrowed, it lives as long as the tree); NULL otherwise
	 */
	const char		*srcline;
};

struct chain_node {
	struct chain_node	*parent;
	struct chain_frame	*val;		/* owned, val_nr frames */
	u32			val_nr;
	struct rbnode		rb_in;		/* in parent->children_in */
	struct rbroot		children_in;	/* keyed by each child's first frame */
	struct rbnode		rb_sorted;	/* in parent->sorted, or the flat list */
	struct rbroot		sorted;		/* children kept for output, by count */
	u64			hit;		/* period of chains ending here */
	u64			children_hit;
	u64			count;		/* number of chains ending here */
	u64			children_count;
};

struct chain_root {
	struct chain_node	node;		/* val_nr 0: the root holds no frame */
	enum chain_key		key;		/* how its frames match */
	u32			max_depth;	/* longest chain appended */
	u64			shape_gen;	/* bumped whenever a node is added or split */
	struct rbroot		sorted;		/* what chain_root__sort() kept */
};

void chain_root__init(struct chain_root *root, enum chain_key key);
void chain_root__exit(struct chain_root *root);

/*
 * Merge one chain of nr frames (in the order they are to be shown: first frame at the top
 * of the tree) with weight period. The frames are copied. 0 or -ENOMEM (the tree is left
 * consistent, without this chain). end (may be NULL) gets the node the chain ended at
 * (NULL for an empty chain): while shape_gen stays as it is after this call, appending the
 * same frames again ends there and changes only counts along the way to the root.
 */
int chain_root__append(struct chain_root *root, const struct chain_frame *frames, u32 nr,
		       u64 period, struct chain_node **end);

/*
 * What nr more chain_root__append()s of the chain that ended at end do, with period their
 * sum, without comparing a frame: end's hit and count and its ancestors' children_hit and
 * children_count grow. Only while root->shape_gen is what it was after that append (nothing
 * else changes a tree's counts or its output order: sibling order comes from the order new
 * nodes were added).
 */
void chain_root__append_again(struct chain_root *root, struct chain_node *end, u64 period,
			      u64 nr);

/*
 * Fold src into dst as upstream's callchain_merge does: every chain of src re-appended to
 * dst with the period that ended there (counted as one chain each, and not raising dst's
 * max_depth, as upstream). The re-appended frames keep their address and dso but not their
 * symbol, as upstream's merge re-adds them: merged branches match and print by address.
 * src is left unchanged. 0 or -ENOMEM.
 */
int chain_root__merge(struct chain_root *dst, const struct chain_root *src);

/*
 * Prune and sort for output: graph keeps nodes whose cumulated period is >= min_hit,
 * fractal keeps children >= min_percent of their parent, flat and folded list every node
 * where chains end (with period >= min_hit) by that period.
 */
void chain_root__sort(struct chain_root *root, const struct chain_params *p, u64 min_hit);

/*
 * What a browser needs to fold printed callchains: for each line chain_root__print()
 * printed, where it starts and which earlier line's folding hides it. A graph node's first
 * line (the one with its "--value--" label, or a single root's first "---" frame) hides the
 * node's other frames and its children's lines, spacer lines included; a flat chain's value
 * line hides its frames; folded lines and blank lines are hidden by nothing. A line that
 * hides none is not foldable.
 */
struct chain_line {
	size_t			off;		/* the line's first byte in the sbuf printed to */
	int			parent;		/* the line whose folding hides it; -1: none */
};

struct chain_lines {
	struct chain_line	*line;		/* owned; nr of them, in printing order */
	size_t			nr, alloc;
	bool			oom;		/* lines went unrecorded: the list is short */
};

void chain_lines__exit(struct chain_lines *l);

/*
 * Print the sorted tree into sb as upstream's stdio output does after an entry line.
 * total: the event's total period (percentages of graph/flat/folded); parent: the entry's
 * own period (children mode: its accumulated period), the 100% of fractal and the test for
 * a single unlabelled root. skip_first: do not repeat the first frame of a single root
 * (upstream does so when the sort order starts with "sym"). sep: folded output separator.
 * lines (may be NULL) gets a chain_line per line printed, appended to what it holds.
 */
void chain_root__print(const struct chain_root *root, const struct chain_params *p,
		       struct sbuf *sb, u64 total, u64 parent, bool skip_first, const char *sep,
		       struct chain_lines *lines);

#endif
