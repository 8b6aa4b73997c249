/*
 * harness/run/refside_entity.c: the reference side of an entity clip.
 */
#include "harness/run/refside_entity.h"

#include <stdlib.h>
#include <string.h>

#include "harness/run/pose_side.h"
#include "harness/run/refside.h"

const uint8_t refside_entity_pair[3] = {1, 0, 1};

ref_entity_speed refside_entity_speed(entity_status_id s)
{
    return (ref_entity_speed){0, entity_status_byte(s), refside_entity_pair};
}

void refside_entity_pose_make(const ref_pose_opts *opts, const int16_t attach_rot[3],
                              const int16_t attach_trans[3], refside_entity_pose *out)
{
    out->opts = opts;
    pose_ref_bases(out->body);
    pose_attach_bases(opts, attach_rot, attach_trans, out->weapon);
}

/* Each model's world / placed states, room for both (NULL without the pose level). */
typedef struct worlds {
    uint8_t *w[2][2]; /* [weapon, body][world, placed] */
} worlds;

static int push(ent_trace *out, const ref_entity *e, int ret, const refside_entity_pose *pose,
                worlds *ws, ff_error *err)
{
    ref_anim *m[2] = {e->weapon, e->body};
    for (int k = 0; pose && k < 2; k++)
        if (m[k]) {
            const ref_matrix *base = k == 0 ? pose->weapon : pose->body;
            ref_build_bone_matrices(m[k]->skel, m[k]->bones, pose->opts);
            pose_ref_world_under(m[k]->skel, m[k]->bones, pose->opts, base, ws->w[k][0],
                                 ws->w[k][1]);
        }
    if (e->weapon) {
        field_state w = {.cmd = (const uint8_t *)&e->weapon->cmd, .skel = e->weapon->skel,
                         .world = ws->w[0][0], .placed = ws->w[0][1]};
        if (trace_push_state(&out->weapon, &w, err) < 0) return -1;
    }
    field_state b = {.ret = ret, .cmd = (const uint8_t *)&e->body->cmd, .skel = e->body->skel,
                     .world = ws->w[1][0], .placed = ws->w[1][1]};
    return trace_push_state(&out->body, &b, err);
}

static void worlds_free(worlds *ws)
{
    for (int k = 0; k < 2; k++)
        free(ws->w[k][0]);
}

static int worlds_make(const ref_entity *e, const refside_entity_pose *pose, worlds *ws,
                       ff_error *err)
{
    memset(ws, 0, sizeof *ws);
    ref_anim *m[2] = {e->weapon, e->body};
    for (int k = 0; pose && k < 2; k++) {
        if (!m[k]) continue;
        size_t len = ref_skel_size(m[k]->dat);
        if (!(ws->w[k][0] = malloc(2 * len))) {
            worlds_free(ws);
            return ff_error_set(err, FF_E_NOMEM, m[k]->dat->name, -1, "out of memory");
        }
        ws->w[k][1] = ws->w[k][0] + len;
    }
    return 0;
}

/* QueueAnimation, then AdvanceBy1 until the body's result is 1. */
static int calls(ref_entity *e, uint32_t clip, const refside_entity_pose *pose, worlds *ws,
                 ent_trace *out, ff_error *err)
{
    int ret = 0;
    if (ref_queue_animation(e, (int16_t)clip, &ret, err) < 0) return -1;
    for (;;) {
        if (push(out, e, ret, pose, ws, err) < 0) return -1;
        if (ret == 1) return 0;
        if (out->body.n >= REFSIDE_MAX_TICKS)
            return ff_error_set(err, FF_E_INTERNAL, e->body->dat->name, -1,
                                "clip %u never returned 1 after %d calls", clip, REFSIDE_MAX_TICKS);
        if (ref_advance_by1(e, &ret, err) < 0) return -1;
    }
}

int refside_entity_clip(ref_entity *e, const ref_entity_speed *speed, uint8_t flags, uint32_t clip,
                        const field_set *have, const refside_entity_pose *pose, ent_trace *out,
                        ff_error *err)
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
        m[k]->pose = NULL; /* rebuilt after every call instead, as on the original's side */
    }
    worlds ws;
    if (worlds_make(e, pose, &ws, err) < 0) return -1;
    const ref_entity_speed *was = e->speed;
    e->speed = speed; /* for this clip only: speed is the caller's */
    int rc = calls(e, clip, pose, &ws, out, err);
    e->speed = was;
    worlds_free(&ws);
    return rc;
}
