#!/bin/sh
# perf report --stdio equals upstream perf 7.2's on the golden and real deferred recordings
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/upstream
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"

# The tip line is picked at random (upstream too); everything else must match byte for byte.
# Upstream's stderr "cannot open maps" got into the real-defer files: not part of the report.
strip() {
	grep -v -E '^# \((Tip:|Cannot load tips)|^cannot open maps' "$1"
}

# entry lines and headers only: the dwarf recording's callchains need user-space DWARF
# unwinding, which we do not have, so its chains are left out of the comparison
entries() {
	strip "$1" | grep -E '^#|^ +[0-9]+\.[0-9]+%'
}

failed=""
check() {	# NAME MODE WANT GOT
	case $1 in
	*.dwarf) entries "$3" >"$1.$2.want"; entries "$4" >"$1.$2.got" ;;
	*) strip "$3" >"$1.$2.want"; strip "$4" >"$1.$2.got" ;;
	esac
	if ! cmp -s "$1.$2.want" "$1.$2.got"; then
		verbose "--- $1 $2: upstream vs ours ---"
		verbose "$(diff "$1.$2.want" "$1.$2.got" | head -30)"
		failed="$failed $1/$2"
	fi
}

for data in "$G"/data/*.data; do
	name=$(basename "$data" .data)
	in="-i $data"
	# the pipe recording is read from standard input, as it was made for
	case $name in *.pipe) in="-i -" ;; esac
	for mode in nochildren children folded; do
		want=$G/upstream/$name.report-$mode.txt
		[ -f "$want" ] || continue
		case $mode in
		nochildren) opts=--no-children ;;
		children) opts=--children ;;
		folded) opts="--no-children -g folded" ;;
		esac
		# children mode of the dwarf recording is made of unwound frames: not comparable
		[ "$name.$mode" = calls_cet.dwarf.children ] && continue
		# shellcheck disable=SC2086
		if ! "$PERF" report --stdio --no-inline $opts --symfs="$G/symfs" --kallsyms=kallsyms \
			$in <"$data" >"$name.$mode.out" 2>"$name.$mode.err"; then
			verbose "$(cat "$name.$mode.err")"
			failed="$failed $name/$mode(exit)"
			continue
		fi
		check "$name" "$mode" "$want" "$name.$mode.out"
	done
done

# Real deferred recordings: upstream cannot stitch samples taken after their record and
# names a stitched sample by the comm at record time, we stitch them and use the comm at
# sample time; these three have neither case, so they must match exactly (the other two
# are checked against upstream on their inline twins by a C test, report_deferred_*).
need_fixture real-defer/upstream/sys.dump.txt
R=$FIXTURES/real-defer
gzip -dc "$R/kallsyms.gz" >rd-kallsyms || fail "cannot unpack $R/kallsyms.gz"
for name in calls_nodefer calls_u sys; do
	if ! "$PERF" report --stdio --no-children --symfs="$R/symfs" --kallsyms=rd-kallsyms \
		-i "$R/data/$name.data" >"rd.$name.out" 2>"rd.$name.err"; then
		verbose "$(cat "rd.$name.err")"
		failed="$failed rd.$name(exit)"
		continue
	fi
	check "rd.$name" report "$R/upstream/$name.report.txt" "rd.$name.out"
done
# report -D of a deferred recording: upstream's dump (made as /out/sys.data) with its stderr
# line "cannot open maps" taken out where it cut into the output, and its failure to map the
# vDSO in the chroot it ran in ("problem processing ... skipping event"), which we do not have
cp "$R/data/sys.data" sys.data
if "$PERF" report -D --symfs="$R/symfs" --kallsyms=rd-kallsyms -i sys.data \
	>dump.out 2>dump.err; then
	awk '{
		if (pending != "") { $0 = pending $0; pending = "" }
		if ($0 == "cannot open maps" || $0 ~ /^problem processing PERF_RECORD_MMAP2/)
			next
		if (sub(/cannot open maps$/, "")) { pending = $0; next }
		print
	}' "$R/upstream/sys.dump.txt" >dump.want
	sed 's|@sys.data |@/out/sys.data |' dump.out >dump.got
	if ! cmp -s dump.want dump.got; then
		verbose "$(diff dump.want dump.got | head -20)"
		failed="$failed rd.sys(-D)"
	fi
else
	verbose "$(cat dump.err)"
	failed="$failed rd.sys(-D exit)"
fi
[ -z "$failed" ] || fail "perf report differs from upstream perf 7.2 for:$failed"
pass
