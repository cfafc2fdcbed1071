/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writer.h - writing a perf.data file or pipe stream, the reader's mirror image (data.h).
 *
 * Sequence: perf_writer__new(), perf_writer__add_attr() for every event, the perf_writer__set_*
 * header features, then perf_writer__write() for every record, perf_writer__finish(), and
 * perf_writer__delete() in every case (it also cleans up after a failed or missing finish).
 * Attrs and features are fixed by the first record: adding one later is -EBUSY (except build
 * ids and the sample time, see there).
 *
 * Layouts:
 *  - file mode: the 104-byte PERFILE2 header, the attrs' id arrays, the attr section, the data
 *    section, then the feature table and sections (EVENT_DESC with the names, COMPRESSED when
 *    compressing, and whatever else was set). The header is rewritten by finish().
 *  - pipe mode: the 16-byte pipe header, one HEADER_ATTR record per attr (attr + ids), the
 *    tracing data (a HEADER_TRACING_DATA record followed by the blob), one HEADER_FEATURE
 *    record per other feature (EVENT_DESC included, which is how our reader learns the names
 *    in a pipe), then the records.
 *  - zstd_level > 0: kernel records (type < 64) go through one zstd stream that is cut every
 *    comp_chunk input bytes into a PERF_RECORD_COMPRESSED2 record, so a record may straddle
 *    two of them, as with `perf record -z`. perf's own records (type >= 64, e.g.
 *    FINISHED_ROUND) are written plainly, after what was buffered.
 *  - cross_endian: everything in the other byte order, as perf on a host of that order writes
 *    it: u64 fields swapped, u32 pairs (pid/tid, cpu/res) swapped each in place, the attr flag
 *    word with its bytes in place and each byte's bits mirrored (perf_event_attr__swap undoes
 *    exactly that), sample RAW and user-stack bytes left as given (they are the caller's).
 *
 * Records are given in host order (a sample body too) and must have a size that is a multiple
 * of 8 (the kernel's alignment; the reader reads u64 fields in place). Which attr a record
 * belongs to (needed to swap its sample fields or sample_id trailer) is found by its id, as the
 * reader does, or is the only attr. All attrs must share one sample_id layout, unless all
 * have PERF_SAMPLE_IDENTIFIER: then a trailer's attr is the one its last u64 names.
 *
 * Errors: 0 or a negative errno, with err (may be NULL) saying what and where. The writer
 * never prints. It owns its descriptor and every buffer; no pointer passed in is kept.
 */
#ifndef PERF_WRITER_H
#define PERF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/env.h>
#include <perf/error.h>

/* sizeof(struct perf_event_attr) of perf 6.1: files with it are readable by every perf we test */
#define PERF_WRITER_DEFAULT_ATTR_SIZE	128
/* input bytes per COMPRESSED2 record; not a multiple of a record size, so records straddle */
#define PERF_WRITER_DEFAULT_COMP_CHUNK	4000
#define PERF_WRITER_MAX_COMP_CHUNK	32768

struct perf_writer_opts {
	bool	pipe;		/* pipe-mode stream instead of a seekable file layout */
	bool	cross_endian;	/* the other byte order */
	int	zstd_level;	/* 0: no compression, else 1..19 */
	u32	comp_chunk;	/* 0: PERF_WRITER_DEFAULT_COMP_CHUNK */
	u32	attr_size;	/* 0: PERF_WRITER_DEFAULT_ATTR_SIZE; 64..sizeof(perf_event_attr) */
	/*
	 * pipe mode: the caller writes the events' EVENT_UPDATE NAME records itself (perf record
	 * does, after each event's unit and scale); else the writer puts them after the attrs
	 */
	bool	caller_names;
};

struct perf_writer;

/* path "-" writes standard output (pipe mode only); opts may be NULL (file mode defaults) */
struct perf_writer *perf_writer__new(const char *path, const struct perf_writer_opts *opts,
				     struct perf_err *err);
/* the same on an open descriptor, which the writer then owns */
struct perf_writer *perf_writer__new_fd(int fd, const char *name,
					const struct perf_writer_opts *opts, struct perf_err *err);
/* frees w and closes its descriptor; it does not finish(): unfinished output is incomplete */
void perf_writer__delete(struct perf_writer *w);

/*
 * An event of the recording. attr is copied (its size field is set to the written size),
 * ids (may be NULL when nr_ids is 0) and name (may be NULL: no EVENT_DESC name) too.
 * Returns the attr's index.
 */
int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const u64 *ids, size_t nr_ids, const char *name, struct perf_err *err);

/* HEADER_HOSTNAME, _OSRELEASE, _VERSION, _ARCH, _CPUDESC, _CPUID */
int perf_writer__set_string(struct perf_writer *w, int feat, const char *value,
			    struct perf_err *err);
int perf_writer__set_nrcpus(struct perf_writer *w, u32 available, u32 online,
			    struct perf_err *err);
int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv,
			     struct perf_err *err);

