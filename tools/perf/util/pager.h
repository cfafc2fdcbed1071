/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager.h - text for a terminal goes through a pager, as upstream perf pages it: $PERF_PAGER,
 * else $PAGER, else /usr/bin/pager, else /usr/bin/less (with LESS=FRSX unless set), run by
 * sh -c; none when stdout is not a terminal, when the pager is "cat" or empty, or after -P.
 *
 * A command asks for it (pager__request()); the pager starts only when the command's first
 * output reaches stdout, so what it says on stderr while it loads (warnings, the progress
 * line) stays on the terminal. From then on stdout, and stderr when it is the terminal, go
 * to the pager; at exit, and on a fatal signal, perf closes them and waits for the pager, so
 * that the shell gets the terminal back only when the pager is done with it.
 *
 * The pager is process-wide state, like stdout itself; perf's main sets the mode from its
 * global options.
 */
#ifndef PERF_UTIL_PAGER_H
#define PERF_UTIL_PAGER_H

#include <stdbool.h>

enum pager_mode {
	PAGER_DEFAULT,		/* the commands that page, page */
	PAGER_NEVER,		/* -P, --no-pager */
	PAGER_ALWAYS,		/* -p, --paginate: every command's output on a terminal */
};

void pager__set_mode(enum pager_mode mode);
enum pager_mode pager__mode(void);

/* the command's output is to be paged (when stdout is a terminal and the mode allows) */
void pager__request(void);

/* whether a pager took stdout */
bool pager__active(void);

#endif
