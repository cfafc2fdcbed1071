// SPDX-License-Identifier: GPL-2.0
/*
 * The shared containers: the hash map (growth, collisions, removal, iteration, clear) and
 * the red-black tree (the kernel's shapes for known sequences, invariants under random
 * inserts and erasures, an array of nodes moved).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <perf/abi.h>
#include <perf/kernel.h>
#include "tests.h"
#include "util/hash.h"
#include "util/hashmap.h"
#include "util/rbtree.h"

struct hentry {
	struct hashmap_node	node;
	u32			key;
	bool			seen;
};

static struct hentry *hfind(const struct hashmap *map, u32 key, size_t h)
{
	struct hashmap_node *pos;

	hashmap__for_each_hash(map, pos, h) {
		struct hentry *e = container_of(pos, struct hentry, node);

		if (e->key == key)
			return e;
	}
	return NULL;
}

static bool hentry__eq(const struct hashmap_node *node, const void *key)
{
	return container_of(node, struct hentry, node)->key == *(const u32 *)key;
}

static size_t mix(u32 key)
{
	return (size_t)hash__u64(key);
}

static void count_node(struct hashmap_node *node, void *arg)
{
	(void)node;
	(*(size_t *)arg)++;
}

#define NR_H	5000

static int hashmap_checks(const struct test_env *env, struct hentry *v, bool collide)
{
	struct hashmap map;
	struct hashmap_node *pos, *tmp;
	size_t bkt, n = 0;

	hashmap__init(&map, 16);
	TEST_ASSERT(env, !hashmap__chain(&map, 1) && !hashmap__nr(&map), "empty map has chains");
	for (u32 i = 0; i < NR_H; i++) {
		v[i] = (struct hentry){ .key = i };
		TEST_ASSERT(env, !hashmap__add(&map, &v[i].node, collide ? 7 : mix(i)), "add %u", i);
	}
	TEST_ASSERT(env, hashmap__nr(&map) == NR_H, "%zu nodes", hashmap__nr(&map));
	/* one node per bucket at most before doubling: 5000 nodes need 8192 buckets */
	TEST_ASSERT(env, map.nr_buckets == 8192, "%zu buckets", map.nr_buckets);
	for (u32 i = 0; i < NR_H; i++) {
		size_t h = collide ? 7 : mix(i);

		TEST_ASSERT(env, hfind(&map, i, h) == &v[i], "key %u lost", i);
		TEST_ASSERT(env, hashmap__find(&map, h, hentry__eq, &i) == &v[i].node, "find %u", i);
	}
	TEST_ASSERT(env, !hfind(&map, NR_H, collide ? 7 : mix(NR_H)), "a key never added found");

	/* removal: the odd keys, during a safe iteration */
	hashmap__for_each_safe(&map, pos, tmp, bkt) {
		struct hentry *e = container_of(pos, struct hentry, node);

		if (e->key & 1)
			hashmap__remove(&map, pos);
	}
	TEST_ASSERT(env, hashmap__nr(&map) == NR_H / 2, "%zu left", hashmap__nr(&map));
	for (u32 i = 0; i < NR_H; i++)
		TEST_ASSERT(env, !!hfind(&map, i, collide ? 7 : mix(i)) == !(i & 1), "key %u", i);

	/* iteration: every node once */
	hashmap__for_each(&map, pos, bkt) {
		struct hentry *e = container_of(pos, struct hentry, node);

		TEST_ASSERT(env, !e->seen && !(e->key & 1), "key %u twice or removed", e->key);
		e->seen = true;
		n++;
	}
	TEST_ASSERT(env, n == NR_H / 2, "iterated %zu", n);

	/* clear gives every node to the callback once, and the map is usable again */
	n = 0;
	hashmap__clear(&map, count_node, &n);
	TEST_ASSERT(env, n == NR_H / 2 && !hashmap__nr(&map), "cleared %zu", n);
	TEST_ASSERT(env, !hfind(&map, 0, collide ? 7 : mix(0)), "found after clear");
	TEST_ASSERT(env, !hashmap__add(&map, &v[1].node, mix(1)) && hfind(&map, 1, mix(1)) == &v[1],
		    "add after clear");
	hashmap__exit(&map);
	TEST_ASSERT(env, !map.buckets && !hashmap__nr(&map), "exit left buckets");
	return TEST_OK;
}

