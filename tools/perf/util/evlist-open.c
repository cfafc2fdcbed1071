// SPDX-License-Identifier: GPL-2.0
/* Opening the recording's events and their rings. See evlist-open.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "cpu-list.h"
#include "evlist-open.h"

_Static_assert(sizeof(struct perf_event_attr) >= PERF_ATTR_SIZE_VER0, "attr");

static int sys_perf_event_open(const struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    PERF_FLAG_FD_CLOEXEC | flags);
}

/* slot -> (pid, cpu) and the ring it writes into */
static void slot_target(const struct evlist_target *t, size_t slot, pid_t *pid, int *cpu,
			size_t *ring)
{
	switch (t->kind) {
	case EVLIST_TARGET_WORKLOAD:
		*pid = t->pid;
		*cpu = t->per_thread ? -1 : t->cpus[slot];
		*ring = slot;
		break;
	case EVLIST_TARGET_THREADS:
		if (t->per_thread) {
			*pid = t->tids[slot];
			*cpu = -1;
			*ring = slot;
		} else {
			/* cpu-major, so that a cpu's first slot comes first */
			*pid = t->tids[slot % t->nr_tids];
			*cpu = t->cpus[slot / t->nr_tids];
			*ring = slot / t->nr_tids;
		}
		break;
	case EVLIST_TARGET_CPUS:
		*pid = -1;
		*cpu = t->wide ? t->wide_cpus[slot] : t->cpus[slot];
		*ring = slot;
		break;
	default:
		break;
	}
}

static size_t target__slots(const struct evlist_target *t, size_t *nr_rings)
{
	if (t->kind == EVLIST_TARGET_WORKLOAD && t->per_thread) {
		*nr_rings = 1;
		return 1;
	}
	if (t->kind == EVLIST_TARGET_CPUS && t->wide) {
		*nr_rings = t->nr_wide_cpus;
		return t->nr_wide_cpus;
	}
	if (t->kind != EVLIST_TARGET_THREADS) {
		*nr_rings = t->nr_cpus;
		return t->nr_cpus;
	}
	if (t->per_thread) {
		*nr_rings = t->nr_tids;
		return t->nr_tids;
	}
	*nr_rings = t->nr_cpus;
	return t->nr_tids * t->nr_cpus;
}

void evlist_open__close(struct evlist_open *el)
{
	if (el->rings)
		for (size_t r = 0; r < el->nr_rings; r++)
			ring_buffer__munmap(&el->rings[r]);
	if (el->fds)
		for (size_t i = 0; i < el->nr_slots * el->nr_events; i++)
			if (el->fds[i] >= 0)
				close(el->fds[i]);
	free(el->fds);
	free(el->ids);
	free(el->rings);
	free(el->ring_fds);
	free(el->slots);
	el->slots = NULL;
	el->fds = NULL;
	el->ids = NULL;
	el->rings = NULL;
	el->ring_fds = NULL;
	el->nr_slots = el->nr_rings = 0;
}

/* whether event e opens on cpu: with target->wide, only wide events leave target->cpus */
static bool target__event_on(const struct evlist_target *t, const int *leaders, size_t e,
			     int cpu)
{
	if (t->kind != EVLIST_TARGET_CPUS || !t->wide || t->wide[leaders ? (size_t)leaders[e] : e])
		return true;
	for (size_t i = 0; i < t->nr_cpus; i++)
		if (t->cpus[i] == cpu)
			return true;
	return false;
}

/* the descriptors of one slot: the ring's owner maps it, the others write into it */
static int slot__attach(struct evlist_open *el, int *fds, u64 *ids, size_t ring,
			struct perf_err *err)
{
	int ret;

	if (el->ring_fds[ring] < 0) {
		size_t owner = 0;

		while (owner < el->nr_events && fds[owner] < 0)
			owner++;
		if (owner == el->nr_events)
			return 0;	/* no event on this cpu: the ring stays unmapped */
		ret = el->overwrite ?
		      ring_buffer__mmap_overwrite(&el->rings[ring], fds[owner], el->mmap_pages, err) :
		      ring_buffer__mmap(&el->rings[ring], fds[owner], el->mmap_pages, err);
		if (ret) {
			el->failed_mmap = true;
			el->failed_errno = -ret;
			return ret;
		}
		el->ring_fds[ring] = fds[owner];
	}
	for (size_t e = 0; e < el->nr_events; e++) {
		if (fds[e] < 0)
			continue;	/* not on this cpu */
		if (fds[e] != el->ring_fds[ring] &&
		    ioctl(fds[e], PERF_EVENT_IOC_SET_OUTPUT, el->ring_fds[ring]))
			return perf_err__set(err, errno, "cannot redirect event %zu to its ring: %m", e);
		if (ioctl(fds[e], PERF_EVENT_IOC_ID, &ids[e]))
			return perf_err__set(err, errno, "cannot read an event id: %m");
	}
	return 0;
}

