// SPDX-License-Identifier: GPL-2.0
/*
 * jitdump files (util/jitdump.c) into ELF files (util/jit-elf.c) and their mappings: a dump
 * made here with every record type, read back through libelf; the jitdump errors, each
 * naming its record and offset; SHA-1 against FIPS 180's examples. perf inject -j's test on
 * a real node recording compares with upstream's inject (inject-jit.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/jitdump.h"
#include "util/jit-elf.h"
#include "util/sha1.h"
#include "tests.h"

#define PID	4242

struct dump {
	u8	buf[4096];
	size_t	len;
};

static void put(struct dump *d, const void *p, size_t n)
{
	memcpy(d->buf + d->len, p, n);
	d->len += n;
}

static void put32(struct dump *d, u32 v)
{
	put(d, &v, 4);
}

static void put64(struct dump *d, u64 v)
{
	put(d, &v, 8);
}

/* a record's prefix; its size is patched by end() */
static size_t begin(struct dump *d, u32 id, u64 time)
{
	size_t at = d->len;

	put32(d, id);
	put32(d, 0);
	put64(d, time);
	return at;
}

static void end(struct dump *d, size_t at)
{
	u32 size;

	while (d->len % 8)
		d->buf[d->len++] = 0;
	size = d->len - at;
	memcpy(d->buf + at + 4, &size, 4);
}

static void header(struct dump *d, u32 magic, u32 version, u32 pid, u64 flags)
{
	put32(d, magic);
	put32(d, version);
	put32(d, 40);
	put32(d, 62);		/* EM_X86_64 */
	put32(d, 0);
	put32(d, pid);
	put64(d, 1000);
	put64(d, flags);
}

static void load(struct dump *d, u64 time, u64 addr, u64 index, const char *name,
		 const u8 *code, size_t size)
{
	size_t at = begin(d, JIT_CODE_LOAD, time);

	put32(d, PID);
	put32(d, PID + 1);
	put64(d, addr);
	put64(d, addr);
	put64(d, size);
	put64(d, index);
	put(d, name, strlen(name) + 1);
	put(d, code, size);
	end(d, at);
}

static const u8 code1[32] = { 0x55, 0x48, 0x89, 0xe5, 0x90, 0x5d, 0xc3 };
static const u8 code2[16] = { 0xc3 };
/* 8 bytes of .eh_frame (a zero terminator entry), then a 20-byte .eh_frame_hdr */
static const u8 unwind[28] = { [8] = 1, [9] = 0x1b, [10] = 0x03, [11] = 0x3b };

/* every record type: unwinding info, two loads, source lines, a move, the close */
static void make_dump(struct dump *d)
{
	size_t at;

	d->len = 0;
	header(d, JITDUMP_MAGIC, 1, PID, 0);
	at = begin(d, JIT_CODE_UNWINDING_INFO, 2000);
	put64(d, sizeof(unwind));
	put64(d, 20);
	put64(d, 0);
	put(d, unwind, sizeof(unwind));
	end(d, at);
	load(d, 2001, 0x1000, 7, "JS:*leaf /tmp/x.js:1:14", code1, sizeof(code1));
	at = begin(d, JIT_CODE_DEBUG_INFO, 2002);
	put64(d, 0x1000);
	put64(d, 1);
	put64(d, 0x1004);
	put32(d, 3);
	put32(d, 0);
	put(d, "x.js", 5);
	end(d, at);
	load(d, 2003, 0x3000, 8, "f2", code2, sizeof(code2));
	at = begin(d, JIT_CODE_MOVE, 2004);
	put32(d, PID);
	put32(d, PID);
	put64(d, 0x2000);
	put64(d, 0x1000);
	put64(d, 0x2000);
	put64(d, sizeof(code1));
	put64(d, 7);
	end(d, at);
	at = begin(d, JIT_CODE_CLOSE, 2005);
	end(d, at);
}

struct maps {
	struct jit_map	m[8];
	char		path[8][256];
	size_t		nr;
};

