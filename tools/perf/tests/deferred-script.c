// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end tests of deferred-callchain stitching:
 *
 *  deferred_convert  real `-g` recordings (the golden fixtures) rewritten into the deferred
 *                    form (tests/defer-convert.c), with records dropped, moved ahead of
 *                    samples and delayed behind other threads', in file, pipe, zstd and cross-endian
 *                    layouts: stitching them in time order must give every sample its
 *                    original stack back (the marker aside), and `perf script` of the
 *                    rewritten file must print what it prints for the original;
 *  deferred_script   `perf script` of every synthetic deferred fixture must print what it
 *                    prints for the equivalent inline recording.
 *
 * Outputs are compared as sorted sample blocks: a stitched sample is printed when its record
 * arrives, as upstream perf does, so the order of blocks differs from an inline recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "util/deferred.h"
#include "defer-convert.h"
#include "fixture-defer.h"
#include "run-helpers.h"
#include "tests.h"

/* ---- running perf script ------------------------------------------------------------------ */

struct blocks {
	char	*text;
	char	**b;
	size_t	nr;
};

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the output cut at blank lines into sample blocks, sorted */
static int blocks__read(struct blocks *bl, const char *path)
{
	size_t len, alloc = 0;
	char *p;
	int ret;

	memset(bl, 0, sizeof(*bl));
	ret = test_read_file(path, &bl->text, &len);
	if (ret)
		return ret;
	for (p = bl->text; *p;) {
		char *end = strstr(p, "\n\n");

		if (end) {
			end[1] = '\0';
			end += 2;
		} else {
			end = p + strlen(p);
		}
		while (*end == '\n')
			end++;
		if (*p && *p != '\n') {
			if (bl->nr == alloc) {
				char **n;

				alloc = alloc ? alloc * 2 : 256;
				n = realloc(bl->b, alloc * sizeof(*n));
				if (!n)
					return -ENOMEM;
				bl->b = n;
			}
			bl->b[bl->nr++] = p;
		}
		p = end;
	}
	qsort(bl->b, bl->nr, sizeof(*bl->b), str_cmp);
	return 0;
}

static void blocks__exit(struct blocks *bl)
{
	free(bl->b);
	free(bl->text);
}

/* perf script -i data [-F fields] > out, the output's sample blocks sorted */
static int script_blocks_fields(const struct test_env *env, const char *data, const char *fields,
				const char *out, struct blocks *bl)
{
	char errf[4096 + 8], ks[4096 + 16];
	int st;
	FILE *fp;

	/*
	 * Kernel frames are looked up in an empty kallsyms: a converted pipe has lost the
	 * recorded kernel build id, and this system's kallsyms would name them as if they were
	 * its own, where the original stays unknown.
	 */
	snprintf(ks, sizeof(ks), "--kallsyms=%s/empty-kallsyms", env->tmpdir);
	fp = fopen(ks + strlen("--kallsyms="), "a");
	TEST_ASSERT(env, fp && !fclose(fp), "cannot create %s", ks + strlen("--kallsyms="));
	snprintf(errf, sizeof(errf), "%s.err", out);
	st = test_run_argv(fields ? (const char *const[]){ env->perf, "script", ks, "-i", data, "-F", fields, NULL } :
				    (const char *const[]){ env->perf, "script", ks, "-i", data, NULL },
			   out, errf);
	TEST_ASSERT(env, st == 0, "perf script -i %s exited with %d (see %s)", data, st, errf);
	TEST_ASSERT(env, blocks__read(bl, out) == 0, "cannot read %s", out);
	TEST_ASSERT(env, bl->nr > 0, "perf script -i %s printed no sample", data);
	return TEST_OK;
}

static int script_blocks(const struct test_env *env, const char *data, const char *out,
			 struct blocks *bl)
{
	return script_blocks_fields(env, data, NULL, out, bl);
}

static int blocks_equal(const struct test_env *env, const struct blocks *g, const struct blocks *w,
			const char *got, const char *want)
{
	TEST_ASSERT(env, g->nr == w->nr, "%s: %zu sample blocks, %s has %zu", got, g->nr, want, w->nr);
	for (size_t i = 0; i < g->nr; i++)
		TEST_ASSERT(env, !strcmp(g->b[i], w->b[i]), "%s differs from %s, first at:\n%s\nwant:\n%s",
			    got, want, g->b[i], w->b[i]);
	return TEST_OK;
}

