// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's run-time triggers: -D, --control, --switch-output, --max-size. See
 * record-trigger.h. This module is part of the command: it prints the lines perf prints.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "parse-options.h"
#include "record-output.h"
#include "record-trigger.h"
#include "units.h"

#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

void record_trigger__init(struct record_trigger *t)
{
	memset(t, 0, sizeof(*t));
	record_control__init(&t->ctl);
}

void record_trigger__exit(struct record_trigger *t)
{
	record_control__exit(&t->ctl);
	free(t->fds);
	t->fds = NULL;
	for (int i = 0; t->kept && i < t->max_files; i++)
		free(t->kept[i]);
	free(t->kept);
	t->kept = NULL;
}

bool record_trigger__needed(const struct record_trigger *t)
{
	return t->so.enabled || t->delay.set || t->ctl.ctl_fd >= 0 || t->max_size || t->sb;
}

static void trigger__say(const struct record_trigger *t, const char *msg)
{
	if (!t->quiet)
		fprintf(stderr, "%s\n", msg);
}

int record_trigger__begin(struct record_trigger *t, struct record_loop *rl,
			  struct perf_err *err)
{
	size_t nr_sb = t->sb ? record_sb__fds(t->sb, NULL, 0) : 0;

	t->nr_fds = 1 + nr_sb;
	t->fds = calloc(t->nr_fds, sizeof(*t->fds));
	if (!t->fds)
		return perf_err__set(err, ENOMEM, "out of memory");
	t->fds[0] = record_control__fd(&t->ctl);
	if (t->sb)
		record_sb__fds(t->sb, t->fds + 1, nr_sb);
	rl->tick_fds = t->fds;
	rl->nr_tick_fds = t->nr_fds;
	t->start_ns = t->file_ns = now_ns();
	t->sched_on = !t->delay.set;
	if (t->delay.set)
		trigger__say(t, "Events disabled");
	return 0;
}

