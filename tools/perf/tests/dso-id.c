// SPDX-License-Identifier: GPL-2.0
/*
 * dso-id.c - one path, two files: a chroot's or a container's libc and the host's share a
 * path, not an inode or a build id. The dsos table keys on the path and the MMAP2's id (device,
 * inode and generation, or the build id), as upstream's dso_id does, so that each mapping
 * resolves in its own file.
 *
 * dsos_id: the table's answers to MMAP2 records of one path (machine__process_mmap()).
 * dso_id_files: a file made here, with two processes mapping one path with two build ids,
 * the symfs holding one library at the path and the other by build id (where a debug file
 * would be): each process's sample names its own library's function. A table of one dso per
 * path names the same function twice. With upstream perf 7.2 at hand, script and report
 * equal its.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/record.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include "util/dso.h"
#include "util/machine.h"
#include "util/map.h"
#include "run-helpers.h"
#include "tests.h"
#include "util/thread.h"

#define LIB_PATH	"/usr/lib/libdsoid.so"

/*
 * An MMAP2 of LIB_PATH for pid at start: with bid, its build id; else the device and inode
 * form (maj:1, ino, gen), with the build-id bit when stray (as the kernel leaks it, see
 * lib/perf/record.h)
 */
static int mmap2_of(struct machine *m, u32 pid, u64 start, const u8 *bid, u32 maj, u64 ino,
		    u64 gen, bool stray)
{
	union {
		struct perf_record_mmap2	rec;
		char				buf[sizeof(struct perf_record_mmap2) + 64];
	} u;

	memset(&u, 0, sizeof(u));
	u.rec.header.type = PERF_RECORD_MMAP2;
	u.rec.header.misc = PERF_RECORD_MISC_USER;
	u.rec.header.size = sizeof(u);
	u.rec.pid = u.rec.tid = pid;
	u.rec.start = start;
	u.rec.len = 0x1000;
	u.rec.prot = 5;		/* PROT_READ | PROT_EXEC */
	if (bid || stray)
		u.rec.header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (bid) {
		u.rec.build_id_size = 20;
		memcpy(u.rec.build_id, bid, 20);
	} else {
		u.rec.maj = maj;
		u.rec.min = 1;
		u.rec.ino = ino;
		u.rec.ino_generation = gen;
	}
	snprintf(u.rec.filename, 64, "%s", LIB_PATH);
	return machine__process_mmap(m, &u.rec.header, 0);
}

/* bid NULL: the inode form of an sd disk (maj 8) */
static int mmap2(struct machine *m, u32 pid, u64 start, u64 ino, u64 gen, const u8 *bid)
{
	return mmap2_of(m, pid, start, bid, 8, ino, gen, false);
}

static int mmap2_stray(struct machine *m, u32 pid, u64 start, u32 maj, u64 ino)
{
	return mmap2_of(m, pid, start, NULL, maj, ino, 1, true);
}

static struct dso *dso_at(struct machine *m, u32 pid, u64 addr)
{
	struct thread *t = machine__find_thread(m, (s32)pid);
	struct map *map = t ? maps__find(t->maps, addr) : NULL;

	return map ? map->dso : NULL;
}