/*
 * perf script of both files, then the same blocks on both sides. fields (NULL: perf's
 * defaults) makes both print the same fields whatever their modes: a pipe's tracepoint
 * callchains print without offsets and dsos by default, a file's with them, as upstream.
 */
static int script_equal(const struct test_env *env, const char *got_data, const char *want_data,
			const char *fields, const char *tag)
{
	char got[4096], want[4096];
	struct blocks g = { 0 }, w = { 0 };
	int ret;

	snprintf(got, sizeof(got), "%s/%s.got.txt", env->tmpdir, tag);
	snprintf(want, sizeof(want), "%s/%s.want.txt", env->tmpdir, tag);
	ret = script_blocks_fields(env, want_data, fields, want, &w);
	if (ret == TEST_OK)
		ret = script_blocks_fields(env, got_data, fields, got, &g);
	if (ret == TEST_OK)
		ret = blocks_equal(env, &g, &w, got, want);
	blocks__exit(&g);
	blocks__exit(&w);
	return ret;
}

/* ---- stitching a converted recording back ------------------------------------------------- */

struct orig_sample {
	u64	time;
	u32	tid;
	int	ev;
	u64	nr;
	u64	*chain;
	bool	seen;
};

struct convert_check {
	const struct test_env	*env;
	struct orig_sample	*o;
	size_t			nr;
	u64			unmerged, bad;
	u64			scratch[8192];
};

static int orig_cmp(const void *a, const void *b)
{
	const struct orig_sample *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->ev - y->ev;
}

static void convert_check__exit(struct convert_check *cc)
{
	for (size_t i = 0; i < cc->nr; i++)
		free(cc->o[i].chain);
	free(cc->o);
}

static int convert_check__read_orig(struct convert_check *cc, const char *path)
{
	struct perf_err err = { "" };
	struct perf_data *d = perf_data__open(path, &err);
	struct perf_data_record r;
	size_t alloc = 0;
	int ret;

	if (!d)
		return -EINVAL;
	while ((ret = perf_data__next(d, &r, &err)) > 0) {
		struct perf_evattr *ea;
		struct perf_sample s;
		struct orig_sample *o;

		if (r.header->type != PERF_RECORD_SAMPLE)
			continue;
		ea = perf_data__attr_of(d, r.header);
		if (!ea || perf_evattr__parse_sample(ea, r.header, false, NULL, &s, &err)) {
			ret = -EINVAL;
			break;
		}
		if (cc->nr == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			o = realloc(cc->o, alloc * sizeof(*o));
			if (!o) {
				ret = -ENOMEM;
				break;
			}
			cc->o = o;
		}
		o = &cc->o[cc->nr++];
		o->time = s.time;
		o->tid = s.tid;
		o->ev = ea->idx;
		o->nr = s.callchain_nr;
		o->seen = false;
		o->chain = malloc((o->nr ? o->nr : 1) * sizeof(u64));
		if (!o->chain) {
			ret = -ENOMEM;
			break;
		}
		memcpy(o->chain, s.callchain, o->nr * sizeof(u64));
	}
	perf_data__close(d);
	qsort(cc->o, cc->nr, sizeof(*cc->o), orig_cmp);
	return ret;
}

static int convert_check__deliver(void *arg, const struct deferred_sample *from,
				  struct perf_sample *s)
{
	const struct perf_event_header *event = from->event;
	struct perf_evattr *ea = from->evattr;
	struct convert_check *cc = arg;
	struct orig_sample key = { .time = s->time, .tid = s->tid, .ev = ea->idx };
	struct orig_sample *o = bsearch(&key, cc->o, cc->nr, sizeof(*cc->o), orig_cmp);
	bool ok;

