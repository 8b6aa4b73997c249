/*
 * ref/pose.c: BuildBoneMatrices (0x508C90) and ComputeBonesWorldMatrices
 * (0x5095B0) of the reference engine on the game's skeleton bytes, as
 * docs/pose.md states them (the notes' layout by default: the model scale on the
 * root, the scale path's stack), with every open choice taken from a
 * ref_pose_opts;
 * and the "near" masks that carry the emulation limit (docs/pose.md section 4)
 * from the sin / cos values to the cells that depend on them.
 *
 * Writes only bone+0x10 .. +0x21 and +0x24 .. +0x2F of the bones it is
 * given; never reads or writes the pad word at bone+0x22 nor anything
 * outside 16 + 48 x bones bytes. No allocation (the scale vectors and the
 * scale path's matrices live on the stack, about 5 KiB), no globals, no
 * printing.
 */
#include "common/le.h"
#include "ref/dat.h"
#include "ref/pose.h"
#include "ref/pose_wrap.h"

#include <string.h>

#define MATRIX_AT 0x10

static uint8_t *bone_at(uint8_t *skel, unsigned b)
{
    return skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b;
}

static void read3(const uint8_t *p, int16_t v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = le_s16(p + 2 * k);
}

int ref_pose_parent_regular(const uint8_t *skel, unsigned b)
{
    int16_t parent = le_s16(skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b + DAT_BONE_PARENT);
    return parent == -1 || (parent >= 0 && (unsigned)parent < b);
}

/* ---- near masks (only computed when asked for) ---- */

#define CELL REF_POSE_NEAR_CELL
#define CELLS 0x1FFu /* the 9 cell bits of a mask */

/* Mask of a.b: cell (i,j) depends on a flagged a[i][k] with b[k][j] != 0 or the reverse. */
static uint16_t mul_mask(const int16_t a[3][3], uint16_t ma, const int16_t b[3][3], uint16_t mb)
{
    uint16_t out = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                if (((ma & CELL(i, k)) && b[k][j]) || ((mb & CELL(k, j)) && a[i][k]))
                    out |= CELL(i, j);
    return out;
}

/* Cells of one axis matrix that hold a flagged cos or sin. */
static uint16_t axis_mask(int axis, int16_t a, ref_pose_trig t)
{
    static const uint16_t cos_cells[3] = {CELL(1, 1) | CELL(2, 2), CELL(0, 0) | CELL(2, 2),
                                          CELL(0, 0) | CELL(1, 1)};
    static const uint16_t sin_cells[3] = {CELL(1, 2) | CELL(2, 1), CELL(0, 2) | CELL(2, 0),
                                          CELL(0, 1) | CELL(1, 0)};
    return (uint16_t)((ref_pose_cos_near(a, t) ? cos_cells[axis] : 0) |
                      (ref_pose_sin_near(a, t) ? sin_cells[axis] : 0));
}

