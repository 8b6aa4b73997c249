#!/usr/bin/env python3
"""A test fixture: frames-format traces made from golden traces (normal
mode, uncompressed) with planted differences in one clip, and what was
planted, for the whole-turns classification of `ff8diff check`.

In clip CLIP of FILE, on the file's last leaf bone (a bone no other bone
names as its parent), it adds whole turns to rotations: 65536 (16 turns,
a missing 16-bit wrap) to x on frame 1, 3 * 4096 to y on frame 2, -2 * 4096
to z on frame 3; then it wraps one scale: + 65536 to bone 0's scale x on
frame 2 (a pose difference). Every other value is the golden one. With
--mat the frames carry the golden "mat" too, and --bad-mat adds 1 to the
leaf bone's m[0][0] on frame 2 (its matrices then differ there).

Prints one JSON object: {"bone": leaf, "cells": [{"tick", "field", "ref",
"orig", "class"}, ...]} in the order ff8diff compares (tick; the rotations and scales bone by
bone, then the matrices).

usage: plant_turns.py GOLDEN CORPUS OUT FILE CLIP [--mat] [--bad-mat]
"""
import json
import os
import struct
import sys


def leaf_bone(dat):
    """The last bone that no bone names as its parent."""
    sections = struct.unpack_from("<%dI" % struct.unpack_from("<I", dat, 0)[0], dat, 4)
    skel = sections[0]
    bones = dat[skel]
    parents = [struct.unpack_from("<h", dat, skel + 16 + 48 * b)[0] for b in range(bones)]
    return max(b for b in range(bones) if b not in parents)


def main():
    golden, corpus, out, name, clip = sys.argv[1:6]
    clip = int(clip)
    mat, bad_mat = "--mat" in sys.argv, "--bad-mat" in sys.argv
    with open(os.path.join(corpus, name), "rb") as f:
        leaf = leaf_bone(f.read())
    os.makedirs(out, exist_ok=True)
    planted = []
    for trace in sorted(os.listdir(golden)):
        if not trace.endswith(".normal.jsonl"):
            continue
        dat = trace[: -len(".normal.jsonl")]
        lines = []
        for text in open(os.path.join(golden, trace)):
            o = json.loads(text)
            if o["ret"] == 1:
                continue  # the end call decodes nothing: no frame
            frame = {"file": dat, "anim": o["anim"], "frame": o["tick"], "root": o["root"],
                     "rot": o["rot"], "scale": o["scale"], "skel_flag": o["skel_flag"]}
            if mat:
                frame["mat"] = o["mat"]
            if dat == name and o["anim"] == clip:
                plant(frame, o, leaf, bad_mat, planted)
            lines.append(json.dumps(frame, separators=(",", ":")))
        with open(os.path.join(out, dat + ".frames.jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")
    planted.sort(key=lambda c: (c["tick"], c["order"]))
    for c in planted:
        del c["order"]
    print(json.dumps({"bone": leaf, "cells": planted}))


def plant(frame, golden, leaf, bad_mat, planted):
    t = frame["frame"]
    turns = {1: (0, 65536), 2: (1, 3 * 4096), 3: (2, -2 * 4096)}
    if t in turns:
        axis, delta = turns[t]
        frame["rot"] = [list(r) for r in frame["rot"]]
        frame["rot"][leaf][axis] += delta
        planted.append({"tick": t, "field": "bone[%d].rot.%s" % (leaf, "xyz"[axis]),
                        "ref": golden["rot"][leaf][axis] + delta,
                        "orig": golden["rot"][leaf][axis], "class": "whole_turns",
                        "order": (0, leaf, axis)})
    if t == 2:
        frame["scale"] = [list(s) for s in frame["scale"]]
        frame["scale"][0][0] += 65536
        planted.append({"tick": t, "field": "bone[0].scale.x",
                        "ref": golden["scale"][0][0] + 65536, "orig": golden["scale"][0][0],
                        "class": "pose", "order": (0, 0, 3)})
        if bad_mat:
            frame["mat"] = [list(m) for m in frame["mat"]]
            frame["mat"][leaf][0] += 1
            planted.append({"tick": t, "field": "bone[%d].m[0][0]" % leaf,
                            "ref": golden["mat"][leaf][0] + 1, "orig": golden["mat"][leaf][0],
                            "class": "pose", "order": (1, leaf, 0)})


if __name__ == "__main__":
    main()
