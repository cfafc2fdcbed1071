// SPDX-License-Identifier: GPL-2.0
/*
 * Corrupt inputs: each must give one error that names what is wrong and where (file offset,
 * record type), never a crash, a hang or an out-of-bounds read (the ASan run checks that).
 * The files are built here byte by byte so every corruption is exact.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <perf/data.h>
#include "tests.h"
#include "util/session.h"

struct file_builder {
	u8	buf[16384];
	size_t	len;
	size_t	data_off;	/* start of the data section */
	size_t	rec_off;	/* start of the first sample */
};

static void fb_put(struct file_builder *fb, const void *p, size_t n)
{
	memcpy(fb->buf + fb->len, p, n);
	fb->len += n;
}

static void fb_u64(struct file_builder *fb, u64 v)
{
	fb_put(fb, &v, 8);
}

/*
 * header | attr (IP|TID|TIME|CALLCHAIN|BRANCH_STACK|STACK_USER) + ids section | ids |
 * data: one sample (ip, pid/tid, time, callchain nr 2, branch nr 0, stack size 8 + dyn)
 * | feature table (HEADER_TRACING_DATA when tracing is given)
 */
static void build(struct file_builder *fb, const void *tracing, size_t tracing_len)
{
	struct perf_file_header h = { 0 };
	struct perf_event_attr attr = { 0 };
	struct perf_event_header eh = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0 };
	size_t attr_off, ids_off, sample_start;

	memset(fb, 0, sizeof(*fb));
	fb->len = sizeof(h);
	attr_off = fb->len;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_STACK_USER;
	attr.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(DEFER_CALLCHAIN);
	fb_put(fb, &attr, sizeof(attr));
	ids_off = fb->len + sizeof(struct perf_file_section);
	fb_u64(fb, ids_off);		/* ids section */
	fb_u64(fb, 8);
	fb_u64(fb, 42);			/* the id */
	fb->data_off = fb->len;
	/* one sample */
	sample_start = fb->len;
	fb->rec_off = sample_start;
	fb_put(fb, &eh, sizeof(eh));
	fb_u64(fb, 0x401000);		/* ip */
	fb_u64(fb, (u64)7 << 32 | 7);	/* pid/tid */
	fb_u64(fb, 1000);		/* time */
	fb_u64(fb, 2);			/* callchain nr */
	fb_u64(fb, PERF_CONTEXT_USER);
	fb_u64(fb, 0x401000);
	fb_u64(fb, 0);			/* branch nr */
	fb_u64(fb, 8);			/* stack size */
	fb_u64(fb, 0);			/* stack bytes */
	fb_u64(fb, 8);			/* dyn size */
	eh.size = (u16)(fb->len - sample_start);
	memcpy(fb->buf + sample_start, &eh, sizeof(eh));

	h.magic = PERF_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(attr) + sizeof(struct perf_file_section);
	h.attrs.offset = attr_off;
	h.attrs.size = h.attr_size;
	h.data.offset = fb->data_off;
	h.data.size = fb->len - fb->data_off;
	if (tracing) {
		size_t table = fb->len;

		h.adds_features[0] = 1ULL << HEADER_TRACING_DATA;
		fb_u64(fb, table + 16);
		fb_u64(fb, tracing_len);
		fb_put(fb, tracing, tracing_len);
	}
	memcpy(fb->buf, &h, sizeof(h));
}

static int write_file(const struct test_env *env, const struct file_builder *fb, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/bad.data", env->tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, fb->buf, fb->len) != (ssize_t)fb->len) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * runs a session over the file, stitching deferred callchains or not; returns its error
 * text (empty when it succeeded)
 */
static int run_mode(const struct test_env *env, const struct file_builder *fb, bool merge,
		    char *msg, size_t len)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts opts = { .symbol_conf = &conf };
	struct perf_tool tool;
	struct perf_session *session;
	struct perf_err err = { "" };
	char path[512];
	int ret;

	if (write_file(env, fb, path, sizeof(path)))
		return -EIO;
	perf_tool__init(&tool);
	opts.merge_deferred = merge;
	opts.path = path;
	session = perf_session__new(&opts, &tool, &err);
	if (!session) {
		snprintf(msg, len, "%s", err.msg);
		return -EINVAL;
	}
	ret = perf_session__process_events(session);
	snprintf(msg, len, "%s", ret ? session->err.msg : "");
	perf_session__delete(session);
	return ret;
}

/* both ways must give the same answer: the stitcher peeks at samples, the rest parses them */
static int run(const struct test_env *env, const struct file_builder *fb, char *msg, size_t len)
{
	char plain[512], merged[512];
	int ret = run_mode(env, fb, false, plain, sizeof(plain));

	if (run_mode(env, fb, true, merged, sizeof(merged)) != ret || strcmp(plain, merged)) {
		snprintf(msg, len, "stitching changes the outcome: %d '%.200s' vs '%.200s'", ret,
			 plain, merged);
		return ret ? 0 : -EINVAL;
	}
	snprintf(msg, len, "%s", plain);
	return ret;
}

