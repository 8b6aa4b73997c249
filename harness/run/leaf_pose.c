/*
 * harness/run/leaf_pose.c: the leaf level of the pose helpers (docs/pose.md
 * section 2), called alone through their profile rows (emu_game_pose_helper)
 * and compared with ref/pose.h's helpers under the run's convention:
 *   sin, cos   every s16 angle (65,536 each), with a tally of the angles
 *              each trig option matches;
 *   copy5      3x3 Q12 products, compose (0x56C2F0) and apply (0x56C3D0),
 *              over cases drawn from (seed, case) alone: extreme cells
 *              (+-32767, -32768, 0, +-4096), sums that wrap, and random ones.
 * A helper the profile does not describe is reported as not run, with why.
 * Under --engine both every case also runs on the second engine: results
 * that differ by one at most are the x87 class (emulated against the CPU's
 * x87), anything else a disagreement; both are reported, and like the
 * helpers' own mismatches they do not decide the verdict (the pose level's
 * clips do).
 */
#include "harness/run/leaf_pose.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "harness/run/context.h"

#define MATRIX_CASES 8192

typedef struct helper_row {
    profile_helper_id role;
    uint64_t cases;
} helper_row;

static const helper_row rows[POSE_LEAF_HELPERS] = {
    {PROFILE_H_SIN, 65536},
    {PROFILE_H_COS, 65536},
    {PROFILE_H_COPY5, MATRIX_CASES},
    {PROFILE_H_APPLY, MATRIX_CASES},
    {PROFILE_H_COMPOSE, MATRIX_CASES},
};

/* A cell: extremes first, then random values of every size. */
static int16_t cell(rng *r)
{
    static const int16_t extremes[] = {32767, -32768, -32767, 0, 4096, -4096, 1, -1, 2048};
    if (rng_chance(r, 30)) return extremes[rng_below(r, sizeof extremes / sizeof extremes[0])];
    if (rng_chance(r, 50)) return (int16_t)rng_range(r, -4096, 4096);
    return (int16_t)rng_range(r, -32768, 32767);
}

static void random_matrix(rng *r, emu_matrix *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m->m[i][j] = cell(r);
    for (int k = 0; k < 3; k++)
        m->t[k] = rng_chance(r, 20) ? (int32_t)(rng_chance(r, 50) ? INT32_MAX : INT32_MIN)
                                    : (int32_t)(rng_next(r) >> 40) - (1 << 23);
}

static void to_ref(const emu_matrix *e, ref_matrix *r)
{
    memcpy(r->m, e->m, sizeof r->m);
    memcpy(r->t, e->t, sizeof r->t);
}

/* Case i of a helper's operands into io. */
static void make_case(profile_helper_id role, uint64_t seed, uint64_t i, emu_pose_io *io)
{
    memset(io, 0, sizeof *io);
    if (role == PROFILE_H_SIN || role == PROFILE_H_COS) {
        io->angle = (int32_t)(int16_t)(uint16_t)i;
        return;
    }
    rng r = rng_make(seed, rng_mix(i * 8 + (uint64_t)role));
    random_matrix(&r, &io->a);
    random_matrix(&r, &io->b);
    for (int k = 0; k < 3; k++) io->sv[k] = cell(&r);
}

