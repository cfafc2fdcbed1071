/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-sideband.h - which of perf record's events carries the side-band (the tracking event:
 * MMAP/MMAP2, COMM, FORK/EXIT, and on request context switches, namespaces, cgroups, BPF and
 * ksymbol records) and how its attr is set, as perf 6.1 does it.
 *
 * With a workload or -p/-t the first event tracks. With -a or -C perf appends a software
 * dummy event ("dummy:HG", PERF_COUNT_SW_DUMMY, period 1, not disabled) that tracks instead:
 * it is enabled when opened, before /proc is read, so that a task started while perf
 * synthesizes the running ones still has its COMM and MMAP records (the sampling events are
 * enabled only after the synthesis).
 */
#ifndef PERF_UTIL_RECORD_SIDEBAND_H
#define PERF_UTIL_RECORD_SIDEBAND_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "parse-events.h"

/* what the tracking event records besides maps, comms and tasks */
struct sideband_opts {
	bool	build_id;	/* build ids in MMAP2 (attr.build_id) */
	bool	switch_events;	/* --switch-events */
	bool	namespaces;	/* --namespaces */
	bool	cgroup;		/* --all-cgroups */
	bool	bpf;		/* ksymbol and bpf_event, perf's default */
	bool	defer_output;	/* --defer: the CALLCHAIN_DEFERRED records */
};

/* the dummy's name in the file, as perf 6.1 writes it */
#define SIDEBAND_DUMMY_NAME	"dummy:HG"

/* appends the dummy tracking event to evs; 0 or a negative errno with err set */
int sideband__add_dummy(struct parsed_events *evs, struct perf_err *err);
/* the tracking bits of o on a (the side-band event) */
void sideband__config_tracking(struct perf_event_attr *a, const struct sideband_opts *o);
/*
 * turns a, configured as a sampling event, into perf's dummy: period 1, no frequency, no
 * period in the samples, enabled at once, inherited, guest not excluded (hence ":HG")
 */
void sideband__config_dummy(struct perf_event_attr *a);

#endif
