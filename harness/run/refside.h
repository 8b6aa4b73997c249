/*
 * harness/run/refside.h: one clip decoded by the reference engine into a
 * trace, following the harness protocol: skeleton as loaded from the file,
 * AnimCmd zeroed with the mode's flag bits, StartClip (tick 0), then
 * Battle_ReadAnimation until the first call that returns 1. Also where a
 * result's divergence lies in the file, and the stream bytes around it.
 */
#ifndef FF8_HARNESS_RUN_REFSIDE_H
#define FF8_HARNESS_RUN_REFSIDE_H

#include <stdint.h>

#include "harness/core/results.h"
#include "harness/core/trace.h"
#include "ref/engine.h"
#include "ref/readlog.h"

/* Ticks after which a clip that never returns 1 is refused (cannot happen
 * with an 8-bit frame counter; a guard, not a limit). */
#define REFSIDE_MAX_TICKS 1024
/* The engine's AnimCmd holds the clip index in a byte: clips 0..255. */
#define REFSIDE_MAX_CLIP 255

/*
 * Decodes clip of a's file in the mode given by flags into out (cleared
 * first, carrying the fields of have). With pose (the pose level), every
 * decoding call also builds the bone matrices under that convention and
 * the world matrices under the identity and the fixed base
 * (harness/run/pose_side.h); a call that decodes nothing keeps the world
 * states of the call before it. Returns 0, or -1 with err (read past the end
 * of the file, ...); out then holds the ticks decoded before the error. A
 * clip index past REFSIDE_MAX_CLIP is refused: no call of the engine can
 * name it.
 */
int refside_clip(ref_anim *a, uint8_t flags, uint32_t clip, const field_set *have,
                 const ref_pose_opts *pose, trace *out, ff_error *err);

/*
 * The emulation limit (docs/pose.md section 4) of one pose value: replays clip
 * with pose up to call tick and says, in *near, whether the value of (f,
 * bone) there depends on a sin or cos whose exact value lies within 2^-20
 * of its rounding boundary (ref/pose.h), where an x87 and Unicorn's
 * double-precision fsin may round apart. *near is 0 for a field that is not
 * a pose field. Returns 0, or -1 with err.
 */
int refside_near(ref_anim *a, uint8_t flags, uint32_t clip, const ref_pose_opts *pose,
                 size_t tick, field_id f, unsigned bone, int *near, ff_error *err);

/*
 * The read of the stream that produced (f, bone)'s value at call tick: the
 * clip replayed by the reference up to that call with a read log on it
 * (ref/readlog.h), the log's value-reader records matched to fields in the
 * order Battle_ReadAnimation reads them (docs/engine.md section 4: per pass the
 * root x, y, z, the mode bit, then per bone its rotation x, y, z and, on
 * the scale path, its scale x, y, z), the last one of the call kept (the
 * second pass's under FAST). *found is 0 for a field no read produces (the
 * AnimCmd, the result, the pose) and for a call that reads nothing. pos in
 * *out counts from the clip's first byte. Returns 0, or -1 with err.
 */
int refside_value_read(ref_anim *a, uint8_t flags, uint32_t clip, size_t tick, field_id f,
                       unsigned bone, ref_read *out, int *found, ff_error *err);

/*
 * Where r's divergence left the cursor in file d: r->cursor_file_off (the
 * clip's start plus the cursor, held to the file), and the clip's start in
 * *start. Returns 0, or -1 with err (no such clip).
 */
int refside_cursor_in_file(const dat_file *d, clip_result *r, uint32_t *start, ff_error *err);
/* r's stream window: up to RES_STREAM_BYTES of d from byte from on. */
void refside_stream_copy(const dat_file *d, clip_result *r, uint64_t from);

#endif
