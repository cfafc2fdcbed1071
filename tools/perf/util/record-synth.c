// SPDX-License-Identifier: GPL-2.0
/*
 * record-synth.c - the side-band of already running processes and of the kernel, from /proc
 * and /sys (record-synth.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <perf/kernel.h>
#include <perf/synthesize.h>
#include "record-synth.h"
#include "build-id.h"
#include "record-cgroup.h"

/* the largest record built here: an MMAP2 with a PATH_MAX name and a full sample_id */
#define SYNTH_BUF_SIZE	(sizeof(struct perf_record_mmap2) + PATH_MAX + 8 + 64)

/* build ids of the files already read in one call, by device and inode */
struct bid_cache_entry {
	u64	dev, ino;
	u8	id[BUILD_ID_SIZE_MAX];
	u8	size;	/* 0: the file has none or could not be read */
};

struct synth_run {
	const struct record_synth	*s;
	const char			*proc;
	struct perf_sample		id;	/* the trailer's values */
	u64				buf[SYNTH_BUF_SIZE / 8 + 1];
	struct bid_cache_entry		*bids;
	size_t				nr_bids, alloc_bids;
	u8				vdso_id[BUILD_ID_SIZE_MAX];
	u8				vdso_size;	/* 0: none */
	struct record_synth_stats	stats;
	struct perf_err			*err;
};

static void synth_run__init(struct synth_run *r, const struct record_synth *s, struct perf_err *err)
{
	size_t size = 0;

	memset(&r->id, 0, sizeof(r->id));
	if (s->id)
		r->id = *s->id;
	r->s = s;
	r->proc = s->proc ? s->proc : "/proc";
	r->bids = NULL;
	r->nr_bids = r->alloc_bids = 0;
	r->vdso_size = 0;
	memset(&r->stats, 0, sizeof(r->stats));
	r->err = err;
	if (s->build_ids && !vdso__build_id(r->vdso_id, &size))
		r->vdso_size = (u8)size;
}

static void synth_run__exit(struct synth_run *r)
{
	free(r->bids);
}

/*
 * A record of fixed fields (after the header) and a NUL-terminated string padded to 8 bytes,
 * then the sample_id trailer, handed to emit.
 */
static int synth__emit(struct synth_run *r, u32 type, u16 misc, const void *fixed, size_t len,
		       const char *str)
{
	struct perf_event_header *h = (struct perf_event_header *)r->buf;
	size_t n = str ? strlen(str) + 1 : 0, at = sizeof(*h);
	int id_size;

	if (at + len + n + 8 > SYNTH_BUF_SIZE - 64)
		return perf_err__set(r->err, E2BIG, "synthesized record of type %u for '%s' too long",
				     type, str ? str : "");
	memcpy((u8 *)r->buf + at, fixed, len);
	at += len;
	if (str)
		memcpy((u8 *)r->buf + at, str, n);
	memset((u8 *)r->buf + at + n, 0, (8 - (at + n) % 8) % 8);
	at = (at + n + 7) / 8 * 8;
	id_size = perf_sample__synthesize_id(r->s->attr, &r->id, false, (u8 *)r->buf + at,
					     SYNTH_BUF_SIZE - at);
	if (id_size < 0)
		return perf_err__set(r->err, -id_size, "no room for a sample_id trailer");
	h->type = type;
	h->misc = misc;
	h->size = (u16)(at + (size_t)id_size);
	return r->s->emit(r->s->ctx, h);
}

/* ---- the kernel --------------------------------------------------------------------------- */

/*
 * A kernel or module map: MMAP as perf writes it, or with kernel_mmap2 (--buildid-mmap) an
 * MMAP2 with the build id of its notes file (prot and flags 0, as perf 6.1), when it has one
 */
static int synth__kernel_map(struct synth_run *r, u64 start, u64 len, u64 pgoff,
			     const char *name, const char *notes)
{
	struct {
		u32	pid, tid;
		u64	start, len, pgoff;
	} m = { .pid = (u32)-1, .start = start, .len = len, .pgoff = pgoff };
	struct perf_record_mmap2 m2 = {
		.pid = (u32)-1, .start = start, .len = len, .pgoff = pgoff,
	};
	size_t size = 0;

	if (!r->s->kernel_mmap2 || !notes ||
	    build_id__read_notes(notes, m2.build_id, &size) || size > sizeof(m2.build_id))
		return synth__emit(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &m, sizeof(m),
				   name);
	m2.build_id_size = (u8)size;
	return synth__emit(r, PERF_RECORD_MMAP2,
			   PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_MMAP_BUILD_ID,
			   &m2.pid, sizeof(m2) - offsetof(struct perf_record_mmap2, pid), name);
}