/* HEADER_TOTAL_MEM: kB, as /proc/meminfo's MemTotal */
int perf_writer__set_total_mem(struct perf_writer *w, u64 kb, struct perf_err *err);
/* HEADER_CLOCKID: the resolution in ns of the clock the samples' times come from */
int perf_writer__set_clockid(struct perf_writer *w, u64 res_ns, struct perf_err *err);
/* HEADER_CLOCK_DATA (version 1): clockid, and the time of day and that clock read together */
int perf_writer__set_clock_data(struct perf_writer *w, u32 clockid, u64 tod_ns, u64 clk_ns,
				struct perf_err *err);
/*
 * HEADER_SAMPLE_TIME: the first and last sample's time. Known only at the end, so in file mode
 * it may be set at any time before finish(); in pipe mode it must come before the first record.
 */
int perf_writer__set_sample_time(struct perf_writer *w, u64 first, u64 last, struct perf_err *err);
/*
 * HEADER_CPU_TOPOLOGY from its parsed form (env.h), copied: the sibling lists, then the
 * per-cpu core/socket ids when has_ids (nr_cpus of them), then the die lists and die ids when
 * nr_die_siblings (perf 5.x+ layout).
 */
int perf_writer__set_cpu_topology(struct perf_writer *w, const struct perf_env_cpu_topology *t,
				  struct perf_err *err);
/* HEADER_NUMA_TOPOLOGY: nr nodes (copied) */
int perf_writer__set_numa_topology(struct perf_writer *w, const struct perf_env_numa_node *nodes,
				   u32 nr, struct perf_err *err);
/* HEADER_PMU_MAPPINGS: type and name of every PMU (copied) */
int perf_writer__set_pmu_mappings(struct perf_writer *w, const struct perf_env_pmu *pmus, u32 nr,
				  struct perf_err *err);
/*
 * HEADER_PMU_CAPS: nr pmus (copied; "cpu" belongs in HEADER_CPU_PMU_CAPS), each as its nr of
 * caps, the name/value string pairs, then its name. nr 0 is a valid section (perf writes it
 * so on a machine without caps).
 */
int perf_writer__set_pmu_caps(struct perf_writer *w, const struct perf_env_pmu_caps *pmus, u32 nr,
			      struct perf_err *err);
/* HEADER_CPU_PMU_CAPS: the "cpu" pmu's nr of caps and name/value pairs (copied; no name) */
int perf_writer__set_cpu_pmu_caps(struct perf_writer *w, const struct perf_env_pmu_caps *caps,
				  struct perf_err *err);
/*
 * HEADER_BPF_PROG_INFO and HEADER_BPF_BTF with no entries (a u32 count of 0 each): what perf
 * writes when it collected no BPF program information
 */