int evlist_open__open(struct evlist_open *el, const struct perf_event_attr *attrs,
		      size_t nr_events, const struct evlist_target *target, size_t mmap_pages,
		      struct perf_err *err)
{
	return evlist_open__open_groups(el, attrs, NULL, nr_events, target, mmap_pages, err);
}

int evlist_open__open_groups(struct evlist_open *el, const struct perf_event_attr *attrs,
			     const int *leaders, size_t nr_events,
			     const struct evlist_target *target, size_t mmap_pages,
			     struct perf_err *err)
{
	size_t nr_rings, nr_slots = target__slots(target, &nr_rings);
	size_t used = 0;
	int ret;

	memset(el, 0, sizeof(*el));
	el->failed_event = -1;
	el->nr_events = nr_events;
	el->mmap_pages = mmap_pages;
	/* all events share a ring, so all are backward (perf record --overwrite) or none */
	el->overwrite = nr_events && (attrs[0].flags & PERF_ATTR_FLAG(WRITE_BACKWARD));
	el->nr_rings = nr_rings;
	el->fds = malloc(nr_slots * nr_events * sizeof(*el->fds));
	el->ids = calloc(nr_slots * nr_events, sizeof(*el->ids));
	el->rings = calloc(nr_rings, sizeof(*el->rings));
	el->ring_fds = malloc(nr_rings * sizeof(*el->ring_fds));
	el->slots = calloc(nr_slots ? nr_slots : 1, sizeof(*el->slots));
	if (!el->fds || !el->ids || !el->rings || !el->ring_fds || !el->slots) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out_close;
	}
	for (size_t i = 0; i < nr_slots * nr_events; i++)
		el->fds[i] = -1;
	for (size_t r = 0; r < nr_rings; r++)
		el->ring_fds[r] = -1;
	for (size_t s = 0; s < nr_slots; s++) {
		int *fds = &el->fds[used * nr_events];
		bool gone = false;
		pid_t pid = -1;
		int cpu = -1;
		size_t ring = 0;

		slot_target(target, s, &pid, &cpu, &ring);
		for (size_t e = 0; e < nr_events; e++) {
			/* a member joins its leader of the same slot, opened before it */
			int group_fd = leaders && leaders[e] != (int)e ? fds[leaders[e]] : -1;
			bool cg = target->kind == EVLIST_TARGET_CPUS && e < target->nr_cgroup_fds &&
				  target->cgroup_fds[e] >= 0;

			if (!target__event_on(target, leaders, e, cpu))
				continue;

			/* -G: the cgroup directory's descriptor stands for the pid */
			fds[e] = sys_perf_event_open(&attrs[e], cg ? target->cgroup_fds[e] : pid, cpu,
						     group_fd, cg ? PERF_FLAG_PID_CGROUP : 0);
			if (fds[e] >= 0)
				continue;
			if (errno == ESRCH && target->kind == EVLIST_TARGET_THREADS &&
			    target->nr_tids > 1) {
				gone = true;	/* the thread exited since we listed it */
				break;
			}
			el->failed_event = (int)e;
			el->failed_errno = errno;
			ret = perf_err__set(err, errno, "perf_event_open (pid %d, cpu %d): %m", pid, cpu);
			el->nr_slots = used + 1;
			goto out_close;
		}
		el->slots[used] = (struct evlist_slot){ .pid = pid, .cpu = cpu };
		el->nr_slots = ++used;
		if (gone) {
			for (size_t e = 0; e < nr_events; e++)
				if (fds[e] >= 0)
					close(fds[e]);
			el->nr_slots = --used;
			continue;
		}
		ret = slot__attach(el, fds, &el->ids[(used - 1) * nr_events], ring, err);
		if (ret)
			goto out_close;
	}
	if (!used) {
		ret = perf_err__set(err, ESRCH, "every thread exited before it could be recorded");
		el->failed_errno = ESRCH;
		goto out_close;
	}
	return 0;

out_close:
	evlist_open__close(el);
	return ret;
}

int evlist_open__enable(struct evlist_open *el, bool enable, struct perf_err *err)
{
	unsigned long req = enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;

	for (size_t i = 0; i < el->nr_slots * el->nr_events; i++)
		if (el->fds[i] >= 0 && ioctl(el->fds[i], req, 0))
			return perf_err__set(err, errno, "cannot %s an event: %m",
					     enable ? "enable" : "disable");
	return 0;
}

