// SPDX-License-Identifier: GPL-2.0
/* perf record's --control channel: commands in, acks out. See record-control.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record-control.h"

void record_control__init(struct record_control *c)
{
	memset(c, 0, sizeof(*c));
	c->ctl_fd = -1;
	c->ack_fd = -1;
}

void record_control__exit(struct record_control *c)
{
	if (c->own_ctl && c->ctl_fd >= 0)
		close(c->ctl_fd);
	if (c->own_ack && c->ack_fd >= 0)
		close(c->ack_fd);
	record_control__init(c);
}

static int control__fd_number(const char *s, int *fd)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > 65535)
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

/* a descriptor by number must be open: a typo would otherwise poll nothing, silently */
static int control__check_fd(int fd, const char *what, struct perf_err *err)
{
	if (fcntl(fd, F_GETFD) < 0)
		return perf_err__set(err, EINVAL, "%s descriptor %d is not open", what, fd);
	return 0;
}

/*
 * Read-write, so that the open does not wait for a writer (or a reader, for the ack FIFO)
 * and the last writer closing its end is no end of file; non-blocking, so that a reader
 * that stopped reading acks never stops the recording.
 */
static int control__open_fifo(const char *path, int *fd, struct perf_err *err)
{
	int f = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (f < 0)
		return perf_err__set(err, errno, "cannot open FIFO '%s': %m", path);
	*fd = f;
	return 0;
}

int record_control__open(struct record_control *c, const char *spec, struct perf_err *err)
{
	char *copy, *second;
	int ret = 0;

	record_control__init(c);
	if (strncmp(spec, "fd:", 3) && strncmp(spec, "fifo:", 5))
		return perf_err__set(err, EINVAL,
				     "'%s': expected fd:CTL[,ACK] or fifo:CTL[,ACK]", spec);
	copy = strdup(strchr(spec, ':') + 1);
	if (!copy)
		return perf_err__set(err, ENOMEM, "out of memory");
	second = strchr(copy, ',');
	if (second)
		*second++ = '\0';
	if (!*copy || (second && !*second)) {
		ret = perf_err__set(err, EINVAL, "'%s': an empty %s", spec,
				    *copy ? "ACK" : "CTL");
		goto out;
	}
	if (spec[1] == 'd') {
		if (control__fd_number(copy, &c->ctl_fd) ||
		    (second && control__fd_number(second, &c->ack_fd))) {
			ret = perf_err__set(err, EINVAL,
					    "'%s': fd: takes descriptor numbers (fd:10,11)",
					    spec);
			c->ctl_fd = c->ack_fd = -1;
			goto out;
		}
		ret = control__check_fd(c->ctl_fd, "CTL", err);
		if (!ret && second)
			ret = control__check_fd(c->ack_fd, "ACK", err);
		if (ret)
			c->ctl_fd = c->ack_fd = -1;
		goto out;
	}
	ret = control__open_fifo(copy, &c->ctl_fd, err);
	if (ret)
		goto out;
	c->own_ctl = true;
	if (second) {
		ret = control__open_fifo(second, &c->ack_fd, err);
		if (ret)
			goto out;
		c->own_ack = true;
	}
out:
	free(copy);
	if (ret)
		record_control__exit(c);
	return ret;
}

int record_control__fd(const struct record_control *c)
{
	return c->eof ? -1 : c->ctl_fd;
}

static bool control__word(const char *line, const char *word, const char **rest)
{
	size_t n = strlen(word);

	if (strncmp(line, word, n) || (line[n] && line[n] != ' '))
		return false;
	*rest = line + n;
	while (**rest == ' ')
		(*rest)++;
	return true;
}

static enum record_control_cmd control__parse(const char *line, const char **arg)
{
	static const struct {
		const char		*word;
		enum record_control_cmd	cmd;
		bool			takes_arg;
	} cmds[] = {
		{ "enable",	RECORD_CONTROL_ENABLE,		true },
		{ "disable",	RECORD_CONTROL_DISABLE,		true },
		{ "snapshot",	RECORD_CONTROL_SNAPSHOT,	false },
		{ "stop",	RECORD_CONTROL_STOP,		false },
		{ "ping",	RECORD_CONTROL_PING,		false },
		{ "evlist",	RECORD_CONTROL_EVLIST,		true },
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!control__word(line, cmds[i].word, arg))
			continue;
		if (!cmds[i].takes_arg && **arg)
			break;
		if (cmds[i].cmd == RECORD_CONTROL_EVLIST && **arg && strcmp(*arg, "-v") &&
		    strcmp(*arg, "-g") && strcmp(*arg, "-F"))
			break;
		return cmds[i].cmd;
	}
	*arg = line;
	return RECORD_CONTROL_UNKNOWN;
}

/* the first complete line of buf into line, removed from buf; false when none */
static bool control__take_line(struct record_control *c, char *line, size_t size)
{
	char *nl = memchr(c->buf, '\n', c->len);
	size_t n;

	/* perf ends a command at a newline or a NUL: `echo -n enable` followed by NUL works */
	if (!nl)
		nl = memchr(c->buf, '\0', c->len);
	if (!nl)
		return false;
	n = (size_t)(nl - c->buf);
	snprintf(line, size, "%.*s", (int)n, c->buf);
	memmove(c->buf, nl + 1, c->len - n - 1);
	c->len -= n + 1;
	return true;
}

int record_control__next(struct record_control *c, enum record_control_cmd *cmd, char *arg,
			 size_t arg_size, struct perf_err *err)
{
	char line[RECORD_CONTROL_LINE_MAX];
	struct pollfd p = { .fd = c->ctl_fd, .events = POLLIN };
	const char *a;
	ssize_t n;

	*cmd = RECORD_CONTROL_NONE;
	if (arg_size)
		arg[0] = '\0';
	if (c->ctl_fd < 0)
		return 0;
	if (!control__take_line(c, line, sizeof(line))) {
		/* one read per call, and only when there is something: a descriptor may block */
		if (c->eof || poll(&p, 1, 0) <= 0)
			return 0;
		n = read(c->ctl_fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return perf_err__set(err, errno, "--control: cannot read commands: %m");
		if (n == 0)
			c->eof = true;	/* the writer closed it: no more commands */
		if (n > 0)
			c->len += (size_t)n;
		if (c->len == sizeof(c->buf) && !memchr(c->buf, '\n', c->len) &&
		    !memchr(c->buf, '\0', c->len)) {
			/* too long to be a command: dropped up to its end, which is reported */
			c->overlong = true;
			c->len = 0;
		}
		if (!control__take_line(c, line, sizeof(line)))
			return 0;
	}
	if (c->overlong) {
		c->overlong = false;
		*cmd = RECORD_CONTROL_UNKNOWN;
		snprintf(arg, arg_size, "(a line of more than %d bytes)", RECORD_CONTROL_LINE_MAX - 1);
		return 0;
	}
	*cmd = control__parse(line, &a);
	snprintf(arg, arg_size, "%s", a);
	return 0;
}

int record_control__ack(struct record_control *c, struct perf_err *err)
{
	static const char ack[] = "ack\n";

	if (c->ack_fd < 0)
		return 0;
	if (write(c->ack_fd, ack, sizeof(ack) - 1) != (ssize_t)sizeof(ack) - 1 && errno != EAGAIN)
		return perf_err__set(err, errno, "--control: cannot write the ack: %m");
	return 0;
}
