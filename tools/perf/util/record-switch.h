/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-switch.h - perf record --switch-output and --timestamp-filename: when the current
 * output file is finished and a new one started, and the names the finished ones get.
 *
 * Modes, as perf 6.1: "signal" (SIGUSR2; the default without a value), a size with a unit
 * B/K/M/G (the file's data reached it) or a time with a unit s/m/h/d (that long since the
 * file began). A finished file is renamed PATH.TIMESTAMP, TIMESTAMP being the local time of
 * the switch as perf writes it: YYYYmmddHHMMSS and two digits of hundredths of a second.
 *
 * Unlike perf, a rename never replaces an existing file: two switches within the same
 * hundredth of a second would otherwise lose the first one; the second waits for the next
 * hundredth instead.
 *
 * Parsing and naming only; the caller finishes and starts the files. No global state.
 */
#ifndef PERF_UTIL_RECORD_SWITCH_H
#define PERF_UTIL_RECORD_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

/* "YYYYmmddHHMMSScc" and its NUL */
#define SWITCH_OUTPUT_TIMESTAMP_SIZE	17

struct switch_output {
	bool	enabled;
	bool	signal;		/* on SIGUSR2 */
	u64	size;		/* bytes of data, 0: not by size */
	u64	time;		/* seconds, 0: not by time */
};

/* arg NULL: "signal"; -EINVAL with a reason in err for anything else than the modes above */
int switch_output__parse(struct switch_output *s, const char *arg, struct perf_err *err);

/* the timestamp of now in perf's format, into buf (SWITCH_OUTPUT_TIMESTAMP_SIZE bytes) */
void switch_output__timestamp(char *buf);

/*
 * Renames path to path.TIMESTAMP (now); *name gets the new name (malloc'd, the caller's).
 * 0 or -errno.
 */
int switch_output__rename(const char *path, char **name, struct perf_err *err);

#endif
