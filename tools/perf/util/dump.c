// SPDX-License-Identifier: GPL-2.0
/*
 * `perf script -D`: each record as upstream perf prints it.
 *
 *   \n<offset>@<path> [<size>]: event: <type>\n       the record's place in the input
 *   .\n. ... raw event: size <n> bytes\n             its bytes, 16 a line (after swapping)
 *   .  0000:  09 00 ...  ........\n
 *   \n
 *   [cpu ][time ]<offset> [<size>]: PERF_RECORD_<NAME><details>
 *
 * <details> is what perf's handlers print for the type; some end without a newline (ATTR,
 * THROTTLE, ...), and the next record's leading "\n" ends the line, as in perf.
 *
 * When: perf prints its own records (type >= 64) as it reads them, and kernel records when it
 * delivers them, after time ordering. dump__record() is the read-time half, dump__event() the
 * delivery half, so the output interleaves exactly as perf's does (FINISHED_ROUND, then the
 * records the round flushes).
 */
#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "dump.h"
#include "dump-internal.h"
#include "machine.h"

#define PIPE_HEADER_SIZE	16

static FILE *dump__fp(const struct dump *d)
{
	return d->fp ? d->fp : stdout;
}

void dump__init(struct dump *d, FILE *fp, struct perf_data *data, struct machine *machine)
{
	*d = (struct dump){ .fp = fp, .data = data, .machine = machine };
}

/* perf's names for the record types our reader does not know yet */
static const char *dump__type_name(u32 type)
{
	switch (type) {
	case 84:	return "BPF_METADATA";
	case 85:	return "SCHEDSTAT_CPU";
	case 86:	return "SCHEDSTAT_DOMAIN";
	default:	return perf_record_type__name(type);
	}
}

/* upstream numbers pipe records from the end of the 16-byte pipe header */
static u64 dump__offset(const struct dump *d, u64 file_offset)
{
	if (perf_data__is_pipe(d->data) && file_offset >= PIPE_HEADER_SIZE)
		return file_offset - PIPE_HEADER_SIZE;
	return file_offset;
}

/*
 * The raw bytes. perf shows a sample after swapping all its u64 words to host order; our
 * samples keep the file's order, so a cross-endian sample is swapped into a copy first.
 */
static void dump__raw(FILE *fp, const struct perf_event_header *h, bool swap_words)
{
	const u8 *p = (const u8 *)h;
	u8 *copy = NULL;
	size_t len = h->size;

	fprintf(fp, ".\n. ... raw event: size %u bytes\n", h->size);
	if (swap_words) {
		copy = malloc(len);
		if (copy) {
			memcpy(copy, h, len);
			for (size_t off = sizeof(*h); off + 8 <= len; off += 8) {
				u64 w;

				memcpy(&w, copy + off, 8);
				w = bswap_64(w);
				memcpy(copy + off, &w, 8);
			}
			p = copy;
		}
	}
	for (size_t off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		fprintf(fp, ".  %04zx: ", off);
		for (size_t i = 0; i < 16; i++) {
			if (i < n)
				fprintf(fp, " %02x", p[off + i]);
			else
				fputs("   ", fp);
		}
		fputs("  ", fp);
		for (size_t i = 0; i < 16; i++) {
			u8 c = i < n ? p[off + i] : ' ';

			fputc(c >= 0x20 && c < 0x7f ? c : '.', fp);
		}
		fputc('\n', fp);
	}
	fputc('\n', fp);
	free(copy);
}

/*
 * perf prints "cpu time " from the sample by the OR of every attr's sample_type, or "-1 -1 "
 * for a non-sample record when the first attr has no sample_id_all. nr_attrs: the attrs perf
 * knew at that point (a pipe ATTR record is printed before its attr is added).
 */
static void dump__tstamp(FILE *fp, const struct dump *d, const struct perf_event_header *h,
			 const struct perf_sample *sample, size_t nr_attrs)
{
	struct perf_evattr *first = perf_data__attr(d->data, 0);
	u64 combined = 0;

	if (h->type != PERF_RECORD_SAMPLE &&
	    (!nr_attrs || !perf_attr__has(&first->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL))) {
		fputs("-1 -1 ", fp);
		return;
	}
	for (size_t i = 0; i < nr_attrs; i++)
		combined |= perf_data__attr(d->data, i)->attr.sample_type;
	if (combined & PERF_SAMPLE_CPU)
		fprintf(fp, "%u ", sample ? sample->cpu : 0);
	if (combined & PERF_SAMPLE_TIME)
		fprintf(fp, "%" PRIu64 " ", sample ? sample->time : 0);
}

