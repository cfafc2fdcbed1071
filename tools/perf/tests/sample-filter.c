// SPDX-License-Identifier: GPL-2.0
/*
 * The sample filters' parsers and checks without upstream perf: every list syntax that is
 * accepted or refused (with upstream's words), on a file written here with a known cpu
 * count. filters.sh compares the same against upstream on live recordings.
 */
#include <stdio.h>
#include <string.h>
#include <perf/data.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "tests.h"
#include "util/dso.h"
#include "util/sample-filter.h"
#include "util/symbol.h"

#define NSEC	1000000000ULL

/* a file of one cpu-clock event with sample_type, recorded on 4 cpus */
static struct perf_data *write_file(const struct test_env *env, const char *name, u64 sample_type)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = 0 /* cpu-clock */, .sample_period = 1,
		.sample_type = sample_type,
	};
	struct perf_writer *w;
	struct perf_err err;
	char path[1024];
	u64 id = 1;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", env->tmpdir, name);
	w = perf_writer__new(path, NULL, &err);
	if (!w)
		return NULL;
	ret = perf_writer__add_attr(w, &attr, &id, 1, NULL, &err);
	if (ret >= 0)
		ret = perf_writer__set_nrcpus(w, 4, 4, &err);
	if (!ret)
		ret = perf_writer__finish(w, &err);
	perf_writer__delete(w);
	return ret ? NULL : perf_data__open(path, &err);
}

/* sets one option of f from "name=value" and runs the setup; the message or "" */
static int setup(struct sample_filter *f, struct perf_data *data, const char *opt,
		 enum sample_filter_fail *failed, struct perf_err *err)
{
	const char *value = strchr(opt, '=') + 1;

	sample_filter__exit(f);
	sample_filter__init(f);
	if (!strncmp(opt, "comm=", 5))
		f->comm_str = value;
	else if (!strncmp(opt, "pid=", 4))
		f->pid_str = value;
	else if (!strncmp(opt, "tid=", 4))
		f->tid_str = value;
	else if (!strncmp(opt, "sym=", 4))
		f->sym_str = value;
	else if (!strncmp(opt, "dso=", 4))
		f->dso_str = value;
	else if (!strncmp(opt, "cpu=", 4))
		f->cpu_str = value;
	else
		f->time_str = value;
	err->msg[0] = '\0';
	return sample_filter__setup(f, data, failed, err);
}

