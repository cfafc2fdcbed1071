// SPDX-License-Identifier: GPL-2.0
/*
 * The machine: threads, maps and dsos rebuilt from side-band records, and address
 * resolution on them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <perf/record.h>
#include "hash.h"
#include "kallsyms.h"
#include "machine.h"
#include "perf-map.h"

#define THREAD_BUCKETS_MIN	256

static void thread__put_node(struct hashmap_node *node, void *arg)
{
	(void)arg;
	thread__put(container_of(node, struct thread, hash_node));
}

struct machine_cgroup {
	struct hashmap_node	node;
	u64			id;
	char			path[];
};

static void cgroup__free_node(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct machine_cgroup, node));
}

int machine__init(struct machine *machine, const struct symbol_conf *conf)
{
	struct thread *idle;

	memset(machine, 0, sizeof(*machine));
	machine->conf = conf;
	dsos__init(&machine->dsos);
	machine->kmaps = maps__new();
	hashmap__init(&machine->threads, THREAD_BUCKETS_MIN);
	hashmap__init(&machine->cgroups, 0);
	if (!machine->kmaps) {
		machine__exit(machine);
		return -ENOMEM;
	}
	/* the idle task, which perf names for kernel records of pid -1 / tid 0 */
	idle = machine__findnew_thread(machine, 0, 0);
	if (!idle || thread__set_comm(idle, "swapper", 0, false)) {
		machine__exit(machine);
		return -ENOMEM;
	}
	return 0;
}

void machine__exit(struct machine *machine)
{
	hashmap__clear(&machine->threads, thread__put_node, NULL);
	hashmap__exit(&machine->threads);
	hashmap__clear(&machine->cgroups, cgroup__free_node, NULL);
	hashmap__exit(&machine->cgroups);
	map__put(machine->kernel_map);
	maps__put(machine->kmaps);
	dsos__exit(&machine->dsos);
	free(machine->dir_kallsyms);
	memset(machine, 0, sizeof(*machine));
}

static size_t cgroup_hash(u64 id)
{
	u64 h = id * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h ^ h >> 32);
}

const char *machine__find_cgroup(const struct machine *machine, u64 id)
{
	size_t h = cgroup_hash(id);
	struct hashmap_node *pos;

	hashmap__for_each_hash(&machine->cgroups, pos, h) {
		const struct machine_cgroup *cg = container_of(pos, struct machine_cgroup, node);

		if (cg->id == id)
			return cg->path;
	}
	return NULL;
}

int machine__process_cgroup(struct machine *machine, const struct perf_event_header *h)
{
	const struct perf_record_cgroup *rec = (const void *)h;
	struct machine_cgroup *cg;
	size_t len;

	if (h->size < sizeof(*rec) || machine__find_cgroup(machine, rec->id))
		return 0;
	len = strnlen(rec->path, h->size - sizeof(*rec));
	cg = malloc(sizeof(*cg) + len + 1);
	if (!cg)
		return -ENOMEM;
	cg->id = rec->id;
	memcpy(cg->path, rec->path, len);
	cg->path[len] = '\0';
	if (hashmap__add(&machine->cgroups, &cg->node, cgroup_hash(rec->id))) {
		free(cg);
		return -ENOMEM;
	}
	return 0;
}

static size_t tid_hash(s32 tid)
{
	return (size_t)hash__u64((u32)tid);
}

struct thread *machine__find_thread(struct machine *machine, s32 tid)
{
	size_t h = tid_hash(tid);
	struct hashmap_node *pos;

	hashmap__for_each_hash(&machine->threads, pos, h) {
		struct thread *t = container_of(pos, struct thread, hash_node);

		if (t->tid == tid)
			return t;
	}
	return NULL;
}

/* out of the hash, and the machine's reference dropped: held references keep it alive */
static void machine__remove_thread(struct machine *machine, struct thread *thread)
{
	hashmap__remove(&machine->threads, &thread->hash_node);
	thread__put(thread);
}

static struct thread *machine__add_thread(struct machine *machine, s32 pid, s32 tid)
{
	struct thread *t = thread__new(pid, tid);
	char placeholder[16];