static void timeout__lower(struct record_loop *rl, u64 ns)
{
	u64 ms = (ns + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC;

	if (ms > INT32_MAX)
		return;
	if (rl->tick_timeout_ms < 0 || (u64)rl->tick_timeout_ms > ms)
		rl->tick_timeout_ms = (int)ms;
}

/* -D: enable or disable where the schedule turns; 1 after the last range (stop) */
static int trigger__schedule(struct record_trigger *t, struct record_loop *rl, u64 now,
			     struct perf_err *err)
{
	bool on, done;
	u64 next_ms;
	int ret;

	if (!t->delay.set)
		return 0;
	record_delay__at(&t->delay, (now - t->start_ns) / NSEC_PER_MSEC, &on, &done, &next_ms);
	if (on != t->sched_on) {
		ret = t->ops->enable(t->ctx, -1, on, err);
		if (ret)
			return ret;
		t->sched_on = on;
		trigger__say(t, on ? "Events enabled" : "Events disabled");
	}
	if (done)
		return 1;
	if (next_ms != UINT64_MAX)
		timeout__lower(rl, next_ms * NSEC_PER_MSEC);
	return 0;
}

/* one --control command; 1 for stop */
static int trigger__command(struct record_trigger *t, enum record_control_cmd cmd,
			    const char *arg, struct perf_err *err)
{
	bool on = cmd == RECORD_CONTROL_ENABLE;
	char msg[RECORD_CONTROL_LINE_MAX + 64];
	int ret = 0, e;

	switch (cmd) {
	case RECORD_CONTROL_ENABLE:
	case RECORD_CONTROL_DISABLE:
		if (!*arg) {
			ret = t->ops->enable(t->ctx, -1, on, err);
			if (!ret)
				trigger__say(t, on ? "Events enabled" : "Events disabled");
			break;
		}
		e = t->ops->find_event(t->ctx, arg);
		if (e < 0) {
			snprintf(msg, sizeof(msg), "perf record: --control: no event '%s' to %s", arg,
				 on ? "enable" : "disable");
			trigger__say(t, msg);
			break;
		}
		ret = t->ops->enable(t->ctx, e, on, err);
		if (!ret) {
			snprintf(msg, sizeof(msg), "Event %s %s", arg, on ? "enabled" : "disabled");
			trigger__say(t, msg);
		}
		break;
	case RECORD_CONTROL_EVLIST:
		t->ops->list_events(t->ctx, arg);
		break;
	case RECORD_CONTROL_STOP:
		ret = 1;
		break;
	case RECORD_CONTROL_SNAPSHOT:	/* an AUX area snapshot: we record no AUX area */
	case RECORD_CONTROL_PING:
	case RECORD_CONTROL_NONE:
	case RECORD_CONTROL_UNKNOWN:
	default:
		break;
	}
	if (ret < 0)
		return ret;
	/* perf acks what it carried out, and ignores what it does not know */
	e = record_control__ack(&t->ctl, err);
	return e ? e : ret;
}

static int trigger__control(struct record_trigger *t, struct perf_err *err)
{
	char arg[RECORD_CONTROL_LINE_MAX], msg[RECORD_CONTROL_LINE_MAX + 64];
	enum record_control_cmd cmd;
	int ret;

	for (;;) {
		ret = record_control__next(&t->ctl, &cmd, arg, sizeof(arg), err);
		if (ret || cmd == RECORD_CONTROL_NONE)
			return ret;
		if (cmd == RECORD_CONTROL_UNKNOWN) {
			snprintf(msg, sizeof(msg), "perf record: --control: unknown command '%s' (ignored)",
				 arg);
			trigger__say(t, msg);
			continue;
		}
		ret = trigger__command(t, cmd, arg, err);
		if (ret)
			return ret;
	}
}

static int trigger__switch(struct record_trigger *t, struct record_loop *rl,
			   struct perf_err *err)
{
	char *name = NULL;
	int ret;

	/* what the rings hold now belongs to this file; with --overwrite, the snapshot */
	ret = record_loop__dump(rl, err);
	if (!ret && !t->quiet)
		fprintf(stderr, "[ perf record: dump data: Woken up %llu times ]\n",
			(unsigned long long)rl->wakeups);
	if (!ret)
		ret = t->ops->finish(t->ctx, rl, err);
	if (!ret)
		ret = record_trigger__rename(t, &name, err);
	if (ret)
		return ret;
	if (!t->quiet)
		fprintf(stderr, "[ perf record: Dump %s ]\n", name);
	free(name);
	rl->wakeups = 0;
	rl->stats.samples = 0;
	rl->stats.first_time = rl->stats.last_time = 0;
	t->file_ns = now_ns();
	return t->ops->start(t->ctx, rl, err);
}

int record_trigger__rename(struct record_trigger *t, char **name, struct perf_err *err)
{
	char **slot;
	int ret;

	if (t->max_files > 0 && !t->kept) {
		t->kept = calloc((size_t)t->max_files, sizeof(*t->kept));
		if (!t->kept)
			return perf_err__set(err, ENOMEM, "out of memory");
	}
	ret = switch_output__rename(t->path, name, err);
	if (ret || t->max_files <= 0)
		return ret;
	/* the oldest file goes once N newer ones exist, as perf's --switch-max-files */
	slot = &t->kept[t->next_kept];
	/* a file, or the perf.data directory of --kcore */
	if (*slot && record_output__remove(*slot, err) && !t->quiet)
		fprintf(stderr, "perf record: warning: %s\n", err->msg);
	free(*slot);
	/* out of memory, this one file is kept beyond the limit; nothing else changes */
	*slot = strdup(*name);
	t->next_kept = (t->next_kept + 1) % t->max_files;
	return 0;
}

int record_trigger__tick(void *ctx, struct record_loop *rl, struct perf_err *err)
{
	struct record_trigger *t = ctx;
	u64 now = now_ns(), size;
	bool due = false;
	int ret;

	ret = trigger__schedule(t, rl, now, err);
	if (!ret && t->ctl.ctl_fd >= 0)
		ret = trigger__control(t, err);
	t->fds[0] = record_control__fd(&t->ctl);
	if (ret)
		return ret;
	size = perf_writer__data_size(rl->w);
	if (t->max_size && size >= t->max_size) {
		if (!t->quiet)
			fprintf(stderr, "[ perf record: perf size limit reached (%llu KB), stopping session ]\n",
				(unsigned long long)(size >> 10));
		return 1;
	}
	if (!t->so.enabled)
		return 0;
	if (t->so.signal && t->switch_flag && *t->switch_flag) {
		*t->switch_flag = 0;
		due = true;
	}
	if (t->sb) {
		u64 records;

		ret = record_sb__read(t->sb, &records, err);
		if (ret)
			return ret;
		if (records)
			due = true;
	}
	if (t->so.size && size >= t->so.size)
		due = true;
	if (t->so.time) {
		u64 end = t->file_ns + t->so.time * NSEC_PER_SEC;

		if (now >= end)
			due = true;
		else
			timeout__lower(rl, end - now);
	}
	if (!due)
		return 0;
	ret = trigger__switch(t, rl, err);
	if (!ret && t->so.time)
		timeout__lower(rl, t->so.time * NSEC_PER_SEC);
	return ret;
}

int record_trigger__opt_switch_output(const struct option *opt, const char *arg, bool unset)
{
	struct record_trigger *t = opt->value;
	struct perf_err err;

	if (unset) {
		memset(&t->so, 0, sizeof(t->so));
		return 0;
	}
	if (switch_output__parse(&t->so, arg, &err))
		return parse_options__error(opt, false, "%s", err.msg);
	return 0;
}

int record_trigger__opt_max_size(const struct option *opt, const char *arg, bool unset)
{
	struct record_trigger *t = opt->value;

	if (unset) {
		t->max_size = 0;
		return 0;
	}
	if (units__parse_size(arg, &t->max_size) || !t->max_size)
		return parse_options__error(opt, false,
					    "'%s': expected a size with a unit, B, K, M or G (e.g. 100M)",
					    arg);
	return 0;
}

int record_trigger__opt_control(const struct option *opt, const char *arg, bool unset)
{
	struct record_trigger *t = opt->value;
	struct perf_err err;

	record_control__exit(&t->ctl);
	if (unset)
		return 0;
	if (record_control__open(&t->ctl, arg, &err))
		return parse_options__error(opt, false, "%s", err.msg);
	return 0;
}

int record_trigger__opt_delay(const struct option *opt, const char *arg, bool unset)
{
	struct record_trigger *t = opt->value;
	struct perf_err err;

	if (unset) {
		memset(&t->delay, 0, sizeof(t->delay));
		return 0;
	}
	if (record_delay__parse(&t->delay, arg, &err))
		return parse_options__error(opt, true, "%s", err.msg);
	return 0;
}
