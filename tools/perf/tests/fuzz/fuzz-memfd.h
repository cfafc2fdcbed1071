/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz-memfd.h - a fuzz input as a file: the bytes written to a new memfd (name is its
 * name in /proc/self/fd), its offset back at 0. The caller closes the fd. Failing to set up
 * the input is the harness's problem, not a finding: it aborts.
 */
#ifndef PERF_TESTS_FUZZ_MEMFD_H
#define PERF_TESTS_FUZZ_MEMFD_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static inline int fuzz__memfd(const char *name, const uint8_t *bytes, size_t size)
{
	size_t done = 0;
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, bytes + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

#endif