static void dump__prefix(FILE *fp, const struct dump *d, const struct perf_event_header *h,
			 u64 file_offset, const struct perf_sample *sample, size_t nr_attrs,
			 bool print_tstamp)
{
	u64 off = dump__offset(d, file_offset);
	bool swap = h->type == PERF_RECORD_SAMPLE && perf_data__needs_swap(d->data);

	fprintf(fp, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", off,
		perf_data__is_pipe(d->data) ? "pipe" : perf_data__name(d->data),
		h->size, h->type);
	dump__raw(fp, h, swap);
	if (print_tstamp)
		dump__tstamp(fp, d, h, sample, nr_attrs);
	fprintf(fp, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", off, h->size, dump__type_name(h->type));
}

/* a NUL-terminated string at body offset off of the record, or "" when it has none */
static const char *record_str(const struct perf_event_header *h, size_t off)
{
	const char *s = (const char *)h + off;

	if (off >= h->size || !memchr(s, '\0', h->size - off))
		return "";
	return s;
}

static void dump__mmap(FILE *fp, const struct perf_event_header *h)
{
	const struct perf_record_mmap *m = (const void *)h;

	fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
		(int)m->pid, (int)m->tid, m->start, m->len, m->pgoff,
		(h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
		record_str(h, sizeof(*m)));
}

static void dump__mmap2(FILE *fp, const struct perf_event_header *h)
{
	const struct perf_record_mmap2 *m = (const void *)h;
	/* PROT_READ/WRITE/EXEC and MAP_SHARED as the kernel reports them */
	char perms[5] = {
		(m->prot & 1) ? 'r' : '-', (m->prot & 2) ? 'w' : '-', (m->prot & 4) ? 'x' : '-',
		(m->flags & 1) ? 's' : 'p', '\0',
	};

	fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid, (int)m->tid,
		m->start, m->len, m->pgoff);
	if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		size_t n = m->build_id_size <= sizeof(m->build_id) ? m->build_id_size :
							     sizeof(m->build_id);

		fputs(" <", fp);
		for (size_t i = 0; i < n; i++)
			fprintf(fp, "%02x", m->build_id[i]);
		fputc('>', fp);
	} else {
		fprintf(fp, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino, m->ino_generation);
	}
	fprintf(fp, "]: %s %s\n", perms, record_str(h, sizeof(*m)));
}

/* the fixed part of the kernel record types dump__event() decodes field by field */
static size_t kernel_fixed_size(u32 type)
{
	return perf_record_type__info(type)->fixed_size;
}

static void dump__read(FILE *fp, const struct perf_event_header *h, struct perf_evattr *ea)
{
	struct perf_cursor b;
	u32 pid, tid;
	u64 value, rf;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	pid = perf_cursor__u32(&b);
	tid = perf_cursor__u32(&b);
	value = perf_cursor__u64(&b);
	fprintf(fp, ": %d %d %s %" PRIu64 "\n", (int)pid, (int)tid,
		perf_evattr__name(ea), value);
	if (!ea)
		return;
	/* only the enabled read_format fields follow the value, packed */
	rf = ea->attr.read_format;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
		value = perf_cursor__u64(&b);
		if (perf_cursor__failed(&b))
			return;
		fprintf(fp, "... time enabled : %" PRIu64 "\n", value);
	}
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
		value = perf_cursor__u64(&b);
		if (perf_cursor__failed(&b))
			return;
		fprintf(fp, "... time running : %" PRIu64 "\n", value);
	}
	if (rf & PERF_FORMAT_ID) {
		value = perf_cursor__u64(&b);
		if (perf_cursor__failed(&b))
			return;
		fprintf(fp, "... id           : %" PRIu64 "\n", value);
	}
	if (rf & PERF_FORMAT_LOST) {
		value = perf_cursor__u64(&b);
		if (perf_cursor__failed(&b))
			return;
		fprintf(fp, "... lost         : %" PRIu64 "\n", value);
	}
}

