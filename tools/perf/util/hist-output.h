/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist-output.h - perf report's stdio output of a struct hists, after
 * hists__output_resort(): the column header, entries and callchains, and the --hierarchy
 * form, as upstream perf 7.2's `perf report --stdio`; and the same lines one at a time for
 * the interactive browser. It writes to the caller's stream or buffer and owns nothing.
 */
#ifndef PERF_UTIL_HIST_OUTPUT_H
#define PERF_UTIL_HIST_OUTPUT_H

#include <stdio.h>
#include "hist.h"

/* the column header, entries and callchains as upstream's stdio output; -EIO/-ENOMEM */
int hists__fprintf(struct hists *hists, FILE *fp);

/*
 * The same table piece by piece, for a browser showing the lines --stdio prints (not the
 * --hierarchy form, which hists__fprintf() prints as a whole). After hists__output_resort():
 * the entries hists__fprintf() prints, in its order (those under --percent-limit are left
 * out); NULL after the last. The entries stay the hists' (see hist.h).
 */
const struct hist_entry *hists__first_entry(const struct hists *hists);
const struct hist_entry *hists__next_entry(const struct hists *hists,
					   const struct hist_entry *he);

/* the column names: --stdio's first header line without its "# " and newline, into sb */
void hists__format_header(struct hists *hists, struct sbuf *sb);
/* he's line as --stdio prints it, without the newline, into sb */
void hists__format_entry(struct hists *hists, const struct hist_entry *he, struct sbuf *sb);
/*
 * he's callchain lines as --stdio prints them below its line, every one with its newline
 * (nothing without callchains); lines (may be NULL) as chain_root__print() fills it
 */
void hists__format_callchain(struct hists *hists, const struct hist_entry *he, struct sbuf *sb,
			     struct chain_lines *lines);

/*
 * What a browser zooms on and searches in an entry. The texts are borrowed from the hists
 * (comms) and the machine (dso and symbol names) and live as long as both.
 */
struct hist_entry_ids {
	const char	*comm;		/* as the comm column shows it */
	const char	*thread_comm;	/* the thread's last comm, as the pid column shows it */
	s32		tid;
	const char	*dso;		/* as the dso column shows it (-v: long); NULL: no map */
	const char	*dso_short;	/* the dso's short name; NULL: no map */
	const char	*sym;		/* the symbol's name; NULL: unresolved */
	u64		ip;		/* the address an unresolved symbol shows */
};

void hists__entry_ids(const struct hists *hists, const struct hist_entry *he,
		      struct hist_entry_ids *ids);

#endif
