#!/bin/sh
# install-deps.sh - `make deps` (run by make test and make demo): installs what the build
# links and the tests run, when it is missing and we are root (apt-get or dnf). Without
# root it only names what is missing.
#
# What is needed is what check-deps.sh --test probes; it names the packages, so the probes
# and the install lists cannot drift apart. A fresh Debian bookworm minbase (git and make
# only) gets: gcc libc6-dev pkg-config libelf-dev libdw-dev libzstd-dev libtraceevent-dev
# libncurses-dev libprotobuf-c-dev protobuf-c-compiler zlib1g-dev g++ (for libstdc++'s
# development link) zstd tmux; Fedora the same as gcc glibc-devel pkgconf-pkg-config
# elfutils-libelf-devel elfutils-devel libzstd-devel libtraceevent-devel ncurses-devel
# protobuf-c-devel protobuf-c-compiler zlib-devel gcc-c++ libstdc++-devel libasan libubsan
# zstd tmux
# (and whatever of binutils, gzip, gawk, diffutils and coreutils a minimal image lacks).
#
# As root it then gets the reference tools the differential tests compare against
# (test-deps.sh: upstream perf 7.2, the system perf, hotspot's perfparser); what it cannot
# get only makes those tests skip, so it never fails this step.
check=$(dirname "$0")/check-deps.sh
# reference_tools: test-deps.sh as root, its failure a message only
reference_tools() {
	[ "$(id -u)" = 0 ] || return 0
	# PERF_NO_TEST_DEPS=1: the build's dependencies only (fresh-machine-test.sh checks those)
	[ "${PERF_NO_TEST_DEPS:-}" = 1 ] && return 0
	"$(dirname "$0")"/test-deps.sh ||
		echo "install-deps: some reference tools are missing: the tests needing them skip" >&2
	return 0
}
if "$check" --test 2>/dev/null; then
	reference_tools
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	"$check" --test
	exit $?
fi
# install PACKAGE...: with this machine's package manager
install() {
	echo "install-deps: installing $*"
	if command -v apt-get >/dev/null; then
		# the package lists, once: a fresh machine has none
		if [ -z "$updated" ]; then
			DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null || return 1
			updated=1
		fi
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" </dev/null >/dev/null
	elif command -v dnf >/dev/null; then
		dnf install -y -q "$@" </dev/null
	else
		echo "install-deps: neither apt-get nor dnf found; install: $*" >&2
		return 1
	fi
}
# what needs a compiler to probe (libstdc++, the sanitizer runtime) shows only once one is
# installed: so a second round, while it names something new
updated=
last=
for _ in 1 2 3; do
	pkgs=$("$check" --test --packages 2>/dev/null)
	if [ -z "$pkgs" ] || [ "$pkgs" = "$last" ]; then
		break
	fi
	# shellcheck disable=SC2086 # a list of package names
	install $pkgs || exit 1
	last=$pkgs
done
"$check" --test || exit 1
reference_tools
