// SPDX-License-Identifier: GPL-2.0
/*
 * hist-view.c - the perf report browser's rows: entries and their callchain lines as
 * --stdio prints them, folding, zooming and search (see hist-view.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui/hist-view.h"

/* an entry's callchain, formatted once: its text, its lines and their fold state */
struct hist_view_chain {
	struct sbuf		text;
	struct chain_lines	lines;
	bool			*folded;	/* by line: its children are hidden */
	bool			*foldable;	/* by line: some line has it as parent */
	bool			*shown;		/* by line: scratch of hist_view__rebuild() */
};

static void hist_view_chain__delete(struct hist_view_chain *c)
{
	if (!c)
		return;
	sbuf__exit(&c->text);
	chain_lines__exit(&c->lines);
	free(c->folded);
	free(c->foldable);
	free(c->shown);
	free(c);
}

/* the entry's callchain, formatted when first asked for; NULL when out of memory */
static struct hist_view_chain *hist_view__chain(struct hist_view *v, struct hist_view_entry *e)
{
	struct hist_view_chain *c;
	size_t nr;

	if (e->chain)
		return e->chain;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	sbuf__init(&c->text);
	hists__format_callchain(v->hists, e->he, &c->text, &c->lines);
	nr = c->lines.nr;
	c->folded = calloc(nr + 1, sizeof(*c->folded));
	c->foldable = calloc(nr + 1, sizeof(*c->foldable));
	c->shown = calloc(nr + 1, sizeof(*c->shown));
	if (c->text.oom || c->lines.oom || !c->folded || !c->foldable || !c->shown) {
		hist_view_chain__delete(c);
		return NULL;
	}
	for (size_t i = 0; i < nr; i++)
		if (c->lines.line[i].parent >= 0)
			c->foldable[c->lines.line[i].parent] = true;
	e->chain = c;
	return c;
}

/* ---- zoom ---- */

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* the name an entry is zoomed by */
static const char *zoom_name(const struct hist_view *v, const struct hist_entry_ids *ids,
			     enum hist_zoom what)
{
	switch (what) {
	case HIST_ZOOM_THREAD:
		return v->pid_key ? ids->thread_comm : ids->comm;
	case HIST_ZOOM_DSO:
		return ids->dso;
	case HIST_ZOOM_SYM:
		return ids->sym;
	case HIST_ZOOM__NR:
	default:
		return NULL;
	}
}

static bool hist_view__zoom_keeps(const struct hist_view *v, const struct hist_entry *he)
{
	struct hist_entry_ids ids;

	hists__entry_ids(v->hists, he, &ids);
	for (int i = 0; i < HIST_ZOOM__NR; i++) {
		const struct hist_view_zoom *z = &v->zoom[i];

		if (!z->on)
			continue;
		if (i == HIST_ZOOM_THREAD && v->pid_key) {
			if (ids.tid != z->tid)
				return false;
			continue;
		}
		if (!str_eq(zoom_name(v, &ids, (enum hist_zoom)i), z->name))
			return false;
		if (i == HIST_ZOOM_SYM && !z->name && ids.ip != z->ip)
			return false;
	}
	return true;
}

/* ---- rows ---- */

static int hist_view__add_row(struct hist_view *v, u32 entry, s32 line)
{
	if (v->nr_rows == v->rows_alloc) {
		size_t n = v->rows_alloc ? 2 * v->rows_alloc : 256;
		struct hist_view_row *rows = realloc(v->rows, n * sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		v->rows = rows;
		v->rows_alloc = n;
	}
	v->rows[v->nr_rows++] = (struct hist_view_row){ .entry = entry, .line = line };
	return 0;
}

/* an unfolded entry's callchain lines that show: those no folded or hidden line folds */
static int hist_view__add_chain_rows(struct hist_view *v, u32 entry)
{
	struct hist_view_chain *c = hist_view__chain(v, &v->entries[entry]);

	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < c->lines.nr; i++) {
		int parent = c->lines.line[i].parent;

		/* a parent line comes before the lines it folds */
		c->shown[i] = parent < 0 || (c->shown[parent] && !c->folded[parent]);
		if (c->shown[i] && hist_view__add_row(v, entry, (s32)i))
			return -ENOMEM;
	}
	return 0;
}

