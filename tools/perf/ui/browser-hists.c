// SPDX-License-Identifier: GPL-2.0
/*
 * browser-hists.c - perf report's interactive browser: the screen layout, the keys and
 * the events (see browser-hists.h). The rows, folding, zooms and search are hist-view.c's;
 * the terminal is tui.c's.
 *
 *	row 0		title: samples, event, event count, zooms
 *	row 1		column names, as --stdio's header
 *	rows 2..n-2	the view's rows, the selected one in reverse video
 *	row n-1		status: a message, or how to get help
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ui/browser-hists.h"
#include "ui/hist-view.h"
#include "ui/tui.h"
#include "util/report.h"

/* what the help screen lists, sorted as the keys' jobs go */
static const char browser_help[] =
	"Up/Down, PgUp/PgDn, Space    move the selection a row or a screen\n"
	"Home/End                     to the first or the last row\n"
	"Left/Right                   scroll sideways\n"
	"\n"
	"Enter                        fold or unfold the selected entry's callchain, or the\n"
	"                             branch below the selected callchain line\n"
	"+ / -                        unfold / fold it\n"
	"e                            unfold all of the selected entry's callchain, or fold it\n"
	"c                            fold the selected entry's callchain\n"
	"E / C                        unfold / fold every entry's callchain\n"
	"\n"
	"/                            search a symbol by a part of its name\n"
	"n                            the next entry that matches\n"
	"t                            zoom into the selected entry's thread (again: zoom out)\n"
	"d                            zoom into its DSO (again: zoom out)\n"
	"s                            zoom into its symbol (again: zoom out)\n"
	"\n"
	"Tab / Shift-Tab              the next / previous event\n"
	"H, i                         the perf.data header (as --header-only shows it)\n"
	"?, h, F1                     this help\n"
	"q, Esc, Ctrl-C               quit (from here: back)\n";

#define BROWSER_HSCROLL	8	/* columns Left and Right scroll by */

struct hists_browser {
	struct tui			tui;
	const struct report_event	*events;
	struct hist_view		*views;		/* by event, made when first shown */
	bool				*view_made;
	size_t				nr, cur;
	const char			*header;
	size_t				header_len;
	size_t				hscroll;
	char				search[256];	/* the last search, "" before one */
	char				message[512];	/* until the next key; "" for the help hint */
	struct sbuf			sb;		/* scratch: title, column names, a row */
};

static struct hist_view *browser__view(struct hists_browser *b)
{
	return &b->views[b->cur];
}

/* the rows between the column names and the status line */
static size_t browser__height(const struct hists_browser *b)
{
	return b->tui.rows > 3 ? (size_t)b->tui.rows - 3 : 1;
}

/* the view of the current event, made when it is first shown */
static int browser__show_event(struct hists_browser *b, size_t i, struct perf_err *err)
{
	int ret;

	b->cur = i;
	if (b->view_made[i])
		return 0;
	ret = hist_view__init(&b->views[i], b->events[i].hists);
	/* a half made view is cleaned up with the others */
	b->view_made[i] = true;
	if (ret)
		return perf_err__set(err, -ret, "cannot show the entries: %s", strerror(-ret));
	return 0;
}

/* upstream's title, and the zooms */
static void browser__draw_title(struct hists_browser *b)
{
	const struct report_event *ev = &b->events[b->cur];
	char samples[512];

	sbuf__reset(&b->sb);
	report_event__samples(ev, samples, sizeof(samples));
	sbuf__printf(&b->sb, "%s, Event count (approx.): %llu", samples,
		     (unsigned long long)hists__total_period(ev->hists));
	hist_view__zoom_title(browser__view(b), &b->sb);
	tui__draw(&b->tui, 0, b->sb.buf, b->sb.len, 0, TUI_TITLE);
}

static void browser__draw_status(struct hists_browser *b)
{
	sbuf__reset(&b->sb);
	if (b->message[0])
		sbuf__adds(&b->sb, b->message);
	else
		sbuf__adds(&b->sb, "Press '?' for help on key bindings");
	if (b->nr > 1)
		sbuf__printf(&b->sb, "   [event %zu of %zu, Tab: next]", b->cur + 1, b->nr);
	tui__draw(&b->tui, b->tui.rows - 1, b->sb.buf, b->sb.len, 0, TUI_STATUS);
}

/* row r of the view with its fold sign over the first column */
static void browser__draw_row(struct hists_browser *b, int y, size_t r)
{
	struct hist_view *v = browser__view(b);
	const char *text;
	size_t len;
	char mark;

	text = hist_view__row_text(v, r, &len, &mark);
	if (!text)
		return;
	sbuf__reset(&b->sb);
	sbuf__add(&b->sb, text, len);
	if (mark != ' ' && b->sb.len && !b->sb.oom)
		b->sb.buf[0] = mark;
	tui__draw(&b->tui, y, b->sb.buf, b->sb.len, b->hscroll,
		  r == v->sel ? TUI_SELECTED : TUI_NORMAL);
}

static void browser__draw(struct hists_browser *b)
{
	struct hist_view *v = browser__view(b);
	size_t height = browser__height(b);

	hist_view__scroll(v, height);
	tui__clear(&b->tui);
	browser__draw_title(b);
	sbuf__reset(&b->sb);
	hist_view__header(v, &b->sb);
	tui__draw(&b->tui, 1, b->sb.buf, b->sb.len, b->hscroll, TUI_HEADER);
	for (size_t i = 0; i < height && v->top + i < v->nr_rows; i++)
		browser__draw_row(b, (int)(i + 2), v->top + i);
	browser__draw_status(b);
	tui__refresh(&b->tui);
}

static void browser__say(struct hists_browser *b, const char *msg)
{
	snprintf(b->message, sizeof(b->message), "%s", msg);
}

