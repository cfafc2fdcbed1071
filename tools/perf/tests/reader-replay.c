// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader on the fuzz inputs kept in the tree (tools/perf/tests/fuzz/):
 *  - every seed of corpus/fuzz_reader/ is a real recording, so it must read to the end with
 *    every sample parsing;
 *  - every truncation and byte corruption of a seed, and every input of
 *    regressions/fuzz_reader/ (each once crashed the reader), must be read or rejected
 *    cleanly. That part fails by crashing, which the ASan+UBSan run of make test turns into
 *    a report: it is where a fixed fuzz finding that comes back shows up.
 * The walk is the fuzz target's own (fuzz/reader-walk.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run-helpers.h"
#include "tests.h"
#include "fuzz/reader-walk.h"

/* cuts per seed: every 1/32 of the file, so each region of a small file loses its tail once */
#define NR_CUTS		32
/* corrupted copies per seed, one flipped byte each, spread evenly over the file */
#define NR_FLIPS	64

struct replay_stats {
	unsigned int	seeds, variants, regressions;
};

/* the walk of bytes[0..len) through a memfd, as the fuzz target does it */
static int walk_bytes(struct reader_walk *w, const u8 *bytes, size_t len, const char *name)
{
	int fd = memfd_create("replay.data", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, bytes + done, len - done);

		if (n <= 0) {
			close(fd);
			return -EIO;
		}
		done += (size_t)n;
	}
	lseek(fd, 0, SEEK_SET);
	reader_walk__fd(w, fd, name);
	return 0;
}

static int replay_seed(const struct test_env *env, const char *path, struct replay_stats *st)
{
	struct reader_walk w;
	size_t len = 0, i;
	u8 *buf = NULL, *copy;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	TEST_ASSERT(env, fd >= 0, "cannot open %s: %s", path, strerror(errno));
	ret = reader_walk__fd(&w, fd, path);
	TEST_ASSERT(env, ret == 0, "seed %s does not read: %s", path, w.why.msg);
	TEST_ASSERT(env, w.records > 0, "seed %s has no records", path);
	TEST_ASSERT(env, w.bad_samples == 0, "seed %s: %llu of %llu samples do not parse", path,
		    (unsigned long long)w.bad_samples, (unsigned long long)w.samples);
	if (env->verbose > 1)
		fprintf(stderr, "%s: %llu records, %llu samples\n", path,
			(unsigned long long)w.records, (unsigned long long)w.samples);

	ret = test_read_file(path, (char **)&buf, &len);
	if (!ret && !len) {
		free(buf);
		ret = -EINVAL;
	}
	TEST_ASSERT(env, ret == 0, "cannot read %s: %s", path, strerror(-ret));
	copy = malloc(len);
	if (!copy) {
		free(buf);
		TEST_ASSERT(env, copy, "out of memory for a copy of %s", path);
	}
	for (i = 0; i < NR_CUTS && !ret; i++)
		ret = walk_bytes(&w, buf, len * i / NR_CUTS, "truncated seed");
	for (i = 0; i < NR_FLIPS && !ret; i++) {
		size_t at = len * i / NR_FLIPS;

		memcpy(copy, buf, len);
		copy[at] ^= 0xff;
		ret = walk_bytes(&w, copy, len, "corrupted seed");
	}
	free(copy);
	free(buf);
	TEST_ASSERT(env, ret == 0, "cannot set up an input for %s: %s", path, strerror(-ret));
	st->seeds++;
	st->variants += NR_CUTS + NR_FLIPS;
	return TEST_OK;
}

static int replay_regression(const struct test_env *env, const char *path,
			     struct replay_stats *st)
{
	struct reader_walk w;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	TEST_ASSERT(env, fd >= 0, "cannot open %s: %s", path, strerror(errno));
	reader_walk__fd(&w, fd, path);
	if (env->verbose > 1)
		fprintf(stderr, "%s: %s\n", path, w.err ? w.why.msg : "read to the end");
	st->regressions++;
	return TEST_OK;
}

/* runs fn on every regular file of dir; a missing dir is no error (regressions may be none) */
static int for_each_input(const struct test_env *env, const char *dir, struct replay_stats *st,
			  int (*fn)(const struct test_env *, const char *, struct replay_stats *))
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = TEST_OK;

	if (!d)
		return TEST_OK;
	while (ret == TEST_OK && (de = readdir(d))) {
		char path[PATH_MAX];
		struct stat sb;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &sb) || !S_ISREG(sb.st_mode))
			continue;
		ret = fn(env, path, st);
	}
	closedir(d);
	return ret;
}

DEFINE_SUITE(reader_replay)
{
	struct replay_stats st = { 0 };
	char corpus[PATH_MAX], regressions[PATH_MAX];
	int ret;

	snprintf(corpus, sizeof(corpus), "%s/tools/perf/tests/fuzz/corpus/fuzz_reader", env->srcdir);
	snprintf(regressions, sizeof(regressions), "%s/tools/perf/tests/fuzz/regressions/fuzz_reader",
		 env->srcdir);
	if (access(corpus, R_OK))
		return test__skip(env, "no fuzz corpus at %s (not a source tree?)", corpus);
	ret = for_each_input(env, corpus, &st, replay_seed);
	if (ret != TEST_OK)
		return ret;
	TEST_ASSERT(env, st.seeds > 0, "no seed in %s", corpus);
	ret = for_each_input(env, regressions, &st, replay_regression);
	if (ret != TEST_OK)
		return ret;
	if (env->verbose)
		fprintf(stderr, "%u seeds read, %u truncated/corrupted variants and %u regressions survived\n",
			st.seeds, st.variants, st.regressions);
	return TEST_OK;
}
