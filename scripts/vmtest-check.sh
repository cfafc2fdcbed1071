#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmtest-check.sh - the host's checks of `make vmtest`'s recordings (scripts/vmtest.sh).
#
# Usage: scripts/vmtest-check.sh ROOT PERF
#	ROOT	the sid root the guest ran in: its /vmtest/out holds the recordings, the
#		status of each perf record, the guest's kallsyms; its /usr/bin/perf is
#		upstream perf 7.2, run chrooted there
#	PERF	our perf binary (the one copied to ROOT/vmtest/perf)
# Prints one line per check and `N passed, N failed, N skipped` last. Exit 0 when none
# failed, 1 otherwise. A check whose tool is missing is a skip, with the reason.
set -u
root=$1
perf=$2
top=$(cd "$(dirname "$0")/.." && pwd)
out=$root/vmtest/out
tmp=$(mktemp -d) || exit 1
passed=0
failed=0
skipped=0
trap 'umount "$root/proc" "$root/sys" 2>/dev/null; rm -rf "$tmp"' EXIT

pass() { echo "PASS: $*"; passed=$((passed + 1)); }
failc() { echo "FAIL: $*"; failed=$((failed + 1)); }
skipc() { echo "SKIP: $*"; skipped=$((skipped + 1)); }

# ours ARGS...: our perf script with the guest's DSOs and kernel symbols
ours() {
	"$perf" script --symfs="$root" --kallsyms="$out/kallsyms" "$@"
}

# upstream ARGS...: upstream perf 7.2 chrooted in the root, with the guest's build-id cache
# (/.debug) as its own, and a /proc and /sys as on a machine: it needs /proc, and without
# /sys it says "Failed to read max cpus" at every CPU_MAP record (perf record writes one)
upstream() {
	mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
	mountpoint -q "$root/sys" || mount -t sysfs sysfs "$root/sys"
	chroot "$root" /usr/bin/env HOME=/ /usr/bin/perf "$@"
}

# input NAME: our -i argument for the recording NAME
input() {
	echo "$out/$1.data"
}

# is_pipe NAME: the recording was made with -o - (scripts/vmtest-guest.sh's pipe)
is_pipe() {
	case $1 in
	*pipe-*) return 0 ;;
	esac
	return 1
}

# the recordings the guest made (scripts/vmtest-guest.sh), in its order; those of perf record
# --kcore (kcore-*) have checks of their own (8.)
names=$(awk '$1 !~ /^kcore-/ { print $1 }' "$out/status")

# 1. each perf record exited 0, did not fall back, and left a file
for name in $names; do
	st=$(awk -v n="$name" '$1 == n { print $2 }' "$out/status")
	if [ "$st" != 0 ]; then
		failc "$name: perf record exited with $st: $(grep -av '^$' "$out/$name.stderr" | tail -n 2 | tr '\n' ' ' | cat -v | cut -c1-300)"
	elif grep -q 'has no deferred user callchains' "$out/$name.stderr"; then
		failc "$name: perf record fell back to inline callchains: $(grep -m1 'deferred' "$out/$name.stderr")"
	elif [ ! -s "$out/$name.data" ]; then
		failc "$name: no perf.data written"
	else
		pass "$name: perf record exited 0 with deferred callchains"
	fi
done

# the recordings that can be read
good=
for name in $names; do
	[ -s "$out/$name.data" ] && [ "$(awk -v n="$name" '$1 == n { print $2 }' "$out/status")" = 0 ] &&
		good="$good $name"
done

