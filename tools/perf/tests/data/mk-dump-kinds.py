#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
Writes dump-kinds.data, the input of the dump_records test: the header, attrs and features
of the perf72 fixture's data/calls.fp.data (fixtures/, see unpack-fixtures.sh) with a short data section holding one record
of every kind `perf script -D` decodes (side-band, samples, perf's own records, and records
perf 6.1 never writes: THROTTLE, LOST_SAMPLES, KSYMBOL, SWITCH, NAMESPACES, TEXT_POKE, ...).

    ./unpack-fixtures.sh perf72 /tmp/fx
    python3 mk-dump-kinds.py /tmp/fx/perf72/data/calls.fp.data dump-kinds.data

The expected output next to it is upstream perf 7.2's, see expected/README.
"""
import struct
import sys


def pad8(b):
    return b + b'\0' * ((8 - len(b) % 8) % 8)


def rec(type_, misc, body, trailer=b''):
    payload = pad8(body) + trailer
    return struct.pack('<IHH', type_, misc, 8 + len(payload)) + payload


def main(src, dst):
    d = open(src, 'rb').read()
    ao, asz, do, dsz = struct.unpack_from('<4Q', d, 24)
    feats = struct.unpack_from('<4Q', d, 72)
    nfeat = sum(bin(x).count('1') for x in feats)
    recs = []
    off = do
    while off < do + dsz:
        size = struct.unpack_from('<H', d, off + 6)[0]
        recs.append(d[off:off + size])
        off += size
    types = [struct.unpack_from('<I', r, 0)[0] for r in recs]
    init = types.index(82)                      # FINISHED_INIT
    first_sample = types.index(9)
    pid, tid, time = struct.unpack_from('<IIQ', recs[first_sample], 16)

    def tr(dt):                                 # sample_id trailer: TID, TIME
        return struct.pack('<IIQ', pid, tid, time + dt)

    def comm16(s):
        return s.encode().ljust(16, b'\0')

    user = [
        rec(73, 0, struct.pack('<Q', 3) + struct.pack('<Q', 101) + comm16('a') +
            struct.pack('<Q', 102) + comm16('b') + struct.pack('<q', -1) + comm16('c')),
        rec(74, 0, struct.pack('<HH', 0, 4) + struct.pack('<4H', 3, 1, 2, 7)),
        rec(78, 0, struct.pack('<QQ', 3, 760) + struct.pack('<HHHHH', 0, 2, 5, 9, 0)),
        rec(78, 0, struct.pack('<QQQ', 9, 760, 0)),
        rec(69, 0, struct.pack('<Q', 1) + struct.pack('<QQqq', 760, 0, -1, pid) +
            struct.pack('<qQ', -1, 7)),
        rec(79, 0, struct.pack('<QQQ', 10, 20, 30)),
        rec(72, 0, struct.pack('<IIIIIIQ', 1, 2, 3, 4, 5, 0, 0x1234) + b'msg\0' * 16),
        rec(65, 0, struct.pack('<Q', 5) + b'x' * 64),
        rec(67, 2, struct.pack('<i', pid) + bytes(range(20)) + struct.pack('<BBH', 20, 0, 0) +
            b'/tmp/w/calls\0'),
        rec(76, 0, struct.pack('<QIIQQQ', 760, 0, 0, 1, 2, 3)),
        rec(75, 0, struct.pack('<Q', 1) + struct.pack('<QQ', 1, 2)),
    ]
    kernel = [
        rec(5, 0, struct.pack('<QQQ', time + 1, 760, 760), tr(1)),
        rec(6, 0, struct.pack('<QQQ', time + 2, 760, 760), tr(2)),
        rec(2, 0, struct.pack('<QQ', 760, 42), tr(3)),
        rec(13, 0, struct.pack('<Q', 7), tr(4)),
        rec(13, 1 << 15, struct.pack('<Q', 8), tr(5)),
        rec(17, 0, struct.pack('<QIHH', 0xffffffffc0001000, 0x80, 1, 0) + b'bpf_prog_abc\0', tr(6)),
        rec(18, 0, struct.pack('<HHI', 1, 0, 33) + bytes(range(1, 9)), tr(7)),
        rec(14, 0, b'', tr(8)),
        rec(14, (1 << 13) | (1 << 14), b'', tr(9)),
        rec(15, 1 << 13, struct.pack('<II', 123, 124), tr(10)),
        rec(15, 0, struct.pack('<II', 5, 6), tr(11)),
        rec(16, 0, struct.pack('<IIQ', pid, tid, 2) + struct.pack('<4Q', 3, 0xf0000001, 4, 0xf0000002), tr(12)),
        rec(19, 0, struct.pack('<Q', 55) + b'/user.slice\0', tr(13)),
        rec(11, 0, struct.pack('<QQQ', 0x1000, 0x200, 3), tr(14)),
        rec(12, 0, struct.pack('<II', pid, tid), tr(15)),
        rec(21, 0, struct.pack('<Q', 0xabc), tr(16)),
        # an address no map covers: the line needs no kernel symbols
        rec(20, 0, struct.pack('<QHH', 0xffffffffa0000000, 2, 18) + b'\x90\x90' + bytes(range(18)), tr(17)),
        rec(8, 0, struct.pack('<IIQQQ', pid, tid, 12345, 760, 9), tr(18)),
    ]
    # side-band up to and including two samples, the crafted kernel records, the exit
    samples = [i for i, t in enumerate(types) if t == 9][:3]
    body = recs[:init] + user + [recs[init]] + recs[init + 1:samples[-1] + 1] + kernel
    body += [r for r, t in zip(recs, types) if t == 4] + [rec(68, 0, b'')]
    data = b''.join(body)
    out = bytearray(d[:do])
    struct.pack_into('<Q', out, 48, len(data))
    out += data
    tab = do + dsz
    delta = len(data) - dsz
    for i in range(nfeat):
        o, s = struct.unpack_from('<QQ', d, tab + 16 * i)
        out += struct.pack('<QQ', o + delta, s)
    out += d[tab + 16 * nfeat:]
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