static void dump__namespaces(FILE *fp, const struct perf_event_header *h)
{
	static const char *const ns_names[] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	struct perf_cursor b;
	u32 pid, tid;
	u64 nr;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	pid = perf_cursor__u32(&b);
	tid = perf_cursor__u32(&b);
	nr = perf_cursor__u64(&b);
	fprintf(fp, " %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[", (int)pid, (int)tid, nr);
	for (u64 i = 0; i < nr; i++) {
		u64 dev, ino;

		if (perf_cursor__left(&b) < 16) {
			/* a record shorter than its count: close the list where it ends */
			fprintf(fp, "]\n");
			return;
		}
		dev = perf_cursor__u64(&b);
		ino = perf_cursor__u64(&b);
		/* four entries a line, as perf wraps them */
		if (i && i % 4 == 0)
			fprintf(fp, "\n\t\t ");
		fprintf(fp, "%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "%s", i,
			i < ARRAY_SIZE(ns_names) ? ns_names[i] : "UNKNOWN",
			dev, ino, i + 1 < nr ? ", " : "]\n");
	}
	/* no entries: perf leaves the list open, and the next record goes on this line */
}

/* "            Old bytes: 90 90", 16 bytes a line */
static void dump__poke_bytes(FILE *fp, const char *which, struct perf_cursor *b, u16 len)
{
	for (u16 i = 0; i < len; i++) {
		u8 v = perf_cursor__u8(b);

		if (perf_cursor__failed(b))
			break;
		if (i % 16 == 0)
			fprintf(fp, "            %s bytes:", which);
		fprintf(fp, " %02x", v);
		if (i % 16 == 15 || i + 1 == len)
			fputc('\n', fp);
	}
}

/* the address, the kernel symbol it patches, the old and the new bytes */
static void dump__text_poke(FILE *fp, const struct dump *d,
			    const struct perf_event_header *h)
{
	struct addr_location al;
	struct perf_cursor b;
	u64 addr;
	u16 old_len, new_len;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	addr = perf_cursor__u64(&b);
	old_len = perf_cursor__u16(&b);
	new_len = perf_cursor__u16(&b);
	fprintf(fp, " %" PRIx64 " ", addr);
	machine__resolve(d->machine, NULL, PERF_RECORD_MISC_KERNEL, addr, &al);
	if (al.sym)
		fprintf(fp, "%s+0x%" PRIx64, al.sym->name, al.sym_addr - al.sym->start);
	fprintf(fp, " old len %u new len %u\n", old_len, new_len);
	dump__poke_bytes(fp, "Old", &b, old_len);
	dump__poke_bytes(fp, "New", &b, new_len);
}

/* what follows PERF_RECORD_<NAME> for a kernel record other than a sample */
static void dump__kernel_body(FILE *fp, const struct dump *d,
			      const struct perf_event_header *h, const struct perf_sample *sample,
			      struct perf_evattr *ea)
{
	struct perf_cursor b;

