#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmtest.sh - `make vmtest`: our perf record on a kernel with deferred user callchains.
#
# The machines this is built and tested on run kernels without deferred callchains (Linux <
# 6.19) and bookworm's glibc, so neither the deferred path of perf record nor a current C
# library is seen by make test. Here Debian sid's current kernel (7.x, CONFIG_UNWIND_USER=y)
# boots under qemu (TCG: there may be no /dev/kvm) with a debootstrapped sid root over
# virtio-9p, runs our build/perf record there (scripts/vmtest-guest.sh: the built-in
# workloads with --call-graph fp,defer, -g --defer, cpu-clock:u, two events, -a, pipe mode,
# -z, --no-repair-data), powers off, and the files are checked here, on the host, with our
# perf script and with upstream perf 7.2 (sid's linux-perf, run chrooted in the same root).
#
#   sid's kernel      apt with a private sources list, state and cache below the cache
#                     directory (the system's apt is left alone); linux-image-amd64's version
#                     is looked up each run, its linux-binary and linux-modules unpacked
#   initramfs         busybox-static, the 9p modules (netfs, 9pnet, 9pnet_virtio, 9p: the
#                     depends= closure read from each module's .modinfo), an init that mounts
#                     the 9p root, chroots into it to run the guest script, and powers off
#   root              debootstrap --variant=minbase sid, with libc6-dbg (sid's libc is
#                     stripped), linux-perf, and the libraries build/perf links (ldd)
#
# Prints one line per check and then `N passed, N failed, N skipped`. A guest oops on the
# console (an emulation artefact, rare with thread=single) boots once more.
#
# Exit status: 0 every check passed; 1 a check failed or the guest did not finish; 2 skipped:
# not root, a tool cannot be had, or the Debian archive cannot be reached on a cold cache.
#
# Usage: scripts/vmtest.sh
# Environment:
#	PERF_VMTEST_CACHE	cache directory (default /var/cache/perf-vmtest): apt state, the
#				kernel, the initramfs, the sid root, logs; results in
#				ROOT/vmtest/out (ROOT = CACHE/root)
#	PERF_VMTEST_MIRROR	Debian mirror (default http://deb.debian.org/debian)
#	PERF_VMTEST_REFRESH=1	debootstrap the root anew
#	PERF_VMTEST_TIMEOUT	seconds one boot may take (default 900)
#	PERF_VMTEST_ONLY	the recordings to make: shell patterns of their names (the first
#				argument of rec and pipe in scripts/vmtest-guest.sh, e.g.
#				'kcore-*'), blank-separated; default all. Only the made ones
#				are checked.
#	PERF	the perf binary to test (default build/perf of this tree)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERF_VMTEST_CACHE:-/var/cache/perf-vmtest}
mirror=${PERF_VMTEST_MIRROR:-http://deb.debian.org/debian}
vm_timeout=${PERF_VMTEST_TIMEOUT:-900}
perf=${PERF:-$top/build/perf}
suite=sid
# sid's packages the guest root gets beside what build/perf links (see root_packages):
# libc6-dbg (sid's libc is stripped: without it read's and memset's frames are [unknown]),
# upstream perf 7.2 and the addr2line it runs for inline frames, python3 (perf test -w python3)
root_include=libc6-dbg,linux-perf,binutils,python3
tag=vmroot

say() { echo "vmtest: $*"; }
skip() { say "SKIP: $*"; exit 2; }
fail() { say "FAILED: $*"; exit 1; }

# ---- mounts and cleanup, as scripts/fresh-machine-test.sh -----------------------------------

# mounts_below DIR: the mount points at or below DIR, deepest first
mounts_below() {
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts | sort -r
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

# remove_tree DIR: rm -rf below the cache only, never across a mount
remove_tree() {
	local d=$1
	case $d in
	"$cache"/?*) ;;
	*) say "refusing to remove $d: not below $cache"; return 1 ;;
	esac
	[ -e "$d" ] || return 0
	if ! unmount_below "$d"; then
		say "not removing $d: still mounted below it: $(mounts_below "$d" | tr '\n' ' ')"
		return 1
	fi
	rm -rf --one-file-system -- "$d"
}

