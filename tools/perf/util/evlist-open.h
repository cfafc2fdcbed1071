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
	const int		*cgroup_fds;	/* CPUS: event i counts only in cgroup_fds[i]'s */
	size_t			nr_cgroup_fds;	/* cgroup (-G), -1 or past the end: everywhere */
	/*
	 * CPUS: the events marked in wide[] (a group follows its leader) open on every CPU of
	 * wide_cpus, a superset of cpus, and the others on cpus only: perf record -C's tracking
	 * event, on every online CPU, so that the side-band follows the tasks that run there
	 * too. The slots are then wide_cpus'. NULL: every event on cpus.
	 */
	const bool		*wide;
	const int		*wide_cpus;
	size_t			nr_wide_cpus;
};

/* what one slot's descriptors count: a thread (-1: all) on a cpu (-1: any) */
struct evlist_slot {
	pid_t	pid;
	int	cpu;
};

struct evlist_open {
	size_t			nr_events, nr_slots, nr_rings;
	int			*fds;		/* [slot * nr_events + event], -1 when closed */
	u64			*ids;		/* same layout: the kernel's ids, 0 not opened */
	struct ring_buffer	*rings;		/* [ring] */
	int			*ring_fds;	/* [ring]: the descriptor that owns it */
	struct evlist_slot	*slots;		/* [slot], the slots opened (threads gone skipped) */
	size_t			mmap_pages;	/* data pages per ring */
	bool			overwrite;	/* attr.write_backward: read-only rings */
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
/*
 * The same with groups: leaders[e] is the index of e's group leader (e itself when alone;
 * leaders come before their members), and each member is opened with its leader's
 * descriptor of the same slot as group_fd. leaders may be NULL: no groups.
 */
int evlist_open__open_groups(struct evlist_open *el, const struct perf_event_attr *attrs,
			     const int *leaders, size_t nr_events,
			     const struct evlist_target *target, size_t mmap_pages,
			     struct perf_err *err);
/* PERF_EVENT_IOC_SET_FILTER of a tracepoint's filter on every descriptor of event */
int evlist_open__set_filter(struct evlist_open *el, size_t event, const char *filter,
			    struct perf_err *err);
/* PERF_EVENT_IOC_ENABLE / _DISABLE on every descriptor */
int evlist_open__enable(struct evlist_open *el, bool enable, struct perf_err *err);
/* the same for one event on every slot (perf record --control's "enable NAME") */
int evlist_open__enable_event(struct evlist_open *el, size_t event, bool enable,
			      struct perf_err *err);
/*
 * the ids of one event over the slots it was opened on (all, but with target->wide), for
 * the file's attr section: n ids into out, which has room for nr_slots
 */
size_t evlist_open__event_ids(const struct evlist_open *el, size_t event, u64 *out);
void evlist_open__close(struct evlist_open *el);

/*
 * The online CPUs (/sys/devices/system/cpu/online) or those of spec (perf's syntax, see
 * cpu-list.h), ascending; *cpus owned. -EINVAL: spec is not a list (err: "-C SPEC: why");
 * -ENODEV: it names a CPU that is not online.
 */
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

/*
 * -u: the user's id from a name or a number; -ENOENT when there is no such user (the caller
 * says so).
 */
int uid__parse(const char *spec, uid_t *uid);
/*
 * -u: the processes whose owner (the owner of /proc/PID, their effective uid) is uid, in pid
 * order, and all their threads; a process that exits during the listing is left out.
 * *pids and *tids owned by the caller; -ESRCH (err says so) when the user runs nothing.
 */
int uid__threads(uid_t uid, pid_t **pids, size_t *nr_pids, pid_t **tids, size_t *nr_tids,
		 struct perf_err *err);

/*
 * Why an open of threads was refused (EACCES) when kernel.perf_event_paranoid is not the
 * cause: the kernel lets a task observe another only with ptrace read access to it (the same
 * real uid, or CAP_SYS_PTRACE). The first of tids that belongs to another user than ours,
 * with its owner, when we lack CAP_SYS_PTRACE: true; false when every thread is ours (or
 * gone), or we may trace anyone.
 */
bool thread_list__foreign(const pid_t *tids, size_t nr, pid_t *tid, uid_t *owner);

#endif