	(void)event;
	if (!o || o->seen) {
		cc->bad++;
		return 0;
	}
	o->seen = true;
	if (s->deferred_callchain) {
		/* released: the original's kernel part, then marker + cookie */
		cc->unmerged++;
		ok = s->callchain_nr >= 2 && s->callchain_nr - 2 <= o->nr &&
		     !memcmp(s->callchain, o->chain, (s->callchain_nr - 2) * sizeof(u64)) &&
		     o->chain[s->callchain_nr - 2] == PERF_CONTEXT_USER;
	} else {
		/* the original stack, the deferred marker where PERF_CONTEXT_USER was */
		ok = s->callchain_nr == o->nr;
		for (u64 i = 0; ok && i < o->nr; i++)
			ok = s->callchain[i] == o->chain[i] ||
			     (o->chain[i] == PERF_CONTEXT_USER && s->callchain[i] == PERF_CONTEXT_USER_DEFERRED);
	}
	if (!ok && cc->bad++ < 3 && cc->env->verbose)
		fprintf(stderr, "sample of %u at %llu delivered with another stack\n", s->tid,
			(unsigned long long)s->time);
	return 0;
}

struct sorted_rec {
	struct perf_event_header *h;
	u64	time;
	size_t	seq;
	struct perf_evattr *ea;
};

static int sorted_cmp(const void *a, const void *b)
{
	const struct sorted_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the session's part on the converted file: time order, then the stitcher */
static int convert_check__stitch(struct convert_check *cc, const char *path,
				 const struct perf_defer_convert_stats *cs)
{
	const struct test_env *env = cc->env;
	struct perf_err err = { "" };
	struct perf_data *d = perf_data__open(path, &err);
	struct deferred_stitcher *ds = deferred_stitcher__new(0, convert_check__deliver, cc);
	const struct deferred_stats *st;
	struct sorted_rec *recs = NULL;
	size_t nr = 0, alloc = 0;
	struct perf_data_record r;
	int ret = TEST_FAIL, rd;

	if (!d || !ds)
		goto out;
	while ((rd = perf_data__next(d, &r, &err)) > 0) {
		struct perf_sample s;

		if (r.header->type >= PERF_RECORD_USER_TYPE_START)
			continue;
		if (nr == alloc) {
			struct sorted_rec *n;

			alloc = alloc ? alloc * 2 : 4096;
			n = realloc(recs, alloc * sizeof(*n));
			if (!n)
				goto out;
			recs = n;
		}
		recs[nr].ea = perf_data__attr_of(d, r.header);
		recs[nr].h = malloc(r.header->size);
		if (!recs[nr].ea || !recs[nr].h) {
			free(recs[nr].h);
			goto out;
		}
		memcpy(recs[nr].h, r.header, r.header->size);
		if (perf_evattr__parse_sample(recs[nr].ea, recs[nr].h, perf_data__needs_swap(d),
					      cc->scratch, &s, &err)) {
			free(recs[nr].h);
			goto out;
		}
		recs[nr].time = s.time;
		recs[nr].seq = nr;
		nr++;
	}
	if (rd < 0)
		goto out;
	qsort(recs, nr, sizeof(*recs), sorted_cmp);
	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_header *h = recs[i].h;
		struct perf_sample s;
		int r2 = perf_evattr__parse_sample(recs[i].ea, h, perf_data__needs_swap(d), cc->scratch, &s, &err);

		if (!r2 && h->type == PERF_RECORD_SAMPLE)
			r2 = s.deferred_callchain ?
			     deferred_stitcher__sample(ds, h, &s, recs[i].ea, perf_data__needs_swap(d)) :
			     convert_check__deliver(cc, &(struct deferred_sample){ .event = h, .evattr = recs[i].ea }, &s);
		else if (!r2 && h->type == PERF_RECORD_CALLCHAIN_DEFERRED)
			r2 = perf_record_callchain_deferred__check(h, recs[i].ea->id_hdr_size, &err) ?:
			     deferred_stitcher__record(ds, (const void *)h, s.tid, false);
		else if (!r2 && h->type == PERF_RECORD_EXIT)
			r2 = deferred_stitcher__thread_exit(ds, ((const struct perf_record_fork *)h)->tid);
		if (r2)
			goto out;
	}
	if (deferred_stitcher__flush(ds))
		goto out;
	st = deferred_stitcher__stats(ds);
	for (size_t i = 0; i < cc->nr; i++)
		if (!cc->o[i].seen)
			cc->bad++;
	if (env->verbose > 1)
		deferred_stats__fprintf(st, stderr);
	if (!cc->bad && cc->unmerged == cs->dropped_samples && st->stitched_early == cs->early &&
	    st->stitched + st->stitched_early + cc->unmerged == cs->samples &&
	    st->records == cs->entries - cs->dropped && !st->records_unused && !st->records_duplicate)
		ret = TEST_OK;
	else if (env->verbose)
		fprintf(stderr, "%s: %llu samples wrong or missing, %llu unmerged (want %lu), %llu early (want %lu), %llu stitched of %lu\n",
			path, (unsigned long long)cc->bad, (unsigned long long)cc->unmerged,
			cs->dropped_samples, (unsigned long long)st->stitched_early, cs->early,
			(unsigned long long)st->stitched, cs->samples);
out:
	if (ret != TEST_OK && env->verbose && err.msg[0])
		fprintf(stderr, "%s: %s\n", path, err.msg);
	for (size_t i = 0; i < nr; i++)
		free(recs[i].h);
	free(recs);
	deferred_stitcher__delete(ds);
	perf_data__close(d);
	return ret;
}

