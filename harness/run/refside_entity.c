/*
 * harness/run/refside_entity.c: the reference side of an entity clip.
 */
#include "harness/run/refside_entity.h"

#include <string.h>

#include "harness/run/refside.h"

static int push(ent_trace *out, const ref_entity *e, int ret, ff_error *err)
{
    if (e->weapon) {
        field_state w = {.cmd = (const uint8_t *)&e->weapon->cmd, .skel = e->weapon->skel};
        if (trace_push_state(&out->weapon, &w, err) < 0) return -1;
    }
    field_state b = {.ret = ret, .cmd = (const uint8_t *)&e->body->cmd, .skel = e->body->skel};
    return trace_push_state(&out->body, &b, err);
}

int refside_entity_clip(ref_entity *e, uint8_t flags, uint32_t clip, const field_set *have,
                        ent_trace *out, ff_error *err)
{
    ent_trace_clear(out, e->weapon != NULL, have, e->body->bones, e->weapon ? e->weapon->bones : 0);
    if (clip > REFSIDE_MAX_CLIP)
        return ff_error_set(err, FF_E_RANGE, e->body->dat->name, -1,
                            "clip %u: the engine's AnimCmd holds clip indexes 0..%d", clip,
                            REFSIDE_MAX_CLIP);
    ref_anim *m[2] = {e->weapon, e->body};
    for (int k = 0; k < 2; k++) {
        if (!m[k]) continue;
        ref_anim_reset_skeleton(m[k]);
        memset(&m[k]->cmd, 0, sizeof m[k]->cmd);
        m[k]->cmd.flags = flags;
    }
    int ret = 0;
    if (ref_queue_animation(e, (int16_t)clip, &ret, err) < 0) return -1;
    for (;;) {
        if (push(out, e, ret, err) < 0) return -1;
        if (ret == 1) return 0;
        if (out->body.n >= REFSIDE_MAX_TICKS)
            return ff_error_set(err, FF_E_INTERNAL, e->body->dat->name, -1,
                                "clip %u never returned 1 after %d calls", clip, REFSIDE_MAX_TICKS);
        if (ref_advance_by1(e, &ret, err) < 0) return -1;
    }
}