int evlist_open__enable_event(struct evlist_open *el, size_t event, bool enable,
			      struct perf_err *err)
{
	unsigned long req = enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;

	for (size_t s = 0; s < el->nr_slots; s++) {
		int fd = el->fds[s * el->nr_events + event];

		if (fd >= 0 && ioctl(fd, req, 0))
			return perf_err__set(err, errno, "cannot %s event %zu: %m",
					     enable ? "enable" : "disable", event);
	}
	return 0;
}

int evlist_open__set_filter(struct evlist_open *el, size_t event, const char *filter,
			    struct perf_err *err)
{
	for (size_t s = 0; s < el->nr_slots; s++) {
		int fd = el->fds[s * el->nr_events + event];

		if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter))
			return perf_err__set(err, errno, "%m");
	}
	return 0;
}

size_t evlist_open__event_ids(const struct evlist_open *el, size_t event, u64 *out)
{
	size_t n = 0;

	for (size_t s = 0; s < el->nr_slots; s++)
		if (el->fds[s * el->nr_events + event] >= 0)
			out[n++] = el->ids[s * el->nr_events + event];
	return n;
}

/* cpu-list.h's numbers as the int CPUs of perf_event_open */
static int cpu_list__ints(const char *spec, int **out, size_t *nr, struct perf_err *err)
{
	u32 *cpus;
	int ret = cpu_list__cpus(spec, &cpus, nr, err);

	if (ret)
		return ret;
	*out = malloc(*nr * sizeof(**out));
	if (!*out) {
		free(cpus);
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < *nr; i++)
		(*out)[i] = (int)cpus[i];
	free(cpus);
	return 0;
}

/* the online CPUs of sysfs; the configured ones when it cannot be read */
static int cpu_list__online(char *buf, size_t size)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	bool ok = f && fgets(buf, (int)size, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	else
		snprintf(buf, size, "0-%ld", sysconf(_SC_NPROCESSORS_CONF) - 1);
	return 0;
}

int cpu_list__expand(const char *spec, int **cpus, size_t *nr, struct perf_err *err)
{
	char online[4096];
	int ret;

	cpu_list__online(online, sizeof(online));
	if (!spec) {
		ret = cpu_list__ints(online, cpus, nr, err);
		if (ret == -EINVAL)
			return perf_err__set(err, EINVAL, "cannot parse the online CPUs '%s'", online);
		return ret;
	}
	ret = cpu_list__ints(spec, cpus, nr, err);
	if (ret == -EINVAL) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return perf_err__set(err, EINVAL, "-C %s", why);
	}
	if (ret)
		return ret;
	for (size_t i = 0; i < *nr; i++) {
		if (cpu_list__has(online, (u32)(*cpus)[i]))
			continue;
		ret = perf_err__set(err, ENODEV, "-C %s: CPU %d is not online (online: %s)", spec,
				    (*cpus)[i], online);
		free(*cpus);
		*cpus = NULL;
		*nr = 0;
		return ret;
	}
	return 0;
}

static int tids_of_process(pid_t pid, pid_t **tids, size_t *nr, struct perf_err *err)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return perf_err__set(err, ESRCH, "-p %d: no such process (see ps -e for running ones)", pid);
	while ((d = readdir(dir))) {
		pid_t *n;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		n = realloc(*tids, (*nr + 1) * sizeof(**tids));
		if (!n) {
			closedir(dir);
			return perf_err__set(err, ENOMEM, "out of memory");
		}
		*tids = n;
		(*tids)[(*nr)++] = atoi(d->d_name);
	}
	closedir(dir);
	return 0;
}

/*
 * perf's reading of -p and -t: a comma list of decimal ids, each parsed by strtol (leading
 * blanks allowed), empty items skipped, duplicates dropped (perf keeps them in a set); no
 * ranges: perf 6.1 refuses "100-105" as it refuses any item with trailing characters.
 */
int id_list__parse(const char *spec, pid_t **ids, size_t *nr, struct perf_err *err)
{
	const char *p = spec;
	pid_t *v = NULL;
	size_t n = 0;

	*ids = NULL;
	*nr = 0;
	while (*p) {
		bool dup = false;
		char *end;
		long id;

		if (*p == ',') {
			p++;
			continue;
		}
		errno = 0;
		id = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || id <= 0 || id > INT_MAX)
			goto out_bad;
		p = end;
		for (size_t i = 0; i < n && !dup; i++)
			dup = v[i] == (pid_t)id;
		if (!dup) {
			pid_t *nv = realloc(v, (n + 1) * sizeof(*v));

			if (!nv) {
				free(v);
				return perf_err__set(err, ENOMEM, "out of memory");
			}
			v = nv;
			v[n++] = (pid_t)id;
		}
	}
	if (!n)
		goto out_bad;
	*ids = v;
	*nr = n;
	return 0;