static bool perf_usable(const struct test_env *env)
{
	return env->perf && access(env->perf, X_OK) == 0;
}

static int convert_one(const struct test_env *env, const char *in, const char *tag, unsigned flags,
		       bool raw, struct perf_defer_convert_stats *total)
{
	struct convert_check cc = { .env = env };
	struct perf_defer_convert_stats cs;
	struct perf_err err = { "" };
	char out[4096], expected[4096];
	/* a file's default fields for its tracepoints, spelled out for the pipe it became */
	const char *fields = raw && (flags & PERF_DEFER_CONVERT_PIPE) ?
			     "trace:comm,tid,cpu,time,event,trace,ip,sym,symoff,dso" : NULL;
	int ret;

	snprintf(out, sizeof(out), "%s/%s.defer.data", env->tmpdir, tag);
	snprintf(expected, sizeof(expected), "%s/%s.expected.data", env->tmpdir, tag);
	ret = perf_defer_convert__stats(in, out, flags, &cs, &err);
	/* tracepoint payloads cannot be swapped blindly: refusing is the right answer */
	if (raw && (flags & PERF_DEFER_CONVERT_SWAP)) {
		TEST_ASSERT(env, ret == -EOPNOTSUPP && strstr(err.msg, "PERF_SAMPLE_RAW"),
			    "%s: converting tracepoints to the other byte order gave %d '%s'", tag, ret, err.msg);
		return TEST_OK;
	}
	TEST_ASSERT(env, ret == 0, "%s: %s", in, err.msg);
	TEST_ASSERT(env, cs.samples > 50 && cs.entries > 10, "%s: only %lu samples in %lu entries converted",
		    in, cs.samples, cs.entries);
	TEST_ASSERT(env, !(flags & PERF_DEFER_CONVERT_DROP) || cs.dropped, "%s: nothing dropped", tag);
	/* a CPU-bound program may have no kernel entry of two samples: counted over all inputs */
	total->early += cs.early;
	total->delayed += cs.delayed;
	if (env->verbose > 1)
		fprintf(stderr, "  %s: %lu samples, %lu entries, %lu dropped (%lu samples), %lu early, %lu delayed\n",
			tag, cs.samples, cs.entries, cs.dropped, cs.dropped_samples, cs.early, cs.delayed);
	ret = convert_check__read_orig(&cc, in);
	if (ret) {
		convert_check__exit(&cc);
		TEST_ASSERT(env, 0, "reading %s: %d", in, ret);
	}
	ret = convert_check__stitch(&cc, out, &cs);
	convert_check__exit(&cc);
	if (ret != TEST_OK || !perf_usable(env))
		return ret;
	if (flags & PERF_DEFER_CONVERT_DROP) {
		TEST_ASSERT(env, perf_defer_convert(in, expected, flags | PERF_DEFER_CONVERT_EXPECTED, &err) == 0,
			    "%s: %s", in, err.msg);
		return script_equal(env, out, expected, fields, tag);
	}
	return script_equal(env, out, in, fields, tag);
}

