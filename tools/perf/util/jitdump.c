// SPDX-License-Identifier: GPL-2.0
/* A jitdump file read into ELF files and their mappings; see jitdump.h */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "jit-elf.h"
#include "jitdump.h"

#define HEADER_SIZE	40	/* magic, version, total_size, elf_mach, pad, pid, time, flags */
#define PREFIX_SIZE	16	/* id, total_size, timestamp */
#define LOAD_FIXED	40	/* pid, tid, vma, code_addr, code_size, code_index */
#define MOVE_FIXED	48	/* pid, tid, vma, old_code_addr, new_code_addr, code_size, index */
#define UNWIND_FIXED	24	/* unwinding_size, eh_frame_hdr_size, mapped_size */

/* an ELF written for a load, for the moves of its code that come later */
struct jit_elf_file {
	u64	index;
	u32	maj, min;
	u64	ino;
	u8	build_id[20];
};

struct jitdump {
	const char		*path;
	const u8		*buf;
	size_t			size;
	u32			pid;
	u16			machine;
	char			dir[PATH_MAX];
	/* the UNWINDING_INFO waiting for its CODE_LOAD */
	const u8		*unwind;
	u64			unwind_size, unwind_hdr_size;
	struct jit_elf_file	*files;
	size_t			nr_files, files_alloc;
	jit_map_fn		emit;
	void			*ctx;
	struct perf_err		*err;
};

static const char *const record_names[] = {
	[JIT_CODE_LOAD] = "CODE_LOAD",
	[JIT_CODE_MOVE] = "CODE_MOVE",
	[JIT_CODE_DEBUG_INFO] = "DEBUG_INFO",
	[JIT_CODE_CLOSE] = "CODE_CLOSE",
	[JIT_CODE_UNWINDING_INFO] = "UNWINDING_INFO",
};

static const char *record_name(u32 id)
{
	return id < sizeof(record_names) / sizeof(record_names[0]) ? record_names[id] : "unknown";
}

static u32 get_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 get_u64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int jitdump__bad(struct jitdump *jd, size_t off, u32 id, const char *why)
{
	return perf_err__set(jd->err, EINVAL, "jitdump %s: %s record (type %u) at offset %#zx: %s",
			     jd->path, record_name(id), id, off, why);
}

static int jitdump__path(struct jitdump *jd, u64 index, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/jitted-%u-%llu.so", jd->dir, jd->pid,
			 (unsigned long long)index);

	if (n < 0 || (size_t)n >= size)
		return perf_err__set(jd->err, ENAMETOOLONG, "jitdump %s: the ELF file's name is too long",
				     jd->path);
	return 0;
}

static struct jit_elf_file *jitdump__file(struct jitdump *jd, u64 index)
{
	/* a move is most often of recent code */
	for (size_t i = jd->nr_files; i-- > 0;)
		if (jd->files[i].index == index)
			return &jd->files[i];
	return NULL;
}

static int jitdump__add_file(struct jitdump *jd, const struct jit_elf_file *f)
{
	struct jit_elf_file *old = jitdump__file(jd, f->index);

	if (old) {
		*old = *f;	/* the index's code loaded again: the new file replaced the old */
		return 0;
	}
	if (jd->nr_files == jd->files_alloc) {
		size_t n = jd->files_alloc ? 2 * jd->files_alloc : 64;
		struct jit_elf_file *p = realloc(jd->files, n * sizeof(*p));

		if (!p)
			return perf_err__set(jd->err, ENOMEM, "out of memory");
		jd->files = p;
		jd->files_alloc = n;
	}
	jd->files[jd->nr_files++] = *f;
	return 0;
}

