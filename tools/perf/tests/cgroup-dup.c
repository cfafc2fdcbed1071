// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup-dup.c - one cgroup id named by several PERF_RECORD_CGROUP records: the machine
 * keeps the first path (upstream's cgroup__findnew() finds the id and keeps its name), and
 * script -F cgroup, --show-cgroup-events and report --sort cgroup all read it there.
 *
 * The file is the corpus' cgroup.data (every sample in cgroup 1, "/") with a record naming
 * id 1 "/dup-first" before its own and one naming it "/dup-last" after: first-wins shows
 * "/dup-first", a table that kept the last would show "/dup-last", one that ignored the
 * added records "/". With upstream perf at hand (root), each output equals its.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rewrite.h"
#include "run-helpers.h"
#include "tests.h"

/* in with the two records around each CGROUP record of id 1 */
static int craft__record(struct perf_writer *w, struct perf_data *in,
			 const struct perf_data_record *r, void *ctx, struct perf_err *err)
{
	const size_t fixed = offsetof(struct perf_record_cgroup, path);
	const struct perf_record_cgroup *cg;
	int ret;

	(void)in;
	(void)ctx;
	if (!r)
		return 0;
	cg = (const void *)r->header;
	if (r->header->type != PERF_RECORD_CGROUP || cg->id != 1)
		return perf_writer__write(w, r->header, err);
	ret = test_write_restrung(w, r->header, fixed, "/dup-first", err);
	if (!ret)
		ret = perf_writer__write(w, r->header, err);
	if (!ret)
		ret = test_write_restrung(w, r->header, fixed, "/dup-last", err);
	return ret;
}

/* the file without report's random tip lines ("# (Tip: ...)") */
static char *read_output(const char *path)
{
	char *buf, *src, *dst;
	size_t len;

	if (test_read_file(path, &buf, &len))
		return NULL;
	for (src = dst = buf; *src;) {
		char *eol = strchr(src, '\n');
		size_t n = eol ? (size_t)(eol - src) + 1 : strlen(src);

		if (strncmp(src, "# (", 3)) {
			memmove(dst, src, n);
			dst += n;
		}
		src += n;
	}
	*dst = '\0';
	return buf;
}

static const char *const cases[][4] = {
	{ "script", "-F", "comm,tid,cgroup", NULL },
	{ "script", "--show-cgroup-events", "-F", "comm,tid,cgroup" },
	{ "report", "--stdio", "--no-children", "--sort=cgroup" },
};

DEFINE_SUITE(cgroup_duplicate_ids)
{
	char in[4200], crafted[4200], upstream[4200], ours[4300], theirs[4300], errs[4300];
	bool have_upstream;
	size_t nr_compared = 0, nr_cases = sizeof(cases) / sizeof(cases[0]);
	struct perf_err err;

	snprintf(in, sizeof(in), "%s/tools/perf/tests/data/corpus/cgroup.data", env->srcdir);
	snprintf(crafted, sizeof(crafted), "%s/dup.data", env->tmpdir);
	have_upstream = test_upstream_perf(env, upstream, sizeof(upstream));
	TEST_ASSERT(env, !test_rewrite(in, crafted, craft__record, NULL, &err),
		    "crafting from %s: %s", in, err.msg);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[] = { env->perf, cases[i][0], cases[i][1], cases[i][2], cases[i][3],
				       "--no-inline", "-i", crafted, NULL };
		char *got;
		bool same;
		int ret;

		if (!argv[4])
			argv[4] = "--no-inline";
		snprintf(ours, sizeof(ours), "%s/%zu.ours", env->tmpdir, i);
		snprintf(errs, sizeof(errs), "%s/%zu.err", env->tmpdir, i);
		if (test_run_argv(argv, ours, errs) != 0) {
			got = read_output(errs);
			TEST_ASSERT(env, false, "perf %s failed: %s", cases[i][0], got ? got : "");
		}
		got = read_output(ours);
		TEST_ASSERT(env, got, "no output of case %zu", i);
		/* --show-cgroup-events prints every record, the later ones too */
		if (i == 1)
			same = strstr(got, "cgroup: 1 /dup-last") && strstr(got, "20503  /dup-first") &&
			       !strstr(got, "20503  /dup-last");
		else
			same = strstr(got, "/dup-first") && !strstr(got, "/dup-last") &&
			       !strstr(got, " /\n");
		if (!same && env->verbose)
			fprintf(stderr, "case %zu: not the first path of cgroup 1:\n%s", i, got);
		if (!same || !have_upstream) {
			free(got);
			TEST_ASSERT(env, same, "case %zu", i);
			continue;
		}
		snprintf(theirs, sizeof(theirs), "%s/%zu.upstream", env->tmpdir, i);
		ret = test_upstream_same(upstream, argv, theirs, got, read_output);
		if (!ret && env->verbose)
			fprintf(stderr, "case %zu differs from upstream's (%s):\n%s", i, theirs, got);
		free(got);
		if (ret < 0)
			continue;	/* not compared: the partial pass below says so */
		TEST_ASSERT(env, ret, "case %zu: ours differs from upstream's", i);
		nr_compared++;
	}
	/* the cases: each output checked alone, then compared with upstream's */
	if (nr_compared < nr_cases)
		return test__partial(env, "%zu of %zu cases: %s", nr_cases + nr_compared,
				     2 * nr_cases, have_upstream ?
				     "upstream perf did not run, not compared with it" :
				     TEST_NO_UPSTREAM_PERF ", not compared with it");
	return TEST_OK;
}
