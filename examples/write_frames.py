"""Write decoded poses in ff8diff's frames format (docs/guide.md).

One file per model file, <dat name>.frames.jsonl, one JSON object per
decoded frame: "frame" 0-based, the pose after decoding that frame. "root"
and "rot" are required; "scale" (per bone [x, y, z], 1024 = 1.0),
"skel_flag" and "mat" (per bone 9 cells then 3 translations) are optional,
frame by frame: a frame without "scale" is not compared on scales.
"""
import json
import os


def write_frames(out_dir, dat_name, clips):
    """clips: iterable of (anim, frames); a frame: dict with root, rot, ..."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, dat_name + ".frames.jsonl"), "w") as out:
        for anim, frames in clips:
            for i, pose in enumerate(frames):
                line = {"file": dat_name, "anim": anim, "frame": i}
                line.update(pose)
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
