// SPDX-License-Identifier: GPL-2.0
/*
 * Which kallsyms names the kernel and its modules: the running system's only for the build
 * ids it runs (kernel: /sys/kernel/notes, module: /sys/module/NAME/notes), else the build-id
 * cache, else nothing and perf's warning. The "running system" is a tree in the test's tmpdir
 * (symbol_conf.running_root), so the test does not depend on the kernel it runs on.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <perf/record.h>
#include <perf/kernel.h>
#include "util/kallsyms.h"
#include "util/machine.h"
#include "run-helpers.h"
#include "tests.h"

#define KERNEL_START	0xffffffff81000000ULL
#define MOD_START	0xffffffffc0000000ULL

static const u8 id_kernel[20] = { 0x4b, 1, 2, 3 }, id_other[20] = { 0x0e, 9, 9, 9 };
/* id_other in hex, as perf names it */
#define OTHER_HEX	"0e09090900000000000000000000000000000000"
static const u8 id_foo[20] = { 0xf0, 0x0f }, id_bar[20] = { 0xba, 0xba };

/* an ELF notes blob holding one other note, then the GNU build id note */
static int write_notes(const char *path, const u8 *id)
{
	u8 buf[12 + 8 + 4 + 12 + 4 + 20];
	u32 other[3] = { 6, 4, 0x101 }, gnu[3] = { 4, 20, 3 /* NT_GNU_BUILD_ID */ };

	memcpy(buf, other, 12);
	memcpy(buf + 12, "Linux\0\0\0", 8);
	memset(buf + 20, 0, 4);
	memcpy(buf + 24, gnu, 12);
	memcpy(buf + 36, "GNU", 4);
	memcpy(buf + 40, id, 20);
	return test_write_file(path, buf, sizeof(buf));
}

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 T kfunc\n"
	"ffffffffc0000010 t foo_fn\t[foo]\n"
	"ffffffffc0100010 t bar_fn\t[bar]\n"
	"ffffffffc0200010 t baz_fn\t[baz]\n";

/*
 * A machine with the kernel (build id kid) and modules foo, bar (recorded under their .ko
 * paths with build ids, as the header files them) and baz (no build id); NULL name: none.
 */
static int machine__setup(struct machine *m, const struct symbol_conf *conf, const u8 *kid)
{
	static const struct {
		const char	*path;
		u64		start;
		const u8	*id;
	} mods[] = {
		{ "/lib/modules/x/foo.ko", MOD_START, id_foo },
		{ "/lib/modules/x/bar.ko", MOD_START + 0x100000, id_other },
		{ "/lib/modules/x/baz.ko", MOD_START + 0x200000, NULL },
	};
	struct dso *d;

	if (machine__init(m, conf))
		return -ENOMEM;
	d = dsos__findnew(&m->dsos, "[kernel.kallsyms]", DSO_KIND_KERNEL);
	if (!d)
		return -ENOMEM;
	dso__set_build_id(d, kid, 20);
	for (size_t i = 0; i < ARRAY_SIZE(mods); i++) {
		if (mods[i].id) {
			d = dsos__findnew(&m->dsos, mods[i].path, DSO_KIND_USER);
			if (!d)
				return -ENOMEM;
			dso__set_build_id(d, mods[i].id, 20);
		}
		if (test_machine_mmap(m, PERF_RECORD_MISC_KERNEL, (u32)-1, mods[i].start, 0x1000,
				      mods[i].start, mods[i].path))
			return -ENOMEM;
	}
	return test_machine_mmap(m, PERF_RECORD_MISC_KERNEL, (u32)-1, KERNEL_START, 0x1000,
				 KERNEL_START, "[kernel.kallsyms]_text");
}

static const char *sym_at(struct machine *m, u64 addr)
{
	struct addr_location al;

	machine__resolve(m, NULL, PERF_RECORD_MISC_KERNEL, addr, &al);
	return al.sym ? al.sym->name : "";
}

