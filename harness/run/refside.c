/*
 * harness/run/refside.c: the reference side of a clip comparison.
 */
#include "harness/run/refside.h"

#include <stdlib.h>
#include <string.h>

#include "harness/run/pose_side.h"

/* The decoding loop, with world / placed states when the pose level runs (both non-NULL). */
static int decode(ref_anim *a, uint32_t clip, trace *out, uint8_t *world, uint8_t *placed,
                  ff_error *err)
{
    int ret = 0;
    if (ref_start_clip(a, (int16_t)clip, &ret, err) < 0) return -1;
    for (;;) {
        if (world && ret == 0) pose_ref_world(a->skel, a->bones, a->pose, world, placed);
        /* A call that decodes nothing rebuilds nothing: its world states stay. */
        field_state s = {.ret = ret, .cmd = (const uint8_t *)&a->cmd, .skel = a->skel,
                         .world = world, .placed = placed};
        if (trace_push_state(out, &s, err) < 0) return -1;
        if (ret == 1) return 0;
        if (out->n >= REFSIDE_MAX_TICKS)
            return ff_error_set(err, FF_E_INTERNAL, a->dat->name, -1,
                                "clip %u never returned 1 after %d calls", clip,
                                REFSIDE_MAX_TICKS);
        if (ref_read_animation(a, &ret, err) < 0) return -1;
    }
}

int refside_clip(ref_anim *a, uint8_t flags, uint32_t clip, const field_set *have,
                 const ref_pose_opts *pose, trace *out, ff_error *err)
{
    trace_clear(out, have, a->bones);
    if (clip > REFSIDE_MAX_CLIP)
        return ff_error_set(err, FF_E_RANGE, a->dat->name, -1,
                            "clip %u: the engine's AnimCmd holds clip indexes 0..%d", clip,
                            REFSIDE_MAX_CLIP);
    ref_anim_reset_skeleton(a);
    memset(&a->cmd, 0, sizeof a->cmd);
    a->cmd.flags = flags;
    a->pose = pose;
    if (!pose) return decode(a, clip, out, NULL, NULL, err);
    size_t len = ref_skel_size(a->dat);
    uint8_t *world = malloc(2 * len);
    if (!world) return ff_error_set(err, FF_E_NOMEM, a->dat->name, -1, "out of memory");
    /* Before any decoding call the world states are the skeleton as loaded. */
    memcpy(world, a->skel, len);
    memcpy(world + len, a->skel, len);
    int rc = decode(a, clip, out, world, world + len, err);
    free(world);
    a->pose = NULL;
    return rc;
}

/* The near bit of a pose field's value (bone matrix layout, POSE.md section 1). */
static uint16_t near_bit(field_id f)
{
    uint32_t off = field_def_of(f)->offset;
    if (off >= FIELD_BONE_T(0)) return REF_POSE_NEAR_T((off - FIELD_BONE_T(0)) / 4);
    unsigned k = (off - FIELD_BONE_M(0, 0)) / 2;
    return REF_POSE_NEAR_CELL(k / 3, k % 3);
}

int refside_near(ref_anim *a, uint8_t flags, uint32_t clip, const ref_pose_opts *pose,
                 size_t tick, field_id f, unsigned bone, int *near, ff_error *err)
{
    const field_def *d = field_def_of(f);
    *near = 0;
    if (!pose || !d || d->level != FIELD_LEVEL_POSE || bone >= a->bones) return 0;
    uint16_t *mask = calloc(a->bones ? a->bones : 1, sizeof *mask);
    if (!mask) return ff_error_set(err, FF_E_NOMEM, a->dat->name, -1, "out of memory");
    ref_anim_reset_skeleton(a);
    memset(&a->cmd, 0, sizeof a->cmd);
    a->cmd.flags = flags;
    a->pose = pose;
    a->pose_near = mask;
    int ret = 0, rc = ref_start_clip(a, (int16_t)clip, &ret, err);
    for (size_t t = 1; rc == 0 && t <= tick && ret == 0; t++) rc = ref_read_animation(a, &ret, err);
    if (rc == 0 && d->area != FIELD_AREA_BONE) {
        ref_matrix base = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
        if (d->area == FIELD_AREA_PLACED) pose_base_fixed(&base);
        ref_pose_near_world(&base, mask, a->bones);
    }
    if (rc == 0) *near = (mask[bone] & near_bit(f)) != 0;
    a->pose = NULL;
    a->pose_near = NULL;
    free(mask);
    return rc;
}