/*
 * Entries in one array that grows (build-id-list.c): after the array moved, the nodes are
 * forgotten without being read (under ASan a read of the freed array fails) and re-added.
 */
static int hashmap_moved(const struct test_env *env)
{
	struct hentry *v = calloc(64, sizeof(*v)), *w;
	struct hashmap map;

	if (!v)
		return TEST_FAIL;
	hashmap__init(&map, 0);
	for (u32 i = 0; i < 64; i++) {
		v[i].key = i;
		if (hashmap__add(&map, &v[i].node, mix(i)))
			goto out_fail;
	}
	w = malloc(128 * sizeof(*w));
	if (!w)
		goto out_fail;
	memcpy(w, v, 64 * sizeof(*w));
	free(v);
	v = w;
	hashmap__clear(&map, NULL, NULL);
	for (u32 i = 0; i < 64; i++)
		if (hashmap__add(&map, &v[i].node, v[i].node.hash))
			goto out_fail;
	for (u32 i = 0; i < 64; i++)
		if (hfind(&map, i, mix(i)) != &v[i])
			goto out_fail;
	hashmap__exit(&map);
	free(v);
	return TEST_OK;

out_fail:
	hashmap__exit(&map);
	free(v);
	TEST_ASSERT(env, false, "entries of a moved array not found again");
	return TEST_FAIL;
}

DEFINE_SUITE(hashmap)
{
	struct hentry *v = calloc(NR_H, sizeof(*v));
	int ret;

	if (!v)
		return TEST_FAIL;
	ret = hashmap_checks(env, v, false);
	/* every node in one chain: lookups compare keys, removal unlinks the right node */
	if (ret == TEST_OK)
		ret = hashmap_checks(env, v, true);
	free(v);
	return ret == TEST_OK ? hashmap_moved(env) : ret;
}

/* ---- red-black tree ---- */

struct tentry {
	struct rbnode	rb;
	int		key;
};

static void tinsert(struct rbroot *root, struct tentry *e)
{
	struct rbnode **link = &root->node, *parent = NULL;

	/* equal keys go right, as perf's symbol and hist trees */
	while (*link) {
		parent = *link;
		link = e->key < rbtree__entry(parent, struct tentry, rb)->key ? &parent->left
									    : &parent->right;
	}
	rbtree__insert(root, &e->rb, parent, link);
}

/* "key" + B/R, children in parentheses, "-" for none */
static void shape(const struct rbnode *n, char *buf, size_t size)
{
	size_t len = strlen(buf);
	bool black;

	if (!n) {
		snprintf(buf + len, size - len, "-");
		return;
	}
	black = n->parent_black & 1;
	snprintf(buf + len, size - len, "%d%c", rbtree__entry(n, struct tentry, rb)->key,
		 black ? 'B' : 'R');
	if (!n->left && !n->right)
		return;
	len = strlen(buf);
	snprintf(buf + len, size - len, "(");
	shape(n->left, buf, size);
	len = strlen(buf);
	snprintf(buf + len, size - len, ",");
	shape(n->right, buf, size);
	len = strlen(buf);
	snprintf(buf + len, size - len, ")");
}

/* black height of n, or -1 when a rule is broken (order, red-red, heights, parent links) */
static int check(const struct rbnode *n, const struct rbnode *parent, int lo, int hi)
{
	int key, l, r;
	bool black;

	if (!n)
		return 1;
	key = rbtree__entry(n, struct tentry, rb)->key;
	black = n->parent_black & 1;
	if (rbtree__parent(n) != parent || key < lo || key > hi)
		return -1;
	if (!black && ((n->left && !(n->left->parent_black & 1)) ||
		       (n->right && !(n->right->parent_black & 1))))
		return -1;
	l = check(n->left, n, lo, key);
	r = check(n->right, n, key, hi);
	if (l < 0 || l != r)
		return -1;
	return l + black;
}

