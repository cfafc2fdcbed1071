#!/bin/sh
# test-deps.sh [--check] - `make test-deps`, and `make deps` as root: the reference tools the
# differential tests compare our perf against, installed once (what is there already is kept):
#
#	upstream perf 7.2	Debian sid's linux-perf and binutils in a debootstrapped sid tree,
#				$UPSTREAM_PERF_DIR/sid (default /var/cache/upstream-perf/sid), run
#				by scripts/upstream-perf; a few minutes and ~300 MB the first time
#	the system perf		/usr/bin/perf (Debian's linux-perf: 6.1 on bookworm)
#	hotspot's perfparser	/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser (hotspot)
#	libc's debug symbols	libc6-dbg: the unwinding tests' ground truth names libc's own
#				callers (__libc_start_call_main, in .symtab only), and the
#				inline-frame cases need libc's DWARF
#	python3			/usr/bin/python3: perf test -w python3, an interpreter's
#				frames over libc (the modern-libc unwinding test)
#	node			/usr/bin/node (nodejs): a JIT runtime that writes jitdump files
#				(--perf-prof), for perf inject -j against upstream's
#	chromium		/usr/bin/chromium (Debian's chromium): flamegraph-browser.sh opens
#				perf script report flamegraph's page in it, headless
#	puppeteer-core		the DevTools-protocol client that test drives chromium with, from
#				the npm registry (npm: Debian's npm), into $PERF_TEST_NODE
#				(default /var/cache/perf-test-node), never into the tree
#	go pprof		go tool pprof (Debian's golang-go): the oracle of perf data
#				convert --to-pprof (pprof-go.sh)
#	sid's libc debug symbols	sid's libc6-dbg (the tree's libc version) unpacked into
#				$UPSTREAM_PERF_DIR/sid-debug, and python3 in the sid tree: the
#				modern-libc tests run workloads there (glibc >= 2.41, whose
#				libc.so.6 is stripped: read and __syscall_cancel need the symbols)
#				and mount that directory at the tree's /usr/lib/debug in a mount
#				namespace of their own. Not installed in the tree: upstream perf
#				runs there, and its addr2line would apply them to this machine's
#				libc
#
# Needs root, apt-get and Debian's archive. What it cannot get, it names with the reason and
# exits 1: the tests that need that tool skip, naming `make test-deps`. With --check it only
# says what is missing.
set -u
dir=${UPSTREAM_PERF_DIR:-/var/cache/upstream-perf}
sid=$dir/sid
sid_debug=$dir/sid-debug
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
system_perf=/usr/bin/perf
perfparser=/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser
node_dir=${PERF_TEST_NODE:-/var/cache/perf-test-node}
# the libraries our perf links that sid's linux-perf does not bring: tests run our binary
# chrooted in the tree (dso-id-chroot.sh, the modern-libc tests)
SID_LIBS="libprotobuf-c1 zlib1g"

say() {
	echo "test-deps: $*" >&2
}

# missing: the names of the tools not installed yet
missing() {
	[ -x "$sid/usr/bin/perf" ] || echo upstream-perf
	[ -x "$system_perf" ] || echo system-perf
	[ -x "$perfparser" ] || echo perfparser
	dpkg-query -W -f='${Status}' libc6-dbg 2>/dev/null | grep -q ' installed$' ||
		echo libc-debug
	[ -x /usr/bin/python3 ] || echo python3
	command -v node >/dev/null || echo node
	command -v chromium >/dev/null || echo chromium
	command -v go >/dev/null || echo go
	[ -d "$node_dir/node_modules/puppeteer-core" ] || echo puppeteer-core
	# a tree still to build gets them with it
	if [ -x "$sid/usr/bin/perf" ]; then
		for p in $SID_LIBS; do
			sid_has "$p" || { echo sid-libs; break; }
		done
	fi
	if [ -x "$sid/usr/bin/perf" ] && { ! sid_has python3 || sid_has libc6-dbg ||
		[ "$(cat "$sid_debug/version" 2>/dev/null)" != "$(sid_libc_version)" ]; }; then
		echo sid-libc-debug
	fi
}