# 2. -D: type-22 records, and samples whose chain ends in the deferred marker and a cookie;
# the samples whose (tid, cookie) has a record are the ones stitching must answer (a task
# sampled as it exits gets a cookie but never its record: the kernel writes none)
declare -A with_record=() no_record=()
for name in $good; do
	if ! "$perf" script -D -i "$(input "$name")" >"$tmp/$name.dump" 2>"$tmp/dump.err"; then
		failc "$name: perf script -D failed: $(head -c 300 "$tmp/dump.err")"
		continue
	fi
	read -r records samples deferred matched < <(awk '
		function tid(   i) {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\/[0-9]+:$/) {
					sub(/^[0-9]+\//, "", $i)
					sub(/:$/, "", $i)
					return $i
				}
			return ""
		}
		function hex(x) {
			sub(/^0x/, "", x)
			sub(/^0+/, "", x)
			return x
		}
		function sample_end() {
			if (insample && prev ~ /PERF_CONTEXT_USER_DEFERRED/ && last !~ /\(PERF_CONTEXT_/) {
				d++
				split(last, f, ": ")
				waiting[++nw] = stid SUBSEP hex(f[2])
			}
			insample = 0
		}
		/PERF_RECORD_CALLCHAIN_DEFERRED\(/ {
			sample_end()
			rec++
			have[tid() SUBSEP hex($NF)] = 1
			next
		}
		/ PERF_RECORD_SAMPLE\(/ {
			sample_end()
			s++
			insample = 1
			stid = tid()
			prev = last = ""
			next
		}
		insample && /^\.\.\.\.\. *[0-9]+: / { prev = last; last = $0; next }
		insample && !/^\.\.\.\.\./ && !/FP chain/ { sample_end() }
		END {
			sample_end()
			for (i = 1; i <= nw; i++)
				if (waiting[i] in have)
					m++
			print rec + 0, s + 0, d + 0, m + 0
		}' "$tmp/$name.dump")
	with_record[$name]=$matched
	no_record[$name]=$((deferred - matched))
	if [ "$records" -gt 0 ] && [ "$deferred" -gt 0 ]; then
		pass "$name: -D shows $records CALLCHAIN_DEFERRED records, $deferred of $samples samples end in the marker + cookie, $matched with a record"
	else
		failc "$name: -D shows $records CALLCHAIN_DEFERRED records, $deferred of $samples samples end in the marker + cookie"
	fi
done

# 3. the attributes: defer_callchain on every sampling event, defer_output on exactly one
# (perf evlist -v's content: the header's event lines, or a pipe's PERF_RECORD_ATTRs)
for name in $good; do
	[ -f "$tmp/$name.dump" ] || continue
	if is_pipe "$name"; then
		grep 'PERF_RECORD_ATTR,' "$tmp/$name.dump"
	else
		"$perf" script --header-only -i "$(input "$name")" 2>&1 | grep '^# event : '
	fi >"$tmp/attrs"
	events=$(grep -c . "$tmp/attrs")
	sampling=$(grep -c 'sample_type = [A-Z|]*CALLCHAIN' "$tmp/attrs")
	dc=$(grep 'sample_type = [A-Z|]*CALLCHAIN' "$tmp/attrs" | grep -c 'defer_callchain = 1')
	do1=$(grep -c 'defer_output = 1' "$tmp/attrs")
	if [ "$events" -gt 0 ] && [ "$dc" = "$sampling" ] && [ "$do1" = 1 ]; then
		pass "$name: defer_callchain on all $sampling callchain events of $events, defer_output on one"
	else
		failc "$name: $events events, $sampling with callchains, $dc with defer_callchain, $do1 with defer_output (want all and 1)"
	fi
done

# 4. --stitch-stats: every sample whose record is in the file got it
for name in $good; do
	[ -n "${with_record[$name]:-}" ] || continue
	if ! ours --stitch-stats -i "$(input "$name")" >/dev/null 2>"$tmp/stitch"; then
		failc "$name: perf script --stitch-stats failed: $(head -c 300 "$tmp/stitch")"
		continue
	fi
	st=$(awk '/^  samples stitched/ { print $NF }' "$tmp/stitch")
	un=$(awk '/^  samples without user callchain/ { print $NF }' "$tmp/stitch")
	why=$(awk '/^    (a newer|the thread|the input|the memory)/ && $NF != 0 { sub(/^ +/, ""); printf "%s%s", sep, $0; sep = ", " }' "$tmp/stitch" | tr -s ' ')
	if [ -z "$st" ] || [ -z "$un" ]; then
		failc "$name: no stitching statistics in perf script --stitch-stats's output"
	elif [ "$st" = "${with_record[$name]}" ]; then
		pass "$name: all $st samples with a record stitched${why:+ ($un without a record: $why)}"
	else
		failc "$name: $st samples stitched of ${with_record[$name]} with a record in the file (-D)${why:+; unstitched: $why}"
	fi
done

# 4b. what perf record said of the samples the kernel never answered is what the reader finds
for name in $good; do
	[ -n "${no_record[$name]:-}" ] || continue
	said=$(sed -n 's/^perf record: \([0-9]*\) deferred samples got no user callchain.*/\1/p' \
		"$out/$name.stderr" | tail -1)
	if [ "${said:-0}" = "${no_record[$name]}" ]; then
		pass "$name: perf record's count of unanswered deferred samples (${said:-0}) is the reader's"
	else
		failc "$name: perf record said ${said:-0} deferred samples got no user callchain, the file has ${no_record[$name]} without a record (-D)"
	fi
done

# 5. the workloads' call structure, in the files with repair data (without it, a walk
# through libc's frameless functions skips callers and nothing can put them back: those
# files are for the comparison with upstream, below)
# The structure holds only if the program calls, never jumps to, its callees
tailcalls=
if command -v objdump >/dev/null; then
	for fn in sys_read_one:read sys_write_one:write sys_touch:memset sys_loop:sys_read_one \
		sys_loop:sys_write_one sys_loop:sys_touch workload__syscalls:sys_loop \
		calls_level8:calls_leaf calls_level1:calls_level2 workload__calls:calls_level1; do
		caller=${fn%%:*}
		callee=${fn#*:}
		objdump -d --no-show-raw-insn --disassemble="$caller" "$perf" >"$tmp/dis" 2>/dev/null
		if ! grep -qE "call +[0-9a-f]+ <$callee(@plt)?>" "$tmp/dis" ||
			grep -qE "jmp +[0-9a-f]+ <$callee(@plt)?>" "$tmp/dis"; then
			tailcalls="$tailcalls $caller->$callee"
		fi
	done
	if [ -z "$tailcalls" ]; then
		pass "$perf: the workloads call their callees (no tail jumps)"
	else
		failc "$perf: not a call (tail jump or inlined):$tailcalls"
	fi
else
	skipc "objdump is not installed (binutils): the workloads' calls are not checked"
fi
for name in $good; do
	case $name in
	norepair-*|gnorepair-*|system-*|forkexec) continue ;;
	*-syscalls) wl=syscalls ;;
	*-calls) wl=calls ;;
	fpdefer-*) wl=${name#fpdefer-} ;;
	*) continue ;;
	esac
	ours --no-inline -i "$(input "$name")" 2>/dev/null |
		awk -v workload=$wl -v prog=/vmtest/perf -f "$top/tools/perf/tests/shell/lib/callers.awk" \
		>"$tmp/callers" 2>"$out/$name.wrong-callers.txt"
	read -r _ judged _ right _ elsewhere <"$tmp/callers"
	judged=${judged:-0} right=${right:-0}
	pct=$(awk -v r="$right" -v j="$judged" 'BEGIN { printf "%.2f", j ? 100 * r / j : 0 }')
	note="; $elsewhere chains of start-up or exit end in libc"
	# the issue's bar: at most one wrong caller in 2000 samples
	if [ "$judged" -gt 0 ] && [ $((right * 10000)) -ge $((judged * 9995)) ]; then
		pass "$name: callers right in $right of $judged workload samples ($pct%)$note"
	else
		most=$(sed -n '/by reason:$/,/lost elsewhere/p' "$out/$name.wrong-callers.txt" |
			grep -E '^ *[0-9]+  ' | sort -rn | head -1 |
			sed 's/^ *\([0-9]*\)  /\1: /')
		failc "$name: callers right in $right of $judged workload samples ($pct%), want >= 99.95%$note; most wrong ones: $most ($out/$name.wrong-callers.txt)"
	fi
done

# allow_exited_comm UPSTREAM EXITS <OURS: our script output, where a sample of a thread
# after its EXIT (EXITS: "tid time" lines) has upstream's lines: upstream forgot the thread
# at EXIT, so it prints ":TID" and no user frame resolves ("[unknown] ([unknown])"); we keep
# its comm and maps (README's "Differences kept on purpose")
allow_exited_comm() {
	awk 'FILENAME == ARGV[1] { up[FNR] = $0; next }
	FILENAME == ARGV[2] { gone[$1] = $2; next }
	{
		u = up[FNR]
		# a sample header: comm tid [cpu] time:
		if ($0 !~ /^\t/ && $0 != "") {
			after = 0
			for (i = 2; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/) {
					t = $i; sub(/:$/, "", t)
					after = ($2 in gone) && t + 0 > gone[$2] + 0
					break
				}
		}
		if (u != $0 && u ~ /^:[0-9]+ / && substr(u, 2, length($2)) == $2) {
			c = $0
			sub(/^[^ ]+/, ":" $2, c)
			if (c == u) {
				print u
				next
			}
		}
		if (u != $0 && after && $0 ~ /^\t/ &&
		    u ~ /^\t *[0-9a-f]+ \[unknown\] \(\[unknown\]\)$/) {
			split(u, uf, " ")
			if (uf[1] == $1) {
				print u
				next
			}
		}
		print
	}' "$1" "$2" -
}

# 6. upstream perf 7.2 reads every file without an error
if [ -x "$root/usr/bin/perf" ]; then
	mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
	for name in $good; do
		if is_pipe "$name"; then
			upstream script -i - --kallsyms=/vmtest/out/kallsyms <"$out/$name.data" \
				>"$tmp/up" 2>"$tmp/up.err"
		else
			upstream script -i "/vmtest/out/$name.data" --kallsyms=/vmtest/out/kallsyms \
				>"$tmp/up" 2>"$tmp/up.err"
		fi
		rc=$?
		if [ "$rc" = 0 ] && [ -s "$tmp/up" ] && ! grep -qiE 'error|fail|invalid|corrupt' "$tmp/up.err"; then
			pass "$name: upstream perf 7.2 reads it ($(grep -c '^[^[:space:]]' "$tmp/up") samples)"
		else
			failc "$name: upstream perf 7.2 script exit $rc: $(head -c 300 "$tmp/up.err")"
		fi
	done
	# 7. its unmerged script of the files without repair data is ours, byte for byte
	for name in $good; do
		case $name in
		norepair-*|gnorepair-*) ;;
		*) continue ;;
		esac
		if is_pipe "$name"; then
			upstream script --no-merge-callchains --no-inline -i - \
				--kallsyms=/vmtest/out/kallsyms <"$out/$name.data"
		else
			upstream script --no-merge-callchains --no-inline -i "/vmtest/out/$name.data" \
				--kallsyms=/vmtest/out/kallsyms
		fi >"$tmp/up" 2>/dev/null
		# each thread's EXIT time, as script prints times
		ours --show-task-events -i "$(input "$name")" 2>/dev/null |
			sed -n 's/.* \([0-9][0-9]*\.[0-9]*\): PERF_RECORD_EXIT(\([0-9]*\):.*/\2 \1/p' \
			>"$tmp/exits"
		ours --no-merge-callchains --no-inline -i "$(input "$name")" 2>/dev/null |
			allow_exited_comm "$tmp/up" "$tmp/exits" >"$tmp/ours"
		# Kept on purpose (README): a kernel module's recorded size (/proc/modules' sum
		# of its memory regions) covers the next modules' starts on 7.x. We end each
		# module where the next begins; upstream finds one of the overlapping maps by
		# its binary search. A frame at an address two recorded modules cover may name
		# another module and symbol: such frames compare as their address alone.
		ours --show-mmap-events -i "$(input "$name")" 2>/dev/null |
			sed -n 's/.*PERF_RECORD_MMAP2* -1\/0: \[0x\([0-9a-f]*\)(0x\([0-9a-f]*\)) @ [^]]*\]: x \[\([a-z0-9_]*\)\]$/\1 \2 \3/p' \
			>"$tmp/modules.raw"
		# [start, end) as 16 hex digits, compared as strings (awk's numbers are doubles)
		while read -r m_start m_len m_name; do
			printf '%016x %016x %s\n' $((0x$m_start)) $((0x$m_start + 0x$m_len)) "$m_name"
		done <"$tmp/modules.raw" >"$tmp/modules"
		for f in up ours; do
			awk 'FILENAME == ARGV[1] { s[n] = $1; e[n] = $2; n++; next }
			     /^\t *[0-9a-f]+ .* \(\[[a-z0-9_]+\]\)$/ {
				a = substr("0000000000000000" $1, length($1) + 1); c = 0
				for (i = 0; i < n; i++) if (a >= s[i] && a < e[i]) c++
				if (c >= 2) { print "\t" $1 " (a frame in overlapping module maps)"; next }
			     }
			     { print }' "$tmp/modules" "$tmp/$f" >"$tmp/$f.mod"
		done
		if cmp -s "$tmp/up" "$tmp/ours"; then
			pass "$name: perf script --no-merge-callchains --no-inline equals upstream's ($(wc -l <"$tmp/ours") lines)"
		elif cmp -s "$tmp/up.mod" "$tmp/ours.mod"; then
			pass "$name: perf script --no-merge-callchains --no-inline equals upstream's but in $(diff "$tmp/up" "$tmp/ours" | grep -c '^<') frames in overlapping module maps (kept on purpose)"
		elif false; then
			pass "$name: perf script --no-merge-callchains --no-inline equals upstream's ($(wc -l <"$tmp/ours") lines)"
		else
			diff "$tmp/up" "$tmp/ours" >"$out/$name.upstream.diff"
			# how many are frames of kernel modules ([name]): the maps of modules
			# whose memory regions are not contiguous are a known difference
			nmod=$(grep -cE '^[<>].* \(\[[a-z0-9_]+\]\)$' "$out/$name.upstream.diff")
			failc "$name: perf script --no-merge-callchains --no-inline differs from upstream's in $(grep -c '^[<>]' "$out/$name.upstream.diff") lines, $nmod of them module frames ($out/$name.upstream.diff)"
		fi
	done
