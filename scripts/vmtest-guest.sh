#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vmtest-guest.sh - the recordings of `make vmtest`, run inside the guest (Linux 7.x under
# qemu), chrooted in the Debian sid root that scripts/vmtest.sh shares over virtio-9p. It is
# copied to /vmtest/guest.sh there; our perf binary is /vmtest/perf, the workloads are its
# built-in ones (perf test -w). Each recording is made in the guest's /tmp (tmpfs) and then
# copied to /vmtest/out, which the host reads after poweroff: NAME.data, NAME.stderr, and a
# line "NAME EXIT-STATUS" in /vmtest/out/status. It never stops at a failed recording: a
# failure is the host's check to report.
#
# No PMU under TCG: cpu-clock and task-clock (hrtimer events) only.
set -u
out=/vmtest/out
perf=/vmtest/perf
# 2 kHz as the real-defer fixtures: about 2000 samples in a workload's second of CPU time,
# enough that one wrong caller in them is visible against the 99.95% the host checks
freq=2000

echo -1 >/proc/sys/kernel/perf_event_paranoid
echo 0 >/proc/sys/kernel/kptr_restrict
# the build-id cache perf record fills: in the guest's memory, not over 9p
export HOME=/tmp/home
mkdir -p "$HOME" "$out"
cd /tmp || exit 1

# PERF_VMTEST_ONLY (scripts/vmtest.sh): the names of the recordings to make, shell patterns
only=$(cat /vmtest/only 2>/dev/null)

# wanted NAME: NAME is one of the recordings to make
wanted() {
	[ -z "$only" ] && return 0
	set -f
	for pat in $only; do
		# shellcheck disable=SC2254
		case $1 in
		$pat) set +f; return 0 ;;
		esac
	done
	set +f
	return 1
}

# rec NAME RECORD-OPTIONS... -- WORKLOAD-ARGS...: perf record -o /tmp/NAME.data (a file, or
# the directory of --kcore)
rec() {
	name=$1
	shift
	wanted "$name" || return 0
	echo "vmtest-guest: perf record -o $name.data $*"
	"$perf" record -o "/tmp/$name.data" "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
	echo "$name $?" >>"$out/status"
	[ -e "/tmp/$name.data" ] && cp -a "/tmp/$name.data" "$out/$name.data"
}

# pipe NAME RECORD-OPTIONS... -- WORKLOAD-ARGS...: perf record -o - >/tmp/NAME.data
pipe() {
	name=$1
	shift
	wanted "$name" || return 0
	echo "vmtest-guest: perf record -o - $* >$name.data"
	"$perf" record -o - "$@" >"/tmp/$name.data" 2>"$out/$name.stderr"
	echo "$name $?" >>"$out/status"
	cp "/tmp/$name.data" "$out/$name.data"
}

w() {
	echo -- "$perf" test -w "$@"
}

rec fpdefer-syscalls	--call-graph fp,defer -e cpu-clock -F $freq $(w syscalls 1)
rec fpdefer-calls	--call-graph fp,defer -e cpu-clock -F $freq $(w calls 1)
rec gdefer-syscalls	-g --defer -e cpu-clock -F $freq $(w syscalls 1)
rec gdefer-calls	-g --defer -e cpu-clock -F $freq $(w calls 1)
rec user-calls		--call-graph fp,defer -e cpu-clock:u -F $freq $(w calls 1)
rec user-syscalls	--call-graph fp,defer -e cpu-clock:u -F $freq $(w syscalls 1)
rec twoevents-syscalls	--call-graph fp,defer -e cpu-clock,task-clock -F $freq $(w syscalls 1)
rec z-syscalls		--call-graph fp,defer -z -e cpu-clock -F $freq $(w syscalls 1)
rec forkexec		--call-graph fp,defer -e cpu-clock -F $freq $(w forkexec 1)
# the workloads through libc's (and libstdc++'s, python's) frames without frame pointers
# (3 s each: the bar is one wrong caller in 2000 samples, and some spend much of their
# time in start-up or in the kernel)
for wl in stdio pread condwait nanosleep poll malloc cxx python3; do
	rec "fpdefer-$wl"	--call-graph fp,defer -e cpu-clock -F $freq $(w $wl 3)
done
rec system-syscalls	--call-graph fp,defer -a -e cpu-clock -F $freq $(w syscalls 1)
pipe pipe-syscalls	--call-graph fp,defer -e cpu-clock -F $freq $(w syscalls 1)
# what upstream perf records (no user regs or stack): for the comparison with upstream
rec norepair-syscalls	--call-graph fp,defer --no-repair-data -e cpu-clock -F $freq $(w syscalls 1)
rec norepair-calls	--call-graph fp,defer --no-repair-data -e cpu-clock -F $freq $(w calls 1)
rec gnorepair-syscalls	-g --defer --no-repair-data -e cpu-clock -F $freq $(w syscalls 1)
rec norepair-user-calls	--call-graph fp,defer --no-repair-data -e cpu-clock:u -F $freq $(w calls 1)
rec norepair-z-syscalls	--call-graph fp,defer --no-repair-data -z -e cpu-clock -F $freq $(w syscalls 1)
rec norepair-system-syscalls --call-graph fp,defer --no-repair-data -a -e cpu-clock -F $freq $(w syscalls 1)
pipe norepair-pipe-syscalls --call-graph fp,defer --no-repair-data -e cpu-clock -F $freq $(w syscalls 1)

