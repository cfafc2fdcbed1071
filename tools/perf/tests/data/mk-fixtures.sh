#!/bin/sh
# mk-fixtures.sh SRC: (re)makes tools/perf/tests/data/fixtures, the recordings the tests
# compare against (perf72/: golden recordings by upstream perf 7.2 with their DSOs and its
# outputs; real-defer/: deferred-callchain recordings of Linux 7.2), from an unpacked copy
# of them in SRC (SRC/perf72, SRC/real-defer). unpack-fixtures.sh is its inverse.
#
# How each file of SRC is kept, so that the repository stays small:
#   - a file equal to one the repository holds already, under demo/ (make demo shows the
#     same recordings) or tools/perf/tests/fuzz/corpus (the fuzzers' seeds), or to a fixture
#     stored as it is before it, is not stored again: a line "PATH FILE" in fixtures/links
#     names that copy;
#   - a .gz file, and a text file under 8 KiB (README, sources), is stored as it is;
#   - everything else as PATH.zst (zstd -19 --long), the distribution's DSOs of the symfs
#     trees (libc, libm, ld.so, dash, sleep) first reduced by reduce-dso.py:
#     their code and data zeroed, symbol tables, CFI and build-id notes kept. No test reads
#     their code: the tests' expected outputs are upstream's on the original files, and each
#     still passes on the reduced ones. The workloads' own binaries are kept whole (their
#     code is where the unwinder's decoder looks), and so are the debug files (no code).
# Re-running it on the same SRC gives the same files.
set -eu
[ $# = 1 ] && [ -d "$1/perf72" ] && [ -d "$1/real-defer" ] ||
	{ echo "usage: $0 SRC (a directory holding perf72/ and real-defer/)" >&2; exit 129; }
command -v zstd >/dev/null || { echo "mk-fixtures: zstd is not installed" >&2; exit 1; }
src=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
out=$here/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the checksum of every file the repository may share, to find the fixtures' copies of them
(cd "$top" && find demo tools/perf/tests/fuzz/corpus -type f ! -name README.md -exec sha256sum {} +) \
	>"$tmp/repo.sums"

mkdir "$tmp/new"
: >"$tmp/new/links"
(cd "$src" && find perf72 real-defer -type f | LC_ALL=C sort) | while read -r f; do
	sum=$(sha256sum <"$src/$f" | cut -d' ' -f1)
	same=$(awk -v s="$sum" '$1 == s { print $2; exit }' "$tmp/repo.sums")
	mkdir -p "$tmp/new/$(dirname "$f")"
	if [ -n "$same" ]; then
		echo "$f $same" >>"$tmp/new/links"
	elif [ "${f%.gz}" != "$f" ] ||
		{ [ "$(wc -c <"$src/$f")" -lt 8192 ] && grep -Iq . "$src/$f"; }; then
		cp "$src/$f" "$tmp/new/$f"
		# stored as it is: a later file equal to it (real-defer's sources) links to it
		echo "$sum tools/perf/tests/data/fixtures/$f" >>"$tmp/repo.sums"
	else
		in=$src/$f
		case $f in
		*/symfs/usr/lib/x86_64-linux-gnu/*.so* | */symfs/usr/bin/*)
			in=$tmp/reduced
			python3 "$here/reduce-dso.py" "$src/$f" "$in" ;;
		esac
		zstd -q -19 --long=27 --no-check "$in" -o "$tmp/new/$f.zst"
	fi
done
rm -rf "$out"
mv "$tmp/new" "$out"
echo "mk-fixtures: $out holds $(du -sk "$out" | cut -f1) KiB"