scratch=
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[ -n "$scratch" ] && { remove_tree "$scratch" || rc=1; }
	[ -d "${root:-}" ] && { unmount_below "$root" || rc=1; }
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM

[ "$(id -u)" = 0 ] || skip "needs root (apt-get, debootstrap, chroot, mount)"
case $cache in
/?*) ;;
*) fail "PERF_VMTEST_CACHE must be an absolute path: $cache" ;;
esac
mkdir -p "$cache/logs" || fail "cannot create $cache"
cache=$(cd "$cache" && pwd -P) || fail "cannot enter $cache"
case $cache in
*[[:space:]]*) fail "PERF_VMTEST_CACHE must not contain blanks: $cache" ;;
esac
root=$cache/root
logs=$cache/logs
start=$SECONDS
exec 9>"$cache/lock"
flock -n 9 || { say "waiting for another make vmtest (lock $cache/lock)"; flock 9; } ||
	fail "cannot lock $cache/lock"

# ---- host tools (bookworm's packages) --------------------------------------------------------

# need COMMAND PACKAGE: installs PACKAGE with apt-get when COMMAND is missing
need() {
	command -v "$1" >/dev/null && return 0
	command -v apt-get >/dev/null || skip "$1 is not installed (package $2; no apt-get here)"
	say "installing $2 (for $1)"
	DEBIAN_FRONTEND=noninteractive nice -n 19 apt-get install -y -qq --no-install-recommends \
		"$2" </dev/null >"$logs/apt-$2.log" 2>&1 ||
		skip "$1 is not installed and $2 cannot be installed (log: $logs/apt-$2.log)"
	command -v "$1" >/dev/null || skip "$2 is installed but $1 is not found"
}
need qemu-system-x86_64 qemu-system-x86
need cpio cpio
need xz xz-utils
need debootstrap debootstrap
need objdump binutils
# the static busybox (busybox-static's; a dynamic one cannot run in the initramfs)
busybox=/bin/busybox
if ! LC_ALL=C ldd "$busybox" 2>&1 | grep -q 'not a dynamic executable'; then
	say "installing busybox-static"
	DEBIAN_FRONTEND=noninteractive nice -n 19 apt-get install -y -qq busybox-static \
		</dev/null >"$logs/apt-busybox-static.log" 2>&1 ||
		skip "busybox-static cannot be installed (log: $logs/apt-busybox-static.log)"
fi
[ -x "$busybox" ] || skip "no $busybox (package busybox-static)"

if [ ! -x "$perf" ]; then
	say "building $perf (make -j2)"
	nice -n 19 make -C "$top" -j2 >"$logs/make.log" 2>&1 || fail "make failed (log: $logs/make.log)"
fi
[ -x "$perf" ] || fail "no perf binary at $perf"

# ---- sid's kernel ----------------------------------------------------------------------------

# a private apt for sid: its sources, lists and cache below $cache/apt, no dpkg status (the
# system's installed packages are not sid's business)
aptdir=$cache/apt
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" || fail "cannot create $aptdir"
echo "deb $mirror $suite main" >"$aptdir/sources.list"
apt_opts=(-o Dir::Etc::SourceList="$aptdir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$aptdir/lists" -o Dir::Cache="$aptdir/cache"
	-o Dir::State::status=/dev/null -o Acquire::Check-Valid-Until=false
	-o APT::Architecture=amd64 -o Debug::NoLocking=1)
kver=
if apt-get "${apt_opts[@]}" -q update >"$logs/apt-sid-update.log" 2>&1 &&
	! grep -qE '^(W|E): (Failed to fetch|Some index files failed)' "$logs/apt-sid-update.log"; then
	# linux-image-amd64 depends on linux-image-VER (a meta package) which depends on
	# linux-binary-VER (vmlinuz) and linux-modules-VER
	kver=$(apt-cache "${apt_opts[@]}" depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -1)
	[ -n "$kver" ] || fail "cannot find linux-image-amd64's kernel in $suite's lists (log: $logs/apt-sid-update.log)"
