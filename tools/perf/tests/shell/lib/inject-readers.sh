# SPDX-License-Identifier: GPL-2.0
# inject-readers.sh - sourced by the inject-*.sh tests after lib.sh: what every reader must
# make of a file perf inject wrote, against oracles no one here wrote.
#
#	inject_readers NAME IN OUT [READER-OPTIONS...]
#
# READER-OPTIONS (--symfs=..., --kallsyms=...) go to every perf. Checks, each a fail:
#  - our perf script of OUT equals ours of IN byte for byte (set INJECT_SORTED=1 to compare
#    the sample blocks sorted: where a stitched sample waited across other threads' samples,
#    IN prints it when its record came and OUT, like every inline file, in time order);
#  - the system perf (6.1) reads OUT without a word on stderr: its perf script shows the
#    same samples, symbols and DSOs as ours (semantic compare: it prints an older layout, see
#    script-sysperf.sh), its perf report --sort dso,sym the same profile as ours of IN;
#  - upstream perf 7.2's perf script --no-inline of OUT equals ours byte for byte (but for the
#    [vdso] symbol, see record-readers.sh);
#  - hotspot's perfparser reads OUT (exit 0, output written), complains of nothing it does
#    not complain of in IN (a record type of perf's own it does not handle is no complaint:
#    it says so of perf's own files), and no longer of what inject removes
#    (deferred markers, partial register sets); for DSOs of this machine (no --symfs), its
#    output names our most frequent user symbol.
# A reader that is not installed is a not_tested case (lib.sh), said once per test.

inject_sysperf_normalize() {
	at_sym='(	|.*: +[0-9a-f]+ )'
	sed -E -e 's/^	 *[0-9a-f]+ /	/' \
		-e "s/^$at_sym(\[unknown\]|_init\+0x[0-9a-f]+|[^ (]*plt[^ (]*|.*@plt(\+0x[0-9a-f]+)?) \(/\1[plt?] (/" \
		-e "s/^($at_sym[^(]*)\(.*\)(\+0x[0-9a-f]+ \(\/)/\1\3/" \
		-e 's/  +/ /g' "$1"
}

# one line per sample block, sorted
inject_blocks() {
	awk 'BEGIN { RS = "" } { gsub(/\n/, "\001"); print }' "$1" | sort
}

# a reader's stderr without the lost-records summary (perf's words) when the input itself
# has LOST records: that warning is the recording's, and the injected file keeps them
inject_warnings() {
	if [ -n "$ir_lost" ]; then
		grep -v -e 'lost [0-9]* chunks' -e 'lost [0-9.]*%' -e 'Check IO/CPU overload' -e '^Warning:$' -e '^$' "$1"
	else
		grep -v '^$' "$1"
	fi
}

# the profile as a set: entries of equal percentage come in an order of each tool's own;
# perf 6.1 demangles C++ names without their parameters (script-sysperf.sh), so they go.
# A PLT stub's name is 6.1's guess: it names stubs in .rela.plt order, where x86 puts the
# IRELATIVE slots out of PLT order, so in libc a stub may get an empty name ("@plt") or
# its neighbour's, and a stub it cannot name is an address; its first entry is "_init".
# These compare as "[plt?]", as inject_sysperf_normalize's lines do.
inject_report_flat() {
	sed -E -e 's/ +/ /g; s/^ //' \
		-e 's/ \[\.\] (0x[0-9a-f]+|_init|[^ ]*plt[^ ]*|.*@plt)$/ [.] [plt?]/' \
		-e 's/\(.*\)( const)?$//' "$1" | grep . | sort
}

inject_have_sysperf=
inject_have_upstream=
inject_have_hotspot=
inject_parser=/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser
inject_readers_init() {
	if [ -x "$SYSTEM_PERF" ]; then
		inject_have_sysperf=1
	else
		not_tested "the system perf: not at $SYSTEM_PERF (make test-deps)"
	fi
	if upstream_perf; then
		inject_have_upstream=1
	else
		not_tested "upstream perf 7.2: not available (make test-deps as root)"
	fi
	if [ -x "$inject_parser" ]; then
		inject_have_hotspot=1
	else
		not_tested "hotspot's perfparser: not installed (make test-deps as root)"
	fi
}

