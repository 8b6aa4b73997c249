"""Write decoded poses in ff8diff's frames format (docs/guide.md).

One file per model file, <dat name>.frames.jsonl, one JSON object per
decoded frame: "frame" 0-based, the pose after decoding that frame. "root"
and "rot" are required; "scale" (per bone [x, y, z], 1024 = 1.0),
"skel_flag" and "mat" (per bone 9 cells then 3 translations) are optional,
frame by frame: a frame without "scale" is not compared on scales.

A decoder that stops inside a clip says why on one more line after the
last frame it could decode (none at all when it stopped at the first):
{"file": ..., "anim": N, "error": "why"}. ff8diff reports that clip as not
decoded, with how far it got and that sentence.
"""
import json
import os


def write_frames(out_dir, dat_name, clips):
    """clips: iterable of (anim, frames) or (anim, frames, error); a frame:
    dict with root, rot, ...; error: None, or why the decoder stopped after
    those frames."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, dat_name + ".frames.jsonl"), "w") as out:
        for clip in clips:
            anim, frames = clip[0], clip[1]
            error = clip[2] if len(clip) > 2 else None
            for i, pose in enumerate(frames):
                line = {"file": dat_name, "anim": anim, "frame": i}
                line.update(pose)
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
            if error is not None:
                line = {"file": dat_name, "anim": anim, "error": error}
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
