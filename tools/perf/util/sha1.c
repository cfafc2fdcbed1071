// SPDX-License-Identifier: GPL-2.0
/* SHA-1 as FIPS 180-4 section 6.1 defines it; see sha1.h */
#include <string.h>
#include "sha1.h"

static uint32_t rol32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static void sha1__block(struct sha1 *s, const uint8_t *p)
{
	uint32_t w[80], a, b, c, d, e;

	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
	for (int t = 16; t < 80; t++)
		w[t] = rol32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	a = s->h[0];
	b = s->h[1];
	c = s->h[2];
	d = s->h[3];
	e = s->h[4];
	for (int t = 0; t < 80; t++) {
		uint32_t f, k, tmp;

		if (t < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (t < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (t < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		tmp = rol32(a, 5) + f + e + k + w[t];
		e = d;
		d = c;
		c = rol32(b, 30);
		b = a;
		a = tmp;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
}

void sha1__init(struct sha1 *s)
{
	static const uint32_t h0[5] = {
		0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0
	};

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
}

void sha1__update(struct sha1 *s, const void *data, size_t size)
{
	const uint8_t *p = data;
	size_t have = s->len % 64;

	s->len += size;
	if (have) {
		size_t take = 64 - have < size ? 64 - have : size;

		memcpy(s->block + have, p, take);
		p += take;
		size -= take;
		if (have + take < 64)
			return;
		sha1__block(s, s->block);
	}
	for (; size >= 64; p += 64, size -= 64)
		sha1__block(s, p);
	memcpy(s->block, p, size);
}

void sha1__final(struct sha1 *s, uint8_t digest[SHA1_DIGEST_SIZE])
{
	uint64_t bits = s->len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t have = s->len % 64;
	/* 0x80, zeros up to 56 mod 64, then the length in bits, big-endian */
	size_t n = (have < 56 ? 56 - have : 120 - have);

	for (int i = 0; i < 8; i++)
		pad[n + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha1__update(s, pad, n + 8);
	for (int i = 0; i < 5; i++) {
		digest[4 * i] = (uint8_t)(s->h[i] >> 24);
		digest[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		digest[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		digest[4 * i + 3] = (uint8_t)s->h[i];
	}
}
