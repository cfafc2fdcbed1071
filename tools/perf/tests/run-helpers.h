/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-helpers.h - what the C tests do around the code under test: run a command (perf
 * itself, or a shell line to build a fixture), read a whole file, write one. One copy for
 * every test, so a fix (EINTR, a closed descriptor, a NUL terminator) lands everywhere.
 *
 * Paths are the caller's (NUL-terminated, not kept). Returned buffers are malloc'ed and the
 * caller's to free. No function prints, except test_run_shell() echoing its command under -v.
 */
#ifndef PERF_TESTS_RUN_HELPERS_H
#define PERF_TESTS_RUN_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include "tests.h"

struct machine;

/*
 * Runs argv (argv[0] a path, NULL-terminated) without a shell, stdout to the file OUT and
 * stderr to the file ERR (NULL: /dev/null), both truncated. Returns the exit status, or -1
 * when it could not be started or died of a signal.
 */
int test_run_argv(const char *const argv[], const char *out, const char *err);

/*
 * Runs a shell command in the current directory. Its output is thrown away unless
 * env->verbose, which also echoes the command with "+ ". Returns system()'s status; -1
 * when the command does not fit (8 KB).
 */
int test_run_shell(const struct test_env *env, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* whether the shell finds TOOL (a plain command name, not quoted) */
bool test_have_tool(const char *tool);

/*
 * The fixture set NAME ("perf72" or "real-defer": the golden recordings the repository
 * carries in tools/perf/tests/data/fixtures, see unpack-fixtures.sh there) unpacked into
 * env->tmpdir/fixtures/NAME, once per test; that path goes into DIR (SIZE bytes). 0, or -1
 * when it cannot be unpacked (zstd missing, a path too long): -v shows why. The shell tests'
 * need_fixture does the same.
 */
int test_fixture(const struct test_env *env, const char *name, char *dir, size_t size);

/* the message of a test that skips for want of upstream perf 7.2 */
#define TEST_NO_UPSTREAM_PERF	"no upstream perf 7.2 (make test-deps as root)"

/*
 * The project's upstream perf 7.2 wrapper (scripts/upstream-perf) into PATH (SIZE bytes),
 * true when it runs here: root, and its tree built by make test-deps. The shell tests'
 * upstream_perf does the same.
 */
bool test_upstream_perf(const struct test_env *env, char *path, size_t size);

/* where the system perf (6.1) is; the skip message of a test that needs it */
#define TEST_SYSTEM_PERF	"/usr/bin/perf"
#define TEST_NO_SYSTEM_PERF	"no system perf at " TEST_SYSTEM_PERF " (make test-deps as root)"

/*
 * The command that runs the system perf into PATH (SIZE bytes), false when there is none: the
 * shell tests' lib/system-perf, which keeps its records apart from CPU-wide records of ours
 * (the kernel leaks our build-id bit into its mmap records) and runs an aborted record again;
 * the binary itself when the source tree has no such script.
 */
bool test_system_perf(const struct test_env *env, char *path, size_t size);

/*
 * argv run again with upstream (the path test_upstream_perf() gave) for argv[0], its stdout
 * to the file PATH, and that output compared with got: through read() when it is not NULL
 * (a test's own reader that leaves out what may differ), else whole. 1 when equal, 0 when
 * it differs, -1 when upstream did not exit 0 or its output could not be read. argv[0] is
 * changed.
 */
int test_upstream_same(const char *upstream, const char *argv[], const char *path,
		       const char *got, char *(*read)(const char *path));

/*
 * The whole file PATH into *buf with a NUL after its *len bytes (so text can be used as a
 * string; an empty file gives an empty string). 0, or -errno with *buf NULL.
 */
int test_read_file(const char *path, char **buf, size_t *len);

/* LEN bytes of BUF as the file PATH (created or truncated); 0 or -errno */
int test_write_file(const char *path, const void *buf, size_t len);

/*
 * Feeds machine an MMAP record of NAME (at most 63 characters) at [start, start + len) with
 * pgoff, for pid (its tid too) in cpumode misc; machine__process_mmap()'s result.
 */
int test_machine_mmap(struct machine *m, u16 misc, u32 pid, u64 start, u64 len, u64 pgoff,
		      const char *name);

#endif
