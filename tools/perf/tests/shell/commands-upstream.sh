#!/bin/sh
# perf kallsyms, check feature, version --build-options, evlist, list, buildid-list and buildid-cache (--buildid-dir): upstream 7.2's output and exit statuses, the cache's layout, one-line errors
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 300
. "$(dirname "$0")"/lib.sh

need_perf
cases 3	# upstream 7.2's outputs, a recording of ours with groups and tracepoints, a C compiler
upstream_perf && have_upstream=1 || { have_upstream=0; not_tested "the comparisons with upstream 7.2: make test-deps as root"; }

# same WHAT CMD...: our perf and upstream's print the same and exit alike (upstream's args
# after the command are ours, its -i paths are rewritten by the wrapper)
same() {
	what=$1
	shift
	"$PERF" "$@" >got 2>got.err
	got_rc=$?
	[ $have_upstream = 1 ] || return 0
	"$UPSTREAM_PERF" "$@" >want 2>want.err
	want_rc=$?
	[ $want_rc = $got_rc ] || fail "$what: exit $got_rc, upstream $want_rc: $(head -2 got.err)"
	cmp -s want got || fail "$what: output differs from upstream's:
$(diff want got | head -10)"
}

# kallsyms: functions of this kernel, one not there, and usage errors
if [ -r /proc/kallsyms ] && grep -q ' T schedule$' /proc/kallsyms; then
	same "kallsyms" kallsyms schedule ErlingHaaland do_sys_open __x64_sys_read _stext
	grep -q '^schedule: \[kernel\] \[kernel.kallsyms\] 0x[0-9a-f]*-0x[0-9a-f]* (0x' got ||
		fail "kallsyms schedule: $(head -1 got)"
	grep -qx 'ErlingHaaland: not found' got || fail "kallsyms of a name not there: $(cat got)"
else
	not_tested "perf kallsyms: /proc/kallsyms is unreadable or has no schedule"
fi
same "kallsyms without a name" kallsyms
[ $got_rc = 129 ] || fail "kallsyms without a name: exit $got_rc"
same "kallsyms --foo" kallsyms --foo

# check feature and version --build-options: what we are built with
same "check feature dwarf" check feature dwarf
[ $got_rc = 0 ] && grep -qx ' *dwarf: \[ on  \]  # HAVE_LIBDW_SUPPORT' got ||
	fail "check feature dwarf: exit $got_rc, $(cat got)"
"$PERF" check feature -q libpython && fail "check feature libpython: on without embedded Python"
"$PERF" check feature -q libdw-dwarf-unwind libtraceevent 2>/dev/null
[ $? = 255 ] || fail "check feature with two arguments: not upstream's 'Too many arguments' (255)"
"$PERF" check feature -q libdw-dwarf-unwind,libtraceevent,zstd,libelf ||
	fail "check feature of what we are built with: off"
same "check feature nosuch" check feature nosuch
grep -q "^Unknown feature 'nosuch'" got.err || fail "check feature nosuch: $(cat got.err)"
same "check foo" check foo
"$PERF" version --build-options >got || fail "version --build-options failed"
[ "$(head -1 got)" = "$("$PERF" version)" ] || fail "version --build-options: first line $(head -1 got)"
if [ $have_upstream = 1 ]; then
	# the same features in the same order, our states ours
	"$UPSTREAM_PERF" version --build-options | sed 1d | sed 's/: \[.*//' >want.names
	sed 1d got | sed 's/: \[.*//' >got.names
	cmp -s want.names got.names || fail "version --build-options: other features than upstream's:
$(diff want.names got.names | head)"
fi

# evlist of a recording with a group and a tracepoint, every option (a clock event's period
# of 1 ms: at 10 us, the least the kernel allows, the timer's interrupts can starve the task
# in a VM, `true` then running for a minute and more)
if "$PERF" record -q -e '{cpu-clock,task-clock}' -e sched:sched_switch -c 1000000 -o ev.data -- \
	true >rec.log 2>&1; then
	for opt in "" -F -v -g --trace-fields "-v --trace-fields" "-F -v" "-g -v"; do
		# shellcheck disable=SC2086
		same "evlist $opt" evlist -i ev.data $opt
	done
	"$PERF" evlist -g -i ev.data >got || fail "evlist -g failed"
	grep -qx '{cpu-clock,task-clock}' got || fail "evlist -g: no group: $(cat got)"
	# a pipe: read to its end, the same lines
	"$PERF" record -q -e '{cpu-clock,task-clock}' -e sched:sched_switch -c 1000000 -o - -- true 2>/dev/null |
		"$PERF" evlist -g >pipe.got || fail "evlist of a pipe failed"
	cmp -s got pipe.got || fail "evlist -g of a pipe: $(cat pipe.got)"
	"$PERF" buildid-list -i ev.data >got || fail "buildid-list failed"
	grep -q '^[0-9a-f]\{40\} \[kernel.kallsyms\]$' got || fail "buildid-list: no kernel: $(cat got)"
	if [ $have_upstream = 1 ]; then
		"$UPSTREAM_PERF" buildid-list -i ev.data | sort >want
		sort got >got.sorted
		cmp -s want got.sorted || fail "buildid-list: other ids than upstream's:
