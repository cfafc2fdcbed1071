#!/bin/sh
# perf inject of deferred-callchain recordings (Linux 7.2's, synthetic, converted -g files): stitched inline, read alike by ours, perf 6.1, upstream 7.2 and hotspot
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 600
. "$(dirname "$0")"/lib.sh
. "$(dirname "$0")"/lib/inject-readers.sh

need_perf
need_fixture real-defer/data
need_fixture perf72/data
inject_readers_init

# The real recordings: every reader against our perf script of the deferred file
rd=$FIXTURES/real-defer
gunzip -c "$rd/kallsyms.gz" >rd.kallsyms || fail "cannot unpack the real-defer kallsyms"
for f in calls sys calls_u twoevents calls_nodefer; do
	"$PERF" inject -v -i "$rd/data/$f.data" -o "$f.inj.data" 2>"$f.inj.log" ||
		fail "perf inject of $f.data failed: $(cat "$f.inj.log")"
	"$PERF" script -D -i "$f.inj.data" >"$f.dump" 2>/dev/null || fail "perf script -D of the injected $f failed"
	! grep -q PERF_RECORD_CALLCHAIN_DEFERRED "$f.dump" || fail "$f: the injected file keeps type-22 records"
	! grep -q fffffffffffffd80 "$f.dump" || fail "$f: the injected file keeps deferred markers"
	"$PERF" script --header-only -i "$f.inj.data" >"$f.header" || fail "perf script --header-only of $f failed"
	! grep -q 'defer_callchain\|defer_output' "$f.header" || fail "$f: the injected attrs keep their defer bits"
	inject_readers "$f" "$rd/data/$f.data" "$f.inj.data" --symfs="$rd/symfs" --kallsyms=rd.kallsyms
	verbose "$f: $(cat "$f.inj.log")"
done
# calls.data has samples in execve whose user stack is the new image's: those frames need
# the MMAPs that came after the sample (inject-maps.h)
grep -q 'ld-linux-x86-64.so.2)$' calls.out.txt || fail "calls: no ld.so frame named in the injected file"

# The synthetic fixtures (tests/fixture-defer.c): every stitching case, file, pipe, zstd and
# cross-endian. With --keep-deferred the injected file prints exactly as the inline
# recording of the same stacks (whose samples without a record keep their cookie too);
# without, as the deferred file minus the cookies, in time order.
mkdir fx || fail "cannot make $TMPDIR/fx"
"$PERF" test -w defer-fixtures fx >fx.log 2>&1 || fail "perf test -w defer-fixtures failed: $(tail -1 fx.log)"
n=0
for d in fx/defer-*.data; do
	b=${d#fx/defer-}
	b=${b%.data}
	case $b in
	*-swap-zstd-pipe) base=${b%-swap-zstd-pipe} ;;
	*-zstd-pipe) base=${b%-zstd-pipe} ;;
	*) base=${b%-*} ;;
	esac
	"$PERF" script -i "fx/inline-$base.data" >want.txt 2>/dev/null || fail "perf script of inline-$base failed"
	"$PERF" inject --keep-deferred -i "$d" -o kept.data 2>kept.err || fail "perf inject --keep-deferred -i $d: $(cat kept.err)"
	"$PERF" script -i kept.data >kept.txt 2>kept.err || fail "perf script of the injected $d: $(head -1 kept.err)"
	cmp -s want.txt kept.txt || fail "perf inject --keep-deferred of $d does not print as inline-$base:
$(diff want.txt kept.txt | head -12)"
	"$PERF" inject -i "$d" -o plain.data 2>plain.err || fail "perf inject -i $d: $(cat plain.err)"
	"$PERF" script -i "$d" 2>/dev/null | grep -v '(cookie)' >want.txt
	"$PERF" script -i plain.data >got.txt 2>got.err || fail "perf script of the injected $d: $(head -1 got.err)"
	! grep -q '(cookie)' got.txt || fail "perf inject of $d kept a cookie without --keep-deferred"
	inject_blocks want.txt >want.sorted
	inject_blocks got.txt >got.sorted
	cmp -s want.sorted got.sorted || fail "perf inject of $d: other samples than the deferred file's:
