/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu-terms.h - perf's `pmu/term=value,.../` event syntax: a PMU named in
 * /sys/bus/event_source/devices (its `type` file is attr.type), the terms config, config1,
 * config2 (raw attr words), the PMU's format terms (format/NAME: "config:0-7,21" says which
 * bits of which word the value goes into), its event aliases (events/NAME: a list of terms),
 * and the terms that are no attr bits: name= (the event's name), period= and freq= (its own
 * sampling, which the command's -c/-F do not override).
 *
 * Owns nothing past a call: the sysfs root is a parameter so that a test can give a fake tree.
 */
#ifndef PERF_UTIL_PMU_TERMS_H
#define PERF_UTIL_PMU_TERMS_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>

#define PMU_SYSFS_DEVICES	"/sys/bus/event_source/devices"

struct pmu_event {
	struct perf_event_attr	*attr;		/* type and config words are set here */
	char			*name;		/* name=: malloc'ed, NULL when absent */
	u64			period;		/* period= or freq= value */
	bool			has_period;	/* period= given */
	bool			has_freq;	/* freq= given */
};

/*
 * Parses "pmu/terms/" (terms: the text between the slashes, may be empty) into ev, reading
 * the PMU under root (PMU_SYSFS_DEVICES normally). Errors, in perf's words: -ENOENT "Cannot
 * find PMU `x'", -EINVAL for an unknown term (with the valid ones) or a bad value.
 */
int pmu_terms__parse(const char *root, const char *pmu, const char *terms, struct pmu_event *ev,
		     struct perf_err *err);

#endif
