// SPDX-License-Identifier: GPL-2.0
/*
 * A DSO's files (util/dso-file.h): every piece takes the file whose build id is the recorded
 * one, and the build-id cache is one more place the lookup looks.
 *
 * The program is built here with a build id of our choosing; "rebuilt" is a copy of it with
 * the bytes of its build-id note changed (same path, same code, another build id): exactly
 * what a recompiled binary left under --symfs looks like to the lookup. The cache is laid out
 * as perf record fills it (build-id-list.h): <dir>/<path>/<id>/elf and the .build-id link.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/dso.h"
#include "util/dso-file.h"
#include "util/symbol.h"
#include "run-helpers.h"
#include "tests.h"

static const char prog_c[] =
	"int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * i; return s; }\n"
	"int main(int argc, char **argv) { (void)argv; return work(argc) == 42; }\n";

/* a build id no other file here has: its bytes are found in the file by value */
#define BID_HEX		"d50f11e0c0de5eed0123456789abcdef00112233"

static void bid_bytes(u8 *id)
{
	for (int i = 0; i < 20; i++)
		sscanf(BID_HEX + 2 * i, "%2hhx", &id[i]);
}

/* the copy at to of from, its build id's last byte changed */
static int rebuilt_copy(const char *from, const char *to)
{
	u8 id[20];
	char *buf;
	size_t len;
	int ret = test_read_file(from, &buf, &len);

	if (ret)
		return ret;
	bid_bytes(id);
	ret = -ENOENT;
	for (size_t i = 0; i + sizeof(id) <= len; i++) {
		if (!memcmp(buf + i, id, sizeof(id))) {
			buf[i + sizeof(id) - 1] ^= 0xff;
			ret = test_write_file(to, buf, len);
			break;
		}
	}
	free(buf);
	return ret;
}

/* a dso of /bin/prog recorded with BID_HEX, read with conf; the caller puts it */
static struct dso *prog_dso(void)
{
	struct dso *dso = dso__new("/bin/prog", DSO_KIND_USER);
	u8 id[20];

	if (dso) {
		bid_bytes(id);
		dso__set_build_id(dso, id, sizeof(id));
	}
	return dso;
}

/* work()'s address in the program, from nm */
static u64 work_vaddr;

static int read_work_vaddr(const char *path)
{
	char cmd[8300];
	unsigned long long v = 0;
	FILE *p;
	int n;

	snprintf(cmd, sizeof(cmd), "nm '%s' | awk '$3 == \"work\" { print $1 }'", path);
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	n = fscanf(p, "%llx", &v);
	pclose(p);
	work_vaddr = v;
	return n == 1 && v ? 0 : -ENOENT;
}

static bool has_symbol(struct dso *dso, const char *name)
{
	const struct symbol *sym = symbols__find(&dso->symbols, work_vaddr);

	return sym && !strcmp(sym->name, name);
}

/* the file's own bytes at an offset inside its code (the ELF header's end is as good) */
#define CODE_OFF	64
#define CODE_LEN	16

static bool code_is(struct dso *dso, const struct symbol_conf *conf, const char *path)
{
	struct dso_file *df = dso__file(dso);
	const u8 *code;
	size_t len = 0;
	char *buf;
	size_t size;
	bool same;

	code = df ? dso_file__code(df, conf, CODE_OFF, CODE_LEN, &len) : NULL;
	if (!code || len != CODE_LEN || test_read_file(path, &buf, &size))
		return false;
	same = size >= CODE_OFF + CODE_LEN && !memcmp(buf + CODE_OFF, code, CODE_LEN);
	free(buf);
	return same;
}

static bool has_code(struct dso *dso, const struct symbol_conf *conf)
{
	struct dso_file *df = dso__file(dso);
	size_t len;

	return df && dso_file__code(df, conf, CODE_OFF, CODE_LEN, &len);
}

static bool has_eh_frame(struct dso *dso, const struct symbol_conf *conf)
{
	struct dso_file *df = dso__file(dso);

	return df && dso_file__cfi(df, conf)->eh;
}

