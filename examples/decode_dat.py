#!/usr/bin/env python3
"""Decode FF8 battle .dat animations and print Trace JSON Lines v1.

An independent decoder for checking with ff8diff, written from the engine
semantics described in ref/README.md ("Semantics implemented") with the
Python standard library only. Its output is the format described in
docs/guide.md, the one `ff8diff check --against` reads:

    python3 examples/decode_dat.py corpus/*.dat --mode all --out mine/
    ff8diff check --traces golden/ --against mine/

One line per engine call on one clip: StartClip (tick 0), then
Battle_ReadAnimation per tick up to and including the first call that
returns 1. Every clip starts from the skeleton bytes as loaded from its
file, with the AnimCmd zeroed but for the mode's flag bits.
"""

import argparse
import json
import os
import struct
import sys

MODES = {"normal": 0x00, "slow": 0x01, "fast": 0x02, "slow+fast": 0x03}
SLOW, FAST = 0x01, 0x02

# Width tables read from the executable's data (4 bytes each).
POSITION_WIDTHS = (3, 6, 9, 16)
ROTATION_WIDTHS = (3, 6, 8, 12)

# Section count -> (kind name, holds a skeleton and animations).
KINDS = {
    11: ("monster", True),
    7: ("body", True),
    10: ("edea", True),
    8: ("weapon", True),
    5: ("reduced_weapon", False),
    2: ("no_model", False),
}

SKELETON, ANIMATION = 0, 2
SKEL_HEADER, BONE_SIZE = 16, 48
MAX_TICKS = 1024


def s16(v):
    """Wraps an integer to a signed 16-bit value."""
    v &= 0xFFFF
    return v - 0x10000 if v & 0x8000 else v


