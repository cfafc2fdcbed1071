// SPDX-License-Identifier: GPL-2.0
/*
 * perf report of real deferred-callchain recordings (../shared/fixtures/real-defer):
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
 * The twin keeps every record but the deferred ones, in delivery order; samples carry their
 * stitched chain with PERF_CONTEXT_USER where the deferred marker was, or the marker and
 * cookie when nothing could be stitched. The attrs lose their defer bits, so no reader
 * waits for records. Upstream sorts the records by time, as we do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/writer.h>
#include "util/sbuf.h"
#include "util/session.h"
#include "fixture-defer.h"
#include "run-helpers.h"
#include "tests.h"

static const char *const recordings[] = { "calls", "calls_nodefer", "calls_u", "sys", "twoevents" };

/* ---- the undeferred twin ------------------------------------------------------------------ */

struct undefer {
	struct perf_tool	tool;
	struct perf_writer	*w;
	u64			*buf;
	size_t			buf_words;
	u64			*chain;
	size_t			chain_alloc;
	struct perf_err		err;
};

static struct undefer *undefer_of(const struct perf_tool *tool)
{
	return (struct undefer *)((char *)tool - offsetof(struct undefer, tool));
}

static int undefer__grow(struct undefer *u, size_t nr)
{
	u64 *c;

	if (nr <= u->chain_alloc)
		return 0;
	c = realloc(u->chain, nr * sizeof(*c));
	if (!c)
		return -ENOMEM;
	u->chain = c;
	u->chain_alloc = nr;
	return 0;
}

static int undefer__sample(const struct perf_tool *tool, struct perf_session *session,
			   const struct perf_event_header *event, struct perf_sample *sample,
			   struct perf_evattr *evattr)
{
	struct undefer *u = undefer_of(tool);
	/* the sample as it came, but for its callchain */
	struct perf_sample ids = *sample;
	int size;

	(void)session;
	(void)event;
	if (!evattr)
		return 0;
	if (undefer__grow(u, sample->callchain_nr + 1))
		return -ENOMEM;
	for (u64 i = 0; i < sample->callchain_nr; i++) {
		u64 ip = sample->callchain[i];

		/* a stitched chain: its user part becomes an ordinary inline one */
		if (ip == PERF_CONTEXT_USER_DEFERRED && !sample->deferred_callchain)
			ip = PERF_CONTEXT_USER;
		u->chain[i] = ip;
	}
	ids.callchain = u->chain;
	size = perf_sample__synthesize(&evattr->attr, &ids, false, u->buf, u->buf_words * 8, NULL);
	if (size < 0)
		return perf_err__set(&u->err, -size, "cannot rewrite a sample of sample_type %#llx",
				     (unsigned long long)evattr->attr.sample_type);
	return perf_writer__write(u->w, (const struct perf_event_header *)u->buf, &u->err);
}

/* every other kernel record goes through as it came (host order) */
static int undefer__copy(const struct perf_tool *tool, struct perf_session *session,
			 const struct perf_event_header *event, struct perf_sample *sample,
			 struct perf_evattr *evattr)
{
	struct undefer *u = undefer_of(tool);
	int ret;

	(void)sample;
	(void)evattr;
	if (event->type == PERF_RECORD_MMAP || event->type == PERF_RECORD_MMAP2)
		ret = perf_event__process_mmap(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_COMM)
		ret = perf_event__process_comm(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_FORK)
		ret = perf_event__process_fork(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_EXIT)
		ret = perf_event__process_exit(tool, session, event, sample, evattr);
	else if (event->type == PERF_RECORD_KSYMBOL)
		ret = perf_event__process_ksymbol(tool, session, event, sample, evattr);
	else
		ret = 0;
	if (ret)
		return ret;
	return perf_writer__write(u->w, event, &u->err);
}

static void undefer__init_tool(struct perf_tool *tool)
{
	perf_tool__init(tool);
	tool->sample = undefer__sample;
	tool->mmap = undefer__copy;
	tool->comm = undefer__copy;
	tool->fork = undefer__copy;
	tool->exit = undefer__copy;
	tool->lost = undefer__copy;
	tool->throttle = undefer__copy;
	tool->ksymbol = undefer__copy;
	tool->callchain_deferred = perf_event__process_nop;
	tool->other = undefer__copy;
	tool->user_meta = perf_event__process_nop;
	tool->ordered_events = true;
}

