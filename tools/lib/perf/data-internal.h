/* SPDX-License-Identifier: GPL-2.0 */
/*
 * data-internal.h - struct perf_data, shared by the reader (data.c) and the header-feature
 * parser (features.c). Not part of the library's API.
 */
#ifndef PERF_DATA_INTERNAL_H
#define PERF_DATA_INTERNAL_H

#include <zstd.h>
#include <perf/data.h>

struct perf_data {
	char			*name;
	int			fd;
	bool			pipe;
	bool			swapped;
	struct perf_file_header	header;
	struct perf_env		env;
	struct perf_evattr	*attrs;
	size_t			nr_attrs;

	/* file mode: the whole file, mapped private and writable so swapping works in place */
	u8			*map;
	size_t			map_size;
	u64			pos;		/* next record's file offset */
	u64			data_end;

	/* pipe mode: one record at a time */
	u8			*rec_buf;
	size_t			rec_buf_size;
	u64			pipe_bytes;

	/* decompressed records waiting to be handed out */
	ZSTD_DCtx		*zstd;
	u8			*decomp;
	size_t			decomp_size;	/* allocated */
	size_t			decomp_len;	/* valid bytes */
	size_t			decomp_pos;	/* next record */
	u64			decomp_offset;	/* file offset of the container record */
	u8			*decomp_rec;	/* aligned copy of the record being handed out */
	size_t			decomp_rec_size;
};

int perf_data__read_features(struct perf_data *data, struct perf_err *err);
int perf_data__apply_feature(struct perf_data *data, int feat, const u8 *buf, size_t size,
			     u64 offset, struct perf_err *err);
int perf_data__add_attr(struct perf_data *data, const struct perf_event_attr *attr, size_t attr_size,
			const u64 *ids, size_t nr_ids, struct perf_err *err);
void perf_env__exit(struct perf_env *env);

#endif
