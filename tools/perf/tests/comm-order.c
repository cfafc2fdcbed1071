// SPDX-License-Identifier: GPL-2.0
/*
 * comm-order.c - the comm a sample is printed with when records are not read in time order.
 *
 * In time order a sample shows the comm its thread had when it was taken. With
 * --show-round-events perf script prints records in file order, and perf then shows the
 * comm last read for the thread: a sample taken just before its thread's exec, whose buffer
 * was written after the exec COMM (another CPU's ring, flushed later), is printed with the
 * new name. Live sched:* recordings meet that now and then; this file makes it certain.
 *
 * The file is the corpus' latlow.data (timeout's child, sampled once before it execs yes)
 * with the exec COMM moved ahead of that sample and, just before it, a plain COMM of the
 * same time naming the child "preexec": the name a shell's child has had from a COMM of its
 * own before it execs, not only inherited. Ordered output must show the sample with the
 * comm it had then ("timeout"), file-order output with the exec's; with upstream perf at
 * hand (root), each output equals its.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"
#include "run-helpers.h"
#include "tests.h"

/* rec without its exec bit, naming comm instead (its sample_id trailer kept) */
static int write_plain_comm(struct perf_writer *w, const struct perf_record_comm *rec,
			    const char *comm, struct perf_err *err)
{
	union {
		struct perf_record_comm rec;
		u8 bytes[256];
	} u;

	if (rec->header.size > sizeof(u))
		return perf_err__set(err, EINVAL, "a COMM record of %u bytes", rec->header.size);
	memcpy(&u, rec, rec->header.size);
	u.rec.header.misc &= ~PERF_RECORD_MISC_COMM_EXEC;
	return test_write_restrung(w, &u.rec.header, offsetof(struct perf_record_comm, comm),
				   comm, err);
}

/*
 * in with each exec COMM written before the record preceding it when that is a sample of
 * the same thread, a plain COMM "preexec" before it; the moved COMMs' tids and names go
 * to moved (up to max)
 */
struct moved_comm {
	u32	tid;
	char	comm[16];
};

struct craft {
	struct moved_comm	*moved;
	size_t			max;
	size_t			nr_moved;
	/* a sample is held one record: the next may be its thread's exec */
	struct perf_event_header *held;
	u32			held_tid;
};

static int craft__write_held(struct craft *c, struct perf_writer *w, struct perf_err *err)
{
	int ret = c->held ? perf_writer__write(w, c->held, err) : 0;

	free(c->held);
	c->held = NULL;
	return ret;
}

static int craft__record(struct perf_writer *w, struct perf_data *in,
			 const struct perf_data_record *r, void *ctx, struct perf_err *err)
{
	struct craft *c = ctx;
	const struct perf_record_comm *comm = r ? (const void *)r->header : NULL;
	struct perf_evattr *ea;
	struct perf_sample s;
	int ret;

	if (!r)
		return craft__write_held(c, w, err);
	if (c->held && r->header->type == PERF_RECORD_COMM &&
	    (r->header->misc & PERF_RECORD_MISC_COMM_EXEC) && comm->tid == c->held_tid &&
	    c->nr_moved < c->max) {
		struct moved_comm *m = &c->moved[c->nr_moved++];

		m->tid = comm->tid;
		snprintf(m->comm, sizeof(m->comm), "%.*s", (int)sizeof(m->comm) - 1, comm->comm);
		ret = write_plain_comm(w, comm, "preexec", err);
		if (!ret)
			ret = perf_writer__write(w, r->header, err);
		return ret ? ret : craft__write_held(c, w, err);
	}
	ret = craft__write_held(c, w, err);
	if (ret)
		return ret;
	if (r->header->type != PERF_RECORD_SAMPLE)
		return perf_writer__write(w, r->header, err);
	ea = perf_data__attr_of(in, r->header);
	if (!ea || perf_evattr__parse_sample(ea, r->header, false, NULL, &s, err))
		return perf_err__set(err, EINVAL, "a sample at %#llx does not parse",
				     (unsigned long long)r->file_offset);
	c->held = malloc(r->header->size);
	if (!c->held)
		return perf_err__set(err, ENOMEM, "out of memory");
	memcpy(c->held, r->header, r->header->size);
	c->held_tid = s.tid;
	return 0;
}