static int undefer(const char *in, const char *out, struct perf_err *err)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts sopts = { .path = in, .symbol_conf = &conf, .merge_deferred = true };
	struct undefer u = { .buf_words = 8192 };
	struct perf_writer_opts wo = { 0 };
	struct perf_session *session;
	int ret;

	undefer__init_tool(&u.tool);
	u.buf = malloc(u.buf_words * 8);
	if (!u.buf)
		return perf_err__set(err, ENOMEM, "out of memory");
	session = perf_session__new(&sopts, &u.tool, err);
	if (!session) {
		free(u.buf);
		return -EINVAL;
	}
	for (size_t i = 0; i < perf_data__nr_attrs(session->data); i++) {
		u32 size = perf_data__attr(session->data, i)->attr.size;

		if (size > wo.attr_size)
			wo.attr_size = size > sizeof(struct perf_event_attr) ?
				       sizeof(struct perf_event_attr) : (size + 7) & ~7u;
	}
	u.w = perf_writer__new(out, &wo, err);
	if (!u.w) {
		ret = -EIO;
		goto out_session;
	}
	ret = 0;
	for (size_t i = 0; i < perf_data__nr_attrs(session->data) && !ret; i++) {
		struct perf_evattr *ea = perf_data__attr(session->data, i);
		struct perf_event_attr attr = ea->attr;

		attr.flags &= ~(PERF_ATTR_FLAG(DEFER_CALLCHAIN) | PERF_ATTR_FLAG(DEFER_OUTPUT));
		ret = perf_writer__add_attr(u.w, &attr, ea->ids, ea->nr_ids,
					    perf_evattr__name(ea), err);
		ret = ret < 0 ? ret : 0;
	}
	if (!ret) {
		ret = perf_session__process_events(session);
		if (ret)
			perf_err__set(err, -ret, "%s: %s", in,
				      u.err.msg[0] ? u.err.msg : session->err.msg);
	}
	if (!ret)
		ret = perf_writer__finish(u.w, err);
	perf_writer__delete(u.w);
out_session:
	perf_session__delete(session);
	free(u.buf);
	free(u.chain);
	return ret;
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

	snprintf(f->dir, sizeof(f->dir), "%s/../shared/fixtures/real-defer", env->srcdir);
	if (access(f->dir, R_OK))
		return TEST_SKIP;
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

	if (ret == TEST_SKIP && env->verbose)
		fprintf(stderr, "no real-defer fixtures: skipped\n");
	if (ret != TEST_OK)
		return ret;
	for (size_t i = 0; i < sizeof(recordings) / sizeof(recordings[0]); i++) {
		char in[4200], twin[4200], a[4200], b[4200], ks[4300];
		struct perf_err err;

		snprintf(in, sizeof(in), "%s/data/%s.data", f.dir, recordings[i]);
		snprintf(twin, sizeof(twin), "%s/%s.inline.data", env->tmpdir, recordings[i]);
		snprintf(ks, sizeof(ks), "--kallsyms=%s", f.kallsyms);
		TEST_ASSERT(env, !undefer(in, twin, &err), "%s: %s", recordings[i], err.msg);
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
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
	int ret;

	snprintf(upstream, sizeof(upstream), "%s/../shared/tools/upstream-perf", env->srcdir);
	if (access(upstream, X_OK) || geteuid() != 0) {
		if (env->verbose)
			fprintf(stderr, "upstream perf (../shared/tools/upstream-perf, as root) missing: skipped\n");
		return TEST_SKIP;
	}
	ret = fixture__init(&f, env);
	if (ret != TEST_OK)
		return ret;
	for (size_t i = 0; i < sizeof(recordings) / sizeof(recordings[0]); i++) {
		char in[4200], twin[4200], a[4200], b[4200], ks[4300];
		struct perf_err err;

		snprintf(in, sizeof(in), "%s/data/%s.data", f.dir, recordings[i]);
		snprintf(twin, sizeof(twin), "%s/%s.inline.data", env->tmpdir, recordings[i]);
		snprintf(ks, sizeof(ks), "--kallsyms=%s", f.kallsyms);
		TEST_ASSERT(env, !undefer(in, twin, &err), "%s: %s", recordings[i], err.msg);
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
				if (env->verbose)
					fprintf(stderr, "upstream perf did not run: skipped\n");
				return TEST_SKIP;
			}
			TEST_ASSERT(env, same_report_but_ties(env, b, a),
				    "%s %s %s: ours differs from upstream's report of the inline twin",
				    recordings[i], modes[m][0], modes[m][1] ? modes[m][1] : "");
		}
	}
	return TEST_OK;
}