DEFINE_SUITE(dsos_id)
{
	static const u8 bid_a[20] = { 0xaa, 1 }, bid_b[20] = { 0xbb, 2 };
	struct symbol_conf conf = { .symfs = "" };
	struct machine m;
	struct dso *d[8];

	TEST_ASSERT(env, !machine__init(&m, &conf), "machine__init");
	/* inodes: two files, then the first again in a third process */
	TEST_ASSERT(env, !mmap2(&m, 1, 0x10000, 11, 1, NULL), "mmap2");
	TEST_ASSERT(env, !mmap2(&m, 2, 0x10000, 22, 1, NULL), "mmap2");
	TEST_ASSERT(env, !mmap2(&m, 3, 0x10000, 11, 1, NULL), "mmap2");
	/* the inode's generation counts too: a file deleted and its inode reused */
	TEST_ASSERT(env, !mmap2(&m, 4, 0x10000, 11, 2, NULL), "mmap2");
	for (u32 pid = 1; pid <= 4; pid++)
		d[pid] = dso_at(&m, pid, 0x10000);
	TEST_ASSERT(env, d[1] && d[2] && d[3] && d[4], "a map without a dso");
	TEST_ASSERT(env, d[1] != d[2], "two inodes of one path made one dso");
	TEST_ASSERT(env, d[1] == d[3], "one inode made two dsos");
	TEST_ASSERT(env, d[1] != d[4], "two inode generations made one dso");
	TEST_ASSERT(env, dsos__find(&m.dsos, LIB_PATH) == d[1], "a lookup by name is not the first dso");
	/*
	 * the kernel's stray build-id bit over a device and inode (a device-mapper major, 254:
	 * a "size" over 20; nvme's 259: reserved bytes set): the inode's dso, no build id
	 */
	TEST_ASSERT(env, !mmap2_stray(&m, 5, 0x10000, 254, 11), "mmap2");
	TEST_ASSERT(env, !mmap2_stray(&m, 6, 0x10000, 259, 11), "mmap2");
	TEST_ASSERT(env, !mmap2_stray(&m, 7, 0x10000, 254, 11), "mmap2");
	for (u32 pid = 5; pid <= 7; pid++)
		d[pid] = dso_at(&m, pid, 0x10000);
	TEST_ASSERT(env, d[5] && d[6] && d[7], "a map without a dso");
	TEST_ASSERT(env, !d[5]->has_build_id && !d[6]->has_build_id,
		    "a device and inode taken for a build id");
	TEST_ASSERT(env, d[5] == d[7] && d[5] != d[6] && d[5] != d[1],
		    "stray-bit records not keyed on their device and inode");
	machine__exit(&m);

	/* build ids, and a dso that learns its build id from the first record that has one */
	TEST_ASSERT(env, !machine__init(&m, &conf), "machine__init");
	TEST_ASSERT(env, dsos__findnew(&m.dsos, LIB_PATH, DSO_KIND_USER), "findnew");
	TEST_ASSERT(env, !mmap2(&m, 1, 0x10000, 0, 0, bid_a), "mmap2");
	TEST_ASSERT(env, !mmap2(&m, 2, 0x10000, 0, 0, bid_b), "mmap2");
	TEST_ASSERT(env, !mmap2(&m, 3, 0x10000, 0, 0, bid_a), "mmap2");
	for (u32 pid = 1; pid <= 3; pid++)
		d[pid] = dso_at(&m, pid, 0x10000);
	TEST_ASSERT(env, d[1] && d[2] && d[3], "a map without a dso");
	TEST_ASSERT(env, d[1] == dsos__find(&m.dsos, LIB_PATH), "the header's dso was not taken");
	TEST_ASSERT(env, d[1]->has_build_id && !memcmp(d[1]->build_id, bid_a, 20),
		    "the dso did not learn its build id");
	TEST_ASSERT(env, d[1] != d[2], "two build ids of one path made one dso");
	TEST_ASSERT(env, d[2]->has_build_id && !memcmp(d[2]->build_id, bid_b, 20),
		    "the second dso has not its own build id");
	TEST_ASSERT(env, d[1] == d[3], "one build id made two dsos");
	/* an MMAP (no id) matches any file of its path */
	TEST_ASSERT(env, !test_machine_mmap(&m, PERF_RECORD_MISC_USER, 5, 0x10000, 0x1000, 0, LIB_PATH),
		    "mmap");
	TEST_ASSERT(env, dso_at(&m, 5, 0x10000) == d[1], "an MMAP without id made a dso");
	machine__exit(&m);
	return TEST_OK;
}

/* ---- a file of two processes mapping two libraries at one path ---- */

#define BID_HOST	"1111111111111111111111111111111111111111"
#define BID_GUEST	"2222222222222222222222222222222222222222"

static const char lib_c[] =
	"int FN(int x)\n"
	"{\n"
	"	return x * 3 + 1;\n"
	"}\n";

/* the host's library at the path, the guest's where a debug file of its build id goes */
static int build_libs(const struct test_env *env, const char *fs)
{
	char src[4200];

	snprintf(src, sizeof(src), "%s/lib.c", env->tmpdir);
	if (test_write_file(src, lib_c, sizeof(lib_c) - 1))
		return -1;
	return test_run_shell(env,
		"mkdir -p '%s/usr/lib' '%s/usr/lib/debug/.build-id/22' && cd '%s' && "
		"gcc -O2 -fPIC -shared -nostdlib -DFN=host_fn -Wl,--build-id=0x%s -o '%s%s' lib.c && "
		"gcc -O2 -fPIC -shared -nostdlib -DFN=guest_fn -Wl,--build-id=0x%s "
		"-o '%s/usr/lib/debug/.build-id/22/%s.debug' lib.c",
		fs, fs, env->tmpdir, BID_HOST, fs, LIB_PATH, BID_GUEST, fs, BID_GUEST + 2);
}

