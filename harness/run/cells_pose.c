/*
 * harness/run/cells_pose.c: the bone matrices of a whole-turn cell's tick,
 * given by the candidate or built by the reference's pose.
 */
#include "harness/run/cells_pose.h"

#include <stdlib.h>
#include <string.h>

#include "ref/engine.h"

void cells_pose_init(cells_pose *c, const dat_file *d, const ref_pose_opts *o, const trace *cand,
                     const trace *auth)
{
    memset(c, 0, sizeof *c);
    c->d = d;
    c->o = o;
    c->cand = cand;
    c->auth = auth;
    c->built = -1;
}

void cells_pose_free(cells_pose *c)
{
    free(c->skel);
    c->skel = NULL;
}

/* The 12 values of a bone's matrix, in the field table's order. */
static const field_id mat_fields[12] = {FIELD_M00, FIELD_M01, FIELD_M02, FIELD_M10,
                                        FIELD_M11, FIELD_M12, FIELD_M20, FIELD_M21,
                                        FIELD_M22, FIELD_T_X, FIELD_T_Y, FIELD_T_Z};

static int carries_matrices(const trace *t, size_t tick)
{
    field_set have = trace_tick_fields(t, tick);
    for (int k = 0; k < 12; k++)
        if (!field_set_has(&have, mat_fields[k])) return 0;
    return 1;
}

/* The skeleton's own fields (frame level, skeleton bytes) t carries at tick, written into skel. */
static void overlay(uint8_t *skel, unsigned bones, const trace *t, size_t tick)
{
    field_set have = trace_tick_fields(t, tick);
    for (int f = 0; f < FIELD__COUNT; f++) {
        const field_def *d = field_def_of((field_id)f);
        if (d->level != FIELD_LEVEL_FRAME || !field_set_has(&have, (field_id)f)) continue;
        unsigned n = field_is_per_bone((field_id)f) ? bones : 1;
        for (unsigned b = 0; b < n; b++)
            field_write((field_id)f, b, skel, trace_value(t, tick, (field_id)f, b));
    }
}

/* Both skeletons of tick, posed: the authority's values, then the candidate's over them. */
static int build(cells_pose *c, size_t tick, ff_error *err)
{
    if (c->built == (int64_t)tick) return 0;
    unsigned bones = c->auth->lay.bones;
    if (!c->skel) {
        c->len = ref_skel_size(c->d);
        if (!(c->skel = malloc(2 * c->len)))
            return ff_error_set(err, FF_E_NOMEM, c->d->name, -1, "out of memory");
    }
    uint8_t *a = c->skel, *k = c->skel + c->len;
    memcpy(a, c->d->data + c->d->skel_off, c->len);
    overlay(a, bones, c->auth, tick);
    memcpy(k, a, c->len);
    overlay(k, bones, c->cand, tick);
    if (ref_build_bone_matrices(a, bones, c->o) < 0 || ref_build_bone_matrices(k, bones, c->o) < 0)
        return ff_error_set(err, FF_E_INTERNAL, c->d->name, -1,
                            "the reference cannot pose a skeleton of %u bones", bones);
    c->built = (int64_t)tick;
    return 0;
}

int cells_pose_check(void *arg, size_t tick, unsigned bone, cell_mat *out, cell_mat_from *from,
                     ff_error *err)
{
    cells_pose *c = arg;
    *out = CELL_MAT_UNKNOWN;
    if (!c->o || !trace_has(c->auth, FIELD_M00) || bone >= c->auth->lay.bones) return 0;
    if (carries_matrices(c->cand, tick) && carries_matrices(c->auth, tick)) {
        int differ = 0;
        for (int k = 0; k < 12; k++)
            differ |= trace_value(c->cand, tick, mat_fields[k], bone) !=
                      trace_value(c->auth, tick, mat_fields[k], bone);
        *out = differ ? CELL_MAT_DIFFER : CELL_MAT_EQUAL;
        if (*from == CELL_MAT_FROM_NONE) *from = CELL_MAT_FROM_CANDIDATE;
        return 0;
    }
    if (c->auth->lay.bones != c->d->bones || c->cand->lay.bones != c->d->bones) return 0;
    if (build(c, tick, err) < 0) return -1;
    ref_matrix a, k;
    ref_pose_bone_load(c->skel, bone, &a);
    ref_pose_bone_load(c->skel + c->len, bone, &k);
    int same = memcmp(a.m, k.m, sizeof a.m) == 0 && memcmp(a.t, k.t, sizeof a.t) == 0;
    *out = same ? CELL_MAT_EQUAL : CELL_MAT_DIFFER;
    if (*from == CELL_MAT_FROM_NONE) *from = CELL_MAT_FROM_COMPUTED;
    return 0;
}
