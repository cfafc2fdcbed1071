// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf.data reader (tools/lib/perf): the input is a whole file,
 * file mode or pipe mode, opened from a memfd exactly as perf opens a regular file, then
 * walked record by record with every sample parsed (reader-walk.h).
 *
 * A rejected input (an error return) is fine; only a crash, a sanitizer report, a hang or
 * runaway memory is a finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "reader-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct reader_walk walk;
	size_t done = 0;
	int fd;

	/* failing to set up the input is the harness's problem: stop loudly */
	fd = memfd_create("fuzz.data", MFD_CLOEXEC);
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
	reader_walk__fd(&walk, fd, "fuzz.data");
	return 0;
}