int record_synth__kernel(const struct record_synth *s, struct perf_err *err)
{
	char path[PATH_MAX], line[512];
	unsigned long long text = 0, etext = 0;
	struct synth_run *r;
	FILE *fp;
	int ret;

	snprintf(path, sizeof(path), "%s/kallsyms", s->proc ? s->proc : "/proc");
	fp = fopen(path, "re");
	if (!fp)
		return perf_err__set(err, errno, "cannot read %s: %m", path);
	while (fgets(line, sizeof(line), fp) && (!text || !etext)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = addr;
		else if (!strcmp(name, "_etext"))
			etext = addr;
	}
	fclose(fp);
	if (!text || etext <= text)
		return perf_err__set(err, EACCES,
				     "%s has no %s: kernel addresses are hidden (kernel.kptr_restrict) or it is no kallsyms",
				     path, text ? "_etext after _text" : "address for _text");
	r = malloc(sizeof(*r));
	if (!r)
		return perf_err__set(err, ENOMEM, "out of memory");
	synth_run__init(r, s, err);
	/* pgoff = _text: how readers find the boot's relocation (perf's ref_reloc_sym) */
	snprintf(path, sizeof(path), "%s/kernel/notes", s->sys ? s->sys : "/sys");
	ret = synth__kernel_map(r, text, etext - text, text, "[kernel.kallsyms]_text", path);
	synth_run__exit(r);
	free(r);
	return ret;
}

struct module_map {
	char			name[64];
	unsigned long long	size, addr;
	char			*path;		/* its .ko, NULL: not found */
};

/* module names compare with '-' and '_' alike, as the kernel does */
static bool module__same(const char *file, size_t n, const char *name)
{
	if (n != strlen(name))
		return false;
	for (size_t i = 0; i < n; i++) {
		char a = file[i] == '-' ? '_' : file[i], b = name[i] == '-' ? '_' : name[i];

		if (a != b)
			return false;
	}
	return true;
}

/* one walk of dir: the first .ko (compressed or not) of each module gives its path */
static int modules__find(const char *dir, struct module_map *mods, size_t nr, int depth)
{
	struct dirent *de;
	DIR *d;

	if (depth > 8 || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		const char *dot;

		if (de->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (de->d_type == DT_DIR) {
			if (modules__find(path, mods, nr, depth + 1)) {
				closedir(d);
				return -ENOMEM;
			}
			continue;
		}
		dot = strstr(de->d_name, ".ko");
		if (!dot || (dot[3] && dot[3] != '.'))
			continue;
		for (size_t i = 0; i < nr; i++) {
			if (mods[i].path || !module__same(de->d_name, (size_t)(dot - de->d_name), mods[i].name))
				continue;
			mods[i].path = strdup(path);
			if (!mods[i].path) {
				closedir(d);
				return -ENOMEM;
			}
			break;
		}
	}
	closedir(d);
	return 0;
}

/* the lines of /proc/modules; -EACCES when their addresses are hidden */
static int modules__read(FILE *fp, const char *path, struct module_map **out, size_t *nr,
			 struct perf_err *err)
{
	struct module_map *mods = NULL, *n;
	size_t alloc = 0;
	char line[1024];

	*nr = 0;
	while (fgets(line, sizeof(line), fp)) {
		struct module_map m = { .path = NULL };

		/* name size refcount deps state address */
		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", m.name, &m.size, &m.addr) != 3)
			continue;
		if (!m.addr) {
			free(mods);
			return perf_err__set(err, EACCES, "%s: module addresses are hidden (kernel.kptr_restrict)", path);
		}
		if (*nr == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			n = realloc(mods, alloc * sizeof(*n));
			if (!n) {
				free(mods);
				return perf_err__set(err, ENOMEM, "out of memory");
			}
			mods = n;
		}
		mods[(*nr)++] = m;
	}
	*out = mods;
	return 0;
}

int record_synth__modules(const struct record_synth *s, struct perf_err *err)
{
	char path[PATH_MAX], moddir[PATH_MAX + 32], file[80];
	struct module_map *mods = NULL;
	struct synth_run *r;
	struct utsname u;
	size_t nr = 0;
	int ret;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/modules", s->proc ? s->proc : "/proc");
	fp = fopen(path, "re");
	if (!fp)
		return errno == ENOENT ? 0 : perf_err__set(err, errno, "cannot read %s: %m", path);
	ret = modules__read(fp, path, &mods, &nr, err);
	fclose(fp);
	if (ret)
		return ret;
	r = malloc(sizeof(*r));
	if (!r) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	synth_run__init(r, s, err);
	if (nr && !uname(&u)) {
		snprintf(moddir, sizeof(moddir), "/lib/modules/%s", u.release);
		if (modules__find(moddir, mods, nr, 0))
			ret = perf_err__set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nr && !ret; i++) {
		snprintf(file, sizeof(file), "[%s]", mods[i].name);
		snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id",
			 s->sys ? s->sys : "/sys", mods[i].name);
		ret = synth__kernel_map(r, mods[i].addr, mods[i].size, 0,
					mods[i].path ? mods[i].path : file, path);
	}
	synth_run__exit(r);
	free(r);
out_free:
	for (size_t i = 0; i < nr; i++)
		free(mods[i].path);
	free(mods);
	return ret;
}

