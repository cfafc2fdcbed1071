// SPDX-License-Identifier: GPL-2.0
/*
 * tui.c - the browser's terminal, on ncurses (see tui.h; README says why ncurses).
 */
#include <curses.h>
#include <term.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "ui/tui.h"

/* ms curses waits after Esc for the rest of a key's sequence: Esc alone must feel instant */
#define TUI_ESC_DELAY	25

/* the signals that end perf by default: each restores the terminal first */
static const int tui_signals[TUI_NR_SIGNALS] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/*
 * A signal that ends perf while the browser runs must not leave the terminal raw and on
 * the alternate screen. endwin() is not async-signal-safe, but the process is about to
 * die of the signal anyway (upstream's browser does the same).
 */
static void tui__signal(int sig)
{
	endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

bool tui__available(struct perf_err *err)
{
	const char *term = getenv("TERM");
	int errret = 0;
	bool ok;

	if (!isatty(STDOUT_FILENO)) {
		perf_err__set(err, ENOTTY, "stdout is not a terminal");
		return false;
	}
	/* what newterm() will look up: a terminal curses does not know cannot be browsed */
	if (setupterm(NULL, STDOUT_FILENO, &errret) != OK) {
		perf_err__set(err, ENOTTY, "the terminal type '%s' is unknown to curses",
			      term ? term : "");
		return false;
	}
	/* nor one that cannot move its cursor (TERM=dumb: an editor's shell buffer) */
	ok = cursor_address && cursor_address != (char *)-1;
	del_curterm(cur_term);
	if (!ok)
		perf_err__set(err, ENOTTY, "the terminal '%s' cannot move its cursor",
			      term ? term : "");
	return ok;
}

static void tui__colors(void)
{
	static const struct {
		short	fg, bg;
	} pairs[TUI_COLOR__NR] = {
		[TUI_TITLE]	= { COLOR_WHITE, COLOR_BLUE },
		[TUI_HEADER]	= { COLOR_WHITE, COLOR_BLUE },
		[TUI_STATUS]	= { COLOR_WHITE, COLOR_BLUE },
	};

	if (!has_colors() || start_color() == ERR)
		return;
	use_default_colors();
	for (int i = 1; i < TUI_COLOR__NR; i++)
		if (pairs[i].fg || pairs[i].bg)
			init_pair((short)i, pairs[i].fg, pairs[i].bg);
}

static attr_t tui__attr(enum tui_color c)
{
	bool color = has_colors();

	switch (c) {
	case TUI_TITLE:
	case TUI_STATUS:
		return color ? COLOR_PAIR(c) : A_REVERSE;
	case TUI_HEADER:
		return color ? COLOR_PAIR(c) | A_BOLD : A_BOLD;
	/* reverse video everywhere: a selection that shows without colours too */
	case TUI_SELECTED:
		return A_REVERSE;
	case TUI_NORMAL:
	case TUI_COLOR__NR:
	default:
		return A_NORMAL;
	}
}

int tui__init(struct tui *t, struct perf_err *err)
{
	const char *ctype = setlocale(LC_CTYPE, NULL);
	int fd;

	*t = (struct tui){ 0 };
	t->in = stdin;
	if (!isatty(STDIN_FILENO)) {
		t->in = fopen("/dev/tty", "r");
		if (!t->in)
			return perf_err__set(err, errno, "no terminal to read keys from: /dev/tty: %s",
					     strerror(errno));
		t->own_in = true;
	}
	fd = dup(STDOUT_FILENO);
	t->out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!t->out) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		tui__exit(t);
		return perf_err__set(err, e, "cannot draw on stdout: %s", strerror(e));
	}
	/* UTF-8 names draw as such; LC_NUMERIC stays "C": the percentages keep their dot */
	t->ctype = ctype ? strdup(ctype) : NULL;
	setlocale(LC_CTYPE, "");
	t->screen = newterm(NULL, t->out, t->in);
	if (!t->screen) {
		tui__exit(t);
		return perf_err__set(err, ENOTTY, "cannot use the terminal '%s'",
				     getenv("TERM") ? getenv("TERM") : "");
	}
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(TUI_ESC_DELAY);
	tui__colors();
	for (size_t i = 0; i < ARRAY_SIZE(tui_signals); i++) {
		struct sigaction sa = { .sa_handler = tui__signal };

		sigemptyset(&sa.sa_mask);
		sigaction(tui_signals[i], &sa, &t->old_sig[i]);
	}
	getmaxyx(stdscr, t->rows, t->cols);
	return 0;
}

