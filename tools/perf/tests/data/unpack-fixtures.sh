#!/bin/sh
# unpack-fixtures.sh NAME DEST: unpacks the fixture set NAME (perf72 or real-defer, see
# mk-fixtures.sh) into DEST/NAME, as the tests read it: PATH.zst decompressed into PATH, the
# files fixtures/links names copied from where the repository holds them (demo/, the fuzz
# corpus), everything else copied. Copies, not links:
# upstream perf runs chrooted and sees the tree through a bind mount of /.
# Done once per DEST: a second call finds DEST/NAME/.unpacked and does nothing.
# Exit 0, or 1 with a message on stderr.
set -u
[ $# = 2 ] || { echo "usage: $0 NAME DEST" >&2; exit 1; }
name=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
in=$here/fixtures
out=$2/$name
[ -f "$out/.unpacked" ] && exit 0
case "$name" in
*/*|.*|'') echo "unpack-fixtures: no fixture set '$name'" >&2; exit 1 ;;
esac
[ -d "$in/$name" ] || { echo "unpack-fixtures: no fixture set $in/$name" >&2; exit 1; }
command -v zstd >/dev/null || { echo "unpack-fixtures: zstd is not installed" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out" && cp -R "$in/$name/." "$out/" || exit 1
find "$out" -name '*.zst' -exec zstd -q -d --long=27 --rm {} + || {
	echo "unpack-fixtures: cannot decompress $in/$name" >&2
	exit 1
}
while read -r path from; do
	case "$path" in
	"$name"/*) mkdir -p "$(dirname "$2/$path")" && cp "$top/$from" "$2/$path" ||
		{ echo "unpack-fixtures: cannot copy $from" >&2; exit 1; } ;;
	esac
done <"$in/links"
: >"$out/.unpacked"