/* ---- processes ---------------------------------------------------------------------------- */

/* the build id of the file at name when it is still the mapped one (dev, ino) */
static const struct bid_cache_entry *synth__file_build_id(struct synth_run *r, const char *name,
							  u64 dev, u64 ino)
{
	struct bid_cache_entry *e;
	struct stat st;
	size_t size = 0;

	for (size_t i = 0; i < r->nr_bids; i++)
		if (r->bids[i].dev == dev && r->bids[i].ino == ino)
			return &r->bids[i];
	if (r->nr_bids == r->alloc_bids) {
		size_t n = r->alloc_bids ? r->alloc_bids * 2 : 64;
		void *p = realloc(r->bids, n * sizeof(*r->bids));

		if (!p)
			return NULL;
		r->bids = p;
		r->alloc_bids = n;
	}
	e = &r->bids[r->nr_bids++];
	memset(e, 0, sizeof(*e));
	e->dev = dev;
	e->ino = ino;
	/* a file replaced since it was mapped is another build: keep maj/min/ino then */
	if (!stat(name, &st) && makedev(major(st.st_dev), minor(st.st_dev)) == dev &&
	    st.st_ino == ino && !build_id__read_file(name, e->id, &size))
		e->size = (u8)size;
	return e;
}

/*
 * One line of /proc/PID/maps: "start-end perms offset maj:min inode   name"; the name runs to
 * the end of the line (" (deleted)" included, as perf keeps it).
 */
static int synth__map_line(struct synth_run *r, u32 pid, u32 tid, char *line)
{
	struct {
		struct perf_record_mmap2 m;
	} rec;
	struct perf_record_mmap2 *m = &rec.m;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8], *path;
	const char *name;
	int n = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &n) < 7 || !n || strlen(perms) < 4)
		return 0;	/* not a mapping line: nothing to synthesize */
	path = line + n;
	path[strcspn(path, "\n")] = '\0';
	name = path;
	if (perms[2] != 'x' && !r->s->data_maps)
		return 0;
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	m->tid = tid;
	m->start = start;
	m->len = end - start;
	m->pgoff = pgoff;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->header.misc = PERF_RECORD_MISC_USER | (perms[2] == 'x' ? 0 : PERF_RECORD_MISC_MMAP_DATA);
	if (!*name)
		name = "//anon";
	if (r->s->build_ids) {
		const u8 *id = NULL;
		u8 size = 0;

		if (name[0] == '/' && ino) {
			const struct bid_cache_entry *e =
				synth__file_build_id(r, name, makedev(maj, min), ino);

			if (!e)
				return perf_err__set(r->err, ENOMEM, "out of memory");
			id = e->id;
			size = e->size;
		} else if (!strcmp(name, "[vdso]")) {
			id = r->vdso_id;
			size = r->vdso_size;
		}
		if (size) {
			m->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
			memset(&m->maj, 0, sizeof(m->maj) + sizeof(m->min) + sizeof(m->ino) +
					   sizeof(m->ino_generation));
			m->build_id_size = size;
			memcpy(m->build_id, id, size);
		}
	}
	n = perf_record_mmap2__synthesize(r->buf, sizeof(r->buf), r->s->attr, &r->id, m, name);
	if (n < 0)
		return perf_err__set(r->err, -n, "synthesized MMAP2 of %s too long", name);
	r->stats.mmaps++;
	return r->s->emit(r->s->ctx, (struct perf_event_header *)r->buf);
}

