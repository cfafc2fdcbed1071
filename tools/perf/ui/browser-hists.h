/* SPDX-License-Identifier: GPL-2.0 */
/*
 * browser-hists.h - perf report's interactive browser: one screen per event, its entries
 * and callchains as --stdio prints them (ui/hist-view.h), under a title line as upstream's
 * ("Samples: 6K of event 'cycles', Event count (approx.): ..."), with a selection bar,
 * folding, zooming, search, the header and a help screen. Tab and Shift-Tab go from one
 * event to the next. The keys are listed in browser-hists.c's help text and in
 * Documentation/perf-report.txt.
 *
 * It owns the terminal while it runs (ui/tui.h) and gives it back before returning.
 */
#ifndef PERF_UI_BROWSER_HISTS_H
#define PERF_UI_BROWSER_HISTS_H

#include <stddef.h>
#include <perf/error.h>

struct report_event;

/*
 * Browse events[0..nr) (report__output_events(): sorted, borrowed) until the user quits.
 * header: the --header-only text the H key shows (len bytes, borrowed; may be NULL).
 * 0, or a negative errno with the reason in err.
 */
int hists_browser__run(const struct report_event *events, size_t nr, const char *header,
		       size_t header_len, struct perf_err *err);

#endif
