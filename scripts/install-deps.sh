#!/bin/sh
# Installs the build dependencies when they are missing and we are root (apt-get or dnf).
# Without root it only says what is missing.
DEB="libelf-dev libdw-dev libzstd-dev libtraceevent-dev pkg-config gcc make zstd"
RPM="elfutils-libelf-devel elfutils-devel libzstd-devel libtraceevent-devel pkgconf gcc make zstd"
# zstd (the command) only serves the tests: they read upstream's expected outputs with it
if "$(dirname "$0")/check-deps.sh" 2>/dev/null && command -v cc >/dev/null &&
   command -v zstd >/dev/null; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	"$(dirname "$0")/check-deps.sh"
	exit $?
fi
if command -v apt-get >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $DEB >/dev/null || exit 1
elif command -v dnf >/dev/null; then
	dnf install -y -q $RPM || exit 1
else
	echo "install-deps: neither apt-get nor dnf found; install: $DEB" >&2
	exit 1
fi
"$(dirname "$0")/check-deps.sh"