	if (!t)
		return NULL;
	snprintf(placeholder, sizeof(placeholder), ":%d", tid);
	if (thread__set_comm(t, placeholder, 0, false)) {
		thread__put(t);
		return NULL;
	}
	t->comm_set = false;
	/* threads of one process share the leader's maps */
	if (pid != tid && pid != -1) {
		struct thread *leader = machine__findnew_thread(machine, pid, pid);

		if (leader)
			t->maps = maps__get(leader->maps);
	}
	if (!t->maps) {
		t->maps = maps__new();
		/*
		 * Frame caches key on the maps' address: a thread put after its removal may have
		 * freed maps this allocation reuses, so cached resolutions are stale from now on.
		 */
		machine->maps_gen++;
	}
	if (!t->maps) {
		thread__put(t);
		return NULL;
	}
	if (hashmap__add(&machine->threads, &t->hash_node, tid_hash(tid))) {
		thread__put(t);
		return NULL;
	}
	return t;
}

struct thread *machine__findnew_thread(struct machine *machine, s32 pid, s32 tid)
{
	struct thread *t = machine__find_thread(machine, tid);

	if (t) {
		/* a thread first seen without its pid (e.g. from a sample_id-less record) */
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return t;
	}
	return machine__add_thread(machine, pid, tid);
}

/* "[kernel.kallsyms]_text" -> "_text": the symbol whose address the mmap's pgoff holds */
static const char *kernel_ref_symbol(const char *filename)
{
	const char *p = strchr(filename, ']');

	return p && p[1] ? p + 1 : NULL;
}

static bool is_kernel_mmap(const char *filename)
{
	return !strncmp(filename, "[kernel.kallsyms]", 17) || !strncmp(filename, "[guest.kernel.kallsyms", 22);
}

static int machine__add_kernel_map(struct machine *machine, const char *filename, u64 start,
				   u64 len, u64 pgoff)
{
	struct dso *dso;
	struct map *map;

	/* cached frame resolutions are stale from now on */
	machine->maps_gen++;

	if (is_kernel_mmap(filename)) {
		const char *ref = kernel_ref_symbol(filename);

		dso = dsos__findnew(&machine->dsos, "[kernel.kallsyms]", DSO_KIND_KERNEL);
		if (!dso)
			return -ENOMEM;
		machine->kernel_dso = dso;
		if (ref) {
			machine->ref_reloc_sym_name = !strcmp(ref, "_stext") ? "_stext" : "_text";
			machine->ref_reloc_sym_addr = pgoff;
		}
	} else {
		char name[256];
		const char *base = strrchr(filename, '/');
		size_t n;

		/* a module: recorded as "[name]" or as the path of its .ko */
		if (filename[0] == '[') {
			snprintf(name, sizeof(name), "%s", filename);
		} else {
			base = base ? base + 1 : filename;
			n = strcspn(base, ".");
			snprintf(name, sizeof(name), "[%.*s]", (int)n, base);
			for (char *p = name; *p; p++)
				if (*p == '-')
					*p = '_';
		}
		dso = dsos__findnew(&machine->dsos, name, DSO_KIND_KMODULE);
		if (!dso)
			return -ENOMEM;
		/* the header's build id is filed under the module's path */
		if (filename[0] != '[' && !dso->has_build_id) {
			const struct dso *file = dsos__find(&machine->dsos, filename);

			if (file && file->has_build_id)
				dso__set_build_id(dso, file->build_id, file->build_id_size);
		}
	}
	/* kernel maps resolve by address: pgoff = start makes map__map_ip() the identity */
	map = map__new(start, len, start, dso);
	if (!map)
		return -ENOMEM;
	if (dso->kind == DSO_KIND_KERNEL) {
		map__put(machine->kernel_map);
		machine->kernel_map = map__get(map);
	}
	if (maps__insert_clipped(machine->kmaps, map)) {
		map__put(map);
		return -ENOMEM;
	}
	map__put(map);
	return 0;
}

