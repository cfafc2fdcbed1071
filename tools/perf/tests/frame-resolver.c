// SPDX-License-Identifier: GPL-2.0
/*
 * The frame resolver and perf report's repeat path.
 *
 * Where expectations come from: every resolved frame is compared with machine__resolve() of
 * the same address on the same machine (the resolver must be a cache of it, nothing more);
 * the walk rules (markers, cookie, unknown markers) are those of callchain.h. The repeat
 * test is differential: the same samples added with and without chain keys must print the
 * same report, byte for byte, in every mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "util/frame-resolver.h"
#include "util/hist-output.h"
#include "util/machine.h"
#include "util/symbol.h"
#include "run-helpers.h"
#include "tests.h"

#define KERNEL_START	0xffffffff81000000ULL
#define LIB_START	0x7f0000000000ULL
#define LIB_PGOFF	0x3000ULL

/* ---- a machine with a kernel (symbols from a kallsyms file) and one user map ---- */

static int write_kallsyms(const char *path)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	fprintf(f, "ffffffff81000000 T _text\n");
	fprintf(f, "ffffffff81000100 T kfunc_a\n");
	fprintf(f, "ffffffff81000200 T kfunc_b\n");
	ret = fclose(f) ? -EIO : 0;
	return ret;
}

static bool frame_is_resolution(const struct resolved_frame *f, const struct addr_location *al)
{
	return f->map == al->map && f->sym == al->sym && f->sym_addr == al->sym_addr &&
	       f->dso == (al->map ? al->map->dso : NULL) &&
	       f->map_ip == (al->map ? map__map_ip(al->map, f->ip) : f->ip);
}

/* every frame of chain against machine__resolve() of its address */
static bool chain_is_resolution(struct machine *m, struct thread *t,
				const struct resolved_chain *c)
{
	for (u32 i = 0; i < c->nr; i++) {
		struct addr_location al;

		machine__resolve(m, t, c->frames[i].cpumode, c->frames[i].ip, &al);
		if (!frame_is_resolution(&c->frames[i], &al))
			return false;
	}
	return true;
}

static struct perf_sample chain_sample(const u64 *words, u64 nr)
{
	return (struct perf_sample){ .callchain = words, .callchain_nr = nr };
}