#define EXPECT_ERROR(env, fb, ...)							\
	do {										\
		const char *want[] = { __VA_ARGS__, NULL };				\
		char emsg[512];								\
										\
		TEST_ASSERT(env, run(env, fb, emsg, sizeof(emsg)) < 0, "accepted, expected '%s'", want[0]); \
		for (int w = 0; want[w]; w++)					\
			TEST_ASSERT(env, strstr(emsg, want[w]), "error '%s' lacks '%s'", emsg, want[w]); \
		TEST_ASSERT(env, !strchr(emsg, '\n'), "error is not one line: '%s'", emsg); \
	} while (0)

static void set_u64(struct file_builder *fb, size_t off, u64 v)
{
	memcpy(fb->buf + off, &v, 8);
}

/* appends a CALLCHAIN_DEFERRED record for the sample's cookie claiming nr ips (it holds one) */
static void put_deferred_record(struct file_builder *fb, u64 nr)
{
	struct perf_event_header dh = { PERF_RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER,
					8 + 24 + 16 };

	fb_put(fb, &dh, sizeof(dh));
	fb_u64(fb, 0xb00000006ULL);	/* cookie */
	fb_u64(fb, nr);
	fb_u64(fb, 0x401000);
	fb_u64(fb, (u64)7 << 32 | 7);	/* sample_id: tid */
	fb_u64(fb, 2000);		/* time */
	set_u64(fb, offsetof(struct perf_file_header, data.size), fb->len - fb->data_off);
}

DEFINE_SUITE(bad_input)
{
	struct file_builder fb;
	char msg[512], off[32];
	size_t s = 0;

	build(&fb, NULL, 0);
	TEST_ASSERT(env, run(env, &fb, msg, sizeof(msg)) == 0, "the good file fails: %s", msg);

	fb.len = 50;
	EXPECT_ERROR(env, &fb, "truncated");

	build(&fb, NULL, 0);
	memcpy(fb.buf, "PERFFILE", 8);
	EXPECT_ERROR(env, &fb, "bad magic", "offset 0");

	build(&fb, NULL, 0);
	set_u64(&fb, offsetof(struct perf_file_header, attrs.size), 1 << 20);
	EXPECT_ERROR(env, &fb, "attr section", "past the end");

	build(&fb, NULL, 0);
	set_u64(&fb, sizeof(struct perf_file_header) + sizeof(struct perf_event_attr) + 8, 1 << 20);
	EXPECT_ERROR(env, &fb, "id array", "past the end");

	build(&fb, NULL, 0);
	set_u64(&fb, offsetof(struct perf_file_header, data.size), 1 << 20);
	EXPECT_ERROR(env, &fb, "data section", "past the end");

	/* record sizes: 0, smaller than the header, past the section */
	snprintf(off, sizeof(off), "%#zx", fb.rec_off);
	for (int i = 0; i < 3; i++) {
		u16 sizes[] = { 0, 4, 4000 };

		build(&fb, NULL, 0);
		memcpy(fb.buf + fb.rec_off + 6, &sizes[i], 2);
		if (i < 2)
			EXPECT_ERROR(env, &fb, "smaller than its 8-byte header", off, "SAMPLE");
		else
			EXPECT_ERROR(env, &fb, "past the end of the data section", off, "SAMPLE");
	}

	/* counts larger than the record, at their field offsets in the sample */
	s = fb.rec_off + 8;
	build(&fb, NULL, 0);
	set_u64(&fb, s + 24, 1ULL << 40);	/* callchain nr */
	EXPECT_ERROR(env, &fb, "callchain", off, "SAMPLE");
	build(&fb, NULL, 0);
	set_u64(&fb, s + 48, 1000);		/* branch nr */
	EXPECT_ERROR(env, &fb, "branch", off, "SAMPLE");
	build(&fb, NULL, 0);
	set_u64(&fb, s + 56, 1 << 20);		/* stack size */
	EXPECT_ERROR(env, &fb, "user stack", off, "SAMPLE");
	/* a dump claiming more valid bytes than it holds: upstream's "user stack dump failure" */
	build(&fb, NULL, 0);
	set_u64(&fb, s + 72, 16);		/* dyn size, of an 8-byte dump */
	EXPECT_ERROR(env, &fb, "user stack dump failure", "dyn_size 16", off, "SAMPLE");

	/* zstd garbage inside a COMPRESSED2 record replacing the sample */
	build(&fb, NULL, 0);
	{
		struct perf_event_header ch = { PERF_RECORD_COMPRESSED2, 0, 0 };
		size_t rec_len;

		fb.len = fb.rec_off;
		ch.size = 8 + 8 + 32;
		fb_put(&fb, &ch, sizeof(ch));
		fb_u64(&fb, 32);
		for (int i = 0; i < 4; i++)
			fb_u64(&fb, 0x0123456789abcdefULL * (u64)(i + 1));
		rec_len = fb.len - fb.data_off;
		set_u64(&fb, offsetof(struct perf_file_header, data.size), rec_len);
		EXPECT_ERROR(env, &fb, "zstd", off, "COMPRESSED2");
	}

	/* a deferred record whose nr runs past it */
	build(&fb, NULL, 0);
	fb.len = fb.rec_off;
	put_deferred_record(&fb, 1000);
	EXPECT_ERROR(env, &fb, "CALLCHAIN_DEFERRED", off);

	/*
	 * A deferred sample ([USER_DEFERRED, cookie]) whose user stack runs past it: the
	 * stitcher only peeks at it when it comes and parses it when it delivers it, at its
	 * record or at the end; the error names the sample either way.
	 */
	for (int with_record = 0; with_record < 2; with_record++) {
		build(&fb, NULL, 0);
		set_u64(&fb, s + 32, PERF_CONTEXT_USER_DEFERRED);
		set_u64(&fb, s + 40, 0xb00000006ULL);
		set_u64(&fb, s + 56, 1 << 20);		/* stack size */
		if (with_record)
			put_deferred_record(&fb, 1);
		EXPECT_ERROR(env, &fb, "user stack", off, "SAMPLE");
	}

	/* a feature section past the end of the file */
	build(&fb, "x", 1);
	set_u64(&fb, fb.len - 1 - 8, 1 << 20);
	EXPECT_ERROR(env, &fb, "tracing_data", "past the end");
	return TEST_OK;
}

