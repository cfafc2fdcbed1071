// SPDX-License-Identifier: GPL-2.0
/*
 * perf report of real deferred-callchain recordings (the real-defer fixture):
 *
 *  report_deferred_inline    each recording is rewritten with the user stacks our session
 *                            stitched written inline (an "undeferred" twin, as if recorded
 *                            with plain `-g`): perf report of the deferred file must print
 *                            what it prints for its twin, in every mode;
 *  report_deferred_upstream  upstream perf 7.2's report of the twin must equal ours of the
 *                            deferred file. This is the oracle for what we do where upstream
 *                            cannot: upstream's own report of the deferred file differs only
 *                            where it cannot stitch (samples taken after their record, which
 *                            it shows with the raw cookie) and in the comm of stitched
 *                            samples (it takes the comm at record time).
 *
 * The twin is perf inject's (util/inject.c). Upstream sorts its records by time, as we do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/kernel.h>
#include "util/sbuf.h"
#include "util/session.h"
#include "util/inject.h"
#include "fixture-defer.h"
#include "run-helpers.h"
#include "tests.h"

static const char *const recordings[] = { "calls", "calls_nodefer", "calls_u", "sys", "twoevents" };

/* the undeferred twin: perf inject's rewrite of in, with the defaults of perf inject */
static int inject_twin(const char *in, const char *out, struct perf_err *err)
{
	struct symbol_conf conf = { .symfs = "" };
	struct inject_opts opts = { .input = in, .output = out, .symbol_conf = &conf };

	return inject__run(&opts, NULL, err);
}

/* ---- running reports ---------------------------------------------------------------------- */

/*
 * The report text without what is not the profile: the random tip, and the "cannot open
 * maps" line upstream's chroot prints on stderr (the golden files caught it).
 */
static char *report_text(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, *text = NULL;
	size_t cap = 0, len = 0;
	ssize_t n;

	if (!fp)
		return NULL;
	text = calloc(1, 1);
	while (text && (n = getline(&line, &cap, fp)) > 0) {
		char *t;

		if (!strncmp(line, "# (Tip:", 7) || !strncmp(line, "# (Cannot load tips", 19) ||
		    !strncmp(line, "cannot open maps", 16))
			continue;
		t = realloc(text, len + (size_t)n + 1);
		if (!t) {
			free(text);
			text = NULL;
			break;
		}
		text = t;
		memcpy(text + len, line, (size_t)n + 1);
		len += (size_t)n;
	}
	free(line);
	fclose(fp);
	return text;
}