$(diff want.sorted got.sorted | tr '\001' '\n' | head -12)"
	# perf 6.1 prints no callchain of these synthetic stacks (no kernel map, no DSO on
	# disk) and warns of the defer bits --keep-deferred keeps: the default file's samples
	# as those of the inline recording of the same stacks
	if [ -n "$inject_have_sysperf" ]; then
		"$SYSTEM_PERF" script -i plain.data >sys.txt 2>sys.err ||
			fail "$SYSTEM_PERF script of the injected $d failed: $(tail -1 sys.err)"
		[ ! -s sys.err ] || fail "$SYSTEM_PERF script of the injected $d warned: $(head -1 sys.err)"
		"$SYSTEM_PERF" script -i "fx/inline-$base.data" 2>/dev/null | grep -v '^	' >sys-want.txt
		grep -v '^	' sys.txt >sys-got.txt
		cmp -s sys-want.txt sys-got.txt || fail "$SYSTEM_PERF script of the injected $d shows other samples than of inline-$base:
$(diff sys-want.txt sys-got.txt | head -12)"
	fi
	# upstream 7.2 stitches too: the kept deferred form reads as the inline recording
	case $b in *-file|*-swap-zstd-pipe)
		if [ -n "$inject_have_upstream" ]; then
			"$UPSTREAM_PERF" script --no-inline -i kept.data >up.txt 2>up.err ||
				fail "upstream perf script of the injected $d failed: $(tail -1 up.err)"
			[ ! -s up.err ] || fail "upstream perf script of the injected $d warned: $(head -1 up.err)"
			"$UPSTREAM_PERF" script --no-inline -i "fx/inline-$base.data" >up-want.txt 2>/dev/null
			cmp -s up-want.txt up.txt || fail "upstream perf script of the injected $d differs from that of inline-$base:
$(diff up-want.txt up.txt | head -12)"
			"$UPSTREAM_PERF" script --no-inline -i plain.data >up.txt 2>up.err ||
				fail "upstream perf script of the injected $d failed: $(tail -1 up.err)"
			"$PERF" script --no-inline -i plain.data >ours.txt 2>/dev/null
			cmp -s ours.txt up.txt || fail "upstream perf script of the injected $d differs from ours:
$(diff ours.txt up.txt | head -12)"
		fi
	esac
	n=$((n + 1))
done
# 3 scenarios x 2 (per task, per cpu) x 6 layouts (fixture-defer.c)
[ "$n" -ge 36 ] || fail "only $n synthetic fixtures were injected"

# Converted: upstream 7.2 -g recordings made deferred by the test converter (a record per
# kernel entry, and one per sample), injected back: what perf script prints of the original
INJECT_SORTED=
p72=$FIXTURES/perf72
gunzip -c "$p72/kallsyms.gz" >p72.kallsyms || fail "cannot unpack the perf72 kallsyms"
for f in calls.fp sys.fp thr.fpz; do
	"$PERF" script --symfs="$p72/symfs" --kallsyms=p72.kallsyms -i "$p72/data/$f.data" >orig.txt 2>/dev/null ||
		fail "perf script of $f failed"
	for mode in shared each; do
		arg=; [ $mode = each ] && arg=each
		"$PERF" test -w defer-convert "$p72/data/$f.data" "$f.$mode.data" $arg >conv.log 2>&1 ||
			fail "converting $f ($mode) failed: $(tail -1 conv.log)"
		"$PERF" inject -i "$f.$mode.data" -o "$f.$mode.inj.data" 2>inj.err ||
			fail "perf inject of the converted $f ($mode) failed: $(cat inj.err)"
		"$PERF" script --symfs="$p72/symfs" --kallsyms=p72.kallsyms -i "$f.$mode.inj.data" >got.txt 2>got.err ||
			fail "perf script of the injected $f ($mode) failed: $(head -1 got.err)"
		cmp -s orig.txt got.txt || fail "the injected $f ($mode) does not print as the original -g file:
$(diff orig.txt got.txt | head -12)"
	done
	inject_readers "conv-$f" "$f.shared.data" "$f.shared.inj.data" --symfs="$p72/symfs" --kallsyms=p72.kallsyms
done
verbose "$n synthetic fixtures, 5 real recordings, 3 converted ones"
pass
