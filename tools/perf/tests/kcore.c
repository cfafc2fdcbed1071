// SPDX-License-Identifier: GPL-2.0
/*
 * perf record --kcore's copy (record-kcore.h) of a fake /proc, and the kernel maps the
 * readers make of a kcore beside kallsyms (kcore.h). The machines this is tested on have no
 * /proc/kcore; make vmtest records a real one (scripts/vmtest-guest.sh).
 *
 * The fake /proc/kcore is shaped like a real x86_64 one: the kernel image's segment
 * [_text, _end), the direct map somewhere else (no code the copy wants), and the modules'
 * area, each holding a byte pattern of its own so that the copy's bytes can be checked.
 * What the copy must hold follows upstream's kcore_copy(): [_stext, _etext) and
 * [first module, last module function + a page), pages rounded out.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/kcore.h"
#include "util/machine.h"
#include "util/record-kcore.h"
#include "util/record-output.h"
#include "run-helpers.h"
#include "tests.h"

#define PAGE		0x1000ULL
#define TEXT		0xffffffff81000000ULL	/* _text = _stext */
#define ETEXT		0xffffffff81003800ULL	/* _etext, mid-page: rounded up */
#define IMAGE_END	0xffffffff81010000ULL	/* the image segment's end (init text, data) */
#define INIT_FN		0xffffffff81008000ULL	/* past _etext: init text */
#define DIRECT		0xffff888000000000ULL
#define MODULES		0xffffffffc0000000ULL
#define MOD_FOO		0xffffffffc0002000ULL	/* foo's start (/proc/modules) */
#define MOD_FN		0xffffffffc0002100ULL	/* foo_fn */
#define MOD_LAST	0xffffffffc0004010ULL	/* the last module function */

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T kfunc\n"
	"ffffffff81002000 t kfunc2\n"
	"ffffffff81003800 T _etext\n"
	"ffffffff81008000 T init_fn\n"
	"ffffffff8100c000 D kdata\n"
	"ffffffffc0002100 t foo_fn\t[foo]\n"
	"ffffffffc0004010 t foo_last\t[foo]\n";

static const char modules_text[] = "foo 16384 0 - Live 0xffffffffc0002000\n";

/* the fake kcore's segments: vaddr, size, file offset, fill byte */
static const struct {
	u64	vaddr, len, offset;
	u8	fill;
} segs[] = {
	{ DIRECT,  0x4000,		0x1000,  0xdd },
	{ TEXT,    IMAGE_END - TEXT,	0x10000, 0x7e },
	{ MODULES, 0x8000,		0x30000, 0x3c },
};

static int write_kcore(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_CORE, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = ARRAY_SIZE(segs) + 1,
	};
	/* a note first, as /proc/kcore has: no PT_LOAD, never a map */
	Elf64_Phdr note = { .p_type = PT_NOTE, .p_offset = 0x800, .p_filesz = 0x10 };
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (pwrite(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    pwrite(fd, &note, sizeof(note), sizeof(eh)) != sizeof(note))
		ret = -EIO;
	for (size_t i = 0; !ret && i < ARRAY_SIZE(segs); i++) {
		Elf64_Phdr ph = {
			.p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X, .p_offset = segs[i].offset,
			.p_vaddr = segs[i].vaddr, .p_filesz = segs[i].len, .p_memsz = segs[i].len,
			.p_align = PAGE,
		};
		u8 *fill = malloc(segs[i].len);

		if (!fill) {
			ret = -ENOMEM;
			break;
		}
		/* the pattern says where a byte came from: its segment and its page */
		for (u64 b = 0; b < segs[i].len; b++)
			fill[b] = (u8)(segs[i].fill + b / PAGE);
		if (pwrite(fd, &ph, sizeof(ph), sizeof(eh) + (i + 1) * sizeof(ph)) != sizeof(ph) ||
		    pwrite(fd, fill, segs[i].len, (off_t)segs[i].offset) != (ssize_t)segs[i].len)
			ret = -EIO;
		free(fill);
	}
	close(fd);
	return ret;
}

/* the byte the fake kcore holds at addr */
static int kcore_byte(u64 addr)
{
	for (size_t i = 0; i < ARRAY_SIZE(segs); i++)
		if (addr >= segs[i].vaddr && addr < segs[i].vaddr + segs[i].len)
			return (u8)(segs[i].fill + (addr - segs[i].vaddr) / PAGE);
	return -1;
}

