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

# rec NAME RECORD-OPTIONS... -- WORKLOAD-ARGS...: perf record -o /tmp/NAME.data
rec() {
	name=$1
	shift
	echo "vmtest-guest: perf record -o $name.data $*"
	"$perf" record -o "/tmp/$name.data" "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
	echo "$name $?" >>"$out/status"
	[ -f "/tmp/$name.data" ] && cp "/tmp/$name.data" "$out/$name.data"
}

# pipe NAME RECORD-OPTIONS... -- WORKLOAD-ARGS...: perf record -o - >/tmp/NAME.data
pipe() {
	name=$1
	shift
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

# the kernel's symbols and modules of this boot, for reading the files on the host
cat /proc/kallsyms >"$out/kallsyms"
cat /proc/modules >"$out/modules"
uname -r >"$out/uname"
# the build-id cache, with this boot's [vdso]: at the root's /.debug, where perf script
# --symfs=ROOT (ours, on the host) and HOME=/ perf (upstream's, chrooted) look for it
rm -rf /.debug && cp -a "$HOME/.debug" /.debug
echo done >"$out/done"
sync
