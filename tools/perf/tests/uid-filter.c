// SPDX-License-Identifier: GPL-2.0
/*
 * perf record -a --uid's filter (util/uid-filter.c) on records built in memory and a /proc
 * of status files in the test's directory: samples of the user kept and of others dropped,
 * the side-band kept; a child's uid from its FORK when its process is gone, also when the
 * FORK comes after the sample (another ring) or one pass later, and when the parent's own
 * FORK comes later still; an exec that changes the user; a process never seen counted apart;
 * pid 0 is root's. No perf_event_open.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/data.h>
#include <perf/event.h>
#include <perf/synthesize.h>
#include "util/uid-filter.h"
#include "tests.h"

#define ME	1000
#define OTHER	2000

struct uf_ctx {
	struct perf_evattr	ea;
	struct uid_filter	f;
	char			proc[512];
	u64			buf[64];
	u32			emitted[64];	/* pids of the held records emitted, in order */
	int			nr_emitted;
};

static int uf__proc(struct uf_ctx *t, u32 pid, uid_t uid)
{
	char path[600];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%u", t->proc, pid);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/%u/status", t->proc, pid);
	fp = fopen(path, "w");
	if (!fp)
		return -errno;
	fprintf(fp, "Name:\tx\nPid:\t%u\nUid:\t%u\t0\t0\t0\nGid:\t0\t0\t0\t0\n", pid, uid);
	return fclose(fp) ? -errno : 0;
}

static void uf__gone(struct uf_ctx *t, u32 pid)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%u/status", t->proc, pid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%u", t->proc, pid);
	rmdir(path);
}

static enum uid_filter_verdict uf__sample(struct uf_ctx *t, u32 pid)
{
	struct perf_sample s = { .ip = 0x401000, .pid = pid, .tid = pid, .time = 1, .period = 1 };

	if (perf_sample__synthesize(&t->ea.attr, &s, false, t->buf, sizeof(t->buf), NULL) < 0)
		return (enum uid_filter_verdict)-1;
	return uid_filter__keep(&t->f, &t->ea, (const void *)t->buf);
}

static enum uid_filter_verdict uf__task(struct uf_ctx *t, u32 type, u32 pid, u32 ppid)
{
	struct perf_record_fork r = {
		.header = { .type = type, .size = sizeof(r) },
		.pid = pid, .ppid = ppid, .tid = pid, .ptid = ppid,
	};

	return uid_filter__keep(&t->f, &t->ea, &r.header);
}

static enum uid_filter_verdict uf__exec(struct uf_ctx *t, u32 pid)
{
	struct { struct perf_record_comm c; char name[8]; } r = {
		.c = { .header = { .type = PERF_RECORD_COMM, .misc = PERF_RECORD_MISC_COMM_EXEC,
				   .size = sizeof(r) }, .pid = pid, .tid = pid },
		.name = "su",
	};

	return uid_filter__keep(&t->f, &t->ea, &r.c.header);
}

static int uf__emit(void *ctx, const struct perf_event_header *ev)
{
	struct uf_ctx *t = ctx;
	u32 pid;

	if (perf_evattr__parse_pid(&t->ea, ev, false, &pid) || t->nr_emitted >= 64)
		return -EINVAL;
	t->emitted[t->nr_emitted++] = pid;
	return 0;
}

