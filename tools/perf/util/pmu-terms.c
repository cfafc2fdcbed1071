// SPDX-License-Identifier: GPL-2.0
/* perf's pmu/term=value/ events from sysfs. See pmu-terms.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu-terms.h"
#include "sysfile.h"

/* the terms every PMU takes that perf 6.1 lists, and which ones this recorder applies */
static const char *const generic_terms[] = {
	"config", "config1", "config2", "name", "period", "freq",
};

static u64 *attr__word(struct perf_event_attr *attr, const char *word)
{
	if (!strcmp(word, "config"))
		return &attr->config;
	if (!strcmp(word, "config1"))
		return &attr->config1;
	if (!strcmp(word, "config2"))
		return &attr->config2;
	if (!strcmp(word, "config3"))
		return &attr->config3;
	return NULL;
}

static int term__value(const char *s, u64 *v)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/* the valid terms of pmu for the error line: the generic ones, then its format/ */
static void pmu__valid_terms(const char *dir, char *buf, size_t size)
{
	size_t len = 0;
	char path[512];
	struct dirent *d;
	DIR *dp;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(generic_terms) / sizeof(generic_terms[0]); i++)
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s",
					i ? "," : "", generic_terms[i]);
	snprintf(path, sizeof(path), "%s/format", dir);
	dp = opendir(path);
	if (!dp)
		return;
	while ((d = readdir(dp)))
		if (d->d_name[0] != '.' && len < size)
			len += (size_t)snprintf(buf + len, size - len, ",%s", d->d_name);
	closedir(dp);
}

/*
 * format/NAME says where a value goes: "config:0-7,21", "config1:0-63". Each range takes the
 * next bits of value, lowest first, as the kernel's format attributes mean it.
 */
static int format__apply(const char *spec, u64 value, struct perf_event_attr *attr)
{
	char word[16];
	const char *p = strchr(spec, ':');
	u64 *dst;
	int used = 0;

	if (!p || (size_t)(p - spec) >= sizeof(word))
		return -EINVAL;
	memcpy(word, spec, (size_t)(p - spec));
	word[p - spec] = '\0';
	dst = attr__word(attr, word);
	if (!dst)
		return -EINVAL;
	for (p++; *p && *p != '\n';) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return -EINVAL;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (lo < 0 || hi > 63 || hi < lo)
			return -EINVAL;
		for (long b = lo; b <= hi; b++, used++) {
			if (used < 64 && (value >> used) & 1)
				*dst |= 1ULL << b;
			else
				*dst &= ~(1ULL << b);
		}
		p = *end == ',' ? end + 1 : end;
	}
	/* a value wider than its field is perf's error too */
	return used < 64 && (value >> used) ? -ERANGE : 0;
}

static int terms__parse(const char *dir, const char *pmu, const char *spec, const char *event,
			struct pmu_event *ev, bool aliases, struct perf_err *err);

static int term__apply(const char *dir, const char *pmu, const char *event, char *key,
		       char *val, struct pmu_event *ev, bool aliases, struct perf_err *err)
{
	char path[512], valid[512], *spec = NULL;
	u64 *word, v = 1;
	size_t size;
	int ret;

	if (!strcmp(key, "name")) {
		if (!val || !*val)
			return perf_err__set(err, EINVAL, "event syntax error: '%s': name= needs a name",
					     event);
		free(ev->name);
		ev->name = strdup(val);
		return ev->name ? 0 : perf_err__set(err, ENOMEM, "out of memory");
	}
	if (val && term__value(val, &v))
		return perf_err__set(err, EINVAL,
				     "event syntax error: '%s': '%s=%s': the value is not a number",
				     event, key, val);
	if (!strcmp(key, "period") || !strcmp(key, "freq")) {
		if (!val || !v)
			return perf_err__set(err, EINVAL,
					     "event syntax error: '%s': %s= needs a positive number",
					     event, key);
		ev->period = v;
		ev->has_period = key[0] == 'p';
		ev->has_freq = key[0] == 'f';
		return 0;
	}
	word = attr__word(ev->attr, key);
	if (word && strcmp(key, "config3")) {
		*word = v;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/format/%s", dir, key);
	if (!strchr(key, '/') && !sysfile__read(path, &spec, &size)) {
		ret = format__apply(spec, v, ev->attr);
		free(spec);
		if (ret == -ERANGE)
			return perf_err__set(err, EINVAL,
					     "event syntax error: '%s': value %s too big for format '%s'",
					     event, val ? val : "1", key);
		if (ret)
			return perf_err__set(err, EINVAL, "%s: cannot read this format", path);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/events/%s", dir, key);
	if (aliases && !val && !strchr(key, '/') && !sysfile__read(path, &spec, &size)) {
		spec[strcspn(spec, "\n")] = '\0';
		ret = terms__parse(dir, pmu, spec, event, ev, false, err);
		free(spec);
		return ret;
	}
	pmu__valid_terms(dir, valid, sizeof(valid));
	return perf_err__set(err, EINVAL,
			     "event syntax error: '%s': unknown term '%s' for pmu '%s' (valid terms: %s)",
			     event, key, pmu, valid);
}

/* "a=1,b,c=0x2": each term in turn; aliases false inside an alias (no recursion) */
static int terms__parse(const char *dir, const char *pmu, const char *spec, const char *event,
			struct pmu_event *ev, bool aliases, struct perf_err *err)
{
	char *copy = strdup(spec), *save = NULL, *t;
	int ret = 0;

	if (!copy)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (t = strtok_r(copy, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');

		if (eq)
			*eq = '\0';
		if (!*t) {
			ret = perf_err__set(err, EINVAL, "event syntax error: '%s': an empty term",
					    event);
			break;
		}
		ret = term__apply(dir, pmu, event, t, eq ? eq + 1 : NULL, ev, aliases, err);
	}
	free(copy);
	return ret;
}

int pmu_terms__parse(const char *root, const char *pmu, const char *terms, struct pmu_event *ev,
		     struct perf_err *err)
{
	char dir[384], path[512], event[512];
	u64 type;

	snprintf(event, sizeof(event), "%s/%s/", pmu, terms);
	for (const char *p = pmu; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
			return perf_err__set(err, EINVAL,
					     "event syntax error: '%s': '%s' is not a PMU name",
					     event, pmu);
	snprintf(dir, sizeof(dir), "%s/%s", root, pmu);
	snprintf(path, sizeof(path), "%s/type", dir);
	if (!*pmu || sysfile__read_u64(path, &type) || type > 0xffffffffULL)
		return perf_err__set(err, ENOENT,
				     "event syntax error: '%s': Cannot find PMU `%s'. Missing kernel support? (see ls %s)",
				     event, pmu, root);
	ev->attr->type = (u32)type;
	return *terms ? terms__parse(dir, pmu, terms, event, ev, true, err) : 0;
}