void tui__exit(struct tui *t)
{
	if (t->screen) {
		for (size_t i = 0; i < ARRAY_SIZE(tui_signals); i++)
			sigaction(tui_signals[i], &t->old_sig[i], NULL);
		curs_set(1);
		endwin();
		delscreen(t->screen);
	}
	if (t->out)
		fclose(t->out);
	if (t->own_in)
		fclose(t->in);
	if (t->ctype)
		setlocale(LC_CTYPE, t->ctype);
	free(t->ctype);
	*t = (struct tui){ 0 };
}

int tui__key(struct tui *t)
{
	for (;;) {
		int key;

		errno = 0;
		key = getch();

		switch (key) {
		case KEY_UP:		return TUI_KEY_UP;
		case KEY_DOWN:		return TUI_KEY_DOWN;
		case KEY_PPAGE:		return TUI_KEY_PGUP;
		case KEY_NPAGE:		return TUI_KEY_PGDN;
		case KEY_HOME:		return TUI_KEY_HOME;
		case KEY_END:		return TUI_KEY_END;
		case KEY_LEFT:		return TUI_KEY_LEFT;
		case KEY_RIGHT:		return TUI_KEY_RIGHT;
		case KEY_BTAB:		return TUI_KEY_BTAB;
		case KEY_F(1):		return TUI_KEY_F1;
		case KEY_ENTER:
		case '\r':
		case '\n':		return TUI_KEY_ENTER;
		case KEY_BACKSPACE:
		case 127:
		case 8:			return TUI_KEY_BACKSPACE;
		case '\t':		return TUI_KEY_TAB;
		case 27:		return TUI_KEY_ESC;
		case 3:			return TUI_KEY_CTRL_C;
		case KEY_RESIZE:
			getmaxyx(stdscr, t->rows, t->cols);
			return TUI_KEY_RESIZE;
		case ERR:
			/* a signal's interruption; anything else means no more keys */
			if (errno == EINTR)
				continue;
			return TUI_KEY_EOF;
		default:
			/* keys curses knows but we do not use are not characters */
			if (key >= KEY_MIN)
				continue;
			return key;
		}
	}
}

void tui__draw(struct tui *t, int row, const char *s, size_t len, size_t skip,
	       enum tui_color c)
{
	int y, x;

	if (row < 0 || row >= t->rows)
		return;
	attrset(tui__attr(c));
	move(row, 0);
	if (skip < len)
		addnstr(s + skip, (int)(len - skip < (size_t)t->cols ? len - skip : (size_t)t->cols));
	getyx(stdscr, y, x);
	/* the rest of the row in the same colour: a full-width bar */
	if (y == row)
		for (; x < t->cols; x++)
			addch(' ');
	attrset(A_NORMAL);
}

void tui__clear(struct tui *t)
{
	(void)t;
	erase();
}

void tui__refresh(struct tui *t)
{
	(void)t;
	refresh();
}

