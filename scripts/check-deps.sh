#!/bin/sh
# Feature detection: names the package that provides each missing library.
missing=""
check() {
	# $1 pkg-config name, $2 header, $3 Debian package, $4 Fedora package
	if pkg-config --exists "$1" 2>/dev/null || [ -e "/usr/include/$2" ]; then
		return 0
	fi
	echo "error: $1 not found ($2): install $3 (Debian/Ubuntu) or $4 (Fedora)" >&2
	missing="$missing $3"
}
check libelf libelf.h libelf-dev elfutils-libelf-devel
check libdw elfutils/libdw.h libdw-dev elfutils-devel
check libzstd zstd.h libzstd-dev libzstd-devel
check libtraceevent traceevent/event-parse.h libtraceevent-dev libtraceevent-devel
if [ -n "$missing" ]; then
	echo "Run 'make deps' as root (or: apt-get install$missing)." >&2
	exit 1
fi
exit 0
