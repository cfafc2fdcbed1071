/* SPDX-License-Identifier: GPL-2.0 */
/*
 * header-fprintf.h - the parsed header (perf/env.h) printed as upstream perf 7.2 prints it:
 * the event attrs and every header feature of --header / --header-only / -I and of -D's
 * HEADER_FEATURE records.
 *
 * Everything here prints from parsed structures; nothing reads a feature section. It needs
 * no session, only the env and the event names a GROUP_DESC refers to.
 */
#ifndef PERF_UTIL_HEADER_FPRINTF_H
#define PERF_UTIL_HEADER_FPRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <perf/env.h>

/* the events of the recording by file position, lent by the caller for GROUP_DESC */
struct header_events {
	size_t		nr;
	/* the name of event idx < nr; never NULL, valid until the next call */
	const char	*(*name)(void *arg, size_t idx);
	void		*arg;
};

/*
 * ", name = value" for every attr field perf shows (perf_event_attr__fprintf order): used by
 * the ATTR record, the event lines of --header and HEADER_EVENT_DESC.
 */
void dump__attr_fields(FILE *fp, const struct perf_event_attr *attr);
/*
 * The same fields, "NAME" EQ "VALUE" joined by ", ", LEAD before the first (evlist -v: ": ",
 * ": "); config_name (may be NULL) names the config, as a tracepoint's name from tracefs
 */
void attr__fprintf_fields(FILE *fp, const struct perf_event_attr *attr, const char *lead,
			  const char *eq, const char *config_name);

/* "HOSTNAME", ... as perf's "missing features" line names them; NULL past perf 7.2's */
const char *header__feature_name(int feat);

/* perf prints something for feat when it is well formed (not TRACING_DATA, BUILD_ID, ...) */
bool header__feature_has_text(int feat);

/* feat is in env, has text and parsed as perf wants it: header__fprintf_feature() prints */
bool header__feature_printable(const struct perf_env *env, int feat);

/*
 * Print feature feat of env as --header does; full: the -I form of the features perf only
 * summarises otherwise ("# CPU_TOPOLOGY info available, use -I to display"). events may be
 * NULL unless feat is HEADER_GROUP_DESC. Returns 0, or -EINVAL with nothing printed when
 * the feature is not printable.
 */
int header__fprintf_feature(FILE *fp, const struct perf_env *env, int feat, bool full,
			    const struct header_events *events);

#endif
