// SPDX-License-Identifier: GPL-2.0
/*
 * The browser's rows without a terminal (ui/hist-view.h): a view of a small histogram
 * shows hists__format_entry()'s lines, unfolds hists__format_callchain()'s lines under
 * them, folds a graph's branches, zooms into a DSO, a comm and a symbol and back,
 * searches, moves within bounds, refuses what its sort keys cannot tell apart, and shows
 * --hierarchy as the --stdio table's lines.
 *
 *	entry (x, a.so, fa) 80:	fa <- fb <- fc   50	(callee order)
 *				fa <- fb <- gx   30
 *	entry (y, b.so, gx) 20:	gx <- fc         20
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "ui/hist-view.h"
#include "util/dso.h"
#include "util/symbol.h"
#include "tests.h"

static struct dso dso_a = { .long_name = (char *)"/lib/a.so", .short_name = "a.so", .seq = 1 };
static struct dso dso_b = { .long_name = (char *)"/lib/b.so", .short_name = "b.so", .seq = 2 };
static const struct symbol sym_fa = { .start = 0x1000, .end = 0x1100, .name = "fa" };
static const struct symbol sym_fb = { .start = 0x1100, .end = 0x1200, .name = "fb" };
static const struct symbol sym_fc = { .start = 0x1200, .end = 0x1300, .name = "fc" };
static const struct symbol sym_gx = { .start = 0x2000, .end = 0x2100, .name = "gx" };

/* a frame 8 bytes into its symbol (at start); dso_order as report.c ranks dsos */
#define FRAME(d, order, s, start)	{ .ip = (start) + 8, .dso = &(d), .sym = &(s), .dso_order = (order) }

static const struct chain_frame chain_fc[] = {
	FRAME(dso_a, 1, sym_fa, 0x1000), FRAME(dso_a, 1, sym_fb, 0x1100),
	FRAME(dso_a, 1, sym_fc, 0x1200),
};
static const struct chain_frame chain_gx[] = {
	FRAME(dso_a, 1, sym_fa, 0x1000), FRAME(dso_a, 1, sym_fb, 0x1100),
	FRAME(dso_b, 2, sym_gx, 0x2000),
};
static const struct chain_frame chain_y[] = {
	FRAME(dso_b, 2, sym_gx, 0x2000), FRAME(dso_a, 1, sym_fc, 0x1200),
};

static struct hists *make_hists(struct hist_opts *o, const char *sort, bool hierarchy)
{
	const struct hist_sample samples[] = {
		{ .comm = "x", .pid = 1, .tid = 1, .dso = &dso_a, .sym = &sym_fa, .ip = 0x1008,
		  .level = '.', .period = 50, .frames = chain_fc, .nr_frames = 3,
		  .has_callchain = true },
		{ .comm = "x", .pid = 1, .tid = 1, .dso = &dso_a, .sym = &sym_fa, .ip = 0x1008,
		  .level = '.', .period = 30, .frames = chain_gx, .nr_frames = 3,
		  .has_callchain = true },
		{ .comm = "y", .pid = 2, .tid = 2, .dso = &dso_b, .sym = &sym_gx, .ip = 0x2008,
		  .level = '.', .period = 20, .frames = chain_y, .nr_frames = 2,
		  .has_callchain = true },
	};
	struct perf_err err;
	struct hists *h;

	*o = (struct hist_opts){ .show_header = true, .use_callchain = true,
				 .hierarchy = hierarchy };
	chain_params__init(&o->chain);
	if (hist_opts__setup(o, sort, NULL, false, false, false, &err))
		return NULL;
	h = hists__new(o);
	for (size_t i = 0; h && i < ARRAY_SIZE(samples); i++) {
		if (hists__add_sample(h, &samples[i])) {
			hists__delete(h);
			return NULL;
		}
	}
	if (h && hists__output_resort(h, NULL)) {
		hists__delete(h);
		return NULL;
	}
	return h;
}