static int jitdump__load(struct jitdump *jd, size_t off, const u8 *rec, u32 size, u64 time)
{
	const u8 *body = rec + PREFIX_SIZE;
	size_t room = size - PREFIX_SIZE - LOAD_FIXED;
	const char *name = (const char *)body + LOAD_FIXED;
	size_t namelen = strnlen(name, room);
	u64 code_size = get_u64(body + 24), index = get_u64(body + 32);
	struct jit_code jc = { .machine = jd->machine, .addr = get_u64(body + 16), .name = name };
	struct jit_elf_file f = { .index = index };
	struct jit_map map;
	char path[PATH_MAX];
	struct stat st;
	int ret;

	if (namelen == room)
		return jitdump__bad(jd, off, JIT_CODE_LOAD, "the code's name runs past the record");
	if (code_size > room - namelen - 1)
		return jitdump__bad(jd, off, JIT_CODE_LOAD, "the code runs past the record");
	jc.code = rec + size - code_size;
	jc.size = code_size;
	if (jd->unwind) {
		jc.unwind = jd->unwind;
		jc.unwind_size = jd->unwind_size;
		jc.unwind_hdr_size = jd->unwind_hdr_size;
		jd->unwind = NULL;
	}
	ret = jitdump__path(jd, index, path, sizeof(path));
	if (!ret)
		ret = jit_elf__write(path, &jc, f.build_id, jd->err);
	if (ret)
		return ret;
	if (stat(path, &st))
		return perf_err__set(jd->err, errno, "jitdump %s: %s: %m", jd->path, path);
	f.maj = major(st.st_dev);
	f.min = minor(st.st_dev);
	f.ino = st.st_ino;
	ret = jitdump__add_file(jd, &f);
	if (ret)
		return ret;
	map = (struct jit_map){
		.time = time, .pid = get_u32(body), .tid = get_u32(body + 4),
		.start = jc.addr, .len = code_size, .pgoff = JIT_ELF_TEXT_OFFSET,
		.maj = f.maj, .min = f.min, .ino = f.ino, .path = path, .name = name,
	};
	memcpy(map.build_id, f.build_id, sizeof(map.build_id));
	return jd->emit(jd->ctx, &map);
}

static int jitdump__move(struct jitdump *jd, size_t off, const u8 *rec, u32 size, u64 time)
{
	const u8 *body = rec + PREFIX_SIZE;
	const struct jit_elf_file *f;
	struct jit_map map;
	char path[PATH_MAX];
	int ret;

	if (size < PREFIX_SIZE + MOVE_FIXED)
		return jitdump__bad(jd, off, JIT_CODE_MOVE, "the record is too short");
	f = jitdump__file(jd, get_u64(body + 40));
	if (!f)
		return jitdump__bad(jd, off, JIT_CODE_MOVE, "it moves code no CODE_LOAD loaded");
	ret = jitdump__path(jd, f->index, path, sizeof(path));
	if (ret)
		return ret;
	map = (struct jit_map){
		.time = time, .pid = get_u32(body), .tid = get_u32(body + 4),
		.start = get_u64(body + 24), .len = get_u64(body + 32),
		.pgoff = JIT_ELF_TEXT_OFFSET, .maj = f->maj, .min = f->min, .ino = f->ino,
		.path = path, .name = NULL,
	};
	memcpy(map.build_id, f->build_id, sizeof(map.build_id));
	return jd->emit(jd->ctx, &map);
}

static int jitdump__unwinding(struct jitdump *jd, size_t off, const u8 *rec, u32 size)
{
	const u8 *body = rec + PREFIX_SIZE;
	u64 have = size - PREFIX_SIZE - UNWIND_FIXED;

	if (size < PREFIX_SIZE + UNWIND_FIXED)
		return jitdump__bad(jd, off, JIT_CODE_UNWINDING_INFO, "the record is too short");
	jd->unwind_size = get_u64(body);
	jd->unwind_hdr_size = get_u64(body + 8);
	if (jd->unwind_size > have || jd->unwind_hdr_size > jd->unwind_size)
		return jitdump__bad(jd, off, JIT_CODE_UNWINDING_INFO,
				    "its tables' sizes do not fit the record");
	jd->unwind = body + UNWIND_FIXED;
	return 0;
}

