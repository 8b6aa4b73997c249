/*
 * harness/run/pose_search.c: the pose level's convention search (`auto`).
 *
 * Before the run, states of the corpus (harness/run/pose_sample.h) are
 * sampled and the original's pose of each is emulated: BuildBoneMatrices,
 * then ComputeBonesWorldMatrices under both bases. The reference's
 * candidates are scored on the results. The choices are separable: order,
 * trig and step show in the cells (plain states, without the scale path);
 * offset and length in the translations, given the best cells; scale only
 * on states whose flag bit0 is set; the width of the sums only where a sum
 * passes 2^31, which the extreme states are sampled for, bone and world
 * matrices alike. That is 48 + 12 + 2 + 2 candidates instead of the 2304
 * combinations; when the staged choice misses sampled states, a joint stage
 * on every state follows (refine). Every candidate tried is kept for the
 * report, and so is what decided each choice: evidence (every other value
 * matches fewer values), or the default (another value ties).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/le.h"
#include "harness/run/pose_sample.h"
#include "harness/run/pose_search.h"
#include "harness/run/pose_side.h"
#include "harness/run/context.h"

/* What a stage compares: bone cells, bone translations, the world matrices. */
enum { CMP_CELLS = 1, CMP_T = 2, CMP_WORLD = 4, CMP_ALL = 7 };
/* Which states it looks at. */
enum { SEL_PLAIN = 1, SEL_SCALE = 2, SEL_EXTREME = 4, SEL_ALL = 7 };

typedef struct score {
    uint64_t frames, frames_total, values, values_total;
} score;

/* Room for the reference's side of one state: skeleton, world, placed. */
typedef struct work {
    uint8_t *skel, *world, *placed;
} work;

/* Where a state is first missed: the area (0 bone, 1 world, 2 placed), bone, value. */
typedef struct miss {
    const pose_state *s;
    int area, bone, k;
} miss;

static int selected(const pose_state *s, int sel)
{
    if (s->extreme) return (sel & SEL_EXTREME) != 0;
    return (sel & (pose_state_scaled(s->in) ? SEL_SCALE : SEL_PLAIN)) != 0;
}

/* Value k (0..8 the cells, 9..11 t) of bone b of a skeleton's MATRIX area. */
static int32_t value_at(const uint8_t *skel, int b, int k)
{
    const uint8_t *p = skel + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE + 0x10;
    return k < 9 ? le_s16(p + 2 * k) : le_s32(p + 0x14 + 4 * (k - 9));
}

/* The reference's pose of s under o into w (world and placed when asked). */
static void pose_ref(const pose_state *s, const ref_pose_opts *o, int world, work *w)
{
    memcpy(w->skel, s->in, s->len);
    ref_build_bone_matrices(w->skel, s->bones, o);
    if (world) pose_ref_world(w->skel, s->bones, o, w->world, w->placed);
}

/* Scores o on the selected states; m: the first miss, if asked. */
static score evaluate(const pose_sample *sm, const ref_pose_opts *o, int sel, int what, work *w,
                      miss *m)
{
    score sc = {0, 0, 0, 0};
    for (size_t i = 0; i < sm->n; i++) {
        const pose_state *s = &sm->s[i];
        if (!selected(s, sel)) continue;
        pose_ref(s, o, what & CMP_WORLD, w);
        const uint8_t *ref[3] = {w->skel, w->world, w->placed};
        const uint8_t *orig[3] = {s->orig, s->world, s->placed};
        int whole = 1;
        for (int area = 0; area < ((what & CMP_WORLD) ? 3 : 1); area++)
            for (unsigned b = 0; b < s->bones; b++)
                for (int k = 0; k < 12; k++) {
                    if (area == 0 && !(what & (k < 9 ? CMP_CELLS : CMP_T))) continue;
                    sc.values_total++;
                    if (value_at(ref[area], (int)b, k) == value_at(orig[area], (int)b, k)) {
                        sc.values++;
                        continue;
                    }
                    if (whole && m && !m->s) *m = (miss){s, area, (int)b, k};
                    whole = 0;
                }
        sc.frames_total++;
        sc.frames += whole;
    }
    return sc;
}