DEFINE_SUITE(deferred_convert)
{
	static const struct {
		const char	*set;	/* the fixture set (test_fixture()) */
		const char	*path;	/* in it */
		const char	*tag;
		bool		raw;	/* tracepoints */
	} inputs[] = {
		{ "perf72", "data/calls.fp.data", "calls", false },
		{ "perf72", "data/sys.fp.data", "sys", false },
		{ "perf72", "data/thr.fpz.data", "thr", false },	/* zstd, threads, fork + exec */
		{ "perf72", "data/calls.pipe.data", "pipe", false },
		{ "perf72", "data/sched.data", "sched", true },		/* tracing data, two events */
		{ "real-defer", "data/calls_nodefer.data", "attr144", false },	/* a 144-byte attr */
	};
	static const struct {
		unsigned	flags;
		const char	*tag;
	} modes[] = {
		{ 0, "plain" },
		{ PERF_DEFER_CONVERT_DROP | PERF_DEFER_CONVERT_EARLY | PERF_DEFER_CONVERT_DELAY, "perturbed" },
		{ PERF_DEFER_CONVERT_PIPE | PERF_DEFER_CONVERT_ZSTD | PERF_DEFER_CONVERT_EARLY, "pipe-zstd" },
		{ PERF_DEFER_CONVERT_SWAP | PERF_DEFER_CONVERT_DROP | PERF_DEFER_CONVERT_DELAY, "swap" },
	};
	struct perf_defer_convert_stats total = { 0 };
	char dir[2048], in[4096], tag[256];

	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		TEST_ASSERT(env, !test_fixture(env, inputs[i].set, dir, sizeof(dir)),
			    "cannot unpack %s", inputs[i].set);
		snprintf(in, sizeof(in), "%s/%s", dir, inputs[i].path);
		TEST_ASSERT(env, !access(in, R_OK), "%s is missing", in);
		for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
			snprintf(tag, sizeof(tag), "%s-%s", inputs[i].tag, modes[m].tag);
			if (convert_one(env, in, tag, modes[m].flags, inputs[i].raw, &total) != TEST_OK)
				return TEST_FAIL;
		}
	}
	TEST_ASSERT(env, total.early && total.delayed, "no record was moved early (%lu) or delayed (%lu)",
		    total.early, total.delayed);
	if (!perf_usable(env))
		return test__partial(env, "%zu recordings converted, their perf script comparisons not run: no perf binary at %s",
				     ARRAY_SIZE(inputs), env->perf);
	return TEST_OK;
}

/*
 * A deferred record claiming more ips than it holds: perf script must stop with one line
 * naming the record type, its offset and the numbers, not read the trailer as ips.
 */
