// SPDX-License-Identifier: GPL-2.0
/*
 * record-synth-bpf.c - the BPF programs loaded before the recording started, as perf 6.1
 * synthesizes them (record-synth.h): for each JIT-compiled program, a PERF_RECORD_KSYMBOL per
 * function (its JIT address and length, type BPF, name "bpf_prog_TAG_NAME"), then one
 * PERF_RECORD_BPF_EVENT PROG_LOAD with its id and tag, each ending in a zero sample_id.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <perf/event.h>
#include <perf/synthesize.h>
#include "record-synth.h"

#define KSYMBOL_TYPE_BPF	1
#define BPF_EVENT_PROG_LOAD	1
#define BPF_TAG_BYTES		8

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* a record of len bytes at buf, then the zero trailer of attr, to emit */
static int bpf__emit(const struct record_synth *s, u64 *buf, size_t size, size_t len)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	struct perf_sample zero = { 0 };
	int n = perf_sample__synthesize_id(s->attr, s->id ? s->id : &zero, false,
					   (u8 *)buf + len, size - len);

	if (n < 0)
		return n;
	h->size = (u16)(len + (size_t)n);
	return s->emit(s->ctx, h);
}

/*
 * perf's name of function i: the tag, then the program's own name when it is one function
 * (BTF function names, which perf prints for programs of several, are not read: "F")
 */
static void bpf__func_name(char *buf, size_t size, const struct bpf_prog_info *info,
			   const u8 (*tags)[BPF_TAG_BYTES], u32 i)
{
	size_t at = (size_t)snprintf(buf, size, "bpf_prog_");

	for (int b = 0; b < BPF_TAG_BYTES && at < size; b++)
		at += (size_t)snprintf(buf + at, size - at, "%02x", tags[i][b]);
	if (info->nr_jited_ksyms > 1)
		snprintf(buf + at, size - at, "_F");
	else if (info->name[0])
		snprintf(buf + at, size - at, "_%s", info->name);
}

static int bpf__one(const struct record_synth *s, int fd, struct perf_err *err)
{
	union bpf_attr attr;
	struct bpf_prog_info info;
	u64 *addrs = NULL, buf[64];
	u32 *lens = NULL, nr;
	u8 (*tags)[BPF_TAG_BYTES] = NULL;
	int ret = 0;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (u32)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return 0;	/* gone since its id was listed */
	nr = info.nr_jited_ksyms;
	if (!nr || info.nr_jited_func_lens != nr || info.nr_prog_tags != nr)
		return 0;	/* not JIT-compiled: no symbol to give */
	addrs = calloc(nr, sizeof(*addrs));
	lens = calloc(nr, sizeof(*lens));
	tags = calloc(nr, sizeof(*tags));
	if (!addrs || !lens || !tags) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = info.nr_jited_func_lens = info.nr_prog_tags = nr;
	info.jited_ksyms = (unsigned long)addrs;
	info.jited_func_lens = (unsigned long)lens;
	info.prog_tags = (unsigned long)tags;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (u32)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) || info.nr_jited_ksyms != nr)
		goto out_free;
	for (u32 i = 0; i < nr && !ret; i++) {
		struct perf_record_ksymbol *k = (void *)buf;
		char name[128];	/* "bpf_prog_" + 16 hex + "_" + a 16-byte name */
		size_t len;

		bpf__func_name(name, sizeof(name), &info, (const u8 (*)[BPF_TAG_BYTES])tags, i);
		memset(buf, 0, sizeof(buf));
		k->header.type = PERF_RECORD_KSYMBOL;
		k->addr = addrs[i];
		k->len = lens[i];
		k->ksym_type = KSYMBOL_TYPE_BPF;
		memcpy(k->name, name, strlen(name) + 1);
		len = (sizeof(*k) + strlen(name) + 1 + 7) & ~(size_t)7;
		ret = bpf__emit(s, buf, sizeof(buf), len);
	}
	if (!ret) {
		struct perf_record_bpf_event *b = (void *)buf;

		memset(buf, 0, sizeof(buf));
		b->header.type = PERF_RECORD_BPF_EVENT;
		b->type = BPF_EVENT_PROG_LOAD;
		b->id = info.id;
		memcpy(b->tag, info.tag, sizeof(b->tag));
		ret = bpf__emit(s, buf, sizeof(buf), sizeof(*b));
	}
out_free:
	free(addrs);
	free(lens);
	free(tags);
	return ret;
}

int record_synth__bpf(const struct record_synth *s, struct perf_err *err)
{
	union bpf_attr attr;
	u32 id = 0;
	int ret = 0;

	for (;;) {
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr)) {
			if (errno == ENOENT)
				return 0;	/* the last one */
			return perf_err__set(err, errno, "cannot list the BPF programs: %m");
		}
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.prog_id = id;
		fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
		if (fd < 0)
			continue;	/* unloaded meanwhile */
		ret = bpf__one(s, fd, err);
		close(fd);
		if (ret)
			return ret;
	}
}