static void record(pose_conv *pc, const ref_pose_opts *o, const char *stage, score sc)
{
    if (pc->ncand >= POSE_CONV_MAX_CANDIDATES) return;
    pose_candidate *c = &pc->cand[pc->ncand++];
    ref_pose_opts_format(o, c->opts, sizeof c->opts);
    snprintf(c->stage, sizeof c->stage, "%s", stage);
    c->frames = sc.frames;
    c->frames_total = sc.frames_total;
    c->values = sc.values;
    c->values_total = sc.values_total;
}

/* Tries every value of keys[0..nkeys) together (others from *best); keeps the best in *best. */
static void stage(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best,
                  const ref_pose_key *keys, int nkeys, int sel, int what, const char *name,
                  work *w)
{
    unsigned total = 1;
    for (int k = 0; k < nkeys; k++)
        total *= ref_pose_value_count(keys[k]);
    ref_pose_opts winner = *best;
    score top = {0, 0, 0, 0};
    for (unsigned i = 0; i < total; i++) {
        ref_pose_opts o = *best;
        unsigned rest = i;
        for (int k = nkeys - 1; k >= 0; k--) {
            unsigned n = ref_pose_value_count(keys[k]);
            ref_pose_opts_set(&o, keys[k], rest % n);
            rest /= n;
        }
        score sc = evaluate(sm, &o, sel, what, w, NULL);
        record(pc, &o, name, sc);
        /* Most values matched wins; a tie keeps the earlier (default-first) candidate. */
        if (i == 0 || sc.values > top.values) {
            top = sc;
            winner = o;
        }
    }
    *best = winner;
}

/*
 * The stages are decided on the states that show their choice; when those
 * cannot tell the candidates apart (few plain states, or small skeletons:
 * every candidate ties and the default stays), the staged choice misses
 * states the right one matches. Then the cells, and the translations with
 * the scale, are decided again jointly on every sampled state, at most
 * twice each, until the choice matches every state or stops improving.
 * (The extreme states and the world matrices are left to the width stage.)
 */
static int refine(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best, work *w)
{
    static const ref_pose_key cells[] = {REF_POSE_KEY_ORDER, REF_POSE_KEY_TRIG, REF_POSE_KEY_STEP};
    static const ref_pose_key rest[] = {REF_POSE_KEY_OFFSET, REF_POSE_KEY_LENGTH,
                                        REF_POSE_KEY_SCALE};
    const int sel = SEL_PLAIN | SEL_SCALE, what = CMP_CELLS | CMP_T;
    score now = evaluate(sm, best, sel, what, w, NULL);
    ref_pose_opts staged = *best;
    for (int round = 0; round < 2 && now.frames < now.frames_total; round++) {
        uint64_t before = now.frames;
        stage(pc, sm, best, rest, 3, sel, what, "joint", w);
        stage(pc, sm, best, cells, 3, sel, what, "joint", w);
        now = evaluate(sm, best, sel, what, w, NULL);
        if (now.frames <= before) break;
    }
    if (memcmp(&staged, best, sizeof staged) == 0) return 0;
    snprintf(pc->note, sizeof pc->note,
             "The states that show each choice left it undecided; it was decided jointly on "
             "every sampled state");
    return 1;
}

/* 1 when s posed under o in 32 bits and in 64 bits differs anywhere. */
static int tells_widths(const pose_state *s, const ref_pose_opts *o, work *w)
{
    ref_pose_opts o32 = *o, o64 = *o;
    o32.width = REF_WIDTH_32;
    o64.width = REF_WIDTH_64;
    work a = {w[0].skel, w[0].world, w[0].placed}, b = {w[1].skel, w[1].world, w[1].placed};
    pose_ref(s, &o32, 1, &a);
    pose_ref(s, &o64, 1, &b);
    return memcmp(a.skel, b.skel, s->len) || memcmp(a.world, b.world, s->len) ||
           memcmp(a.placed, b.placed, s->len);
}

/* The width stage: on every state (the extreme ones for it), bone and world matrices. */
static void width_stage(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best, work *w)
{
    static const ref_pose_key width[] = {REF_POSE_KEY_WIDTH};
    pc->width_states = 0;
    for (size_t i = 0; i < sm->n; i++)
        pc->width_states += (uint64_t)tells_widths(&sm->s[i], best, w);
    stage(pc, sm, best, width, 1, SEL_ALL, CMP_ALL, "width", w);
}