$(diff want got.sorted | head)"
	fi
else
	not_tested "evlist and buildid-list of a recording: perf record failed here ($(tail -1 rec.log))"
fi
same "evlist of a missing file" evlist -i no-such.data
grep -q 'no-such.data' got.err || fail "evlist of a missing file: $(cat got.err)"
same "evlist -g -v" evlist -g -v -i no-such.data
[ $have_upstream = 1 ] && same "buildid-list -k" buildid-list -k

# list: JSON that parses, the software events, filters, -o
"$PERF" list -j -o list.json || fail "list -j -o failed"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); assert any(x.get("EventName") == "cpu-clock" for x in e)' list.json ||
		fail "list -j: not JSON with cpu-clock"
else
	grep -q '"EventName": "cpu-clock"' list.json || fail "list -j: no cpu-clock"
fi
"$PERF" list sw >got || fail "list sw failed"
grep -q '^  task-clock  *\[Software event\]$' got && ! grep -q 'Tracepoint' got ||
	fail "list sw: $(head -3 got)"
"$PERF" list 'sched:sched_switch' | grep -q '^  sched:sched_switch  *\[Tracepoint event\]$' ||
	[ ! -d /sys/kernel/tracing/events/sched ] || fail "list sched:sched_switch: not listed"
"$PERF" list -o /no/such/dir/x 2>got.err && fail "list -o into a missing directory: exit 0"
grep -q '/no/such/dir/x' got.err || fail "list -o: $(cat got.err)"

# buildid-cache over --buildid-dir: upstream's layout, -a -l -r -p -P, and the errors
if command -v cc >/dev/null 2>&1; then
	printf 'int main(void) { return 0; }\n' >ex.c
	cc -Wl,--build-id=sha1 -o "$PWD/ex1" ex.c && cc -Wl,--build-id=md5 -o "$PWD/ex2" ex.c ||
		fail "cc failed"
	dir=$PWD/cache
	P="$PERF --buildid-dir $dir"
	$P buildid-cache -v -a "$PWD/ex1,$PWD/ex2" >add.out || fail "buildid-cache -a failed"
	[ "$(grep -c ': Ok$' add.out)" = 2 ] || fail "buildid-cache -v -a: $(cat add.out)"
	$P buildid-cache -l >list.out || fail "buildid-cache -l failed"
	[ "$(grep -c . list.out)" = 2 ] || fail "buildid-cache -l: $(cat list.out)"
	while read -r id path; do
		link=$dir/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)
		[ -h "$link" ] || fail "no link $link"
		[ "$(readlink "$link")" = "../..$path/$id" ] || fail "$link -> $(readlink "$link")"
		cmp -s "$dir$path/$id/elf" "$path" || fail "the cached $path differs"
	done <list.out
	grep -q " $PWD/ex1\$" list.out && grep -q " $PWD/ex2\$" list.out ||
		fail "buildid-cache -l: $(cat list.out)"
	# --buildid-dir=DIR is the same; the cache is what perf report reads (PERF_BUILDID_DIR)
	[ "$("$PERF" --buildid-dir="$dir" buildid-cache -l)" = "$(cat list.out)" ] ||
		fail "--buildid-dir=DIR: another cache"
	$P buildid-cache -v -r "$PWD/ex1" | grep -q ': Ok$' || fail "buildid-cache -r failed"
	$P buildid-cache -l | grep -q " $PWD/ex1\$" && fail "buildid-cache -r: ex1 is still listed"
	$P buildid-cache -r "$PWD/ex1" 2>got.err && fail "buildid-cache -r of a file not cached: exit 0"
	grep -q "ex1 wasn't in the cache" got.err || fail "buildid-cache -r: $(cat got.err)"
	$P buildid-cache -a "$PWD/no-such" 2>got.err && fail "buildid-cache -a of a missing file: exit 0"
	[ "$(grep -c . got.err)" = 1 ] && grep -q 'no-such' got.err ||
		fail "buildid-cache -a of a missing file: $(cat got.err)"
	$P buildid-cache -a "$PWD/ex.c" 2>got.err && fail "buildid-cache -a of a non-ELF: exit 0"
	$P buildid-cache -p "$PWD/ex2" || fail "buildid-cache -p failed"
	[ -z "$($P buildid-cache -l)" ] || fail "buildid-cache -p: $($P buildid-cache -l)"
	$P buildid-cache -a "$PWD/ex1" && $P buildid-cache -P -v | grep -qx 'Purged all: Ok' ||
		fail "buildid-cache -P failed"
	[ -z "$($P buildid-cache -l)" ] || fail "buildid-cache -P: $($P buildid-cache -l)"
	$P buildid-cache --kcore /proc/kcore 2>got.err; [ $? = 129 ] ||
		fail "buildid-cache --kcore: not refused"
else
	not_tested "perf buildid-cache: no C compiler for its test binaries"
fi
pass