static int collect(void *ctx, const struct jit_map *map)
{
	struct maps *ms = ctx;

	if (ms->nr == 8)
		return -E2BIG;
	ms->m[ms->nr] = *map;
	snprintf(ms->path[ms->nr], sizeof(ms->path[0]), "%s", map->path);
	ms->m[ms->nr].name = NULL;
	ms->m[ms->nr++].path = NULL;
	return 0;
}

static int write_dump(const char *path, const struct dump *d, size_t len)
{
	FILE *f = fopen(path, "w");
	size_t n;

	if (!f)
		return -1;
	n = fwrite(d->buf, 1, len, f);
	return (fclose(f) || n != len) ? -1 : 0;
}

/* what path's ELF says: its one symbol, build id, and .eh_frame/.eh_frame_hdr addresses */
struct elf_view {
	char	sym[64];
	u64	value, size, eh_addr, eh_size, hdr_addr, hdr_size, entry;
	u8	build_id[20];
	int	nr_load;
};

static int read_elf(const char *path, struct elf_view *v)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	size_t shstrndx, nphdr;
	GElf_Ehdr eh;
	Elf *e;
	int ret = -1;

	memset(v, 0, sizeof(*v));
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || !gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx) ||
	    elf_getphdrnum(e, &nphdr))
		goto out;
	v->entry = eh.e_entry;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD && ph.p_offset == 0x80 &&
		    ph.p_vaddr == 0x80)
			v->nr_load++;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			goto out;
		d = elf_getdata(scn, NULL);
		if (sh.sh_type == SHT_SYMTAB && d) {
			GElf_Sym sym;

			if (sh.sh_size / sh.sh_entsize != 2 || !gelf_getsym(d, 1, &sym))
				goto out;
			snprintf(v->sym, sizeof(v->sym), "%s", elf_strptr(e, sh.sh_link, sym.st_name));
			v->value = sym.st_value;
			v->size = sym.st_size;
		} else if (!strcmp(name, ".note.gnu.build-id") && d && d->d_size == 36) {
			memcpy(v->build_id, (u8 *)d->d_buf + 16, 20);
		} else if (!strcmp(name, ".eh_frame")) {
			v->eh_addr = sh.sh_addr;
			v->eh_size = sh.sh_size;
		} else if (!strcmp(name, ".eh_frame_hdr")) {
			v->hdr_addr = sh.sh_addr;
			v->hdr_size = sh.sh_size;
		}
	}
	ret = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

