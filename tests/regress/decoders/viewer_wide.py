#!/usr/bin/env python3
"""A test fixture: a battle .dat animation decoder written the way public
viewers write theirs, poses per frame with Python's unbounded integers.

Its one planted difference from the engine: no 16-bit wrap (a rotation
summed past 32767 stays 32768 and up; a scale payload 0x7C00 + 1024 is
32768, where the engine's field holds -32768). Frames without scale data
carry no "scale" (nothing to compare). Writes <dat>.frames.jsonl through
examples/write_frames.py.

usage: viewer_wide.py EXAMPLES_DIR OUT_DIR FILE.dat...
"""
import struct
import sys


class Bits:
    def __init__(self, data, pos):
        self.data, self.pos = data, pos * 8

    def take(self, n):
        """n bits, LSB first, sign-extended from n bits."""
        v = 0
        for i in range(n):
            byte = self.data[(self.pos + i) >> 3]
            v |= ((byte >> ((self.pos + i) & 7)) & 1) << i
        self.pos += n
        return v - (1 << n) if v & (1 << (n - 1)) else v


def position(b):
    return b.take((3, 6, 9, 16)[b.take(2) & 3])


def rotation(b):
    if not b.take(1) & 1:
        return 0
    return b.take((3, 6, 8, 12)[b.take(2) & 3])


def scale(b):
    return b.take(16) + 1024 if b.take(1) & 1 else 1024


def clips_of(data):
    count = struct.unpack_from("<I", data, 0)[0]
    sections = struct.unpack_from("<%dI" % count, data, 4)
    bones = data[sections[0]]
    anim = sections[2]
    n = struct.unpack_from("<I", data, anim)[0]
    for a, off in enumerate(struct.unpack_from("<%dI" % n, data, anim + 4)):
        start = anim + off
        b = Bits(data, start + 1)
        root, rot, frames = [0, 0, 0], [[0, 0, 0] for _ in range(bones)], []
        for _ in range(data[start]):
            root = [root[k] + position(b) for k in range(3)]
            with_scale = b.take(1) & 1
            rot, scales = [list(r) for r in rot], []
            for r in rot:  # per bone: its rotation deltas, then its scales
                for k in range(3):
                    r[k] += rotation(b)
                if with_scale:
                    scales.append([scale(b) for _ in range(3)])
            pose = {"root": root, "rot": rot}
            if with_scale:
                pose["scale"] = scales
            frames.append(pose)
        yield a, frames


def main():
    sys.path.insert(0, sys.argv[1])
    from write_frames import write_frames

    for path in sys.argv[3:]:
        with open(path, "rb") as f:
            data = f.read()
        name = path.rsplit("/", 1)[-1]
        if struct.unpack_from("<I", data, 0)[0] not in (7, 8, 10, 11):
            continue  # no skeleton or animations
        write_frames(sys.argv[2], name, clips_of(data))


main()
