/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-trigger.h - what changes a running perf record besides its workload: the -D
 * schedule, --control commands, --switch-output (SIGUSR2, a size, a time), --max-size.
 * record_trigger__tick() is the record loop's tick (record-loop.h): it asks each in turn and
 * acts through the caller's ops, printing perf 6.1's lines as it goes ("Events enabled",
 * "[ perf record: dump data: Woken up N times ]", "[ perf record: Dump FILE ]",
 * "[ perf record: perf size limit reached (N KB), stopping session ]").
 *
 * A switch: every record in the rings now goes to the current file (with --overwrite: a dump
 * of the backward rings), ops->finish completes it, it is renamed PATH.TIMESTAMP
 * (record-switch.h), ops->start begins a new PATH with its header and side-band, and the
 * per-file counters (wake-ups, samples, the first and last sample's time) start again.
 *
 * Owns the control channel (record-control.h); the ops' ctx is the caller's. No global
 * state: the SIGUSR2 flag is the caller's, set by its handler.
 */
#ifndef PERF_UTIL_RECORD_TRIGGER_H
#define PERF_UTIL_RECORD_TRIGGER_H

#include <signal.h>
#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>
#include "record-control.h"
#include "record-delay.h"
#include "record-loop.h"
#include "record-sb.h"
#include "record-switch.h"

struct record_trigger_ops {
	/* PERF_EVENT_IOC_ENABLE/_DISABLE: every event (event < 0) or one; 0 or -errno */
	int	(*enable)(void *ctx, int event, bool on, struct perf_err *err);
	/* the index of the event called name, -1 when none */
	int	(*find_event)(void *ctx, const char *name);
	/* the events' names, one a line, for the evlist command (flags: "-v", "-g", "-F", "") */
	void	(*list_events)(void *ctx, const char *flags);
	/* completes the current output file (rl->w); it stays open until start() */
	int	(*finish)(void *ctx, struct record_loop *rl, struct perf_err *err);
	/* deletes the finished writer and begins a new file at the output path: sets rl->w */
	int	(*start)(void *ctx, struct record_loop *rl, struct perf_err *err);
};

struct record_trigger {
	/* options, set before record_trigger__begin() */
	struct switch_output	so;
	struct record_delay	delay;
	struct record_control	ctl;
	u64			max_size;	/* bytes of data per file, 0: no limit */
	int			max_files;	/* --switch-max-files: keep the newest N, 0: all */
	bool			quiet;
	const char		*path;		/* the output path files are renamed from */
	volatile sig_atomic_t	*switch_flag;	/* SIGUSR2 arrived; NULL: never */
	struct record_sb	*sb;		/* --switch-output-event, NULL: none (caller's) */
	const struct record_trigger_ops *ops;
	void			*ctx;

	/* while recording */
	u64			start_ns;	/* CLOCK_MONOTONIC: the events' start, for -D */
	u64			file_ns;	/* the current file's start, for a time switch */
	bool			sched_on;	/* the -D schedule's last answer */
	int			*fds;		/* for the loop: the control's, then sb's */
	size_t			nr_fds;
	char			**kept;		/* [max_files]: the names kept, oldest replaced */
	int			next_kept;
};

void record_trigger__init(struct record_trigger *t);
void record_trigger__exit(struct record_trigger *t);

/* whether anything here needs the tick at all */
bool record_trigger__needed(const struct record_trigger *t);

/*
 * The events were opened (disabled when delay.set) and the workload started: the clocks
 * start, and perf's "Events disabled" is printed when -D keeps them off. rl gets the
 * descriptors to poll; 0 or -ENOMEM.
 */
int record_trigger__begin(struct record_trigger *t, struct record_loop *rl,
			  struct perf_err *err);

/*
 * The finished file at path renamed PATH.TIMESTAMP (record-switch.h); with max_files, the
 * oldest of the files renamed so far is removed once max_files newer ones exist. *name gets
 * the new name (malloc'd, the caller's). Used at each switch and for the last file.
 */
int record_trigger__rename(struct record_trigger *t, char **name, struct perf_err *err);

/* record_tick_fn: ctx is the struct record_trigger */
int record_trigger__tick(void *ctx, struct record_loop *rl, struct perf_err *err);

/*
 * Option callbacks (parse-options.h), opt->value a struct record_trigger: --switch-output[=],
 * --max-size, --control (opens the FIFOs now, as perf), -D. Each refuses a bad value with
 * one line saying why (the parser then prints the usage and the command exits 129).
 */
struct option;
int record_trigger__opt_switch_output(const struct option *opt, const char *arg, bool unset);
int record_trigger__opt_max_size(const struct option *opt, const char *arg, bool unset);
int record_trigger__opt_control(const struct option *opt, const char *arg, bool unset);
int record_trigger__opt_delay(const struct option *opt, const char *arg, bool unset);

#endif
