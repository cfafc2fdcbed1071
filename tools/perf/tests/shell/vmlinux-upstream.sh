#!/bin/sh
# perf script and report -k/--vmlinux: kernel symbols from a vmlinux ELF, relocated, equal upstream perf 7.2's
. "$(dirname "$0")"/lib.sh
#
# No vmlinux exists here, so one is made: an ET_EXEC x86-64 ELF whose .text and .init.text
# (NOBITS, as in a debug vmlinux) hold the text symbols of the corpus' kallsyms, renamed
# (v_NAME, so a frame shows which source named it) and 16 MB lower than where the recording
# had them (a KASLR move that the recorded _text must undo), with the recorded kernel build
# id. Then ours and upstream's outputs with -k are compared byte for byte: .text frames in
# [kernel.kallsyms], .init.text ones in [kernel.kallsyms].init.text, callers' symoff and -v
# at upstream's file offsets; a vmlinux of another build id, one without a build id and a
# file that is no ELF leave the kernel's frames [unknown], as upstream (neither falls back on
# kallsyms); --kallsyms wins over -k.
#
# The upstream-perf wrapper always hands upstream a --kallsyms, which would win: upstream is
# run in its tree with chroot directly (root), after one wrapper call has mounted what it needs.
# The vmlinux is put at the same path inside the tree (its /tmp) and outside, because -v and
# dsoff print that path (one place when the tree's /tmp is this machine's).

need_perf
need_upstream_perf
need_cmd python3
[ "$(id -u)" = 0 ] || skip "not root: upstream perf is run with chroot"
T=${UPSTREAM_PERF_DIR:-/var/cache/upstream-perf}/sid
"$UPSTREAM_PERF" --version >/dev/null 2>&1 || skip "upstream perf could not be set up"
[ -x "$T/usr/bin/perf" ] || skip "no upstream perf tree at $T"
unpack_corpus
# the same path in upstream's tree and here
V=$TMPDIR/vm
inside=$T$V
# the wrapper mounts this machine's /tmp as the tree's: then TMPDIR is there already
if ! [ "$T$TMPDIR" -ef "$TMPDIR" ]; then
	mkdir "$T$TMPDIR" || fail "cannot make $T$TMPDIR"
	trap 'rm -rf "$T$TMPDIR"; [ -z "$lib_standalone" ] || rm -rf "$TMPDIR"' EXIT
fi
mkdir -p "$V" "$inside" || fail "cannot make $inside"

# mkvmlinux KALLSYMS BUILD_ID DELTA OUT (BUILD_ID "" for none)
cat >mkvmlinux.py <<'EOF'
import struct, sys
ks, bid, delta, out = sys.argv[1], bytes.fromhex(sys.argv[2]), int(sys.argv[3], 0), sys.argv[4]
keep = {'_text', '_stext', '_etext', '_sinittext', '_einittext'}
syms, marks = [], {}
for line in open(ks):
    f = line.split()
    if len(f) != 3:
        continue
    a, t, n = int(f[0], 16), f[1], f[2]
    if n in keep:
        marks[n] = a
    if t in 'Tt':
        syms.append((a, n))
text = (marks['_stext'], marks['_etext'])
init = (marks['_sinittext'], marks['_einittext'])
syms.sort()
strtab, strlen = [b'\0'], 1
entries = [bytes(24)]
for i, (a, n) in enumerate(syms):
    if text[0] <= a < text[1]:
        shndx, end = 1, text[1]
    elif init[0] <= a < init[1]:
        shndx, end = 2, init[1]
    else:
        continue
    nxt = syms[i + 1][0] if i + 1 < len(syms) else end
    marker = n in keep
    name = (n if marker else 'v_' + n).encode() + b'\0'
    off = strlen
    strtab.append(name)
    strlen += len(name)
    entries.append(struct.pack('<IBBHQQ', off, (1 << 4) | (0 if marker else 2), 0, shndx,
                               a - delta, 0 if marker else max(0, min(nxt, end) - a)))
symtab, strtab = b''.join(entries), b''.join(strtab)
note = struct.pack('<III', 4, len(bid), 3) + b'GNU\0' + bid if bid else b''
shstr = b'\0.text\0.init.text\0.symtab\0.strtab\0.shstrtab\0.notes\0'
body, parts = b'', {}
for key, data in (('notes', note), ('symtab', symtab), ('strtab', strtab), ('shstr', shstr)):
    body += bytes(-(64 + len(body)) % 8)
    parts[key] = (64 + len(body), len(data))
    body += data
body += bytes(-(64 + len(body)) % 8)
def sh(name, typ, flags, addr, offset, size, link=0, info=0, align=1, entsize=0):
    return struct.pack('<IIQQQQIIQQ', shstr.index(name + b'\0') if name else 0, typ, flags,
                       addr, offset, size, link, info, align, entsize)