else
	skipc "no upstream perf in $root (sid's linux-perf): upstream does not read the files"
fi

# 8. perf record --kcore (scripts/vmtest-guest.sh's kcore-*): the directory and its copies,
# read by our script and report as by upstream 7.2, which take kallsyms and kcore from it
kcore_status() {
	awk -v n="$1" '$1 == n { print $2 }' "$out/status"
}
if [ -n "$(kcore_status kcore-sys)" ]; then
	d=$out/kcore-sys.data
	st=$(kcore_status kcore-sys)
	if [ "$st" != 0 ] || [ ! -f "$d/data" ]; then
		failc "kcore-sys: perf record --kcore exited with $st: $(grep -av '^$' "$out/kcore-sys.stderr" | tail -n 2 | tr '\n' ' ' | cut -c1-300)"
	else
		pass "kcore-sys: perf record --kcore exited 0"
		# the directory as upstream's perf record --kcore makes it, the copies 0400
		layout=$(cd "$d" && find . -printf '%p %y %m\n' | sort | tr '\n' ' ')
		want='. d 700 ./data f 600 ./kcore_dir d 700 ./kcore_dir/kallsyms f 400 ./kcore_dir/kcore f 400 ./kcore_dir/modules f 400 '
		if [ "$layout" = "$want" ]; then
			pass "kcore-sys: data and kcore_dir/{kallsyms,kcore,modules}, as upstream lays them out"
		else
			failc "kcore-sys: the directory holds: $layout"
		fi
		# upstream 7.2's perf record --kcore in the same boot: the same layout, and a kcore
		# with the same ELF and program headers
		if [ "$(kcore_status kcore-up)" != 0 ]; then
			skipc "kcore-sys: upstream's perf record --kcore failed in the guest: $(head -c 200 "$out/kcore-up.stderr")"
		elif grep -q '^ *LOAD ' "$out/kcore-up.readelf" 2>/dev/null &&
			cmp -s "$out/kcore-sys.layout" "$out/kcore-up.layout" &&
			cmp -s "$out/kcore-sys.readelf" "$out/kcore-up.readelf"; then
			pass "kcore-sys: upstream 7.2's perf record --kcore makes the same files, modes and kcore headers"
		else
			failc "kcore-sys: upstream 7.2's --kcore directory differs: $(diff "$out/kcore-up.layout" "$out/kcore-sys.layout" | tr '\n' ' ' | cut -c1-200) $(diff "$out/kcore-up.readelf" "$out/kcore-sys.readelf" | tr '\n' ' ' | cut -c1-300)"
		fi
		# no DIR_FORMAT: that is --threads' (upstream's write_dir_format is for it only)
		if "$perf" script --header-only -I -i "$d" 2>&1 | grep '^# missing features:' |
			grep -qw DIR_FORMAT; then
			pass "kcore-sys: no DIR_FORMAT feature, as upstream's --kcore without --threads"
		else
			failc "kcore-sys: the header has DIR_FORMAT, or no header"
		fi
		# the segments: upstream's kcore_copy() rule on the copies of kallsyms and modules
		# (hex compared as fixed-width strings; bash's 64-bit arithmetic rounds the pages)
		read -r stext etext first last mfirst mlast < <(awk '
			$2 ~ /^[TtWw]$/ {
				if (index($0, "[")) {
					if (mfirst == "" || $1 < mfirst) mfirst = $1
					if ($1 > mlast) mlast = $1
					next
				}
				if (first == "" || $1 < first) first = $1
				if ($1 > last) last = $1
				if ($3 == "_stext") stext = $1
				if ($3 == "_etext") etext = $1
			}
			END { print stext "", etext "", first "", last "", (mfirst == "" ? "-" : mfirst), (mlast == "" ? "-" : mlast) }' "$d/kcore_dir/kallsyms")
		mod=$(awk '{ a = $NF; sub(/^0x/, "", a); a = substr("0000000000000000" a, length(a) + 1); if (m == "" || a < m) m = a } END { print m }' "$d/kcore_dir/modules")
		page=$((0x1000))
		t0=$(( 16#${stext:-$first} & ~(page - 1) ))
		if [ -n "$etext" ]; then
			t1=$(( (16#$etext + page - 1) & ~(page - 1) ))
		else
			t1=$(( ((16#$last + page - 1) & ~(page - 1)) + page ))
		fi
		want=$(printf '%016x %x' $t0 $((t1 - t0)))
		if [ "$mfirst" != - ]; then
			[ -n "$mod" ] && [[ $mod < $mfirst ]] && mfirst=$mod
			m0=$(( 16#$mfirst & ~(page - 1) ))
			m1=$(( ((16#$mlast + page - 1) & ~(page - 1)) + page ))
			want="$want $(printf '%016x %x' $m0 $((m1 - m0)))"
		fi
		got=$(readelf -lW "$d/kcore_dir/kcore" 2>/dev/null |
			awk '$1 == "LOAD" { v = $3; s = $5; sub(/^0x/, "", v); sub(/^0x0*/, "", s); printf "%s%s %s", sep, v, s; sep = " " }')
		if [ "$got" = "$want" ]; then
			pass "kcore-sys: kcore_dir/kcore holds the kernel text and the modules' ($got)"
		else
			failc "kcore-sys: kcore_dir/kcore's segments are '$got', the copies of kallsyms and modules say '$want'"
		fi
		read -r _ same total < <(grep '^kcore-bytes ' "$out/kcore-sys.bytes" 2>/dev/null)
		if [ -n "${total:-}" ] && [ "$total" -gt 0 ] && [ $((same * 100)) -ge $((total * 99)) ]; then
			pass "kcore-sys: the copy's bytes are /proc/kcore's ($same of $total sampled bytes equal; code patched since may differ)"
		else
			failc "kcore-sys: the copy's bytes against /proc/kcore: $(head -c 300 "$out/kcore-sys.bytes" 2>/dev/null)"
		fi

		# our readers: the directory as its data with --kallsyms at the copy (and the kcore
		# beside it), the kernel named by the kcore, the modules' functions the kernel's
		"$perf" script --symfs="$root" --no-inline -i "$d" >"$tmp/kcore.ours" 2>"$tmp/kcore.err"
		rc=$?
		"$perf" script --symfs="$root" --no-inline --kallsyms="$d/kcore_dir/kallsyms" \
			-i "$d/data" >"$tmp/kcore.file" 2>/dev/null
		if [ $rc = 0 ] && [ -s "$tmp/kcore.ours" ] && cmp -s "$tmp/kcore.ours" "$tmp/kcore.file"; then
			pass "kcore-sys: our perf script of the directory is that of its data with --kallsyms=kcore_dir/kallsyms ($(grep -c '^[^[:space:]]' "$tmp/kcore.ours") samples)"
		else
			failc "kcore-sys: our perf script of the directory (exit $rc: $(head -c 200 "$tmp/kcore.err")) is not that of its data with --kallsyms"
		fi
		nk=$("$perf" script -D --symfs="$root" -i "$d" 2>/dev/null | grep -c "^ \.\.\.\.\.\. dso: $d/kcore_dir/kcore$")
		if [ "$nk" -gt 0 ]; then
			pass "kcore-sys: the kernel's maps came from the kcore ($nk samples in it, perf script -D)"
		else
			failc "kcore-sys: perf script -D names no sample's dso $d/kcore_dir/kcore: the kcore was not used"
		fi
		awk -F '\t' 'NF > 1 && $1 ~ / [Tt] / { split($1, f, " "); print f[3] }' \
			"$d/kcore_dir/kallsyms" | sort -u >"$tmp/modfuncs"
		nmod=$(awk 'FILENAME == ARGV[1] { m[$1] = 1; next }
			/^\t/ && $NF == "([kernel.kallsyms])" { s = $2; sub(/\+0x[0-9a-f]+$/, "", s); if (s in m) n++ }
			END { print n + 0 }' "$tmp/modfuncs" "$tmp/kcore.ours")
		ndso=$(awk 'FILENAME == ARGV[1] { m["([" $1 "])"] = 1; next }
			/^\t/ && ($NF in m) { n++ }
			END { print n + 0 }' "$d/kcore_dir/modules" "$tmp/kcore.ours")
		if [ "$ndso" -gt 0 ]; then
			failc "kcore-sys: $ndso frames name a module's dso: with the kcore they are the kernel's"
		elif [ "$nmod" -gt 0 ]; then
			pass "kcore-sys: $nmod frames of modules' functions named as [kernel.kallsyms]'s (the kcore's module segment)"
		else
			skipc "kcore-sys: no frame of a module's function was sampled"
		fi

		# upstream 7.2, reading the directory itself (its kallsyms and kcore, no --kallsyms)
		if [ -x "$root/usr/bin/perf" ]; then
			mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
			"$perf" script --symfs="$root" --show-task-events -i "$d" 2>/dev/null |
				sed -n 's/.* \([0-9][0-9]*\.[0-9]*\): PERF_RECORD_EXIT(\([0-9]*\):.*/\2 \1/p' \
				>"$tmp/kcore.exits"
			upstream script --no-inline -i /vmtest/out/kcore-sys.data >"$tmp/kcore.up" 2>"$tmp/kcore.uerr"
			rc=$?
			allow_exited_comm "$tmp/kcore.up" "$tmp/kcore.exits" <"$tmp/kcore.ours" >"$tmp/kcore.ours2"
			if [ $rc != 0 ]; then
				failc "kcore-sys: upstream perf 7.2 script of the directory exited $rc: $(head -c 300 "$tmp/kcore.uerr")"
			elif cmp -s "$tmp/kcore.up" "$tmp/kcore.ours2"; then
				pass "kcore-sys: perf script --no-inline of the directory equals upstream's ($(wc -l <"$tmp/kcore.ours") lines)"
			else
				diff "$tmp/kcore.up" "$tmp/kcore.ours2" >"$out/kcore-sys.upstream.diff"
				nk=$(grep -cE '^[<>].*\((\[kernel\.kallsyms\]|\[unknown\]|\[[a-z0-9_]+\])\)$' "$out/kcore-sys.upstream.diff")
				failc "kcore-sys: perf script --no-inline differs from upstream's in $(grep -c '^[<>]' "$out/kcore-sys.upstream.diff") lines, $nk of them kernel frames ($out/kcore-sys.upstream.diff)"
			fi
			for mode in --no-children --children; do
				upstream report --stdio --no-inline $mode -i /vmtest/out/kcore-sys.data 2>/dev/null |
					grep -v -E '^# \((Tip:|Cannot load tips)' >"$tmp/kcore.urep"
				"$perf" report --stdio --no-inline $mode --symfs="$root" -i "$d" 2>/dev/null |
					grep -v -E '^# \((Tip:|Cannot load tips)' >"$tmp/kcore.rep"
				if [ -s "$tmp/kcore.rep" ] && cmp -s "$tmp/kcore.urep" "$tmp/kcore.rep"; then
					pass "kcore-sys: perf report $mode of the directory equals upstream's ($(wc -l <"$tmp/kcore.rep") lines)"
				else
					diff "$tmp/kcore.urep" "$tmp/kcore.rep" >"$out/kcore-sys.report$mode.diff"
					failc "kcore-sys: perf report $mode differs from upstream's in $(grep -c '^[<>]' "$out/kcore-sys.report$mode.diff") lines ($out/kcore-sys.report$mode.diff)"
				fi
			done
		else
			skipc "no upstream perf in $root (sid's linux-perf): it does not read the --kcore directory"
		fi
	fi
fi
if [ -n "$(kcore_status kcore-backup-1)" ]; then
	sts=$(awk '$1 ~ /^kcore-backup-/ { printf "%s%s", sep, $2; sep = " " }' "$out/status")
	want=$(for o in kcore-backup.data kcore-backup.data.old; do
		printf '%s\n' $o $o/data $o/kcore_dir $o/kcore_dir/kallsyms $o/kcore_dir/kcore \
			$o/kcore_dir/modules
	done | sort | tr '\n' ' ')
	got=$(sort "$out/kcore-backup.tree" 2>/dev/null | tr '\n' ' ')
	if [ "$sts" = "0 0 0" ] && [ "$got" = "$want" ]; then
		pass "kcore-backup: three --kcore recordings to one output: it and OUTPUT.old are --kcore directories"
	else
		failc "kcore-backup: exits $sts, $got ($(tail -n 2 "$out/kcore-backup.stderr" 2>/dev/null | tr '\n' ' '))"
	fi
fi

if [ -n "$(kcore_status kcore-switch)" ]; then
	st=$(kcore_status kcore-switch)
	nd=0
	bad=
	for d in "$out"/kcore-switch/kcore-switch.data.*; do
		[ -e "$d" ] || continue
		nd=$((nd + 1))
		if [ ! -f "$d/data" ] || [ ! -s "$d/kcore_dir/kcore" ] || [ ! -s "$d/kcore_dir/kallsyms" ] ||
			! "$perf" script -i "$d" >/dev/null 2>"$tmp/switch.err"; then
			bad="$bad ${d##*/}"
		fi
	done
	if [ "$st" = 0 ] && [ "$nd" = 2 ] && [ -z "$bad" ] && [ ! -e "$out/kcore-switch/kcore-switch.data" ]; then
		pass "kcore-switch: --switch-output with --kcore: the 2 newest files (--switch-max-files) are --kcore directories our script reads"
	else
		failc "kcore-switch: exit $st, $nd files kept (want 2), unreadable or incomplete:${bad:- none} ($(tail -n 2 "$out/kcore-switch.stderr" | tr '\n' ' '))"
	fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
