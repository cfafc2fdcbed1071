/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the command perf record profiles: forked at once, held until the events are
 * open, then exec'd.
 *
 * workload__prepare() forks a child that waits on a pipe; workload__start() lets it exec,
 * and the events opened on its pid with enable_on_exec count from the exec on. A failed exec
 * is reported back through a close-on-exec pipe, so the parent learns its errno (the child
 * then exits 127 without running anything).
 */
#ifndef PERF_UTIL_WORKLOAD_H
#define PERF_UTIL_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>
#include <perf/error.h>

/*
 * The forked child's name until its exec, as perf names it: a recording's pre-exec COMM says
 * so (record-synth-events.h)
 */
#define WORKLOAD_COMM	"perf-exec"

struct workload {
	pid_t	pid;		/* 0: none */
	int	go_fd;		/* write end: one byte starts the exec */
	int	err_fd;		/* read end: the exec's errno, or EOF when exec succeeded */
	bool	exited;
	int	status;		/* wait status once exited */
};

/* argv is NULL-terminated; stdout_to_stderr: the workload's stdout goes to our stderr
 * (perf record -o - keeps the pipe for the data) */
int workload__prepare(struct workload *wl, const char *const *argv, bool stdout_to_stderr,
		      struct perf_err *err);
/* lets the child exec; returns 0, or -errno of the failed exec (err says which command) */
int workload__start(struct workload *wl, const char *name, struct perf_err *err);
/* non-blocking reap; true once the child has exited */
bool workload__reap(struct workload *wl);
/* sends sig when still running, then waits for it */
void workload__stop(struct workload *wl, int sig);
/* the exit status perf record returns for it: its exit code, or 128 + its signal */
int workload__exit_code(const struct workload *wl);

#endif
