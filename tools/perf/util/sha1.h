/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha1.h - SHA-1 (FIPS 180-4) of a byte string: the build ids of the ELF files perf inject
 * makes for JIT'd code are the SHA-1 of what identifies the code, as the build ids linkers
 * write are, so the same code gets the same id on every run.
 */
#ifndef PERF_UTIL_SHA1_H
#define PERF_UTIL_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_SIZE	20

struct sha1 {
	uint32_t	h[5];
	uint64_t	len;		/* bytes hashed so far */
	uint8_t		block[64];	/* the unhashed tail, len % 64 bytes of it */
};

void sha1__init(struct sha1 *s);
void sha1__update(struct sha1 *s, const void *data, size_t size);
void sha1__final(struct sha1 *s, uint8_t digest[SHA1_DIGEST_SIZE]);

#endif