int machine__process_mmap(struct machine *machine, const struct perf_event_header *h, u64 time)
{
	const struct perf_record_mmap *m = (const void *)h;
	u8 cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const char *filename;
	u64 start, len, pgoff;
	u32 pid, tid, prot = 0, flags = 0;
	u64 ino = 0;
	bool ino_valid = false;
	struct dso_id id = { 0 };
	size_t fixed;
	struct thread *thread;
	enum dso_kind kind;
	char jit_name[32];
	struct dso *dso;
	struct map *map;
	int ret;

	/* cached frame resolutions are stale from now on */
	machine->maps_gen++;

	(void)time;
	/* MMAP2 starts like MMAP: pid, tid, start, len, pgoff */
	fixed = perf_record_type__info(h->type)->fixed_size;
	if (h->size <= fixed)
		return -EINVAL;
	pid = m->pid;
	tid = m->tid;
	start = m->start;
	len = m->len;
	pgoff = m->pgoff;
	filename = (const char *)h + fixed;
	if (h->type == PERF_RECORD_MMAP2) {
		const struct perf_record_mmap2 *m2 = (const void *)h;

		prot = m2->prot;
		flags = m2->flags;
		if (perf_record_mmap2__has_build_id(m2)) {
			id.build_id_size = m2->build_id_size;
			memcpy(id.build_id, m2->build_id, id.build_id_size);
		} else {
			ino = m2->ino;
			ino_valid = true;
			id.inode = (struct dso_inode){
				.maj = m2->maj, .min = m2->min, .ino = m2->ino,
				.ino_generation = m2->ino_generation, .valid = true,
			};
		}
	} else if (!(h->misc & PERF_RECORD_MISC_MMAP_DATA)) {
		/* an MMAP record maps code unless it says otherwise, as perf takes it */
		prot = PROT_EXEC;
	}
	/* the filename must end inside the record */
	if (!memchr(filename, '\0', h->size - fixed))
		return -EINVAL;
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return machine__add_kernel_map(machine, filename, start, len, pgoff);

	thread = machine__findnew_thread(machine, (s32)pid, (s32)tid);
	if (!thread)
		return -ENOMEM;
	/*
	 * One path, several files (a container's libc and the host's): the record's id tells
	 * them apart. perf finds [vdso] by its name alone.
	 */
	/* JIT'd code: upstream names the process's perf map, whether or not it exists */
	if (perf_map__is_jit_memory(filename, prot, flags) &&
	    perf_map__name((pid_t)pid, jit_name, sizeof(jit_name)))
		filename = jit_name;
	kind = dso__kind_of(filename);
	if (perf_map__pid(filename) >= 0)
		kind = DSO_KIND_ANON;
	dso = dsos__findnew_id(&machine->dsos, filename, kind, kind == DSO_KIND_VDSO ? NULL : &id);
	if (!dso)
		return -ENOMEM;
	map = map__new(start, len, pgoff, dso);
	if (!map)
		return -ENOMEM;
	map->prot = prot;
	map->flags = flags;
	map->ino = ino;
	map->identity = dso->kind == DSO_KIND_ANON;
	/* perf knows [vdso] by its name alone, never by the inode of its record */
	map->ino_valid = ino_valid && dso->kind != DSO_KIND_VDSO;
	ret = maps__insert(thread->maps, map);
	map__put(map);
	return ret;
}

int machine__process_comm(struct machine *machine, const struct perf_event_header *h, u64 time)
{
	const struct perf_record_comm *c = (const void *)h;
	bool exec = h->misc & PERF_RECORD_MISC_COMM_EXEC;
	struct thread *thread;

	if (h->size <= sizeof(*c) || !memchr(c->comm, '\0', h->size - sizeof(*c)))
		return -EINVAL;
	thread = machine__findnew_thread(machine, (s32)c->pid, (s32)c->tid);
	if (!thread)
		return -ENOMEM;
	/*
	 * exec keeps the old maps: samples taken in the kernel between the comm change and the
	 * return to the new image still carry the old image's user stack. The new image's
	 * mmaps replace whatever they overlap.
	 */
	return thread__set_comm(thread, c->comm, time, exec);
}

