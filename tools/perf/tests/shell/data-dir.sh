#!/bin/sh
# perf.data directories: --kcore's read as upstream 7.2 reads them (kallsyms and kcore from kcore_dir), --threads' refused, record's backup rule over them, --kcore's errors
# SPDX-License-Identifier: GPL-2.0
#
# The directories are made here from a golden recording (perf72/data/sys.fp.data) and the
# kallsyms of its boot: the machines this runs on have no /proc/kcore (make vmtest records
# a real --kcore directory, scripts/vmtest-guest.sh). The kcore written here has the shape
# of perf record --kcore's copy, cut so that its maps say something: the kernel text in two
# segments with a hole between them where exc_page_fault is (the fixture's kallsyms:
# exc_page_fault at 0xffffffff82260110; read_zero, vfs_read and pvm_irq_enable before the
# hole, __cond_resched after it). pvm_irq_enable's sample is the first kernel address the
# readers resolve: it must be in the kernel map's segment (the one with _stext), as in any
# real copy, because upstream resolves that first address through the kernel map's new range
# (an address outside it gets a bogus offset there, which we do not imitate).

. "$(dirname "$0")"/lib.sh

need_perf
need_cmd gzip truncate
need_fixture perf72/data/sys.fp.data
G=$FIXTURES/perf72
DATA=$G/data/sys.fp.data
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"
SYMFS=--symfs=$G/symfs
cases 4
if upstream_perf; then
	have_upstream=1
else
	have_upstream=
	not_tested "upstream 7.2 on the directories: make test-deps as root"
fi

# strip FILE: a report without upstream's random tip
strip() {
	grep -v -E '^# \((Tip:|Cannot load tips)' "$1"
}

# run NAME CMD ARGS...: our perf's output of CMD into NAME.out (a report without its tip)
run() {
	rn=$1
	shift
	"$PERF" "$@" >"$rn.raw" 2>"$rn.err" || fail "$rn: perf $* exited $?: $(head -2 "$rn.err")"
	strip "$rn.raw" >"$rn.out"
}

# same_as_upstream NAME ARGS...: upstream's output of ARGS is NAME.out
same_as_upstream() {
	un=$1
	shift
	[ -n "$have_upstream" ] || return 0
	"$UPSTREAM_PERF" "$@" >"$un.uraw" 2>"$un.uerr"
	rc=$?
	[ $rc = 2 ] && grep -q '^upstream-perf:' "$un.uerr" && skip "upstream perf could not be set up"
	[ $rc = 0 ] || fail "$un: upstream perf $* exited $rc: $(head -2 "$un.uerr")"
	strip "$un.uraw" >"$un.want"
	if ! cmp -s "$un.want" "$un.out"; then
		verbose "$(diff "$un.want" "$un.out" | head -20)"
		fail "$un: perf $* differs from upstream 7.2's"
	fi
}

# the commands each directory is read with
commands() {
	cat <<'EOF'
script script --no-inline
report report --stdio --no-inline --no-children
children report --stdio --no-inline --children
EOF
}

# 1. a directory with the recording and kcore_dir/kallsyms (a renamed symbol in it, so that
# where the names come from shows): as its data read with --kallsyms=that kallsyms, as
# upstream; an explicit --kallsyms wins over the directory's
mkdir -p k/kcore_dir && cp "$DATA" k/data || fail "cannot make the directory k"
sed 's/ vfs_read$/ vfs_read_of_kcore_dir/' kallsyms >k/kcore_dir/kallsyms
commands | while read -r n cmd opts; do
	# shellcheck disable=SC2086
	run k-$n $cmd $SYMFS $opts -i "$TMPDIR/k"
	# shellcheck disable=SC2086
	run k-file-$n $cmd $SYMFS $opts --kallsyms=k/kcore_dir/kallsyms -i k/data
	cmp -s k-file-$n.out k-$n.out || fail "k: perf $cmd $opts of the directory is not that of its data with --kallsyms"
	grep -q 'vfs_read_of_kcore_dir' k-$n.out || fail "k: perf $cmd $opts did not name vfs_read from kcore_dir/kallsyms"
	# shellcheck disable=SC2086
	same_as_upstream k-$n $cmd $SYMFS $opts -i "$TMPDIR/k"
	# shellcheck disable=SC2086
	run k-own-$n $cmd $SYMFS $opts --kallsyms=kallsyms -i k
	! grep -q 'vfs_read_of_kcore_dir' k-own-$n.out || fail "k: --kallsyms did not win over the directory's"
done || exit