static int script_bad_record(const struct test_env *env)
{
	const u64 chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, PERF_CONTEXT_USER_DEFERRED,
			      0x300000001ULL };
	const u64 ips[] = { 0x401000, 0x402000 }, id = 7;
	struct perf_sample ids = {
		.pid = 5, .tid = 5, .time = 1000, .id = id, .misc = PERF_RECORD_MISC_KERNEL,
		.ip = chain[1], .period = 1, .callchain = chain, .callchain_nr = 4,
	};
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD,
		.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(COMM) |
			 PERF_ATTR_FLAG(DEFER_CALLCHAIN) | PERF_ATTR_FLAG(DEFER_OUTPUT),
	};
	struct perf_err err = { "" };
	char path[4096], out[4096], errf[4096], want[64], *msg;
	struct perf_data_record r;
	struct perf_writer *w;
	struct perf_data *d;
	u64 buf[64], offset = 0;
	size_t len;
	int st;

	snprintf(path, sizeof(path), "%s/bad-deferred.data", env->tmpdir);
	snprintf(out, sizeof(out), "%s/bad-deferred.txt", env->tmpdir);
	snprintf(errf, sizeof(errf), "%s/bad-deferred.err", env->tmpdir);
	w = perf_writer__new(path, NULL, &err);
	TEST_ASSERT(env, w, "%s", err.msg);
	st = perf_writer__add_attr(w, &a, &id, 1, "cpu-clock", &err) < 0 ||
	     perf_sample__synthesize(&a, &ids, false, buf, sizeof(buf), &err) < 0 ||
	     perf_writer__write(w, (void *)buf, &err);
	ids.time = 2000;
	st = st || perf_record_callchain_deferred__synthesize(buf, sizeof(buf), &a, &ids, chain[3], ips, 2) < 0;
	buf[2] = 3;	/* nr: one more than the record holds before its sample_id */
	st = st || perf_writer__write(w, (void *)buf, &err) || perf_writer__finish(w, &err);
	perf_writer__delete(w);
	TEST_ASSERT(env, !st, "writing %s: %s", path, err.msg);

	d = perf_data__open(path, &err);
	TEST_ASSERT(env, d, "%s", err.msg);
	while (perf_data__next(d, &r, &err) > 0)
		if (r.header->type == PERF_RECORD_CALLCHAIN_DEFERRED)
			offset = r.file_offset;
	perf_data__close(d);
	TEST_ASSERT(env, offset, "the record is not in %s", path);

	st = test_run_argv((const char *const[]){ env->perf, "script", "-i", path, NULL }, out, errf);
	TEST_ASSERT(env, st > 0, "perf script accepted a deferred record with nr past its end (exit %d)", st);
	TEST_ASSERT(env, !test_read_file(errf, &msg, &len), "cannot read %s", errf);
	snprintf(want, sizeof(want), "%#llx", (unsigned long long)offset);
	st = len && strchr(msg, '\n') == msg + len - 1 && strstr(msg, "CALLCHAIN_DEFERRED") &&
	     strstr(msg, want) && strstr(msg, "claims 3 user ips, room for 2");
	if (!st && env->verbose)
		fprintf(stderr, "perf script said: %s", msg);
	free(msg);
	TEST_ASSERT(env, st, "not one line naming the record type, offset %s and its nr", want);
	return TEST_OK;
}

DEFINE_SUITE(deferred_script)
{
	static const char *const scenarios[] = { "main", "dup", "noattr" };
	static const char *const layouts[] = { "task", "cpu" };
	const struct defer_fixture_variant *variants;
	struct perf_err err = { "" };
	size_t nr_variants;
	char dir[2048], got[2200], want[2200], got_data[2200], want_data[2200];

	if (!perf_usable(env))
		return test__skip(env, "no perf binary at %s", env->perf ? env->perf : "(none)");
	snprintf(dir, sizeof(dir), "%s/fixtures", env->tmpdir);
	TEST_ASSERT(env, mkdir(dir, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", dir, strerror(errno));
	TEST_ASSERT(env, defer_fixtures__write(dir, &err) == 0, "writing the fixtures: %s", err.msg);
	variants = defer_fixture__variants(&nr_variants);
	for (int k = 0; k < 3; k++)
		for (int l = 0; l < 2; l++) {
			struct blocks w = { 0 };
			int ret;

			snprintf(want_data, sizeof(want_data), "%s/inline-%s-%s.data", dir, scenarios[k], layouts[l]);
			snprintf(want, sizeof(want), "%s/inline-%s-%s.txt", dir, scenarios[k], layouts[l]);
			ret = script_blocks(env, want_data, want, &w);
			for (size_t v = 0; v < nr_variants && ret == TEST_OK; v++) {
				struct blocks g = { 0 };

				snprintf(got_data, sizeof(got_data), "%s/defer-%s-%s-%s.data", dir,
					 scenarios[k], layouts[l], variants[v].name);
				snprintf(got, sizeof(got), "%s/defer-%s-%s-%s.txt", dir, scenarios[k],
					 layouts[l], variants[v].name);
				ret = script_blocks(env, got_data, got, &g);
				if (ret == TEST_OK)
					ret = blocks_equal(env, &g, &w, got, want);
				blocks__exit(&g);
			}
			blocks__exit(&w);
			if (ret != TEST_OK)
				return ret;
		}
	return script_bad_record(env);
}
