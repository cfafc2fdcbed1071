// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perf/record.h>
#include "util/machine.h"
#include "run-helpers.h"

int test_run_argv(const char *const argv[], const char *out, const char *err)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int efd = err ? open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600)
			      : open("/dev/null", O_WRONLY);

		if (fd < 0 || efd < 0 || dup2(fd, 1) < 0 || dup2(efd, 2) < 0)
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int test_run_shell(const struct test_env *env, const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	/* room for the redirection below */
	if (n < 0 || (size_t)n + 32 >= sizeof(cmd))
		return -1;
	if (!env->verbose)
		strcat(cmd, " >/dev/null 2>&1");
	else
		fprintf(stderr, "+ %s\n", cmd);
	return system(cmd);
}

bool test_have_tool(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

int test_fixture(const struct test_env *env, const char *name, char *dir, size_t size)
{
	int n = snprintf(dir, size, "%s/fixtures/%s", env->tmpdir, name);

	if (n < 0 || (size_t)n >= size)
		return -1;
	if (test_run_shell(env, "'%s/tools/perf/tests/data/unpack-fixtures.sh' '%s' '%s/fixtures'",
			   env->srcdir, name, env->tmpdir))
		return -1;
	return 0;
}

bool test_upstream_perf(const struct test_env *env, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/scripts/upstream-perf", env->srcdir);
	const char *argv[] = { path, "--version", NULL };

	if (n < 0 || (size_t)n >= size)
		return false;
	return test_run_argv(argv, "/dev/null", NULL) == 0;
}

bool test_system_perf(const struct test_env *env, char *path, size_t size)
{
	int n;

	if (access(TEST_SYSTEM_PERF, X_OK))
		return false;
	n = snprintf(path, size, "%s/tools/perf/tests/shell/lib/system-perf", env->srcdir);
	if (n >= 0 && (size_t)n < size && !access(path, X_OK))
		return true;
	n = snprintf(path, size, "%s", TEST_SYSTEM_PERF);
	return n >= 0 && (size_t)n < size;
}

int test_read_file(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n;
	int ret = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out_close;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		ret = -ENOMEM;
		goto out_close;
	}
	n = pread(fd, *buf, (size_t)st.st_size, 0);
	if (n != st.st_size) {
		ret = n < 0 ? -errno : -EIO;
		free(*buf);
		*buf = NULL;
		goto out_close;
	}
	(*buf)[n] = '\0';
	*len = (size_t)n;
out_close:
	close(fd);
	return ret;
}

int test_upstream_same(const char *upstream, const char *argv[], const char *path,
		       const char *got, char *(*read)(const char *path))
{
	char *want = NULL;
	size_t len;
	int same;

	argv[0] = upstream;
	if (test_run_argv(argv, path, NULL) != 0)
		return -1;
	if (read)
		want = read(path);
	else if (test_read_file(path, &want, &len))
		want = NULL;
	if (!want)
		return -1;
	same = !strcmp(want, got);
	free(want);
	return same;
}

int test_write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "w");
	size_t n;

	if (!f)
		return -errno;
	n = fwrite(buf, 1, len, f);
	if (fclose(f) || n != len)
		return -EIO;
	return 0;
}

int test_machine_mmap(struct machine *m, u16 misc, u32 pid, u64 start, u64 len, u64 pgoff,
		      const char *name)
{
	union {
		struct perf_record_mmap	mmap;
		char			buf[sizeof(struct perf_record_mmap) + 64];
	} u;

	memset(&u, 0, sizeof(u));
	u.mmap.header.type = PERF_RECORD_MMAP;
	u.mmap.header.misc = misc;
	u.mmap.header.size = (u16)(sizeof(u.mmap) + 64);
	u.mmap.pid = pid;
	u.mmap.tid = pid;
	u.mmap.start = start;
	u.mmap.len = len;
	u.mmap.pgoff = pgoff;
	snprintf(u.mmap.filename, 64, "%s", name);
	return machine__process_mmap(m, &u.mmap.header, 0);
}