/* ref_pose_rotation step by step, carrying the mask along. */
static uint16_t rotation_mask(const int16_t ang[3], const ref_pose_opts *o)
{
    int16_t m[3][3] = {{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, r[3][3];
    uint16_t mm = 0;
    for (int k = 2; k >= 0; k--) {
        int axis = ref_pose_order_axis(o->order, k);
        ref_pose_axis(axis, ang[axis], o->trig, r);
        mm = mul_mask(r, axis_mask(axis, ang[axis], o->trig), m, mm);
        ref_pose_mul(r, m, o->step, m);
    }
    return mm;
}

/* Mask after ref_pose_scale_columns: a column scaled by 0 is 0 whatever it held. */
static uint16_t scale_mask(uint16_t mm, const int32_t v[3])
{
    for (int j = 0; j < 3; j++)
        if (v[j] == 0) mm &= (uint16_t) ~(CELL(0, j) | CELL(1, j) | CELL(2, j));
    return mm;
}

/* Translation bits of t = pt + (pm . v) >> 12 from the parent's mask. */
static uint16_t offset_mask(uint16_t parent, const int16_t v[3])
{
    uint16_t out = 0;
    for (int i = 0; i < 3; i++) {
        int dep = (parent & REF_POSE_NEAR_T(i)) != 0;
        for (int k = 0; k < 3; k++)
            if ((parent & CELL(i, k)) && v[k]) dep = 1;
        if (dep) out |= REF_POSE_NEAR_T(i);
    }
    return out;
}

void ref_pose_near_world(const ref_matrix *base, uint16_t *near, unsigned bones)
{
    for (unsigned b = 0; near && b < bones; b++) {
        uint16_t in = near[b], out = 0;
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                if (!base->m[i][k]) continue;
                for (int j = 0; j < 3; j++)
                    if (in & CELL(k, j)) out |= CELL(i, j);
                if (in & REF_POSE_NEAR_T(k)) out |= REF_POSE_NEAR_T(i);
            }
        near[b] = out;
    }
}

/* ---- BuildBoneMatrices ---- */

typedef enum parent_kind { PARENT_ROOT, PARENT_EARLIER, PARENT_LATER, PARENT_OUTSIDE } parent_kind;

static parent_kind classify(int16_t parent, unsigned i, unsigned bones)
{
    if (parent == -1) return PARENT_ROOT;
    if (parent < 0 || (unsigned)parent >= bones) return PARENT_OUTSIDE;
    return (unsigned)parent < i ? PARENT_EARLIER : PARENT_LATER;
}

/* What one bone needs from the header and from the bones before it. */
typedef struct pose_ctx {
    uint8_t *skel;
    const ref_pose_opts *o;
    int scaled;        /* header flag bit0: the scale path */
    int stack;         /* the scale path under scale=stack */
    int32_t model[3];  /* (s, s, s): the model scale as 0x56BEF0's vector */
    int32_t root_t[3]; /* root world translation */
    int32_t (*vec)[3]; /* per-bone running scale vectors of this rebuild */
    int16_t (*mat)[3][3]; /* per-bone matrices without bone scale (stack) */
    uint16_t *near;    /* NULL: no masks */
    uint16_t *mnear;   /* near masks of mat (stack, with near) */
} pose_ctx;

static const int32_t unit[3] = {4096, 4096, 4096};

/* root=model: the root's local rotation times s (0x56BEF0 / 0x508C30 with (s, s, s)). */
static uint16_t model_scaled(const pose_ctx *c, int16_t local[3][3], uint16_t lmask)
{
    if (c->o->root != REF_ROOT_MODEL) return lmask;
    ref_pose_scale_columns(local, c->model);
    return scale_mask(lmask, c->model);
}

/* A root (or a bone posed as one): m = local (scaled), t = the root translation. */
static void pose_root(pose_ctx *c, unsigned i, int16_t local[3][3], uint16_t lmask, ref_matrix *w)
{
    lmask = model_scaled(c, local, lmask);
    if (c->scaled) {
        int16_t s[3];
        read3(bone_at(c->skel, i) + DAT_BONE_SCALE, s);
        ref_pose_scale_root(s, c->vec[i]);
        if (c->stack) {
            memcpy(c->mat[i], local, sizeof c->mat[i]);
            if (c->near) c->mnear[i] = lmask;
        }
        ref_pose_scale_columns(local, c->vec[i]);
        lmask = scale_mask(lmask, c->vec[i]);
    }
    memcpy(w->m, local, sizeof w->m);
    memcpy(w->t, c->root_t, sizeof w->t);
    if (c->near) c->near[i] = lmask;
}

/* t = parent.t + (parent.m . offset) >> 12; the mask of t from the parent's. */
static uint16_t child_translation(const pose_ctx *c, const uint8_t *bone, const uint8_t *pbone,
                                  const ref_matrix *pm, uint16_t pmask, ref_matrix *w)
{
    const ref_pose_opts *o = c->o;
    int16_t len = le_s16((o->length == REF_LENGTH_OWN ? bone : pbone) + DAT_BONE_LENGTH);
    int16_t v[3];
    int32_t d[3];
    ref_pose_offset_vector(o->offset, len, v);
    ref_pose_apply(pm->m, v, o->width_t, d);
    for (int k = 0; k < 3; k++)
        w->t[k] = pw_add(pm->t[k], d[k]);
    return c->near ? offset_mask(pmask, v) : 0;
}

/* A child of bone p (earlier, or later read as its bytes stand). */
static void pose_child(pose_ctx *c, unsigned i, unsigned p, int later, int16_t local[3][3],
                       uint16_t lmask, ref_matrix *w)
{
    const ref_pose_opts *o = c->o;
    uint8_t *bone = bone_at(c->skel, i), *pbone = bone_at(c->skel, p);
    ref_matrix pm;
    ref_matrix_load(pbone + MATRIX_AT, &pm);
    uint16_t pmask = (c->near && !later) ? c->near[p] : 0;
    uint16_t tmask = child_translation(c, bone, pbone, &pm, pmask, w);
    uint16_t wmask;
    if (c->scaled) {
        int16_t s[3];
        read3(bone + DAT_BONE_SCALE, s);
        ref_pose_scale_child(s, later ? unit : c->vec[p], o->width_vec, c->vec[i]);
    }
    if (c->stack) {
        /* M = M[parent] . local (a later parent: its stored matrix), m = M scaled by w. */
        const int16_t(*up)[3] = later ? (const int16_t(*)[3])pm.m : (const int16_t(*)[3])c->mat[p];
        uint16_t upmask = c->near ? (later ? 0 : c->mnear[p]) : 0;
        wmask = c->near ? mul_mask(up, upmask & CELLS, local, lmask) : 0;
        ref_pose_mul(up, local, o->step, c->mat[i]);
        if (c->near) c->mnear[i] = wmask;
        memcpy(w->m, c->mat[i], sizeof w->m);
        ref_pose_scale_columns(w->m, c->vec[i]);
        wmask = scale_mask(wmask, c->vec[i]);
    } else {
        if (c->scaled && o->scale == REF_SCALE_PRE) {
            ref_pose_scale_columns(local, c->vec[i]);
            lmask = scale_mask(lmask, c->vec[i]);
        }
        wmask = c->near ? mul_mask(pm.m, pmask & CELLS, local, lmask) : 0;
        ref_pose_mul(pm.m, local, o->step, w->m);
        if (c->scaled && o->scale == REF_SCALE_POST) {
            ref_pose_scale_columns(w->m, c->vec[i]);
            wmask = scale_mask(wmask, c->vec[i]);
        }
    }
    if (c->near) c->near[i] = (uint16_t)(wmask | tmask);
}

int ref_build_bone_matrices_table(uint8_t *skel, unsigned bones, const ref_pose_opts *o,
                                  uint16_t *near, const ref_trig_table *table)
{
    if (!skel || !ref_pose_opts_valid(o) || bones > REF_POSE_MAX_BONES) return -1;
    int32_t vec[REF_POSE_MAX_BONES][3];
    int16_t mat[REF_POSE_STACK_SLOTS][3][3];
    uint16_t mnear[REF_POSE_STACK_SLOTS];
    int scaled = skel[DAT_SKEL_FLAGS] & 1;
    int16_t s = le_s16(skel + DAT_SKEL_MODEL_SCALE);
    pose_ctx c = {skel, o, scaled, scaled && o->scale == REF_SCALE_STACK, {s, s, s}, {0, 0, 0},
                  vec,  mat, near, mnear};
    unsigned posed = bones;
    if (c.stack && bones > REF_POSE_STACK_SLOTS) posed = REF_POSE_STACK_SLOTS;
    int16_t root[3];
    read3(skel + DAT_SKEL_ROOT, root);
    ref_pose_root_translation(root, s, c.root_t);
    int irregular = 0;
    for (unsigned i = 0; i < posed; i++) {
        uint8_t *bone = bone_at(skel, i);
        int16_t parent = le_s16(bone + DAT_BONE_PARENT), ang[3], local[3][3];
        read3(bone + DAT_BONE_ROT, ang);
        ref_pose_rotation_table(ang, o->order, o->trig, o->step, table, local);
        uint16_t lmask = near ? rotation_mask(ang, o) : 0;
        parent_kind kind = classify(parent, i, bones);
        ref_matrix w;
        if (kind == PARENT_ROOT || kind == PARENT_OUTSIDE)
            pose_root(&c, i, local, lmask, &w);
        else
            pose_child(&c, i, (unsigned)parent, kind == PARENT_LATER, local, lmask, &w);
        ref_matrix_store(bone + MATRIX_AT, &w);
        if (kind == PARENT_LATER || kind == PARENT_OUTSIDE) irregular++;
    }
    return posed < bones ? REF_POSE_OVERRUN : irregular;
}

int ref_build_bone_matrices_near(uint8_t *skel, unsigned bones, const ref_pose_opts *o,
                                 uint16_t *near)
{
    return ref_build_bone_matrices_table(skel, bones, o, near, NULL);
}

int ref_build_bone_matrices(uint8_t *skel, unsigned bones, const ref_pose_opts *o)
{
    return ref_build_bone_matrices_near(skel, bones, o, NULL);
}

/* ---- ComputeBonesWorldMatrices ---- */

/* 1 when m is the Q12 identity. */
static int is_identity(const int16_t m[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (m[i][j] != (i == j ? 4096 : 0)) return 0;
    return 1;
}

/*
 * ref_pose_compose(base, bone) for each bone when base.m is the identity: a
 * cell is 4096 m / 4096, exact under either rounding, so the bone's cells
 * stay; t[k] = ((4096 t[k]) >> 12 in width w) + base.t[k], which in 32 bits
 * is t[k]'s low 20 bits sign-extended.
 */
static void world_under_identity(uint8_t *skel, unsigned bones, const int32_t bt[3],
                                 ref_pose_width w)
{
    for (unsigned i = 0; i < bones; i++) {
        uint8_t *p = bone_at(skel, i) + MATRIX_AT + 20;
        for (int k = 0; k < 3; k++) {
            int32_t t = le_s32(p + 4 * k);
            int32_t s = w == REF_WIDTH_64 ? t : pw_sar(pw_mul(t, 4096), 12);
            le_put32(p + 4 * k, (uint32_t)pw_add(s, bt[k]));
        }
    }
}

int ref_world_matrices(uint8_t *skel, unsigned bones, const ref_matrix *base,
                       const ref_pose_opts *o)
{
    if (!skel || !base || !ref_pose_opts_valid(o) || bones > REF_POSE_MAX_BONES) return -1;
    ref_matrix b = *base; /* a copy: the base is only read, even if the caller aliases it */
    if (is_identity(b.m)) {
        world_under_identity(skel, bones, b.t, o->width_t);
        return 0;
    }
    for (unsigned i = 0; i < bones; i++) {
        uint8_t *p = bone_at(skel, i) + MATRIX_AT;
        ref_matrix m;
        ref_matrix_load(p, &m);
        ref_pose_compose(&b, &m, o->step, o->width_t, &m);
        ref_matrix_store(p, &m);
    }
    return 0;
}