# sid_libc_version: the sid tree's libc6 version
sid_libc_version() {
	chroot "$sid" dpkg-query -W -f='${Version}' libc6 2>/dev/null
}

# sid_debug_unpack: the tree's libc6-dbg of its libc's version, downloaded in the tree and
# unpacked into $sid_debug (replaced whole, so a half one is never left)
sid_debug_unpack() {
	log=$dir/test-deps.log
	v=$(sid_libc_version) && [ -n "$v" ] || return 1
	rm -rf "$sid/var/tmp/sid-debug" "$sid_debug.new" && mkdir -p "$sid/var/tmp/sid-debug" ||
		return 1
	cp /etc/resolv.conf "$sid/etc/" 2>/dev/null
	chroot "$sid" apt-get -o Acquire::Check-Valid-Until=false update >>"$log" 2>&1 &&
		chroot "$sid" sh -c "cd /var/tmp/sid-debug && apt-get download libc6-dbg=$v" \
			>>"$log" 2>&1 &&
		dpkg-deb -x "$sid"/var/tmp/sid-debug/libc6-dbg_*.deb "$sid_debug.new" &&
		echo "$v" >"$sid_debug.new/version" || return 1
	rm -rf "$sid/var/tmp/sid-debug" "$sid_debug" && mv "$sid_debug.new" "$sid_debug"
}

# sid_has PACKAGE: installed in the sid tree
sid_has() {
	chroot "$sid" dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' installed$'
}

# sid_apt PACKAGE...: installed in the sid tree (the archive's sid may be past Valid-Until)
sid_apt() {
	log=$dir/test-deps.log
	cp /etc/resolv.conf "$sid/etc/" 2>/dev/null
	chroot "$sid" apt-get -o Acquire::Check-Valid-Until=false update >>"$log" 2>&1 &&
		chroot "$sid" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends "$@" >>"$log" 2>&1 &&
		chroot "$sid" apt-get clean >>"$log" 2>&1
}

todo=$(missing)
if [ -z "$todo" ]; then
	exit 0