static int check_sha1(const struct test_env *env)
{
	static const struct {
		const char	*in;
		const char	*hex;
	} v[] = {
		{ "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
		{ "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	};
	u8 out[SHA1_DIGEST_SIZE];
	char hex[41];
	struct sha1 s;
	char a[997];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha1__init(&s);
		sha1__update(&s, v[i].in, strlen(v[i].in));
		sha1__final(&s, out);
		for (int k = 0; k < 20; k++)
			sprintf(hex + 2 * k, "%02x", out[k]);
		TEST_ASSERT(env, !strcmp(hex, v[i].hex), "sha1(\"%s\") = %s, not %s", v[i].in, hex,
			    v[i].hex);
	}
	/* a million 'a's in pieces that straddle the 64-byte blocks */
	memset(a, 'a', sizeof(a));
	sha1__init(&s);
	for (size_t left = 1000000; left;) {
		size_t n = left < sizeof(a) ? left : sizeof(a);

		sha1__update(&s, a, n);
		left -= n;
	}
	sha1__final(&s, out);
	for (int k = 0; k < 20; k++)
		sprintf(hex + 2 * k, "%02x", out[k]);
	TEST_ASSERT(env, !strcmp(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
		    "sha1 of a million a: %s", hex);
	return TEST_OK;
}

static int check_dump(const struct test_env *env)
{
	struct maps ms = { .nr = 0 };
	struct elf_view v;
	struct perf_err err;
	char path[256];
	u8 first_id[20];
	struct dump d;

	make_dump(&d);
	/* after the close, nothing is read */
	memset(d.buf + d.len, 0xff, 24);
	snprintf(path, sizeof(path), "%s/jit-%d.dump", env->tmpdir, PID);
	TEST_ASSERT(env, !write_dump(path, &d, d.len + 24), "write %s", path);
	TEST_ASSERT(env, !jitdump__process(path, PID, collect, &ms, &err), "%s", err.msg);
	TEST_ASSERT(env, ms.nr == 3, "%zu maps", ms.nr);

	TEST_ASSERT(env, ms.m[0].time == 2001 && ms.m[0].pid == PID && ms.m[0].tid == PID + 1 &&
		    ms.m[0].start == 0x1000 && ms.m[0].len == 32 && ms.m[0].pgoff == 0x80,
		    "first load's map");
	snprintf(path, sizeof(path), "%s/jitted-%d-7.so", env->tmpdir, PID);
	TEST_ASSERT(env, !strcmp(ms.path[0], path), "path %s", ms.path[0]);
	TEST_ASSERT(env, !read_elf(path, &v), "read %s", path);
	TEST_ASSERT(env, !strcmp(v.sym, "JS:*leaf /tmp/x.js:1:14") && v.value == 0x80 &&
		    v.size == 32 && v.entry == 0x80 && v.nr_load == 1, "symbol %s %#llx+%llu",
		    v.sym, (unsigned long long)v.value, (unsigned long long)v.size);
	TEST_ASSERT(env, !memcmp(v.build_id, ms.m[0].build_id, 20), "build id");
	/* the unwinding tables right after the code, 8-aligned, then the header */
	TEST_ASSERT(env, v.eh_addr == 0xa0 && v.eh_size == 8 && v.hdr_addr == 0xa8 &&
		    v.hdr_size == 20, ".eh_frame %#llx+%llu .eh_frame_hdr %#llx+%llu",
		    (unsigned long long)v.eh_addr, (unsigned long long)v.eh_size,
		    (unsigned long long)v.hdr_addr, (unsigned long long)v.hdr_size);
	memcpy(first_id, v.build_id, 20);

	/* the second load had no unwinding info: the first one's is not reused */
	snprintf(path, sizeof(path), "%s/jitted-%d-8.so", env->tmpdir, PID);
	TEST_ASSERT(env, !read_elf(path, &v) && !strcmp(v.sym, "f2") && v.size == 16 &&
		    !v.eh_size && !v.hdr_size, "second load's ELF");
	TEST_ASSERT(env, ms.m[1].start == 0x3000 && memcmp(ms.m[1].build_id, first_id, 20),
		    "second map");

	/* the move maps the first load's file at its new address */
	TEST_ASSERT(env, ms.m[2].time == 2004 && ms.m[2].start == 0x2000 && ms.m[2].len == 32 &&
		    ms.m[2].ino == ms.m[0].ino && !memcmp(ms.m[2].build_id, first_id, 20),
		    "the move's map");

	/* the same dump again: the same build ids */
	ms.nr = 0;
	snprintf(path, sizeof(path), "%s/jit-%d.dump", env->tmpdir, PID);
	TEST_ASSERT(env, !jitdump__process(path, PID, collect, &ms, &err), "%s", err.msg);
	TEST_ASSERT(env, ms.nr == 3 && !memcmp(ms.m[0].build_id, first_id, 20), "same ids");
	return TEST_OK;
}

/* each bad dump gives its one error, naming the part that is wrong */
static int check_errors(const struct test_env *env)
{
	struct {
		const char	*what;
		const char	*want;
	} cases[] = {
		{ "pid", "written by pid 4242, mapped by pid 1" },
		{ "magic", "not a jitdump file (magic 0x12345678)" },
		{ "swapped", "written in the other byte order" },
		{ "version", "version 2, only version 1 is known" },
		{ "tsc", "the CPU's timestamp counter" },
		{ "cut", "CODE_LOAD record (type 0) at offset 0x70: it runs past the end of the file" },
		{ "cut-prefix", "the file ends inside a record's header at offset 0x" },
		{ "zero", "UNWINDING_INFO record (type 4) at offset 0x28: its size is smaller than its header" },
		{ "move", "CODE_MOVE record (type 1) at offset 0x28: it moves code no CODE_LOAD loaded" },
		{ "name", "CODE_LOAD record (type 0) at offset 0x28: the code's name runs past the record" },
		{ "code", "CODE_LOAD record (type 0) at offset 0x28: the code runs past the record" },
		{ "unwind", "UNWINDING_INFO record (type 4) at offset 0x28: its tables' sizes do not fit" },
		{ "short", "bytes, shorter than its header" },
	};
	char path[256];

	snprintf(path, sizeof(path), "%s/jit-%d.dump", env->tmpdir, PID);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *w = cases[i].what;
		struct maps ms = { .nr = 0 };
		struct perf_err err = { .msg = "" };
		u32 pid = PID;
		struct dump d;
		size_t len, at;
		int ret;

		make_dump(&d);
		len = d.len;
		if (!strcmp(w, "pid")) {
			pid = 1;
		} else if (!strcmp(w, "magic") || !strcmp(w, "swapped") || !strcmp(w, "version") ||
			   !strcmp(w, "tsc")) {
			d.len = 0;
			header(&d, !strcmp(w, "magic") ? 0x12345678 : !strcmp(w, "swapped") ?
				   JITDUMP_MAGIC_SWAPPED : JITDUMP_MAGIC,
			       !strcmp(w, "version") ? 2 : 1, PID,
			       !strcmp(w, "tsc") ? JITDUMP_FLAGS_ARCH_TIMESTAMP : 0);
		} else if (!strcmp(w, "cut")) {
			len = 0x70 + 30;	/* inside the first CODE_LOAD (after a 0x48 UNWINDING_INFO) */
		} else if (!strcmp(w, "cut-prefix")) {
			len = 0x70 + 8;
		} else if (!strcmp(w, "short")) {
			len = 20;
		} else {
			d.len = 40;
			at = begin(&d, !strcmp(w, "zero") || !strcmp(w, "unwind") ?
				       JIT_CODE_UNWINDING_INFO : !strcmp(w, "move") ? JIT_CODE_MOVE :
				       JIT_CODE_LOAD, 1);
			if (!strcmp(w, "move")) {
				for (int k = 0; k < 6; k++)
					put64(&d, k);
			} else if (!strcmp(w, "unwind")) {
				put64(&d, 100);
				put64(&d, 20);
				put64(&d, 0);
			} else if (!strcmp(w, "name") || !strcmp(w, "code")) {
				put32(&d, PID);
				put32(&d, PID);
				put64(&d, 0x1000);
				put64(&d, 0x1000);
				put64(&d, !strcmp(w, "code") ? 64 : 1);
				put64(&d, 1);
				put(&d, !strcmp(w, "code") ? "abcdefg" : "abcdefgh", 8);
			}
			end(&d, at);
			if (!strcmp(w, "zero"))
				memset(d.buf + at + 4, 0, 4);
			len = d.len;
		}
		TEST_ASSERT(env, !write_dump(path, &d, len), "write");
		ret = jitdump__process(path, pid, collect, &ms, &err);
		TEST_ASSERT(env, ret < 0 && strstr(err.msg, cases[i].want) && strstr(err.msg, path),
			    "%s: %d, '%s'", w, ret, err.msg);
		if (env->verbose)
			fprintf(stderr, "%s: %s\n", w, err.msg);
	}
	return TEST_OK;
}

static int check_markers(const struct test_env *env)
{
	static const struct {
		const char	*name;
		u32		pid;	/* 0: not a marker */
	} v[] = {
		{ "/tmp/jit-123.dump", 123 }, { "jit-7.dump", 7 }, { "/a/b/jit-9.dump.x", 0 },
		{ "/tmp/xjit-1.dump", 0 }, { "/tmp/jit-.dump", 0 }, { "/tmp/jit-1.dumpx", 0 },
		{ "/tmp/jitted-1-2.so", 0 },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		u32 pid = 0;
		bool is = jitdump__is_marker(v[i].name, &pid);

		TEST_ASSERT(env, is == (v[i].pid != 0) && (!is || pid == v[i].pid), "%s", v[i].name);
	}
	return TEST_OK;
}

DEFINE_SUITE(jitdump)
{
	int ret = check_sha1(env);

	if (!ret)
		ret = check_markers(env);
	if (!ret)
		ret = check_dump(env);
	if (!ret)
		ret = check_errors(env);
	return ret;
}