shdrs = [sh(b'', 0, 0, 0, 0, 0),
         sh(b'.text', 8, 6, text[0] - delta, 0x1000, text[1] - text[0], align=4096),
         sh(b'.init.text', 8, 6, init[0] - delta, 0x1000, init[1] - init[0], align=16),
         sh(b'.symtab', 2, 0, 0, *parts['symtab'], 4, 1, 8, 24),
         sh(b'.strtab', 3, 0, 0, *parts['strtab']),
         sh(b'.shstrtab', 3, 0, 0, *parts['shstr']),
         sh(b'.notes', 7, 2, 0, *parts['notes'], align=4)]
ehdr = b'\x7fELF\x02\x01\x01' + bytes(9) + struct.pack('<HHIQQQIHHHHHH', 2, 62, 1,
       text[0] - delta, 0, 64 + len(body), 0, 64, 56, 0, 64, len(shdrs), 5)
open(out, 'wb').write(ehdr + body + b''.join(shdrs))
EOF

bid=$(chroot "$T" perf buildid-list -i "/host$C/sys.data" 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
[ -n "$bid" ] || fail "no kernel build id in $C/sys.data"
python3 mkvmlinux.py kallsyms "$bid" 0x1000000 "$V/vmlinux" || fail "cannot make a vmlinux"
python3 mkvmlinux.py kallsyms 00112233445566778899aabbccddeeff00112233 0x1000000 "$V/otherid" ||
	fail "cannot make a vmlinux"
python3 mkvmlinux.py kallsyms "" 0x1000000 "$V/noid" || fail "cannot make a vmlinux"
echo "not an ELF file" >"$V/notelf"
[ "$V" -ef "$inside" ] || cp "$V"/* "$inside/" || fail "cannot copy the vmlinux files into $inside"

failed=""
n=0
# compare FILE VMLINUX CMD...: ours and upstream's stdout and status (the Tip line aside)
compare() {
	data=$C/$1.data kfile=$V/$2
	shift 2
	n=$((n + 1))
	"$PERF" "$@" -k "$kfile" --symfs="$TMPDIR/symfs" -i "$data" >got.out 2>got.err
	rc=$?
	chroot "$T" perf "$@" -k "$kfile" --symfs="/host$TMPDIR/symfs" -i "/host$data" \
		>want.out 2>want.err
	urc=$?
	grep -v -E '^# \((Tip:|Cannot load tips)' want.out >want
	grep -v -E '^# \((Tip:|Cannot load tips)' got.out >got
	echo "exit $urc" >>want
	echo "exit $rc" >>got
	if ! cmp -s want got; then
		verbose "--- $*, -k $kfile: upstream vs ours ---"
		verbose "$(diff want got | head -10)"
		failed="$failed [$data -k $kfile $*]"
	fi
}
for f in sys fp z; do
	compare $f vmlinux script
	compare $f vmlinux script -F ip,sym,symoff,dso,dsoff
	compare $f vmlinux report --stdio --children
	compare $f vmlinux report --stdio -v --children
	compare $f vmlinux report --stdio --children --sort dso,symoff -g none
done
# what the comparisons cover: relocated .text and .init.text frames
"$PERF" script -k "$V/vmlinux" --symfs="$TMPDIR/symfs" -i "$C/sys.data" >frames
expect_grep ' v_[a-z_]+\+0x[0-9a-f]+ \(\[kernel\.kallsyms\]\)$' frames "no .text frame from the vmlinux"
expect_grep ' v_start_kernel\+0x[0-9a-f]+ \(\[kernel\.kallsyms\]\.init\.text\)$' frames \
	"no .init.text frame in [kernel.kallsyms].init.text"
for vm in otherid noid notelf; do
	compare fp $vm script
	compare fp $vm report --stdio --no-children
	# ours says why (upstream says nothing)
	expect_grep "^vmlinux $V/$vm: .*: kernel symbols unknown$" got.err "-k $vm: no reason said"
done
"$PERF" script -k "$V/otherid" --symfs="$TMPDIR/symfs" -i "$C/fp.data" | grep -q 'v_' &&
	fail "a vmlinux of another build id named kernel frames"
# --kallsyms wins over -k
"$PERF" script -k "$V/vmlinux" --kallsyms=kallsyms --symfs="$TMPDIR/symfs" -i "$C/fp.data" |
	grep -q ' v_' && fail "-k won over --kallsyms"
# a -k file that is not there: upstream's line and status (script 255, report -EINVAL)
for cmd in script report; do
	"$PERF" $cmd -k "$V/missing" -i "$C/fp.data" >/dev/null 2>err
	rc=$?
	chroot "$T" perf $cmd -k "$V/missing" -i "/host$C/fp.data" >/dev/null 2>uerr
	urc=$?
	[ $rc = $urc ] || fail "$cmd -k missing: exit $rc, upstream $urc"
	cmp -s uerr err || fail "$cmd -k missing: $(cat err), upstream: $(cat uerr)"
done
verbose "$n comparisons"
[ -z "$failed" ] || fail "differs from upstream perf 7.2 for:$failed"
exit 0