DEFINE_SUITE(uid_filter)
{
	static struct uf_ctx t;
	int ret;

	memset(&t, 0, sizeof(t));
	t.ea.attr.type = PERF_TYPE_SOFTWARE;
	t.ea.attr.size = sizeof(t.ea.attr);
	t.ea.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_PERIOD;
	t.ea.attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL);
	perf_evattr__init_positions(&t.ea);
	snprintf(t.proc, sizeof(t.proc), "%s/proc", env->tmpdir);
	TEST_ASSERT(env, !mkdir(t.proc, 0755), "mkdir %s: %s", t.proc, strerror(errno));
	/* before the recording: 10 and 11 are mine, 20 another user's, 30 is root's */
	TEST_ASSERT(env, !uf__proc(&t, 10, ME) && !uf__proc(&t, 11, ME) &&
			 !uf__proc(&t, 20, OTHER) && !uf__proc(&t, 30, 0), "proc tree");
	uid_filter__init(&t.f, ME, t.proc);
	ret = uid_filter__scan(&t.f);
	TEST_ASSERT(env, !ret, "scan: %s", strerror(-ret));

	TEST_ASSERT(env, uf__sample(&t, 10) == UID_FILTER_KEEP, "my process dropped");
	TEST_ASSERT(env, uf__sample(&t, 20) == UID_FILTER_DROP, "another user's process kept");
	TEST_ASSERT(env, uf__sample(&t, 0) == UID_FILTER_DROP, "the idle task (root's) kept");
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_FORK, 21, 20) == UID_FILTER_KEEP,
		    "another user's FORK (side-band) dropped");

	/* 11 scanned, then gone: the table still knows it */
	uf__gone(&t, 11);
	TEST_ASSERT(env, uf__sample(&t, 11) == UID_FILTER_KEEP, "a scanned process, gone, dropped");

	/* 12: forked by 10 and gone before its sample is read */
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_FORK, 12, 10) == UID_FILTER_KEEP, "FORK");
	TEST_ASSERT(env, uf__sample(&t, 12) == UID_FILTER_KEEP, "a child of mine, gone, dropped");
	/* its exit, then its pid reused by another user's process */
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_EXIT, 12, 10) == UID_FILTER_KEEP, "EXIT");
	TEST_ASSERT(env, !uid_filter__flush(&t.f, false, uf__emit, &t), "flush");
	TEST_ASSERT(env, !uf__proc(&t, 12, OTHER), "proc");
	TEST_ASSERT(env, uf__sample(&t, 12) == UID_FILTER_DROP,
		    "a reused pid kept its former owner");

	/* 13 and 14: their samples come first (another ring), 14 in the next pass only */
	TEST_ASSERT(env, uf__sample(&t, 13) == UID_FILTER_HELD, "an unknown process not held");
	TEST_ASSERT(env, uf__sample(&t, 14) == UID_FILTER_HELD, "an unknown process not held");
	TEST_ASSERT(env, uf__sample(&t, 22) == UID_FILTER_HELD, "an unknown process not held");
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_FORK, 13, 10) == UID_FILTER_KEEP, "FORK");
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_EXIT, 13, 10) == UID_FILTER_KEEP, "EXIT");
	TEST_ASSERT(env, !uid_filter__flush(&t.f, false, uf__emit, &t), "flush");
	TEST_ASSERT(env, t.nr_emitted == 1 && t.emitted[0] == 13,
		    "end of pass 1: %d emitted, first pid %u", t.nr_emitted, t.emitted[0]);
	TEST_ASSERT(env, uid_filter__holding(&t.f), "14's sample not held over");
	/* pass 2: 14's FORK, from 15, whose own FORK (from 10) comes after it */
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_FORK, 14, 15) == UID_FILTER_KEEP, "FORK");
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_FORK, 22, 20) == UID_FILTER_KEEP, "FORK");
	TEST_ASSERT(env, uf__task(&t, PERF_RECORD_FORK, 15, 10) == UID_FILTER_KEEP, "FORK");
	TEST_ASSERT(env, !uid_filter__flush(&t.f, false, uf__emit, &t), "flush");
	TEST_ASSERT(env, t.nr_emitted == 2 && t.emitted[1] == 14,
		    "end of pass 2: %d emitted, last pid %u", t.nr_emitted,
		    t.emitted[t.nr_emitted - 1]);
	TEST_ASSERT(env, !uid_filter__holding(&t.f), "records still held after two passes");

	/* 16: never seen, gone: held over once, then dropped and counted */
	TEST_ASSERT(env, uf__sample(&t, 16) == UID_FILTER_HELD, "not held");
	TEST_ASSERT(env, !uid_filter__flush(&t.f, false, uf__emit, &t) &&
			 uid_filter__holding(&t.f), "not held over");
	TEST_ASSERT(env, !uid_filter__flush(&t.f, false, uf__emit, &t) &&
			 !uid_filter__holding(&t.f), "held past a second pass");
	TEST_ASSERT(env, uf__sample(&t, 17) == UID_FILTER_HELD, "not held");
	TEST_ASSERT(env, !uid_filter__flush(&t.f, true, uf__emit, &t) &&
			 !uid_filter__holding(&t.f), "held past the last pass");
	TEST_ASSERT(env, t.nr_emitted == 2, "an unknown process's sample emitted");
	TEST_ASSERT(env, t.f.unknown == 2, "%llu unknown samples, not 2",
		    (unsigned long long)t.f.unknown);

	/* 30 (root's) becomes mine by su and exec */
	TEST_ASSERT(env, uf__sample(&t, 30) == UID_FILTER_DROP, "root's process kept");
	TEST_ASSERT(env, !uf__proc(&t, 30, ME), "proc");
	TEST_ASSERT(env, uf__exec(&t, 30) == UID_FILTER_KEEP, "COMM dropped");
	TEST_ASSERT(env, uf__sample(&t, 30) == UID_FILTER_KEEP, "mine after exec, dropped");

	TEST_ASSERT(env, t.f.kept == 6 && t.f.dropped == 5,
		    "%llu kept, %llu dropped; not 6 and 5", (unsigned long long)t.f.kept,
		    (unsigned long long)t.f.dropped);
	uid_filter__exit(&t.f);
	return TEST_OK;
}
