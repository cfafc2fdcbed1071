// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "progress.h"

#define NSEC_PER_SEC		1000000000ULL
#define PROGRESS_DELAY_NS	NSEC_PER_SEC		/* nothing for loads shorter than this */
#define PROGRESS_REDRAW_NS	(NSEC_PER_SEC / 10)

static u64 progress__elapsed_ns(const struct progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (u64)(now.tv_sec - p->start.tv_sec) * NSEC_PER_SEC +
	       (u64)(now.tv_nsec - p->start.tv_nsec);
}

static void progress__set_step(struct progress *p)
{
	/* about a thousand clock reads over a known load; of an unknown one, one per 4096 */
	p->step = p->total ? p->total / 1024 : 4096;
	if (p->total && p->step < 65536)
		p->step = 65536;
}

void progress__init(struct progress *p, const char *title, u64 total, bool want)
{
	memset(p, 0, sizeof(*p));
	p->title = title;
	p->total = total;
	p->enabled = want && isatty(STDERR_FILENO);
	progress__set_step(p);
	p->next_check = p->step;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void progress__set_title(struct progress *p, const char *title, u64 total)
{
	p->title = title;
	p->total = total;
	progress__set_step(p);
	p->next_check = 0;
}

void progress__slow_update(struct progress *p, u64 done)
{
	char line[160];
	u64 ns = progress__elapsed_ns(p);
	int n;

	p->next_check = done + p->step;
	if (ns < PROGRESS_DELAY_NS || (p->shown && ns - p->last_draw_ns < PROGRESS_REDRAW_NS))
		return;
	/* a pager may have taken stderr since: the line would land in its text */
	if (!isatty(STDERR_FILENO)) {
		p->enabled = false;
		p->shown = false;
		return;
	}
	if (p->total)
		n = snprintf(line, sizeof(line), "\r%s %3u%%\033[K", p->title,
			     (unsigned int)(done >= p->total ? 100 : done * 100 / p->total));
	else
		n = snprintf(line, sizeof(line), "\r%s\033[K", p->title);
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) == n) {
		p->shown = true;
		p->last_draw_ns = ns;
	}
}

void progress__finish(struct progress *p)
{
	static const char wipe[] = "\r\033[K";

	if (p->shown && isatty(STDERR_FILENO) && write(STDERR_FILENO, wipe, sizeof(wipe) - 1) < 0)
		p->enabled = false;
	p->shown = false;
	p->enabled = false;
}