int machine__process_fork(struct machine *machine, const struct perf_event_header *h, u64 time)
{
	const struct perf_record_fork *f = (const void *)h;
	struct thread *parent, *child;

	/* cached frame resolutions are stale from now on */
	machine->maps_gen++;

	if (h->size < sizeof(*f))
		return -EINVAL;
	parent = machine__findnew_thread(machine, (s32)f->ppid, (s32)f->ptid);
	if (!parent)
		return -ENOMEM;
	/* a thread we already know under this tid is a recycled or out-of-order one: start over */
	child = machine__find_thread(machine, (s32)f->tid);
	if (child && child != parent)
		machine__remove_thread(machine, child);
	if (f->pid != f->ppid && f->pid == f->tid) {
		/* a new process: its own copy of the parent's address space */
		child = machine__findnew_thread(machine, (s32)f->pid, (s32)f->tid);
		if (!child)
			return -ENOMEM;
		/*
		 * perf record's synthesized forks (FORK_EXEC) come before the child's own
		 * synthesized mmaps, which are its whole address space: perf copies nothing
		 */
		if (parent->maps && parent->maps != child->maps &&
		    !(h->misc & PERF_RECORD_MISC_FORK_EXEC)) {
			struct maps *copy = maps__clone(parent->maps);

			if (!copy)
				return -ENOMEM;
			maps__put(child->maps);
			child->maps = copy;
		}
	} else {
		child = machine__findnew_thread(machine, (s32)f->pid, (s32)f->tid);
		if (!child)
			return -ENOMEM;
	}
	child->ppid = parent->tid;
	if (parent->comm_set && parent->nr_comms) {
		int ret = thread__set_comm(child, parent->comms[parent->nr_comms - 1].str, time, false);

		if (ret)
			return ret;
	}
	return 0;
}

int machine__process_exit(struct machine *machine, const struct perf_event_header *h, u64 time)
{
	const struct perf_record_fork *f = (const void *)h;
	struct thread *thread;

	(void)time;
	if (h->size < sizeof(*f))
		return -EINVAL;
	thread = machine__find_thread(machine, (s32)f->tid);
	if (thread)
		thread->dead = true;
	return 0;
}

int machine__process_ksymbol(struct machine *machine, const struct perf_event_header *h)
{
	const struct perf_record_ksymbol *k = (const void *)h;
	struct dso *dso;
	struct map *map;
	int ret;

	/* cached frame resolutions are stale from now on */
	machine->maps_gen++;

	if (h->size <= sizeof(*k) || !memchr(k->name, '\0', h->size - sizeof(*k)))
		return -EINVAL;
	if (k->flags & 1)	/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
		return 0;
	dso = dsos__findnew(&machine->dsos, k->name, DSO_KIND_KMODULE);
	if (!dso)
		return -ENOMEM;
	dso->ksymbol = true;
	if (!dso->symbols.nr) {
		if (symbols__add(&dso->symbols, k->addr, k->addr + k->len, k->name, 1, 'T'))
			return -ENOMEM;
		symbols__finish(&dso->symbols);
	}
	dso->loaded = true;
	map = map__new(k->addr, k->len, k->addr, dso);
	if (!map)
		return -ENOMEM;
	ret = maps__insert(machine->kmaps, map);
	map__put(map);
	return ret;
}

static void resolve_kernel(struct machine *machine, u64 addr, struct addr_location *al)
{
	s64 reloc;

	/*
	 * As perf: the recorded maps decide, and only a hit loads the kernel's symbols (which
	 * moves its map over them). A miss before that stays a miss, as in perf.
	 */
	al->map = maps__find(machine->kmaps, addr);
	if (!al->map) {
		if (!machine->kernel_loaded)
			machine->kernel_missed = true;
		return;
	}
	if (!machine->kernel_loaded) {
		machine__load_kallsyms(machine);
		/* a kcore replaced the kernel maps (kcore.h): the address's map is found anew */
		if (machine->kernel_dso && machine->kernel_dso->kcore_path) {
			al->map = maps__find(machine->kmaps, addr);
			if (!al->map)
				return;
		}
	}
	reloc = machine->kernel_map ? machine->kernel_map->reloc : 0;
	al->sym_addr = addr + (u64)reloc;
	al->sym = symbols__find(&al->map->dso->symbols, al->sym_addr);
}

void machine__resolve(struct machine *machine, struct thread *thread, u8 cpumode, u64 addr,
		      struct addr_location *al)
{
	al->thread = thread;
	al->map = NULL;
	al->sym = NULL;
	al->addr = addr;
	al->sym_addr = addr;
	al->cpumode = cpumode;
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    cpumode == PERF_RECORD_MISC_HYPERVISOR) {
		resolve_kernel(machine, addr, al);
		return;
	}
	if (!thread || !thread->maps)
		return;
	al->map = maps__find(thread->maps, addr);
	if (!al->map || !al->map->dso)
		return;
	al->sym = dso__find_symbol_by_offset(al->map->dso, machine->conf, map__map_ip(al->map, addr),
					     &al->sym_addr);
}