DEFINE_SUITE(frame_resolver)
{
	const u64 words[] = {
		PERF_CONTEXT_KERNEL, KERNEL_START + 0x110, KERNEL_START + 0x208,
		PERF_CONTEXT_USER, LIB_START + 0x10, LIB_START + 0x20,
	};
	const u64 bad[] = { PERF_CONTEXT_KERNEL, KERNEL_START + 0x110, (u64)-1000, 0x1234 };
	const u64 cookie[] = { PERF_CONTEXT_KERNEL, KERNEL_START + 0x110,
			       PERF_CONTEXT_USER_DEFERRED, 0xc00c1e };
	const u64 stitched[] = { PERF_CONTEXT_KERNEL, KERNEL_START + 0x110,
				 PERF_CONTEXT_USER_DEFERRED, LIB_START + 0x30 };
	struct symbol_conf conf = { .symfs = "" };
	char kallsyms[4096];
	struct machine m;
	struct frame_resolver *fr = NULL;
	struct thread *t1, *t2;
	struct resolved_chain c, again;
	struct perf_sample s;
	const struct resolved_frame *rf;
	struct addr_location al;
	u64 *longc = NULL, id;
	int ret = TEST_FAIL;

	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", env->tmpdir);
	TEST_ASSERT(env, !write_kallsyms(kallsyms), "cannot write %s", kallsyms);
	conf.kallsyms = kallsyms;
	TEST_ASSERT(env, !machine__init(&m, &conf), "machine__init");
	if (test_machine_mmap(&m, PERF_RECORD_MISC_KERNEL, (u32)-1, KERNEL_START, 0x1000000,
			      KERNEL_START, "[kernel.kallsyms]_text") ||
	    test_machine_mmap(&m, PERF_RECORD_MISC_USER, 10, LIB_START, 0x10000, LIB_PGOFF,
			      "/nonexistent/libresolver.so") ||
	    test_machine_mmap(&m, PERF_RECORD_MISC_USER, 20, LIB_START, 0x10000, 0,
			      "/nonexistent/libother.so"))
		goto out;
	t1 = machine__findnew_thread(&m, 10, 10);
	t2 = machine__findnew_thread(&m, 20, 20);
	fr = frame_resolver__new(&m);
	if (!t1 || !t2 || !fr)
		goto out;

	/* markers removed, cpumodes and origins from them, each frame as machine__resolve() */
	s = chain_sample(words, 6);
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &c), "chain");
	TEST_ASSERT(env, c.nr == 4, "4 frames, got %u", c.nr);
	TEST_ASSERT(env, c.id > FRAME_CHAIN_ID_EMPTY, "a cached chain has an id, got %llu",
		    (unsigned long long)c.id);
	TEST_ASSERT(env, c.frames[0].cpumode == PERF_RECORD_MISC_KERNEL &&
		    c.frames[0].origin == FRAME_ORIGIN_KERNEL, "kernel frame");
	TEST_ASSERT(env, c.frames[0].sym && !strcmp(c.frames[0].sym->name, "kfunc_a") &&
		    c.frames[0].sym_addr - c.frames[0].sym->start == 0x10, "kfunc_a+0x10");
	TEST_ASSERT(env, c.frames[1].sym && !strcmp(c.frames[1].sym->name, "kfunc_b"), "kfunc_b");
	TEST_ASSERT(env, c.frames[2].cpumode == PERF_RECORD_MISC_USER &&
		    c.frames[2].origin == FRAME_ORIGIN_USER_FP, "user frame");
	TEST_ASSERT(env, c.frames[2].dso && !strcmp(c.frames[2].dso->long_name,
						      "/nonexistent/libresolver.so"), "user dso");
	TEST_ASSERT(env, c.frames[3].map_ip == 0x20 + LIB_PGOFF, "map-relative ip %#llx",
		    (unsigned long long)c.frames[3].map_ip);
	TEST_ASSERT(env, !c.frames[2].srcline && c.frames[2].origin != FRAME_ORIGIN_INLINE,
		    "inline frames are off by default");
	TEST_ASSERT(env, chain_is_resolution(&m, t1, &c), "frames differ from machine__resolve()");

	/* a repeat is the same cached chain */
	id = c.id;
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &again), "chain again");
	TEST_ASSERT(env, again.id == id && again.nr == 4, "same chain, same id");

	/* another thread's maps resolve the user part differently: another chain */
	TEST_ASSERT(env, !frame_resolver__chain(fr, t2, &s, &c), "chain in t2");
	TEST_ASSERT(env, c.id && c.id != id, "another thread, another id");
	TEST_ASSERT(env, c.frames[2].dso && !strcmp(c.frames[2].dso->long_name,
						      "/nonexistent/libother.so"), "t2's dso");
	TEST_ASSERT(env, chain_is_resolution(&m, t2, &c), "t2 frames differ from machine__resolve()");

	/* a map change (maps_gen) is a new resolution, with the new map */
	TEST_ASSERT(env, !test_machine_mmap(&m, PERF_RECORD_MISC_USER, 10, LIB_START, 0x10000, 0,
					    "/nonexistent/libnew.so"), "mmap");
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &c), "chain after mmap");
	TEST_ASSERT(env, c.id && c.id != id, "maps changed, new id");
	TEST_ASSERT(env, c.frames[2].dso && !strcmp(c.frames[2].dso->long_name,
						      "/nonexistent/libnew.so"), "new map used");
	TEST_ASSERT(env, chain_is_resolution(&m, t1, &c), "frames after mmap differ");

	/* an unknown marker drops the chain whole */
	s = chain_sample(bad, 4);
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &c), "bad chain");
	TEST_ASSERT(env, c.nr == 0 && c.id == FRAME_CHAIN_ID_EMPTY, "dropped: %u frames", c.nr);
	s = chain_sample(words, 0);
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &c), "no chain");
	TEST_ASSERT(env, c.nr == 0 && c.id == FRAME_CHAIN_ID_EMPTY, "empty chain");

	/* an unstitched cookie is the last frame, resolved as a user address */
	s = chain_sample(cookie, 4);
	s.deferred_callchain = true;
	s.deferred_cookie = 0xc00c1e;
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &c), "cookie chain");
	TEST_ASSERT(env, c.nr == 2 && c.frames[1].origin == FRAME_ORIGIN_COOKIE &&
		    c.frames[1].ip == 0xc00c1e && c.frames[1].cpumode == PERF_RECORD_MISC_USER,
		    "cookie frame");
	/* the same words stitched (no cookie): a user frame from the deferred record */
	s = chain_sample(stitched, 4);
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &c), "stitched chain");
	TEST_ASSERT(env, c.nr == 2 && c.frames[1].origin == FRAME_ORIGIN_DEFERRED &&
		    c.frames[1].dso, "deferred frame");
	TEST_ASSERT(env, chain_is_resolution(&m, t1, &c), "stitched frames differ");

	/* a chain too long to cache is still resolved whole, with no id */
	longc = malloc(1001 * sizeof(*longc));
	if (!longc)
		goto out;
	longc[0] = PERF_CONTEXT_USER;
	for (u64 i = 1; i < 1001; i++)
		longc[i] = LIB_START + i * 8;
	s = chain_sample(longc, 1001);
	TEST_ASSERT(env, !frame_resolver__chain(fr, t1, &s, &c), "long chain");
	TEST_ASSERT(env, c.nr == 1000 && c.id == 0, "long chain: %u frames, id %llu", c.nr,
		    (unsigned long long)c.id);
	TEST_ASSERT(env, chain_is_resolution(&m, t1, &c), "long chain frames differ");

	/* one address, as machine__resolve() */
	rf = frame_resolver__addr(fr, t1, PERF_RECORD_MISC_KERNEL, KERNEL_START + 0x204);
	machine__resolve(&m, t1, PERF_RECORD_MISC_KERNEL, KERNEL_START + 0x204, &al);
	TEST_ASSERT(env, frame_is_resolution(rf, &al) && rf->origin == FRAME_ORIGIN_SAMPLE,
		    "address");
	rf = frame_resolver__addr(fr, t1, PERF_RECORD_MISC_USER, LIB_START + 0x44);
	machine__resolve(&m, t1, PERF_RECORD_MISC_USER, LIB_START + 0x44, &al);
	TEST_ASSERT(env, frame_is_resolution(rf, &al), "user address");
	ret = TEST_OK;
