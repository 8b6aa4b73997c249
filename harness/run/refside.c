/*
 * harness/run/refside.c: the reference side of a clip comparison.
 */
#include "harness/run/refside.h"

#include <string.h>

int refside_clip(ref_anim *a, uint8_t flags, uint32_t clip, const field_set *have, trace *out,
                 ff_error *err)
{
    trace_clear(out, have, a->bones);
    if (clip > REFSIDE_MAX_CLIP)
        return ff_error_set(err, FF_E_RANGE, a->dat->name, -1,
                            "clip %u: the engine's AnimCmd holds clip indexes 0..%d", clip,
                            REFSIDE_MAX_CLIP);
    ref_anim_reset_skeleton(a);
    memset(&a->cmd, 0, sizeof a->cmd);
    a->cmd.flags = flags;
    int ret = 0;
    if (ref_start_clip(a, (int16_t)clip, &ret, err) < 0) return -1;
    for (;;) {
        field_state s = {.ret = ret, .cmd = (const uint8_t *)&a->cmd, .skel = a->skel};
        if (trace_push_state(out, &s, err) < 0) return -1;
        if (ret == 1) return 0;
        if (out->n >= REFSIDE_MAX_TICKS)
            return ff_error_set(err, FF_E_INTERNAL, a->dat->name, -1,
                                "clip %u never returned 1 after %d calls", clip,
                                REFSIDE_MAX_TICKS);
        if (ref_read_animation(a, &ret, err) < 0) return -1;
    }
}