def half(v):
    """C's v / 2 on a negative value rounds toward zero."""
    return -((-v) // 2) if v < 0 else v // 2


class DatError(Exception):
    pass


class Cursor:
    """Byte position in the whole file plus a bit offset kept in 0..7."""

    def __init__(self, data, pos, bit):
        self.data = data
        self.pos = pos
        self.bit = bit

    def byte(self, i):
        # Past the end of the file the engine reads zeros.
        return self.data[i] if 0 <= i < len(self.data) else 0

    def bits(self, n):
        """n bits LSB first from a 3-byte load, sign-extended from n bits."""
        p = self.pos
        if p * 8 + self.bit + n > len(self.data) * 8:
            raise DatError("read past the end of the file at byte %d bit %d" % (p, self.bit))
        word = self.byte(p) | self.byte(p + 1) << 8 | self.byte(p + 2) << 16
        v = (word >> self.bit) & ((1 << n) - 1)
        if v & (1 << (n - 1)):
            v -= 1 << n
        total = self.bit + n
        self.pos += total >> 3
        self.bit = total & 7
        return s16(v)

    def position(self):
        return self.bits(POSITION_WIDTHS[self.bits(2) & 3])

    def rotation(self):
        if self.bits(1) == 0:
            return 0
        return self.bits(ROTATION_WIDTHS[self.bits(2) & 3])

    def scale(self):
        if self.bits(1) == 0:
            return 0x400
        return s16(self.bits(16) + 0x400)


class Model:
    def __init__(self, name, data):
        self.name = os.path.basename(name)
        self.data = data
        size = len(data)
        if size < 4:
            raise DatError("shorter than a section count")
        (n,) = struct.unpack_from("<I", data, 0)
        if n not in KINDS:
            raise DatError("%d sections: not a battle model file" % n)
        if 4 + 4 * (n + 1) > size:
            raise DatError("section table runs past the end")
        offs = struct.unpack_from("<%dI" % (n + 1), data, 4)
        if offs[n] != size or any(offs[i] > offs[i + 1] for i in range(n)):
            raise DatError("section offsets out of order or past the end")
        self.kind, self.has_model = KINDS[n]
        if not self.has_model:
            return
        self.skel_off = offs[SKELETON]
        self.bones = data[self.skel_off]
        if self.skel_off + SKEL_HEADER + self.bones * BONE_SIZE > offs[SKELETON + 1]:
            raise DatError("skeleton larger than its section")
        self.anim_off = offs[ANIMATION]
        if self.anim_off + 4 > offs[ANIMATION + 1]:
            raise DatError("animation section too short")
        (count,) = struct.unpack_from("<I", data, self.anim_off)
        if self.anim_off + 4 + 4 * count > offs[ANIMATION + 1]:
            raise DatError("animation offsets past their section")
        self.clip_start = []
        for i in range(count):
            (o,) = struct.unpack_from("<I", data, self.anim_off + 4 + 4 * i)
            if self.anim_off + o >= offs[ANIMATION + 1]:
                raise DatError("clip %d starts past its section" % i)
            self.clip_start.append(self.anim_off + o)

    def load_skeleton(self):
        """Flag byte, root and the bones' rotations and scales as in the file."""
        d, o = self.data, self.skel_off
        flag = d[o + 1]
        root = list(struct.unpack_from("<3h", d, o + 8))
        rot, scale = [], []
        for b in range(self.bones):
            at = o + SKEL_HEADER + b * BONE_SIZE
            rot.append(list(struct.unpack_from("<3h", d, at + 4)))
            scale.append(list(struct.unpack_from("<3h", d, at + 0x0A)))
        return {"flag": flag, "root": root, "rot": rot, "scale": scale}


class Decoder:
    """StartClip and Battle_ReadAnimation on one model's skeleton state."""

    cursor = Cursor  # the bit reader; a subclass may read differently

    def __init__(self, model, clip, flags):
        self.m = model
        self.clip = clip
        self.start = model.clip_start[clip]
        self.sk = model.load_skeleton()
        # AnimCmd: flags, s16 byte offset, s16 bit offset, u8 frame, u8 total.
        self.flags, self.off, self.bit, self.frame, self.total = flags, 0, 0, 0, 0

    def start_clip(self):
        self.frame, self.off, self.bit = 0, 1, 0
        self.flags &= 0xF3
        n = self.m.data[self.start]
        self.total = (2 * n - 1) & 0xFF if self.flags & SLOW else n
        self.sk["root"] = [0, 0, 0]
        self.sk["rot"] = [[0, 0, 0] for _ in range(self.m.bones)]
        return self.read_animation()

    def read_animation(self):
        if self.frame >= self.total:
            return 1
        rd = self.cursor(self.m.data, self.start + self.off, self.bit)
        sk = self.sk
        for _ in range(2 if self.flags & FAST else 1):
            halved = bool(self.flags & SLOW) and self.frame != 0
            for a in range(3):
                d = rd.position()
                sk["root"][a] = s16(sk["root"][a] + (half(d) if halved else d))
            sk["flag"] = (sk["flag"] & ~1) | (rd.bits(1) & 1)
            for b in range(self.m.bones):
                for a in range(3):
                    d = rd.rotation()
                    sk["rot"][b][a] = s16(sk["rot"][b][a] + (half(d) if halved else d))
                if sk["flag"] & 1:
                    for a in range(3):
                        sk["scale"][b][a] = rd.scale()
            self.frame = (self.frame + 1) & 0xFF
            if self.frame >= self.total:
                break
        step = (self.flags >> 2) & 3
        if not (self.flags & SLOW and step != 0):
            self.off = s16(rd.pos - self.start)
            self.bit = s16(rd.bit)
        self.flags = (self.flags & 0xF3) | (((step + 1) % 2) << 2)
        return 0

    def line(self, mode, tick, ret):
        sk = self.sk
        obj = {
            "v": 1,
            "file": self.m.name,
            "model": self.m.kind,
            "anim": self.clip,
            "mode": mode,
            "tick": tick,
            "ret": ret,
            "cmd": {"frame": self.frame, "total": self.total, "flags": self.flags,
                    "off": self.off, "bit": self.bit},
            "skel_flag": sk["flag"],
            "root": sk["root"],
            "rot": sk["rot"],
            "scale": sk["scale"],
        }
        return json.dumps(obj, separators=(",", ":"))


def decode_clip(model, clip, mode):
    """Yields the trace lines of one clip in one mode."""
    dec = Decoder(model, clip, MODES[mode])
    ret = dec.start_clip()
    yield dec.line(mode, 0, ret)
    tick = 1
    while ret != 1 and tick < MAX_TICKS:
        ret = dec.read_animation()
        yield dec.line(mode, tick, ret)
        tick += 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", metavar="FILE.dat")
    ap.add_argument("--mode", default="normal",
                    help="normal, slow, fast, slow+fast, a comma list or all")
    ap.add_argument("--out", metavar="DIR",
                    help="write DIR/<file>.<mode>.jsonl instead of printing")
    args = ap.parse_args(argv)
    modes = list(MODES) if args.mode == "all" else args.mode.split(",")
    for m in modes:
        if m not in MODES:
            ap.error("unknown mode %r" % m)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    status = 0
    for path in args.files:
        try:
            with open(path, "rb") as f:
                model = Model(path, f.read())
        except (OSError, DatError) as e:
            print("decode_dat: %s: %s" % (path, e), file=sys.stderr)
            status = 2
            continue
        if not model.has_model:
            continue
        for mode in modes:
            out = sys.stdout
            if args.out:
                out = open(os.path.join(args.out, "%s.%s.jsonl" % (model.name, mode)), "w")
            for clip in range(len(model.clip_start)):
                try:
                    for line in decode_clip(model, clip, mode):
                        out.write(line + "\n")
                except DatError as e:
                    print("decode_dat: %s anim %d %s: %s" % (path, clip, mode, e),
                          file=sys.stderr)
                    status = 2
            if args.out:
                out.close()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
