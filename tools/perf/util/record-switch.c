// SPDX-License-Identifier: GPL-2.0
/* --switch-output's modes and the timestamped names. See record-switch.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "record-switch.h"
#include "units.h"

int switch_output__parse(struct switch_output *s, const char *arg, struct perf_err *err)
{
	u64 v;

	memset(s, 0, sizeof(*s));
	if (!arg || !strcmp(arg, "signal")) {
		s->signal = true;
	} else if (!units__parse_size(arg, &v) && v) {
		s->size = v;
	} else if (!units__parse_time(arg, &v) && v) {
		s->time = v;
	} else {
		return perf_err__set(err, EINVAL,
				     "'%s': expected signal, a size (e.g. 10M: B, K, M, G) or a time (e.g. 30s: s, m, h, d)",
				     arg);
	}
	s->enabled = true;
	return 0;
}

void switch_output__timestamp(char *buf)
{
	struct timeval tv;
	struct tm tm;
	char date[15];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y%m%d%H%M%S", &tm);
	snprintf(buf, SWITCH_OUTPUT_TIMESTAMP_SIZE, "%.14s%02d", date, (int)(tv.tv_usec / 10000));
}

int switch_output__rename(const char *path, char **name, struct perf_err *err)
{
	char ts[SWITCH_OUTPUT_TIMESTAMP_SIZE];
	char *to = NULL;

	/* at most a hundredth of a second: the next timestamp is a new name */
	for (int tries = 0; tries < 100; tries++) {
		free(to);
		switch_output__timestamp(ts);
		if (asprintf(&to, "%s.%s", path, ts) < 0)
			return perf_err__set(err, ENOMEM, "out of memory");
		if (access(to, F_OK))
			break;
		usleep(1000);
	}
	if (rename(path, to)) {
		int e = errno;

		free(to);
		return perf_err__set(err, e, "cannot rename %s to %s.%s: %s", path, path, ts,
				     strerror(e));
	}
	*name = to;
	return 0;
}