inject_readers() {
	ir_n=$1 ir_in=$2 ir_out=$3
	shift 3
	"$PERF" script "$@" -i "$ir_in" >"$ir_n.in.txt" 2>"$ir_n.in.err" ||
		fail "$ir_n: perf script of $ir_in failed: $(head -1 "$ir_n.in.err")"
	ir_lost=$(grep -e 'lost [0-9]* chunks' -e 'lost [0-9.]*%' "$ir_n.in.err")
	"$PERF" script "$@" -i "$ir_out" >"$ir_n.out.txt" 2>"$ir_n.out.err" ||
		fail "$ir_n: perf script of the injected file failed: $(head -1 "$ir_n.out.err")"
	[ -z "$(inject_warnings "$ir_n.out.err")" ] ||
		fail "$ir_n: perf script of the injected file warned: $(inject_warnings "$ir_n.out.err" | head -1)"
	[ -s "$ir_n.out.txt" ] || fail "$ir_n: perf script of the injected file printed nothing"
	if [ -n "${INJECT_SORTED:-}" ]; then
		inject_blocks "$ir_n.in.txt" >"$ir_n.in.sorted"
		inject_blocks "$ir_n.out.txt" >"$ir_n.out.sorted"
		cmp -s "$ir_n.in.sorted" "$ir_n.out.sorted" ||
			fail "$ir_n: perf script of the injected file shows other samples than of $ir_in:
$(diff "$ir_n.in.sorted" "$ir_n.out.sorted" | tr '\001' '\n' | head -20)"
	elif ! cmp -s "$ir_n.in.txt" "$ir_n.out.txt"; then
		fail "$ir_n: perf script of the injected file differs from that of $ir_in:
$(diff "$ir_n.in.txt" "$ir_n.out.txt" | head -12)"
	fi
	"$PERF" script --no-inline "$@" -i "$ir_out" >"$ir_n.ours-ni.txt" 2>/dev/null ||
		fail "$ir_n: perf script --no-inline of the injected file failed"

	if [ -n "$inject_have_sysperf" ]; then
		"$SYSTEM_PERF" script "$@" -i "$ir_out" >"$ir_n.sys.txt" 2>"$ir_n.sys.err" ||
			fail "$ir_n: $SYSTEM_PERF script of the injected file failed: $(tail -1 "$ir_n.sys.err")"
		[ -z "$(inject_warnings "$ir_n.sys.err")" ] ||
			fail "$ir_n: $SYSTEM_PERF script of the injected file warned: $(inject_warnings "$ir_n.sys.err" | head -1)"
		inject_sysperf_normalize "$ir_n.sys.txt" >"$ir_n.sys.n"
		inject_sysperf_normalize "$ir_n.ours-ni.txt" >"$ir_n.ours.n"
		cmp -s "$ir_n.sys.n" "$ir_n.ours.n" || fail "$ir_n: $SYSTEM_PERF script of the injected file differs from ours:
$(diff "$ir_n.sys.n" "$ir_n.ours.n" | head -12)"
		"$SYSTEM_PERF" report --stdio --no-children -q --sort dso,sym -g none "$@" -i "$ir_out" \
			>"$ir_n.sysrep.txt" 2>"$ir_n.sysrep.err" ||
			fail "$ir_n: $SYSTEM_PERF report of the injected file failed: $(tail -1 "$ir_n.sysrep.err")"
		[ -z "$(inject_warnings "$ir_n.sysrep.err")" ] ||
			fail "$ir_n: $SYSTEM_PERF report of the injected file warned: $(inject_warnings "$ir_n.sysrep.err" | head -1)"
		"$PERF" report --stdio --no-children -q --sort dso,sym -g none "$@" -i "$ir_in" \
			>"$ir_n.rep.txt" 2>/dev/null || fail "$ir_n: perf report of $ir_in failed"
		inject_report_flat "$ir_n.sysrep.txt" >"$ir_n.sysrep.n"
		inject_report_flat "$ir_n.rep.txt" >"$ir_n.rep.n"
		[ -s "$ir_n.rep.n" ] || fail "$ir_n: perf report of $ir_in shows nothing"
		cmp -s "$ir_n.sysrep.n" "$ir_n.rep.n" ||
			fail "$ir_n: $SYSTEM_PERF report of the injected file differs from ours of $ir_in:
$(diff "$ir_n.sysrep.n" "$ir_n.rep.n" | head -12)"
	fi

	if [ -n "$inject_have_upstream" ]; then
		"$UPSTREAM_PERF" script --no-inline "$@" -i "$ir_out" >"$ir_n.up.txt" 2>"$ir_n.up.err" ||
			fail "$ir_n: upstream perf script of the injected file failed: $(tail -1 "$ir_n.up.err")"
		[ -z "$(inject_warnings "$ir_n.up.err")" ] ||
			fail "$ir_n: upstream perf script of the injected file warned: $(inject_warnings "$ir_n.up.err" | head -1)"
		for ir_o in up ours-ni; do
			sed -E 's/^(\t +[0-9a-f]+ ).* \(\[vdso\]\)$/\1[unknown] ([vdso])/' \
				"$ir_n.$ir_o.txt" >"$ir_n.$ir_o.vdso"
		done
		cmp -s "$ir_n.up.vdso" "$ir_n.ours-ni.vdso" ||
			fail "$ir_n: upstream perf script --no-inline of the injected file differs from ours:
$(diff "$ir_n.up.vdso" "$ir_n.ours-ni.vdso" | head -12)"
	fi

	if [ -n "$inject_have_hotspot" ]; then
		"$inject_parser" --input "$ir_in" --output "$ir_n.in.hs" >"$ir_n.in.hslog" 2>&1
		"$inject_parser" --input "$ir_out" --output "$ir_n.out.hs" >"$ir_n.out.hslog" 2>&1 ||
			fail "$ir_n: hotspot-perfparser failed on the injected file: $(tail -1 "$ir_n.out.hslog")"
		[ -s "$ir_n.out.hs" ] || fail "$ir_n: hotspot-perfparser wrote nothing for the injected file"
		grep -v -e '^Linux version' -e '^unhandled event type \(6[4-9]\|[7-9][0-9]\) ' \
			"$ir_n.in.hslog" | sort -u >"$ir_n.in.hsl"
		grep -v -e '^Linux version' -e '^unhandled event type \(6[4-9]\|[7-9][0-9]\) ' \
			"$ir_n.out.hslog" | sort -u >"$ir_n.out.hsl"
		ir_extra=$(comm -13 "$ir_n.in.hsl" "$ir_n.out.hsl")
		[ -z "$ir_extra" ] || fail "$ir_n: hotspot-perfparser complains of the injected file only: $ir_extra"
		# DSOs on this machine (no --symfs given): hotspot names what we name
		if [ $# -eq 0 ]; then
			ir_sym=$(sed -n 's/^	 *[0-9a-f]* \([A-Za-z_][A-Za-z_0-9]*\)+0x[0-9a-f]* (\/.*/\1/p' \
				"$ir_n.ours-ni.txt" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
			[ -z "$ir_sym" ] || grep -aq "$ir_sym" "$ir_n.out.hs" ||
				fail "$ir_n: hotspot-perfparser's output of the injected file lacks $ir_sym"
		fi
		! grep -q -e 'invalid callchain context' -e 'invalid register offset' "$ir_n.out.hsl" ||
			fail "$ir_n: hotspot-perfparser still finds deferred markers or partial registers: $(grep -m1 -e 'invalid' "$ir_n.out.hsl")"
	fi
}
