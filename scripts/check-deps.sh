#!/bin/sh
# check-deps.sh - feature detection: names each missing piece of the build (and, asked, of
# the tests) with the package that provides it, on Debian/Ubuntu and on Fedora.
#
# Everything is probed by doing it: a library counts when a program using its header links
# against it, so a header without its development link (libstdc++ with gcc alone) is
# caught here and not as `ld: cannot find -lstdc++` at the end of the build.
#
# Usage: scripts/check-deps.sh [--asan] [--test] [--packages]
#	--asan		also the ASan+UBSan runtime (make asan)
#	--test		also --asan and the commands the test suite runs (make test)
#	--packages	print only the missing packages' names for this machine's package
#			manager (apt-get: Debian names, else Fedora's), one line; for
#			install-deps.sh
# CC is the compiler to probe (default cc, as the Makefile). Exit status 1 when anything
# is missing.
asan=
tests=
list=
for arg; do
	case $arg in
	--asan) asan=1 ;;
	--test) asan=1 tests=1 ;;
	--packages) list=1 ;;
	*) echo "check-deps: unknown option: $arg" >&2; exit 1 ;;
	esac
done
cc=${CC:-cc}
if command -v apt-get >/dev/null 2>&1 || ! command -v dnf >/dev/null 2>&1; then
	debian=1
else
	debian=
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
missing=""
packages=""

# missing WHAT DEBIAN-PACKAGE FEDORA-PACKAGE: one line per missing piece
missing() {
	if [ -z "$list" ]; then
		echo "error: $1 not found: install $2 (Debian/Ubuntu) or $3 (Fedora)" >&2
	fi
	missing="$missing $2"
	if [ -n "$debian" ]; then
		packages="$packages $2"
	else
		packages="$packages $3"
	fi
}

# uniq_words WORD...: the words, each once, in order (no awk: it may be what is missing)
uniq_words() {
	out=
	for w; do
		case " $out " in
		*" $w "*) ;;
		*) out="$out $w" ;;
		esac
	done
	echo "${out# }"
}

# links CODE ARGS...: whether a C program CODE builds and links with ARGS
links() {
	printf '%b\n' "$1" >"$tmp/probe.c"
	shift
	"$cc" "$tmp/probe.c" -o "$tmp/probe" "$@" >"$tmp/probe.log" 2>&1
}

have_cc=
if ! command -v "$cc" >/dev/null 2>&1; then
	missing "a C compiler ($cc)" gcc gcc
elif ! links '#include <stdio.h>\nint main(void) { return puts("") < 0; }'; then
	missing "the C library's development files (stdio.h, crt1.o)" libc6-dev glibc-devel
else
	have_cc=1
fi
have_pc=
if command -v pkg-config >/dev/null 2>&1; then
	have_pc=1
else
	missing "pkg-config" pkg-config pkgconf-pkg-config
fi

# lib PKG-CONFIG-NAME HEADER -lNAME DEBIAN FEDORA [EXTRA-CFLAGS]
lib() {
	cflags=$6
	libs=$3
	if [ -n "$have_pc" ] && pkg-config --exists "$1" 2>/dev/null; then
		cflags="$(pkg-config --cflags "$1") $cflags"
		libs=$(pkg-config --libs "$1")
	fi
	if [ -n "$have_cc" ]; then
		# shellcheck disable=SC2086 # word splitting of the flags is meant
		links "#include <$2>\nint main(void) { return 0; }" $cflags $libs && return
		missing "$1 ($2, $3)" "$4" "$5"
	elif ! [ -e "/usr/include/$2" ]; then
		missing "$1 ($2)" "$4" "$5"
	fi
}
lib libelf libelf.h -lelf libelf-dev elfutils-libelf-devel
lib libdw elfutils/libdw.h -ldw libdw-dev elfutils-devel
lib libzstd zstd.h -lzstd libzstd-dev libzstd-devel
lib libtraceevent traceevent/event-parse.h -ltraceevent libtraceevent-dev libtraceevent-devel \
	-I/usr/include/traceevent
# perf report's browser (tools/perf/ui/tui.c): the wide-character curses
lib ncursesw curses.h -lncursesw libncurses-dev ncurses-devel
# perf data convert --to-pprof: profile.proto's encoder (protobuf-c, its compiler protoc-c
# generates the code at build time) and gzip (zlib)
lib libprotobuf-c protobuf-c/protobuf-c.h -lprotobuf-c libprotobuf-c-dev protobuf-c-devel
command -v protoc-c >/dev/null 2>&1 ||
	missing "protoc-c (profile.proto's C code)" protobuf-c-compiler protobuf-c-compiler
lib zlib zlib.h -lz zlib1g-dev zlib-devel
# C++ demangling, as perf does it: the C++ runtime's development link, which comes with
# g++, not with gcc
# (without a compiler there is no g++ either: named now, so one install round does)
if [ -z "$have_cc" ] || ! links 'int main(void) { return 0; }' -lstdc++; then
	missing "libstdc++'s development files (-lstdc++)" g++ "gcc-c++ libstdc++-devel"
fi
if [ -n "$asan" ] && [ -n "$have_cc" ] &&
   ! links 'int main(void) { return 0; }' -fsanitize=address,undefined; then
	v=$("$cc" -dumpversion 2>/dev/null | cut -d. -f1)
	missing "the ASan/UBSan runtime ($cc -fsanitize=address,undefined)" "libgcc-$v-dev" \
		"libasan libubsan"
fi

# cmd COMMAND DEBIAN FEDORA: a command the tests run
cmd() {
	command -v "$1" >/dev/null 2>&1 || missing "the $1 command" "$2" "$3"
}
if [ -n "$tests" ]; then
	# upstream's expected outputs and the compressed fixtures are read with these
	cmd zstd zstd zstd
	cmd gzip gzip gzip
	# the ELF-symbols test builds, strips and splits its own DSOs
	cmd gcc gcc gcc
	cmd objcopy binutils binutils
	cmd strip binutils binutils
	# the shell tests and demo.sh
	cmd awk mawk gawk
	cmd cmp diffutils diffutils
	cmd diff diffutils diffutils
	cmd timeout coreutils coreutils
	# report-tui.sh drives perf report's browser in a tmux pane
	cmd tmux tmux tmux
	# pager-progress.sh gives perf a terminal (a pty) with script(1)
	cmd script bsdutils util-linux-script
	# flamegraph-browser.sh: the page in headless chromium, driven by node (puppeteer-core,
	# which make test-deps puts in /var/cache/perf-test-node)
	cmd chromium chromium chromium
	cmd node nodejs nodejs
	cmd npm npm npm
	# pprof-go.sh: Go's pprof reads what perf data convert --to-pprof writes
	cmd go golang-go golang
fi

if [ -n "$list" ]; then
	# shellcheck disable=SC2086 # a list of words
	[ -z "$packages" ] || uniq_words $packages
elif [ -n "$missing" ]; then
	# shellcheck disable=SC2086
	echo "Run 'make deps' as root (or: apt-get install $(uniq_words $missing))." >&2
fi
[ -z "$missing" ]
