#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
reduce-dso.py SRC DST: DST = the ELF file SRC with the bytes of every allocated PROGBITS
section zeroed but those symbol resolution and PLT names need (and .eh_frame, for DWARF
unwinding): the file keeps its layout, build id, symbol tables and CFI, and a compressor
makes the zeros nothing. Non-ELF64 files are copied as they are.

Used by corpus/make-corpus.sh and mk-fixtures.sh for the --symfs trees of the tests.
"""
import struct
import sys

KEEP = (b'.dynsym', b'.dynstr', b'.symtab', b'.strtab', b'.plt', b'.plt.got', b'.plt.sec',
        b'.rela.plt', b'.rela.dyn', b'.got', b'.got.plt', b'.eh_frame', b'.eh_frame_hdr',
        b'.gnu_debuglink', b'.interp', b'.dynamic', b'.gnu.version', b'.gnu.version_r',
        b'.gnu.version_d', b'.gnu.hash', b'.hash', b'.init', b'.fini')
SHT_PROGBITS = 1
SHF_ALLOC = 2


def reduce(b):
    if b[:4] != b'\x7fELF' or b[4] != 2:
        return
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)

    def sh(i):
        return struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize)
    stro = sh(shstrndx)[4]
    for i in range(shnum):
        name, typ, flags, _, off, size = sh(i)[:6]
        n = bytes(b[stro + name:b.index(b'\0', stro + name)])
        if typ == SHT_PROGBITS and flags & SHF_ALLOC and n not in KEEP and \
                not n.startswith(b'.note'):
            b[off:off + size] = bytes(size)


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: reduce-dso.py SRC DST')
    with open(sys.argv[1], 'rb') as f:
        b = bytearray(f.read())
    reduce(b)
    with open(sys.argv[2], 'wb') as f:
        f.write(b)


main()