else
	tail -n 5 "$logs/apt-sid-update.log"
	# a cached kernel still boots; a cold cache cannot go on
	kver=$(cat "$cache/kernel/current" 2>/dev/null)
	[ -n "$kver" ] || skip "the Debian archive at $mirror cannot be reached (apt-get update of $suite failed)"
	say "note: the archive cannot be reached; using the cached kernel $kver"
fi
kdir=$cache/kernel/$kver
if [ ! -s "$kdir/vmlinuz" ] || [ ! -d "$kdir/modules" ]; then
	say "downloading $suite's kernel $kver"
	scratch=$(mktemp -d "$cache/kernel.XXXXXX") || fail "mktemp in $cache"
	(cd "$scratch" && apt-get "${apt_opts[@]}" -q download "linux-binary-$kver" \
		"linux-modules-$kver") >"$logs/apt-kernel.log" 2>&1 ||
		skip "cannot download linux-binary-$kver and linux-modules-$kver (log: $logs/apt-kernel.log)"
	for deb in "$scratch"/*.deb; do
		dpkg-deb -x "$deb" "$scratch/x" || fail "cannot unpack $deb"
	done
	mdir=$(echo "$scratch"/x/usr/lib/modules/*/kernel)
	[ -s "$scratch/x/usr/lib/modules/$kver/vmlinuz" ] && [ -d "$mdir" ] ||
		fail "no vmlinuz or modules for $kver in the packages"
	mkdir -p "$scratch/k" && mv "$scratch/x/usr/lib/modules/$kver/vmlinuz" "$scratch/k/" &&
		mv "$mdir" "$scratch/k/modules" || fail "cannot move the kernel into place"
	rm -rf "$cache/kernel"/*/ 2>/dev/null
	mkdir -p "$cache/kernel" && mv -T "$scratch/k" "$kdir" || fail "cannot store $kdir"
	remove_tree "$scratch"
	scratch=
fi
echo "$kver" >"$cache/kernel/current"

# ---- the initramfs ---------------------------------------------------------------------------

# modinfo_depends FILE: the depends= of a module (.ko or .ko.xz), read from its .modinfo
# strings (no kmod on the host needed)
modinfo_depends() {
	case $1 in
	*.xz) xz -dc -- "$1" ;;
	*.zst) zstd -dc -- "$1" ;;
	*) cat -- "$1" ;;
	esac | tr '\0' '\n' | sed -n 's/^depends=//p' | head -1 | tr ',' ' '
}

# module_file NAME: the module's file below $kdir/modules (names use _ where files may use -)
module_file() {
	local n=$1
	find "$kdir/modules" \( -name "$n.ko*" -o -name "${n//_/-}.ko*" \) -print -quit
}

# module_closure NAME...: NAME and its dependencies, each after what it depends on
declare -A mod_seen=()
mod_order=()
module_closure() {
	local n f d
	for n in "$@"; do
		[ -n "${mod_seen[$n]:-}" ] && continue
		mod_seen[$n]=1
		f=$(module_file "$n")
		[ -n "$f" ] || fail "no module $n in $kver's modules"
		for d in $(modinfo_depends "$f"); do
			module_closure "$d"
		done
		mod_order+=("$n")
	done
}
module_closure netfs 9pnet 9pnet_virtio 9p

# the init, a busybox shell script: modules, the 9p root, the guest script, poweroff
init_text=$(cat <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in ${mod_order[*]}; do
	insmod /modules/\$m.ko || echo "vmtest-init: insmod \$m failed"
done
mkdir -p /newroot
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 $tag /newroot; then
	mount -t proc proc /newroot/proc
	mount -t sysfs sys /newroot/sys
	mount -t devtmpfs dev /newroot/dev
	mount -t tmpfs tmp /newroot/tmp
	chroot /newroot /bin/sh /vmtest/guest.sh
	echo "vmtest-init: guest.sh exited with \$?"
	sync
	umount /newroot/tmp /newroot/dev /newroot/sys /newroot/proc
	umount /newroot
else
	echo "vmtest-init: cannot mount the 9p root"
fi
echo "vmtest-init: poweroff"
poweroff -f
EOF
)
key=$( (echo "$init_text"; cksum <"$busybox"; echo "$kver") | cksum | cut -d' ' -f1)
initrd=$kdir/initramfs-$key.cpio.gz
if [ ! -s "$initrd" ]; then
	say "building the initramfs ($kver, modules ${mod_order[*]})"
	scratch=$(mktemp -d "$cache/initramfs.XXXXXX") || fail "mktemp in $cache"
	mkdir -p "$scratch"/{bin,dev,proc,sys,modules} &&
		cp "$busybox" "$scratch/bin/busybox" &&
		echo "$init_text" >"$scratch/init" && chmod 755 "$scratch/init" ||
		fail "cannot fill $scratch"
	for m in "${mod_order[@]}"; do
		f=$(module_file "$m")
		case $f in
		*.xz) xz -dc -- "$f" ;;
		*.zst) zstd -dc -- "$f" ;;
		*) cat -- "$f" ;;
		esac >"$scratch/modules/$m.ko" || fail "cannot decompress $f"
	done
	rm -f "$kdir"/initramfs-*.cpio.gz
	(cd "$scratch" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd.tmp" &&
		mv "$initrd.tmp" "$initrd" || fail "cannot write $initrd"
	remove_tree "$scratch"
	scratch=
fi

# ---- the sid root ----------------------------------------------------------------------------

# root_packages: the Debian packages of the libraries build/perf links, by this machine's
# names: sid may have renamed them (libelf1 -> libelf1t64), and its new package then
# provides the old name, which apt-get install resolves
root_packages() {
	local lib
	ldd "$perf" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r lib; do
		dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null
	done | sed 's/:.*//' | grep -vx -e libc6 | sort -u | tr '\n' ' '
}

