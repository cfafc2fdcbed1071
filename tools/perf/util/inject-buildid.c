// SPDX-License-Identifier: GPL-2.0
/*
 * perf inject -b / --buildid-all: a set of the DSOs hit and of the file names the output's
 * build-id table has, both hash maps, then one entry per DSO at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/env.h>
#include <perf/writer.h>
#include "build-id.h"
#include "dso.h"
#include "hash.h"
#include "hashmap.h"
#include "inject-buildid.h"
#include "machine.h"
#include "map.h"
#include "session.h"
#include "thread.h"

struct hit_dso {
	struct hashmap_node	node;
	struct dso		*dso;	/* a reference */
};

struct known_name {
	struct hashmap_node	node;
	char			name[];
};

struct inject_buildids {
	bool			all;
	const struct symbol_conf *conf;
	struct hashmap		hit;	/* struct hit_dso by dso pointer */
	struct hashmap		names;	/* struct known_name: in the output's table */
	struct dso		*last;	/* the DSO marked last: most frames repeat it */
	size_t			nr_added;
};

struct inject_buildids *inject_buildids__new(bool all, const struct symbol_conf *conf)
{
	struct inject_buildids *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->all = all;
	b->conf = conf;
	hashmap__init(&b->hit, 64);
	hashmap__init(&b->names, 64);
	return b;
}

static void hit_dso__free(struct hashmap_node *node, void *arg)
{
	struct hit_dso *h = container_of(node, struct hit_dso, node);

	(void)arg;
	dso__put(h->dso);
	free(h);
}

static void known_name__free(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct known_name, node));
}

void inject_buildids__delete(struct inject_buildids *b)
{
	if (!b)
		return;
	hashmap__clear(&b->hit, hit_dso__free, NULL);
	hashmap__exit(&b->hit);
	hashmap__clear(&b->names, known_name__free, NULL);
	hashmap__exit(&b->names);
	free(b);
}

static bool inject_buildids__known(const struct inject_buildids *b, const char *name)
{
	size_t h = (size_t)hash__str(name);
	struct hashmap_node *pos;

	hashmap__for_each_hash(&b->names, pos, h)
		if (!strcmp(container_of(pos, struct known_name, node)->name, name))
			return true;
	return false;
}

static int inject_buildids__learn(struct inject_buildids *b, const char *name)
{
	size_t len = strlen(name);
	struct known_name *k;

	if (inject_buildids__known(b, name))
		return 0;
	k = malloc(sizeof(*k) + len + 1);
	if (!k)
		return -ENOMEM;
	memcpy(k->name, name, len + 1);
	if (hashmap__add(&b->names, &k->node, (size_t)hash__str(name))) {
		free(k);
		return -ENOMEM;
	}
	return 0;
}

int inject_buildids__start(struct inject_buildids *b, const struct perf_env *env,
			   struct perf_err *err)
{
	for (size_t i = 0; i < env->nr_build_ids; i++)
		if (inject_buildids__learn(b, env->build_ids[i].filename))
			return perf_err__set(err, ENOMEM, "out of memory");
	return 0;
}

static int inject_buildids__mark(struct inject_buildids *b, struct dso *dso)
{
	size_t h = (size_t)hash__ptr(dso);
	struct hashmap_node *pos;
	struct hit_dso *e;

	if (!dso || dso == b->last)
		return 0;
	b->last = dso;
	hashmap__for_each_hash(&b->hit, pos, h)
		if (container_of(pos, struct hit_dso, node)->dso == dso)
			return 0;
	e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->dso = dso__get(dso);
	if (hashmap__add(&b->hit, &e->node, h)) {
		hit_dso__free(&e->node, NULL);
		return -ENOMEM;
	}
	return 0;
}

static struct dso *inject_buildids__dso(struct machine *machine, struct thread *thread,
					u8 cpumode, u64 ip)
{
	struct map *map;

	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_HYPERVISOR) {
		map = maps__find(machine->kmaps, ip);
		return map ? map->dso : machine->kernel_dso;
	}
	map = thread && thread->maps ? maps__find(thread->maps, ip) : NULL;
	return map ? map->dso : NULL;
}