/* the file offset of the function the library at path defines (its only one) */
static int fn_offset(const char *path, const char *name, u64 *off)
{
	struct symbol_conf conf = { .symfs = "" };
	struct dso *dso = dso__new(path, DSO_KIND_USER);
	int ret = -1;

	if (!dso)
		return -1;
	dso__load(dso, &conf);
	for (size_t i = 0; i < dso->symbols.nr; i++) {
		const struct symbol *sym = &dso->symbols.syms[i];

		if (sym->name && !strcmp(sym->name, name)) {
			*off = dso__vaddr_to_offset(dso, sym->start);
			ret = 0;
		}
	}
	dso__put(dso);
	return ret;
}

static int hex_id(const char *hex, u8 *id)
{
	for (int i = 0; i < 20; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &id[i]) != 1)
			return -1;
	return 0;
}

struct proc {
	u32		pid;
	const char	*comm, *bid;	/* bid NULL: a device and inode with the stray build-id bit */
	u64		start, ip_off;
};

/*
 * The header's build-id table as perf record writes it (both entries of the path, in the
 * order given; none when order is NULL), then for each process its COMM, its MMAP2 and one
 * sample.
 */
static int write_file(const char *path, const struct proc *procs, size_t nr, const char *const *order,
		      struct perf_err *err)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = 0,	/* cpu-clock */
		.sample_period = 4000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD,
		.flags = PERF_ATTR_FLAG(SAMPLE_ID_ALL) | PERF_ATTR_FLAG(MMAP) | PERF_ATTR_FLAG(COMM) |
			 PERF_ATTR_FLAG(MMAP2) | PERF_ATTR_FLAG(BUILD_ID),
	};
	struct perf_writer *w = perf_writer__new(path, NULL, err);
	u64 buf[128], time = 1000000;
	int ret, size;

	if (!w)
		return -1;
	ret = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock", err) < 0 ? -1 : 0;
	for (size_t i = 0; order && i < 2 && !ret; i++) {
		u8 id[20];

		ret = hex_id(order[i], id) ? perf_err__set(err, EINVAL, "bad build id") :
		      perf_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, id, 20, LIB_PATH, err);
	}
	for (size_t i = 0; i < nr && !ret; i++) {
		struct perf_sample s = { .pid = procs[i].pid, .tid = procs[i].pid, .time = time++ };
		struct perf_record_mmap2 m = {
			.header.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID,
			.pid = procs[i].pid, .tid = procs[i].pid,
			.start = procs[i].start, .len = 0x10000, .build_id_size = 20,
			.prot = 5, .flags = 2,	/* PROT_READ|PROT_EXEC, MAP_PRIVATE */
		};

		size = perf_record_comm__synthesize(buf, sizeof(buf), &attr, &s, procs[i].comm, false);
		ret = size < 0 ? perf_err__set(err, -size, "comm") : perf_writer__write(w, (void *)buf, err);
		if (ret)
			break;
		if (!procs[i].bid) {
			/* dm's major, 254, in the byte where a build id's size goes */
			m.maj = 254;
			m.min = 1;
			m.ino = 42;
			m.ino_generation = 1;
		} else if (hex_id(procs[i].bid, m.build_id)) {
			break;
		}
		s.time = time++;
		size = perf_record_mmap2__synthesize(buf, sizeof(buf), &attr, &s, &m, LIB_PATH);
		ret = size < 0 ? perf_err__set(err, -size, "mmap2") : perf_writer__write(w, (void *)buf, err);
		if (ret)
			break;
		s.time = time++;
		s.misc = PERF_RECORD_MISC_USER;
		s.ip = procs[i].start + procs[i].ip_off;
		s.period = 4000;
		size = perf_sample__synthesize(&attr, &s, false, buf, sizeof(buf), NULL);
		ret = size < 0 ? perf_err__set(err, -size, "sample") : perf_writer__write(w, (void *)buf, err);
	}
	if (!ret)
		ret = perf_writer__finish(w, err);
	perf_writer__delete(w);
	return ret;
}

