"""The normal-mode poses of decode_dat.py's decoder, frame by frame, for the
frames-format examples (frames_no_scale.py, frames_give_up.py)."""
import decode_dat


def clip_frames(model, clip, decoder=decode_dat.Decoder):
    """Yields the pose after each decoded frame of one clip (normal mode):
    a dict with root, rot, scale and skel_flag. Exceptions of the decoder
    come through as they are, after the frames decoded before them."""
    dec = decoder(model, clip, decode_dat.MODES["normal"])
    ret = dec.start_clip()
    ticks = 1
    while ret == 0 and ticks < decode_dat.MAX_TICKS:
        sk = dec.sk
        yield {"root": list(sk["root"]), "rot": [list(r) for r in sk["rot"]],
               "scale": [list(s) for s in sk["scale"]], "skel_flag": sk["flag"]}
        ret = dec.read_animation()
        ticks += 1


def models(paths):
    """(path, Model) for each file holding a skeleton and animations."""
    for path in paths:
        with open(path, "rb") as f:
            model = decode_dat.Model(path, f.read())
        if model.has_model:
            yield path, model
