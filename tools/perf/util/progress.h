/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - one line on stderr while a long load runs: what is being done, and how far
 * ("Processing events... 45%"), as upstream shows it while it loads a perf.data.
 *
 * Shown only when stderr is a terminal, and only once the work has taken more than a second
 * (short loads print nothing); redrawn at most ten times a second; wiped when done, so the
 * output that follows starts on a clean line. Never in a pipe or a file, and never once a
 * pager took stderr.
 */
#ifndef PERF_UTIL_PROGRESS_H
#define PERF_UTIL_PROGRESS_H

#include <stdbool.h>
#include <time.h>
#include <perf/abi.h>

struct progress {
	const char	*title;		/* borrowed */
	u64		total;		/* 0: unknown, the line shows no percentage */
	u64		next_check;	/* below this, update() returns at once */
	u64		step;
	struct timespec	start;
	u64		last_draw_ns;	/* since start */
	bool		enabled;	/* stderr is a terminal and the command wants it */
	bool		shown;		/* a line is on the terminal */
};

/* want: the command allows it (not -q, its own output not on the same terminal) */
void progress__init(struct progress *p, const char *title, u64 total, bool want);

void progress__slow_update(struct progress *p, u64 done);

/* done: how far, in the units of total; cheap below the next check point */
static inline void progress__update(struct progress *p, u64 done)
{
	if (p->enabled && done >= p->next_check)
		progress__slow_update(p, done);
}

/* a new phase: its title shows from the next draw on (total unknown: no percentage) */
void progress__set_title(struct progress *p, const char *title, u64 total);

/* wipes the line, if one was shown; the progress stays disabled after this */
void progress__finish(struct progress *p);

#endif