bool tui__prompt(struct tui *t, const char *prompt, char *buf, size_t size)
{
	size_t len = 0, plen = strlen(prompt);
	char line[1024];

	if (!size)
		return false;
	buf[0] = '\0';
	for (;;) {
		int n = snprintf(line, sizeof(line), "%s%s", prompt, buf), key;

		tui__draw(t, t->rows - 1, line, n < 0 ? 0 : (size_t)n, 0, TUI_STATUS);
		curs_set(1);
		move(t->rows - 1, (int)(plen + len < (size_t)t->cols ? plen + len : (size_t)t->cols - 1));
		refresh();
		key = tui__key(t);
		curs_set(0);
		switch (key) {
		case TUI_KEY_ENTER:
			return true;
		case TUI_KEY_ESC:
		case TUI_KEY_CTRL_C:
		case TUI_KEY_EOF:
			return false;
		case TUI_KEY_BACKSPACE:
			if (len)
				buf[--len] = '\0';
			break;
		default:
			if (key >= ' ' && key < 127 && len + 1 < size) {
				buf[len++] = (char)key;
				buf[len] = '\0';
			}
			break;
		}
	}
}

/* ---- the text screen ---- */

struct tui_text {
	const char	*text;
	size_t		len;
	size_t		*line;		/* each line's start, nr + 1 of them (the last: len + 1) */
	size_t		nr;
};

static int tui_text__init(struct tui_text *tt, const char *text, size_t len)
{
	size_t nr = 0;

	*tt = (struct tui_text){ .text = text, .len = len };
	for (size_t i = 0; i < len; i++)
		nr += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		nr++;
	tt->line = malloc((nr + 1) * sizeof(*tt->line));
	if (!tt->line)
		return -ENOMEM;
	tt->line[0] = 0;
	for (size_t i = 0, n = 1; i < len && n <= nr; i++)
		if (text[i] == '\n')
			tt->line[n++] = i + 1;
	tt->line[nr] = len + 1;
	tt->nr = nr;
	return 0;
}

static void tui__pager_draw(struct tui *t, const char *title, const struct tui_text *tt,
			    size_t top, size_t skip)
{
	static const char help[] = "q/Esc: back  Up/Down/PgUp/PgDn/Home/End/Left/Right: scroll";
	int height = t->rows - 2;

	erase();
	tui__draw(t, 0, title, strlen(title), 0, TUI_TITLE);
	for (int i = 0; i < height; i++) {
		size_t l = top + (size_t)i;

		if (l < tt->nr)
			tui__draw(t, i + 1, tt->text + tt->line[l], tt->line[l + 1] - tt->line[l] - 1,
				  skip, TUI_NORMAL);
	}
	tui__draw(t, t->rows - 1, help, sizeof(help) - 1, 0, TUI_STATUS);
	refresh();
}

void tui__pager(struct tui *t, const char *title, const char *text, size_t len)
{
	struct tui_text tt;
	size_t top = 0, skip = 0;

	if (tui_text__init(&tt, text, len))
		return;
	for (;;) {
		size_t height = t->rows > 2 ? (size_t)t->rows - 2 : 1;
		size_t max_top = tt.nr > height ? tt.nr - height : 0;
		int key;

		if (top > max_top)
			top = max_top;
		tui__pager_draw(t, title, &tt, top, skip);
		key = tui__key(t);
		switch (key) {
		case TUI_KEY_UP:	top -= top ? 1 : 0; break;
		case TUI_KEY_DOWN:	top++; break;
		case TUI_KEY_PGUP:	top = top > height ? top - height : 0; break;
		case TUI_KEY_PGDN:
		case ' ':		top += height; break;
		case TUI_KEY_HOME:	top = 0; break;
		case TUI_KEY_END:	top = max_top; break;
		case TUI_KEY_LEFT:	skip = skip > 8 ? skip - 8 : 0; break;
		case TUI_KEY_RIGHT:	skip += 8; break;
		case 'q':
		case TUI_KEY_ESC:
		case TUI_KEY_CTRL_C:
		case TUI_KEY_ENTER:
		case TUI_KEY_EOF:
			free(tt.line);
			return;
		default:
			break;
		}
	}
}
