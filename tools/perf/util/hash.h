/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hash.h - the tree's hash functions: every hashmap user and every direct-mapped cache
 * hashes through these, so that one weak mix is fixed in one place.
 *
 * Two kinds of result:
 * - hash__u64(), hash__ptr(), hash__u64x2(), hash__str(): every bit mixed, the LOW ones
 *   included: what the hashmap takes (it picks buckets by the low bits);
 * - hash_64(v, bits): the kernel's, the top bits of a multiplicative hash: the slot of a
 *   cache of 2^bits slots.
 * hash__step() combines one more u64 into a running hash (only its high bits are mixed
 * until hash__fold() or hash_64() finishes it). None of these values reaches any output.
 */
#ifndef PERF_UTIL_HASH_H
#define PERF_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <perf/abi.h>

#define HASH_GOLDEN_RATIO_64	0x9e3779b97f4a7c15ULL
#define HASH_FNV_OFFSET		0xcbf29ce484222325ULL
#define HASH_FNV_PRIME		0x100000001b3ULL

/* h and one more value: a multiplicative step, its high bits mixed */
static inline u64 hash__step(u64 h, u64 v)
{
	return (h ^ v) * HASH_GOLDEN_RATIO_64;
}

/* a step's high bits folded into its low ones */
static inline u64 hash__fold(u64 h)
{
	return h ^ (h >> 32);
}

/* the slot of v in a cache of 2^bits slots (1 <= bits <= 32), as the kernel's hash_64 */
static inline u32 hash_64(u64 v, unsigned int bits)
{
	return (u32)((v * HASH_GOLDEN_RATIO_64) >> (64 - bits));
}

static inline u64 hash__u64(u64 v)
{
	return hash__fold(v * HASH_GOLDEN_RATIO_64);
}

static inline u64 hash__u64x2(u64 a, u64 b)
{
	return hash__fold(hash__step(a * HASH_GOLDEN_RATIO_64, b));
}

static inline u64 hash__ptr(const void *p)
{
	return hash__u64((u64)(uintptr_t)p);
}

/* a full avalanche of x (murmur3's finalizer): seeds, and keys whose bits are all alike */
static inline u64 hash__mix64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* FNV-1a of n bytes, continuing h (HASH_FNV_OFFSET to start) */
static inline u64 hash__bytes(u64 h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * HASH_FNV_PRIME;
	return h;
}

/* FNV-1a of a string without its NUL */
static inline u64 hash__str(const char *s)
{
	return hash__bytes(HASH_FNV_OFFSET, s, strlen(s));
}

#endif