/* the mappings of tgid (read from /proc/TID/maps), as pid tgid / tid */
static int synth__maps(struct synth_run *r, u32 tgid, u32 tid)
{
	char path[PATH_MAX], line[PATH_MAX + 128];
	FILE *fp;
	int ret = 0;

	if (r->s->no_maps)
		return 0;
	snprintf(path, sizeof(path), "%s/%u/maps", r->proc, tid);
	fp = fopen(path, "re");
	if (!fp)
		return perf_err__set(r->err, errno, "cannot read %s: %m", path);
	while (!ret && fgets(line, sizeof(line), fp))
		ret = synth__map_line(r, tgid, tid, line);
	fclose(fp);
	return ret;
}

/* Tgid and PPid of /proc/TID/status */
static int synth__status(struct synth_run *r, u32 tid, u32 *tgid, u32 *ppid)
{
	char path[PATH_MAX], line[256];
	FILE *fp;
	int found = 0;

	snprintf(path, sizeof(path), "%s/%u/status", r->proc, tid);
	fp = fopen(path, "re");
	if (!fp)
		return perf_err__set(r->err, errno, "cannot read %s: %m", path);
	while (found < 2 && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "Tgid: %u", tgid) == 1 || sscanf(line, "PPid: %u", ppid) == 1)
			found++;
	}
	fclose(fp);
	if (found < 2)
		return perf_err__set(r->err, EINVAL, "%s: no Tgid and PPid lines", path);
	return 0;
}

/*
 * A thread's COMM; with fork_ppid (not 0, or the process's parent pid when the thread leads
 * it) a FORK first, from that parent for a leader and from the leader for a thread, as perf
 * writes every thread it finds with -a: readers then know the threads' parents. The name is
 * read first, so that a thread gone since the listing leaves no FORK behind.
 */
static int synth__comm(struct synth_run *r, u32 tgid, u32 tid, const u32 *fork_ppid)
{
	struct { u32 pid, tid; } c = { tgid, tid };
	char path[PATH_MAX], comm[64];
	FILE *fp;
	int ret;

	snprintf(path, sizeof(path), "%s/%u/task/%u/comm", r->proc, tgid, tid);
	fp = fopen(path, "re");
	if (!fp)
		return perf_err__set(r->err, errno, "cannot read %s: %m", path);
	if (!fgets(comm, sizeof(comm), fp))
		comm[0] = '\0';
	fclose(fp);
	comm[strcspn(comm, "\n")] = '\0';
	if (fork_ppid) {
		u32 parent = tid == tgid ? *fork_ppid : tgid;
		struct { u32 pid, ppid, tid, ptid; u64 time; } f = {
			.pid = tgid, .ppid = parent, .tid = tid, .ptid = parent,
		};

		ret = synth__emit(r, PERF_RECORD_FORK, 0, &f, sizeof(f), NULL);
		if (ret)
			return ret;
	}
	r->stats.threads++;
	return synth__emit(r, PERF_RECORD_COMM, 0, &c, sizeof(c), comm);
}

/*
 * The namespaces of a thread as the kernel's NAMESPACES record gives them: for each of its
 * seven kinds, in the kernel's index order, the device and inode of /proc/TID/ns/KIND (zeros
 * for a kind this kernel or this user cannot see, as perf)
 */
static const char *const ns_kinds[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

static int synth__namespaces(struct synth_run *r, u32 tgid, u32 tid)
{
	struct {
		u32				pid, tid;
		u64				nr;
		struct perf_ns_link_info	link[ARRAY_SIZE(ns_kinds)];
	} ns = { .pid = tgid, .tid = tid, .nr = ARRAY_SIZE(ns_kinds) };

	if (!r->s->namespaces)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(ns_kinds); i++) {
		char path[PATH_MAX];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%u/ns/%s", r->proc, tid, ns_kinds[i]);
		if (stat(path, &st))
			continue;
		ns.link[i].dev = (u64)st.st_dev;
		ns.link[i].ino = (u64)st.st_ino;
	}
	return synth__emit(r, PERF_RECORD_NAMESPACES, 0, &ns, sizeof(ns), NULL);
}

/* kthreadd (pid 2) and its children have no user mappings */
static bool is_kernel_thread(u32 pid, u32 ppid)
{
	return pid == 2 || ppid == 2;
}