/* whether row r shows text (len bytes) with the fold sign mark */
static bool row_is(struct hist_view *v, size_t r, const char *text, size_t len, char mark)
{
	size_t got_len;
	char got_mark;
	const char *got = hist_view__row_text(v, r, &got_len, &got_mark);

	return got && got_len == len && !memcmp(got, text, len) && got_mark == mark;
}

static bool row_has(struct hist_view *v, size_t r, const char *str, char *mark)
{
	size_t len;
	const char *text = hist_view__row_text(v, r, &len, mark);

	return text && memmem(text, len, str, strlen(str));
}

/* the selected row is the first whose text holds str */
static int select_row(struct hist_view *v, const char *str)
{
	char mark;

	for (size_t r = 0; r < v->nr_rows; r++) {
		if (row_has(v, r, str, &mark)) {
			v->sel = r;
			return 0;
		}
	}
	return -1;
}

/* the entries' lines, the first's callchain as --stdio prints it, and folding it */
static int check_folding(const struct test_env *env, struct hist_view *v, struct hists *h)
{
	const struct hist_entry *first = hists__first_entry(h);
	struct sbuf line, chain;
	size_t nr_lines = 0, rows;
	char mark;
	int ret = TEST_FAIL;

	sbuf__init(&line);
	sbuf__init(&chain);
	hists__format_entry(h, first, &line);
	hists__format_callchain(h, first, &chain, NULL);
	for (size_t i = 0; i < chain.len; i++)
		nr_lines += chain.buf[i] == '\n';
	if (v->nr_rows != 2 || !row_is(v, 0, line.buf, line.len, '+') || v->sel != 0)
		goto out;
	/* Enter: the callchain's lines under the entry, as --stdio's */
	if (hist_view__fold(v, HIST_FOLD_TOGGLE) || v->nr_rows != 2 + nr_lines ||
	    !row_is(v, 0, line.buf, line.len, '-') || v->sel != 0)
		goto out;
	for (size_t r = 1, off = 0; r <= nr_lines; r++) {
		size_t len = strcspn(chain.buf + off, "\n");

		if (!row_has(v, r, "", &mark) || !row_is(v, r, chain.buf + off, len, mark))
			goto out;
		off += len + 1;
	}
	/* the single root's first frame folds the rest of the graph */
	if (select_row(v, "---fa") || !row_has(v, v->sel, "---fa", &mark) || mark != '-')
		goto out;
	rows = v->nr_rows;
	if (hist_view__fold(v, HIST_FOLD_TOGGLE) || v->nr_rows >= rows ||
	    !row_has(v, v->sel, "---fa", &mark) || mark != '+' || row_has(v, v->sel + 1, "fb", &mark))
		goto out;
	/* + unfolds it; - on a frame that folds nothing folds the line that holds it */
	if (hist_view__fold(v, HIST_FOLD_EXPAND) || v->nr_rows != rows || select_row(v, "fb") ||
	    hist_view__fold(v, HIST_FOLD_COLLAPSE) || !row_has(v, v->sel, "---fa", &mark) ||
	    mark != '+' || hist_view__fold(v, HIST_FOLD_EXPAND))
		goto out;
	/* e folds the entry from any of its lines; E unfolds all, C folds all */
	if (hist_view__fold_entry(v, false) || v->nr_rows != 2 || v->sel != 0 ||
	    hist_view__fold_all(v, true) || !hist_view__entry_unfolded(v) ||
	    v->nr_rows <= 2 + nr_lines || hist_view__fold_all(v, false) || v->nr_rows != 2)
		goto out;
	ret = TEST_OK;
out:
	if (ret && env->verbose)
		fprintf(stderr, "folding: %zu rows, selection %zu, %zu callchain lines\n",
			v->nr_rows, v->sel, nr_lines);
	sbuf__exit(&line);
	sbuf__exit(&chain);
	return ret;
}