/* The states and values that show key's choice. */
static void key_scope(ref_pose_key key, int *sel, int *what)
{
    switch (key) {
    case REF_POSE_KEY_ORDER:
    case REF_POSE_KEY_TRIG:
    case REF_POSE_KEY_STEP:
        *sel = SEL_PLAIN, *what = CMP_CELLS;
        return;
    case REF_POSE_KEY_OFFSET:
    case REF_POSE_KEY_LENGTH:
        *sel = SEL_PLAIN, *what = CMP_T;
        return;
    case REF_POSE_KEY_SCALE:
        *sel = SEL_SCALE, *what = CMP_CELLS | CMP_T;
        return;
    default:
        *sel = SEL_ALL, *what = CMP_ALL;
        return;
    }
}

static void append_name(char *buf, size_t n, const char *name)
{
    size_t at = strlen(buf);
    snprintf(buf + at, n - at, "%s%s", at ? ", " : "", name);
}

/* What decided each choice: every other value of the key scored on the states showing it. */
static void decide_keys(pose_conv *pc, const pose_sample *sm, const ref_pose_opts *best, work *w)
{
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        ref_pose_key key = (ref_pose_key)k;
        pose_key_decision *d = &pc->keys[k];
        int sel, what;
        key_scope(key, &sel, &what);
        score mine = evaluate(sm, best, sel, what, w, NULL);
        char ties[64] = "", more[64] = "";
        unsigned chosen = ref_pose_opts_get(best, key);
        for (unsigned v = 0; v < ref_pose_value_count(key); v++) {
            if (v == chosen) continue;
            ref_pose_opts o = *best;
            ref_pose_opts_set(&o, key, v);
            score sc = evaluate(sm, &o, sel, what, w, NULL);
            if (sc.values == mine.values) append_name(ties, sizeof ties, ref_pose_value_name(key, v));
            if (sc.values > mine.values) append_name(more, sizeof more, ref_pose_value_name(key, v));
        }
        unsigned long long shown = (unsigned long long)mine.frames_total;
        d->basis = !shown ? POSE_BASIS_DEFAULT
                   : more[0] ? POSE_BASIS_JOINT
                   : ties[0] ? POSE_BASIS_DEFAULT
                             : POSE_BASIS_EVIDENCE;
        if (!shown)
            snprintf(d->note, sizeof d->note, "no sampled state shows it");
        else if (more[0])
            snprintf(d->note, sizeof d->note, "%.48s: more values of the %llu states that show it",
                     more, shown);
        else if (ties[0])
            snprintf(d->note, sizeof d->note, "%.48s: as many values of the %llu states that show it",
                     ties, shown);
        else
            snprintf(d->note, sizeof d->note,
                     "every other value: fewer values of the %llu states that show it", shown);
    }
    pose_key_decision *d = &pc->keys[REF_POSE_KEY_WIDTH];
    unsigned long long telling = (unsigned long long)pc->width_states;
    if (!telling) {
        d->basis = POSE_BASIS_UNDECIDED;
        snprintf(d->note, sizeof d->note,
                 "undecided: no state of this corpus tells 32-bit from 64-bit sums");
    } else if (d->basis == POSE_BASIS_EVIDENCE) {
        snprintf(d->note, sizeof d->note,
                 "on the %llu sampled states that tell 32-bit from 64-bit sums", telling);
    } else {
        d->basis = POSE_BASIS_DEFAULT;
        snprintf(d->note, sizeof d->note,
                 "the %llu sampled states that tell 32-bit from 64-bit sums favour neither",
                 telling);
    }
}

