// SPDX-License-Identifier: GPL-2.0
/*
 * The side-band modules of perf record, each end to end on this machine: records synthesized
 * from /proc for a running child, the header features, the build ids and the build-id cache,
 * the tracing data, written with the writer into a recording that our perf script/report,
 * upstream 7.2 and the system perf 6.1 then read.
 *
 *  record_synth_resolve   /proc synthesis of a running child + kernel map + two synthesized
 *                         samples: script and report name the child's comm, the user
 *                         function it spins in and the kernel function at the kernel ip
 *  record_features_header header-only of ours == upstream's on our file (-I too); the machine's
 *                         features as the system perf 6.1 writes them; 6.1 reads it silently
 *  record_build_id_cache  HEADER_BUILD_ID from MMAP2 build ids, the cache where our reader
 *                         (and perf) look: a recording of a kernel that is not the running
 *                         one resolves from it alone
 *  record_tracing_data    the tracing data of two sched tracepoints parsed by trace-event.c
 *                         and a sched_switch sample's fields printed by ours and upstream
 *  record_side_errors     a pid that is gone, an unknown tracepoint, a bad tracepoint name, a
 *                         cache dir that cannot be created: one line each
 *  record_synth_tree      a /proc and /sys tree of the test's: a module map and its build id,
 *                         a two-thread process (-p, -t), build ids only for files that are
 *                         still the mapped ones, hidden kernel addresses refused
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "util/build-id-list.h"
#include "util/machine.h"
#include "util/record-features.h"
#include "util/record-synth.h"
#include "util/symbol-elf.h"
#include "util/sysfile.h"
#include "util/trace-event.h"
#include "util/tracing-data.h"
#include "run-helpers.h"
#include "tests.h"

#define CHILD_COMM	"rside-child"
/* perf_event.h's SW_CPU_CLOCK: the software cpu-clock event */
#define SW_CPU_CLOCK	0

/* where the child spins: a global, not inlined, so its name survives -O2 */
void __attribute__((noinline)) record_side__spin(volatile unsigned long *n);
void __attribute__((noinline)) record_side__spin(volatile unsigned long *n)
{
	for (;;)
		(*n)++;
}

/* a child that spins in record_side__spin under CHILD_COMM; its pid or -1 */
static pid_t spawn_child(void)
{
	pid_t pid = fork();

	if (!pid) {
		volatile unsigned long n = 0;

		prctl(PR_SET_NAME, CHILD_COMM);
		record_side__spin(&n);
		_exit(0);
	}
	/* the comm must be set before /proc is read */
	for (int i = 0; pid > 0 && i < 200; i++) {
		char path[64], comm[32] = "";
		FILE *fp;

		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		fp = fopen(path, "r");
		if (fp) {
			if (!fgets(comm, sizeof(comm), fp))
				comm[0] = '\0';
			fclose(fp);
		}
		if (!strncmp(comm, CHILD_COMM, strlen(CHILD_COMM)))
			break;
		usleep(5000);
	}
	return pid;
}

static void reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* a kernel text symbol of kallsyms (no alias at its address) and an address inside it */
static int kernel_symbol(const char *kallsyms, char *name, size_t size, u64 *addr)
{
	char line[512], prev_name[256] = "", cur[256];
	unsigned long long a, prev = 0, text = 0;
	bool prev_alone = false;
	char type;
	FILE *fp = fopen(kallsyms, "r");

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, cur) != 3 || strchr(line, '['))
			continue;
		if (!strcmp(cur, "_text"))
			text = a;
		/* prev is usable when nothing else starts at its address and it ends after +1 */
		if (text && prev > text && prev_alone && a > prev + 1) {
			snprintf(name, size, "%s", prev_name);
			*addr = prev + 1;
			fclose(fp);
			return 0;
		}
		prev_alone = a != prev && (type == 'T' || type == 't');
		prev = a;
		snprintf(prev_name, sizeof(prev_name), "%s", cur);
	}
	fclose(fp);
	return -ENOENT;
}

/* ---- a recording made of synthesized records ---------------------------------------------- */

struct side_rec {
	struct perf_writer	*w;
	struct build_id_list	*bids;
	struct perf_event_attr	attr;
	struct perf_err		err;
	u32			nr_records;
	u64			buf[1024];
};

static int side__emit(void *ctx, const struct perf_event_header *ev)
{
	struct side_rec *r = ctx;
	int ret = build_id_list__add_event(r->bids, ev, &r->err);

	if (!ret)
		ret = perf_writer__write(r->w, ev, &r->err);
	r->nr_records++;
	return ret;
}

/* cpu-clock with IP|TID|TIME|PERIOD (and RAW for a tracepoint), sample_id_all, as perf -e */
static void side__attr(struct perf_event_attr *attr, u32 type, u64 config, u64 extra)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = type;
	attr->config = config;
	attr->size = sizeof(*attr);
	attr->sample_period = type == PERF_TYPE_TRACEPOINT ? 1 : 4000;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_PERIOD | extra;
	attr->flags = PERF_ATTR_FLAG(DISABLED) | PERF_ATTR_FLAG(INHERIT) | PERF_ATTR_FLAG(MMAP) |
		      PERF_ATTR_FLAG(COMM) | PERF_ATTR_FLAG(SAMPLE_ID_ALL) |
		      PERF_ATTR_FLAG(MMAP2) | PERF_ATTR_FLAG(COMM_EXEC) |
		      (type == PERF_TYPE_TRACEPOINT ? 0 : PERF_ATTR_FLAG(FREQ));
}

static int side__open(struct side_rec *r, const char *path, const char *name)
{
	static const char *const argv[] = { "record", "-g", "--", "test" };
	const struct record_features_opts fo = {
		.version = "7.2.0", .argc = 4, .argv = argv,
	};

	r->w = perf_writer__new(path, NULL, &r->err);
	r->bids = build_id_list__new(NULL);
	if (!r->w || !r->bids)
		return -ENOMEM;
	if (perf_writer__add_attr(r->w, &r->attr, NULL, 0, name, &r->err) < 0 ||
	    record_features__fill(r->w, &fo, &r->err))
		return -EINVAL;
	return 0;
}

static int side__sample(struct side_rec *r, const struct perf_sample *s)
{
	int n = perf_sample__synthesize(&r->attr, s, false, r->buf, sizeof(r->buf), &r->err);

	if (n < 0)
		return n;
	return perf_writer__write(r->w, (struct perf_event_header *)r->buf, &r->err);
}

