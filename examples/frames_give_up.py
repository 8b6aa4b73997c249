#!/usr/bin/env python3
"""A frames-format decoder that gives up on what it does not support.

It has no 16-bit root deltas (position type 3): at the first one in a clip
it stops, writes the frames it decoded before it and one line saying why,
{"file": ..., "anim": N, "error": "..."}, and goes on with the next clip.
ff8diff reports each such clip as not decoded, with how far it got
(frames supplied / frames expected) and the decoder's sentence, and exits 1:

    python3 examples/frames_give_up.py OUT_DIR corpus/*.dat
    ff8diff check --traces golden --against OUT_DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import decode_dat  # noqa: E402
from frames_common import clip_frames, models  # noqa: E402
from write_frames import write_frames  # noqa: E402


class Unsupported(Exception):
    pass


class Cursor(decode_dat.Cursor):
    def position(self):
        kind = self.bits(2) & 3
        if kind == 3:
            raise Unsupported("16-bit root deltas (position type 3) are not supported")
        return self.bits(decode_dat.POSITION_WIDTHS[kind])


class Decoder(decode_dat.Decoder):
    cursor = Cursor


def main(out_dir, paths):
    for path, model in models(paths):
        clips = []
        for anim in range(len(model.clip_start)):
            frames, error = [], None
            try:
                for pose in clip_frames(model, anim, Decoder):
                    frames.append(pose)
            except Unsupported as e:
                error = "frame %d: %s" % (len(frames), e)
            clips.append((anim, frames, error))
        write_frames(out_dir, os.path.basename(path), clips)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
