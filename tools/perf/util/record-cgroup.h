/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-cgroup.h - the cgroups perf record reads: the hierarchy (for --all-cgroups' CGROUP
 * records) and -G/--cgroup, events counted only for the tasks of a cgroup.
 *
 * -G as perf 6.1 takes it: a comma list whose k-th name is the cgroup of the k-th event given
 * before it (an empty name: that event has none); a single name is every event's. A name is
 * a directory under the hierarchy's root ("/" the root itself); the event is opened with
 * PERF_FLAG_PID_CGROUP and the directory's descriptor as its pid, on every CPU (-a or -C:
 * the kernel counts cgroups per CPU only). The tracking dummy, added later, has none.
 */
#ifndef PERF_UTIL_RECORD_CGROUP_H
#define PERF_UTIL_RECORD_CGROUP_H

#include <stddef.h>
#include <perf/error.h>

/*
 * Where perf looks for cgroups: a cgroup v1 hierarchy with the perf_event controller, else
 * the cgroup2 one, from PROC/mounts (proc NULL: /proc). 0 or -ENOENT, or -errno.
 */
int cgroupfs__mountpoint(const char *proc, char *dir, size_t size);

/*
 * -G list for the first nr_events events: (*fds)[i] the descriptor of event i's cgroup
 * directory, -1 for none; owned by the caller (cgroup_fds__close). 0, or -EINVAL with err
 * saying which name is wrong (more names than events, a name not in the hierarchy).
 */
int cgroup_fds__open(const char *list, size_t nr_events, int **fds, struct perf_err *err);
void cgroup_fds__close(int *fds, size_t nr);

#endif