/* Compares one case: 0 same, 1 differs (what in why). */
static int compare(profile_helper_id role, const ref_pose_opts *o, emu_pose_io *io, char *why,
                   size_t n)
{
    if (role == PROFILE_H_SIN || role == PROFILE_H_COS) {
        int16_t a = (int16_t)io->angle;
        int32_t ref = role == PROFILE_H_SIN ? ref_pose_sin(a, o->trig) : ref_pose_cos(a, o->trig);
        if (ref == io->value) return 0;
        snprintf(why, n, "angle %d: reference %d, original %d", a, ref, io->value);
        return 1;
    }
    ref_matrix a, b, out;
    to_ref(&io->a, &a);
    to_ref(&io->b, &b);
    if (role == PROFILE_H_APPLY) {
        int32_t v[3];
        ref_pose_apply(a.m, io->sv, o->width_t, v);
        for (int k = 0; k < 3; k++)
            if (v[k] != io->vout[k]) {
                snprintf(why, n, "a.m x (%d, %d, %d): out[%d] reference %d, original %d",
                         io->sv[0], io->sv[1], io->sv[2], k, v[k], io->vout[k]);
                return 1;
            }
        return 0;
    }
    if (role == PROFILE_H_COPY5) {
        ref_pose_mul(a.m, b.m, o->step, out.m);
        memcpy(out.t, io->out.t, sizeof out.t); /* copy5 is about the cells */
    } else {
        ref_pose_compose(&a, &b, o->step, o->width_t, &out);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (out.m[i][j] != io->out.m[i][j]) {
                snprintf(why, n, "m[%d][%d]: reference %d, original %d (a[%d] = %d %d %d)", i, j,
                         out.m[i][j], io->out.m[i][j], i, a.m[i][0], a.m[i][1], a.m[i][2]);
                return 1;
            }
    for (int k = 0; role == PROFILE_H_COMPOSE && k < 3; k++)
        if (out.t[k] != io->out.t[k]) {
            snprintf(why, n, "t[%d]: reference %d, original %d", k, out.t[k], io->out.t[k]);
            return 1;
        }
    return 0;
}

/* The profile's row of a role, as "name(params) -> result"; "" when absent. */
static void describe(const emu_profile *p, profile_helper_id role, pose_leaf_result *r)
{
    const profile_routine *row = profile_helper(p, role);
    snprintf(r->role, sizeof r->role, "%s", profile_helper_name(role));
    if (!row) {
        snprintf(r->note, sizeof r->note, "the profile has no %s helper row: not run",
                 profile_helper_name(role));
        return;
    }
    snprintf(r->routine, sizeof r->routine, "%s", row->name);
    size_t used = (size_t)snprintf(r->signature, sizeof r->signature, "(");
    for (unsigned i = 0; i < row->args && used < sizeof r->signature; i++)
        used += (size_t)snprintf(r->signature + used, sizeof r->signature - used, "%s%s",
                                 i ? ", " : "", profile_param_name(row->params[i]));
    if (used < sizeof r->signature)
        snprintf(r->signature + used, sizeof r->signature - used, ") -> %s",
                 profile_result_name(row->result));
}

int leaf_pose_setup(run_ctx *ctx, size_t *nunits)
{
    const emu_profile *p = emu_image_profile(ctx->cfg->image);
    run_results *res = ctx->res;
    res->npose_leaf = POSE_LEAF_HELPERS;
    *nunits = 0;
    for (int h = 0; h < POSE_LEAF_HELPERS; h++) {
        describe(p, rows[h].role, &res->pose_leaf[h]);
        *nunits += res->pose_leaf[h].routine[0] != 0;
    }
    return 0;
}

void leaf_pose_units(run_ctx *ctx, run_unit *units)
{
    size_t u = 0;
    for (int h = 0; h < POSE_LEAF_HELPERS; h++) {
        if (!ctx->res->pose_leaf[h].routine[0]) continue;
        run_unit *un = &units[u++];
        un->kind = UNIT_POSE_LEAF;
        un->leaf = (unsigned)h;
        un->cost = rows[h].cases * 4;
    }
}

/* The largest difference between two answers of one case (value, cells, t, vout). */
static int64_t widest(const pose_answer *a, const pose_answer *b)
{
    int64_t w = llabs((int64_t)a->value - b->value);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            int64_t d = llabs((int64_t)a->out.m[i][j] - b->out.m[i][j]);
            w = d > w ? d : w;
        }
        int64_t t = llabs((int64_t)a->out.t[i] - b->out.t[i]);
        int64_t v = llabs((int64_t)a->vout[i] - b->vout[i]);
        w = t > w ? t : w;
        w = v > w ? v : w;
    }
    return w;
}

