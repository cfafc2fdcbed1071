/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-control.h - perf record's --control channel: a descriptor (or FIFO) another program
 * writes commands to, one a line, and an optional one that gets "ack\n" for each command
 * carried out, so that the other program knows when it took effect.
 *
 * Specs, as perf 6.1: "fd:CTL[,ACK]" (descriptors the caller inherited, open) and
 * "fifo:CTL[,ACK]" (paths of FIFOs that exist: opened here read-write and non-blocking, so
 * that opening never waits for the other side and a writer that goes away is not an end of
 * file). The commands perf 6.1 accepts: enable, disable, "enable NAME", "disable NAME",
 * snapshot, stop, ping, "evlist [-v|-g|-F]". A line is at most RECORD_CONTROL_LINE_MAX - 1
 * bytes; longer ones, and unknown commands, come back as RECORD_CONTROL_UNKNOWN (perf
 * ignores them and sends no ack).
 *
 * Owns the descriptors it opened (the FIFOs), not those given by number. Prints nothing:
 * errors come back in err. No global state.
 */
#ifndef PERF_UTIL_RECORD_CONTROL_H
#define PERF_UTIL_RECORD_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/error.h>

#define RECORD_CONTROL_LINE_MAX	256

enum record_control_cmd {
	RECORD_CONTROL_NONE,		/* no complete line waiting */
	RECORD_CONTROL_ENABLE,		/* arg: "" all events, else an event's name */
	RECORD_CONTROL_DISABLE,		/* arg as for ENABLE */
	RECORD_CONTROL_SNAPSHOT,
	RECORD_CONTROL_STOP,
	RECORD_CONTROL_PING,
	RECORD_CONTROL_EVLIST,		/* arg: the flags given ("-v", "-g", "-F" or "") */
	RECORD_CONTROL_UNKNOWN,		/* arg: the line */
};

struct record_control {
	int	ctl_fd, ack_fd;		/* -1: none */
	bool	own_ctl, own_ack;	/* opened here (FIFOs): closed by __exit */
	bool	eof;			/* the writer closed a descriptor given by number */
	size_t	len;			/* bytes of an incomplete line in buf */
	char	buf[RECORD_CONTROL_LINE_MAX];
	bool	overlong;		/* the line being read outgrew buf */
};

/* no channel: both descriptors -1 */
void record_control__init(struct record_control *c);
/* parses spec and opens what it names; -EINVAL for a malformed spec, -errno to open a FIFO */
int record_control__open(struct record_control *c, const char *spec, struct perf_err *err);
void record_control__exit(struct record_control *c);

/* the descriptor to poll for POLLIN, -1 when none (or after its writer went away) */
int record_control__fd(const struct record_control *c);
/*
 * The next command written, without blocking: *cmd is RECORD_CONTROL_NONE when no complete
 * line is waiting. arg (arg_size bytes) gets the command's argument. 0 or -errno.
 */
int record_control__next(struct record_control *c, enum record_control_cmd *cmd, char *arg,
			 size_t arg_size, struct perf_err *err);
/* "ack\n" to the ack descriptor, when there is one; 0 or -errno */
int record_control__ack(struct record_control *c, struct perf_err *err);

#endif
