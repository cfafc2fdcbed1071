/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui.h - the terminal of perf report's browser (ncurses): taking it over and giving it
 * back as it was (when the browser ends, and on a signal that ends the process), keys,
 * lines drawn in one of a few colours, a prompt on the bottom line and a screen of
 * scrollable text (help, header).
 *
 * One struct tui at a time: curses keeps one terminal state per process. The screen is
 * drawn on a duplicate of file descriptor 1 (stdout is perf's own stream, see
 * perf-stdout.h, which curses cannot use) and keys are read from stdin, or from /dev/tty
 * when stdin is no terminal. Nothing here knows about profiles.
 */
#ifndef PERF_UI_TUI_H
#define PERF_UI_TUI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <perf/error.h>

enum tui_color {
	TUI_NORMAL,
	TUI_TITLE,		/* the title line */
	TUI_HEADER,		/* column names */
	TUI_SELECTED,		/* the selection bar */
	TUI_STATUS,		/* the bottom line */
	TUI_COLOR__NR,
};

/* what tui__key() returns besides printable characters (their own codes) */
enum tui_key {
	TUI_KEY_UP = 0x10000,
	TUI_KEY_DOWN,
	TUI_KEY_PGUP,
	TUI_KEY_PGDN,
	TUI_KEY_HOME,
	TUI_KEY_END,
	TUI_KEY_LEFT,
	TUI_KEY_RIGHT,
	TUI_KEY_TAB,
	TUI_KEY_BTAB,		/* Shift-Tab */
	TUI_KEY_ENTER,
	TUI_KEY_ESC,
	TUI_KEY_CTRL_C,		/* raw mode: it is a key, not SIGINT */
	TUI_KEY_BACKSPACE,
	TUI_KEY_F1,
	TUI_KEY_RESIZE,		/* the terminal changed size: tui.rows, tui.cols are new */
	TUI_KEY_EOF,		/* the keyboard went away: leave */
};

#define TUI_NR_SIGNALS	4	/* the signals that restore the terminal (tui.c) */

struct tui {
	void		*screen;	/* SCREEN *, owned */
	FILE		*out;		/* fd 1's duplicate, owned */
	FILE		*in;		/* the keyboard */
	bool		own_in;		/* in is /dev/tty, opened here */
	char		*ctype;		/* LC_CTYPE before, restored on exit; owned */
	struct sigaction old_sig[TUI_NR_SIGNALS];	/* handlers before, restored on exit */
	int		rows, cols;
};

/*
 * Whether the browser can run here: stdout is a terminal whose TERM curses knows. When
 * not, why in err.
 */
bool tui__available(struct perf_err *err);

/* take the terminal over (alternate screen, raw keys); 0 or -errno with err set */
int tui__init(struct tui *t, struct perf_err *err);
/* give it back as it was; t may be one whose tui__init() failed */
void tui__exit(struct tui *t);

/* the next key (enum tui_key or a character) */
int tui__key(struct tui *t);

/*
 * Row row filled with the len bytes of s from byte skip on (shorter lines are padded,
 * longer ones cut at the right edge), in colour c. Rows out of the screen are ignored.
 */
void tui__draw(struct tui *t, int row, const char *s, size_t len, size_t skip,
	       enum tui_color c);
/* every row blank, to be drawn again */
void tui__clear(struct tui *t);
/* what was drawn goes to the terminal */
void tui__refresh(struct tui *t);

/*
 * Read a line on the bottom row after prompt (Enter: done, Esc or Ctrl-C: cancelled,
 * Backspace edits) into buf (NUL-terminated, size bytes at most). true when entered.
 */
bool tui__prompt(struct tui *t, const char *prompt, char *buf, size_t size);

/*
 * A screen of text under title (len bytes, lines by newline), scrolled by the cursor keys
 * until q, Esc, Ctrl-C or Enter.
 */
void tui__pager(struct tui *t, const char *title, const char *text, size_t len);

#endif