static char *run(const struct test_env *env, const char *const *argv, const char *out)
{
	char *text = NULL;
	size_t len;

	if (test_run_argv(argv, out, NULL) != 0 || test_read_file(out, &text, &len))
		return NULL;
	/* report's random tip: not the output */
	for (char *tip = strstr(text, "# (Tip:"); tip; tip = strstr(tip, "# (Tip:")) {
		char *eol = strchr(tip, '\n');

		memmove(tip, eol ? eol + 1 : tip + strlen(tip), strlen(eol ? eol + 1 : tip) + 1);
	}
	(void)env;
	return text;
}

DEFINE_SUITE(dso_id_files)
{
	static const char *const modes[][5] = {
		{ "script", "--no-inline", NULL },
		{ "report", "--stdio", "--no-children", "--sort=comm,dso,sym", NULL },
		{ "report", "--stdio", "--no-children", "--sort=dso", NULL },
	};
	static const char *const orders[2][2] = { { BID_HOST, BID_GUEST }, { BID_GUEST, BID_HOST } };
	char fs[4200], file[4200], upstream[4200], out[4300], hostlib[4300], guestlib[4300];
	struct proc procs[] = {
		{ .pid = 100, .comm = "hostproc", .bid = BID_HOST, .start = 0x7f0000000000 },
		{ .pid = 200, .comm = "guestproc", .bid = BID_GUEST, .start = 0x7f1000000000 },
	};
	u64 host_off, guest_off;
	bool have_upstream;
	size_t compared = 0, nr_cases = 0;
	struct perf_err err;

	if (!test_have_tool("gcc"))
		return test__skip(env, "gcc is needed to build the two libraries");
	snprintf(fs, sizeof(fs), "%s/fs", env->tmpdir);
	TEST_ASSERT(env, !build_libs(env, fs), "gcc failed");
	snprintf(hostlib, sizeof(hostlib), "%s%s", fs, LIB_PATH);
	snprintf(guestlib, sizeof(guestlib), "%s/usr/lib/debug/.build-id/22/%s.debug", fs, BID_GUEST + 2);
	TEST_ASSERT(env, !fn_offset(hostlib, "host_fn", &host_off), "no host_fn in %s", hostlib);
	TEST_ASSERT(env, !fn_offset(guestlib, "guest_fn", &guest_off), "no guest_fn in %s", guestlib);
	procs[0].ip_off = host_off + 1;
	procs[1].ip_off = guest_off + 1;
	have_upstream = test_upstream_perf(env, upstream, sizeof(upstream));

	for (size_t o = 0; o < 2; o++) {
		snprintf(file, sizeof(file), "%s/two-libs-%zu.data", env->tmpdir, o);
		TEST_ASSERT(env, !write_file(file, procs, 2, orders[o], &err), "writing %s: %s", file, err.msg);
		for (size_t c = 0; c < sizeof(modes) / sizeof(modes[0]); c++) {
			const char *argv[12] = { env->perf };
			size_t n = 1;
			char *ours, *theirs;

			for (size_t k = 0; modes[c][k]; k++)
				argv[n++] = modes[c][k];
			argv[n++] = "--symfs";
			argv[n++] = fs;
			argv[n++] = "-i";
			argv[n++] = file;
			snprintf(out, sizeof(out), "%s/%zu-%zu.ours", env->tmpdir, o, c);
			ours = run(env, argv, out);
			TEST_ASSERT(env, ours, "perf %s failed on %s", modes[c][0], file);
			if (env->verbose)
				fprintf(stderr, "order %zu, perf %s %s:\n%s", o, modes[c][0], modes[c][1], ours);
			if (c < 2) {
				/* each process in its own library */
				bool ok = strstr(ours, "host_fn") && strstr(ours, "guest_fn");

				if (!ok)
					free(ours);
				TEST_ASSERT(env, ok, "order %zu, perf %s: a process resolved in the other's "
					    "library (-v shows the output)", o, modes[c][0]);
			} else {
				/* --sort dso: one line for the path, as upstream merges by name */
				char *first = strstr(ours, "libdsoid.so");
				bool ok = first && !strstr(first + 1, "libdsoid.so");

				if (!ok)
					free(ours);
				TEST_ASSERT(env, ok, "order %zu: --sort dso did not merge the path's two dsos", o);
			}
			nr_cases++;
			if (!have_upstream) {
				free(ours);
				continue;
			}
			argv[0] = upstream;
			snprintf(out, sizeof(out), "%s/%zu-%zu.upstream", env->tmpdir, o, c);
			theirs = run(env, argv, out);
			if (theirs) {
				bool same = !strcmp(ours, theirs);

				if (!same)
					fprintf(stderr, "order %zu, perf %s %s: ours\n%s\nupstream\n%s", o,
						modes[c][0], modes[c][1], ours, theirs);
				free(theirs);
				free(ours);
				TEST_ASSERT(env, same, "order %zu, perf %s differs from upstream 7.2", o,
					    modes[c][0]);
				compared++;
				continue;
			}
			free(ours);
		}
	}
	if (!have_upstream)
		return test__partial(env, "0 of %zu cases compared with upstream: %s", nr_cases,
				     TEST_NO_UPSTREAM_PERF);
	if (compared < nr_cases)
		return test__partial(env, "%zu of %zu cases: upstream perf 7.2 failed on the others",
				     compared, nr_cases);
	return TEST_OK;
}