static void first_miss(pose_conv *pc, const run_ctx *ctx, const pose_sample *sm,
                       const ref_pose_opts *o, work *w)
{
    static const char *const names[12] = {"m[0][0]", "m[0][1]", "m[0][2]", "m[1][0]",
                                          "m[1][1]", "m[1][2]", "m[2][0]", "m[2][1]",
                                          "m[2][2]", "t.x",     "t.y",     "t.z"};
    static const char *const areas[3] = {"bone", "world", "placed"};
    static const int order[3] = {SEL_PLAIN, SEL_SCALE, SEL_EXTREME};
    pc->all_match = 1;
    for (int i = 0; i < 3 && pc->all_match; i++) {
        miss m = {NULL, 0, 0, 0};
        evaluate(sm, o, order[i], CMP_ALL, w, &m);
        if (!m.s) continue;
        pc->all_match = 0;
        snprintf(pc->first_file, sizeof pc->first_file, "%s", ctx->res->files[m.s->file].name);
        pc->first_clip = m.s->clip;
        pc->first_tick = m.s->tick;
        pc->first_mode = m.s->mode;
        snprintf(pc->first_field, sizeof pc->first_field, "%s[%d].%s", areas[m.area], m.bone,
                 names[m.k]);
        pose_ref(m.s, o, 1, w);
        const uint8_t *ref[3] = {w->skel, w->world, w->placed};
        const uint8_t *orig[3] = {m.s->orig, m.s->world, m.s->placed};
        pc->first_ref = value_at(ref[m.area], m.bone, m.k);
        pc->first_orig = value_at(orig[m.area], m.bone, m.k);
    }
}

/* The staged search on sm, then the checks; the result in pc and *best. */
static void search(pose_conv *pc, const run_ctx *ctx, const pose_sample *sm, ref_pose_opts *best,
                   work w[2])
{
    static const ref_pose_key cells[] = {REF_POSE_KEY_ORDER, REF_POSE_KEY_TRIG,
                                         REF_POSE_KEY_STEP};
    static const ref_pose_key trans[] = {REF_POSE_KEY_OFFSET, REF_POSE_KEY_LENGTH};
    static const ref_pose_key scale[] = {REF_POSE_KEY_SCALE};
    ref_pose_opts_default(best);
    for (size_t i = 0; i < sm->n; i++) {
        if (sm->s[i].extreme) {
            pc->extreme_states++;
            continue;
        }
        pc->states++;
        pc->scale_states += (uint64_t)pose_state_scaled(sm->s[i].in);
    }
    stage(pc, sm, best, cells, 3, SEL_PLAIN, CMP_CELLS, "cells", w);
    stage(pc, sm, best, trans, 2, SEL_PLAIN, CMP_T, "translations", w);
    if (pc->scale_states)
        stage(pc, sm, best, scale, 1, SEL_SCALE, CMP_CELLS | CMP_T, "scale", w);
    else
        snprintf(pc->note, sizeof pc->note,
                 "No sampled state takes the scale path: the scale option is not "
                 "determined (default kept)");
    width_stage(pc, sm, best, w);
    if (refine(pc, sm, best, w)) width_stage(pc, sm, best, w);
    record(pc, best, "final", evaluate(sm, best, SEL_ALL, CMP_ALL, w, NULL));
    first_miss(pc, ctx, sm, best, w);
    decide_keys(pc, sm, best, w);
    if (!sm->n)
        snprintf(pc->note, sizeof pc->note,
                 "No state could be sampled: the default convention is kept");
}

int pose_search_run(run_ctx *ctx, ff_error *err)
{
    pose_conv *pc = &ctx->res->pose;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pose_sample sm;
    memset(&sm, 0, sizeof sm);
    int rc = pose_sample_corpus(ctx, &sm, err);
    if (rc == 0) rc = pose_sample_original(ctx, &sm, &pc->faulted, err);
    size_t maxlen = 1;
    for (size_t i = 0; i < sm.n; i++)
        if (sm.s[i].len > maxlen) maxlen = sm.s[i].len;
    uint8_t *buf = rc == 0 ? malloc(6 * maxlen) : NULL;
    if (rc == 0 && !buf) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (rc == 0) {
        work w[2] = {{buf, buf + maxlen, buf + 2 * maxlen},
                     {buf + 3 * maxlen, buf + 4 * maxlen, buf + 5 * maxlen}};
        ref_pose_opts best;
        search(pc, ctx, &sm, &best, w);
        ctx->pose_opts = best;
        pc->source = POSE_CONV_SEARCH;
        ref_pose_opts_format(&best, pc->chosen, sizeof pc->chosen);
        /* A width the sample could not settle is left to the comparison (pose_width.h). */
        ctx->width.open = pc->keys[REF_POSE_KEY_WIDTH].basis != POSE_BASIS_EVIDENCE;
    }
    free(buf);
    pose_sample_free(&sm);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pc->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return rc;
}
