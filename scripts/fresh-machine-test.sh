#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fresh-machine-test.sh - `make fresh-machine-test`: the README's two commands on a fresh
# minimal Debian bookworm, as a new user would run them.
#
# The development machines and CI have accumulated packages a new machine lacks, so a
# missing dependency (the install step's lists, check-deps.sh) passes there and fails for a
# user. Here: debootstrap --variant=minbase with git and make only (kept as a tarball in the
# cache, so later runs unpack it in seconds), a clone of this repository's committed HEAD in
# /root/perf of a scratch copy of it, and `make demo` then `make test` in a chroot as root,
# with nothing beside the clone: the repository carries its fixtures. make test's deps step
# gets the reference tools there too (scripts/test-deps.sh: the system perf and hotspot with
# apt, upstream perf 7.2 in a debootstrapped sid), so every test runs: a skip fails the run.
# The sid tree is the one piece not made anew when this machine has it already (make
# test-deps): its directory is bind-mounted into the root (privately: the mounts the
# wrapper makes in it stay there), which saves ten minutes and tests the same wrapper.
#
# Exit status: 0 both passed with no test skipped; 1 one failed (named, with the tail of its
# log) or a test skipped; 2 skipped: not root, debootstrap cannot be had, or the Debian
# archive cannot be reached.
#
# Usage: scripts/fresh-machine-test.sh [COMMIT]	(default HEAD of this working tree)
# Environment:
#	PERF_FRESH_CACHE	cache directory (default /var/cache/perf-fresh-machine): the
#				tarball, the scratch roots, the logs of the last run
#	PERF_FRESH_MIRROR	Debian mirror (default http://deb.debian.org/debian)
#	PERF_FRESH_REFRESH=1	debootstrap anew instead of using the cached tarball
#	PERF_FRESH_JOBS		make -j inside the root (default: the number of CPUs); what
#				is tested is the set-up, not a serial build's patience
#	PERF_FRESH_TIMEOUT	seconds each command may take (default 3600)
#	PERF_FRESH_KEEP=1	keep the scratch root after the run (it is unmounted first)
#	PERF_FRESH_NO_TEST_DEPS=1  leave the reference tools out (PERF_NO_TEST_DEPS=1 in
#				the root): the tests that need them skip, and skips are allowed
#	UPSTREAM_PERF_DIR	this machine's upstream perf tree's directory, as for
#				scripts/upstream-perf (default /var/cache/upstream-perf)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERF_FRESH_CACHE:-/var/cache/perf-fresh-machine}
mirror=${PERF_FRESH_MIRROR:-http://deb.debian.org/debian}
jobs=${PERF_FRESH_JOBS:-$(nproc)}
cmd_timeout=${PERF_FRESH_TIMEOUT:-3600}
suite=bookworm
# what the user had before the clone; nothing else may be assumed
include=git,make
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
tarball=$cache/$suite-minbase-${include//,/-}-$arch.tar
root=

say() { echo "fresh-machine: $*"; }
skip() { say "SKIP: $*"; exit 2; }
fail() { say "FAILED: $*"; exit 1; }

# mounts_below DIR: the mount points at or below DIR, deepest first (/proc/mounts escapes
# blanks as \040; our paths have none, checked below)
mounts_below() {
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts | sort -r
}

# kill_inside DIR: ends what is still running with DIR as its root (only a run of ours
# chroots there: the directory was made by mktemp below)
kill_inside() {
	local p r
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		[ "$r" = "$1" ] && kill -KILL "${p#/proc/}" 2>/dev/null
	done
	return 0
}

# unmount_below DIR: unmounts everything at or below DIR; returns non-zero if any remains
unmount_below() {
	local m
	for m in $(mounts_below "$1"); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
			say "cannot unmount $m"
	done
	[ -z "$(mounts_below "$1")" ]
}

# remove_tree DIR: rm -rf that never crosses into a mount: everything below DIR is
# unmounted first, /proc/mounts must then show nothing below it, and rm stays on DIR's
# file system whatever happens in between
remove_tree() {
	local d=$1
	case $d in
	"$cache"/?*) ;;
	*) say "refusing to remove $d: not below $cache"; return 1 ;;
	esac
	[ -e "$d" ] || return 0
	kill_inside "$d"
	if ! unmount_below "$d"; then
		say "not removing $d: still mounted below it: $(mounts_below "$d" | tr '\n' ' ')"
		return 1
	fi
	rm -rf --one-file-system -- "$d"
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$root" ]; then
		if [ "${PERF_FRESH_KEEP:-0}" = 1 ]; then
			kill_inside "$root"
			unmount_below "$root" && say "scratch root kept in $root"
		else
			remove_tree "$root" || rc=1
		fi
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot, mount)"
case $cache in
/?*) ;;
*) fail "PERF_FRESH_CACHE must be an absolute path: $cache" ;;
esac
mkdir -p "$cache/logs" || fail "cannot create $cache"
# the real path: /proc/mounts and /proc/PID/root name it so
cache=$(cd "$cache" && pwd -P) || fail "cannot enter $cache"
case $cache in
*[[:space:]]*) fail "PERF_FRESH_CACHE must not contain blanks: $cache" ;;
esac
tarball=$cache/${tarball##*/}

command -v git >/dev/null || skip "git is not installed on this machine"
# the tree may belong to the user who ran `sudo make fresh-machine-test`: reading it is
# what we are asked to do, so git's check of the owner does not apply
git_top() {
	git -c safe.directory='*' -C "$top" "$@"
}
rev=$(git_top rev-parse --verify "${1:-HEAD}^{commit}" 2>/dev/null) ||
	fail "no such commit in $top: ${1:-HEAD}"
if [ -z "${1:-}" ] && [ -n "$(git_top status --porcelain --untracked-files=no)" ]; then
	say "note: uncommitted changes in $top are not tested (the clone is of HEAD)"
fi

if ! command -v debootstrap >/dev/null; then
	command -v apt-get >/dev/null || skip "debootstrap is not installed (and no apt-get)"
	say "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap </dev/null \
		>/dev/null 2>&1 || skip "debootstrap cannot be installed"
fi
# the Debian keyring debootstrap checks the archive with
keyring=
[ -r /usr/share/keyrings/debian-archive-keyring.gpg ] &&
	keyring=--keyring=/usr/share/keyrings/debian-archive-keyring.gpg

start=$SECONDS
# one run builds the tarball at a time; the others wait and use it
exec 9>"$cache/lock"
flock 9 || fail "cannot lock $cache/lock"
if [ ! -s "$tarball" ] || [ "${PERF_FRESH_REFRESH:-0}" = 1 ]; then
	build=$(mktemp -d "$cache/debootstrap.XXXXXX") || fail "mktemp in $cache"
	chmod 755 "$build"
	root=$build
	log=$cache/logs/debootstrap.log
	say "debootstrap --variant=minbase --include=$include $suite from $mirror (log: $log)"
	if ! debootstrap --variant=minbase --include="$include" $keyring "$suite" "$build" \
		"$mirror" </dev/null >"$log" 2>&1; then
		tail -n 20 "$log"
		if grep -qE 'Failed getting release|Couldn.t download|Failed to fetch|Temporary failure resolving|Could not resolve|Connection (refused|timed out)' "$log"; then
			skip "the Debian archive at $mirror cannot be reached"
		fi
		fail "debootstrap failed (log: $log)"
	fi
	# a fresh machine has no package lists until apt-get update: so the deps step must
	# fetch them, as it would on a cloud image
	rm -rf --one-file-system "$build/var/lib/apt/lists"/* "$build/var/cache/apt/archives"/*.deb
	unmount_below "$build" || fail "debootstrap left mounts below $build"
	tar -C "$build" --one-file-system --numeric-owner -cf "$tarball.tmp" . &&
		mv "$tarball.tmp" "$tarball" || fail "cannot write $tarball"
	remove_tree "$build" || fail "cannot remove $build"
	root=
	say "cached $tarball ($(du -h "$tarball" | cut -f1)) in $((SECONDS - start)) s"
fi
flock -u 9

root=$(mktemp -d "$cache/root.XXXXXX") || fail "mktemp in $cache"
tar -C "$root" --numeric-owner -xf "$tarball" || fail "cannot unpack $tarball"
# mktemp's 0700 would keep every user but root (apt's _apt, say) out of the whole root
chmod 755 "$root"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
# the local CAs this machine's network needs beyond Debian's (a TLS proxy's, say): the
# root's ca-certificates takes them into its store when installed, as on such a network a
# machine must (npm fetches puppeteer-core over https)
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	mkdir -p "$root/usr/local/share/ca-certificates" &&
		cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" ||
		fail "cannot copy this machine's local CAs into $root"
fi
# the archive reached from here may serve a snapshot older than its Valid-Until date; this
# is the chroot's apt, for this run only
cat >"$root/etc/apt/apt.conf.d/99fresh-machine-test" <<'EOF'
Acquire::Check-Valid-Until "false";
EOF
# a clone as a user makes it; a commit no branch holds is pushed to it instead
clone=$root/root/perf
git clone -q --no-local --upload-pack="git -c safe.directory='*' upload-pack" "$top" \
	"$clone" && git -C "$clone" checkout -q --detach "$rev" 2>/dev/null ||
	{ rm -rf --one-file-system "$clone" &&
	  git init -q "$clone" &&
	  git_top push -q "$clone" "$rev:refs/heads/fresh-machine-test" &&
	  git -C "$clone" checkout -q --detach "$rev"; } ||
	fail "cannot clone $top at $rev"
[ "$(ls "$root/root")" = perf ] || fail "$root/root holds more than the clone: it must stand alone"

# the root a mount point of its own, as a container's or a booted machine's is: a private
# mount namespace (unshare -m, which the sid-tree tests use) cannot be made where / is not one
mount --bind "$root" "$root" && mount --make-private "$root" ||
	fail "cannot make $root a mount point"
mount -t proc proc "$root/proc" || fail "cannot mount proc in $root"
mount -t sysfs sysfs "$root/sys" || fail "cannot mount sysfs in $root"
# this machine's cgroup hierarchies, as a booted machine has them (systemd mounts them):
# perf record -G and --all-cgroups name cgroups from them. A slave copy: unmounting it at
# the end must not unmount this machine's
if mountpoint -q /sys/fs/cgroup; then
	mount --rbind /sys/fs/cgroup "$root/sys/fs/cgroup" &&
		mount --make-rslave "$root/sys/fs/cgroup" ||
		fail "cannot bind this machine's cgroups into $root"
fi
# tracefs, where a booted machine has it (systemd mounts it): the tracepoint tests read it
if [ -d /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev "$root/sys/kernel/tracing" ||
		fail "cannot mount tracefs in $root"
fi
mount --bind /dev "$root/dev" || fail "cannot bind /dev in $root"
# dpkg and apt open a pseudo-terminal for their logs
mount --bind /dev/pts "$root/dev/pts" || fail "cannot bind /dev/pts in $root"
no_test_deps=${PERF_FRESH_NO_TEST_DEPS:-0}
upstream_dir=${UPSTREAM_PERF_DIR:-/var/cache/upstream-perf}
if [ "$no_test_deps" != 1 ] && [ -x "$upstream_dir/sid/usr/bin/perf" ]; then
	mkdir -p "$root/var/cache/upstream-perf" &&
		mount --bind "$upstream_dir" "$root/var/cache/upstream-perf" &&
		mount --make-private "$root/var/cache/upstream-perf" ||
		fail "cannot bind-mount $upstream_dir into the root"
	say "upstream perf's sid tree: this machine's $upstream_dir"
fi
say "root ready in $((SECONDS - start)) s: $root, clone of $(git_top log -1 --format='%h %s' "$rev")"

# in_root LOG COMMAND: runs COMMAND (sh) in the chroot as root, in a clean environment
in_root() {
	local log=$1
	shift
	timeout --kill-after=30 "$cmd_timeout" chroot "$root" /usr/bin/env -i \
		HOME=/root USER=root LOGNAME=root SHELL=/bin/sh TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive MAKEFLAGS="-j$jobs" \
		PERF_NO_TEST_DEPS="$([ "$no_test_deps" = 1 ] && echo 1)" \
		/bin/sh -c "$*" </dev/null >"$log" 2>&1 &
	# waited for, not run in the foreground, so that INT and TERM are handled at once
	wait $!
}

log=$cache/logs/apt-probe.log
if ! in_root "$log" 'apt-get update -q && rm -rf /var/lib/apt/lists/*'; then
	tail -n 10 "$log"
	skip "the Debian archive cannot be reached from the root (apt-get update failed)"
fi

for target in demo test; do
	log=$cache/logs/make-$target.log
	t=$SECONDS
	say "make $target (log: $log)"
	in_root "$log" "cd /root/perf && make $target"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "---- last 40 lines of make $target ----"
		tail -n 40 "$log"
		echo "----"
		# the suite's counts, when it got to them, for the caller's total
		counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
		[ "$target" = test ] && [ -n "$counts" ] &&
			say "make test in the chroot: ${counts//, / / }"
		[ "$rc" -ge 124 ] && [ "$rc" -le 137 ] && say "make $target timed out or was killed"
		fail "make $target failed on a fresh $suite (exit status $rc, $((SECONDS - t)) s)"
	fi
	say "make $target passed in $((SECONDS - t)) s"
done
# the suite's summary, in a form that is not mistaken for the caller's own closing line
counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
say "make test in the chroot: ${counts//, / / }"
skipped=$(echo "$counts" | awk '{ print $5 }')
if [ "$no_test_deps" != 1 ] && [ "${skipped:-1}" != 0 ]; then
	echo "---- the skipped tests ----"
	grep -E ': Skip' "$log"
	echo "----"
	fail "make test skipped ${skipped:-an unknown number of} tests on a fresh $suite with the archive reachable"
fi
say "PASSED: make demo and make test on a fresh $suite minbase ($((SECONDS - start)) s)"
exit 0