/* zooms into the second entry's DSO, comm and symbol and out, the title's words */
static int check_zoom(struct hist_view *v)
{
	static const struct {
		enum hist_zoom	what;
		const char	*title;
	} zooms[] = {
		{ HIST_ZOOM_DSO, ", DSO: b.so" },
		{ HIST_ZOOM_THREAD, ", Thread: y" },
		{ HIST_ZOOM_SYM, ", Symbol: gx" },
	};
	struct sbuf title;
	char mark;
	int ret = TEST_OK;

	sbuf__init(&title);
	for (size_t i = 0; i < ARRAY_SIZE(zooms) && !ret; i++) {
		sbuf__reset(&title);
		v->sel = 1;
		if (hist_view__zoom(v, zooms[i].what) || v->nr_rows != 1 || v->sel != 0 ||
		    !row_has(v, 0, "gx", &mark))
			ret = TEST_FAIL;
		hist_view__zoom_title(v, &title);
		if (title.len != strlen(zooms[i].title) || memcmp(title.buf, zooms[i].title, title.len))
			ret = TEST_FAIL;
		/* zoomed out, the entry stays selected */
		if (hist_view__zoom(v, zooms[i].what) || v->nr_rows != 2 || v->sel != 1)
			ret = TEST_FAIL;
	}
	sbuf__exit(&title);
	return ret;
}

static int check_moves(struct hist_view *v)
{
	v->sel = 0;
	hist_view__move(v, -5, 10);
	if (v->sel != 0)
		return TEST_FAIL;
	hist_view__move(v, 5, 10);
	if (v->sel != 1 || v->top != 0)
		return TEST_FAIL;
	hist_view__home(v);
	if (v->sel != 0)
		return TEST_FAIL;
	/* one row high: the selection is the first on screen */
	hist_view__end(v, 1);
	return v->sel == 1 && v->top == 1 ? TEST_OK : TEST_FAIL;
}

DEFINE_SUITE(hist_view)
{
	struct hist_opts o;
	struct hist_view v;
	struct hists *h = make_hists(&o, "comm,dso,sym", false);
	const char *failed = NULL;
	char mark;
	int ret;

	TEST_ASSERT(env, h, "cannot make the histogram");
	ret = hist_view__init(&v, h);
	TEST_ASSERT(env, !ret, "hist_view__init: %d", ret);
	if (check_folding(env, &v, h))
		failed = "folding";
	else if (check_zoom(&v))
		failed = "zoom";
	else if (check_moves(&v))
		failed = "moves";
	/* search: the next entry whose symbol holds the text, around the end */
	else if (!hist_view__search(&v, "g", false) || v.sel != 1 ||
		 !hist_view__search(&v, "a", false) || v.sel != 0 ||
		 hist_view__search(&v, "zz", false) || v.sel != 0)
		failed = "search";
	hist_view__exit(&v);
	hists__delete(h);
	TEST_ASSERT(env, !failed, "%s", failed);

	/* no dso or symbol key: those zooms are refused */
	h = make_hists(&o, "comm", false);
	TEST_ASSERT(env, h && !hist_view__init(&v, h), "cannot view a comm histogram");
	ret = hist_view__zoom(&v, HIST_ZOOM_DSO) == -ENOENT &&
	      hist_view__zoom(&v, HIST_ZOOM_SYM) == -ENOENT && !hist_view__zoom(&v, HIST_ZOOM_THREAD);
	hist_view__exit(&v);
	hists__delete(h);
	TEST_ASSERT(env, ret, "zooms without their sort keys");

	/* --hierarchy: the table's lines, no folding */
	h = make_hists(&o, "comm,dso,sym", true);
	TEST_ASSERT(env, h && !hist_view__init(&v, h), "cannot view a --hierarchy histogram");
	ret = v.text_mode && v.nr_rows > 3 && row_has(&v, 0, "x", &mark) &&
	      hist_view__fold(&v, HIST_FOLD_TOGGLE) == -EOPNOTSUPP &&
	      hist_view__zoom(&v, HIST_ZOOM_DSO) == -EOPNOTSUPP && hist_view__search(&v, "gx", false);
	hist_view__exit(&v);
	hists__delete(h);
	TEST_ASSERT(env, ret, "the --hierarchy view");
	return TEST_OK;
}
