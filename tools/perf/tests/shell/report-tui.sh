#!/bin/sh
# perf report's browser in tmux: --stdio's entry and callchain lines in every -g mode, selection, folding, search, DSO zoom, header, help, Tab between events, resize, quit (status 0, terminal restored); text without a terminal or from a pipe
# SPDX-License-Identifier: GPL-2.0
#
# The browser is compared with perf report --stdio on the same file and options: text, not
# hard-coded output. The screen is 200x50: row 0 the title, row 1 the column names, rows 2
# to 48 the entries (47 of them), row 49 the status line.
. "$(dirname "$0")"/lib.sh

need_perf
need_cmd tmux
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi

# tmux's server is a daemon of its own: ended with the test, whatever ends it
sock=$TMPDIR/tmux.sock
tm() {
	tmux -S "$sock" -f /dev/null "$@"
}
trap 'tm kill-server 2>/dev/null; [ -z "$lib_standalone" ] || rm -rf "$TMPDIR"' EXIT

# two events, callchains, two programs (the perf workloads and the shell) and several DSOs
"$PERF" record -q -g -e task-clock -e cpu-clock -o two.data -- sh -c \
	"'$WORKLOAD_PERF' test -w calls 0.3 && '$WORKLOAD_PERF' test -w syscalls 0.2" \
	>rec.log 2>&1 || fail "perf record failed: $(tail -3 rec.log)"
"$PERF" report --stdio -i two.data >stdio.txt 2>stdio.err ||
	fail "perf report --stdio failed: $(cat stdio.err)"

ROWS=47		# entry rows on a 50-row screen
COLS=200

# An entry line of --stdio: a percentage after blanks, then more columns (a flat callchain's
# value line is a percentage alone, a graph's starts with its pipes, a folded one at once)
ENTRY='^ +[0-9]+\.[0-9]+% +[^ ]'

# entries FILE N: event N's entry lines of FILE, as the screen shows them: cut at its
# width, no trailing blanks
entries() {
	awk -v n="$2" -v re="$ENTRY" '/^# Samples:/ { ev++ } ev == n && $0 ~ re' "$1" |
		cut -c1-$COLS | sed 's/ *$//'
}

# chain FILE: the first entry's callchain lines in FILE, between it and the second entry
chain() {
	awk -v re="$ENTRY" '/^# Samples:/ { ev++ } ev == 1 && $0 ~ re { e++; next }
		ev == 1 && e == 1' "$1" | cut -c1-$COLS | sed 's/ *$//'
}

entries stdio.txt 1 >entries1.txt
entries stdio.txt 2 >entries2.txt
[ "$(grep -c . entries1.txt)" -ge 5 ] || fail "only $(grep -c . entries1.txt) entries in the recording"
[ -s entries2.txt ] || fail "no entries of the second event: $(grep '^# Samples' stdio.txt)"
chain stdio.txt >chain1.txt
[ -s chain1.txt ] || fail "the first entry of --stdio has no callchain"

# the shell in the pane waits for commands; what perf report prints goes to the pane. TERM
# screen: its terminfo entry is in every ncurses install (ncurses-base), tmux-256color not.
# Text goes to the pane as it is: the pager has a test of its own (pager-progress.sh)
tm new-session -d -s t -x $COLS -y 50 "env TERM=screen PERF_PAGER=cat PS1='$ ' sh" ||
	fail "tmux cannot start a session"

# screen [-e]: the pane's text (-e: with its escapes), rows from 0, no trailing blanks
screen() {
	tm capture-pane -p $1 -t t | sed 's/ *$//'
}

# wait_screen ERE [SECONDS]: until a row of the pane matches (ASan perf loads slowly)
wait_screen() {
	tries=0
	while ! screen | grep -Eq -- "$1"; do
		tries=$((tries + 1))
		if [ $tries -ge $((${2:-30} * 10)) ]; then
			verbose "$(screen)"
			return 1
		fi
		sleep 0.1
	done
}

# keys KEY...: pressed in the pane (the checks after them wait for the screen to follow)
keys() {
	tm send-keys -t t "$@"
}

# settle CHECK...: until CHECK succeeds, 10 s at most: a loaded machine (the ASan build,
# other tests) can draw a key's effect late
settle() {
	tries=0
	until "$@"; do
		tries=$((tries + 1))
		[ $tries -ge 100 ] && return 1
		sleep 0.1
	done
}

