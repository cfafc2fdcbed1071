// SPDX-License-Identifier: GPL-2.0
/* Sizes and durations with a unit letter. See units.h. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "units.h"

struct unit {
	char	letter;
	u64	mult;
};

static const struct unit size_units[] = {
	{ 'B', 1 }, { 'K', 1ULL << 10 }, { 'M', 1ULL << 20 }, { 'G', 1ULL << 30 }, { 0, 0 },
};

static const struct unit time_units[] = {
	{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 0, 0 },
};

/* the number before the unit; *end points after it */
static int units__number(const char *s, u64 *v, const char **end)
{
	char *e;

	/* strtoull takes leading blanks and a sign: neither is a size */
	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, 10);
	if (errno)
		return -EINVAL;
	*end = e;
	return 0;
}

static int units__parse(const char *s, const struct unit *units, bool bare, u64 *out)
{
	const char *end;
	u64 v;

	if (!s || units__number(s, &v, &end))
		return -EINVAL;
	if (!*end) {
		if (!bare)
			return -EINVAL;
		*out = v;
		return 0;
	}
	if (end[1])
		return -EINVAL;
	for (const struct unit *u = units; u->letter; u++) {
		if (*end != u->letter)
			continue;
		if (v > UINT64_MAX / u->mult)
			return -EINVAL;
		*out = v * u->mult;
		return 0;
	}
	return -EINVAL;
}

int units__parse_size(const char *s, u64 *bytes)
{
	return units__parse(s, size_units, false, bytes);
}

int units__parse_size_or_bytes(const char *s, u64 *bytes)
{
	return units__parse(s, size_units, true, bytes);
}

int units__parse_time(const char *s, u64 *seconds)
{
	return units__parse(s, time_units, false, seconds);
}