out:
	free(longc);
	frame_resolver__delete(fr);
	machine__exit(&m);
	return ret;
}

/* ---- repeats: the same report with and without chain keys ---- */

#define NR_CHAINS	12
#define CHAIN_LEN	6
#define NR_SAMPLES	4000

struct repeat_pool {
	struct dso		*dsos[3];
	struct symbol		syms[8];
	struct chain_frame	chains[NR_CHAINS][CHAIN_LEN];
	u32			nr[NR_CHAINS];
};

/* chains over a few functions, some unresolved, some recursive; lengths vary */
static void repeat_pool__init(struct repeat_pool *p, u64 seed)
{
	static const char *const names[8] = { "main", "run", "step", "leaf", "rec", "io",
					      "alloc", "lock" };

	for (int i = 0; i < 8; i++)
		p->syms[i] = (struct symbol){ .start = 0x1000 + (u64)i * 0x100,
					      .end = 0x1000 + (u64)i * 0x100 + 0x80,
					      .name = names[i] };
	for (int c = 0; c < NR_CHAINS; c++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		p->nr[c] = 1 + (u32)((seed >> 33) % CHAIN_LEN);
		for (u32 i = 0; i < CHAIN_LEN; i++) {
			struct chain_frame *f = &p->chains[c][i];
			u64 r;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			r = seed >> 33;
			f->dso = p->dsos[r % 3];
			f->sym = r % 7 == 0 ? NULL : &p->syms[(r >> 4) % 8];
			f->ip = f->sym ? f->sym->start + (r >> 8) % 0x80 : 0x9000 + (r >> 8) % 64;
			f->dso_order = f->dso->seq + 1;
		}
	}
}