int perf_writer__set_no_bpf(struct perf_writer *w, struct perf_err *err);
/*
 * HEADER_GROUP_DESC: each group's name (NULL: perf's "{anon_group}"), its leader's position
 * among the attrs and its number of events (copied)
 */
int perf_writer__set_group_desc(struct perf_writer *w, const struct perf_env_group *groups,
				u32 nr, struct perf_err *err);
/* HEADER_CACHE: version 1 and the caches (copied) */
int perf_writer__set_cache(struct perf_writer *w, const struct perf_env_cache *caches, u32 nr,
			   struct perf_err *err);
/*
 * HEADER_MEM_TOPOLOGY: version 1, the memory block size and the nodes with the bitmaps of their
 * blocks (copied; each node's nr_words words)
 */
int perf_writer__set_mem_topology(struct perf_writer *w, u64 block_size,
				  const struct perf_env_mem_node *nodes, u64 nr, struct perf_err *err);

/*
 * HEADER_BUILD_ID: one entry per DSO (misc as in the record, e.g. PERF_RECORD_MISC_KERNEL).
 * File mode: may come at any time before finish() (the section is written there), which is
 * how a recording adds the build ids it saw. Pipe mode: each is a PERF_RECORD_HEADER_BUILD_ID
 * record, as perf inject writes them into a pipe: those added before the first record right
 * after the header's records, the others at once. (No HEADER_FEATURE of them: perf reads
 * that feature's entries from its standard input instead of the record, and loses its place
 * in a pipe.)
 */
int perf_writer__add_build_id(struct perf_writer *w, s32 pid, u16 misc, const u8 *build_id,
			      u8 size, const char *filename, struct perf_err *err);
/* HEADER_TRACING_DATA: the blob as perf's tracing-data writer made it (it has its own byte order) */
int perf_writer__set_tracing_data(struct perf_writer *w, const void *data, size_t size,
				  struct perf_err *err);

/*
 * Any other feature as the bytes of its section, already in the output's byte order (a
 * section of a host-order input, copied as it is: perf inject keeps what it does not parse).
 * Not for the features the writer makes (tracing data, build ids, nrcpus, cmdline,
 * EVENT_DESC, COMPRESSED) nor a string already set: -EINVAL. size 0 sets nothing.
 */
int perf_writer__set_feature_bytes(struct perf_writer *w, int feat, const void *bytes,
				   size_t size, struct perf_err *err);

/*
 * The attrs (as they are in data now: a converter may change them first), the header
 * strings, nrcpus, cmdline, build ids and tracing data of another recording.
 */
struct perf_data;
int perf_writer__copy_header(struct perf_writer *w, struct perf_data *data, struct perf_err *err);
/* the same without the attrs, for a writer whose attrs differ from the input's */
int perf_writer__copy_features(struct perf_writer *w, struct perf_data *data, struct perf_err *err);

/* one record, host order; the writer does not keep it */
int perf_writer__write(struct perf_writer *w, const struct perf_event_header *event,
		       struct perf_err *err);

/*
 * Pipe mode: everything written so far (compressed first with zstd) goes to the descriptor
 * now, so that a reader at the other end is not a buffer behind; perf record calls it at the
 * end of each round. File mode, or before the first record: nothing to do. 0 or -errno.
 */
int perf_writer__flush(struct perf_writer *w, struct perf_err *err);

/* flush the compressed stream; file mode: features and the final header */
int perf_writer__finish(struct perf_writer *w, struct perf_err *err);

/*
 * File mode, after a write failed (a full disk): makes what reached the file readable. The
 * header is rewritten with the data section ending at the last complete record on disk (the
 * file is cut there) and no features, since the disk has no room for them. *data_size gets
 * the bytes of records kept. 0 or a negative errno.
 */
int perf_writer__salvage(struct perf_writer *w, u64 *data_size, struct perf_err *err);

/* bytes written since the data section began (after compression; pipe: since the start) */
u64 perf_writer__data_size(const struct perf_writer *w);

#endif /* PERF_WRITER_H */
