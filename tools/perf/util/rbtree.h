/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtree.h - the one red-black tree: intrusive, with the kernel's lib/rbtree.c algorithms,
 * so that the same operations give the same shape as perf's trees.
 *
 * Where perf keeps entries in an rb_root, which entry a search or an in-order walk meets
 * among equal or overlapping keys depends on the tree's shape (symbols of one address, hist
 * entries and callchain siblings that compare equal). To print what perf prints, a user
 * repeats perf's operations: its descent (the user's comparison, writing the link), then
 * rbtree__insert() (rb_link_node + rb_insert_color: recolour while the uncle is red, else at
 * most two rotations) and rbtree__erase() (rb_erase: a node with two children is replaced by
 * its successor, then the colour fixup).
 *
 * Ownership: the tree owns nothing; nodes are embedded in the user's entries (as the
 * kernel's rb_node), which must stay in place while in the tree, or be moved all at once
 * with rbtree__move(). A node is in at most one tree per struct rbnode it embeds.
 *
 * The descent the user writes:
 *
 *	struct rbnode **link = &root->node, *parent = NULL;
 *
 *	while (*link) {
 *		parent = *link;
 *		link = key < rbtree__entry(parent, struct e, rb)->key ? &parent->left
 *								       : &parent->right;
 *	}
 *	rbtree__insert(root, &new->rb, parent, link);
 */
#ifndef PERF_UTIL_RBTREE_H
#define PERF_UTIL_RBTREE_H

#include <stddef.h>
#include <stdint.h>
#include <perf/kernel.h>

struct rbnode {
	struct rbnode	*left, *right;
	uintptr_t	parent_black;	/* the parent's address, | 1 when this node is black */
};

struct rbroot {
	struct rbnode	*node;		/* NULL: empty */
};

/* the entry embedding a node; const when the node is */
#define rbtree__entry(ptr, type, member) container_of(ptr, type, member)

static inline struct rbnode *rbtree__parent(const struct rbnode *node)
{
	return (struct rbnode *)(node->parent_black & ~(uintptr_t)1);
}

/* link node at *link under parent (both from the caller's descent), then rebalance */
void rbtree__insert(struct rbroot *root, struct rbnode *node, struct rbnode *parent,
		    struct rbnode **link);
/* node (in root) out of the tree; its links are left NULL */
void rbtree__erase(struct rbroot *root, struct rbnode *node);

/* in-order traversal; NULL at the end. Nodes are not const: the tree does not own them */
struct rbnode *rbtree__first(const struct rbroot *root);
struct rbnode *rbtree__next(const struct rbnode *node);

/*
 * The array holding every node of root was copied from old to new (old still allocated, the
 * same layout): the links in new are rewritten to point into new. For users that keep their
 * entries in one growing array.
 */
void rbtree__move(struct rbroot *root, const void *old, void *new);

#endif
