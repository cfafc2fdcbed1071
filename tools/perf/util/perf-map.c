// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include "dso.h"
#include "perf-map.h"
#include "symbol.h"

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool perf_map__is_jit_memory(const char *filename, unsigned int prot, unsigned int flags)
{
	if (!(prot & PROT_EXEC))
		return false;
	return !strcmp(filename, "//anon") || has_prefix(filename, "/dev/zero") ||
	       has_prefix(filename, "/anon_hugepage") || (flags & MAP_HUGETLB) ||
	       has_prefix(filename, "[stack") || has_prefix(filename, "/SYSV") ||
	       !strcmp(filename, "[heap]") || has_prefix(filename, "[anon:");
}

bool perf_map__name(pid_t pid, char *buf, size_t size)
{
	int n = snprintf(buf, size, "/tmp/perf-%d.map", (int)pid);

	return n > 0 && (size_t)n < size;
}

pid_t perf_map__pid(const char *name)
{
	const char *p = name + strlen("/tmp/perf-");
	char *end;
	long pid;

	if (!has_prefix(name, "/tmp/perf-") || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || pid > 0x7fffffff || strcmp(end, ".map"))
		return -1;
	return (pid_t)pid;
}

/* hex digits at *p into *val, no prefix (as the runtimes write them); false when none */
static bool parse_hex(const char **p, unsigned long long *val)
{
	const char *s = *p;
	unsigned long long v = 0;

	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (v >> 60)
			return false;	/* more than 64 bits */
		v = v << 4 | (unsigned long long)d;
	}
	if (s == *p)
		return false;
	*val = v;
	*p = s;
	return true;
}

/* one `START SIZE name` line (no newline) into the table; 1 added, 0 malformed, -errno */
static int perf_map__add_line(struct dso *dso, const char *line)
{
	unsigned long long start, size;
	const char *p = line;
	long idx;

	if (!parse_hex(&p, &start) || *p++ != ' ' || !parse_hex(&p, &size) || *p++ != ' ' ||
	    !*p || start + size < start)
		return 0;
	idx = symbols__insert(&dso->symbols, start, start + size, p, STB_GLOBAL, STT_FUNC);
	return idx < 0 ? (int)idx : 1;
}

static FILE *perf_map__open(const char *name, const struct symbol_conf *conf, char *path,
			    size_t size)
{
	int n;

	if (conf && conf->symfs && conf->symfs[0]) {
		n = snprintf(path, size, "%s%s", conf->symfs, name);
		if (n > 0 && (size_t)n < size && !access(path, F_OK))
			return fopen(path, "r");
	}
	n = snprintf(path, size, "%s", name);
	if (n <= 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "r");
}

int perf_map__load(struct dso *dso, const struct symbol_conf *conf)
{
	FILE *warn = conf ? conf->warn : NULL;
	unsigned long lineno = 0, first_bad = 0, nr_bad = 0;
	char path[4096], *line = NULL;
	size_t alloc = 0;
	struct stat st = { 0 };
	ssize_t len;
	int nr = 0, err = 0;
	FILE *fp;

	fp = perf_map__open(dso->long_name, conf, path, sizeof(path));
	if (!fp) {
		err = -errno;
		if (warn)
			fprintf(warn, "Warning: %s: %s: the JIT frames of pid %d keep their addresses\n",
				path, strerror(-err), (int)dso->jit_pid);
		return err;
	}
	if (!fstat(fileno(fp), &st) && S_ISDIR(st.st_mode)) {
		if (warn)
			fprintf(warn, "Warning: %s: %s: the JIT frames of pid %d keep their addresses\n",
				path, strerror(EISDIR), (int)dso->jit_pid);
		fclose(fp);
		return -EISDIR;
	}
	/* another user's file in /tmp could name any address: perf's rule, and its -f */
	if (st.st_uid && st.st_uid != geteuid() && !(conf && conf->force)) {
		if (warn)
			fprintf(warn, "Warning: %s is not owned by the current user or root: ignored (use -f to override)\n",
				path);
		fclose(fp);
		return -EPERM;
	}
	errno = 0;
	while ((len = getline(&line, &alloc, fp)) >= 0) {
		int ret;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		ret = perf_map__add_line(dso, line);
		if (ret < 0) {
			err = ret;
			break;
		}
		if (!ret && !nr_bad++)
			first_bad = lineno;
		nr += ret;
	}
	if (!err && ferror(fp))
		err = errno ? -errno : -EIO;
	free(line);
	fclose(fp);
	if (err) {
		if (warn)
			fprintf(warn, "Warning: %s: %s after line %lu\n", path, strerror(-err), lineno);
		return err;
	}
	/* report -v's origin letter: upstream's for JIT symbols */
	if (nr > 0) {
		dso->symsrc_path = strdup(path);
		dso->symsrc_origin = 'j';
	}
	if (nr_bad && warn)
		fprintf(warn, "Warning: %s: %lu malformed line%s skipped (the first: line %lu; lines are `START SIZE name`, hex)\n",
			path, nr_bad, nr_bad == 1 ? "" : "s", first_bad);
	return nr;
}