/* ---- the kernel's stray build-id bit in a file ---- */

DEFINE_SUITE(dso_id_stray_bit)
{
	char fs[4200], file[4200], out[4300], errpath[4300], hostlib[4300], want[128];
	struct proc proc = { .pid = 100, .comm = "hostproc", .start = 0x7f0000000000 };
	const char *argv[] = { env->perf, "script", "--no-inline", "--symfs", fs, "-i", file,
			       NULL };
	const char *dump[] = { env->perf, "script", "-D", "-i", file, NULL };
	char *text = NULL, *err = NULL, *d = NULL, *mm;
	size_t len;
	u64 off;
	struct perf_err perr;
	int ret = TEST_FAIL;

	if (!test_have_tool("gcc"))
		return test__skip(env, "gcc is needed to build the library");
	snprintf(fs, sizeof(fs), "%s/fs", env->tmpdir);
	TEST_ASSERT(env, !build_libs(env, fs), "gcc failed");
	snprintf(hostlib, sizeof(hostlib), "%s%s", fs, LIB_PATH);
	TEST_ASSERT(env, !fn_offset(hostlib, "host_fn", &off), "no host_fn in %s", hostlib);
	proc.ip_off = off + 1;
	snprintf(file, sizeof(file), "%s/stray.data", env->tmpdir);
	TEST_ASSERT(env, !write_file(file, &proc, 1, NULL, &perr), "writing %s: %s", file, perr.msg);

	/* where the MMAP2 is, as -D says */
	snprintf(out, sizeof(out), "%s/dump", env->tmpdir);
	TEST_ASSERT(env, test_run_argv(dump, out, NULL) == 0 && !test_read_file(out, &d, &len),
		    "perf script -D failed");
	mm = strstr(d, " PERF_RECORD_MMAP2 ");
	while (mm && mm > d && mm[-1] != '\n')
		mm--;
	if (!mm || sscanf(mm, "%*u %" SCNx64, &off) != 1) {
		if (env->verbose)
			fprintf(stderr, "no MMAP2 in -D:\n%s", d);
		goto out;
	}
	snprintf(want, sizeof(want), "Warning: 1 MMAP2 records (the first at offset %#" PRIx64 ") have the build-id bit over a device and inode", off);

	snprintf(out, sizeof(out), "%s/script", env->tmpdir);
	snprintf(errpath, sizeof(errpath), "%s/script.err", env->tmpdir);
	if (test_run_argv(argv, out, errpath) != 0 || test_read_file(out, &text, &len) ||
	    test_read_file(errpath, &err, &len)) {
		if (env->verbose)
			fprintf(stderr, "perf script failed: %s\n", err ? err : "");
		goto out;
	}
	if (env->verbose)
		fprintf(stderr, "%s%s", text, err);
	/* resolved in the file at the path, as an MMAP2 of no build id is */
	if (!strstr(text, " host_fn+0x1 (" LIB_PATH ")")) {
		fprintf(stderr, "the sample is not in host_fn of %s:\n%s", LIB_PATH, text);
		goto out;
	}
	if (!strstr(err, want)) {
		fprintf(stderr, "no '%s' in:\n%s", want, err);
		goto out;
	}
	ret = TEST_OK;
out:
	free(d);
	free(text);
	free(err);
	return ret;
}