/* the first line where a and b differ, for -v */
static void show_first_difference(const char *a, const char *b)
{
	size_t line = 1;

	while (*a && *a == *b) {
		if (*a == '\n')
			line++;
		a++;
		b++;
	}
	fprintf(stderr, "first difference at line %zu:\n  want: %.*s\n  got:  %.*s\n", line,
		(int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

static bool same_report(const struct test_env *env, const char *want_path, const char *got_path)
{
	char *want = report_text(want_path), *got = report_text(got_path);
	bool same = want && got && !strcmp(want, got) && strstr(got, "# Samples:");

	if (!same && env->verbose && want && got)
		show_first_difference(want, got);
	free(want);
	free(got);
	return same;
}

/*
 * Where upstream's order is its heap's: callchain siblings with equal percentages in
 * different dsos are ordered by the addresses of upstream's dso objects, which move with
 * its version and with the file's header. The canonical form below sorts each run of equal
 * siblings by their text and keeps everything else as printed, so only that order is let
 * go of: graph and caller trees are parsed by the columns of their "--pct--" markers, and
 * runs of folded lines with one percentage are sorted.
 */
struct canon_kid {
	char	*pct;
	char	*text;
};

/* the first column that is neither a space nor a graph bar */
static size_t graph_col(const char *l)
{
	size_t c = 0;

	while (l[c] == ' ' || l[c] == '|')
		c++;
	return c;
}

static int kid_cmp(const void *a, const void *b)
{
	return strcmp(((const struct canon_kid *)a)->text, ((const struct canon_kid *)b)->text);
}

/* the canonical text of the node whose frames stand at column col (first: its first frame) */
static void canon_node(char **lines, size_t n, size_t *i, size_t col, const char *first,
		       struct sbuf *out)
{
	struct canon_kid *kids = NULL;
	size_t nr = 0;

	sbuf__printf(out, "F %s\n", first);
	for ((*i)++; *i < n;) {
		char *l = lines[*i], *pct, *end;
		size_t c = graph_col(l);
		struct sbuf sub;

		if (!l[c]) {
			(*i)++;
			continue;
		}
		if (c == col && strncmp(l + c, "--", 2)) {
			sbuf__printf(out, "F %s\n", l + c);
			(*i)++;
			continue;
		}
		/*
		 * A child hangs off this node's column, "|--12.5%--name"; its further frames
		 * stand 11 columns right of the bar, whatever the width of the percentage.
		 */
		if (c != col + 1 || strncmp(l + c, "--", 2) || !(end = strstr(l + c + 2, "%--")))
			break;
		pct = strndup(l + c + 2, (size_t)(end - (l + c + 2)) + 1);
		sbuf__init(&sub);
		canon_node(lines, n, i, c + 10, end + 3, &sub);
		sbuf__addc(&sub, '\0');
		kids = realloc(kids, (nr + 1) * sizeof(*kids));
		if (!kids || !pct || sub.oom)
			abort();
		kids[nr].pct = pct;
		kids[nr++].text = sub.buf;
	}
	for (size_t a = 0, b; a < nr; a = b) {
		for (b = a + 1; b < nr && !strcmp(kids[a].pct, kids[b].pct); b++)
			;
		qsort(kids + a, b - a, sizeof(*kids), kid_cmp);
	}
	for (size_t k = 0; k < nr; k++) {
		sbuf__printf(out, "C %s\n%sE\n", kids[k].pct, kids[k].text);
		free(kids[k].pct);
		free(kids[k].text);
	}
	free(kids);
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the percentage a folded line starts with ("0.85% a;b;c"), its length or 0 */
static size_t folded_pct(const char *l)
{
	size_t k = strspn(l, "0123456789.");

	return k && l[k] == '%' && l[k + 1] == ' ' ? k + 1 : 0;
}

static char *report_canonical(char *text)
{
	char **lines = NULL, *save = NULL;
	size_t n = 0, k;
	struct sbuf out;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		lines = realloc(lines, (n + 1) * sizeof(*lines));
		if (!lines)
			abort();
		lines[n++] = l;
	}
	for (size_t a = 0, b; a < n; a = b) {
		size_t p = folded_pct(lines[a]);

		for (b = a + 1; p && b < n && folded_pct(lines[b]) == p &&
		     !strncmp(lines[a], lines[b], p); b++)
			;
		qsort(lines + a, b - a, sizeof(*lines), line_cmp);
	}
	sbuf__init(&out);
	for (k = 0; k < n;) {
		size_t c = graph_col(lines[k]);

		if (c >= 10 && !strncmp(lines[k] + c, "---", 3)) {
			canon_node(lines, n, &k, c + 3, lines[k] + c + 3, &out);
			continue;
		}
		sbuf__printf(&out, "%s\n", lines[k++]);
	}
	sbuf__addc(&out, '\0');
	free(lines);
	if (out.oom)
		abort();
	return out.buf;
}

/* equal, or equal but for the order of equal siblings (see report_canonical()) */
static bool same_report_but_ties(const struct test_env *env, const char *want_path,
				 const char *got_path)
{
	char *want, *got, *cw, *cg;
	bool same;

	if (same_report(env, want_path, got_path))
		return true;
	want = report_text(want_path);
	got = report_text(got_path);
	if (!want || !got) {
		free(want);
		free(got);
		return false;
	}
	cw = report_canonical(want);
	cg = report_canonical(got);
	same = !strcmp(cw, cg);
	if (!same && env->verbose)
		show_first_difference(cw, cg);
	else if (env->verbose)
		fprintf(stderr, "%s: equal once ties of equal siblings are put in one order\n", got_path);
	free(cw);
	free(cg);
	free(want);
	free(got);
	return same;
}

struct fixture {
	char	dir[4096];
	char	kallsyms[4200];
	char	symfs[4200];
};

static int fixture__init(struct fixture *f, const struct test_env *env)
{
	char cmd[8600];

	if (test_fixture(env, "real-defer", f->dir, sizeof(f->dir)))
		return TEST_FAIL;
	snprintf(f->symfs, sizeof(f->symfs), "--symfs=%s/symfs", f->dir);
	snprintf(f->kallsyms, sizeof(f->kallsyms), "%s/kallsyms", env->tmpdir);
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/kallsyms.gz' > '%s'", f->dir, f->kallsyms);
	return system(cmd) ? TEST_FAIL : TEST_OK;
}

/*
 * Children mode is left out on purpose: its entries are created in delivery order, and a
 * deferred recording delivers stitched samples at their record (as upstream does), the twin
 * in time order, so the tie order of equal entries differs between the two by design.
 */
static const char *const modes[][2] = {
	{ "--no-children", NULL }, { "--no-children", "-gfolded" }, { "--no-children", "-gcaller" },
	{ "--no-children", "-gfractal" },
};

DEFINE_SUITE(report_deferred_inline)
{
	struct fixture f;
	int ret = fixture__init(&f, env);

	if (ret != TEST_OK)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(recordings); i++) {
		char in[4200], twin[4200], a[4200], b[4200], ks[4300];
		struct perf_err err;

		snprintf(in, sizeof(in), "%s/data/%s.data", f.dir, recordings[i]);
		snprintf(twin, sizeof(twin), "%s/%s.inline.data", env->tmpdir, recordings[i]);
		snprintf(ks, sizeof(ks), "--kallsyms=%s", f.kallsyms);
		TEST_ASSERT(env, !inject_twin(in, twin, &err), "%s: %s", recordings[i], err.msg);
		for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
			const char *ours[] = { env->perf, "report", "--stdio", modes[m][0], f.symfs, ks,
					       "-i", in, modes[m][1], NULL };
			const char *inl[] = { env->perf, "report", "--stdio", modes[m][0], f.symfs, ks,
					      "-i", twin, modes[m][1], NULL };

			snprintf(a, sizeof(a), "%s/%s.%zu.deferred", env->tmpdir, recordings[i], m);
			snprintf(b, sizeof(b), "%s/%s.%zu.inline", env->tmpdir, recordings[i], m);
			TEST_ASSERT(env, test_run_argv(ours, a, NULL) == 0, "perf report of %s failed", in);
			TEST_ASSERT(env, test_run_argv(inl, b, NULL) == 0, "perf report of %s failed", twin);
			TEST_ASSERT(env, same_report(env, b, a),
				    "%s %s %s: the deferred recording reports differently from its inline twin",
				    recordings[i], modes[m][0], modes[m][1] ? modes[m][1] : "");
		}
	}
	return TEST_OK;
}

DEFINE_SUITE(report_deferred_upstream)
{
	char upstream[4200];
	struct fixture f;
	size_t nr_compared = 0;
	int ret;

	if (!test_upstream_perf(env, upstream, sizeof(upstream)))
		return test__skip(env, TEST_NO_UPSTREAM_PERF);
	ret = fixture__init(&f, env);
	if (ret != TEST_OK)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(recordings); i++) {
		char in[4200], twin[4200], a[4200], b[4200], ks[4300];
		struct perf_err err;

		snprintf(in, sizeof(in), "%s/data/%s.data", f.dir, recordings[i]);
		snprintf(twin, sizeof(twin), "%s/%s.inline.data", env->tmpdir, recordings[i]);
		snprintf(ks, sizeof(ks), "--kallsyms=%s", f.kallsyms);
		TEST_ASSERT(env, !inject_twin(in, twin, &err), "%s: %s", recordings[i], err.msg);
		/*
		 * Not fractal: its percentages tie siblings of different dsos, whose order comes
		 * from upstream's heap addresses, and those depend on the file's header too; in
		 * the other modes such ties are rarer and same_report_but_ties() lets them go.
		 */
		for (size_t m = 0; m < 3; m++) {
			const char *ours[] = { env->perf, "report", "--stdio", modes[m][0], f.symfs, ks,
					       "-i", in, modes[m][1], NULL };
			const char *up[] = { upstream, "report", "--stdio", modes[m][0], f.symfs, ks,
					     "-i", twin, modes[m][1], NULL };

			snprintf(a, sizeof(a), "%s/%s.%zu.ours", env->tmpdir, recordings[i], m);
			snprintf(b, sizeof(b), "%s/%s.%zu.upstream", env->tmpdir, recordings[i], m);
			TEST_ASSERT(env, test_run_argv(ours, a, NULL) == 0, "perf report of %s failed", in);
			if (test_run_argv(up, b, NULL) != 0) {
				if (!nr_compared)
					return test__skip(env, "upstream perf did not run");
				return test__partial(env, "%zu of %zu cases: upstream perf did not run on %s",
						     nr_compared, ARRAY_SIZE(recordings) * 3,
						     recordings[i]);
			}
			TEST_ASSERT(env, same_report_but_ties(env, b, a),
				    "%s %s %s: ours differs from upstream's report of the inline twin",
				    recordings[i], modes[m][0], modes[m][1] ? modes[m][1] : "");
			nr_compared++;
		}
	}
	return TEST_OK;
}