# rows FIRST LAST: the screen's rows FIRST..LAST, the fold sign in column 0 blanked
rows() {
	screen | sed -n "$(($1 + 1)),$(($2 + 1))p" | sed 's/^[-+]/ /'
}

# selected: "ROW TEXT" of the entry or callchain row in reverse video (SGR 7: the selection)
selected() {
	screen -e | awk 'NR > 2 && /\033\[([0-9]*;)*7(;[0-9]*)*m/ { gsub(/\033\[[0-9;]*m/, ""); sub(/ *$/, "");
		sub(/^[-+]/, " "); print NR - 1 " " $0; exit }'
}

# rows_are FIRST LAST FILE: the screen's rows FIRST..LAST are FILE's lines
rows_are() {
	rows "$1" "$2" >got.txt
	cmp -s "$3" got.txt
}

# selected_is ROW TEXT: the selection bar is on ROW, showing TEXT
selected_is() {
	[ "$(selected)" = "$1 $2" ]
}

# expect_rows FIRST FILE WHAT: the screen from row FIRST on shows FILE's lines (those that fit)
expect_rows() {
	nr=$(grep -c '' "$2")
	[ "$nr" -gt $((48 - $1 + 1)) ] && nr=$((48 - $1 + 1))
	head -n "$nr" "$2" >want.txt
	if ! settle rows_are "$1" $(($1 + nr - 1)) want.txt; then
		verbose "$(diff want.txt got.txt | head -20)"
		fail "$3"
	fi
}

# expect_selected ROW TEXT WHAT: the selection bar settles on ROW, showing TEXT
expect_selected() {
	settle selected_is "$1" "$2" || fail "$3: $(selected)"
}

# shell TAG CMD: CMD in the pane's shell on a clear screen, then "TAG=" and its status (a
# tag of its own each time: the rows of the command before must not pass for its end)
shell() {
	tm send-keys -t t -l "clear; $2; echo \"$1=\$?\""
	tm send-keys -t t Enter
}

# start TAG ARGS: perf report ARGS, its status after "TAG="
start() {
	tag=$1
	shift
	shell "$tag" "'$PERF' report $*"
}

# quit_ok TAG KEY WHAT: KEY ends the browser started with TAG with status 0, off the
# alternate screen, the cursor shown and the shell's prompt usable
quit_ok() {
	keys "$2"
	wait_screen "^$1=[0-9]+" || fail "$3: perf report did not end"
	screen | grep -q "^$1=0$" || fail "$3: exit status $(screen | sed -n "s/^$1=//p")"
	[ "$(tm display -p -t t '#{alternate_on} #{cursor_flag}')" = "0 1" ] ||
		fail "$3: the terminal was left on the alternate screen or without its cursor"
	shell "$1-prompt" true
	wait_screen "^$1-prompt=0$" 10 || fail "$3: the shell's prompt does not answer"
}

# ---- the first screen: --stdio's entry lines, the first one selected
start q -i two.data
wait_screen "^Samples: .* of event 'task-clock', Event count \(approx\.\): [0-9]+" ||
	fail "no browser title on the screen: $(screen | head -3)"
expect_rows 2 entries1.txt "the first screen's entries differ from --stdio's"
[ "$(rows 1 1)" = "$(grep -m1 '^# Children' stdio.txt | sed 's/^# /  /; s/ *$//')" ] ||
	fail "the column names differ from --stdio's: $(rows 1 1)"
expect_selected 2 "$(sed -n 1p entries1.txt)" "the first entry is not selected"

# ---- Down moves the selection, Up back
keys Down
expect_selected 3 "$(sed -n 2p entries1.txt)" "Down did not select the second entry"
keys Up
expect_selected 2 "$(sed -n 1p entries1.txt)" "Up did not select the first entry again"

# ---- Enter unfolds the first entry's callchain as --stdio prints it; - folds it again
keys Enter
expect_rows 3 chain1.txt "Enter: the callchain differs from --stdio's"
expect_selected 2 "$(sed -n 1p entries1.txt)" "Enter moved the selection"
keys -- -
expect_rows 2 entries1.txt "-: the callchain did not fold"