/* the build ids, then the header; the list stays for the caller */
static int side__finish(struct side_rec *r, u64 first, u64 last)
{
	if (build_id_list__add_kernel(r->bids, &r->err) ||
	    build_id_list__write(r->bids, r->w, &r->err) ||
	    perf_writer__set_sample_time(r->w, first, last, &r->err))
		return -EINVAL;
	return perf_writer__finish(r->w, &r->err);
}

static void side__exit(struct side_rec *r)
{
	perf_writer__delete(r->w);
	build_id_list__delete(r->bids);
}

struct side_file {
	char	path[4200], kallsyms[4200];
	char	ksym[256];
	pid_t	child;
	u32	nr_synth;
};

/*
 * tmpdir/NAME.data: kernel map, modules, the child's COMM and MMAP2s (with build ids), a user
 * sample at record_side__spin+4 and a kernel sample in f->ksym, both of the child.
 */
static int side_file__make(const struct test_env *env, struct side_file *f, const char *name,
			   struct side_rec *r)
{
	struct record_synth s = {
		.attr = &r->attr, .emit = side__emit, .ctx = r, .build_ids = true,
	};
	struct perf_sample smp = { .period = 1 };
	u64 kaddr = 0;
	char *ks;
	size_t len;
	int ret;

	snprintf(f->path, sizeof(f->path), "%s/%s.data", env->tmpdir, name);
	snprintf(f->kallsyms, sizeof(f->kallsyms), "%s/kallsyms", env->tmpdir);
	if (sysfile__read("/proc/kallsyms", &ks, &len))
		return test__skip(env, "cannot read /proc/kallsyms");
	ret = test_write_file(f->kallsyms, ks, len);
	free(ks);
	if (ret || kernel_symbol(f->kallsyms, f->ksym, sizeof(f->ksym), &kaddr))
		return test__skip(env, "no kernel addresses in /proc/kallsyms (kptr_restrict)");
	side__attr(&r->attr, PERF_TYPE_SOFTWARE, SW_CPU_CLOCK, 0);
	f->child = spawn_child();
	if (f->child < 0 || side__open(r, f->path, "cpu-clock"))
		return TEST_FAIL;
	if (record_synth__kernel(&s, &r->err) || record_synth__modules(&s, &r->err) ||
	    record_synth__process(&s, f->child, &r->err))
		return TEST_FAIL;
	f->nr_synth = r->nr_records;
	smp.pid = smp.tid = (u32)f->child;
	smp.time = 1000;
	smp.ip = (u64)(unsigned long)record_side__spin + 4;
	smp.misc = PERF_RECORD_MISC_USER;
	if (side__sample(r, &smp))
		return TEST_FAIL;
	smp.time = 2000;
	smp.ip = kaddr;
	smp.misc = PERF_RECORD_MISC_KERNEL;
	if (side__sample(r, &smp) || side__finish(r, 1000, 2000))
		return TEST_FAIL;
	return TEST_OK;
}

/* runs argv with stdout to tmpdir/OUT.out and stderr to tmpdir/OUT.err; the status */
static int run_to(const struct test_env *env, const char *out, const char *const argv[],
		  char **stdout_text, char **stderr_text)
{
	char o[4200], e[4200];
	size_t len;
	int st;

	snprintf(o, sizeof(o), "%s/%s.out", env->tmpdir, out);
	snprintf(e, sizeof(e), "%s/%s.err", env->tmpdir, out);
	st = test_run_argv(argv, o, e);
	if (stdout_text && test_read_file(o, stdout_text, &len))
		*stdout_text = NULL;
	if (stderr_text && test_read_file(e, stderr_text, &len))
		*stderr_text = NULL;
	return st;
}