static u64 trand(u64 *state)
{
	/* xorshift64: any fixed sequence does, this one is short */
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#define NR_T	600

DEFINE_SUITE(rbtree)
{
	struct tentry e[NR_T], *moved;
	struct rbroot root = { NULL };
	bool in[NR_T] = { false };
	char buf[512] = "";
	u64 st = 0x2545f4914f6cdd1dULL;
	int prev = -1, n = 0;

	/*
	 * 1..10 ascending through lib/rbtree.c's rb_insert_color (worked by hand from its
	 * cases: the uncle red recolours, else one or two rotations)
	 */
	for (int i = 0; i < 10; i++) {
		e[i].key = i + 1;
		tinsert(&root, &e[i]);
	}
	shape(root.node, buf, sizeof(buf));
	TEST_ASSERT(env, !strcmp(buf, "4B(2B(1B,3B),6B(5B,8R(7B,9B(-,10R))))"), "%s", buf);
	/* rb_erase of the root: its successor 5 takes its place, then case 1 and case 2 */
	rbtree__erase(&root, &e[3].rb);
	buf[0] = 0;
	shape(root.node, buf, sizeof(buf));
	TEST_ASSERT(env, !strcmp(buf, "5B(2B(1B,3B),8B(6B(-,7R),9B(-,10R)))"), "%s", buf);
	/* equal keys go right and keep their insertion order in the walk */
	root.node = NULL;
	for (int i = 0; i < 6; i++) {
		e[i].key = i / 3;
		tinsert(&root, &e[i]);
	}
	for (struct rbnode *p = rbtree__first(&root); p; p = rbtree__next(p), n++)
		TEST_ASSERT(env, p == &e[n].rb, "equal keys out of insertion order at %d", n);
	TEST_ASSERT(env, n == 6, "walked %d", n);

	/* random inserts and erasures keep every rule */
	root.node = NULL;
	for (int i = 0; i < NR_T; i++)
		e[i].key = (int)(trand(&st) % 200);
	for (int step = 0; step < 20000; step++) {
		int i = (int)(trand(&st) % NR_T);

		if (in[i])
			rbtree__erase(&root, &e[i].rb);
		else
			tinsert(&root, &e[i]);
		in[i] = !in[i];
		if (step % 97 == 0)
			TEST_ASSERT(env, check(root.node, NULL, -1, 1 << 30) > 0, "broken at step %d",
				    step);
	}
	TEST_ASSERT(env, check(root.node, NULL, -1, 1 << 30) > 0, "broken tree");
	n = 0;
	for (struct rbnode *p = rbtree__first(&root); p; p = rbtree__next(p), n++) {
		int key = rbtree__entry(p, struct tentry, rb)->key;

		TEST_ASSERT(env, key >= prev, "walk out of order");
		prev = key;
	}
	for (int i = 0; i < NR_T; i++)
		n -= in[i];
	TEST_ASSERT(env, n == 0, "walk and membership differ by %d", n);

	/* the whole array moved: the same tree over the copy */
	moved = malloc(sizeof(e));
	if (!moved)
		return TEST_FAIL;
	buf[0] = 0;
	root.node = NULL;
	for (int i = 0; i < 20; i++) {
		e[i].key = (int)(trand(&st) % 50);
		tinsert(&root, &e[i]);
	}
	shape(root.node, buf, sizeof(buf));
	memcpy(moved, e, sizeof(e));
	rbtree__move(&root, e, moved);
	memset(e, 0, sizeof(e));
	{
		char after[512] = "";

		shape(root.node, after, sizeof(after));
		if (strcmp(buf, after) || check(root.node, NULL, -1, 1 << 30) < 0 ||
		    root.node < &moved[0].rb || root.node > &moved[NR_T - 1].rb) {
			free(moved);
			TEST_ASSERT(env, false, "moved tree %s differs from %s", after, buf);
		}
	}
	free(moved);
	return TEST_OK;
}