int inject_buildids__sample(struct inject_buildids *b, struct perf_session *session,
			    const struct perf_sample *sample)
{
	struct machine *machine = &session->machine;
	struct thread *thread;
	u8 cpumode = (u8)sample->cpumode;
	int ret;

	if (b->all)
		return 0;
	thread = perf_session__sample_thread(session, sample);
	ret = inject_buildids__mark(b, inject_buildids__dso(machine, thread, cpumode, sample->ip));
	for (u64 i = 0; i < sample->callchain_nr && !ret; i++) {
		u64 ip = sample->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = PERF_RECORD_MISC_USER;
			else if (ip == PERF_CONTEXT_USER_DEFERRED)
				break;	/* the cookie follows, not an address */
			continue;
		}
		ret = inject_buildids__mark(b, inject_buildids__dso(machine, thread, cpumode, ip));
	}
	if (ret)
		return perf_session__tool_error(session, -ret, "out of memory");
	return 0;
}

int inject_buildids__record(struct inject_buildids *b, struct perf_writer *w,
			    struct perf_session *session, const struct perf_event_header *event)
{
	const struct perf_record_header_build_id *r = (const void *)event;
	size_t name_max = event->size - sizeof(*r);
	char name[4096];
	u8 size = event->misc & PERF_RECORD_MISC_BUILD_ID_SIZE ? r->size : 20;
	struct perf_err err;
	int ret;

	if (event->size < sizeof(*r) || size > 20)
		return perf_session__tool_error(session, EINVAL, "malformed HEADER_BUILD_ID record");
	snprintf(name, sizeof(name), "%.*s", (int)name_max, r->filename);
	if (b && inject_buildids__learn(b, name))
		return perf_session__tool_error(session, ENOMEM, "out of memory");
	ret = perf_writer__add_build_id(w, r->pid, event->misc & ~PERF_RECORD_MISC_BUILD_ID_SIZE,
					r->build_id, size, name, &err);
	return ret ? perf_session__tool_error(session, -ret, err.msg) : 0;
}

int inject_buildids__dso_id(const struct symbol_conf *conf, const struct dso *dso, u8 *id,
			    size_t *size)
{
	char path[4096];

	if (dso->has_build_id && dso->build_id_size) {
		memcpy(id, dso->build_id, dso->build_id_size);
		*size = dso->build_id_size;
		return 0;
	}
	if (dso->kind != DSO_KIND_USER)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s%s", conf && conf->symfs ? conf->symfs : "",
		 dso->long_name);
	if (build_id__read_file(path, id, size) || !*size)
		return -ENOENT;
	return 0;
}

/* the DSO's id: the recorded one, else its file's */
static int inject_buildids__add(struct inject_buildids *b, struct perf_writer *w,
				struct dso *dso, struct perf_err *err)
{
	u8 id[BUILD_ID_SIZE_MAX];
	size_t size = 0;
	u16 misc;
	int ret;

	if (dso->kind == DSO_KIND_ANON || inject_buildids__known(b, dso->long_name) ||
	    inject_buildids__dso_id(b->conf, dso, id, &size))
		return 0;
	misc = dso->kind == DSO_KIND_KERNEL || dso->kind == DSO_KIND_KMODULE ?
	       PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	/* pid -1: the host, as perf writes every entry */
	ret = perf_writer__add_build_id(w, -1, misc, id, (u8)size, dso->long_name, err);
	if (ret)
		return ret;
	b->nr_added++;
	return inject_buildids__learn(b, dso->long_name);
}

static int dso__cmp_seq(const void *a, const void *b)
{
	const struct dso *x = *(struct dso *const *)a, *y = *(struct dso *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int inject_buildids__finish(struct inject_buildids *b, struct perf_writer *w,
			    struct machine *machine, struct perf_err *err)
{
	struct hashmap *map = b->all ? &machine->dsos.map : &b->hit;
	struct hashmap_node *pos;
	struct dso **dsos;
	size_t bkt, nr = 0;
	int ret = 0;

	/* in the order the recording met them, not the hash's */
	dsos = calloc(hashmap__nr(map) + 1, sizeof(*dsos));
	if (!dsos)
		return perf_err__set(err, ENOMEM, "out of memory");
	hashmap__for_each(map, pos, bkt)
		dsos[nr++] = b->all ? container_of(pos, struct dso, node)
				    : container_of(pos, struct hit_dso, node)->dso;
	qsort(dsos, nr, sizeof(*dsos), dso__cmp_seq);
	for (size_t i = 0; i < nr && !ret; i++)
		ret = inject_buildids__add(b, w, dsos[i], err);
	free(dsos);
	return ret;
}

size_t inject_buildids__nr(const struct inject_buildids *b)
{
	return b->nr_added;
}