	if (h->size < kernel_fixed_size(h->type)) {
		fprintf(fp, ": record too short (%u bytes) for its type, skipped\n", h->size);
		return;
	}
	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	switch (h->type) {
	case PERF_RECORD_MMAP:
		dump__mmap(fp, h);
		break;
	case PERF_RECORD_MMAP2:
		dump__mmap2(fp, h);
		break;
	case PERF_RECORD_COMM: {
		const struct perf_record_comm *c = (const void *)h;

		fprintf(fp, "%s: %s:%d/%d\n", (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			record_str(h, sizeof(*c)), (int)c->pid, (int)c->tid);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		const struct perf_record_fork *f = (const void *)h;

		fprintf(fp, "(%d:%d):(%d:%d)\n", (int)f->pid, (int)f->tid, (int)f->ppid, (int)f->ptid);
		break;
	}
	case PERF_RECORD_LOST: {
		const struct perf_record_lost *l = (const void *)h;

		if (d->event_line)
			fprintf(fp, " lost %" PRIu64 "\n", l->lost);
		else
			fprintf(fp, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", l->id, l->lost);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		const struct perf_record_lost_samples *l = (const void *)h;
		/* perf's parser leaves the id at -1 when the trailer has none */
		bool has_id = ea && (ea->attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) &&
			      perf_attr__has(&ea->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL);
		u64 id = has_id ? sample->id : (u64)-1;

		/* misc bit 15: the samples were dropped by a BPF filter */
		fprintf(fp, ": id:%" PRIu64 ": lost samples :%" PRIu64 "%s\n", id, l->lost,
			(h->misc & (1 << 15)) ? " (BPF)" : "");
		break;
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		/* perf script's handler prints nothing: the next record ends the line */
		break;
	case PERF_RECORD_READ:
		dump__read(fp, h, ea);
		/* perf script has no handler for it */
		fprintf(fp, ": unhandled!\n");
		break;
	case PERF_RECORD_AUX: {
		u64 offset = perf_cursor__u64(&b), size = perf_cursor__u64(&b), flags = perf_cursor__u64(&b);

		fprintf(fp, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s%s]\n",
			offset, size, flags, (flags & 1) ? "T" : "", (flags & 2) ? "O" : "",
			(flags & 4) ? "P" : "", (flags & 8) ? "C" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START: {
		u32 pid = perf_cursor__u32(&b), tid = perf_cursor__u32(&b);

		fprintf(fp, " pid: %u tid: %u\n", pid, tid);
		break;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *in_out = !out ? "IN         " :
			!(h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " : "OUT preempt";

		if (h->type == PERF_RECORD_SWITCH) {
			fprintf(fp, " %s\n", in_out);
		} else {
			u32 pid = perf_cursor__u32(&b), tid = perf_cursor__u32(&b);

			fprintf(fp, " %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
				(int)pid, (int)tid);
		}
		break;
	}
	case PERF_RECORD_NAMESPACES:
		dump__namespaces(fp, h);
		break;
	case PERF_RECORD_KSYMBOL: {
		const struct perf_record_ksymbol *k = (const void *)h;

		fprintf(fp, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", k->addr, k->len,
			k->ksym_type, k->flags, record_str(h, sizeof(*k)));
		break;
	}
	case PERF_RECORD_BPF_EVENT: {
		u16 type = perf_cursor__u16(&b), flags = perf_cursor__u16(&b);
		u32 id = perf_cursor__u32(&b);

		fprintf(fp, " type %u, flags %u, id %u\n", type, flags, id);
		break;
	}
	case PERF_RECORD_CGROUP: {
		u64 id = perf_cursor__u64(&b);

		fprintf(fp, " cgroup: %" PRIu64 " %s\n", id,
			record_str(h, offsetof(struct perf_record_cgroup, path)));
		break;
	}
	case PERF_RECORD_TEXT_POKE:
		dump__text_poke(fp, d, h);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(fp, " hw_id: %#" PRIx64 "\n", perf_cursor__u64(&b));
		break;
	case PERF_RECORD_CALLCHAIN_DEFERRED:
		dump__deferred(fp, h, sample, ea);
		break;
	default:
		fprintf(fp, ": unknown record type %u, skipped\n", h->type);
		break;
	}
}

/* the command has no handler of its own for this type (dump->unhandled) */
static void dump__unhandled(FILE *fp, const struct dump *d, u32 type)
{
	const u64 *mask = d->unhandled;

	if (type < 128 && (mask[type / 64] >> (type % 64)) & 1)
		fprintf(fp, ": unhandled!\n");
}

void dump__event_line(FILE *fp, struct machine *machine, const struct perf_event_header *event,
		      const struct perf_sample *sample, struct perf_evattr *evattr)
{
	const struct dump dump = { .fp = fp, .machine = machine, .event_line = true };
	const struct dump *d = &dump;

	fprintf(fp, "PERF_RECORD_%s", dump__type_name(event->type));
	dump__kernel_body(fp, d, event, sample, evattr);
}

void dump__event(void *dump, const struct perf_event_header *event, u64 file_offset,
		 const struct perf_sample *sample, struct perf_evattr *evattr, const char *why)
{
	const struct dump *d = dump;
	FILE *fp = dump__fp(d);
	size_t nr_attrs = perf_data__nr_attrs(d->data);
	struct perf_sample shown;

	if (!sample) {
		dump__prefix(fp, d, event, file_offset, NULL, nr_attrs, false);
		fprintf(fp, ": cannot be parsed (%s), skipped\n", why);
		return;
	}
	shown = *sample;
	/*
	 * Records perf record synthesizes carry sample id 0, which perf gives to the first
	 * attr: read their trailer with it, as perf does, when the reader matched none.
	 */
	if (!evattr && event->type != PERF_RECORD_SAMPLE && nr_attrs) {
		struct perf_err err;

		if (perf_evattr__parse_sample(perf_data__attr(d->data, 0), event,
					      perf_data__needs_swap(d->data), NULL, &shown,
					      &err))
			shown = *sample;
	}
	/* perf's parser leaves what a record does not carry at -1 */
	if (!shown.has_time)
		shown.time = (u64)-1;
	dump__prefix(fp, d, event, file_offset, &shown, nr_attrs, true);
	if (event->type == PERF_RECORD_SAMPLE) {
		if (!evattr) {
			fprintf(fp, ": no attr has the sample's id, skipped\n");
			return;
		}
		dump__sample(fp, event, sample, evattr);
		return;
	}
	dump__kernel_body(fp, d, event, sample, evattr);
	dump__unhandled(fp, d, event->type);
}

/* ", type = 1 (...), ..." of a HEADER_ATTR record: no newline, as perf */
static void dump__attr_record(FILE *fp, const struct perf_event_header *h)
{
	struct perf_event_attr attr;
	size_t len = h->size - sizeof(*h);

	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, h + 1, len < sizeof(attr) ? len : sizeof(attr));
	/* the bytes past attr.size are the ids, not attr fields */
	if (attr.size && attr.size < sizeof(attr))
		memset((u8 *)&attr + attr.size, 0, sizeof(attr) - attr.size);
	else if (!attr.size)
		memset((u8 *)&attr + PERF_ATTR_SIZE_VER0, 0, sizeof(attr) - PERF_ATTR_SIZE_VER0);
	dump__attr_fields(fp, &attr);
}

static void dump__id_index(FILE *fp, const struct perf_event_header *h)
{
	struct perf_cursor b, b2;
	u64 nr, max;
	bool v2;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	nr = perf_cursor__u64(&b);
	max = perf_cursor__left(&b) / 32;
	if (nr > max)
		nr = max;
	/* v2 appends {machine_pid, vcpu} for every entry after the {id, idx, cpu, tid} ones */
	v2 = perf_cursor__left(&b) >= nr * 32 + nr * 16 && nr;
	perf_cursor__init(&b2, perf_cursor__ptr(&b) + nr * 32, v2 ? nr * 16 : 0, false);
	fprintf(fp, " nr: %" PRIu64 "\n", nr);
	for (u64 i = 0; i < nr; i++) {
		u64 id = perf_cursor__u64(&b), idx = perf_cursor__u64(&b);
		s64 cpu = (s64)perf_cursor__u64(&b), tid = (s64)perf_cursor__u64(&b);

		fprintf(fp, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			id, idx, cpu, tid);
		if (v2) {
			s64 machine_pid = (s64)perf_cursor__u64(&b2);
			u64 vcpu = perf_cursor__u64(&b2);

			fprintf(fp, "  machine_pid: %" PRId64 "  vcpu: %" PRIu64 "\n", machine_pid, vcpu);
		} else {
			fprintf(fp, "\n");
		}
	}
}

static void dump__thread_map(FILE *fp, const struct perf_event_header *h)
{
	struct perf_cursor b;
	u64 nr, max;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	nr = perf_cursor__u64(&b);
	max = perf_cursor__left(&b) / 24;	/* {u64 pid; char comm[16]} */
	if (nr > max) {
		fprintf(fp, " nr: %" PRIu64 " (only %" PRIu64 " fit the record)\n", nr, max);
		return;
	}
	fprintf(fp, " nr: %" PRIu64 " thread%s: ", nr, nr > 1 ? "s" : "");
	for (u64 i = 0; i < nr; i++) {
		u64 pid = perf_cursor__u64(&b);

		perf_cursor__skip(&b, 16);
		fprintf(fp, "%s%d", i ? ", " : "", (int)pid);
	}
	fprintf(fp, "\n");
}

/* PERF_CPU_MAP__CPUS / __MASK / __RANGE_CPUS, printed as perf's cpu_map__snprint() */
void dump__cpu_map(FILE *fp, struct perf_cursor *b)
{
	u16 type = perf_cursor__u16(b);
	int *cpus = NULL;
	size_t nr = 0, alloc = 0;
	bool first = true;

	switch (type) {
	case 0: {	/* u16 nr, u16 cpu[nr] */
		u16 n = perf_cursor__u16(b);

		cpus = calloc(n ? n : 1, sizeof(*cpus));
		if (!cpus)
			goto out_fail;
		for (u16 i = 0; i < n && !perf_cursor__failed(b); i++) {
			u16 cpu = perf_cursor__u16(b);

			if (!perf_cursor__failed(b))
				cpus[nr++] = cpu == 0xffff ? -1 : cpu;
		}
		break;
	}
	case 1: {	/* u16 nr, u16 long_size, (4 bytes of pad for 8), then nr masks */
		u16 n = perf_cursor__u16(b), long_size = perf_cursor__u16(b);
		unsigned int bits = long_size == 4 ? 32 : 64;

		if (long_size != 4 && long_size != 8)
			goto out_fail;
		if (long_size == 8)
			perf_cursor__skip(b, 4);
		alloc = (size_t)n * bits;
		cpus = calloc(alloc ? alloc : 1, sizeof(*cpus));
		if (!cpus)
			goto out_fail;
		for (u16 i = 0; i < n; i++) {
			u64 mask = long_size == 4 ? perf_cursor__u32(b) : perf_cursor__u64(b);

			if (perf_cursor__failed(b))
				break;
			for (unsigned int bit = 0; bit < bits; bit++)
				if (mask & (1ULL << bit))
					cpus[nr++] = (int)(i * bits + bit);
		}
		break;
	}
	case 2: {	/* u8 any_cpu, u8 pad, u16 start, u16 end */
		u8 any = perf_cursor__u8(b);
		u16 start, end;

		perf_cursor__skip(b, 1);
		start = perf_cursor__u16(b);
		end = perf_cursor__u16(b);
		if (perf_cursor__failed(b) || end < start)
			goto out_fail;
		cpus = calloc((size_t)(end - start) + 2, sizeof(*cpus));
		if (!cpus)
			goto out_fail;
		if (any)
			cpus[nr++] = -1;
		for (u32 cpu = start; cpu <= end; cpu++)
			cpus[nr++] = (int)cpu;
		break;
	}
	default:
		goto out_fail;
	}
	if (perf_cursor__failed(b))
		goto out_fail;
	/* runs of consecutive cpus in the record's order (a list is not sorted): "3,1-2,7" */
	for (size_t i = 0; i < nr;) {
		size_t j = i;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (cpus[j] == cpus[i])
			fprintf(fp, "%s%d", first ? "" : ",", cpus[i]);
		else
			fprintf(fp, "%s%d-%d", first ? "" : ",", cpus[i], cpus[j]);
		first = false;
		i = j + 1;
	}
	free(cpus);
	return;

out_fail:
	free(cpus);
	fprintf(fp, "(unreadable cpu map)");
}

static void dump__event_update(FILE *fp, const struct perf_event_header *h)
{
	struct perf_cursor b;
	u64 type, id;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	type = perf_cursor__u64(&b);
	id = perf_cursor__u64(&b);
	fprintf(fp, "\n... id:    %" PRIu64 "\n", id);
	switch (type) {
	case 0: {	/* unit */
		const char *s = record_str(h, 24);

		fprintf(fp, "... unit:  %s\n", s);
		break;
	}
	case 1: {	/* scale: a double */
		u64 bits = perf_cursor__u64(&b);
		double scale;

		memcpy(&scale, &bits, sizeof(scale));
		fprintf(fp, "... scale: %f\n", scale);
		break;
	}
	case 2:		/* name */
		fprintf(fp, "... name:  %s\n", record_str(h, 24));
		break;
	case 3:		/* cpus */
		fprintf(fp, "... ");
		dump__cpu_map(fp, &b);
		fprintf(fp, "\n");
		break;
	default:
		fprintf(fp, "... unknown type\n");
		break;
	}
}

static void dump__time_conv(FILE *fp, const struct perf_event_header *h)
{
	struct perf_cursor b;
	u64 shift, mult, zero;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	shift = perf_cursor__u64(&b);
	mult = perf_cursor__u64(&b);
	zero = perf_cursor__u64(&b);
	fprintf(fp, "\n... Time Shift      %" PRIu64 "\n", shift);
	fprintf(fp, "... Time Multiplier %" PRIu64 "\n", mult);
	fprintf(fp, "... Time Zero       %" PRIu64 "\n", zero);
	/* the fields from time_cycles on exist since Linux 5.10; older records stop here */
	if (h->size >= 8 + 32) {
		u64 cycles = perf_cursor__u64(&b), mask = perf_cursor__u64(&b);
		u8 cap_zero = perf_cursor__u8(&b), cap_short = perf_cursor__u8(&b);

		fprintf(fp, "... Time Cycles     %" PRIu64 "\n", cycles);
		fprintf(fp, "... Time Mask       %#" PRIx64 "\n", mask);
		fprintf(fp, "... Cap Time Zero   %d\n", cap_zero);
		fprintf(fp, "... Cap Time Short  %d\n", cap_short);
	}
	/* perf script has no handler for it */
	fprintf(fp, ": unhandled!\n");
}

static void dump__auxtrace_error(FILE *fp, const struct perf_event_header *h)
{
	struct perf_cursor b;
	u32 type, code, cpu, pid, tid, fmt, machine_pid, vcpu;
	u64 ip, time;
	char msg[65];
	const u8 *msg_at;

	perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
	type = perf_cursor__u32(&b);
	code = perf_cursor__u32(&b);
	cpu = perf_cursor__u32(&b);
	pid = perf_cursor__u32(&b);
	tid = perf_cursor__u32(&b);
	fmt = perf_cursor__u32(&b);
	ip = perf_cursor__u64(&b);
	time = perf_cursor__u64(&b);
	msg_at = perf_cursor__ptr(&b);
	perf_cursor__skip(&b, 64);
	machine_pid = perf_cursor__u32(&b);
	vcpu = perf_cursor__u32(&b);
	fprintf(fp, " %s error type %u", type == 1 ? "instruction trace" : "unknown AUX", type);
	if (fmt && time)
		fprintf(fp, " time %" PRIu64 ".%09" PRIu64, time / 1000000000, time % 1000000000);
	else
		fprintf(fp, " time 0");
	/* format 0 had no time: its message starts where the time is now */
	if (!fmt)
		msg_at -= 8;
	memset(msg, 0, sizeof(msg));
	if (msg_at >= (const u8 *)(h + 1) && msg_at < (const u8 *)h + h->size) {
		size_t n = (size_t)((const u8 *)h + h->size - msg_at);

		memcpy(msg, msg_at, n < 64 ? n : 64);
	}
	if (fmt >= 2 && machine_pid)
		fprintf(fp, " machine_pid %d vcpu %d", (int)machine_pid, (int)vcpu);
	fprintf(fp, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %s\n", (int)cpu, (int)pid,
		(int)tid, ip, code, msg);
}

/*
 * A pipe-mode HEADER_FEATURE: ", " and the feature in full, as perf -D does; nothing when
 * the feature is unknown or does not parse (perf stops before the ", " then).
 */
static void dump__feature_record(FILE *fp, const struct dump *d,
				 const struct perf_event_header *h)
{
	const struct perf_record_header_feature *f = (const void *)h;
	char *text = NULL;
	size_t len = 0;
	FILE *ms;
	int ret;

	/* dump__feature() refuses the features perf does not know */
	if (h->size < sizeof(*f) || f->feat_id > INT32_MAX)
		return;
	ms = open_memstream(&text, &len);
	if (!ms)
		return;
	ret = dump__feature(ms, d->data, (int)f->feat_id, (const u8 *)f->data, h->size - sizeof(*f),
			    true);
	if (fclose(ms) == 0 && ret == 0) {
		fputs(", ", fp);
		fwrite(text, 1, len, fp);
	}
	free(text);
}

static void dump__user_body(FILE *fp, const struct dump *d,
			    const struct perf_event_header *h)
{
	switch (h->type) {
	case PERF_RECORD_HEADER_ATTR:
		dump__attr_record(fp, h);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		dump__feature_record(fp, d, h);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		if (!d->rounds_shown)
			fputc('\n', fp);
		break;
	case PERF_RECORD_ID_INDEX:
		dump__id_index(fp, h);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		dump__event_update(fp, h);
		break;
	case PERF_RECORD_THREAD_MAP:
		dump__thread_map(fp, h);
		break;
	case PERF_RECORD_CPU_MAP: {
		struct perf_cursor b;

		perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
		fprintf(fp, ": ");
		dump__cpu_map(fp, &b);
		fprintf(fp, "\n");
		break;
	}
	case PERF_RECORD_TIME_CONV:
		dump__time_conv(fp, h);
		break;
	case PERF_RECORD_AUXTRACE_INFO: {
		struct perf_cursor b;

		perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
		fprintf(fp, " type: %u\n", perf_cursor__u32(&b));
		break;
	}
	case PERF_RECORD_AUXTRACE: {
		struct perf_cursor b;
		u64 size, offset, ref;
		u32 idx, tid, cpu;

		perf_cursor__init(&b, h + 1, h->size - sizeof(*h), false);
		size = perf_cursor__u64(&b);
		offset = perf_cursor__u64(&b);
		ref = perf_cursor__u64(&b);
		idx = perf_cursor__u32(&b);
		tid = perf_cursor__u32(&b);
		cpu = perf_cursor__u32(&b);
		fprintf(fp, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			"  idx: %u  tid: %d  cpu: %d\n", size, offset, ref, idx, (int)tid, (int)cpu);
		break;
	}
	case PERF_RECORD_FINISHED_INIT:
		/* perf script has no handler for these */
		fprintf(fp, ": unhandled!\n");
		break;
	case PERF_RECORD_AUXTRACE_ERROR:
		dump__auxtrace_error(fp, h);
		break;
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT:
	case PERF_RECORD_STAT_ROUND:
		/* handled silently: the next record ends the line */
		break;
	default:
		fprintf(fp, ": unknown record type %u, skipped\n", h->type);
		break;
	}
}

void dump__record(void *dump, const struct perf_data_record *rec)
{
	const struct dump *d = dump;
	const struct perf_event_header *h = rec->header;
	FILE *fp = dump__fp(d);
	size_t nr_attrs = perf_data__nr_attrs(d->data);
	struct perf_sample zero;

	/* kernel records are printed when they are delivered: dump__event() */
	if (h->type > 0 && h->type < PERF_RECORD_MAX)
		return;
	memset(&zero, 0, sizeof(zero));
	if (h->type < PERF_RECORD_USER_TYPE_START) {
		/* a kernel record type newer than us: the session skips it */
		dump__prefix(fp, d, h, rec->file_offset, NULL, nr_attrs, false);
		fprintf(fp, ": unknown record type %u, skipped\n", h->type);
		return;
	}
	/* the reader added a pipe ATTR's attr already; perf prints the record before that */
	if (h->type == PERF_RECORD_HEADER_ATTR && nr_attrs)
		nr_attrs--;
	dump__prefix(fp, d, h, rec->file_offset, &zero, nr_attrs, true);
	dump__user_body(fp, d, h);
	dump__unhandled(fp, d, h->type);
}

void dump__resolved(const struct dump *d, const struct thread *thread,
		    const struct addr_location *al)
{
	FILE *fp = dump__fp(d);
	const char *dso = "<not found>";

	fprintf(fp, " ... thread: %s:%d\n", thread ? thread__comm_str(thread, 0) : "",
		thread ? thread->tid : -1);
	/* upstream's long name of a kernel whose maps a kcore gave is the kcore's path */
	if (al->map && al->map->dso)
		dso = al->map->dso->kcore_path ? al->map->dso->kcore_path : al->map->dso->long_name;
	else if (al->cpumode == PERF_RECORD_MISC_HYPERVISOR)
		dso = "[hypervisor]";
	fprintf(fp, " ...... dso: %s\n", dso);
}
