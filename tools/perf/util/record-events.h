/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-events.h - what perf record's event syntax (parse-events.h) means for the recording:
 * the attrs of groups and of leader sampling (:S), the sample id choice, opening the groups,
 * the tracepoint filters, HEADER_GROUP_DESC, and the fallbacks and messages of an event the
 * kernel refuses. The command builds each attr's common sample layout first; these functions
 * change only what the events' syntax asks for. Nothing here prints.
 */
#ifndef PERF_UTIL_RECORD_EVENTS_H
#define PERF_UTIL_RECORD_EVENTS_H

#include <perf/abi.h>
#include <perf/error.h>
#include "evlist-open.h"
#include "parse-events.h"

struct perf_writer;

/*
 * attrs[i] is evs->ev[i]'s, with the command's sample layout. As perf 6.1 makes them:
 *  - period=/freq= terms: the event's own sampling;
 *  - :S: PERF_SAMPLE_READ and an id in the sample; in a group of several, read_format GROUP
 *    and no inherit (the kernel cannot sum a group over children);
 *  - a group member: neither disabled nor enable_on_exec (it follows its leader); with a
 *    sampling leader (:S) no sampling of its own (period 0) and the leader's sample_type;
 *  - several events: PERF_SAMPLE_ID when all have the same sample_type, else
 *    PERF_SAMPLE_IDENTIFIER (the id at a fixed place), with read_format ID;
 *  - one event into a pipe (-o -): PERF_SAMPLE_ID, as perf forces for its names' sake.
 */
void record_events__config(const struct parsed_events *evs, struct perf_event_attr *attrs,
			   bool pipe);
/* evlist_open__open_groups with the groups of evs; see there */
int record_events__open(struct evlist_open *el, const struct parsed_events *evs,
			const struct perf_event_attr *attrs, const struct evlist_target *target,
			size_t mmap_pages, struct perf_err *err);
/*
 * After a refusal of event idx with errnum, perf's retries: a :P event's precise_ip one
 * lower, a weak group (:W) opened as single events. True when attrs (and evs) changed and
 * the open should be tried again.
 */
bool record_events__retry(struct parsed_events *evs, struct perf_event_attr *attrs, size_t idx,
			  int errnum);
/* every tracepoint's filter on its descriptors; err in perf's words ("failed to set filter") */
int record_events__set_filters(const struct parsed_events *evs, struct evlist_open *el,
			       struct perf_err *err);
/* HEADER_GROUP_DESC when some group has several events (perf writes none otherwise) */
int record_events__write_groups(const struct parsed_events *evs, struct perf_writer *w,
				struct perf_err *err);

#endif