/*
 * --engine both: case i's answer on the second engine (b) against the run's
 * engine's (a), counted into r.
 */
static void second_engine(uint64_t i, const pose_answer *a, const pose_answer *b,
                          pose_leaf_result *r)
{
    r->eng_calls++;
    int faulted = a->faulted, faulted2 = b->faulted;
    int64_t w = faulted || faulted2 ? 0 : widest(a, b);
    int same_fault = faulted && faulted2 && a->kind == b->kind && a->eip == b->eip;
    if ((faulted || faulted2) ? same_fault : w == 0) return;
    int x87 = !faulted && !faulted2 && w == 1;
    if (x87)
        r->eng_x87++;
    else
        r->eng_disagree++;
    if (r->eng_first[0]) return;
    if (faulted || faulted2)
        snprintf(r->eng_first, sizeof r->eng_first,
                 "case %llu: fault %s on the first engine, %s "
                 "on the second",
                 (unsigned long long)i,
                 emu_fault_name(faulted ? (emu_fault_kind)a->kind : EMU_FAULT_NONE),
                 emu_fault_name(faulted2 ? (emu_fault_kind)b->kind : EMU_FAULT_NONE));
    else
        snprintf(r->eng_first, sizeof r->eng_first,
                 "case %llu: results differ by %lld at most (value %d against %d)",
                 (unsigned long long)i, (long long)w, a->value, b->value);
}

size_t leaf_pose_answers_size(uint64_t n)
{
    return offsetof(pose_leaf_answers, a) + (size_t)n * sizeof(pose_answer);
}

uint64_t leaf_pose_cases(const run_unit *u)
{
    return rows[u->leaf].cases;
}

pose_leaf_answers *leaf_pose_answers_new(const run_unit *u)
{
    return malloc(leaf_pose_answers_size(leaf_pose_cases(u)));
}

void leaf_pose_answer(run_ctx *ctx, emu_game *g, const run_unit *u, pose_leaf_answers *out)
{
    const helper_row *row = &rows[u->leaf];
    out->n = 0;
    out->have_fault = 0;
    out->fault_index = 0;
    memset(out->fault_detail, 0, sizeof out->fault_detail);
    for (uint64_t i = 0; i < row->cases && !run_cancelled(ctx); i++) {
        emu_pose_io io;
        emu_fault fault;
        make_case(row->role, ctx->cfg->seed, i, &io);
        pose_answer *e = &out->a[out->n++];
        memset(e, 0, sizeof *e);
        if (emu_game_pose_helper(g, row->role, &io, &fault) < 0) {
            e->faulted = 1;
            e->kind = (uint8_t)fault.kind;
            e->eip = fault.eip;
            if (!out->have_fault) {
                out->have_fault = 1;
                out->fault_index = i;
                snprintf(out->fault_detail, sizeof out->fault_detail, "%s", fault.detail);
            }
            continue;
        }
        e->out = io.out;
        e->value = io.value;
        memcpy(e->vout, io.vout, sizeof e->vout);
    }
}

int leaf_pose_answers_sound(const run_unit *u, pose_leaf_answers *a, size_t len)
{
    if (len < offsetof(pose_leaf_answers, a) || a->n != rows[u->leaf].cases ||
        len != leaf_pose_answers_size(a->n))
        return 0;
    a->fault_detail[sizeof a->fault_detail - 1] = 0;
    uint64_t first = a->n;
    for (uint64_t i = 0; i < a->n; i++) {
        if (a->a[i].faulted > 1 || a->a[i].kind >= EMU_FAULT__COUNT) return 0;
        if (a->a[i].faulted && first == a->n) first = i;
    }
    return a->have_fault ? a->fault_index == first : first == a->n;
}

