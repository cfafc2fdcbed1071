// SPDX-License-Identifier: GPL-2.0
/*
 * Default event names for attrs that the file does not name (no HEADER_EVENT_DESC), the
 * way perf spells them, with the :u/:k/:h modifiers perf appends.
 */
#include <stdio.h>
#include <string.h>
#include <perf/data.h>
#include <perf/kernel.h>

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node" };
static const char *const cache_ops[] = { "load", "store", "prefetch" };
static const char *const cache_results[] = { "refs", "misses" };

static void add_modifiers(const struct perf_event_attr *attr, char *buf, size_t len)
{
	bool eu = perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_USER);
	bool ek = perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_KERNEL);
	bool eh = perf_attr__has(attr, PERF_ATTR_BIT_EXCLUDE_HV);
	size_t n = strlen(buf);
	char mod[8];
	int m = 0;

	if (!eu && !ek && !eh)
		return;
	/* perf only spells out what is included when something is excluded */
	if (!ek)
		mod[m++] = 'k';
	if (!eu)
		mod[m++] = 'u';
	if (!eh && (ek || eu) && !(ek && !eu))
		mod[m++] = 'h';
	mod[m] = '\0';
	if (m && n + 1 + (size_t)m < len)
		snprintf(buf + n, len - n, ":%s", mod);
}

void perf_evattr__default_name(const struct perf_event_attr *attr, char *buf, size_t len)
{
	u64 c = attr->config;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		if (c < ARRAY_SIZE(hw_names))
			snprintf(buf, len, "%s", hw_names[c]);
		else
			snprintf(buf, len, "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		if (c < ARRAY_SIZE(sw_names))
			snprintf(buf, len, "%s", sw_names[c]);
		else
			snprintf(buf, len, "unknown-software");
		break;
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, len, "unknown:unknown");
		break;
	case PERF_TYPE_HW_CACHE: {
		u64 type = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;

		if (type < 7 && op < 3 && res < 2)
			snprintf(buf, len, "%s-%s%s%s", cache_names[type], cache_ops[op],
				 res ? "-" : "s", res ? cache_results[res] : "");
		else
			snprintf(buf, len, "unknown-ext-hardware-cache-type");
		break;
	}
	case PERF_TYPE_BREAKPOINT:
		snprintf(buf, len, "mem:0x%llx:%s%s%s", (unsigned long long)attr->config1,
			 attr->bp_type & 1 ? "r" : "", attr->bp_type & 2 ? "w" : "",
			 attr->bp_type & 4 ? "x" : "");
		break;
	case PERF_TYPE_RAW:
		snprintf(buf, len, "raw 0x%llx", (unsigned long long)c);
		break;
	default:
		snprintf(buf, len, "unknown attr type: %u", attr->type);
		return;
	}
	add_modifiers(attr, buf, len);
}