out_bad:
	free(v);
	return -EINVAL;
}

int thread_list__expand(const pid_t *ids, size_t nr_ids, bool whole_process, pid_t **tids,
			size_t *nr, struct perf_err *err)
{
	int ret = 0;

	*tids = NULL;
	*nr = 0;
	for (size_t i = 0; i < nr_ids && !ret; i++) {
		char path[64];
		pid_t *nt;

		if (whole_process) {
			ret = tids_of_process(ids[i], tids, nr, err);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d", ids[i]);
		if (access(path, F_OK)) {
			ret = perf_err__set(err, ESRCH, "-t %d: no such thread (see ps -eL for running ones)",
					    ids[i]);
			continue;
		}
		nt = realloc(*tids, (*nr + 1) * sizeof(**tids));

		if (!nt) {
			ret = perf_err__set(err, ENOMEM, "out of memory");
			continue;
		}
		*tids = nt;
		(*tids)[(*nr)++] = ids[i];
	}
	if (ret) {
		free(*tids);
		*tids = NULL;
		*nr = 0;
	}
	return ret;
}

/* CAP_SYS_PTRACE (19) in our effective set, from /proc/self/status's CapEff */
static bool self__may_ptrace_all(void)
{
	unsigned long long caps = 0;
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &caps) == 1;
	fclose(f);
	return found && (caps & (1ULL << 19));
}

bool thread_list__foreign(const pid_t *tids, size_t nr, pid_t *tid, uid_t *owner)
{
	uid_t uid = getuid();

	if (self__may_ptrace_all())
		return false;
	for (size_t i = 0; i < nr; i++) {
		char path[64];
		struct stat st;

		/* /proc/PID is owned by the task's effective uid: what ptrace compares */
		snprintf(path, sizeof(path), "/proc/%d", tids[i]);
		if (stat(path, &st) || st.st_uid == uid)
			continue;
		*tid = tids[i];
		*owner = st.st_uid;
		return true;
	}
	return false;
}

int uid__parse(const char *spec, uid_t *uid)
{
	struct passwd *pw = getpwnam(spec);
	char *end;
	unsigned long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	/* a number names a uid whether or not passwd knows it, as perf */
	errno = 0;
	v = strtoul(spec, &end, 10);
	if (errno || end == spec || *end || !isdigit((unsigned char)spec[0]) || v >= (uid_t)-1)
		return -ENOENT;
	*uid = (uid_t)v;
	return 0;
}

static int pid_list__add(pid_t **v, size_t *n, pid_t id)
{
	pid_t *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	(*v)[(*n)++] = id;
	return 0;
}

static int pid__cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

int uid__threads(uid_t uid, pid_t **pids, size_t *nr_pids, pid_t **tids, size_t *nr_tids,
		 struct perf_err *err)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	int ret = 0;

	*pids = *tids = NULL;
	*nr_pids = *nr_tids = 0;
	if (!proc)
		return perf_err__set(err, errno, "cannot read /proc: %m");
	while (!ret && (d = readdir(proc))) {
		char path[sizeof(d->d_name) + 8];
		struct stat st;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s", d->d_name);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		if (pid_list__add(pids, nr_pids, atoi(d->d_name)))
			ret = perf_err__set(err, ENOMEM, "out of memory");
	}
	closedir(proc);
	if (!ret && *pids)
		qsort(*pids, *nr_pids, sizeof(**pids), pid__cmp);
	for (size_t i = 0; i < *nr_pids && !ret; i++) {
		size_t before = *nr_tids;

		ret = tids_of_process((*pids)[i], tids, nr_tids, err);
		if (ret == -ESRCH) {	/* it exited since the listing */
			memmove(&(*pids)[i], &(*pids)[i + 1], (*nr_pids - i - 1) * sizeof(**pids));
			(*nr_pids)--;
			i--;
			*nr_tids = before;
			ret = 0;
		}
	}
	if (!ret && !*nr_tids)
		ret = perf_err__set(err, ESRCH, "the user runs no process to record");
	if (ret) {
		free(*pids);
		free(*tids);
		*pids = *tids = NULL;
		*nr_pids = *nr_tids = 0;
	}
	return ret;
}
