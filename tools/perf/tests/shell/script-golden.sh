#!/bin/sh
# perf script output equals upstream perf 7.2's on the golden recordings, with and without inline frames
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/upstream
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"

# Until user-space DWARF unwinding exists, the dwarf recording is compared on its sample
# lines and kernel frames only (upstream adds the frames it unwinds from the stack dumps).
no_user_frames() {
	grep -v -E '^	 *[0-9a-f]+ .*(\((/|\[unknown\]|\[vdso\])|\(inlined\)$)' "$1"
}

failed=""
# NAME.script.txt is upstream's default (inline frames from DWARF), NAME.script-noinline.txt
# its --no-inline
for variant in script-noinline script; do
opt=--no-inline
[ $variant = script ] && opt=
for data in "$G"/data/*.data; do
	name=$(basename "$data" .data)
	want=$G/upstream/$name.$variant.txt
	[ -f "$want" ] || continue
	name=$name.$variant
	# shellcheck disable=SC2086
	if ! "$PERF" script $opt --symfs="$G/symfs" --kallsyms=kallsyms -i "$data" \
		>"$name.out" 2>"$name.err"; then
		verbose "$(cat "$name.err")"
		failed="$failed $name(exit)"
		continue
	fi
	case $name in
	*.dwarf.*)
		no_user_frames "$want" >"$name.want"
		no_user_frames "$name.out" >"$name.got"
		;;
	*)
		cp "$want" "$name.want"
		cp "$name.out" "$name.got"
		;;
	esac
	if ! cmp -s "$name.want" "$name.got"; then
		verbose "--- $name: upstream vs ours ---"
		verbose "$(diff "$name.want" "$name.got" | head -40)"
		failed="$failed $name"
	else
		verbose "$name: identical ($(grep -c . "$name.got") lines)"
	fi
done
done
[ -z "$failed" ] || fail "output differs from upstream perf 7.2 for:$failed"
exit 0