static const struct {
	const char	*opt;
	const char	*msg;		/* NULL: accepted */
	enum sample_filter_fail failed;
} refused[] = {
	{ "comm=ls,ls", "problems parsing comm list", SAMPLE_FILTER_FAIL_LIST },
	{ "dso=a,b,a", "problems parsing dso list", SAMPLE_FILTER_FAIL_LIST },
	{ "sym=main,main", "problems parsing symbol list", SAMPLE_FILTER_FAIL_LIST },
	{ "pid=1,x", "problems parsing pid list", SAMPLE_FILTER_FAIL_LIST },
	{ "pid=1,1", "problems parsing pid list", SAMPLE_FILTER_FAIL_LIST },
	{ "tid=1x", "problems parsing tid list", SAMPLE_FILTER_FAIL_LIST },
	{ "cpu=x", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=-1", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=1-0", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=0,0", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=0-1-2", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=1 ", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=99999999999", "Invalid cpu_list", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=4", "Requested CPU 4 too large. Consider raising MAX_NR_CPUS", SAMPLE_FILTER_FAIL_CPU },
	{ "cpu=4096", "Perf can support 4096 CPUs. Consider raising MAX_NR_CPUS\n"
		      "Requested CPU 4096 too large. Consider raising MAX_NR_CPUS", SAMPLE_FILTER_FAIL_CPU },
	{ "time=x", "Invalid time string", SAMPLE_FILTER_FAIL_TIME },
	{ "time=1", "Invalid time string", SAMPLE_FILTER_FAIL_TIME },
	{ "time=2,1", "Invalid time string", SAMPLE_FILTER_FAIL_TIME },
	{ "time=1.0000000001,", "Invalid time string", SAMPLE_FILTER_FAIL_TIME },
	{ "time=1,3 2,4", "Invalid time string", SAMPLE_FILTER_FAIL_TIME },
	{ "time=1,2,3,4", "Invalid time string", SAMPLE_FILTER_FAIL_TIME },
	/* the file has no HEADER_SAMPLE_TIME */
	{ "time=10%", "HINT: no first/last sample time found in perf data.\n"
		      "Please use latest perf binary to execute 'perf record'\n"
		      "(if '--buildid-all' is enabled, please set '--timestamp-boundary').",
	  SAMPLE_FILTER_FAIL_TIME },
	{ "comm=", NULL, 0 }, { "pid=", NULL, 0 }, { "tid=1,", NULL, 0 },
	{ "cpu=0x1", NULL, 0 }, { "cpu=1,", NULL, 0 }, { "cpu=0-", NULL, 0 },
	{ "cpu=1,x", NULL, 0 }, { "time=,", NULL, 0 }, { "time=1.5,", NULL, 0 },
};

DEFINE_SUITE(sample_filter)
{
	struct perf_data *data = write_file(env, "cpu.data", PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	struct perf_data *nocpu = write_file(env, "nocpu.data", PERF_SAMPLE_IP | PERF_SAMPLE_TIME);
	struct symbol main_sym = { .start = 0x1000, .end = 0x1100, .name = "main" };
	struct dso dso = { .long_name = (char *)"/usr/bin/ls", .short_name = "ls" };
	enum sample_filter_fail failed;
	struct sample_filter f;
	struct perf_err err;
	int ret;

	TEST_ASSERT(env, data && nocpu, "cannot write the test files");
	sample_filter__init(&f);
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		ret = setup(&f, data, refused[i].opt, &failed, &err);
		if (!refused[i].msg) {
			TEST_ASSERT(env, !ret, "%s refused: %s", refused[i].opt, err.msg);
			continue;
		}
		TEST_ASSERT(env, ret && failed == refused[i].failed && !strcmp(err.msg, refused[i].msg),
			    "%s: %d, failed %d, '%s'", refused[i].opt, ret, failed, err.msg);
	}
	ret = setup(&f, nocpu, "cpu=0", &failed, &err);
	TEST_ASSERT(env, ret && !strcmp(err.msg, "File does not contain CPU events. Remove -C option to proceed."),
		    "no CPU events: '%s'", err.msg);

	/* -C: the cpus listed and only those; a sample without a cpu is kept */
	TEST_ASSERT(env, !setup(&f, data, "cpu=0-1,3", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, !sample_filter__drops(&f, 0, 0) && !sample_filter__drops(&f, 1, 0) &&
		    sample_filter__drops(&f, 2, 0) && !sample_filter__drops(&f, 3, 0) &&
		    !sample_filter__drops(&f, (u32)-1, 0), "cpu 0-1,3");

	/* --time: both ends inclusive, ns precision, several ranges, time 0 kept */
	TEST_ASSERT(env, !setup(&f, data, "time=1.5,2 3,", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, f.nr_ranges == 2, "%zu ranges", f.nr_ranges);
	TEST_ASSERT(env, sample_filter__drops(&f, 0, 1499999999) && !sample_filter__drops(&f, 0, 1500000000) &&
		    !sample_filter__drops(&f, 0, 2 * NSEC) && sample_filter__drops(&f, 0, 2 * NSEC + 1) &&
		    !sample_filter__drops(&f, 0, 3 * NSEC) && !sample_filter__drops(&f, 0, 100 * NSEC) &&
		    !sample_filter__drops(&f, 0, 0), "time 1.5,2 3,");
	TEST_ASSERT(env, !setup(&f, data, "time=,1.000000001", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, !sample_filter__drops(&f, 0, 1) && !sample_filter__drops(&f, 0, NSEC + 1) &&
		    sample_filter__drops(&f, 0, NSEC + 2), "time ,1.000000001");

	/* hide filters: comm, pid, tid, dso by either name, symbol by name or sample address */
	TEST_ASSERT(env, !setup(&f, data, "comm=ls,", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, !sample_filter__hides(&f, "ls", 1, 1, NULL, NULL, 0, false) &&
		    sample_filter__hides(&f, "sh", 1, 1, NULL, NULL, 0, false) &&
		    !sample_filter__has_hide(&(struct sample_filter){ 0 }) && sample_filter__has_hide(&f) &&
		    !strcmp(name_list__single(&f.comms, f.comm_str), "ls"), "comm ls,");
	TEST_ASSERT(env, !setup(&f, data, "pid=", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, !sample_filter__hides(&f, "x", 0, 5, NULL, NULL, 0, false) &&
		    sample_filter__hides(&f, "x", 5, 5, NULL, NULL, 0, false), "pid '' is pid 0");
	TEST_ASSERT(env, !setup(&f, data, "tid=7,8", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, !sample_filter__hides(&f, "x", 1, 8, NULL, NULL, 0, false) &&
		    sample_filter__hides(&f, "x", 7, 9, NULL, NULL, 0, false), "tid 7,8");
	TEST_ASSERT(env, !setup(&f, data, "dso=/usr/bin/ls", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, !sample_filter__hides(&f, "x", 1, 1, &dso, NULL, 0, false) &&
		    sample_filter__hides(&f, "x", 1, 1, NULL, NULL, 0, false), "dso by long name");
	TEST_ASSERT(env, !setup(&f, data, "sym=main,0x1010,add", &failed, &err), "%s", err.msg);
	TEST_ASSERT(env, f.syms.nr == 1 && f.nr_sym_addrs == 2, "hex entries are addresses");
	TEST_ASSERT(env, !sample_filter__hides(&f, "x", 1, 1, &dso, &main_sym, 0x1004, true) &&
		    !sample_filter__hides(&f, "x", 1, 1, &dso, NULL, 0x1010, true) &&
		    sample_filter__hides(&f, "x", 1, 1, &dso, NULL, 0x1010, false) &&
		    !sample_filter__hides(&f, "x", 1, 1, &dso, NULL, 0xadd, true) &&
		    sample_filter__hides(&f, "x", 1, 1, &dso, NULL, 0x1004, true), "symbols");

	sample_filter__exit(&f);
	perf_data__close(data);
	perf_data__close(nocpu);
	return TEST_OK;
}
