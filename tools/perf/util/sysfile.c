// SPDX-License-Identifier: GPL-2.0
/* sysfile.c - whole-file and one-line reads of /proc, /sys and tracefs (sysfile.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sysfile.h"

int sysfile__read(const char *path, char **data, size_t *size)
{
	size_t len = 0, alloc = 4096;
	char *buf = malloc(alloc), *n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out_free;
	}
	for (;;) {
		ssize_t r;

		if (alloc - len < 2) {
			n = realloc(buf, alloc * 2);
			if (!n) {
				err = -ENOMEM;
				goto out_free;
			}
			buf = n;
			alloc *= 2;
		}
		r = read(fd, buf + len, alloc - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto out_free;
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*data = buf;
	*size = len;
	return 0;

out_free:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

int sysfile__read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;
	char *nl;

	if (fd < 0)
		return -errno;
	do
		r = read(fd, buf, size - 1);
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	else if ((size_t)r == size - 1)
		return -E2BIG;
	return 0;
}

int sysfile__read_u64(const char *path, u64 *v)
{
	char buf[64], *end;
	int ret = sysfile__read_line(path, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}
