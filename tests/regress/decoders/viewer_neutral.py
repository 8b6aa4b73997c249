#!/usr/bin/env python3
"""A test fixture: a battle .dat animation decoder in the manner of viewers
that keep a neutral scale: every frame's pose is complete, and a frame
without scale data gets 1.0 (1024) on every channel, where the engine
keeps whatever its skeleton bytes held. Values wrap to 16 bits as the
engine's fields do. That is its one planted difference.

usage: viewer_neutral.py EXAMPLES_DIR OUT_DIR FILE.dat...
"""
import struct
import sys

POSITION = (3, 6, 9, 16)
ROTATION = (3, 6, 8, 12)


def wrap(v):
    return (v + 0x8000) % 0x10000 - 0x8000


class Stream:
    """Reads LSB-first bit fields from a byte string."""

    def __init__(self, data, byte):
        self.data, self.byte, self.bit = data, byte, 0

    def read(self, width):
        word = int.from_bytes(self.data[self.byte:self.byte + 4].ljust(4, b"\0"), "little")
        value = (word >> self.bit) & ((1 << width) - 1)
        self.bit += width
        self.byte, self.bit = self.byte + self.bit // 8, self.bit % 8
        return value - (1 << width) if value >> (width - 1) else value


def decode_clip(data, start, bones):
    s = Stream(data, start + 1)
    root = [0, 0, 0]
    rot = [[0, 0, 0] for _ in range(bones)]
    for _ in range(data[start]):
        root = [wrap(v + s.read(POSITION[s.read(2) & 3])) for v in root]
        has_scale = s.read(1) & 1
        scales = [[1024] * 3 for _ in range(bones)]
        for r, sc in zip(rot, scales):
            for k in range(3):
                if s.read(1) & 1:
                    r[k] = wrap(r[k] + s.read(ROTATION[s.read(2) & 3]))
            for k in range(3 if has_scale else 0):
                sc[k] = wrap(s.read(16) + 1024) if s.read(1) & 1 else 1024
        yield {"root": list(root), "rot": [list(r) for r in rot], "scale": scales}


def main():
    sys.path.insert(0, sys.argv[1])
    from write_frames import write_frames

    for path in sys.argv[3:]:
        data = open(path, "rb").read()
        sections = struct.unpack_from("<I", data)[0]
        if sections not in (7, 8, 10, 11):
            continue
        table = struct.unpack_from("<%dI" % sections, data, 4)
        bones, anim = data[table[0]], table[2]
        offsets = struct.unpack_from("<%dI" % struct.unpack_from("<I", data, anim)[0], data, anim + 4)
        clips = [(a, list(decode_clip(data, anim + o, bones))) for a, o in enumerate(offsets)]
        write_frames(sys.argv[2], path.rsplit("/", 1)[-1], clips)


main()
