/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-sideband.h - which of perf record's events carries the side-band (the tracking event:
 * MMAP/MMAP2, COMM, FORK/EXIT, and on request context switches, namespaces, cgroups, BPF and
 * ksymbol records) and how its attr is set, as perf 6.1 does it.
 *
 * With a workload or -p/-t the first event tracks. With -a or -C perf adds a software dummy
 * event ("dummy:HG", PERF_COUNT_SW_DUMMY, period 1, not disabled) after the others, and it
 * tracks instead: it is enabled when opened, before /proc is read, so that a task started
 * while perf synthesizes the running ones still has its COMM and MMAP records (the sampling
 * events are enabled only after the synthesis). -D adds the same dummy (record.c's
 * record__add_dummy), enabled at the exec or at the start while the others wait.
 */
#ifndef PERF_UTIL_RECORD_SIDEBAND_H
#define PERF_UTIL_RECORD_SIDEBAND_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>

/* what the tracking event records besides maps, comms and tasks */
struct sideband_opts {
	bool	build_id;	/* build ids in MMAP2 (attr.build_id) */
	bool	switch_events;	/* --switch-events */
	bool	namespaces;	/* --namespaces */
	bool	cgroup;		/* --all-cgroups */
	bool	bpf;		/* ksymbol and bpf_event, perf's default */
	bool	defer_output;	/* --defer: the CALLCHAIN_DEFERRED records */
};

/* the tracking bits of o on a (the side-band event) */
void sideband__config_tracking(struct perf_event_attr *a, const struct sideband_opts *o);
/*
 * turns a, configured as a sampling event, into perf's dummy: period 1, no frequency, no
 * period in the samples, guest not excluded (hence ":HG"); immediate (-a, -C): enabled
 * when opened; else (-D with a workload or -p/-t) disabled, with enable_on_exec, as perf
 */
void sideband__config_dummy(struct perf_event_attr *a, bool immediate);

#endif
