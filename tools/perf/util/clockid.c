// SPDX-License-Identifier: GPL-2.0
/* perf record -k names and numbers. See clockid.h. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "clockid.h"

static const struct {
	const char	*name;
	int		clockid;
} clocks[] = {
	{ "monotonic", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
	/* perf's short forms */
	{ "mono", CLOCK_MONOTONIC },
	{ "raw", CLOCK_MONOTONIC_RAW },
	{ "real", CLOCK_REALTIME },
	{ "boot", CLOCK_BOOTTIME },
};

int clockid__parse(const char *arg, int *clockid)
{
	if (isdigit((unsigned char)arg[0])) {
		char *end;
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || v > INT_MAX)
			return -EINVAL;
		*clockid = (int)v;
		return 0;
	}
	if (!strncasecmp(arg, "CLOCK_", 6))
		arg += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(arg, clocks[i].name)) {
			*clockid = clocks[i].clockid;
			return 0;
		}
	}
	return -EINVAL;
}

bool clockid__kernel_supported(int clockid)
{
	return clockid == CLOCK_MONOTONIC || clockid == CLOCK_MONOTONIC_RAW ||
	       clockid == CLOCK_REALTIME || clockid == CLOCK_BOOTTIME || clockid == CLOCK_TAI;
}
