// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for a kcore, the untrusted file of a perf.data directory (perf record
 * --kcore's DIR/kcore_dir/kcore): its ELF and program headers (kcore.c), the kernel maps the
 * readers make of its segments beside a kallsyms and modules list that fit the recording
 * (machine__load_kcore(): replacement map, gaps filled, symbols cut at their segments) and
 * lookups in them through machine__resolve(); then perf record's copy of it (record-kcore.c,
 * the pieces kallsyms and modules ask for, their layout and the bytes copied).
 *
 * Input: the kcore's bytes. The kallsyms and modules beside it are fixed (a kernel text at
 * KERNEL_START, a module's functions and a BPF program's), written once to a temporary
 * directory. A malformed file is fine (no kcore maps, a copy that fails); a crash, a
 * sanitizer report, a leak or a hang is a finding. Seeds (corpus/fuzz_kcore): kcores shaped
 * like perf record --kcore's copy of that kernel, the text and the module's segments, and
 * one with a hole in the text and its segments out of address order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/kcore.h"
#include "util/machine.h"
#include "util/record-kcore.h"
#include "util/record-output.h"
#include "tests/run-helpers.h"

#define KERNEL_START	0xffffffff81000000ULL
#define MODULE_START	0xffffffffc0002000ULL

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T kfunc\n"
	"ffffffff81002000 t kfunc2\n"
	"ffffffff81003800 T _etext\n"
	"ffffffff81008000 T init_fn\n"
	"ffffffffc0002100 t foo_fn\t[foo]\n"
	"ffffffffc0004010 t foo_last\t[foo]\n"
	"ffffffffc0010000 t bpf_prog_0123456789abcdef_f\t[bpf]\n";

static const char modules_text[] = "foo 16384 0 - Live 0xffffffffc0002000\n";

static char dir[64], copy_dir[80];

/* the files of setup() and the last input's kcore, when the fuzzer exits */
static void cleanup(void)
{
	static const char *const names[] = { "kallsyms", "modules", "kcore" };
	struct perf_err err;
	char path[128];

	record_output__remove(copy_dir, &err);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void setup(void)
{
	char path[128];

	if (dir[0])
		return;
	/* in memory where there is a tmpfs: each input writes the kcore and its copy */
	snprintf(dir, sizeof(dir), "/dev/shm/fuzz-kcore-XXXXXX");
	if (!mkdtemp(dir)) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz-kcore-XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	if (test_write_file(path, kallsyms_text, strlen(kallsyms_text)))
		abort();
	snprintf(path, sizeof(path), "%s/modules", dir);
	if (test_write_file(path, modules_text, strlen(modules_text)))
		abort();
	snprintf(copy_dir, sizeof(copy_dir), "%s/copy", dir);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct symbol_conf conf = { .symfs = "" };
	struct addr_location al;
	char kallsyms[128], kcore[128];
	struct kcore_elf k;
	struct perf_err err;
	struct machine m;
	int fd;

	setup();
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", dir);
	snprintf(kcore, sizeof(kcore), "%s/kcore", dir);
	if (test_write_file(kcore, bytes, size))
		abort();
	conf.kallsyms = kallsyms;
	if (machine__init(&m, &conf))
		abort();
	if (test_machine_mmap(&m, PERF_RECORD_MISC_KERNEL, (u32)-1, MODULE_START, 0x4000,
			      MODULE_START, "[foo]") ||
	    test_machine_mmap(&m, PERF_RECORD_MISC_KERNEL, (u32)-1, KERNEL_START, 0x10000,
			      KERNEL_START, "[kernel.kallsyms]_text"))
		abort();
	/* the first lookup loads kallsyms and the kcore; then across both areas */
	for (u64 i = 0; i < 64; i++) {
		machine__resolve(&m, NULL, PERF_RECORD_MISC_KERNEL, KERNEL_START + i * 0x280, &al);
		machine__resolve(&m, NULL, PERF_RECORD_MISC_KERNEL, MODULE_START + i * 0x400, &al);
	}
	machine__resolve(&m, NULL, PERF_RECORD_MISC_KERNEL, ~0ULL, &al);
	machine__exit(&m);

	/*
	 * perf record's copy of it, into a directory that is gone again after: only for a
	 * kcore with segments (the copy's files cost more than everything else here)
	 */
	fd = open(kcore, O_RDONLY);
	if (fd < 0)
		abort();
	if (!kcore__read(&k, fd, kcore, &err) && k.nr_segs) {
		record_kcore__mkdir(copy_dir, dir, &err);
		record_output__remove(copy_dir, &err);
	}
	kcore__exit(&k);
	close(fd);
	return 0;
}
