// SPDX-License-Identifier: GPL-2.0
/*
 * Where the header features of a perf_data are: the table after the data section (file mode)
 * or HEADER_FEATURE records (pipe mode). Each feature is read only within its own section,
 * by perf_env__parse_feature() (env.c) into the perf_data's env; what the reader needs of it
 * (attr names) is applied here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/cursor.h>
#include "data-internal.h"

/*
 * HEADER_EVENT_DESC names the attrs: each description goes to the attr with its first id,
 * else to the attr at its position. Names read by the reader's rules (a name without its NUL
 * is cut at its length) even when perf would not show the feature.
 */
static int name_attrs(struct perf_data *data, struct perf_err *err)
{
	const struct perf_env *env = &data->env;

	for (u32 i = 0; i < env->nr_events; i++) {
		const struct perf_env_event *ev = &env->events[i];
		struct perf_evattr *ea = NULL;
		char *name;

		for (size_t k = 0; k < data->nr_attrs && ev->nr_ids; k++)
			if (data->attrs[k].nr_ids && data->attrs[k].ids[0] == ev->ids[0])
				ea = &data->attrs[k];
		if (!ea && i < data->nr_attrs)
			ea = &data->attrs[i];
		if (!ea)
			continue;
		name = strdup(ev->name);
		if (!name)
			return perf_err__set(err, ENOMEM, "out of memory reading feature %s",
					     perf_header_feature__name(HEADER_EVENT_DESC));
		free(ea->name);
		ea->name = name;
	}
	return 0;
}

int perf_data__apply_feature(struct perf_data *data, int feat, const u8 *buf, size_t size,
			     u64 offset, struct perf_err *err)
{
	int ret = perf_env__parse_feature(&data->env, feat, buf, size, data->swapped, offset, err);

	if (!ret && feat == HEADER_EVENT_DESC)
		ret = name_attrs(data, err);
	return ret;
}

int perf_data__read_features(struct perf_data *data, struct perf_err *err)
{
	const struct perf_file_header *h = &data->header;
	u64 table = h->data.offset + h->data.size;
	int idx = 0;

	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++) {
		struct perf_file_section sec;
		struct perf_cursor c;
		u64 at;
		int ret;

		if (!((h->adds_features[feat / 64] >> (feat % 64)) & 1))
			continue;
		at = table + (u64)idx++ * sizeof(sec);
		if (at > data->map_size || data->map_size - at < sizeof(sec))
			return perf_err__set(err, EINVAL, "feature table entry for %s at offset %#llx runs past the end of the file",
					     perf_header_feature__name(feat), (unsigned long long)at);
		perf_cursor__init(&c, data->map + at, sizeof(sec), data->swapped);
		sec.offset = perf_cursor__u64(&c);
		sec.size = perf_cursor__u64(&c);
		if (sec.offset > data->map_size || sec.size > data->map_size - sec.offset)
			return perf_err__set(err, EINVAL, "feature %s section [%#llx, +%#llx) runs past the end of the file",
					     perf_header_feature__name(feat), (unsigned long long)sec.offset,
					     (unsigned long long)sec.size);
		if (feat >= HEADER_LAST_FEATURE)
			continue;	/* newer than us: skipped by its size */
		ret = perf_data__apply_feature(data, feat, data->map + sec.offset, (size_t)sec.size,
					       sec.offset, err);
		if (ret)
			return ret;
	}
	return 0;
}

int perf_data__feature_bytes(const struct perf_data *data, int feat, const void **bytes,
			     size_t *size, struct perf_err *err)
{
	const struct perf_file_header *h = &data->header;
	u64 table = h->data.offset + h->data.size;
	int idx = 0;

	*bytes = NULL;
	*size = 0;
	if (data->pipe || feat <= 0 || feat >= HEADER_FEAT_BITS ||
	    !((h->adds_features[feat / 64] >> (feat % 64)) & 1))
		return 0;
	/* its entry comes after one per lower feature the header announces */
	for (int f = 1; f < feat; f++)
		idx += (h->adds_features[f / 64] >> (f % 64)) & 1;
	{
		u64 at = table + (u64)idx * sizeof(struct perf_file_section);
		struct perf_cursor c;
		u64 off, len;

		/* perf_data__read_features() checked the same bounds at the open */
		if (at > data->map_size || data->map_size - at < sizeof(struct perf_file_section))
			return perf_err__set(err, EINVAL, "feature table entry for %s at offset %#llx runs past the end of the file",
					     perf_header_feature__name(feat), (unsigned long long)at);
		perf_cursor__init(&c, data->map + at, sizeof(struct perf_file_section), data->swapped);
		off = perf_cursor__u64(&c);
		len = perf_cursor__u64(&c);
		if (off > data->map_size || len > data->map_size - off)
			return perf_err__set(err, EINVAL, "feature %s section [%#llx, +%#llx) runs past the end of the file",
					     perf_header_feature__name(feat), (unsigned long long)off,
					     (unsigned long long)len);
		*bytes = data->map + off;
		*size = (size_t)len;
	}
	return 0;
}