# in_root LOG COMMAND: runs COMMAND (sh) chrooted in the root, with its proc mounted
in_root() {
	local log=$1 rc
	shift
	mountpoint -q "$root/proc" || mount -t proc proc "$root/proc" || return 1
	timeout --kill-after=30 1800 chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
		nice -n 19 /bin/sh -c "$*" </dev/null >"$log" 2>&1
	rc=$?
	umount "$root/proc" 2>/dev/null
	return $rc
}

if [ "${PERF_VMTEST_REFRESH:-0}" = 1 ] && [ -d "$root" ]; then
	say "PERF_VMTEST_REFRESH=1: removing the cached root"
	remove_tree "$root" || fail "cannot remove $root"
fi
if [ ! -x "$root/usr/bin/perf" ]; then
	scratch=$(mktemp -d "$cache/debootstrap.XXXXXX") || fail "mktemp in $cache"
	chmod 755 "$scratch"
	log=$logs/debootstrap.log
	say "debootstrap --variant=minbase --include=$root_include $suite (log: $log)"
	keyring=
	[ -r /usr/share/keyrings/debian-archive-keyring.gpg ] &&
		keyring=--keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	if ! nice -n 19 debootstrap --variant=minbase --include="$root_include" $keyring \
		"$suite" "$scratch" "$mirror" </dev/null >"$log" 2>&1; then
		tail -n 20 "$log"
		grep -qE 'Failed getting release|Couldn.t download|Failed to fetch|Temporary failure resolving|Could not resolve|Connection (refused|timed out)' "$log" &&
			skip "the Debian archive at $mirror cannot be reached"
		fail "debootstrap failed (log: $log)"
	fi
	unmount_below "$scratch" || fail "debootstrap left mounts below $scratch"
	echo 'Acquire::Check-Valid-Until "false";' >"$scratch/etc/apt/apt.conf.d/99vmtest"
	mv -T "$scratch" "$root" || fail "cannot move $scratch to $root"
	scratch=
	say "sid root ready in $((SECONDS - start)) s"
