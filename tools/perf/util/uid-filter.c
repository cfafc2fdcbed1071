// SPDX-License-Identifier: GPL-2.0
/* perf record --uid with -a or -C. See uid-filter.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/event.h>
#include "hash.h"
#include "uid-filter.h"

struct uid_filter_pid {
	struct hashmap_node	node;
	u32			pid;
	u32			ppid;	/* !known: its parent, whose uid it has */
	uid_t			uid;
	bool			known;
	bool			exited;	/* forgotten when nothing is held */
};

/* how far up a chain of parents not known yet is followed */
#define MAX_PARENTS	64

static void uid_filter_pid__free(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct uid_filter_pid, node));
}

void uid_filter__exit(struct uid_filter *f)
{
	hashmap__clear(&f->pids, uid_filter_pid__free, NULL);
	hashmap__exit(&f->pids);
	free(f->held);
	f->held = NULL;
	f->held_size = f->held_alloc = 0;
}

static struct uid_filter_pid *uid_filter__find(struct uid_filter *f, u32 pid)
{
	size_t h = (size_t)hash__u64(pid);
	struct hashmap_node *pos;

	hashmap__for_each_hash(&f->pids, pos, h) {
		struct uid_filter_pid *p = container_of(pos, struct uid_filter_pid, node);

		if (p->pid == pid)
			return p;
	}
	return NULL;
}

/* pid has uid (known), or its parent ppid's when that is known */
static void uid_filter__set(struct uid_filter *f, u32 pid, bool known, uid_t uid, u32 ppid)
{
	struct uid_filter_pid *p = uid_filter__find(f, pid);

	if (!p) {
		p = malloc(sizeof(*p));
		if (!p)
			return;
		p->pid = pid;
		if (hashmap__add(&f->pids, &p->node, (size_t)hash__u64(pid))) {
			free(p);
			return;
		}
	}
	p->known = known;
	p->uid = uid;
	p->ppid = ppid;
	p->exited = false;
}

/* the real uid of pid from its status file ("Uid:\treal\teffective\tsaved\tfs") */
static int proc__real_uid(const char *proc, u32 pid, uid_t *uid)
{
	char path[64], line[256];
	unsigned long v;
	int ret = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%u/status", proc, pid);
	fp = fopen(path, "re");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "Uid:", 4))
			continue;
		if (sscanf(line + 4, "%lu", &v) == 1) {
			*uid = (uid_t)v;
			ret = 0;
		}
		break;
	}
	fclose(fp);
	return ret;
}

void uid_filter__init(struct uid_filter *f, uid_t uid, const char *proc)
{
	memset(f, 0, sizeof(*f));
	f->uid = uid;
	f->proc = proc;
	hashmap__init(&f->pids, 256);
}

int uid_filter__scan(struct uid_filter *f)
{
	struct dirent *d;
	uid_t owner;
	DIR *dir;

	dir = opendir(f->proc);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		char *end;
		unsigned long pid;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid = strtoul(d->d_name, &end, 10);
		if (*end || pid > UINT32_MAX)
			continue;
		if (!proc__real_uid(f->proc, (u32)pid, &owner))
			uid_filter__set(f, (u32)pid, true, owner, 0);
	}
	closedir(dir);
	return 0;
}

/* from the table, following the parents of children not known yet; 0 and *uid, or -1 */
static int uid_filter__table(struct uid_filter *f, struct uid_filter_pid *p, int depth,
			     uid_t *uid)
{
	struct uid_filter_pid *parent;

	if (p->known) {
		*uid = p->uid;
		return 0;
	}
	if (depth >= MAX_PARENTS)
		return -1;
	parent = uid_filter__find(f, p->ppid);
	if (!parent || uid_filter__table(f, parent, depth + 1, uid))
		return -1;
	p->known = true;
	p->uid = *uid;
	return 0;
}

/* 0 and *uid, or -1: the process is gone and was never seen */
static int uid_filter__uid_of(struct uid_filter *f, u32 pid, uid_t *uid)
{
	struct uid_filter_pid *p;

	if (!pid) {
		*uid = 0;
		return 0;
	}
	p = uid_filter__find(f, pid);
	if (p && !uid_filter__table(f, p, 0, uid))
		return 0;
	if (proc__real_uid(f->proc, pid, uid))
		return -1;
	uid_filter__set(f, pid, true, *uid, 0);
	return 0;
}