# ---- / finds a symbol: the first entry from the fifth on whose name no entry before it
# (after the selected first one) holds
sed 's/.*\] //; s/ (inlined)$//' entries1.txt >syms.txt
k=$(awk 'NR > 1 { for (i = 2; i < NR; i++) if (index(s[i], $0)) next
		  if (NR >= 5) { print NR; exit } } { s[NR] = $0 }' syms.txt)
[ -n "$k" ] || fail "no symbol to search for in $(cat syms.txt)"
sym=$(sed -n "${k}p" syms.txt)
verbose "search: $sym, entry $k"
keys /
wait_screen '^Search symbol:' 5 || fail "/ shows no prompt"
tm send-keys -t t -l "$sym"
keys Enter
# the row it is on depends on the scrolling: its text is the entry's
found() {
	selected | grep -qF " $(sed -n "${k}p" entries1.txt)"
}
settle found || fail "/$sym did not select entry $k: $(selected)"
keys Home
expect_selected 2 "$(sed -n 1p entries1.txt)" "Home did not select the first entry"

# ---- d zooms into the DSO of the first entry from another DSO than the first one's; d again
# restores. The Shared Object column's place comes from --stdio's header dots.
cols=$(awk '/^# \.+/ { line = $0; pos = 1; n = 0
	while (match(substr(line, pos), /\.+/)) { n++; s = pos + RSTART - 1
		if (n == 4) { print s, RLENGTH; exit }; pos = s + RLENGTH } }' stdio.txt)