DEFINE_SUITE(kernel_buildid)
{
	char root[4096], path[8400], cache[4200];
	struct symbol_conf conf = { .symfs = "" };
	struct machine m;
	int ret = TEST_FAIL;

	snprintf(root, sizeof(root), "%s/running", env->tmpdir);
	snprintf(cache, sizeof(cache), "%s/cache", env->tmpdir);
	conf.running_root = root;
	conf.buildid_dir = cache;
	{
		static const char *const dirs[] = {
			"", "/proc", "/sys", "/sys/kernel", "/sys/module", "/sys/module/foo",
			"/sys/module/foo/notes", "/sys/module/bar", "/sys/module/bar/notes",
		};

		for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
			snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
			TEST_ASSERT(env, !mkdir(path, 0755), "mkdir %s: %s", path, strerror(errno));
		}
	}
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	TEST_ASSERT(env, !test_write_file(path, kallsyms_text, strlen(kallsyms_text)), "write %s", path);
	snprintf(path, sizeof(path), "%s/sys/kernel/notes", root);
	TEST_ASSERT(env, !write_notes(path, id_kernel), "write %s", path);
	snprintf(path, sizeof(path), "%s/sys/module/foo/notes/.note.gnu.build-id", root);
	TEST_ASSERT(env, !write_notes(path, id_foo), "write %s", path);
	snprintf(path, sizeof(path), "%s/sys/module/bar/notes/.note.gnu.build-id", root);
	TEST_ASSERT(env, !write_notes(path, id_bar), "write %s", path);

	/* the running kernel: its kallsyms, modules only where the loaded one is the recorded */
	TEST_ASSERT(env, !machine__setup(&m, &conf, id_kernel), "machine setup");
	if (strcmp(sym_at(&m, KERNEL_START + 0x104), "kfunc") ||
	    strcmp(sym_at(&m, MOD_START + 0x14), "foo_fn") ||
	    strcmp(sym_at(&m, MOD_START + 0x200014), "baz_fn") ||
	    strcmp(sym_at(&m, MOD_START + 0x100014), "") || m.kernel_warning[0]) {
		if (env->verbose)
			fprintf(stderr, "running kernel: kfunc '%s', foo '%s', baz '%s', "
				"bar '%s' (want none), warning '%s'\n",
				sym_at(&m, KERNEL_START + 0x104), sym_at(&m, MOD_START + 0x14),
				sym_at(&m, MOD_START + 0x200014), sym_at(&m, MOD_START + 0x100014),
				m.kernel_warning);
		goto out;
	}
	machine__exit(&m);

	/* another kernel, nothing cached: no names, and perf's words */
	TEST_ASSERT(env, !machine__setup(&m, &conf, id_other), "machine setup");
	if (strcmp(sym_at(&m, KERNEL_START + 0x104), "") || strcmp(sym_at(&m, MOD_START + 0x14), "") ||
	    strcmp(m.kernel_warning, "No kallsyms or vmlinux with build-id " OTHER_HEX " was found")) {
		if (env->verbose)
			fprintf(stderr, "foreign kernel: kfunc '%s', foo '%s', warning '%s'\n",
				sym_at(&m, KERNEL_START + 0x104), sym_at(&m, MOD_START + 0x14),
				m.kernel_warning);
		goto out;
	}
	machine__exit(&m);

	/* another kernel whose kallsyms perf record cached: all of it, modules included */
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]", cache);
	TEST_ASSERT(env, !mkdir(cache, 0755) && !mkdir(path, 0755), "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s", cache, OTHER_HEX);
	TEST_ASSERT(env, !mkdir(path, 0755), "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", cache, OTHER_HEX);
	TEST_ASSERT(env, !test_write_file(path, kallsyms_text, strlen(kallsyms_text)), "write %s", path);
	TEST_ASSERT(env, !machine__setup(&m, &conf, id_other), "machine setup");
	if (strcmp(sym_at(&m, KERNEL_START + 0x104), "kfunc") ||
	    strcmp(sym_at(&m, MOD_START + 0x100014), "bar_fn") || m.kernel_warning[0]) {
		if (env->verbose)
			fprintf(stderr, "cached kernel: kfunc '%s', bar '%s', warning '%s'\n",
				sym_at(&m, KERNEL_START + 0x104), sym_at(&m, MOD_START + 0x100014),
				m.kernel_warning);
		goto out;
	}
	machine__exit(&m);

	/* an explicit kallsyms is trusted, whatever the build ids */
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	conf.kallsyms = path;
	conf.buildid_dir = env->tmpdir;
	TEST_ASSERT(env, !machine__setup(&m, &conf, id_other), "machine setup");
	if (strcmp(sym_at(&m, KERNEL_START + 0x104), "kfunc") ||
	    strcmp(sym_at(&m, MOD_START + 0x100014), "bar_fn") || m.kernel_warning[0]) {
		if (env->verbose)
			fprintf(stderr, "--kallsyms: kfunc '%s', bar '%s', warning '%s'\n",
				sym_at(&m, KERNEL_START + 0x104), sym_at(&m, MOD_START + 0x100014),
				m.kernel_warning);
		goto out;
	}
	ret = TEST_OK;
out:
	machine__exit(&m);
	return ret;
}