static int u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* the numeric entries of dir, sorted; *nr of them in a malloc'd array */
static int numeric_entries(const char *dir, u32 **out, size_t *nr, struct perf_err *err)
{
	size_t n = 0, alloc = 0;
	struct dirent *de;
	u32 *v = NULL;
	DIR *d = opendir(dir);

	if (!d)
		return perf_err__set(err, errno, "cannot read %s: %m", dir);
	while ((de = readdir(d))) {
		char *end;
		unsigned long x = strtoul(de->d_name, &end, 10);

		if (*end || end == de->d_name || x > UINT32_MAX)
			continue;
		if (n == alloc) {
			u32 *p;

			alloc = alloc ? alloc * 2 : 64;
			p = realloc(v, alloc * sizeof(*v));
			if (!p) {
				free(v);
				closedir(d);
				return perf_err__set(err, ENOMEM, "out of memory");
			}
			v = p;
		}
		v[n++] = (u32)x;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), u32_cmp);
	*out = v;
	*nr = n;
	return 0;
}

/*
 * Every thread of pid's process (a COMM each), its mappings after the leader's COMM. A pid
 * that is a thread's: its process when the user named it (as perf -p does), else nothing
 * (the process comes on its own in the listing).
 */
static int synth__process(struct synth_run *r, u32 pid, bool named)
{
	char dir[PATH_MAX];
	u32 *tids, tgid, ppid;
	size_t nr;
	int ret;

	ret = synth__status(r, pid, &tgid, &ppid);
	if (ret)
		return ret;
	if (tgid != pid) {
		if (!named)
			return 0;
		pid = tgid;
		ret = synth__status(r, pid, &tgid, &ppid);
		if (ret)
			return ret;
	}
	snprintf(dir, sizeof(dir), "%s/%u/task", r->proc, pid);
	ret = numeric_entries(dir, &tids, &nr, r->err);
	if (ret)
		return ret;
	r->stats.processes++;
	for (size_t i = 0; i < nr && !ret; i++) {
		/* perf's order for a process it reads: NAMESPACES, then COMM */
		ret = synth__namespaces(r, pid, tids[i]);
		/* the whole system (-a, -C): a FORK too, as perf; not for a process named (-p) */
		if (!ret)
			ret = synth__comm(r, pid, tids[i], named ? NULL : &ppid);
		/* a thread that ended since the listing is not the process's end */
		if (ret == -ENOENT && tids[i] != pid) {
			r->stats.vanished++;
			ret = 0;
			continue;
		}
		if (!ret && tids[i] == pid && !is_kernel_thread(pid, ppid))
			ret = synth__maps(r, pid, pid);
	}
	free(tids);
	return ret;
}

/* the user named it: say which process and why in one line */
static int synth__named(struct synth_run *r, const char *what, u32 pid, int ret)
{
	char msg[sizeof(r->err->msg)];

	if (!ret || !r->err)
		return ret;
	snprintf(msg, sizeof(msg), "%s", r->err->msg);
	return perf_err__set(r->err, -ret, "cannot synthesize %s %u: %s%s", what, pid, msg,
			     ret == -ENOENT ? " (it does not exist or has exited)" : "");
}

int record_synth__process(const struct record_synth *s, pid_t pid, struct perf_err *err)
{
	struct synth_run *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return perf_err__set(err, ENOMEM, "out of memory");
	synth_run__init(r, s, err);
	ret = synth__named(r, "process", (u32)pid, synth__process(r, (u32)pid, true));
	synth_run__exit(r);
	free(r);
	return ret;
}

int record_synth__thread(const struct record_synth *s, pid_t tid, struct perf_err *err)
{
	struct synth_run *r = malloc(sizeof(*r));
	u32 tgid, ppid;
	int ret;

	if (!r)
		return perf_err__set(err, ENOMEM, "out of memory");
	synth_run__init(r, s, err);
	ret = synth__status(r, (u32)tid, &tgid, &ppid);
	if (!ret)
		ret = synth__comm(r, tgid, (u32)tid, NULL);
	/* perf's order for a thread it is given: COMM, then NAMESPACES */
	if (!ret)
		ret = synth__namespaces(r, tgid, (u32)tid);
	if (!ret && !is_kernel_thread(tgid, ppid))
		ret = synth__maps(r, tgid, (u32)tid);
	ret = synth__named(r, "thread", (u32)tid, ret);
	synth_run__exit(r);
	free(r);
	return ret;
}