/* rows are in (entry, line) order: the first at or after the pair */
static size_t hist_view__find_row(const struct hist_view *v, u32 entry, s32 line)
{
	size_t lo = 0, hi = v->nr_rows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hist_view_row *r = &v->rows[mid];

		if (r->entry < entry || (r->entry == entry && r->line < line))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The rows again after a fold or zoom, the selection kept on its (entry, line), or on the
 * nearest line above it that still shows: the line that folded it, or its entry's.
 */
static int hist_view__rebuild(struct hist_view *v)
{
	struct hist_view_row was = { 0, -1 };
	size_t at;

	if (v->nr_rows)
		was = v->rows[v->sel];
	v->nr_rows = 0;
	for (u32 i = 0; i < v->nr_entries; i++) {
		if (!hist_view__zoom_keeps(v, v->entries[i].he))
			continue;
		if (hist_view__add_row(v, i, -1))
			return -ENOMEM;
		if (v->entries[i].unfolded && hist_view__add_chain_rows(v, i))
			return -ENOMEM;
	}
	at = hist_view__find_row(v, was.entry, was.line);
	if (at < v->nr_rows && (v->rows[at].entry != was.entry || v->rows[at].line != was.line) &&
	    at > 0 && v->rows[at - 1].entry == was.entry)
		at--;
	if (at >= v->nr_rows)
		at = v->nr_rows ? v->nr_rows - 1 : 0;
	v->sel = at;
	if (v->top > v->sel)
		v->top = v->sel;
	return 0;
}

/* ---- text mode (--hierarchy) ---- */

/* the length of the line at s, n bytes at most, without its newline */
static size_t line_len(const char *s, size_t n)
{
	const char *nl = memchr(s, '\n', n);

	return nl ? (size_t)(nl - s) : n;
}

/* the --stdio table's lines, its '#' header lines left out (the header row shows them) */
static int hist_view__init_text(struct hist_view *v)
{
	char *buf = NULL;
	size_t size = 0, nr = 0;
	FILE *fp = open_memstream(&buf, &size);
	int ret;

	if (!fp)
		return -errno;
	ret = hists__fprintf(v->hists, fp);
	if (fclose(fp) && !ret)
		ret = -ENOMEM;
	if (!ret) {
		sbuf__add(&v->text, buf, size);
		ret = v->text.oom ? -ENOMEM : 0;
	}
	free(buf);
	if (ret)
		return ret;
	for (size_t off = 0; off < v->text.len; nr++)
		off += line_len(v->text.buf + off, v->text.len - off) + 1;
	v->text_line = calloc(nr + 1, sizeof(*v->text_line));
	if (!v->text_line)
		return -ENOMEM;
	nr = 0;
	for (size_t off = 0; off < v->text.len; nr++) {
		if (v->text.buf[off] != '#' && hist_view__add_row(v, 0, (s32)nr))
			return -ENOMEM;
		v->text_line[nr] = off;
		off += line_len(v->text.buf + off, v->text.len - off) + 1;
	}
	return 0;
}

int hist_view__init(struct hist_view *v, struct hists *hists)
{
	size_t nr = 0;

	*v = (struct hist_view){ .hists = hists, .text_mode = hists->opts->hierarchy };
	sbuf__init(&v->text);
	sbuf__init(&v->line);
	v->pid_key = hist_opts__has_key(hists->opts, SORT_KEY_PID);
	if (v->text_mode)
		return hist_view__init_text(v);
	for (const struct hist_entry *he = hists__first_entry(hists); he;
	     he = hists__next_entry(hists, he))
		nr++;
	v->entries = calloc(nr + 1, sizeof(*v->entries));
	if (!v->entries)
		return -ENOMEM;
	for (const struct hist_entry *he = hists__first_entry(hists); he;
	     he = hists__next_entry(hists, he))
		v->entries[v->nr_entries++].he = he;
	return hist_view__rebuild(v);
}

void hist_view__exit(struct hist_view *v)
{
	for (size_t i = 0; i < v->nr_entries; i++)
		hist_view_chain__delete(v->entries[i].chain);
	for (int i = 0; i < HIST_ZOOM__NR; i++)
		free(v->zoom[i].name);
	free(v->entries);
	free(v->rows);
	free(v->text_line);
	sbuf__exit(&v->text);
	sbuf__exit(&v->line);
	*v = (struct hist_view){ 0 };
}

/* ---- what a row shows ---- */

static const char *hist_view__text_row(struct hist_view *v, s32 line, size_t *len, char *mark)
{
	size_t off = v->text_line[line];

	*len = line_len(v->text.buf + off, v->text.len - off);
	*mark = ' ';
	return v->text.buf + off;
}

/* the fold sign goes over the first column, a blank in every table but a -t one */
static char fold_mark(const struct hist_view *v, bool foldable, bool folded)
{
	if (!foldable || v->hists->opts->field_sep)
		return ' ';
	return folded ? '+' : '-';
}

const char *hist_view__row_text(struct hist_view *v, size_t r, size_t *len, char *mark)
{
	const struct hist_view_row *row;
	struct hist_view_entry *e;
	struct hist_view_chain *c;
	size_t off, end;

	if (r >= v->nr_rows)
		return NULL;
	row = &v->rows[r];
	if (v->text_mode)
		return hist_view__text_row(v, row->line, len, mark);
	e = &v->entries[row->entry];
	c = hist_view__chain(v, e);
	if (!c)
		return NULL;
	if (row->line < 0) {
		sbuf__reset(&v->line);
		hists__format_entry(v->hists, e->he, &v->line);
		if (v->line.oom)
			return NULL;
		*len = v->line.len;
		*mark = fold_mark(v, c->lines.nr > 0, !e->unfolded);
		return v->line.buf;
	}
	off = c->lines.line[row->line].off;
	end = (size_t)row->line + 1 < c->lines.nr ? c->lines.line[row->line + 1].off : c->text.len;
	/* every line ends with its newline */
	*len = end - off - 1;
	*mark = fold_mark(v, c->foldable[row->line], c->folded[row->line]);
	return c->text.buf + off;
}

void hist_view__header(struct hist_view *v, struct sbuf *sb)
{
	if (v->text_mode) {
		/* the table's first line, its "# " left out */
		size_t len = v->text.len ? line_len(v->text.buf, v->text.len) : 0;

		if (len >= 2 && v->text.buf[0] == '#') {
			sbuf__adds(sb, "  ");
			sbuf__add(sb, v->text.buf + 2, len - 2);
		}
		return;
	}
	if (!v->hists->opts->field_sep)
		sbuf__adds(sb, "  ");
	hists__format_header(v->hists, sb);
}

/* ---- moving ---- */

void hist_view__scroll(struct hist_view *v, size_t height)
{
	if (!height)
		height = 1;
	if (v->sel < v->top)
		v->top = v->sel;
	else if (v->sel >= v->top + height)
		v->top = v->sel - height + 1;
	/* no blank rows at the bottom while there is more above */
	if (v->nr_rows >= height && v->top > v->nr_rows - height)
		v->top = v->nr_rows - height;
	if (v->nr_rows < height)
		v->top = 0;
}

void hist_view__move(struct hist_view *v, long delta, size_t height)
{
	if (!v->nr_rows)
		return;
	if (delta < 0 && (size_t)-delta > v->sel)
		v->sel = 0;
	else if (delta > 0 && (size_t)delta >= v->nr_rows - v->sel)
		v->sel = v->nr_rows - 1;
	else
		v->sel = (size_t)((long)v->sel + delta);
	hist_view__scroll(v, height);
}

void hist_view__home(struct hist_view *v)
{
	v->sel = 0;
	v->top = 0;
}

void hist_view__end(struct hist_view *v, size_t height)
{
	v->sel = v->nr_rows ? v->nr_rows - 1 : 0;
	hist_view__scroll(v, height);
}

/* ---- folding ---- */

static struct hist_view_entry *hist_view__selected(struct hist_view *v)
{
	if (v->text_mode || !v->nr_rows)
		return NULL;
	return &v->entries[v->rows[v->sel].entry];
}

/* select the row of (entry, line), which shows */
static void hist_view__select(struct hist_view *v, u32 entry, s32 line)
{
	size_t at = hist_view__find_row(v, entry, line);

	if (at < v->nr_rows)
		v->sel = at;
}

int hist_view__fold(struct hist_view *v, enum hist_fold how)
{
	struct hist_view_entry *e = hist_view__selected(v);
	struct hist_view_chain *c;
	s32 line;
	bool *folded;

	if (!e)
		return v->text_mode ? -EOPNOTSUPP : 0;
	c = hist_view__chain(v, e);
	if (!c)
		return -ENOMEM;
	line = v->rows[v->sel].line;
	if (line >= 0 && !c->foldable[line]) {
		/* a line folding nothing: fold what holds it, and go there */
		if (how == HIST_FOLD_EXPAND)
			return 0;
		line = c->lines.line[line].parent;
		how = HIST_FOLD_COLLAPSE;
	}
	folded = line < 0 ? NULL : &c->folded[line];
	if (!folded && !c->lines.nr)
		return 0;
	switch (how) {
	case HIST_FOLD_EXPAND:
		if (folded)
			*folded = false;
		else
			e->unfolded = true;
		break;
	case HIST_FOLD_COLLAPSE:
		if (folded)
			*folded = true;
		else
			e->unfolded = false;
		break;
	case HIST_FOLD_TOGGLE:
	default:
		if (folded)
			*folded = !*folded;
		else
			e->unfolded = !e->unfolded;
		break;
	}
	if (hist_view__rebuild(v))
		return -ENOMEM;
	hist_view__select(v, (u32)(e - v->entries), line);
	return 0;
}

/* unfold or fold an entry and every line of its callchain */
static int hist_view_entry__fold_all(struct hist_view *v, struct hist_view_entry *e, bool unfold)
{
	struct hist_view_chain *c = hist_view__chain(v, e);

	if (!c)
		return -ENOMEM;
	memset(c->folded, 0, c->lines.nr * sizeof(*c->folded));
	e->unfolded = unfold && c->lines.nr;
	return 0;
}

bool hist_view__entry_unfolded(struct hist_view *v)
{
	struct hist_view_entry *e = hist_view__selected(v);

	if (!e || !e->unfolded || !e->chain)
		return false;
	for (size_t i = 0; i < e->chain->lines.nr; i++)
		if (e->chain->folded[i])
			return false;
	return true;
}

int hist_view__fold_entry(struct hist_view *v, bool unfold)
{
	struct hist_view_entry *e = hist_view__selected(v);
	u32 entry;

	if (!e)
		return v->text_mode ? -EOPNOTSUPP : 0;
	entry = (u32)(e - v->entries);
	if (hist_view_entry__fold_all(v, e, unfold) || hist_view__rebuild(v))
		return -ENOMEM;
	hist_view__select(v, entry, -1);
	return 0;
}

int hist_view__fold_all(struct hist_view *v, bool unfold)
{
	struct hist_view_entry *e = hist_view__selected(v);
	u32 entry = e ? (u32)(e - v->entries) : 0;

	if (v->text_mode)
		return -EOPNOTSUPP;
	for (size_t i = 0; i < v->nr_entries; i++)
		if (hist_view_entry__fold_all(v, &v->entries[i], unfold))
			return -ENOMEM;
	if (hist_view__rebuild(v))
		return -ENOMEM;
	hist_view__select(v, entry, -1);
	return 0;
}

/* ---- zoom ---- */

static bool hist_view__zoom_key(const struct hist_view *v, enum hist_zoom what)
{
	const struct hist_opts *o = v->hists->opts;

	switch (what) {
	case HIST_ZOOM_THREAD:
		return v->pid_key || hist_opts__has_key(o, SORT_KEY_COMM);
	case HIST_ZOOM_DSO:
		return hist_opts__has_key(o, SORT_KEY_DSO);
	case HIST_ZOOM_SYM:
		return hist_opts__has_key(o, SORT_KEY_SYM) || hist_opts__has_key(o, SORT_KEY_SYMOFF);
	case HIST_ZOOM__NR:
	default:
		return false;
	}
}

int hist_view__zoom(struct hist_view *v, enum hist_zoom what)
{
	struct hist_view_entry *e = hist_view__selected(v);
	struct hist_entry_ids ids;
	struct hist_view_zoom *z;
	const char *name;

	if ((unsigned int)what >= HIST_ZOOM__NR)
		return -EINVAL;
	if (v->text_mode)
		return -EOPNOTSUPP;
	z = &v->zoom[what];
	if (!hist_view__zoom_key(v, what))
		return -ENOENT;
	if (z->on) {
		free(z->name);
		*z = (struct hist_view_zoom){ 0 };
		return hist_view__rebuild(v);
	}
	if (!e)
		return 0;
	hists__entry_ids(v->hists, e->he, &ids);
	name = zoom_name(v, &ids, what);
	*z = (struct hist_view_zoom){ .on = true, .tid = ids.tid, .ip = ids.ip };
	if (name) {
		z->name = strdup(name);
		if (!z->name) {
			z->on = false;
			return -ENOMEM;
		}
	}
	return hist_view__rebuild(v);
}

void hist_view__zoom_title(const struct hist_view *v, struct sbuf *sb)
{
	const struct hist_view_zoom *z = v->zoom;

	/* upstream's words for its thread and DSO zooms */
	if (z[HIST_ZOOM_THREAD].on) {
		if (v->pid_key)
			sbuf__printf(sb, ", Thread: %s(%d)", z[HIST_ZOOM_THREAD].name ?: "",
				     z[HIST_ZOOM_THREAD].tid);
		else
			sbuf__printf(sb, ", Thread: %s", z[HIST_ZOOM_THREAD].name ?: "");
	}
	if (z[HIST_ZOOM_DSO].on)
		sbuf__printf(sb, ", DSO: %s", z[HIST_ZOOM_DSO].name ?: "[unknown]");
	if (z[HIST_ZOOM_SYM].on) {
		if (z[HIST_ZOOM_SYM].name)
			sbuf__printf(sb, ", Symbol: %s", z[HIST_ZOOM_SYM].name);
		else
			sbuf__printf(sb, ", Symbol: %#llx", (unsigned long long)z[HIST_ZOOM_SYM].ip);
	}
}

/* ---- search ---- */

static bool hist_view__row_matches(struct hist_view *v, size_t r, const char *str)
{
	struct hist_entry_ids ids;
	size_t len;
	char mark;
	const char *text;

	if (!v->text_mode) {
		hists__entry_ids(v->hists, v->entries[v->rows[r].entry].he, &ids);
		return ids.sym && strstr(ids.sym, str);
	}
	text = hist_view__row_text(v, r, &len, &mark);
	return text && memmem(text, len, str, strlen(str));
}

bool hist_view__search(struct hist_view *v, const char *str, bool same)
{
	if (!v->nr_rows || !str[0])
		return false;
	for (size_t i = same ? 0 : 1; i <= v->nr_rows; i++) {
		size_t r = (v->sel + i) % v->nr_rows;

		/* entries: their own rows only */
		if (!v->text_mode && v->rows[r].line >= 0)
			continue;
		if (hist_view__row_matches(v, r, str)) {
			v->sel = r;
			return true;
		}
	}
	return false;
}
