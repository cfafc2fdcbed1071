// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's maps from a recording's kernel and module mmaps: each keeps its start and
 * ends where the next begins, in whatever order the mmaps come.
 *
 * Where expectations come from: Linux 7.2 recordings (issue 18, make vmtest) whose netfs
 * map, sized from /proc/modules, [0xffffffffc0600000, +0x99000), covers 9pnet's start at
 * 0xffffffffc061d000, and 9pnet's covers 9pnet_virtio's: the symbols found (p9_check_errors
 * in 9pnet, p9_virtio_request in 9pnet_virtio, at small offsets) say where each module's
 * text really is. Upstream perf 7.2 keeps the maps overlapping and names whichever its
 * binary search meets (README: differences kept on purpose).
 */
#include <stdio.h>
#include <string.h>
#include "util/machine.h"
#include "run-helpers.h"
#include "tests.h"

#define KERNEL_START	0xffffffff81000000ULL
#define NETFS_START	0xffffffffc0600000ULL
#define NETFS_LEN	0x99000ULL
#define P9NET_START	0xffffffffc061d000ULL
#define P9NET_LEN	0x20000ULL

/* the dso's name that a kernel address resolves to, or "(none)" */
static const char *kdso(struct machine *m, u64 addr)
{
	struct addr_location al;

	machine__resolve(m, NULL, PERF_RECORD_MISC_KERNEL, addr, &al);
	return al.map && al.map->dso ? al.map->dso->short_name : "(none)";
}

static int one_order(const struct test_env *env, bool netfs_first)
{
	struct symbol_conf conf = { .symfs = "" };
	struct machine m;
	int ret = TEST_FAIL;

	TEST_ASSERT(env, !machine__init(&m, &conf), "machine__init");
	if (test_machine_mmap(&m, PERF_RECORD_MISC_KERNEL, (u32)-1, KERNEL_START,
			      NETFS_START - KERNEL_START, KERNEL_START, "[kernel.kallsyms]_text"))
		goto out;
	for (int i = 0; i < 2; i++) {
		bool netfs = (i == 0) == netfs_first;

		if (test_machine_mmap(&m, PERF_RECORD_MISC_KERNEL, (u32)-1,
				      netfs ? NETFS_START : P9NET_START,
				      netfs ? NETFS_LEN : P9NET_LEN,
				      netfs ? NETFS_START : P9NET_START,
				      netfs ? "[netfs]" : "[9pnet]"))
			goto out;
	}
	TEST_ASSERT(env, !strcmp(kdso(&m, NETFS_START + 0x100), "[netfs]"),
		    "netfs's own start: %s", kdso(&m, NETFS_START + 0x100));
	TEST_ASSERT(env, !strcmp(kdso(&m, P9NET_START), "[9pnet]"),
		    "9pnet's start, inside netfs's recorded size: %s (netfs %s)",
		    kdso(&m, P9NET_START), netfs_first ? "first" : "last");
	TEST_ASSERT(env, !strcmp(kdso(&m, P9NET_START + P9NET_LEN - 1), "[9pnet]"),
		    "9pnet's last byte: %s", kdso(&m, P9NET_START + P9NET_LEN - 1));
	/* netfs ended where 9pnet begins: past 9pnet nothing is netfs's any more */
	TEST_ASSERT(env, !strcmp(kdso(&m, P9NET_START + P9NET_LEN), "(none)"),
		    "past 9pnet, inside netfs's recorded size: %s", kdso(&m, P9NET_START + P9NET_LEN));
	TEST_ASSERT(env, !strcmp(kdso(&m, KERNEL_START + 0x10), "[kernel.kallsyms]"),
		    "the kernel: %s", kdso(&m, KERNEL_START + 0x10));
	ret = TEST_OK;
out:
	machine__exit(&m);
	return ret;
}

DEFINE_SUITE(kernel_maps)
{
	int ret = one_order(env, true);

	return ret == TEST_OK ? one_order(env, false) : ret;
}