/* the report of the pool's samples, seeded order; keyed: with chain keys (repeats) */
static char *repeat_report(const struct repeat_pool *p, const char *sort, bool children,
			   const char *graph, bool keyed, u64 *nr_slow)
{
	struct hist_opts o = { .children = children, .show_header = true };
	struct perf_err err;
	struct hists *h;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	u64 seed = 42;
	int ret = 0;

	chain_params__init(&o.chain);
	if (chain_params__parse(&o.chain, graph, &err) ||
	    hist_opts__setup(&o, sort, NULL, false, true, true, &err))
		return NULL;
	o.use_callchain = o.chain.mode != CHAIN_NONE;
	h = hists__new(&o);
	if (!h)
		return NULL;
	for (int i = 0; i < NR_SAMPLES && !ret; i++) {
		/* the pool opens up over time: new chains keep reshaping the trees */
		u32 open = 2 + (u32)((u64)i * (NR_CHAINS - 2) / NR_SAMPLES), c;
		struct hist_sample s;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		c = (u32)((seed >> 33) % open);
		s = (struct hist_sample){
			.comm = (seed >> 40) % 5 ? "worker" : "main", .pid = 1,
			.tid = 1 + (s32)((seed >> 44) % 2), .cpu = (s32)((seed >> 46) % 2),
			.dso = p->chains[c][0].dso, .sym = p->chains[c][0].sym,
			.ip = p->chains[c][0].ip, .level = '.',
			.period = 1 + (seed >> 50) % 1000, .has_callchain = true,
			.chain_key = keyed ? 2 + c : 0,
		};
		if (hists__add_repeat(h, &s))
			continue;
		s.frames = p->chains[c];
		s.nr_frames = p->nr[c];
		ret = hists__add_sample(h, &s);
	}
	*nr_slow = h->nr_slow;
	fp = open_memstream(&buf, &len);
	if (!ret && fp && !hists__output_resort(h, NULL))
		ret = hists__fprintf(h, fp);
	if (fp)
		fclose(fp);
	hists__delete(h);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

DEFINE_SUITE(report_repeats)
{
	static const struct {
		const char	*sort;
		bool		children;
		const char	*graph;
	} modes[] = {
		{ "comm,dso,symbol", false, "graph,0.5,callee" },
		{ "comm,dso,symbol", true, "graph,0.5,caller" },
		{ "pid,symbol", true, "fractal,0,callee" },
		{ "cpu,dso", false, "flat,0" },
		{ "symbol", true, "folded,0,caller,count" },
		{ "comm,dso,symbol", true, "graph,0,callee,count" },
		{ "dso,symbol", false, "fractal,0,caller,period" },
		{ "comm,dso,symbol", true, "none" },
	};
	struct repeat_pool pool;
	struct dsos dsos;
	int ret = TEST_FAIL;

	dsos__init(&dsos);
	pool.dsos[0] = dsos__findnew(&dsos, "/usr/bin/app", DSO_KIND_USER);
	pool.dsos[1] = dsos__findnew(&dsos, "/usr/lib/libc.so.6", DSO_KIND_USER);
	pool.dsos[2] = dsos__findnew(&dsos, "/usr/lib/libm.so.6", DSO_KIND_USER);
	if (!pool.dsos[0] || !pool.dsos[1] || !pool.dsos[2])
		goto out;
	repeat_pool__init(&pool, 7);
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		u64 slow_keyed, slow_plain;
		char *keyed = repeat_report(&pool, modes[i].sort, modes[i].children, modes[i].graph,
					    true, &slow_keyed);
		char *plain = repeat_report(&pool, modes[i].sort, modes[i].children, modes[i].graph,
					    false, &slow_plain);
		bool same = keyed && plain && !strcmp(keyed, plain);

		if (!same && env->verbose)
			fprintf(stderr, "--- with repeats (%s):\n%s\n--- without:\n%s\n",
				modes[i].graph, keyed ? keyed : "(failed)", plain ? plain : "(failed)");
		free(keyed);
		free(plain);
		TEST_ASSERT(env, same, "sort %s, %s, -g %s: the reports differ", modes[i].sort,
			    modes[i].children ? "children" : "no children", modes[i].graph);
		/* without keys every sample takes the slow path; with them most must not */
		TEST_ASSERT(env, slow_plain == NR_SAMPLES && slow_keyed < NR_SAMPLES / 4,
			    "mode %zu: slow-path samples: %llu with keys, %llu without", i,
			    (unsigned long long)slow_keyed, (unsigned long long)slow_plain);
	}
	ret = TEST_OK;
out:
	dsos__exit(&dsos);
	return ret;
}