static int jitdump__records(struct jitdump *jd, size_t off)
{
	while (off < jd->size) {
		const u8 *rec = jd->buf + off;
		u32 id, size;
		u64 time;
		int ret = 0;

		if (jd->size - off < PREFIX_SIZE)
			return perf_err__set(jd->err, EINVAL,
					     "jitdump %s: the file ends inside a record's header at offset %#zx",
					     jd->path, off);
		id = get_u32(rec);
		size = get_u32(rec + 4);
		time = get_u64(rec + 8);
		if (size < PREFIX_SIZE || size > jd->size - off) {
			/* a runtime killed while writing leaves a last record cut short */
			return jitdump__bad(jd, off, id, size < PREFIX_SIZE ?
					    "its size is smaller than its header" :
					    "it runs past the end of the file");
		}
		switch (id) {
		case JIT_CODE_LOAD:
			if (size < PREFIX_SIZE + LOAD_FIXED + 1)
				return jitdump__bad(jd, off, id, "the record is too short");
			ret = jitdump__load(jd, off, rec, size, time);
			break;
		case JIT_CODE_MOVE:
			ret = jitdump__move(jd, off, rec, size, time);
			break;
		case JIT_CODE_UNWINDING_INFO:
			ret = jitdump__unwinding(jd, off, rec, size);
			break;
		case JIT_CODE_CLOSE:
			return 0;
		default:
			/* DEBUG_INFO (source lines are not written) and records of later versions */
			break;
		}
		if (ret)
			return ret;
		off += size;
	}
	return 0;
}

bool jitdump__is_marker(const char *filename, u32 *pid)
{
	const char *base = strrchr(filename, '/');
	unsigned int p;
	int end = 0;

	base = base ? base + 1 : filename;
	if (sscanf(base, "jit-%u.dump%n", &p, &end) != 1 || end == 0 || base[end])
		return false;
	*pid = p;
	return true;
}

int jitdump__process(const char *path, u32 pid, jit_map_fn emit, void *ctx, struct perf_err *err)
{
	struct jitdump jd = { .path = path, .pid = pid, .emit = emit, .ctx = ctx, .err = err };
	const char *slash = strrchr(path, '/');
	struct stat st;
	void *map;
	u32 magic, version, hdr_size;
	int fd, ret;

	if (!slash)
		snprintf(jd.dir, sizeof(jd.dir), ".");
	else if ((size_t)(slash - path) >= sizeof(jd.dir))
		return perf_err__set(err, ENAMETOOLONG, "jitdump %s: name too long", path);
	else
		snprintf(jd.dir, sizeof(jd.dir), "%.*s", (int)(slash == path ? 1 : slash - path), path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perf_err__set(err, errno, "jitdump %s: %m", path);
	if (fstat(fd, &st)) {
		ret = perf_err__set(err, errno, "jitdump %s: %m", path);
		close(fd);
		return ret;
	}
	if ((u64)st.st_size < HEADER_SIZE) {
		close(fd);
		return perf_err__set(err, EINVAL, "jitdump %s: %lld bytes, shorter than its header",
				     path, (long long)st.st_size);
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return perf_err__set(err, errno, "jitdump %s: %m", path);
	jd.buf = map;
	jd.size = st.st_size;

	magic = get_u32(jd.buf);
	version = get_u32(jd.buf + 4);
	hdr_size = get_u32(jd.buf + 8);
	jd.machine = (u16)get_u32(jd.buf + 12);
	if (magic == JITDUMP_MAGIC_SWAPPED)
		ret = perf_err__set(err, EINVAL, "jitdump %s: written in the other byte order, which is not supported",
				    path);
	else if (magic != JITDUMP_MAGIC)
		ret = perf_err__set(err, EINVAL, "jitdump %s: not a jitdump file (magic %#x)", path,
				    magic);
	else if (version != JITDUMP_VERSION)
		ret = perf_err__set(err, EINVAL, "jitdump %s: version %u, only version %u is known",
				    path, version, JITDUMP_VERSION);
	else if (hdr_size < HEADER_SIZE || hdr_size > jd.size)
		ret = perf_err__set(err, EINVAL, "jitdump %s: header size %u does not fit the file",
				    path, hdr_size);
	else if (get_u32(jd.buf + 20) != pid)
		ret = perf_err__set(err, EINVAL, "jitdump %s: written by pid %u, mapped by pid %u",
				    path, get_u32(jd.buf + 20), pid);
	else if (get_u64(jd.buf + 32) & JITDUMP_FLAGS_ARCH_TIMESTAMP)
		ret = perf_err__set(err, EOPNOTSUPP, "jitdump %s: its times are the CPU's timestamp counter, which is not supported (the runtime's agent can write CLOCK_MONOTONIC times)",
				    path);
	else
		ret = jitdump__records(&jd, hdr_size);
	munmap(map, st.st_size);
	free(jd.files);
	return ret;
}
