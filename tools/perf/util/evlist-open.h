/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evlist-open.h - perf_event_open of a recording's events on its target, and one ring
 * buffer per slot (a CPU, or a thread).
 *
 * Targets: a workload (its pid on every online CPU, inherited by its children, counting from
 * its exec on with enable_on_exec; with per_thread its pid alone with cpu -1), threads (-p, -t: each tid on every CPU, or with
 * per_thread each tid with cpu -1, where the kernel allows no inherit) or CPUs (-a, -C: every
 * task on them). A slot is one (pid, cpu) pair; there is one ring per CPU (per thread with
 * per_thread), owned by its first slot's first event, and every other descriptor of that CPU
 * writes into it (PERF_EVENT_IOC_SET_OUTPUT), so a ring holds its CPU's records in order.
 *
 * Owns its descriptors, ids and rings. The attrs stay the caller's: on a failed open,
 * failed_event/failed_errno say which event the kernel refused and why, so that the caller
 * can change that attr (a fallback) and open again.
 */
#ifndef PERF_UTIL_EVLIST_OPEN_H
#define PERF_UTIL_EVLIST_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "ring-buffer.h"

enum evlist_target_kind {
	EVLIST_TARGET_WORKLOAD,
	EVLIST_TARGET_THREADS,
	EVLIST_TARGET_CPUS,
};

struct evlist_target {
	enum evlist_target_kind	kind;
	pid_t			pid;		/* the workload */
	const pid_t		*tids;		/* THREADS */
	size_t			nr_tids;
	const int		*cpus;		/* WORKLOAD, CPUS, and THREADS unless per_thread */
	size_t			nr_cpus;
	bool			per_thread;	/* THREADS, WORKLOAD: cpu -1, a ring per thread */
};

struct evlist_open {
	size_t			nr_events, nr_slots, nr_rings;
	int			*fds;		/* [slot * nr_events + event], -1 when closed */
	u64			*ids;		/* same layout: the kernel's event ids */
	struct ring_buffer	*rings;		/* [ring] */
	int			*ring_fds;	/* [ring]: the descriptor that owns it */
	size_t			mmap_pages;	/* data pages per ring */
	int			failed_event;	/* after a failed open: which attr, -1 none */
	int			failed_errno;
	bool			failed_mmap;	/* the failure was mmap, not perf_event_open */
};

/*
 * Opens every attr on every slot of target and maps the rings; on failure everything opened
 * is closed again. A thread that exited meanwhile (ESRCH with -p) is skipped.
 */
int evlist_open__open(struct evlist_open *el, const struct perf_event_attr *attrs,
		      size_t nr_events, const struct evlist_target *target, size_t mmap_pages,
		      struct perf_err *err);
/* PERF_EVENT_IOC_ENABLE / _DISABLE on every descriptor */
int evlist_open__enable(struct evlist_open *el, bool enable, struct perf_err *err);
/* the ids of one event over all slots, for the file's attr section: n ids into out */
size_t evlist_open__event_ids(const struct evlist_open *el, size_t event, u64 *out);
void evlist_open__close(struct evlist_open *el);

/* the online CPUs (/sys/devices/system/cpu/online) or those of spec ("0-1,3"); *cpus owned */
int cpu_list__expand(const char *spec, int **cpus, size_t *nr, struct perf_err *err);
/*
 * -p and -t as perf reads them: a comma list of ids ("1234,1240"; no ranges), duplicates
 * dropped, in their order. 0, or -EINVAL without a message (the caller names its option),
 * or -ENOMEM with one. *ids is owned by the caller.
 */
int id_list__parse(const char *spec, pid_t **ids, size_t *nr, struct perf_err *err);
/*
 * The threads to open: every tid of each process (/proc/PID/task) with whole_process, else
 * the ids themselves, each checked to exist. *tids is owned by the caller.
 */
int thread_list__expand(const pid_t *ids, size_t nr_ids, bool whole_process, pid_t **tids,
			size_t *nr, struct perf_err *err);

#endif