int record_synth__all(const struct record_synth *s, struct record_synth_stats *stats,
		      struct perf_err *err)
{
	struct synth_run *r = malloc(sizeof(*r));
	u32 *pids = NULL;
	size_t nr = 0;
	int ret;

	if (!r)
		return perf_err__set(err, ENOMEM, "out of memory");
	synth_run__init(r, s, err);
	ret = numeric_entries(r->proc, &pids, &nr, err);
	for (size_t i = 0; i < nr && !ret; i++) {
		ret = synth__process(r, pids[i], false);
		/* gone between the listing and the read: what -a meets all the time */
		if (ret == -ENOENT || ret == -ESRCH) {
			r->stats.vanished++;
			ret = 0;
		} else if (ret == -EACCES || ret == -EPERM) {
			/* another user namespace's init, say: its samples show unresolved */
			r->stats.unreadable++;
			ret = 0;
		}
	}
	if (stats)
		*stats = r->stats;
	free(pids);
	synth_run__exit(r);
	free(r);
	return ret;
}

int record_synth__namespaces(const struct record_synth *s, pid_t pid, struct perf_err *err)
{
	struct synth_run *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return perf_err__set(err, ENOMEM, "out of memory");
	synth_run__init(r, s, err);
	ret = synth__named(r, "the namespaces of", (u32)pid,
			   synth__namespaces(r, (u32)pid, (u32)pid));
	synth_run__exit(r);
	free(r);
	return ret;
}

/* ---- cgroups ------------------------------------------------------------------------------ */

/* the kernel's id of a cgroup: its directory's file handle, 8 bytes on cgroupfs */
static int cgroup__id(const char *path, u64 *id)
{
	struct {
		struct file_handle	fh;
		u64			id;
	} h = { .fh = { .handle_bytes = sizeof(u64) } };
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return -errno;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

/* one CGROUP record for the cgroup at root/rel, then its children, depth first */
static int synth__cgroup_tree(struct synth_run *r, const char *root, char *rel, size_t size,
			      int depth)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t len = strlen(rel);
	DIR *d;
	u64 id;
	int ret;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	if (cgroup__id(path, &id))
		return 0;	/* gone, or no handles here: perf skips it too */
	ret = synth__emit(r, PERF_RECORD_CGROUP, 0, &id, sizeof(id), rel[0] ? rel : "/");
	if (ret || depth > 64)
		return ret;
	d = opendir(path);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (len + 1 + strlen(de->d_name) >= size)
			continue;
		snprintf(rel + len, size - len, "/%s", de->d_name);
		ret = synth__cgroup_tree(r, root, rel, size, depth + 1);
		rel[len] = '\0';
	}
	closedir(d);
	return ret;
}

int record_synth__cgroups(const struct record_synth *s, struct perf_err *err)
{
	struct synth_run *r;
	char root[PATH_MAX], rel[PATH_MAX] = "";
	int ret = cgroupfs__mountpoint(s->proc, root, sizeof(root));

	if (ret)
		return perf_err__set(err, -ret, "no cgroup filesystem with perf_event (cgroup v1) or cgroup2 in /proc/mounts");
	r = malloc(sizeof(*r));
	if (!r)
		return perf_err__set(err, ENOMEM, "out of memory");
	synth_run__init(r, s, err);
	ret = synth__cgroup_tree(r, root, rel, sizeof(rel), 0);
	synth_run__exit(r);
	free(r);
	return ret;
}

/* ---- the vDSO ----------------------------------------------------------------------------- */

const void *vdso__image(size_t *size)
{
	unsigned long ehdr = getauxval(AT_SYSINFO_EHDR);
	const u8 *image = (const u8 *)ehdr;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;

	if (!image || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* the image ends with its section headers */
	*size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	return *size <= (1u << 24) ? image : NULL;
}

int vdso__build_id(u8 *id, size_t *size)
{
	size_t len;
	const u8 *image = vdso__image(&len);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;

	if (!image)
		return -ENOENT;
	for (u16 i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(image + eh->e_phoff + (size_t)i * eh->e_phentsize);

		if (ph->p_type != PT_NOTE || ph->p_offset > len || ph->p_filesz > len - ph->p_offset)
			continue;
		if (!build_id__parse_notes(image + ph->p_offset, ph->p_filesz, id, size))
			return 0;
	}
	return -ENOENT;
}