# le N HEX: HEX (at most 16 digits) as N little-endian bytes, in printf's octal escapes
le() {
	h=0000000000000000$2
	h=${h#"${h%????????????????}"}
	out=
	i=0
	while [ $i -lt "$1" ]; do
		b=${h%??}
		out="$out\\$(printf %o "0x${h#"$b"}")"
		h=$b
		i=$((i + 1))
	done
	printf '%s' "$out"
}

# kcore_elf FILE VADDR:LEN...: an ELF core of x86_64 with those PT_LOADs (hex), their bytes
# (zeroes) one after the other from 0x1000, as perf record --kcore lays them out
kcore_elf() {
	f=$1
	shift
	fmt="$(le 4 464c457f)$(le 4 00010102)$(le 8 0)$(le 2 4)$(le 2 3e)$(le 4 1)$(le 8 0)"
	fmt="$fmt$(le 8 40)$(le 8 0)$(le 4 0)$(le 2 40)$(le 2 38)$(le 2 $#)$(le 2 0)$(le 2 0)$(le 2 0)"
	off=4096
	for seg; do
		len=$((0x${seg#*:}))
		fmt="$fmt$(le 4 1)$(le 4 7)$(le 8 "$(printf %x $off)")$(le 8 "${seg%:*}")$(le 8 0)"
		fmt="$fmt$(le 8 "${seg#*:}")$(le 8 "${seg#*:}")$(le 8 1000)"
		off=$((off + len))
	done
	# shellcheck disable=SC2059
	printf "$fmt" >"$f" && truncate -s $off "$f"
}

# 2. with a kcore (and an empty modules list: the recording has no module maps) the kernel
# maps are its segments: exc_page_fault's frames, in the hole, have no map; as upstream 7.2
etext=$(awk '$3 == "_etext" { print $1 }' kallsyms)
case $etext in
ffffffff8*) ;;
*) fail "the fixture's kallsyms has no _etext in the kernel text: '$etext'" ;;
esac
# the second segment from the hole's end to _etext's page end (addresses below 2^32 here)
seg2_len=$(printf %x $((((0x${etext#ffffffff} + 0xfff) & ~0xfff) - 0x82266000)))
mkdir -p kc/kcore_dir && cp "$DATA" kc/data && cp kallsyms kc/kcore_dir/kallsyms &&
	: >kc/kcore_dir/modules || fail "cannot make the directory kc"
# the segment after the hole first: the kernel map is the one that holds _stext
kcore_elf kc/kcore_dir/kcore ffffffff82266000:"$seg2_len" ffffffff81000000:1260000 ||
	fail "cannot write kc/kcore_dir/kcore"
commands | while read -r n cmd opts; do
	# shellcheck disable=SC2086
	run kc-$n $cmd $SYMFS $opts -i "$TMPDIR/kc"
	# shellcheck disable=SC2086
	run kc-file-$n $cmd $SYMFS $opts --kallsyms=kc/kcore_dir/kallsyms -i kc/data
	cmp -s kc-file-$n.out kc-$n.out || fail "kc: perf $cmd $opts of the directory is not that of its data with --kallsyms (and the kcore beside it)"
	! grep -q '[^_]exc_page_fault' kc-$n.out ||
		fail "kc: perf $cmd $opts names exc_page_fault, which no kcore segment holds"
	grep -q 'read_zero' kc-$n.out && grep -q '__cond_resched' kc-$n.out ||
		fail "kc: perf $cmd $opts lost the names of the kcore's two segments"
	# shellcheck disable=SC2086
	same_as_upstream kc-$n $cmd $SYMFS $opts -i "$TMPDIR/kc"
done || exit
grep -Eq '^	 *ffffffff8226[0-5][0-9a-f]{3} \[unknown\] \(\[unknown\]\)$' kc-script.out ||
	fail "kc: exc_page_fault's frames are not [unknown] ([unknown])"
"$PERF" script -D $SYMFS -i kc 2>/dev/null | grep -q "^ \.\.\.\.\.\. dso: kc/kcore_dir/kcore$" ||
	fail "kc: perf script -D does not name the kernel by its kcore"

# 3. what is not read: a directory of perf record --threads (data.N files, the header's
# DIR_FORMAT), one without data
mkdir -p t && cp "$DATA" t/data && : >t/data.0 && : >t/data.1 || fail "cannot make t"
for cmd in script report; do
	"$PERF" $cmd -i t >t.out 2>t.err
	rc=$?
	[ $rc = 255 ] && [ ! -s t.out ] && [ "$(wc -l <t.err)" = 1 ] &&
		grep -qx 'failed to open t: a perf.data directory of perf record --threads (its samples are in data.0 ... data.1, 2 files), which is not supported' t.err ||
		fail "perf $cmd of a --threads directory: exit $rc, $(cat t.err)"
done
mkdir -p nodata/kcore_dir && cp kallsyms nodata/kcore_dir/kallsyms || fail "cannot make nodata"
"$PERF" script -i nodata >nodata.out 2>nodata.err
rc=$?
[ $rc = 255 ] && grep -qx 'failed to open nodata/data: No such file or directory' nodata.err ||
	fail "a directory without data: exit $rc, $(cat nodata.err)"
if [ -x "$SYSTEM_PERF" ] &&
	"$SYSTEM_PERF" record --threads -q -e cpu-clock -o thr.data -- true >thr.log 2>&1 &&
	[ -f thr.data/data.0 ]; then
	"$PERF" script -i thr.data >thr.out 2>thr.err
	grep -q '^failed to open thr.data: a perf.data directory of perf record --threads (its samples are in data.0' thr.err ||
		fail "perf 6.1's --threads directory: $(cat thr.err)"
	# its header alone says so (DIR_FORMAT)
	rm -f thr.data/data.*
	"$PERF" script -i thr.data >thr.out 2>thr.err
	grep -q '^failed to open thr.data: a perf.data directory of perf record --threads (no data.N file is there)' thr.err ||
		fail "perf 6.1's --threads header without its data.N files: $(cat thr.err)"
else
	not_tested "a --threads directory of perf 6.1 (DIR_FORMAT): $SYSTEM_PERF record --threads cannot record here"
fi

# 4. perf record: the backup rule over directories, and --kcore's errors
if "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	# a perf.data directory becomes OUTPUT.old, as upstream's check_backup()
	cp -r k out.data
	"$PERF" record -q -e cpu-clock -o out.data -- true >out.log 2>&1 ||
		fail "record over a directory: $(cat out.log)"
	[ -f out.data ] && [ -f out.data.old/data ] && [ -f out.data.old/kcore_dir/kallsyms ] ||
		fail "record over a directory: it is not out.data.old"
	# the old directory goes when a new OUTPUT.old comes
	"$PERF" record -q -e cpu-clock -o out.data -- true >out.log 2>&1 ||
		fail "record over a file with a directory .old: $(cat out.log)"
	[ -f out.data ] && [ -f out.data.old ] || fail "the old directory out.data.old is still there"
	# but not one with something perf record does not write
	mkdir -p mine.data mine.data.old && cp "$DATA" mine.data/data && : >mine.data.old/notes
	"$PERF" record -q -e cpu-clock -o mine.data -- true >mine.log 2>&1
	rc=$?
	[ $rc = 255 ] && [ "$(wc -l <mine.log)" = 1 ] &&
		grep -qx 'perf record: mine.data.old is no perf.data directory: it holds mine.data.old/notes, which perf record does not write' mine.log ||
		fail "record over a foreign .old directory: exit $rc, $(cat mine.log)"
	[ -f mine.data.old/notes ] && cmp -s mine.data/data "$DATA" ||
		fail "record over a foreign .old directory changed something"
else
	verbose "$(cat probe.log)"
	not_tested "perf record over directories: perf record cannot open events here"
fi
"$PERF" record -q --kcore -o - -- true >pipe.out 2>pipe.err
[ $? = 129 ] && grep -q -- '--kcore: .*pipe' pipe.err || fail "--kcore -o -: $(cat pipe.err)"
if [ -r /proc/kcore ] && head -c1 /proc/kcore >/dev/null 2>&1; then
	not_tested "--kcore when kcore is not readable: this machine's /proc/kcore is"
else
	# upstream's words, and nothing written or moved: no directory, the old output as it was
	cp "$DATA" old.data && mkdir old.dir && cp "$DATA" old.dir/data
	for o in new.data old.data old.dir; do
		"$PERF" record -q --kcore -o $o -- true >$o.out 2>$o.err
		rc=$?
		[ $rc = 255 ] && [ "$(cat $o.err)" = "ERROR: kcore is not readable." ] ||
			fail "--kcore -o $o without a readable kcore: exit $rc, $(cat $o.err)"
		[ ! -e $o.old ] || fail "--kcore -o $o without a readable kcore moved $o to $o.old"
	done
	[ ! -e new.data ] || fail "--kcore without a readable kcore left new.data behind"
	cmp -s old.data "$DATA" && cmp -s old.dir/data "$DATA" && [ "$(ls old.dir)" = data ] ||
		fail "--kcore without a readable kcore changed the old outputs"
fi
pass
