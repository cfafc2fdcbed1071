// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the FP unwinder: random registers, a random stack dump and a random
 * kernel chain, walked with rules decoded from a real DSO's code (this machine's libc,
 * else this binary) at addresses the input picks, joined with the chain; and the decoder
 * on the input's own bytes as code. Invariants: the walk stays within max frames, every
 * frame it finds was read from inside the dump (so the last SP is inside it), a join offset
 * is 1 or down to minus the walk's frames, the kernel's chain past the walk starts inside
 * it, and nothing reads outside its buffers (ASan).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "util/unwind-insn.h"
#include "util/unwind-walk.h"

struct code {
	const u8	*bytes;
	size_t		len;
};

static struct code dso_code(void)
{
	static const char *const paths[] = {
		"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib64/libc.so.6", "/proc/self/exe",
	};
	static struct code c;
	struct stat st;

	for (size_t i = 0; !c.bytes && i < ARRAY_SIZE(paths); i++) {
		int fd = open(paths[i], O_RDONLY);
		void *p;

		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_size > 4096) {
			p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
			if (p != MAP_FAILED) {
				c.bytes = p;
				c.len = (size_t)st.st_size;
			}
		}
		close(fd);
	}
	return c;
}

struct prov {
	struct code	code;
	u8		mode;
};

/* an ip names a "function" in the DSO's bytes: start ip % len (16-aligned), ip_off its low byte */
static int prov_rule(void *arg, u64 ip, bool top, u32 ws, struct unwind_rule *rule)
{
	struct prov *p = arg;
	size_t start, off = ip & 0xff;

	if (!p->code.len || (!top && !(p->mode & 1)))
		return -1;
	start = (size_t)((ip >> 8) % p->code.len) & ~(size_t)15;
	return unwind_insn__rule(p->code.bytes + start, p->code.len - start, off, ws, rule);
}

static bool prov_is_code(void *arg, u64 ip)
{
	struct prov *p = arg;

	return !(p->mode & 2) || (ip & 3) != 3;
}

static u64 take(const uint8_t **d, size_t *n, size_t bytes)
{
	u64 v = 0;

	if (bytes > *n)
		bytes = *n;
	memcpy(&v, *d, bytes);
	*d += bytes;
	*n -= bytes;
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u64 ips[UNWIND_MAX_FRAMES];
	static u8 src[UNWIND_MAX_FRAMES];
	static u64 kern[64];
	struct prov p = { .code = dso_code() };
	struct unwind_walk_ops ops = { .rule = prov_rule, .is_code = prov_is_code, .arg = &p };
	struct unwind_state st = { 0 };
	struct unwind_stack stack;
	struct unwind_rule top, rule;
	enum unwind_stop why;
	u32 n, k, max;
	u64 base, fp0;
	bool fp0_unknown;
	int d;

	p.mode = (u8)take(&data, &size, 1);
	st.ws = (p.mode & 4) ? 4 : 8;
	base = take(&data, &size, 8);
	st.ip = take(&data, &size, 8);
	/* SP at or near the dump, FP anywhere near it: most inputs then get a step or two */
	st.sp = base;
	st.fp = base + (take(&data, &size, 2) & 0x3ff);
	if (p.mode & 8)
		st.fp = take(&data, &size, 8);
	/* a sample without bp */
	st.fp_unknown = p.mode & 32;
	if (st.ws == 4) {
		base &= 0xffffffff;
		st.sp &= 0xffffffff;
		st.fp &= 0xffffffff;
	}
	k = (u32)(take(&data, &size, 1) % 64);
	for (u32 i = 0; i < k; i++)
		kern[i] = take(&data, &size, 8);
	max = 1 + (u32)(take(&data, &size, 2) % UNWIND_MAX_FRAMES);
	/* the rest is the dump; its first bytes are also code for the decoder */
	stack = (struct unwind_stack){
		.data = data, .base = st.sp, .size = size, .swapped = p.mode & 16,
	};
	unwind_insn__rule(data, size, (size_t)(st.ip % (size + 1)), st.ws, &rule);
	fp0 = st.fp;
	fp0_unknown = st.fp_unknown;
	n = unwind_walk(&ops, &st, &stack, ips, src, max, &top, &why);
	if (n < 1 || n > max || why >= UNWIND_STOP_NR)
		abort();
	if (n > 1 && (st.sp < stack.base || st.sp - stack.base > stack.size))
		abort();
	/* one frame the kernel has and we do not, or frames we have and it missed */
	if (k && unwind_chain__align(ips, n, kern, k, &top, &d) && (d < -(int)n || d > 1))
		abort();
	/* the kernel's chain past the walk: 0, or an index into it past its sampled ip */
	if (k && unwind_chain__above(&st, &stack, fp0, fp0_unknown, kern, k) >= k)
		abort();
	return 0;
}