fi
pkgs="${root_include//,/ } $(root_packages)"
if [ "$(cat "$root/vmtest.packages" 2>/dev/null)" != "$pkgs" ]; then
	say "installing in the root what $perf links: $pkgs"
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	in_root "$logs/root-packages.log" "apt-get update -q && apt-get install -y -q --no-install-recommends $pkgs" ||
		{ tail -n 10 "$logs/root-packages.log"; fail "cannot install $pkgs in the root (log: $logs/root-packages.log)"; }
	echo "$pkgs" >"$root/vmtest.packages"
fi

# this run's perf and guest script, and which recordings it makes; the last run's results go
rm -rf --one-file-system "$root/vmtest" && mkdir -p "$root/vmtest/out" || fail "cannot make $root/vmtest"
cp "$perf" "$root/vmtest/perf" && cp "$top/scripts/vmtest-guest.sh" "$root/vmtest/guest.sh" &&
	echo "${PERF_VMTEST_ONLY:-}" >"$root/vmtest/only" ||
	fail "cannot copy perf and the guest script into $root/vmtest"
missing=$(chroot "$root" ldd /vmtest/perf 2>&1 | grep 'not found')
[ -z "$missing" ] || fail "build/perf cannot run in the sid root: $missing"
say "prepared in $((SECONDS - start)) s: kernel $kver, root $root"

# ---- boot ------------------------------------------------------------------------------------

# boot N: one boot; the console goes to $logs/console-N.log
boot() {
	local log=$logs/console-$1.log
	rm -rf --one-file-system "$root/vmtest/out" && mkdir -p "$root/vmtest/out" || return 1
	say "booting $kver under qemu (TCG, timeout $vm_timeout s; console: $log)"
	timeout --kill-after=10 "$vm_timeout" nice -n 19 qemu-system-x86_64 \
		-machine q35 -cpu max -smp 2 -m 2048 -accel tcg,thread=single \
		-nographic -no-reboot -kernel "$kdir/vmlinuz" -initrd "$initrd" \
		-append 'console=ttyS0 panic=-1' \
		-virtfs "local,path=$root,mount_tag=$tag,security_model=none,multidevs=remap" \
		</dev/null >"$log" 2>&1 &
	wait $!
}

# the console lines of a guest kernel's oops or panic (an emulation artefact seen with
# thread=multi: "Oops: int3" in __schedule)
oops_re='Oops|BUG:|general protection fault|Kernel panic'
oopsed() {
	grep -qE "$oops_re" "$1"
}

t=$SECONDS
rm -f "$logs"/console-*.log
boot 1
rc=$?
if oopsed "$logs/console-1.log"; then
	say "the guest oopsed (console-1.log):"
	grep -m3 -E "$oops_re" "$logs/console-1.log"
	say "booting once more"
	boot 2
	rc=$?
	oopsed "$logs/console-2.log" && fail "the guest oopsed twice (console-1.log, console-2.log)"
fi
boot_secs=$((SECONDS - t))
[ "$rc" -ge 124 ] && [ "$rc" -le 137 ] && fail "qemu timed out after $vm_timeout s (console: $logs/console-*.log)"
[ "$rc" = 0 ] || fail "qemu exited with $rc (console: $logs/console-*.log)"
[ -f "$root/vmtest/out/done" ] || {
	tail -n 30 "$(ls -t "$logs"/console-*.log | head -1)"
	fail "the guest did not finish its recordings (console: $logs)"
}
say "boot, recordings and poweroff in $boot_secs s (guest kernel $(cat "$root/vmtest/out/uname"))"
warned=$(grep -h -m3 'WARNING: CPU:' "$logs"/console-*.log)
[ -z "$warned" ] || say "note: the guest kernel warned (console: $logs): $warned"

# ---- checks ----------------------------------------------------------------------------------
"$top/scripts/vmtest-check.sh" "$root" "$perf"
rc=$?
say "$((SECONDS - start)) s in all"
exit $rc