void leaf_pose_judge(run_ctx *ctx, const run_unit *u, const pose_leaf_answers *first,
                     const pose_leaf_answers *second, pose_leaf_result *out)
{
    const helper_row *row = &rows[u->leaf];
    pose_leaf_result local;
    memset(&local, 0, sizeof local);
    int trig = row->role == PROFILE_H_SIN || row->role == PROFILE_H_COS;
    for (uint64_t i = 0; i < first->n && i < row->cases; i++) {
        const pose_answer *e = &first->a[i];
        local.calls++;
        if (second && i < second->n) second_engine(i, e, &second->a[i], &local);
        if (e->faulted) {
            if (!local.faults++)
                snprintf(local.first_fault, sizeof local.first_fault, "case %llu: %.200s",
                         (unsigned long long)first->fault_index, first->fault_detail);
            continue;
        }
        emu_pose_io io;
        make_case(row->role, ctx->cfg->seed, i, &io);
        io.out = e->out;
        io.value = e->value;
        memcpy(io.vout, e->vout, sizeof io.vout);
        char why[200];
        if (compare(row->role, &ctx->pose_opts, &io, why, sizeof why) && !local.mismatches++)
            snprintf(local.first, sizeof local.first, "case %llu, %s", (unsigned long long)i,
                     why);
        for (int t = 0; trig && t < REF_TRIG__COUNT; t++) {
            int16_t a = (int16_t)io.angle;
            int32_t v = row->role == PROFILE_H_SIN ? ref_pose_sin(a, (ref_pose_trig)t)
                                                   : ref_pose_cos(a, (ref_pose_trig)t);
            local.trig_matched[t] += v == io.value;
        }
    }
    *out = local;
}

int leaf_pose_run_unit(run_ctx *ctx, emu_game *g, emu_game *g2, const run_unit *u, ff_error *err)
{
    pose_leaf_answers *first = leaf_pose_answers_new(u),
                      *second = g2 ? leaf_pose_answers_new(u) : NULL;
    if (!first || (g2 && !second)) {
        free(first);
        free(second);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    leaf_pose_answer(ctx, g, u, first);
    if (g2) leaf_pose_answer(ctx, g2, u, second);
    pose_leaf_result local;
    leaf_pose_judge(ctx, u, first, second, &local);
    free(first);
    free(second);
    leaf_pose_merge(ctx, u, &local);
    return 0;
}

void leaf_pose_lost(const run_unit *u, const char *why, pose_leaf_result *local)
{
    memset(local, 0, sizeof *local);
    local->calls = local->faults = rows[u->leaf].cases;
    snprintf(local->first_fault, sizeof local->first_fault, "case 0: %.200s", why);
}

void leaf_pose_merge(run_ctx *ctx, const run_unit *u, const pose_leaf_result *lp)
{
    const helper_row *row = &rows[u->leaf];
    const pose_leaf_result local = *lp;
    int trig = row->role == PROFILE_H_SIN || row->role == PROFILE_H_COS;
    pthread_mutex_lock(&ctx->lock);
    pose_leaf_result *dst = &ctx->res->pose_leaf[u->leaf];
    dst->ran = 1;
    dst->trig = trig;
    dst->calls = local.calls;
    dst->mismatches = local.mismatches;
    dst->faults = local.faults;
    memcpy(dst->first, local.first, sizeof dst->first);
    memcpy(dst->first_fault, local.first_fault, sizeof dst->first_fault);
    memcpy(dst->trig_matched, local.trig_matched, sizeof dst->trig_matched);
    dst->eng_calls = local.eng_calls;
    dst->eng_x87 = local.eng_x87;
    dst->eng_disagree = local.eng_disagree;
    memcpy(dst->eng_first, local.eng_first, sizeof dst->eng_first);
    pthread_mutex_unlock(&ctx->lock);
}
