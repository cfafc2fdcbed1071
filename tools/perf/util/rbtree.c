// SPDX-License-Identifier: GPL-2.0
/* The one red-black tree, with lib/rbtree.c's insert and erase. See rbtree.h. */
#include <stdbool.h>
#include "rbtree.h"

static inline bool is_red(const struct rbnode *n)
{
	return n && !(n->parent_black & 1);
}

static inline void set_black(struct rbnode *n, bool black)
{
	n->parent_black = (n->parent_black & ~(uintptr_t)1) | black;
}

static inline void set_parent(struct rbnode *n, struct rbnode *p)
{
	n->parent_black = (uintptr_t)p | (n->parent_black & 1);
}

/* old's parent (or the root) points to new instead; new takes old's parent */
static void replace_child(struct rbroot *root, struct rbnode *parent, struct rbnode *old,
			  struct rbnode *new)
{
	if (!parent)
		root->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
	if (new)
		set_parent(new, parent);
}

/* dir 0: the left child, 1: the right one; the cases below are each written once for both */
static inline struct rbnode **child(struct rbnode *n, int dir)
{
	return dir ? &n->right : &n->left;
}

/* x's child on the side !dir takes x's place, x becomes its child on side dir (0: left) */
static void rotate(struct rbroot *root, struct rbnode *x, int dir)
{
	struct rbnode *y = *child(x, !dir);

	*child(x, !dir) = *child(y, dir);
	if (*child(y, dir))
		set_parent(*child(y, dir), x);
	replace_child(root, rbtree__parent(x), x, y);
	*child(y, dir) = x;
	set_parent(x, y);
}

void rbtree__insert(struct rbroot *root, struct rbnode *node, struct rbnode *parent,
		    struct rbnode **link)
{
	node->left = node->right = NULL;
	node->parent_black = (uintptr_t)parent;	/* red */
	*link = node;

	for (;;) {
		struct rbnode *p = rbtree__parent(node), *g, *uncle;
		int dir;

		if (!p) {
			set_black(node, true);
			return;
		}
		if (!is_red(p))
			return;
		g = rbtree__parent(p);	/* a red node is never the root */
		dir = p == g->right;
		uncle = *child(g, !dir);
		if (is_red(uncle)) {
			set_black(p, true);
			set_black(uncle, true);
			set_black(g, false);
			node = g;
			continue;
		}
		if (node == *child(p, !dir)) {
			rotate(root, p, dir);
			p = node;
		}
		set_black(p, true);
		set_black(g, false);
		rotate(root, g, !dir);
		return;
	}
}

/* x (maybe NULL) under xp lost a black on its path: restore the black heights */
static void erase_fixup(struct rbroot *root, struct rbnode *x, struct rbnode *xp)
{
	while (x != root->node && !is_red(x)) {
		int dir = x != xp->left;
		struct rbnode *w = *child(xp, !dir);

		if (is_red(w)) {
			set_black(w, true);
			set_black(xp, false);
			rotate(root, xp, dir);
			w = *child(xp, !dir);
		}
		if (!is_red(w->left) && !is_red(w->right)) {
			set_black(w, false);
			x = xp;
			xp = rbtree__parent(x);
			continue;
		}
		if (!is_red(*child(w, !dir))) {
			set_black(*child(w, dir), true);
			set_black(w, false);
			rotate(root, w, !dir);
			w = *child(xp, !dir);
		}
		set_black(w, !is_red(xp));
		set_black(xp, true);
		set_black(*child(w, !dir), true);
		rotate(root, xp, dir);
		x = root->node;
		break;
	}
	if (x)
		set_black(x, true);
}

void rbtree__erase(struct rbroot *root, struct rbnode *z)
{
	struct rbnode *zp = rbtree__parent(z), *x, *xp;
	bool removed_red;

	if (!z->left || !z->right) {
		x = z->left ? z->left : z->right;
		xp = zp;
		removed_red = is_red(z);
		replace_child(root, zp, z, x);
	} else {
		/* the successor takes z's place and colour, as rb_erase() does */
		struct rbnode *y = z->right;

		while (y->left)
			y = y->left;
		removed_red = is_red(y);
		x = y->right;
		if (rbtree__parent(y) == z) {
			xp = y;
		} else {
			xp = rbtree__parent(y);
			replace_child(root, xp, y, x);
			y->right = z->right;
			set_parent(z->right, y);
		}
		replace_child(root, zp, z, y);
		y->left = z->left;
		set_parent(z->left, y);
		set_black(y, !is_red(z));
	}
	z->left = z->right = NULL;
	z->parent_black = 0;
	if (!removed_red)
		erase_fixup(root, x, xp);
}

struct rbnode *rbtree__first(const struct rbroot *root)
{
	struct rbnode *n = root->node;

	while (n && n->left)
		n = n->left;
	return n;
}

struct rbnode *rbtree__next(const struct rbnode *node)
{
	struct rbnode *n, *p;

	if (node->right) {
		n = node->right;
		while (n->left)
			n = n->left;
		return n;
	}
	n = (struct rbnode *)node;
	while ((p = rbtree__parent(n)) && n == p->right)
		n = p;
	return p;
}

static struct rbnode *moved(struct rbnode *p, const char *old, char *new)
{
	return p ? (struct rbnode *)(new + ((const char *)p - old)) : NULL;
}

/* rewrite n's links, then its subtrees'; the depth is at most 2 log2(nodes) */
static void move_subtree(struct rbnode *n, const char *old, char *new)
{
	while (n) {
		struct rbnode *parent = moved(rbtree__parent(n), old, new);

		n->left = moved(n->left, old, new);
		n->right = moved(n->right, old, new);
		n->parent_black = (uintptr_t)parent | (n->parent_black & 1);
		move_subtree(n->left, old, new);
		n = n->right;
	}
}

void rbtree__move(struct rbroot *root, const void *old, void *new)
{
	root->node = moved(root->node, old, new);
	move_subtree(root->node, old, new);
}
