#!/usr/bin/env python3
"""A frames-format decoder that reads the scale channels and throws them away.

Like many model viewers it keeps the skeleton's root, rotations and flag
bit and never shows scales: its frames carry no "scale". ff8diff compares
it on what it supplies and says, per field class, that scales were never
compared and on how many clips the game's scales change:

    python3 examples/frames_no_scale.py OUT_DIR corpus/*.dat
    ff8diff check --traces golden --against OUT_DIR                  # 0: matches, "scale: not supplied ..."
    ff8diff check --traces golden --against OUT_DIR --require scale  # 1: those clips not decoded
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from frames_common import clip_frames, models  # noqa: E402
from write_frames import write_frames  # noqa: E402


def main(out_dir, paths):
    for path, model in models(paths):
        clips = []
        for anim in range(len(model.clip_start)):
            frames = []
            for pose in clip_frames(model, anim):
                del pose["scale"]  # read, then dropped
                frames.append(pose)
            clips.append((anim, frames))
        write_frames(out_dir, os.path.basename(path), clips)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
