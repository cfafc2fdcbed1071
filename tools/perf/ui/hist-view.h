/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist-view.h - the perf report browser's model of one event's histogram, without a
 * terminal: the rows it shows (the entries --stdio prints, each followed, once unfolded,
 * by its callchain lines exactly as --stdio prints them), the selection and the first row
 * on screen, folding, zooming into a thread, DSO or symbol, and search. ui/browser-hists.c
 * draws a view and maps keys to it; perf test drives it without a terminal.
 *
 * Rows are (entry, line) pairs in display order: line -1 is the entry's own line, line i
 * the i-th line of its formatted callchain. A callchain line is shown when its entry is
 * unfolded and no line that folds it (chain_lines' parents, see report-callchain.h) is
 * folded or hidden. Every change rebuilds the rows and keeps the selection on the same
 * (entry, line), or on the nearest row that still shows.
 *
 * --hierarchy is shown as text: the --stdio table's lines are the rows, in one piece
 * (no folding or zooming, search by line).
 *
 * Ownership: a view borrows its hists, which must outlive it unchanged (entries, their
 * callchains and the machine's dso and symbol names); it owns its rows, the callchain text
 * it formatted and the zoom's copies of what it zoomed on. 0 or a negative errno.
 */
#ifndef PERF_UI_HIST_VIEW_H
#define PERF_UI_HIST_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include "util/hist-output.h"
#include "util/sbuf.h"

enum hist_zoom {
	HIST_ZOOM_THREAD,	/* by tid with the pid key, else by comm */
	HIST_ZOOM_DSO,
	HIST_ZOOM_SYM,
	HIST_ZOOM__NR,
};

enum hist_fold {
	HIST_FOLD_TOGGLE,	/* Enter */
	HIST_FOLD_EXPAND,	/* + */
	HIST_FOLD_COLLAPSE,	/* - */
};

struct hist_view_chain;

struct hist_view_entry {
	const struct hist_entry		*he;
	struct hist_view_chain		*chain;		/* formatted when first needed; owned */
	bool				unfolded;	/* its callchain shows */
};

struct hist_view_row {
	u32				entry;		/* index in entries */
	s32				line;		/* callchain line, -1: the entry's own line */
};

/* what a zoom keeps: entries equal to the one zoomed on (copies, owned) */
struct hist_view_zoom {
	bool				on;
	char				*name;		/* comm, dso or symbol name; NULL: none */
	s32				tid;		/* HIST_ZOOM_THREAD with the pid key */
	u64				ip;		/* HIST_ZOOM_SYM of an unresolved symbol */
};

struct hist_view {
	struct hists			*hists;
	bool				text_mode;	/* --hierarchy: the rows are text lines */
	struct hist_view_entry		*entries;	/* as --stdio lists them */
	size_t				nr_entries;
	struct hist_view_row		*rows;		/* what shows, in order */
	size_t				nr_rows, rows_alloc;
	size_t				top;		/* first row on screen */
	size_t				sel;		/* selected row (0 when there are none) */
	struct hist_view_zoom		zoom[HIST_ZOOM__NR];
	bool				pid_key;	/* threads are told apart by tid */
	struct sbuf			text;		/* text_mode: the table; else scratch */
	size_t				*text_line;	/* text_mode: each line's start */
	struct sbuf			line;		/* the row being formatted */
};

/* hists after hists__output_resort(); the rows start folded, the first selected */
int hist_view__init(struct hist_view *v, struct hists *hists);
void hist_view__exit(struct hist_view *v);

/*
 * Row r's text, as --stdio prints it, without newline: *len bytes at the returned pointer,
 * valid until the next call on v. *mark is the fold sign drawn over its first column:
 * '+' folded, '-' unfolded, ' ' nothing to fold (or a -t separated table, where the first
 * column is text). NULL when r is out of range or out of memory.
 */
const char *hist_view__row_text(struct hist_view *v, size_t r, size_t *len, char *mark);

/* the column names row (--stdio's first header line without "# "), into sb */
void hist_view__header(struct hist_view *v, struct sbuf *sb);

/* move the selection by delta rows (clamped), or to the first or last; then scroll */
void hist_view__move(struct hist_view *v, long delta, size_t height);
void hist_view__home(struct hist_view *v);
void hist_view__end(struct hist_view *v, size_t height);
/* keep the selection among the height rows from top */
void hist_view__scroll(struct hist_view *v, size_t height);

/*
 * Fold or unfold at the selection: an entry's line folds its callchain; a callchain line
 * that folds others (a graph node's first line, a flat chain's value line) folds those;
 * another line is folded into the line that folds it (the entry's, at the top), which is
 * then selected (not for HIST_FOLD_EXPAND, which does nothing there). -EOPNOTSUPP in text
 * mode, -ENOMEM.
 */
int hist_view__fold(struct hist_view *v, enum hist_fold how);
/* the selected entry: all of its callchain unfolded, or it folded (e, c); the entry selected */
int hist_view__fold_entry(struct hist_view *v, bool unfold);
/* whether the selected entry's callchain shows in full (what e toggles) */
bool hist_view__entry_unfolded(struct hist_view *v);
/* every entry (E, C), the selection staying on its entry */
int hist_view__fold_all(struct hist_view *v, bool unfold);

/*
 * Zoom into the selected entry's thread, DSO or symbol (only the entries with the same one
 * show), or out of it when zoomed already. -ENOENT when no sort key tells them apart (no
 * comm or pid key for threads, dso key for DSOs, symbol key for symbols), -EOPNOTSUPP in
 * text mode, -ENOMEM.
 */
int hist_view__zoom(struct hist_view *v, enum hist_zoom what);

/* what the title adds for the zooms: ", Thread: ls(42)", ", DSO: libc.so.6", ... into sb */
void hist_view__zoom_title(const struct hist_view *v, struct sbuf *sb);

/*
 * Select the next entry after the selected one (around the end) whose symbol name holds
 * str; with same, the selected entry is tried first. In text mode, the next line holding
 * str. true when one was found.
 */
bool hist_view__search(struct hist_view *v, const char *str, bool same);

#endif