static int make_proc(const struct test_env *env, const char *dir, const char *kallsyms)
{
	char path[4400];

	TEST_ASSERT(env, !mkdir(dir, 0755), "mkdir %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	TEST_ASSERT(env, !test_write_file(path, kallsyms, strlen(kallsyms)), "write %s", path);
	snprintf(path, sizeof(path), "%s/modules", dir);
	TEST_ASSERT(env, !test_write_file(path, modules_text, strlen(modules_text)), "write %s", path);
	snprintf(path, sizeof(path), "%s/kcore", dir);
	TEST_ASSERT(env, !write_kcore(path), "write %s", path);
	return TEST_OK;
}

/* the copy: kallsyms and modules as they were, 0400; a kcore of two segments, right bytes */
static int check_copy(const struct test_env *env, const char *proc, const char *kdir)
{
	static const struct {
		u64	start, end;
	} want[] = {
		{ TEXT, ETEXT + PAGE - (ETEXT & (PAGE - 1)) },
		{ MOD_FOO, MOD_LAST - (MOD_LAST & (PAGE - 1)) + 2 * PAGE },
	};
	char path[4400], *copy, *orig, *kc;
	size_t len, olen, kclen;
	Elf64_Ehdr eh;
	struct stat st;

	for (int f = 0; f < 2; f++) {
		const char *name = f ? "modules" : "kallsyms";

		snprintf(path, sizeof(path), "%s/%s", kdir, name);
		TEST_ASSERT(env, !stat(path, &st) && (st.st_mode & 0777) == 0400,
			    "%s: mode %o, not 0400", path, st.st_mode & 0777);
		TEST_ASSERT(env, !test_read_file(path, &copy, &len), "read %s", path);
		snprintf(path, sizeof(path), "%s/%s", proc, name);
		TEST_ASSERT(env, !test_read_file(path, &orig, &olen), "read %s", path);
		TEST_ASSERT(env, len == olen && !memcmp(copy, orig, len), "%s differs from its copy", name);
		free(copy);
		free(orig);
	}
	snprintf(path, sizeof(path), "%s/kcore", kdir);
	TEST_ASSERT(env, !test_read_file(path, &kc, &kclen), "read %s", path);
	TEST_ASSERT(env, kclen >= sizeof(eh), "%s: %zu bytes", path, kclen);
	memcpy(&eh, kc, sizeof(eh));
	TEST_ASSERT(env, !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_type == ET_CORE &&
		    eh.e_machine == EM_X86_64 && eh.e_phoff == sizeof(eh) &&
		    eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum == ARRAY_SIZE(want) &&
		    !eh.e_shnum, "copy's ELF header: type %u machine %u phnum %u", eh.e_type,
		    eh.e_machine, eh.e_phnum);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		Elf64_Phdr ph;

		memcpy(&ph, kc + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		TEST_ASSERT(env, ph.p_type == PT_LOAD && ph.p_vaddr == want[i].start &&
			    ph.p_filesz == want[i].end - want[i].start && ph.p_memsz == ph.p_filesz &&
			    !(ph.p_offset & (PAGE - 1)) && ph.p_offset + ph.p_filesz <= kclen,
			    "segment %zu: [%#llx, +%#llx) at %#llx, want [%#llx, %#llx)", i,
			    (unsigned long long)ph.p_vaddr, (unsigned long long)ph.p_filesz,
			    (unsigned long long)ph.p_offset, (unsigned long long)want[i].start,
			    (unsigned long long)want[i].end);
		for (u64 a = ph.p_vaddr; a < ph.p_vaddr + ph.p_filesz; a += 0x100)
			TEST_ASSERT(env, (u8)kc[ph.p_offset + (a - ph.p_vaddr)] == kcore_byte(a),
				    "the copy's byte at %#llx is %#x, kcore's %#x",
				    (unsigned long long)a, (u8)kc[ph.p_offset + (a - ph.p_vaddr)],
				    kcore_byte(a));
	}
	free(kc);
	return TEST_OK;
}

/* a recording of the fake kernel: its map [_text, _end), the module foo's */
static int machine__setup(struct machine *m, const struct symbol_conf *conf)
{
	if (machine__init(m, conf))
		return -ENOMEM;
	if (test_machine_mmap(m, PERF_RECORD_MISC_KERNEL, (u32)-1, MOD_FOO, 0x4000, MOD_FOO, "[foo]"))
		return -ENOMEM;
	return test_machine_mmap(m, PERF_RECORD_MISC_KERNEL, (u32)-1, TEXT, IMAGE_END - TEXT, TEXT,
				 "[kernel.kallsyms]_text");
}

/* "sym dso" at addr, "- -" for no map, "- dso" for no symbol */
static const char *at(struct machine *m, u64 addr, char *buf, size_t size)
{
	struct addr_location al;

	machine__resolve(m, NULL, PERF_RECORD_MISC_KERNEL, addr, &al);
	snprintf(buf, size, "%s %s", al.sym ? al.sym->name : "-",
		 al.map && al.map->dso ? al.map->dso->short_name : "-");
	return buf;
}

#define AT(m, addr) at(m, addr, buf, sizeof(buf))

DEFINE_SUITE(kcore)
{
	char proc[4096], out[4096], kdir[4200], path[4400], ks[4400], src[4400], buf[128];
	struct symbol_conf conf = { .symfs = "" };
	struct perf_err err;
	struct machine m;
	struct stat st;
	int ret;

	/* the copy, as perf record --kcore makes it */
	snprintf(proc, sizeof(proc), "%s/proc", env->tmpdir);
	snprintf(out, sizeof(out), "%s/perf.data", env->tmpdir);
	snprintf(kdir, sizeof(kdir), "%s/kcore_dir", out);
	ret = make_proc(env, proc, kallsyms_text);
	if (ret)
		return ret;
	TEST_ASSERT(env, !record_kcore__readable(proc), "%s/kcore not readable", proc);
	TEST_ASSERT(env, !record_kcore__mkdir(out, proc, &err), "copy: %s", err.msg);
	ret = check_copy(env, proc, kdir);
	if (ret)
		return ret;

	/*
	 * the readers: the kcore makes the kernel's maps, modules' functions are the kernel's,
	 * the init text past _etext has no map
	 */
	snprintf(ks, sizeof(ks), "%s/kallsyms", kdir);
	conf.kallsyms = ks;
	TEST_ASSERT(env, !machine__setup(&m, &conf), "machine setup");
	TEST_ASSERT(env, !strcmp(AT(&m, 0xffffffff81000104ULL), "kfunc [kernel.kallsyms]"),
		    "kfunc+4: %s", buf);
	snprintf(path, sizeof(path), "%s/kcore", kdir);
	TEST_ASSERT(env, m.kernel_dso->kcore_path && !strcmp(m.kernel_dso->kcore_path, path),
		    "the kernel's kcore: %s", m.kernel_dso->kcore_path);
	TEST_ASSERT(env, !strcmp(AT(&m, 0xffffffff81002010ULL), "kfunc2 [kernel.kallsyms]"),
		    "kfunc2+0x10: %s", buf);
	TEST_ASSERT(env, !strcmp(AT(&m, MOD_FN + 8), "foo_fn [kernel.kallsyms]"),
		    "foo_fn+8: %s", buf);
	TEST_ASSERT(env, !strcmp(AT(&m, INIT_FN + 8), "- -"), "init_fn+8: %s", buf);
	machine__exit(&m);

	/* a module somewhere else than the modules copy says: the kallsyms maps, as perf */
	snprintf(path, sizeof(path), "%s/kcore_dir", env->tmpdir);
	TEST_ASSERT(env, !mkdir(path, 0755), "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/kcore_dir/modules", env->tmpdir);
	TEST_ASSERT(env, !test_write_file(path, "foo 16384 0 - Live 0xffffffffc0001000\n", 39),
		    "write %s", path);
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", env->tmpdir);
	TEST_ASSERT(env, !test_write_file(path, kallsyms_text, strlen(kallsyms_text)), "write %s",
		    path);
	snprintf(src, sizeof(src), "%s/kcore", kdir);
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", env->tmpdir);
	TEST_ASSERT(env, !link(src, path), "link %s: %s", path, strerror(errno));
	snprintf(ks, sizeof(ks), "%s/kcore_dir/kallsyms", env->tmpdir);
	TEST_ASSERT(env, !machine__setup(&m, &conf), "machine setup");
	TEST_ASSERT(env, !strcmp(AT(&m, MOD_FN + 8), "foo_fn [foo]"), "moved foo_fn+8: %s", buf);
	TEST_ASSERT(env, !strcmp(AT(&m, INIT_FN + 8), "init_fn [kernel.kallsyms]"),
		    "moved init_fn+8: %s", buf);
	TEST_ASSERT(env, !m.kernel_dso->kcore_path, "a kcore that does not fit was taken");
	machine__exit(&m);

	/* a kcore that is no ELF core (the modules fit this time): the kallsyms maps too */
	snprintf(path, sizeof(path), "%s/kcore_dir/modules", env->tmpdir);
	TEST_ASSERT(env, !test_write_file(path, modules_text, strlen(modules_text)), "write %s",
		    path);
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", env->tmpdir);
	TEST_ASSERT(env, !unlink(path) && !test_write_file(path, "\177ELF garbage", 12),
		    "write %s", path);
	TEST_ASSERT(env, !machine__setup(&m, &conf), "machine setup");
	TEST_ASSERT(env, !strcmp(AT(&m, MOD_FN + 8), "foo_fn [foo]"), "garbage: foo_fn+8: %s", buf);
	TEST_ASSERT(env, !m.kernel_dso->kcore_path, "a kcore that is no ELF core was taken");
	machine__exit(&m);

	/* no kcore to copy: an error, and nothing of the output left */
	snprintf(proc, sizeof(proc), "%s/nokcore", env->tmpdir);
	TEST_ASSERT(env, !make_proc(env, proc, kallsyms_text), "fake proc");
	snprintf(path, sizeof(path), "%s/kcore", proc);
	TEST_ASSERT(env, !unlink(path), "unlink %s", path);
	TEST_ASSERT(env, record_kcore__readable(proc) == -ENOENT, "a missing kcore is readable");
	snprintf(out, sizeof(out), "%s/failed.data", env->tmpdir);
	TEST_ASSERT(env, record_kcore__mkdir(out, proc, &err) == -ENOENT && strstr(err.msg, "kcore"),
		    "no kcore: '%s'", err.msg);
	TEST_ASSERT(env, stat(out, &st) && errno == ENOENT, "%s left behind", out);

	/* kallsyms with hidden addresses (kptr_restrict): refused, nothing left */
	snprintf(proc, sizeof(proc), "%s/hidden", env->tmpdir);
	TEST_ASSERT(env, !make_proc(env, proc,
				    "0000000000000000 T _text\n0000000000000000 T _stext\n"),
		    "fake proc");
	TEST_ASSERT(env, record_kcore__mkdir(out, proc, &err) == -EINVAL &&
		    strstr(err.msg, "kptr_restrict"), "hidden kallsyms: '%s'", err.msg);
	TEST_ASSERT(env, stat(out, &st) && errno == ENOENT, "%s left behind", out);

	/* the backup rule over a perf.data directory, and what it refuses to remove */
	snprintf(out, sizeof(out), "%s/perf.data", env->tmpdir);
	TEST_ASSERT(env, !record_output__backup(out, &err), "backup: %s", err.msg);
	snprintf(path, sizeof(path), "%s/perf.data.old/kcore_dir/kcore", env->tmpdir);
	TEST_ASSERT(env, !stat(path, &st) && stat(out, &st), "perf.data is not perf.data.old");
	TEST_ASSERT(env, !test_write_file(out, "x", 1), "write %s", out);
	TEST_ASSERT(env, !record_output__backup(out, &err), "backup: %s", err.msg);
	snprintf(path, sizeof(path), "%s/perf.data.old", env->tmpdir);
	TEST_ASSERT(env, !stat(path, &st) && S_ISREG(st.st_mode),
		    "the file did not replace the old directory");
	snprintf(path, sizeof(path), "%s/proc", env->tmpdir);
	TEST_ASSERT(env, record_output__remove(path, &err) == -ENOTEMPTY &&
		    strstr(err.msg, "which perf record does not write"), "removed %s: '%s'", path,
		    err.msg);
	snprintf(path, sizeof(path), "%s/proc/kcore", env->tmpdir);
	TEST_ASSERT(env, !stat(path, &st), "%s went", path);
	return TEST_OK;
}