dso_start=${cols% *}
dso_len=${cols#* }
awk -v s="$dso_start" -v l="$dso_len" '{ d = substr($0, s, l); sub(/ +$/, "", d); print d }' \
	entries1.txt >dsos.txt
other=$(awk 'NR == 1 { first = $0 } $0 != first { print NR; exit }' dsos.txt)
if [ -z "$other" ] || [ "$other" -gt $ROWS ]; then
	not_tested "d: every entry on the first screen is of one DSO ($(sed -n 1p dsos.txt))"
else
	dso=$(sed -n "${other}p" dsos.txt)
	verbose "zoom: $dso, entry $other"
	keys Home
	i=1
	while [ $i -lt "$other" ]; do
		tm send-keys -t t Down
		i=$((i + 1))
	done
	keys d
	wait_screen "^Samples: .*, DSO: " 5 || fail "d: the title does not say the DSO"
	awk -v s="$dso_start" -v l="$dso_len" -v d="$dso" \
		'{ x = substr($0, s, l); sub(/ +$/, "", x) } x == d' entries1.txt >zoom.txt
	expect_rows 2 zoom.txt "d: the rows are not the entries of $dso"
	[ "$(rows $(($(grep -c '' zoom.txt) + 2)) 48 | grep -c .)" -eq 0 ] ||
		[ "$(grep -c '' zoom.txt)" -ge $ROWS ] || fail "d: rows of other DSOs remain"
	keys d
	wait_screen "^Samples: .*Event count \(approx\.\): [0-9]+$" 5 || fail "d again: still zoomed"
	expect_rows 2 entries1.txt "d again: the entries are not all back"
fi

# ---- H: the header as --header-only prints it; q back
"$PERF" report --header-only -i two.data 2>/dev/null | head -40 | cut -c1-$COLS |
	sed 's/ *$//' >header.txt
keys H
wait_screen '^perf\.data header' 5 || fail "H shows no header"
settle rows_are 1 "$(grep -c '' header.txt)" header.txt ||
	{ verbose "$(diff header.txt got.txt | head)"; fail "H: not the --header-only text"; }
keys q
wait_screen "^Samples: " 5 || fail "q does not leave the header"

# ---- ?: the keys
# help_lists: the help screen lists the keys the issue names
help_lists() {
	screen >help.txt
	for key in Enter '/' 'Tab / Shift-Tab' 'H, i' 'q, Esc, Ctrl-C'; do
		grep -qF "$key" help.txt || return 1
	done
}
keys '?'
wait_screen '^perf report browser keys' 5 || fail "? shows no help"
settle help_lists || fail "the help does not list every key: $(cat help.txt)"
keys q
wait_screen "^Samples: " 5 || fail "q does not leave the help"

# ---- Tab: the second event, Shift-Tab the first again
keys Tab
wait_screen "^Samples: .* of event 'cpu-clock'" 5 || fail "Tab does not show the second event"
expect_rows 2 entries2.txt "Tab: the second event's entries differ from --stdio's"
keys BTab
wait_screen "^Samples: .* of event 'task-clock'" 5 || fail "Shift-Tab does not go back"

# ---- resize: the smaller screen is drawn again, entries and status line in place
tm resize-window -t t -x 120 -y 20
wait_screen "^Press '\?' for help" 5 || fail "no status line after the resize"
cut -c1-120 entries1.txt | sed 's/ *$//' >small.txt
[ "$(screen | sed -n 20p | cut -c1-14)" = "Press '?' for " ] || fail "resize: the status line is not on the last row"
head -17 small.txt >want.txt
settle rows_are 2 18 want.txt || { verbose "$(diff want.txt got.txt)"; fail "resize: entries not redrawn"; }
tm resize-window -t t -x $COLS -y 50
wait_screen "^Press '\?' for" 5

# ---- q, Esc and Ctrl-C quit, status 0, terminal as before
quit_ok q q "q"
start esc -i two.data
wait_screen "^Samples: " || fail "no browser the second time"
quit_ok esc Escape "Esc"
start ctrlc -i two.data
wait_screen "^Samples: " || fail "no browser the third time"
quit_ok ctrlc C-c "Ctrl-C"

# ---- the other -g modes and orders: entries and the first callchain as --stdio prints
# them; then every key that folds, zooms, searches or scrolls, and a clean quit
p=0
for mode in "-g fractal" "-g flat" "-g folded" "-g callee" "-G" \
	    "--no-children -g graph,0,caller,address,period" "--no-children -g flat,0,count"; do
	p=$((p + 1))
	# shellcheck disable=SC2086 # the mode's words
	"$PERF" report --stdio -i two.data $mode >mode$p.txt 2>mode$p.err ||
		fail "perf report --stdio $mode failed: $(cat mode$p.err)"
	entries mode$p.txt 1 >mode$p.entries
	chain mode$p.txt >mode$p.chain
	start mode$p -i two.data "$mode"
	wait_screen "^Samples: " || fail "$mode: no browser"
	expect_rows 2 mode$p.entries "$mode: the entries differ from --stdio's"
	keys Enter
	expect_rows 3 mode$p.chain "$mode: the first callchain differs from --stdio's"
	keys E End PgUp Down Enter - + e c C Right Left t s d n / c a l l s Enter n d s t
	quit_ok mode$p q "$mode"
done

# ---- text on the terminal: from a pipe (upstream never browses one), --header-only. The
# screen keeps the text's end: the tip line of a report, the header's closing line
"$PERF" record -q -g -e task-clock -o - -- "$WORKLOAD_PERF" test -w calls 0.1 >pipe.data 2>rec.log ||
	fail "perf record -o - failed: $(tail -3 rec.log)"
p=0
for cmd in "'$PERF' report -i - <pipe.data" "cat pipe.data | '$PERF' report"; do
	p=$((p + 1))
	shell pipe$p "$cmd 2>pipe$p.err"
	wait_screen "^pipe$p=" || fail "$cmd did not end"
	screen | grep -q "^pipe$p=0$" ||
		fail "$cmd: $(screen | grep "^pipe$p="): $(head -3 pipe$p.err)"
	screen | grep -q '^# (' || fail "$cmd on a terminal printed no text: $(screen | tail -5)"
done
shell header "'$PERF' report --header-only -i two.data 2>/dev/null"
wait_screen '^header=' || fail "perf report --header-only did not end"
screen | grep -q '^# ========$' || fail "--header-only on a terminal printed no header: $(screen | tail -5)"

# ---- stdout no terminal: the --stdio text, with --tui too (as upstream)
"$PERF" report -i two.data >text.txt 2>text.err || fail "perf report to a file failed: $(cat text.err)"
grep -v '^# (Tip\|^# (Cannot load tips' text.txt >a.txt
grep -v '^# (Tip\|^# (Cannot load tips' stdio.txt >b.txt
cmp -s a.txt b.txt || fail "perf report to a file is not the --stdio text"
"$PERF" report --tui -i two.data >tui.out 2>tui.err || fail "--tui without a terminal failed: $(cat tui.err)"
grep -v '^# (Tip\|^# (Cannot load tips' tui.out >c.txt
cmp -s c.txt b.txt || fail "--tui without a terminal is not the --stdio text, as upstream prints it"
pass