/*
 * Unknown record types are skipped and counted, never fatal; LOST is counted and reported.
 * User types past perf 7.2's last (86) get upstream's warning, one per record, and are not
 * counted among the events (upstream skips them before counting).
 */
DEFINE_SUITE(unknown_records)
{
	struct symbol_conf conf = { .symfs = "" };
	struct session_opts opts = { .symbol_conf = &conf, .merge_deferred = true };
	struct perf_event_header unk = { 30, 0, 24 }, lost = { PERF_RECORD_LOST, 0, 24 + 16 };
	struct perf_event_header user90 = { 90, 0, 16 }, user200 = { 200, 0, 8 };
	static const char unsupported[] =
		"Warning:\nUnsupported header type 90, please consider updating perf.\n"
		"Warning:\nUnsupported header type 200, please consider updating perf.\n";
	struct file_builder fb;
	struct perf_tool tool;
	struct perf_session *session;
	struct perf_err err;
	size_t sample_len;
	char path[512], text[1024];
	FILE *fp;
	int ret;

	build(&fb, NULL, 0);
	sample_len = fb.len - fb.rec_off;
	/* sample, unknown type 30, LOST (id, lost, sample_id tid+time), the sample again */
	fb_put(&fb, &unk, sizeof(unk));
	fb_u64(&fb, 1);
	fb_u64(&fb, 2);
	fb_put(&fb, &user90, sizeof(user90));
	fb_u64(&fb, 3);
	fb_put(&fb, &user200, sizeof(user200));
	fb_put(&fb, &lost, sizeof(lost));
	fb_u64(&fb, 42);
	fb_u64(&fb, 17);
	fb_u64(&fb, (u64)7 << 32 | 7);
	fb_u64(&fb, 1500);
	fb_put(&fb, fb.buf + fb.rec_off, sample_len);
	set_u64(&fb, offsetof(struct perf_file_header, data.size), fb.len - fb.data_off);
	TEST_ASSERT(env, write_file(env, &fb, path, sizeof(path)) == 0, "cannot write");

	perf_tool__init(&tool);
	opts.path = path;
	session = perf_session__new(&opts, &tool, &err);
	TEST_ASSERT(env, session, "open: %s", err.msg);
	ret = perf_session__process_events(session);
	TEST_ASSERT(env, ret == 0, "stopped: %s", session->err.msg);
	TEST_ASSERT(env, session->stats.nr_samples == 2, "%llu samples delivered, want 2 (one after the unknown record)",
		    (unsigned long long)session->stats.nr_samples);
	TEST_ASSERT(env, session->stats.nr_unknown_events == 1, "unknown not counted");
	TEST_ASSERT(env, session->stats.nr_events[0] == 4, "%llu events counted, want 4 (not the user types 90 and 200)",
		    (unsigned long long)session->stats.nr_events[0]);
	TEST_ASSERT(env, session->stats.total_lost == 17 && session->stats.nr_lost_events == 1, "lost not counted");
	fp = fmemopen(text, sizeof(text), "w");
	TEST_ASSERT(env, fp, "fmemopen");
	perf_session__warn_about_errors(session, fp);
	fclose(fp);
	perf_session__delete(session);
	TEST_ASSERT(env, strstr(text, "Found 1 unknown events!"), "no unknown warning: %s", text);
	TEST_ASSERT(env, !strncmp(text, unsupported, strlen(unsupported)),
		    "not upstream's warnings for user types 90 and 200 first: %s", text);
	TEST_ASSERT(env, strstr(text, "and lost 1 chunks!"), "no lost warning: %s", text);
	return TEST_OK;
}
