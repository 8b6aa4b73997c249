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
    int32_t build_ret = 0; /* BuildBoneMatrices' last return in this clip */
    if (ref_start_clip(a, (int16_t)clip, &ret, err) < 0) return -1;
    for (;;) {
        if (world && ret == 0) {
            pose_ref_world(a->skel, a->bones, a->pose, world, placed);
            build_ret = POSE_BUILD_RET;
        }
        /* A call that decodes nothing rebuilds nothing: its world states stay. */
        field_state s = {.ret = ret, .build_ret = build_ret, .cmd = (const uint8_t *)&a->cmd,
                         .skel = a->skel, .world = world, .placed = placed};
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

/* The near bit of a pose field's value (bone matrix layout, docs/pose.md section 1). */
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

/* What a depth-0 read of one pass feeds, in Battle_ReadAnimation's order. */
typedef struct pass_pos {
    int step;      /* 0..2 root, 3 the mode bit, then per bone 6 slots (3 rot, 3 scale) */
    int scale;     /* this pass's mode bit */
    unsigned bones;
} pass_pos;

/* The field (and bone) of the next depth-0 read; advances p. -1: past the pass (a new one). */
static int next_field(pass_pos *p, const ref_read *r, field_id *f, unsigned *bone)
{
    static const field_id root[3] = {FIELD_ROOT_X, FIELD_ROOT_Y, FIELD_ROOT_Z};
    static const field_id per_bone[6] = {FIELD_ROT_X,   FIELD_ROT_Y,   FIELD_ROT_Z,
                                         FIELD_SCALE_X, FIELD_SCALE_Y, FIELD_SCALE_Z};
    *bone = 0;
    if (p->step < 3) {
        *f = root[p->step++];
        return r->routine == REF_R_POSITION ? 0 : -1;
    }
    if (p->step == 3) {
        *f = FIELD_SKEL_FLAG;
        p->step++;
        p->scale = r->value & 1;
        return r->routine == REF_R_BITREADER ? 0 : -1;
    }
    for (;;) {
        unsigned k = (unsigned)(p->step - 4);
        if (k / 6 >= p->bones) return -1;
        p->step++;
        if (k % 6 >= 3 && !p->scale) continue; /* no scale reads off the scale path */
        *bone = k / 6;
        *f = per_bone[k % 6];
        return 0;
    }
}

/* The last depth-0 read of the log that feeds (f, bone). */
static int match_read(const ref_read_log *log, unsigned bones, field_id f, unsigned bone,
                      ref_read *out)
{
    pass_pos p = {0, 0, bones};
    int found = 0;
    for (size_t i = 0; i < log->n; i++) {
        const ref_read *r = &log->reads[i];
        if (r->depth != 0) continue;
        field_id g;
        unsigned b;
        if (next_field(&p, r, &g, &b) < 0) {
            /* A new pass starts with the root again. */
            p = (pass_pos){0, 0, bones};
            if (next_field(&p, r, &g, &b) < 0) break;
        }
        if (g == f && b == bone) {
            *out = *r;
            found = 1;
        }
    }
    return found;
}

int refside_value_read(ref_anim *a, uint8_t flags, uint32_t clip, size_t tick, field_id f,
                       unsigned bone, ref_read *out, int *found, ff_error *err)
{
    *found = 0;
    const field_def *d = field_def_of(f);
    if (!d || d->level != FIELD_LEVEL_FRAME || (d->area != FIELD_AREA_SKEL &&
                                                d->area != FIELD_AREA_BONE))
        return 0;
    /* Per pass: 3 + 1 + 6 per bone depth-0 reads, each with up to 3 bitReader calls. */
    size_t cap = 2 * 4 * (4 + 6 * (size_t)a->bones) + 64;
    ref_read *reads = malloc(cap * sizeof *reads);
    if (!reads) return ff_error_set(err, FF_E_NOMEM, a->dat->name, -1, "out of memory");
    ref_read_log log;
    ref_read_log_init(&log, reads, cap);
    ref_anim_reset_skeleton(a);
    memset(&a->cmd, 0, sizeof a->cmd);
    a->cmd.flags = flags;
    a->pose = NULL;
    int ret = 0, rc = 0;
    for (size_t t = 0; rc == 0 && t <= tick; t++) {
        if (t == tick) a->log = &log;
        rc = t == 0 ? ref_start_clip(a, (int16_t)clip, &ret, err) : ref_read_animation(a, &ret, err);
        if (t < tick && ret == 1) break;
    }
    a->log = NULL;
    if (rc == 0 && log.total <= log.n) *found = match_read(&log, a->bones, f, bone, out);
    free(reads);
    return rc;
}

int refside_cursor_in_file(const dat_file *d, clip_result *r, uint32_t *start, ff_error *err)
{
    if (dat_clip_offset(d, (uint32_t)r->clip, start, err) < 0) return -1;
    int64_t cur = (int64_t)*start + r->div.cursor_off;
    if (cur < 0) cur = 0;
    if ((uint64_t)cur > d->size) cur = (int64_t)d->size;
    r->cursor_file_off = (uint64_t)cur;
    return 0;
}

void refside_stream_copy(const dat_file *d, clip_result *r, uint64_t from)
{
    uint64_t n = d->size - from < RES_STREAM_BYTES ? d->size - from : RES_STREAM_BYTES;
    r->stream_off = from;
    r->stream_len = (uint8_t)n;
    memcpy(r->stream, d->data + from, (size_t)n);
}