static void uid_filter__sideband(struct uid_filter *f, const struct perf_event_header *ev)
{
	const struct perf_record_fork *fork = (const void *)ev;
	const struct perf_record_comm *comm = (const void *)ev;
	struct uid_filter_pid *p;
	uid_t uid;

	switch (ev->type) {
	case PERF_RECORD_FORK:
		if (ev->size < sizeof(*fork) || fork->pid == fork->ppid)
			break;	/* a new thread: its process is known or looked up */
		/* its parent's uid, or the parent itself when its FORK is yet to be read */
		if (!uid_filter__uid_of(f, fork->ppid, &uid))
			uid_filter__set(f, fork->pid, true, uid, 0);
		else
			uid_filter__set(f, fork->pid, false, 0, fork->ppid);
		break;
	case PERF_RECORD_EXIT:
		/* held samples of it, from rings read before its FORK's, still need it */
		if (ev->size >= sizeof(*fork) && fork->pid == fork->tid &&
		    (p = uid_filter__find(f, fork->pid)) && !p->exited) {
			p->exited = true;
			f->nr_exited++;
		}
		break;
	case PERF_RECORD_COMM:
		/* su and the like: a new program, maybe another user; gone already: as it was */
		if (ev->size >= sizeof(*comm) && (ev->misc & PERF_RECORD_MISC_COMM_EXEC) &&
		    !proc__real_uid(f->proc, comm->pid, &uid))
			uid_filter__set(f, comm->pid, true, uid, 0);
		break;
	default:
		break;
	}
}

/* a held record: its pid, then the record, padded to 8 bytes */
struct uid_filter_held {
	u32	pid;
	u16	size;		/* of the record */
	u16	passes;		/* ends of a pass it was held over */
	u64	record[];
};

static int uid_filter__hold(struct uid_filter *f, u32 pid, const struct perf_event_header *ev)
{
	size_t need = sizeof(struct uid_filter_held) + ((ev->size + 7u) & ~7u);
	struct uid_filter_held *h;

	if (f->held_size + need > f->held_alloc) {
		size_t alloc = f->held_alloc ? f->held_alloc * 2 : 65536;
		void *p;

		while (alloc < f->held_size + need)
			alloc *= 2;
		p = realloc(f->held, alloc);
		if (!p)
			return -ENOMEM;
		f->held = p;
		f->held_alloc = alloc;
	}
	h = (struct uid_filter_held *)((char *)f->held + f->held_size);
	h->pid = pid;
	h->size = ev->size;
	h->passes = 0;
	memcpy(h->record, ev, ev->size);
	f->held_size += need;
	return 0;
}

/* the verdict on a record of pid's, whose user is uid (known) or not */
static enum uid_filter_verdict uid_filter__count(struct uid_filter *f, u16 type, bool known,
						 uid_t uid)
{
	bool sample = type == PERF_RECORD_SAMPLE;

	if (!known) {
		f->unknown += sample;
		return UID_FILTER_DROP;
	}
	if (uid != f->uid) {
		f->dropped += sample;
		return UID_FILTER_DROP;
	}
	f->kept += sample;
	return UID_FILTER_KEEP;
}

enum uid_filter_verdict uid_filter__keep(struct uid_filter *f, const struct perf_evattr *ea,
					 const struct perf_event_header *ev)
{
	bool known;
	uid_t uid;
	u32 pid;

	if (ev->type != PERF_RECORD_SAMPLE && ev->type != PERF_RECORD_CALLCHAIN_DEFERRED) {
		uid_filter__sideband(f, ev);
		return UID_FILTER_KEEP;
	}
	if (!ea || perf_evattr__parse_pid(ea, ev, false, &pid))
		return UID_FILTER_KEEP;	/* nothing to decide on: kept, as without a filter */
	known = !uid_filter__uid_of(f, pid, &uid);
	if (!known && !uid_filter__hold(f, pid, ev))
		return UID_FILTER_HELD;	/* its FORK may be in a ring not read yet */
	return uid_filter__count(f, ev->type, known, uid);
}

/* the processes that exited in this pass: no held record needs them now */
static void uid_filter__forget_exited(struct uid_filter *f)
{
	struct hashmap_node *pos, *tmp;

	for (size_t bkt = 0; f->nr_exited && bkt < f->pids.nr_buckets; bkt++) {
		hashmap__for_each_safe(&f->pids, pos, tmp, bkt) {
			struct uid_filter_pid *p = container_of(pos, struct uid_filter_pid, node);

			if (p->exited) {
				hashmap__remove(&f->pids, pos);
				free(p);
			}
		}
	}
	f->nr_exited = 0;
}

int uid_filter__flush(struct uid_filter *f, bool last,
		      int (*emit)(void *ctx, const struct perf_event_header *ev), void *ctx)
{
	size_t off = 0, kept = 0;
	int ret = 0;

	while (off < f->held_size) {
		struct uid_filter_held *h = (struct uid_filter_held *)((char *)f->held + off);
		const struct perf_event_header *ev = (const void *)h->record;
		size_t len = sizeof(*h) + ((h->size + 7u) & ~7u);
		uid_t uid = 0;
		bool known = !uid_filter__uid_of(f, h->pid, &uid);

		off += len;
		if (ret)
			continue;	/* forgotten after a failed emit */
		if (!known && !h->passes++ && !last) {
			/* its FORK may have been written after its ring was read */
			memmove((char *)f->held + kept, h, len);
			kept += len;
			continue;
		}
		if (uid_filter__count(f, ev->type, known, uid) == UID_FILTER_KEEP)
			ret = emit(ctx, ev);
	}
	f->held_size = ret ? 0 : kept;
	if (!f->held_size)
		uid_filter__forget_exited(f);
	return ret;
}