fi
if [ "${1:-}" = --check ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	why="not installed"
	[ "$(id -u)" = 0 ] || why="not installed (make test-deps installs it as root)"
	command -v apt-get >/dev/null || why="not installed (make test-deps needs apt-get)"
	for t in $todo; do
		say "$t: $why"
	done
	exit 1
fi

# one installer at a time (make -j, two checkouts): the second finds the first one's tools
mkdir -p "$dir" && exec 9>"$dir/lock" && flock 9 || { say "cannot lock $dir/lock"; exit 1; }
todo=$(missing)

updated=
# apt PACKAGE...: installed on this machine
apt() {
	if [ -z "$updated" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null || return 1
		updated=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" \
		</dev/null >/dev/null
}

# remove TREE: rm -rf of a tree of ours, refused while anything is mounted in it (the wrapper
# bind-mounts / at TREE/host, on the same device: --one-file-system would not stop there)
remove() {
	if findmnt -rno TARGET | grep -q "^$1/"; then
		say "$1 has mounts in it: not removed"
		return 1
	fi
	rm -rf --one-file-system "$1"
}

# sid_tree: debootstraps sid with linux-perf and binutils into a private directory, then
# renames it into place, so neither a failed build nor a concurrent one leaves a half tree
sid_tree() {
	log=$dir/test-deps.log
	new=$dir/sid.$$
	command -v debootstrap >/dev/null || apt debootstrap || return 1
	say "building upstream perf's Debian sid tree in $sid (a few minutes; log: $log)"
	remove "$new" || return 1
	debootstrap --variant=minbase sid "$new" "$mirror" >"$log" 2>&1 || return 1
	echo "deb $mirror sid main" >"$new/etc/apt/sources.list"
	cp /etc/resolv.conf "$new/etc/" 2>/dev/null
	# a mirror's copy of sid may be older than its Release file's Valid-Until
	chroot "$new" apt-get -o Acquire::Check-Valid-Until=false update >>"$log" 2>&1 &&
		chroot "$new" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends linux-perf binutils python3 $SID_LIBS >>"$log" 2>&1 &&
		chroot "$new" apt-get clean >>"$log" 2>&1 || return 1
	# another build may have finished first: keep that one
	if [ ! -x "$sid/usr/bin/perf" ]; then
		remove "$sid" && mv "$new" "$sid" || return 1
	fi
	remove "$new"
}

rc=0
for t in $todo; do
	case $t in
	upstream-perf)
		if ! sid_tree; then
			say "upstream-perf: could not build $sid (see $dir/test-deps.log)"
			remove "$dir/sid.$$"
			rc=1
		elif ! sid_debug_unpack; then
			say "sid-libc-debug: sid's libc6-dbg into $sid_debug: failed (see $dir/test-deps.log)"
			rc=1
		fi ;;
	system-perf)
		apt linux-perf && [ -x "$system_perf" ] ||
			{ say "system-perf: apt-get install linux-perf failed"; rc=1; } ;;
	perfparser)
		apt hotspot && [ -x "$perfparser" ] ||
			{ say "perfparser: apt-get install hotspot failed"; rc=1; } ;;
	libc-debug)
		apt libc6-dbg || { say "libc-debug: apt-get install libc6-dbg failed"; rc=1; } ;;
	python3)
		apt python3 && [ -x /usr/bin/python3 ] ||
			{ say "python3: apt-get install python3 failed"; rc=1; } ;;
	node)
		apt nodejs && command -v node >/dev/null ||
			{ say "node: apt-get install nodejs failed"; rc=1; } ;;
	chromium)
		apt chromium && command -v chromium >/dev/null ||
			{ say "chromium: apt-get install chromium failed"; rc=1; } ;;
	go)
		apt golang-go && command -v go >/dev/null ||
			{ say "go: apt-get install golang-go failed"; rc=1; } ;;
	puppeteer-core)
		# the major version pinned: its API is what lib/flamegraph-browser.js speaks.
		# npm trusts its own CA list: the system's store has the CAs this machine's
		# network needs (a proxy's own, in /usr/local/share/ca-certificates)
		npm_ca=
		[ -f /etc/ssl/certs/ca-certificates.crt ] && npm_ca=--cafile=/etc/ssl/certs/ca-certificates.crt
		{ command -v node >/dev/null || apt nodejs; } &&
			{ command -v npm >/dev/null || apt npm; } &&
			mkdir -p "$node_dir" &&
			npm install --no-audit --no-fund --prefix "$node_dir" ${npm_ca:+"$npm_ca"} puppeteer-core@24 \
				>"$node_dir/install.log" 2>&1 ||
			{ say "puppeteer-core: npm install into $node_dir failed (see $node_dir/install.log)"; rc=1; } ;;
	sid-libs)
		# shellcheck disable=SC2086 # a list of packages
		sid_apt $SID_LIBS ||
			{ say "sid-libs: apt-get install $SID_LIBS in $sid failed (see $dir/test-deps.log)"; rc=1; } ;;
	sid-libc-debug)
		# not in the tree (see above): a tree that had it loses it
		{ ! sid_has libc6-dbg || chroot "$sid" apt-get remove -y libc6-dbg \
			>>"$dir/test-deps.log" 2>&1; } &&
			{ sid_has python3 || sid_apt python3; } &&
			{ [ "$(cat "$sid_debug/version" 2>/dev/null)" = "$(sid_libc_version)" ] ||
			  sid_debug_unpack; } ||
			{ say "sid-libc-debug: sid's libc6-dbg into $sid_debug, python3 in $sid: failed (see $dir/test-deps.log)"; rc=1; } ;;
	esac
done
exit $rc