static int craft(const char *in, const char *out, struct moved_comm *moved, size_t max,
		 size_t *nr_moved, struct perf_err *err)
{
	struct craft c = { .moved = moved, .max = max };
	int ret = test_rewrite(in, out, craft__record, &c, err);

	free(c.held);
	*nr_moved = c.nr_moved;
	return ret;
}

/*
 * the comm of OUT's first line for tid (perf script -F comm,tid: "comm tid"), into comm;
 * false when there is none
 */
static bool first_comm(const char *out, u32 tid, char *comm, size_t size)
{
	for (const char *line = out; *line;) {
		const char *eol = strchrnul(line, '\n');
		char name[64];
		unsigned int t;

		if (sscanf(line, "%63s %u", name, &t) == 2 && t == tid) {
			snprintf(comm, size, "%s", name);
			return true;
		}
		line = *eol ? eol + 1 : eol;
	}
	return false;
}

static const char *const modes[] = { NULL, "--show-round-events" };

DEFINE_SUITE(comm_file_order)
{
	char in[4200], crafted[4200], upstream[4200], ours[4300], theirs[4300];
	struct moved_comm moved[8];
	size_t nr_moved, nr_compared = 0;
	bool have_upstream;
	struct perf_err err;

	snprintf(in, sizeof(in), "%s/tools/perf/tests/data/corpus/latlow.data", env->srcdir);
	snprintf(crafted, sizeof(crafted), "%s/moved.data", env->tmpdir);
	have_upstream = test_upstream_perf(env, upstream, sizeof(upstream));
	TEST_ASSERT(env, !craft(in, crafted, moved, 8, &nr_moved, &err), "crafting from %s: %s",
		    in, err.msg);
	TEST_ASSERT(env, nr_moved == 1, "%zu exec COMMs right after a sample of their thread in %s, not 1",
		    nr_moved, in);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const char *argv[] = { env->perf, "script", "-F", "comm,tid", "-i", crafted,
				       modes[i], NULL };
		char comm[64];
		char *got;
		bool same;
		int ret;

		snprintf(ours, sizeof(ours), "%s/%zu.ours", env->tmpdir, i);
		TEST_ASSERT(env, test_run_argv(argv, ours, NULL) == 0, "perf script %s failed",
			    modes[i] ? modes[i] : "");
		TEST_ASSERT(env, !test_read_file(ours, &got, &(size_t){ 0 }), "cannot read %s", ours);
		same = first_comm(got, moved[0].tid, comm, sizeof(comm));
		/* in time order the sample precedes the exec; in file order it follows it */
		same = same && !strcmp(comm, moved[0].comm) == (modes[i] != NULL);
		if (!same && env->verbose)
			fprintf(stderr, "%s: tid %u's first sample shows '%s' (exec: '%s')\n",
				modes[i] ? modes[i] : "time order", moved[0].tid, comm, moved[0].comm);
		if (!same || !have_upstream) {
			free(got);
			TEST_ASSERT(env, same, "%s: the comm of the sample before the exec",
				    modes[i] ? modes[i] : "time order");
			continue;
		}
		snprintf(theirs, sizeof(theirs), "%s/%zu.upstream", env->tmpdir, i);
		ret = test_upstream_same(upstream, argv, theirs, got, NULL);
		free(got);
		if (ret < 0)
			continue;	/* not compared: the partial pass below says so */
		if (!ret && env->verbose)
			fprintf(stderr, "%s differs from upstream's (%s, %s)\n",
				modes[i] ? modes[i] : "time order", theirs, ours);
		TEST_ASSERT(env, ret, "%s: ours differs from upstream's",
			    modes[i] ? modes[i] : "time order");
		nr_compared++;
	}
	if (nr_compared < 2)
		return test__partial(env, "%zu of 4 cases: %s", 2 + nr_compared, have_upstream ?
				     "upstream perf did not run, not compared with it" :
				     TEST_NO_UPSTREAM_PERF ", not compared with it");
	return TEST_OK;
}
