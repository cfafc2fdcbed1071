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
#include "fuzz-memfd.h"
#include "reader-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct reader_walk walk;
	int fd;

	fd = fuzz__memfd("fuzz.data", bytes, size);
	reader_walk__fd(&walk, fd, "fuzz.data");
	return 0;
}