DEFINE_SUITE(dso_file)
{
	char fs[1024], rebuilt[1024], cachefs[1024], cache[1024], nocache[1024], path[4096];
	struct symbol_conf conf = { .buildid_dir = nocache };
	struct dso *dso;
	int ret = TEST_FAIL;

	if (!test_have_tool("gcc") || !test_have_tool("nm"))
		return test__skip(env, "gcc and nm are needed for the test program");
	snprintf(fs, sizeof(fs), "%s/fs", env->tmpdir);
	snprintf(rebuilt, sizeof(rebuilt), "%s/rebuilt", env->tmpdir);
	snprintf(cachefs, sizeof(cachefs), "%s/empty", env->tmpdir);
	snprintf(cache, sizeof(cache), "%s/cache", env->tmpdir);
	snprintf(nocache, sizeof(nocache), "%s/nocache", env->tmpdir);
	snprintf(path, sizeof(path), "%s/prog.c", env->tmpdir);
	TEST_ASSERT(env, !test_write_file(path, prog_c, sizeof(prog_c) - 1), "writing %s", path);
	TEST_ASSERT(env, !test_run_shell(env, "mkdir -p '%s/bin' '%s/bin' '%s' && cd '%s' && "
		    "gcc -O1 -g -Wl,--build-id=0x%s -o '%s/bin/prog' prog.c", fs, rebuilt, cachefs,
		    env->tmpdir, BID_HEX, fs), "gcc failed");
	snprintf(path, sizeof(path), "%s/bin/prog", fs);
	TEST_ASSERT(env, !read_work_vaddr(path), "nm of %s", path);

	/* 1. the recorded build: symbols, CFI and code bytes, all of the file itself */
	conf.symfs = fs;
	dso = prog_dso();
	TEST_ASSERT(env, dso, "dso__new");
	dso__load(dso, &conf);
	if (!has_symbol(dso, "work") || !code_is(dso, &conf, path) || !has_eh_frame(dso, &conf)) {
		if (env->verbose)
			fprintf(stderr, "the recorded build: symbols, code bytes or CFI missing\n");
		goto out_put;
	}
	dso__put(dso);

	/* 2. rebuilt (another build id at the same path): nothing of it, the code bytes neither */
	{
		char copy[8192];

		snprintf(copy, sizeof(copy), "%s/bin/prog", rebuilt);
		TEST_ASSERT(env, !rebuilt_copy(path, copy), "patching the build id of %s", copy);
	}
	conf.symfs = rebuilt;
	dso = prog_dso();
	TEST_ASSERT(env, dso, "dso__new");
	dso__load(dso, &conf);
	if (has_code(dso, &conf) || has_eh_frame(dso, &conf) || has_symbol(dso, "work") ||
	    dso->load_errno != DSO_LOAD_ERRNO__MISMATCHING_BUILDID) {
		if (env->verbose)
			fprintf(stderr, "a rebuilt binary was taken for the recorded one (load_errno %d)\n",
				dso->load_errno);
		goto out_put;
	}
	dso__put(dso);

	/*
	 * 3. only in the build-id cache (nothing under the symfs, then the rebuilt one there):
	 * the cache's copy gives symbols, CFI and code bytes; a cache elsewhere gives nothing
	 */
	TEST_ASSERT(env, !test_run_shell(env, "mkdir -p '%s/bin/prog/%s' '%s/.build-id/%.2s' && "
		    "cp '%s' '%s/bin/prog/%s/elf' && ln -s '../../bin/prog/%s' '%s/.build-id/%.2s/%s'",
		    cache, BID_HEX, cache, BID_HEX, path, cache, BID_HEX, BID_HEX, cache, BID_HEX,
		    BID_HEX + 2), "filling the cache");
	snprintf(path, sizeof(path), "%s/bin/prog/%s/elf", cache, BID_HEX);
	for (int i = 0; i < 2; i++) {
		conf.symfs = i ? rebuilt : cachefs;
		conf.buildid_dir = cache;
		dso = prog_dso();
		TEST_ASSERT(env, dso, "dso__new");
		dso__load(dso, &conf);
		if (!has_symbol(dso, "work") || !code_is(dso, &conf, path) ||
		    !has_eh_frame(dso, &conf) || dso->load_errno) {
			if (env->verbose)
				fprintf(stderr, "%s: the DSO in the build-id cache was not used (symbols from %s)\n",
					i ? "rebuilt" : "no file", dso->symsrc_path ? dso->symsrc_path : "nothing");
			goto out_put;
		}
		dso__put(dso);
	}

	/* 4. with a symfs, its .debug is the cache (perf's --symfs sets the build-id dir so) */
	snprintf(path, sizeof(path), "%s/.debug", cachefs);
	TEST_ASSERT(env, !test_run_shell(env, "mkdir -p '%s' && cp -a '%s/.' '%s'", path, cache, path),
		    "copying the cache under the symfs");
	conf.symfs = cachefs;
	conf.buildid_dir = NULL;
	dso = prog_dso();
	TEST_ASSERT(env, dso, "dso__new");
	dso__load(dso, &conf);
	if (!has_symbol(dso, "work") || !has_code(dso, &conf) || dso->load_errno) {
		if (env->verbose)
			fprintf(stderr, "the build-id cache <symfs>/.debug was not used\n");
		goto out_put;
	}
	ret = TEST_OK;

out_put:
	dso__put(dso);
	return ret;
}