# perf record --kcore: a perf.data directory (data, kcore_dir with kallsyms, modules and the
# text of /proc/kcore), system-wide while files are read over 9p, so that the modules' code
# runs (netfs, 9p, 9pnet, 9pnet_virtio): their frames are the kernel's once the kcore gives
# the maps. Plain -g: upstream reads the file as it is (no stitching), for the comparison.
rec kcore-sys --kcore -g -a -e cpu-clock -F $freq -- sh -c \
	"cat /vmtest/perf /usr/bin/perf* >/dev/null; $perf test -w syscalls 1"
if wanted kcore-sys && [ -d /tmp/kcore-sys.data ]; then
	# the copy's bytes against /proc/kcore's now (the text that ran: jump labels and the
	# like may have been patched since, a few bytes)
	python3 - /tmp/kcore-sys.data/kcore_dir/kcore /proc/kcore >"$out/kcore-sys.bytes" 2>&1 <<'EOF'
import struct, sys

def loads(f):
    f.seek(0)
    eh = f.read(64)
    phoff, = struct.unpack_from('<Q', eh, 32)
    phentsize, phnum = struct.unpack_from('<HH', eh, 54)
    segs = []
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        p_type, p_flags, off, vaddr, paddr, filesz, memsz, align = struct.unpack('<IIQQQQQQ', f.read(56))
        if p_type == 1:
            segs.append((vaddr, off, min(filesz, memsz)))
    return segs

copy, kcore = open(sys.argv[1], 'rb'), open(sys.argv[2], 'rb')
ksegs = loads(kcore)
same = total = 0
for vaddr, off, size in loads(copy):
    # pages spread over the segment, at most 512 of each
    step = max(16 * 4096, size // 512 // 4096 * 4096)
    for a in range(vaddr, vaddr + size, step):
        n = min(4096, vaddr + size - a)
        src = [s for s in ksegs if s[0] <= a < s[0] + s[2]]
        if not src:
            print('no segment of /proc/kcore holds %#x' % a)
            continue
        copy.seek(off + a - vaddr)
        kcore.seek(src[0][1] + a - src[0][0])
        x, y = copy.read(n), kcore.read(n)
        total += n
        same += sum(1 for i in range(n) if x[i] == y[i])
print('kcore-bytes %d %d' % (same, total))
EOF
fi
# upstream 7.2's perf record --kcore of the same kernel, for the layout of its copy
if wanted kcore-sys; then
	/usr/bin/perf record -q --kcore -e cpu-clock -o /tmp/kcore-up.data -- true \
		>"$out/kcore-up.stderr" 2>&1
	echo "kcore-up $?" >>"$out/status"
	for d in kcore-sys kcore-up; do
		(cd /tmp/$d.data && find . -printf '%p %y %m\n' | sort) >"$out/$d.layout"
		readelf -hlW /tmp/$d.data/kcore_dir/kcore >"$out/$d.readelf" 2>&1
	done
fi
# the backup rule over --kcore directories: three recordings to one output, the third over
# an OUTPUT.old that is a directory too
if wanted kcore-backup; then
	for i in 1 2 3; do
		"$perf" record -q --kcore -e cpu-clock -o /tmp/kcore-backup.data -- true \
			>>"$out/kcore-backup.stderr" 2>&1
		echo "kcore-backup-$i $?" >>"$out/status"
	done
	(cd /tmp && find kcore-backup.data kcore-backup.data.old | sort) >"$out/kcore-backup.tree"
fi

# --switch-output with --kcore: each file a directory with its own copies, renamed as a
# whole; --switch-max-files removes the old directories
if wanted kcore-switch; then
	"$perf" record -q --kcore --switch-output=1s --switch-max-files=2 -e cpu-clock \
		-o /tmp/kcore-switch.data -- sleep 4 >"$out/kcore-switch.stderr" 2>&1
	echo "kcore-switch $?" >>"$out/status"
	mkdir -p "$out/kcore-switch"
	for d in /tmp/kcore-switch.data*; do
		[ -e "$d" ] && cp -a "$d" "$out/kcore-switch/"
	done
fi

# the kernel's symbols and modules of this boot, for reading the files on the host
cat /proc/kallsyms >"$out/kallsyms"
cat /proc/modules >"$out/modules"
uname -r >"$out/uname"
# the build-id cache, with this boot's [vdso]: at the root's /.debug, where perf script
# --symfs=ROOT (ours, on the host) and HOME=/ perf (upstream's, chrooted) look for it
rm -rf /.debug && cp -a "$HOME/.debug" /.debug
echo done >"$out/done"
sync