/* what a view's fold or zoom returned, said on the status line */
static int browser__result(struct hists_browser *b, int ret, const char *what)
{
	if (ret == -EOPNOTSUPP) {
		browser__say(b, "Not in the --hierarchy view");
		return 0;
	}
	if (ret == -ENOENT) {
		snprintf(b->message, sizeof(b->message), "No %s sort key to zoom by", what);
		return 0;
	}
	return ret;
}

static void browser__search(struct hists_browser *b, bool again)
{
	struct hist_view *v = browser__view(b);
	char str[sizeof(b->search)];

	if (!again) {
		if (!tui__prompt(&b->tui, "Search symbol: ", str, sizeof(str)) || !str[0])
			return;
		memcpy(b->search, str, sizeof(str));
	} else if (!b->search[0]) {
		browser__say(b, "No search yet: '/' starts one");
		return;
	}
	if (!hist_view__search(v, b->search, !again))
		snprintf(b->message, sizeof(b->message), "No symbol matches '%s'", b->search);
}

/* Tab and Shift-Tab: the next or previous event, around the ends */
static int browser__switch(struct hists_browser *b, bool next, struct perf_err *err)
{
	if (b->nr < 2) {
		browser__say(b, "Only one event");
		return 0;
	}
	return browser__show_event(b, next ? (b->cur + 1) % b->nr : (b->cur + b->nr - 1) % b->nr,
				   err);
}

/* one key; 1 to quit, 0 to go on, a negative errno on failure (err says it) */
static int browser__key(struct hists_browser *b, int key, struct perf_err *err)
{
	struct hist_view *v = browser__view(b);
	size_t height = browser__height(b);
	int ret = 0;

	switch (key) {
	case TUI_KEY_UP:	hist_view__move(v, -1, height); break;
	case TUI_KEY_DOWN:	hist_view__move(v, 1, height); break;
	case TUI_KEY_PGUP:	hist_view__move(v, -(long)height, height); break;
	case TUI_KEY_PGDN:
	case ' ':		hist_view__move(v, (long)height, height); break;
	case TUI_KEY_HOME:	hist_view__home(v); break;
	case TUI_KEY_END:	hist_view__end(v, height); break;
	case TUI_KEY_LEFT:
		b->hscroll = b->hscroll > BROWSER_HSCROLL ? b->hscroll - BROWSER_HSCROLL : 0;
		break;
	case TUI_KEY_RIGHT:	b->hscroll += BROWSER_HSCROLL; break;
	case TUI_KEY_ENTER:	ret = hist_view__fold(v, HIST_FOLD_TOGGLE); break;
	case '+':		ret = hist_view__fold(v, HIST_FOLD_EXPAND); break;
	case '-':		ret = hist_view__fold(v, HIST_FOLD_COLLAPSE); break;
	case 'e':
		ret = hist_view__fold_entry(v, !hist_view__entry_unfolded(v));
		break;
	case 'c':		ret = hist_view__fold_entry(v, false); break;
	case 'E':		ret = hist_view__fold_all(v, true); break;
	case 'C':		ret = hist_view__fold_all(v, false); break;
	case 't':		ret = browser__result(b, hist_view__zoom(v, HIST_ZOOM_THREAD), "comm or pid"); break;
	case 'd':		ret = browser__result(b, hist_view__zoom(v, HIST_ZOOM_DSO), "dso"); break;
	case 's':		ret = browser__result(b, hist_view__zoom(v, HIST_ZOOM_SYM), "symbol"); break;
	case '/':		browser__search(b, false); break;
	case 'n':		browser__search(b, true); break;
	case TUI_KEY_TAB:	ret = browser__switch(b, true, err); break;
	case TUI_KEY_BTAB:	ret = browser__switch(b, false, err); break;
	case 'H':
	case 'i':
		if (b->header)
			tui__pager(&b->tui, "perf.data header (q: back)", b->header, b->header_len);
		else
			browser__say(b, "No header to show");
		break;
	case '?':
	case 'h':
	case TUI_KEY_F1:
		tui__pager(&b->tui, "perf report browser keys (q: back)", browser_help,
			   sizeof(browser_help) - 1);
		break;
	case 'q':
	case TUI_KEY_ESC:
	case TUI_KEY_CTRL_C:
	case TUI_KEY_EOF:
		return 1;
	case TUI_KEY_RESIZE:
	default:
		break;
	}
	ret = browser__result(b, ret, "");
	if (ret == -ENOMEM)
		return perf_err__set(err, ENOMEM, "out of memory");
	return ret < 0 ? ret : 0;
}

int hists_browser__run(const struct report_event *events, size_t nr, const char *header,
		       size_t header_len, struct perf_err *err)
{
	struct hists_browser b = {
		.events = events, .nr = nr, .header = header, .header_len = header_len,
	};
	int ret = -ENOMEM;

	if (!nr)
		return 0;
	sbuf__init(&b.sb);
	b.views = calloc(nr, sizeof(*b.views));
	b.view_made = calloc(nr, sizeof(*b.view_made));
	if (!b.views || !b.view_made) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	ret = browser__show_event(&b, 0, err);
	if (ret)
		goto out_free;
	ret = tui__init(&b.tui, err);
	if (ret)
		goto out_free;
	do {
		browser__draw(&b);
		b.message[0] = '\0';
		ret = browser__key(&b, tui__key(&b.tui), err);
	} while (!ret);
	tui__exit(&b.tui);
	ret = ret < 0 ? ret : 0;
out_free:
	for (size_t i = 0; b.view_made && i < nr; i++)
		if (b.view_made[i])
			hist_view__exit(&b.views[i]);
	free(b.views);
	free(b.view_made);
	sbuf__exit(&b.sb);
	return ret;
}
