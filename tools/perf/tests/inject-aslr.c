// SPDX-License-Identifier: GPL-2.0
/*
 * perf inject --aslr's layout (util/inject-aslr.c) on addresses and records built here: the
 * user half rotated around its cut (a bijection that keeps a mapping whole unless the cut
 * falls in it, and counts that), the kernel half slid by 2 MB steps, 0 and addresses past
 * the user range kept, callchain context markers and the deferred cookie kept, branches and
 * the data address moved, MMAP2 starts moved with pgoff kept (but the kernel's), KSYMBOL
 * moved, and two seeds giving two layouts.
 */
#include <string.h>
#include <perf/event.h>
#include <perf/kernel.h>
#include "util/inject-aslr.h"
#include "tests.h"

DEFINE_SUITE(inject_aslr)
{
	const u64 user[] = { 0x400000, 0x555555554000ULL, 0x7f0000001000ULL, 0x7ffffffde000ULL,
			     0x1000, 0x5fffffffffffULL };
	struct perf_branch_entry br[1] = { { .from = 0x555555555000ULL, .to = 0xffffffff81000100ULL } };
	struct perf_branch_entry br_out[1];
	u64 chain_in[] = { PERF_CONTEXT_KERNEL, 0xffffffff81001234ULL, PERF_CONTEXT_USER,
			   0x555555555123ULL, PERF_CONTEXT_USER_DEFERRED, 0x7f0000001000ULL };
	u64 chain_out[6];
	struct perf_sample s = {
		.ip = 0xffffffff81001234ULL, .addr = 0x7f0000002000ULL,
		.callchain_nr = 6, .callchain = chain_in, .branch_nr = 1, .branches = br,
	};
	struct {
		struct perf_record_mmap2 m;
		char name[16];
	} m2 = {
		.m = { .header = { .type = PERF_RECORD_MMAP2, .size = sizeof(m2) },
		       .start = 0x555555554000ULL, .len = 0x3000, .pgoff = 0x1000 },
		.name = "/bin/x",
	};
	struct perf_record_mmap km = {
		.header = { .type = PERF_RECORD_MMAP, .size = sizeof(km) },
		.start = 0xffffffff81000000ULL, .len = 0x1000000, .pgoff = 0xffffffff81000000ULL,
	};
	struct inject_aslr a, b;

	inject_aslr__init(&a, "x86_64", 1);
	inject_aslr__init(&b, "x86_64", 2);
	TEST_ASSERT(env, a.cut >= 0x600000000000ULL && a.cut < 0x700000000000ULL &&
			 !(a.cut & 0xfff), "cut %#llx not a page in the hole",
		    (unsigned long long)a.cut);
	TEST_ASSERT(env, a.kernel_slide && !(a.kernel_slide % 0x200000) &&
			 a.kernel_slide <= 255 * 0x200000ULL, "kernel slide %#llx",
		    (unsigned long long)a.kernel_slide);
	TEST_ASSERT(env, a.cut != b.cut || a.kernel_slide != b.kernel_slide,
		    "two seeds, one layout");

	for (size_t i = 0; i < ARRAY_SIZE(user); i++) {
		u64 to = inject_aslr__addr(&a, user[i]);

		TEST_ASSERT(env, to != user[i] && to < (1ULL << 47),
			    "user %#llx -> %#llx", (unsigned long long)user[i],
			    (unsigned long long)to);
		/* a page stays a page: the next byte is the next byte */
		TEST_ASSERT(env, inject_aslr__addr(&a, user[i] + 1) == to + 1,
			    "user %#llx: not a translation", (unsigned long long)user[i]);
		for (size_t k = 0; k < i; k++)
			TEST_ASSERT(env, inject_aslr__addr(&a, user[k]) != to,
				    "two addresses, one place");
	}
	/* the order changes: the executable (below the cut) goes above the libraries */
	TEST_ASSERT(env, inject_aslr__addr(&a, 0x555555554000ULL) >
			 inject_aslr__addr(&a, 0x7f0000001000ULL), "the order stayed");
	TEST_ASSERT(env, !inject_aslr__addr(&a, 0), "0 moved");
	TEST_ASSERT(env, inject_aslr__addr(&a, 1ULL << 47) == 1ULL << 47,
		    "an address past the user range moved");
	TEST_ASSERT(env, inject_aslr__addr(&a, 0xffffffff81000000ULL) ==
			 0xffffffff81000000ULL - a.kernel_slide, "kernel not slid");
	/* a bijection around the cut: its two sides meet at the range's ends */
	TEST_ASSERT(env, inject_aslr__addr(&a, a.cut) == 0 &&
			 inject_aslr__addr(&a, a.cut - 1) == (1ULL << 47) - 1,
		    "the cut's neighbours: %#llx %#llx",
		    (unsigned long long)inject_aslr__addr(&a, a.cut),
		    (unsigned long long)inject_aslr__addr(&a, a.cut - 1));

	inject_aslr__sample(&a, &s, chain_out, br_out);
	TEST_ASSERT(env, s.callchain == chain_out && s.branches == br_out, "not copied");
	TEST_ASSERT(env, chain_out[0] == PERF_CONTEXT_KERNEL && chain_out[2] == PERF_CONTEXT_USER &&
			 chain_out[4] == PERF_CONTEXT_USER_DEFERRED, "a context marker moved");
	TEST_ASSERT(env, chain_out[5] == 0x7f0000001000ULL, "the deferred cookie moved");
	TEST_ASSERT(env, chain_out[1] == inject_aslr__addr(&a, 0xffffffff81001234ULL) &&
			 chain_out[3] == inject_aslr__addr(&a, 0x555555555123ULL),
		    "a frame not moved");
	TEST_ASSERT(env, s.ip == chain_out[1] && s.addr == inject_aslr__addr(&a, 0x7f0000002000ULL),
		    "ip or addr not moved");
	TEST_ASSERT(env, br_out[0].from == inject_aslr__addr(&a, 0x555555555000ULL) &&
			 br_out[0].to == inject_aslr__addr(&a, 0xffffffff81000100ULL),
		    "a branch not moved");
	TEST_ASSERT(env, chain_in[3] == 0x555555555123ULL && br[0].from == 0x555555555000ULL,
		    "the input changed");

	inject_aslr__record(&a, &m2.m.header);
	TEST_ASSERT(env, m2.m.start == inject_aslr__addr(&a, 0x555555554000ULL) &&
			 m2.m.pgoff == 0x1000 && m2.m.len == 0x3000, "MMAP2 %#llx pgoff %#llx",
		    (unsigned long long)m2.m.start, (unsigned long long)m2.m.pgoff);
	inject_aslr__record(&a, &km.header);
	TEST_ASSERT(env, km.start == 0xffffffff81000000ULL - a.kernel_slide &&
			 km.pgoff == km.start, "the kernel map %#llx pgoff %#llx",
		    (unsigned long long)km.start, (unsigned long long)km.pgoff);
	TEST_ASSERT(env, !a.straddling, "a map counted as cut");
	m2.m.start = a.cut - 0x1000;
	inject_aslr__record(&a, &m2.m.header);
	TEST_ASSERT(env, a.straddling == 1, "a map across the cut not counted");

	/* arm64 and the others: 48-bit user space */
	inject_aslr__init(&b, "aarch64", 1);
	TEST_ASSERT(env, b.user_end == 1ULL << 48 && inject_aslr__addr(&b, 0xffff00001000ULL) <
			 (1ULL << 48), "aarch64's user range");
	return TEST_OK;
}