DEFINE_SUITE(record_synth_resolve)
{
	struct side_rec r = { 0 };
	struct side_file f;
	char *out = NULL, *err = NULL, want[512];
	struct timespec t0, t1;
	int ret;

	ret = side_file__make(env, &f, "synth", &r);
	reap(f.child);
	TEST_ASSERT(env, ret != TEST_FAIL, "making the recording: %s", r.err.msg);
	if (ret == TEST_SKIP)
		goto out;
	/* the kernel map, the child's comm, its executable mappings with build ids */
	TEST_ASSERT(env, f.nr_synth >= 4, "only %u records synthesized", f.nr_synth);
	{
		const char *argv[] = { env->perf, "script", "-i", f.path, "--kallsyms", f.kallsyms,
				       "-F", "comm,tid,ip,sym", NULL };

		ret = run_to(env, "script", argv, &out, &err);
		TEST_ASSERT(env, !ret && out && err && !*err, "perf script: status %d, stderr '%s'",
			    ret, err ? err : "");
	}
	snprintf(want, sizeof(want), " %d ", f.child);
	TEST_ASSERT(env, strstr(out, CHILD_COMM) && strstr(out, want), "no %s %s in\n%s", CHILD_COMM,
		    want, out);
	TEST_ASSERT(env, strstr(out, " record_side__spin\n"), "user ip not resolved:\n%s", out);
	snprintf(want, sizeof(want), " %s\n", f.ksym);
	TEST_ASSERT(env, strstr(out, want), "kernel ip not resolved to%s:\n%s", want, out);
	free(out);
	free(err);
	out = err = NULL;
	{
		const char *argv[] = { env->perf, "report", "--stdio", "-i", f.path, "--kallsyms",
				       f.kallsyms, NULL };

		ret = run_to(env, "report", argv, &out, &err);
		TEST_ASSERT(env, !ret && out && strstr(out, "[.] record_side__spin") &&
			    strstr(out, f.ksym), "perf report: status %d:\n%s%s", ret,
			    out ? out : "", err ? err : "");
	}
	free(out);
	free(err);
	out = err = NULL;

	/* the whole machine, as -a: every process but those that end meanwhile */
	{
		struct side_rec a = { 0 };
		struct record_synth s = { .attr = &a.attr, .emit = side__emit, .ctx = &a,
					  .build_ids = true };
		struct record_synth_stats st;
		char path[4200];
		struct build_id_cache_opts co = { .dir = path, .kallsyms = f.kallsyms };
		struct build_id_cache_stats cs = { 0 };
		struct timespec t2, t3;
		const char *argv[] = { env->perf, "script", "-i", path, "--show-task-events",
				       "--show-mmap-events", NULL };

		snprintf(path, sizeof(path), "%s/all.data", env->tmpdir);
		side__attr(&a.attr, PERF_TYPE_SOFTWARE, SW_CPU_CLOCK, 0);
		TEST_ASSERT(env, !side__open(&a, path, NULL), "open %s: %s", path, a.err.msg);

		clock_gettime(CLOCK_MONOTONIC, &t0);
		ret = record_synth__all(&s, &st, &a.err);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* the end of a recording: the build ids into the header and the cache */
		if (!ret)
			ret = side__finish(&a, 0, 0);
		clock_gettime(CLOCK_MONOTONIC, &t2);
		snprintf(path, sizeof(path), "%s/all-cache", env->tmpdir);
		if (!ret)
			ret = build_id_list__fill_cache(a.bids, &co, &cs, &a.err);
		clock_gettime(CLOCK_MONOTONIC, &t3);
		if (env->verbose)
			fprintf(stderr, "-a end: %zu build ids written in %.2f ms, cache filled in %.2f ms (%u added, %u missing)\n",
				build_id_list__nr(a.bids),
				(t2.tv_sec - t1.tv_sec) * 1e3 + (t2.tv_nsec - t1.tv_nsec) / 1e6,
				(t3.tv_sec - t2.tv_sec) * 1e3 + (t3.tv_nsec - t2.tv_nsec) / 1e6,
				cs.added, cs.missing);
		snprintf(path, sizeof(path), "%s/all.data", env->tmpdir);
		side__exit(&a);
		TEST_ASSERT(env, !ret, "synthesizing -a: %s", a.err.msg);
		/* at least this test and its parent */
		TEST_ASSERT(env, st.processes >= 2 && st.threads >= st.processes && st.mmaps,
			    "-a: %u processes, %u threads, %u mmaps", st.processes, st.threads, st.mmaps);
		if (env->verbose)
			fprintf(stderr, "-a synthesis: %u processes, %u threads, %u mmaps, %u vanished, %u unreadable in %.1f ms\n",
				st.processes, st.threads, st.mmaps, st.vanished, st.unreadable,
				(t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
		ret = run_to(env, "all", argv, &out, &err);
		TEST_ASSERT(env, !ret && err && !*err && out && strstr(out, "PERF_RECORD_MMAP2"),
			    "perf script of the -a side-band: status %d, stderr '%s'", ret,
			    err ? err : "");
	}
	ret = TEST_OK;
out:
	free(out);
	free(err);
	side__exit(&r);
	return ret;
}

/* lines of text without those starting with any of skip; a malloc'd copy */
static char *lines_without(const char *text, const char *const *skip, size_t nr_skip)
{
	size_t len = strlen(text);
	char *o = malloc(len + 1), *p = o;

	if (!o)
		return NULL;
	while (*text) {
		const char *nl = strchrnul(text, '\n');
		bool drop = false;

		for (size_t i = 0; i < nr_skip && !drop; i++)
			drop = !strncmp(text, skip[i], strlen(skip[i]));
		if (!drop) {
			memcpy(p, text, (size_t)(nl - text));
			p += nl - text;
			*p++ = '\n';
		}
		text = *nl ? nl + 1 : nl;
	}
	*p = '\0';
	return o;
}

DEFINE_SUITE(record_features_header)
{
	/* what differs between two recordings of one machine: the run, not the machine */
	static const char *const per_run[] = {
		"# captured on", "# header version", "# data offset", "# data size",
		"# feat offset", "# perf version", "# cmdline", "# event", "# time of",
		"# sample duration", "# missing features", "# node0 meminfo", "# node1 meminfo",
		"# build id",
	};
	/* perf 6.1's -a adds features we do not write (bpf, pmu caps): "missing" differs */
	static const char *const skip_missing[] = { "# captured on" };
	struct side_rec r = { 0 };
	struct side_file f;
	char *ours = NULL, *up = NULL, *err = NULL, *a = NULL, *b = NULL, upstream[4200];
	char p61[4200], clock_path[4200], sysperf[4200];
	const char *no_upstream = NULL, *no_p61 = NULL;
	int ret, p61_not_run = 0;

	ret = side_file__make(env, &f, "features", &r);
	reap(f.child);
	TEST_ASSERT(env, ret != TEST_FAIL, "making the recording: %s", r.err.msg);
	if (ret == TEST_SKIP)
		goto out;

	/* -k: the clock's resolution and a reference time */
	snprintf(clock_path, sizeof(clock_path), "%s/clock.data", env->tmpdir);
	{
		const struct record_features_opts fo = { .version = "7.2.0", .use_clockid = true,
							 .clockid = CLOCK_MONOTONIC };
		struct perf_sample id = { .pid = 1, .tid = 1 };
		struct side_rec c = { 0 };
		int n;

		side__attr(&c.attr, PERF_TYPE_SOFTWARE, SW_CPU_CLOCK, 0);
		c.attr.flags |= PERF_ATTR_FLAG(USE_CLOCKID);
		c.attr.clockid = CLOCK_MONOTONIC;
		c.w = perf_writer__new(clock_path, NULL, &c.err);
		ret = !c.w || perf_writer__add_attr(c.w, &c.attr, NULL, 0, NULL, &c.err) < 0 ||
		      record_features__fill(c.w, &fo, &c.err);
		n = ret ? -1 : perf_record_comm__synthesize(c.buf, sizeof(c.buf), &c.attr, &id, "x", false);
		ret = ret || n < 0 || perf_writer__write(c.w, (void *)c.buf, &c.err) ||
		      perf_writer__finish(c.w, &c.err);
		side__exit(&c);
		TEST_ASSERT(env, !ret, "clock.data: %s", c.err.msg);
	}

	/* upstream 7.2 reads every feature as we do */
	for (int k = 0; k < 4 && test_upstream_perf(env, upstream, sizeof(upstream)); k++) {
		const char *file = k < 2 ? f.path : clock_path;
		int info = k & 1;
		{
			const char *o[] = { env->perf, "script", "--header-only", "-i", file,
					    info ? "-I" : NULL, NULL };
			const char *u[] = { upstream, "script", "--header-only", "-i", file,
					    info ? "-I" : NULL, NULL };

			ret = run_to(env, "ours", o, &ours, NULL);
			TEST_ASSERT(env, !ret && ours, "our header-only: status %d", ret);
			ret = run_to(env, "upstream", u, &up, &err);
			if (ret == 2) {
				no_upstream = "upstream perf did not run";
				free(ours);
				free(up);
				free(err);
				ours = up = err = NULL;
				break;
			}
			a = lines_without(ours, skip_missing, 1);
			b = lines_without(up, skip_missing, 1);
			TEST_ASSERT(env, !ret && a && b && !strcmp(a, b),
				    "header-only%s: ours\n%s\nupstream (status %d)\n%s%s",
				    info ? " -I" : "", a, ret, b, err ? err : "");
			TEST_ASSERT(env, strstr(a, "# total memory : ") && strstr(a, "# cpuid : ") &&
				    strstr(a, "# pmu mappings: "), "features missing:\n%s", a);
			TEST_ASSERT(env, k < 2 || (strstr(a, "# clockid frequency: ") &&
						   strstr(a, "# clockid: monotonic (1)")),
				    "no clock features:\n%s", a);
			if (env->verbose && info)
				fprintf(stderr, "header-only -I of %s, ours == upstream's:\n%s", file, a);
			free(ours);
			free(up);
			free(err);
			free(a);
			free(b);
			ours = up = err = a = b = NULL;
		}
	}
	if (!test_upstream_perf(env, upstream, sizeof(upstream)))
		no_upstream = "no upstream perf 7.2 (make test-deps as root)";

	/* the system perf 6.1: reads it without a word, and describes this machine as we do */
	if (!test_system_perf(env, sysperf, sizeof(sysperf))) {
		no_p61 = "no system perf";
		p61_not_run = 2;
		goto done;
	}
	{
		const char *rep[] = { sysperf, "report", "--header-only", "-I", "-i", f.path, NULL };
		const char *scr[] = { sysperf, "script", "-i", f.path, NULL };

		ret = run_to(env, "p61-header", rep, &ours, &err);
		TEST_ASSERT(env, !ret && err && !*err, "perf 6.1 report --header-only: status %d, '%s'",
			    ret, err ? err : "");
		free(err);
		err = NULL;
		ret = run_to(env, "p61-script", scr, NULL, &err);
		TEST_ASSERT(env, !ret && err && !*err, "perf 6.1 script: status %d, '%s'", ret,
			    err ? err : "");
		free(err);
		err = NULL;
	}
	snprintf(p61, sizeof(p61), "%s/p61.data", env->tmpdir);
	{
		const char *rec[] = { sysperf, "record", "-q", "-e", "cpu-clock", "-o", p61, "--",
				      "true", NULL };
		const char *rep[] = { sysperf, "report", "--header-only", "-I", "-i", p61, NULL };

		if (run_to(env, "p61-record", rec, NULL, NULL)) {
			no_p61 = "the system perf cannot record here";
			p61_not_run = 1;
			goto done;
		}
		ret = run_to(env, "p61-own", rep, &up, NULL);
		TEST_ASSERT(env, !ret && up, "perf 6.1 report --header-only of its own file: %d", ret);
	}
	a = lines_without(ours, per_run, ARRAY_SIZE(per_run));
	b = lines_without(up, per_run, ARRAY_SIZE(per_run));
	TEST_ASSERT(env, a && b && !strcmp(a, b), "perf 6.1's header of our file\n%s\nof its own\n%s",
		    a, b);
	if (env->verbose)
		fprintf(stderr, "perf 6.1's header of our file, per-run lines left out:\n%s", a);
done:
	/* 4 cases: our header, upstream's reading, perf 6.1's reading, perf 6.1's own header */
	ret = TEST_OK;
	if (no_upstream || no_p61)
		ret = test__partial(env, "%d of 4 cases: %s%s%s", 4 - !!no_upstream - p61_not_run,
				    no_upstream ? no_upstream : "", no_upstream && no_p61 ? "; " : "",
				    no_p61 ? no_p61 : "");
out:
	free(ours);
	free(up);
	free(err);
	free(a);
	free(b);
	side__exit(&r);
	return ret;
}

/* a fake kernel build id: no running kernel has it */
static const u8 fake_kernel_id[20] = { 0xee, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				       0xee, 0x09 };
#define FAKE_KERNEL_HEX "ee0000000000000000000000000000000000ee09"

DEFINE_SUITE(record_build_id_cache)
{
	struct side_rec r = { 0 };
	struct side_file f;
	char cache[4200], path[8600], hex[41], *out = NULL, *err = NULL, want[512];
	u8 id[20];
	size_t size;
	struct build_id_cache_stats st;
	struct build_id_cache_opts o = { .dir = cache };
	struct timespec t0, t1, t2;
	struct stat sb;
	bool have_p61;
	int ret;

	/* the kernel under a build id that is not the running kernel's: only the cache has it */
	snprintf(cache, sizeof(cache), "%s/cache", env->tmpdir);
	ret = side_file__make(env, &f, "bid", &r);
	reap(f.child);
	TEST_ASSERT(env, ret != TEST_FAIL, "making the recording: %s", r.err.msg);
	if (ret == TEST_SKIP)
		goto out;
	side__exit(&r);
	memset(&r, 0, sizeof(r));
	/* the same recording, its kernel renamed */
	{
		struct record_synth s = { .attr = &r.attr, .emit = side__emit, .ctx = &r,
					  .build_ids = true };
		struct perf_sample smp = { .period = 1, .pid = (u32)getpid(), .tid = (u32)getpid(),
					   .time = 1000, .misc = PERF_RECORD_MISC_KERNEL };
		u64 kaddr;

		TEST_ASSERT(env, !kernel_symbol(f.kallsyms, f.ksym, sizeof(f.ksym), &kaddr), "kallsyms");
		side__attr(&r.attr, PERF_TYPE_SOFTWARE, SW_CPU_CLOCK, 0);
		TEST_ASSERT(env, !side__open(&r, f.path, "cpu-clock"), "open: %s", r.err.msg);
		TEST_ASSERT(env, !record_synth__kernel(&s, &r.err) &&
			    !record_synth__process(&s, getpid(), &r.err), "synthesis: %s", r.err.msg);
		smp.ip = kaddr;
		TEST_ASSERT(env, !side__sample(&r, &smp), "kernel sample: %s", r.err.msg);
		smp.ip = (u64)(unsigned long)record_side__spin + 4;
		smp.misc = PERF_RECORD_MISC_USER;
		smp.time = 2000;
		TEST_ASSERT(env, !side__sample(&r, &smp), "user sample: %s", r.err.msg);
		TEST_ASSERT(env, !build_id_list__add(r.bids, -1, PERF_RECORD_MISC_KERNEL,
						     fake_kernel_id, 20, "[kernel.kallsyms]", &r.err) &&
			    !build_id_list__write(r.bids, r.w, &r.err) &&
			    !perf_writer__finish(r.w, &r.err), "finish: %s", r.err.msg);
	}
	/* our own binary came with its build id from the MMAP2 record, no second pass */
	TEST_ASSERT(env, !filename__read_build_id("/proc/self/exe", id, &size), "our build id");
	for (size_t i = 0; i < size; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	TEST_ASSERT(env, build_id_list__nr(r.bids) >= 3, "%zu build ids", build_id_list__nr(r.bids));

	clock_gettime(CLOCK_MONOTONIC, &t0);
	o.kallsyms = f.kallsyms;
	ret = build_id_list__fill_cache(r.bids, &o, &st, &r.err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	TEST_ASSERT(env, !ret && st.added >= 2, "fill: %d %s (added %u)", ret, r.err.msg, st.added);
	ret = build_id_list__fill_cache(r.bids, &o, &st, &r.err);
	clock_gettime(CLOCK_MONOTONIC, &t2);
	TEST_ASSERT(env, !ret && !st.added && st.present >= 2, "refill: added %u present %u",
		    st.added, st.present);
	if (env->verbose)
		fprintf(stderr, "cache of %zu build ids: %.2f ms filled, %.2f ms when present\n",
			build_id_list__nr(r.bids),
			(t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6,
			(t2.tv_sec - t1.tv_sec) * 1e3 + (t2.tv_nsec - t1.tv_nsec) / 1e6);
	/* perf's layout: the kallsyms, our binary as elf, and the .build-id links to them */
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/" FAKE_KERNEL_HEX "/kallsyms", cache);
	TEST_ASSERT(env, !stat(path, &sb) && S_ISREG(sb.st_mode), "no %s", path);
	snprintf(path, sizeof(path), "%s/.build-id/ee/%s/kallsyms", cache, FAKE_KERNEL_HEX + 2);
	TEST_ASSERT(env, !stat(path, &sb), "no link %s", path);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/elf", cache, hex, hex + 2);
	TEST_ASSERT(env, !stat(path, &sb) && S_ISREG(sb.st_mode), "no link to our elf: %s", path);

	/* our reader: the kernel is foreign, /proc/kallsyms does not serve, the cache does */
	setenv("PERF_BUILDID_DIR", cache, 1);
	{
		const char *argv[] = { env->perf, "script", "-i", f.path, "-F", "ip,sym", NULL };

		ret = run_to(env, "cached", argv, &out, &err);
		TEST_ASSERT(env, !ret && out && err && !*err, "perf script: status %d, '%s'", ret,
			    err ? err : "");
	}
	snprintf(want, sizeof(want), " %s\n", f.ksym);
	TEST_ASSERT(env, strstr(out, want) && strstr(out, " record_side__spin\n"),
		    "not resolved from the cache:\n%s", out);
	free(out);
	free(err);
	out = err = NULL;
	/* perf 6.1 finds them there too: the cache is laid out as its own (it takes $HOME/.debug) */
	snprintf(path, sizeof(path), "%s/home61", env->tmpdir);
	have_p61 = !access(TEST_SYSTEM_PERF, X_OK);
	if (have_p61) {
		const char *argv[] = { TEST_SYSTEM_PERF, "script", "-i", f.path, "-F", "ip,sym", NULL };
		char *home;

		TEST_ASSERT(env, !test_run_shell(env, "mkdir '%s' && ln -s ../cache '%s/.debug'",
						 path, path), "cannot make %s", path);
		home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
		setenv("HOME", path, 1);
		ret = run_to(env, "cached61", argv, &out, &err);
		if (home)
			setenv("HOME", home, 1);
		free(home);
		TEST_ASSERT(env, !ret && out && strstr(out, want) && strstr(out, " record_side__spin\n"),
			    "perf 6.1 did not resolve from the cache (status %d):\n%s%s", ret,
			    out ? out : "", err ? err : "");
		free(out);
		free(err);
		out = err = NULL;
	}
	/* without it: perf's warning, so the resolution above came from the cache */
	snprintf(path, sizeof(path), "%s/empty", env->tmpdir);
	setenv("PERF_BUILDID_DIR", path, 1);
	{
		const char *argv[] = { env->perf, "script", "-i", f.path, "-F", "ip,sym", NULL };

		run_to(env, "uncached", argv, &out, &err);
		TEST_ASSERT(env, err && strstr(err, "No kallsyms or vmlinux with build-id " FAKE_KERNEL_HEX),
			    "no warning without the cache: '%s'", err ? err : "");
	}
	unsetenv("PERF_BUILDID_DIR");
	/* 3 cases: ours from the cache, perf 6.1 from the cache, ours without it */
	ret = have_p61 ? TEST_OK : test__partial(env, "2 of 3 cases: " TEST_NO_SYSTEM_PERF);
out:
	free(out);
	free(err);
	side__exit(&r);
	return ret;
}

/* offset and size of field NAME in a tracepoint format text; false when it has none */
static bool format_field(const char *fmt, const char *name, u32 *off, u32 *size)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), " %s;", name);
	p = strstr(fmt, pat);
	if (!p)
		snprintf(pat, sizeof(pat), " %s[", name), p = strstr(fmt, pat);
	return p && (p = strstr(p, "offset:")) && sscanf(p, "offset:%u;\tsize:%u;", off, size) == 2;
}

DEFINE_SUITE(record_tracing_data)
{
	static const char *const tps[] = { "sched:sched_switch", "sched:sched_process_exec" };
	char tracefs[4096], upstream[4200], path[4200], fmt_path[4200];
	struct perf_err perr;
	struct trace_event *te;
	struct side_rec r = { 0 };
	char *fmt = NULL, *out = NULL, *up = NULL, *err = NULL, name[128];
	void *blob = NULL;
	size_t size, flen;
	u64 id;
	u32 off, fsize, end = 0;
	u8 raw[256] = { 0 };
	int ret;

	if (tracefs__find(NULL, tracefs, sizeof(tracefs), &perr) ||
	    tracepoint__id(tracefs, tps[0], &id, &perr))
		return test__skip(env, "%s", perr.msg);
	ret = tracing_data__build(tracefs, tps, 2, &blob, &size, &perr);
	TEST_ASSERT(env, !ret, "tracing data: %s", perr.msg);
	te = trace_event__new(blob, size, &perr);
	TEST_ASSERT(env, te, "our reader refuses the tracing data: %s", perr.msg);
	TEST_ASSERT(env, trace_event__name(te, id, name, sizeof(name)) &&
		    !strcmp(name, tps[0]), "id %llu is '%s'", (unsigned long long)id, name);
	trace_event__delete(te);

	/* a sched_switch sample laid out by its format: prev pid 4242 -> next pid 4343 */
	snprintf(fmt_path, sizeof(fmt_path), "%s/events/sched/sched_switch/format", tracefs);
	TEST_ASSERT(env, !sysfile__read(fmt_path, &fmt, &flen), "read %s", fmt_path);
	{
		static const struct { const char *name; u64 v; const char *s; } fields[] = {
			{ "common_type", 0, NULL }, { "common_pid", 4242, NULL },
			{ "prev_comm", 0, "rside-prev" }, { "prev_pid", 4242, NULL },
			{ "prev_prio", 120, NULL }, { "prev_state", 1, NULL },
			{ "next_comm", 0, "rside-next" }, { "next_pid", 4343, NULL },
			{ "next_prio", 120, NULL },
		};

		for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
			u64 v = i ? fields[i].v : id;

			TEST_ASSERT(env, format_field(fmt, fields[i].name, &off, &fsize) &&
				    off + fsize <= sizeof(raw), "field %s in\n%s", fields[i].name, fmt);
			if (fields[i].s)
				snprintf((char *)raw + off, fsize, "%s", fields[i].s);
			else
				memcpy(raw + off, &v, fsize < 8 ? fsize : 8);
			if (off + fsize > end)
				end = off + fsize;
		}
	}
	snprintf(path, sizeof(path), "%s/tp.data", env->tmpdir);
	side__attr(&r.attr, PERF_TYPE_TRACEPOINT, id, PERF_SAMPLE_RAW | PERF_SAMPLE_CPU);
	r.w = perf_writer__new(path, NULL, &r.err);
	r.bids = build_id_list__new(NULL);
	TEST_ASSERT(env, r.w && r.bids, "writer: %s", r.err.msg);
	TEST_ASSERT(env, perf_writer__add_attr(r.w, &r.attr, NULL, 0, tps[0], &r.err) >= 0 &&
		    !perf_writer__set_tracing_data(r.w, blob, size, &r.err), "setup: %s", r.err.msg);
	{
		/* the kernel pads RAW so that size + data ends on 8 bytes */
		struct perf_sample s = { .pid = 4242, .tid = 4242, .time = 5000000, .period = 1,
					 .ip = 0, .cpu = 1, .misc = PERF_RECORD_MISC_KERNEL,
					 .raw_data = raw, .raw_size = (end + 4 + 7) / 8 * 8 - 4 };

		TEST_ASSERT(env, !side__sample(&r, &s) && !perf_writer__finish(r.w, &r.err),
			    "sample: %s", r.err.msg);
	}
	{
		const char *o[] = { env->perf, "script", "-i", path, "-F", "comm,tid,event,trace", NULL };

		ret = run_to(env, "tp-ours", o, &out, &err);
		TEST_ASSERT(env, !ret && out && strstr(out, "prev_comm=rside-prev prev_pid=4242") &&
			    strstr(out, "next_comm=rside-next next_pid=4343"),
			    "our script: status %d\n%s%s", ret, out ? out : "", err ? err : "");
	}
	if (env->verbose)
		fprintf(stderr, "our script of the tracepoint sample:\n%s", out);
	if (test_upstream_perf(env, upstream, sizeof(upstream))) {
		const char *u[] = { upstream, "script", "-i", path, "-F", "comm,tid,event,trace", NULL };

		ret = run_to(env, "tp-up", u, &up, NULL);
		TEST_ASSERT(env, ret == 2 || (!ret && up && !strcmp(up, out)),
			    "upstream's script (status %d)\n%s\nours\n%s", ret, up ? up : "", out);
		if (env->verbose)
			fprintf(stderr, "%s\n", ret == 2 ? "upstream perf did not run: not compared" :
				"upstream's script is the same");
		ret = ret == 2 ? test__partial(env, "1 of 2 cases: upstream perf did not run") : TEST_OK;
	} else {
		ret = test__partial(env, "1 of 2 cases: no upstream perf (as root)");
	}
	free(fmt);
	free(out);
	free(up);
	free(err);
	free(blob);
	side__exit(&r);
	return ret;
}

static int noop_emit(void *ctx, const struct perf_event_header *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

DEFINE_SUITE(record_side_errors)
{
	struct perf_event_attr attr;
	struct record_synth s = { .attr = &attr, .emit = noop_emit };
	struct build_id_list *l;
	struct build_id_cache_opts o;
	char want[8600], tracefs[4096], path[4200];
	struct perf_err err;
	pid_t gone;
	u64 id;
	int ret;

	/* pid_max: the first pid no process or thread can have, so none is there */
	TEST_ASSERT(env, !sysfile__read_u64("/proc/sys/kernel/pid_max", &id), "pid_max");
	gone = (pid_t)id;
	side__attr(&attr, PERF_TYPE_SOFTWARE, SW_CPU_CLOCK, 0);
	ret = record_synth__process(&s, gone, &err);
	snprintf(want, sizeof(want), "cannot synthesize process %d: cannot read /proc/%d/status: No such file or directory (it does not exist or has exited)",
		 gone, gone);
	TEST_ASSERT(env, ret == -ENOENT && !strcmp(err.msg, want), "%d '%s'", ret, err.msg);
	ret = record_synth__thread(&s, gone, &err);
	TEST_ASSERT(env, ret == -ENOENT && strstr(err.msg, "cannot synthesize thread"), "%d '%s'",
		    ret, err.msg);

	/* tracepoints: a tracefs tree of the test's, so it does not need the kernel's */
	snprintf(tracefs, sizeof(tracefs), "%s/tracefs", env->tmpdir);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", tracefs);
	TEST_ASSERT(env, !test_run_shell(env, "mkdir -p '%s'", path), "tracefs tree");
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/id");
	TEST_ASSERT(env, !test_write_file(path, "316\n", 4), "write %s", path);
	ret = tracepoint__id(tracefs, "sched:sched_switch", &id, &err);
	TEST_ASSERT(env, !ret && id == 316, "id %llu: %s", (unsigned long long)id, err.msg);
	ret = tracepoint__id(tracefs, "sched:no_such_event", &id, &err);
	snprintf(want, sizeof(want), "unknown tracepoint 'sched:no_such_event' (no %s/events/sched/no_such_event)",
		 tracefs);
	TEST_ASSERT(env, ret == -ENOENT && !strcmp(err.msg, want), "%d '%s'", ret, err.msg);
	ret = tracepoint__id(tracefs, "../../etc:passwd", &id, &err);
	TEST_ASSERT(env, ret == -EINVAL &&
		    !strcmp(err.msg, "bad tracepoint name '../../etc:passwd': expected subsystem:event"),
		    "%d '%s'", ret, err.msg);
	ret = tracepoint__id(tracefs, "sched_switch", &id, &err);
	TEST_ASSERT(env, ret == -EINVAL, "no subsystem: %d '%s'", ret, err.msg);
	{
		const char *names[] = { "sched:sched_switch", "sched:nope" };
		void *blob = NULL;
		size_t size;

		ret = tracing_data__build(tracefs, names, 2, &blob, &size, &err);
		TEST_ASSERT(env, ret == -ENOENT && strstr(err.msg, "unknown tracepoint 'sched:nope'"),
			    "%d '%s'", ret, err.msg);
	}

	/* a cache directory under a regular file */
	snprintf(path, sizeof(path), "%s/file", env->tmpdir);
	TEST_ASSERT(env, !test_write_file(path, "x", 1), "write %s", path);
	snprintf(path, sizeof(path), "%s/file/cache", env->tmpdir);
	o = (struct build_id_cache_opts){ .dir = path };
	l = build_id_list__new(NULL);
	TEST_ASSERT(env, l, "list");
	ret = build_id_list__fill_cache(l, &o, NULL, &err);
	build_id_list__delete(l);
	snprintf(want, sizeof(want), "cannot create build-id cache directory %s: Not a directory", path);
	TEST_ASSERT(env, ret == -ENOTDIR && !strcmp(err.msg, want), "%d '%s'", ret, err.msg);
	return TEST_OK;
}

/* ---- a /proc and /sys of the test's own ---------------------------------------------------- */

struct collect {
	struct build_id_list	*bids;
	char			text[8192];	/* one line per record */
	size_t			len;
};

static int collect__emit(void *ctx, const struct perf_event_header *ev)
{
	struct collect *c = ctx;
	char *o = c->text + c->len;
	size_t room = sizeof(c->text) - c->len;
	int n = 0;

	if (ev->type == PERF_RECORD_COMM) {
		const struct perf_record_comm *r = (const void *)ev;

		n = snprintf(o, room, "COMM %u/%u %s\n", r->pid, r->tid, r->comm);
	} else if (ev->type == PERF_RECORD_MMAP) {
		const struct perf_record_mmap *r = (const void *)ev;

		n = snprintf(o, room, "MMAP %d %#llx+%#llx @%#llx %s misc %#x\n", (int)r->pid,
			     (unsigned long long)r->start, (unsigned long long)r->len,
			     (unsigned long long)r->pgoff, r->filename, ev->misc);
	} else if (ev->type == PERF_RECORD_MMAP2) {
		const struct perf_record_mmap2 *r = (const void *)ev;

		n = snprintf(o, room, "MMAP2 %u/%u %#llx+%#llx @%#llx prot %u flags %u misc %#x %s %s\n",
			     r->pid, r->tid, (unsigned long long)r->start, (unsigned long long)r->len,
			     (unsigned long long)r->pgoff, r->prot, r->flags, ev->misc,
			     ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID ? "bid" : "ino", r->filename);
	}
	if (n > 0 && (size_t)n < room)
		c->len += (size_t)n;
	/* the trailer of a synthesized record is perf's: zeros (TID, TIME of this attr) */
	for (size_t i = ev->size - 16; i < ev->size; i++)
		if (((const u8 *)ev)[i])
			return -EPROTO;
	return build_id_list__add_event(c->bids, ev, NULL);
}

/* writes root/rel with text (its directories created) */
static int tree_file(const struct test_env *env, const char *root, const char *rel,
		     const char *text)
{
	char path[8400];

	if (test_run_shell(env, "mkdir -p \"$(dirname '%s/%s')\"", root, rel))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return test_write_file(path, text, strlen(text));
}

/* an ELF notes file with the GNU build id id */
static int tree_notes(const struct test_env *env, const char *root, const char *rel, const u8 *id)
{
	u8 buf[12 + 4 + 20];
	u32 gnu[3] = { 4, 20, 3 /* NT_GNU_BUILD_ID */ };
	char path[8400];

	memcpy(buf, gnu, 12);
	memcpy(buf + 12, "GNU", 4);
	memcpy(buf + 16, id, 20);
	if (tree_file(env, root, rel, ""))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return test_write_file(path, buf, sizeof(buf));
}

DEFINE_SUITE(record_synth_tree)
{
	static const u8 mod_id[20] = { 0x30, 0xd1 };
	struct perf_event_attr attr;
	struct collect c = { 0 };
	struct record_synth s = { .attr = &attr, .emit = collect__emit, .ctx = &c,
				  .build_ids = true };
	char proc[4200], sys[4200], exe[512], maps[4096], want[8400];
	struct perf_err err;
	struct stat st;
	ssize_t n;
	int ret;

	snprintf(proc, sizeof(proc), "%s/proc", env->tmpdir);
	snprintf(sys, sizeof(sys), "%s/sys", env->tmpdir);
	s.proc = proc;
	s.sys = sys;
	c.bids = build_id_list__new(sys);
	TEST_ASSERT(env, c.bids, "list");
	side__attr(&attr, PERF_TYPE_SOFTWARE, SW_CPU_CLOCK, 0);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	TEST_ASSERT(env, n > 0 && !stat(exe, &st), "our executable");
	exe[n] = '\0';
	/* our binary twice: as mapped (its dev/ino), and as a file replaced since (another ino) */
	snprintf(maps, sizeof(maps),
		 "00400000-00452000 r-xp 00001000 %02x:%02x %llu    %s\n"
		 "00600000-00601000 rw-p 00052000 %02x:%02x %llu    %s\n"
		 "00700000-00710000 r-xp 00000000 %02x:%02x %llu    %s\n"
		 "7f0000000000-7f0000001000 r-xs 00000000 00:00 0 \n"
		 "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                          [vdso]\n",
		 major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino, exe,
		 major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino, exe,
		 major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino + 1, exe);
	ret = tree_file(env, proc, "kallsyms",
			"ffffffff81000000 T _text\nffffffff81000100 T kfunc\nffffffff81e00000 T _etext\n") ||
	      tree_file(env, proc, "modules", "foo_bar 16384 0 - Live 0xffffffffc0000000\n") ||
	      tree_notes(env, sys, "module/foo_bar/notes/.note.gnu.build-id", mod_id) ||
	      tree_file(env, proc, "100/status", "Name:\tapp\nTgid:\t100\nPPid:\t1\n") ||
	      tree_file(env, proc, "101/status", "Name:\tworker\nTgid:\t100\nPPid:\t1\n") ||
	      tree_file(env, proc, "100/task/100/comm", "app\n") ||
	      tree_file(env, proc, "100/task/101/comm", "worker\n") ||
	      tree_file(env, proc, "100/maps", maps) || tree_file(env, proc, "101/maps", maps) ||
	      tree_file(env, proc, "2/status", "Name:\tkthreadd\nTgid:\t2\nPPid:\t0\n") ||
	      tree_file(env, proc, "2/task/2/comm", "kthreadd\n") ||
	      tree_file(env, proc, "2/maps", maps);
	TEST_ASSERT(env, !ret, "the tree");

	ret = record_synth__kernel(&s, &err) || record_synth__modules(&s, &err) ||
	      record_synth__process(&s, 100, &err) || record_synth__thread(&s, 101, &err) ||
	      record_synth__process(&s, 2, &err);
	TEST_ASSERT(env, !ret, "synthesis: %s", err.msg);
	snprintf(want, sizeof(want),
		 "MMAP -1 0xffffffff81000000+0xe00000 @0xffffffff81000000 [kernel.kallsyms]_text misc 0x1\n"
		 "MMAP -1 0xffffffffc0000000+0x4000 @0 [foo_bar] misc 0x1\n"
		 "COMM 100/100 app\n"
		 "MMAP2 100/100 0x400000+0x52000 @0x1000 prot 5 flags 2 misc 0x4002 bid %s\n"
		 "MMAP2 100/100 0x700000+0x10000 @0 prot 5 flags 2 misc 0x2 ino %s\n"
		 "MMAP2 100/100 0x7f0000000000+0x1000 @0 prot 5 flags 1 misc 0x2 ino //anon\n"
		 "MMAP2 100/100 0x7ffd00000000+0x2000 @0 prot 5 flags 2 misc 0x%x %s [vdso]\n"
		 "COMM 100/101 worker\n"
		 "COMM 100/101 worker\n"
		 "MMAP2 100/101 0x400000+0x52000 @0x1000 prot 5 flags 2 misc 0x4002 bid %s\n"
		 "MMAP2 100/101 0x700000+0x10000 @0 prot 5 flags 2 misc 0x2 ino %s\n"
		 "MMAP2 100/101 0x7f0000000000+0x1000 @0 prot 5 flags 1 misc 0x2 ino //anon\n"
		 "MMAP2 100/101 0x7ffd00000000+0x2000 @0 prot 5 flags 2 misc 0x%x %s [vdso]\n"
		 "COMM 2/2 kthreadd\n",
		 exe, exe, vdso__image(&(size_t){ 0 }) ? 0x4002 : 0x2,
		 vdso__image(&(size_t){ 0 }) ? "bid" : "ino", exe, exe,
		 vdso__image(&(size_t){ 0 }) ? 0x4002 : 0x2, vdso__image(&(size_t){ 0 }) ? "bid" : "ino");
	TEST_ASSERT(env, !strcmp(c.text, want), "records\n%s\nwant\n%s", c.text, want);
	/* the module's build id from its notes, our binary's from the file, once each */
	TEST_ASSERT(env, build_id_list__nr(c.bids) == 2 + (vdso__image(&(size_t){ 0 }) != NULL),
		    "%zu build ids", build_id_list__nr(c.bids));

	/* without build ids in the MMAP2s (the kernel's for the vDSO): the vDSO's is still ours */
	build_id_list__delete(c.bids);
	c.bids = build_id_list__new(sys);
	c.len = 0;
	s.build_ids = false;
	TEST_ASSERT(env, c.bids && !record_synth__process(&s, 100, &err), "synthesis: %s", err.msg);
	TEST_ASSERT(env, build_id_list__nr(c.bids) == (vdso__image(&(size_t){ 0 }) != NULL),
		    "%zu build ids without MMAP2 build ids", build_id_list__nr(c.bids));

	/* hidden kernel addresses: said, not a map at 0 */
	TEST_ASSERT(env, !tree_file(env, proc, "kallsyms",
				    "0000000000000000 T _text\n0000000000000000 T _etext\n"), "kallsyms");
	ret = record_synth__kernel(&s, &err);
	snprintf(want, sizeof(want), "%s/kallsyms has no address for _text: kernel addresses are hidden (kernel.kptr_restrict) or it is no kallsyms",
		 proc);
	TEST_ASSERT(env, ret == -EACCES && !strcmp(err.msg, want), "%d '%s'", ret, err.msg);
	TEST_ASSERT(env, !tree_file(env, proc, "modules", "foo 16384 0 - Live 0x0000000000000000\n"),
		    "modules");
	ret = record_synth__modules(&s, &err);
	TEST_ASSERT(env, ret == -EACCES && strstr(err.msg, "module addresses are hidden"), "%d '%s'",
		    ret, err.msg);
	build_id_list__delete(c.bids);
	return TEST_OK;
}
