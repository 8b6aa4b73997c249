/*
 * harness/run/pose_search.c: the pose level's convention search (`auto`).
 *
 * Before the run, states of the corpus (the skeleton after decoding calls
 * of the reference, whose frame level the run then checks) are sampled
 * across files, in normal and SLOW mode, with and without the scale path.
 * The original's BuildBoneMatrices runs once on each; the reference's
 * candidates are scored on the results. The choices are separable: order,
 * trig and step show in the cells (states without the scale path); offset
 * and length in the translations, given the best cells; scale only on
 * states whose flag bit0 is set. That is 48 + 12 + 2 candidates instead of
 * the 1152 combinations; when the staged choice misses sampled states, a
 * joint stage on every state follows (refine). Every candidate tried is kept
 * for the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/grow.h"
#include "common/le.h"
#include "harness/run/pose_search.h"
#include "harness/run/refside.h"
#include "harness/run/context.h"

#define PER_FILE 8     /* states per file and kind (plain, scale path) */
#define MAX_STATES 256 /* plain states in all */
#define MAX_SCALE 64   /* scale-path states in all */
#define TICK_STRIDE 3  /* every third decoding call of a clip */

typedef struct state {
    uint32_t file;
    int32_t clip, tick;
    mode_id mode;
    uint8_t *in;   /* skeleton before BuildBoneMatrices */
    uint8_t *orig; /* after the original's */
    size_t len;
    unsigned bones;
} state;

typedef struct sample {
    state *s;
    size_t n, cap;
    size_t plain, scale;
} sample;

static void sample_free(sample *sm)
{
    for (size_t i = 0; i < sm->n; i++) {
        free(sm->s[i].in);
        free(sm->s[i].orig);
    }
    free(sm->s);
}

static int keep(sample *sm, const ref_anim *a, uint32_t f, uint32_t clip, mode_id m, int tick,
                ff_error *err)
{
    if (GROW(sm->s, sm->cap, sm->n + 1, 64) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory sampling poses");
    size_t len = ref_skel_size(a->dat);
    state *s = &sm->s[sm->n];
    memset(s, 0, sizeof *s);
    s->in = malloc(len);
    s->orig = malloc(len);
    if (!s->in || !s->orig) {
        free(s->in);
        free(s->orig);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory sampling poses");
    }
    memcpy(s->in, a->skel, len);
    s->file = f;
    s->clip = (int32_t)clip;
    s->tick = tick;
    s->mode = m;
    s->len = len;
    s->bones = a->bones;
    sm->n++;
    return 0;
}

static int scale_path(const uint8_t *skel)
{
    return skel[DAT_SKEL_FLAGS] & 1;
}

/* Samples one file: every TICK_STRIDE-th decoding call of its clips, normal then SLOW. */
static int sample_file(sample *sm, const dat_file *d, uint32_t f, ff_error *err)
{
    size_t len = ref_skel_size(d);
    uint8_t *skel = malloc(len ? len : 1);
    ref_anim a;
    if (!skel) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory sampling poses");
    if (ref_anim_init(&a, d, skel, len, err) < 0) {
        free(skel);
        return 0; /* a file the reference cannot read is the run's bad input, not the search's */
    }
    unsigned plain = 0, scaled = 0;
    static const mode_id modes[] = {MODE_NORMAL, MODE_SLOW};
    int rc = 0;
    for (int k = 0; k < 2 && rc == 0; k++)
        for (uint32_t c = 0; c < d->clips && c <= REFSIDE_MAX_CLIP && rc == 0; c++) {
            ref_anim_reset_skeleton(&a);
            memset(&a.cmd, 0, sizeof a.cmd);
            a.cmd.flags = mode_flags(modes[k]);
            ff_error e;
            int ret = 0, tick = 0;
            if (ref_start_clip(&a, (int16_t)c, &ret, &e) < 0) continue;
            for (; ret == 0 && rc == 0 && tick < REFSIDE_MAX_TICKS; tick++) {
                int sp = scale_path(a.skel);
                int want = sp ? scaled < PER_FILE && sm->scale < MAX_SCALE
                              : plain < PER_FILE && sm->plain < MAX_STATES;
                if (want && (tick % TICK_STRIDE == 0 || sp)) {
                    rc = keep(sm, &a, f, c, modes[k], tick, err);
                    if (sp)
                        scaled++, sm->scale++;
                    else
                        plain++, sm->plain++;
                }
                if (ref_read_animation(&a, &ret, &e) < 0) break;
            }
        }
    free(skel);
    return rc;
}

/* The original's BuildBoneMatrices on every sampled state; faulting states are dropped. */
static int run_original(run_ctx *ctx, sample *sm, uint64_t *faulted, ff_error *err)
{
    emu_game *g;
    if (emu_game_open(ctx->cfg->image, &ctx->cfg->game, &g, err) < 0) return -1;
    int64_t loaded = -1;
    size_t kept = 0;
    for (size_t i = 0; i < sm->n; i++) {
        state *s = &sm->s[i];
        if (i == 0 || s->file != sm->s[i - 1].file) {
            /* States come file by file: each file is loaded once, from the run's files. */
            const dat_file *d;
            ff_error e;
            loaded = -1;
            if (run_file_get(ctx, s->file, &d, &e) == 0) {
                if (emu_game_load_file(g, d->data, d->size, d->skel_off,
                                       d->section[DAT_SECTION_GEOMETRY], d->anim_off, &e) == 0)
                    loaded = (int64_t)s->file;
                run_file_put(ctx, s->file);
            }
        }
        uint32_t ret;
        emu_fault fault;
        int ok = loaded >= 0;
        if (ok) {
            emu_game_set_skeleton(g, s->in);
            ok = emu_game_build_matrices(g, &ret, &fault) == 0;
        }
        if (!ok) {
            (*faulted)++;
            free(s->in);
            free(s->orig);
            loaded = -1; /* a fault may have damaged the guest copy */
            continue;
        }
        memcpy(s->orig, emu_game_skeleton(g), s->len);
        sm->s[kept++] = *s;
    }
    sm->n = kept;
    emu_game_close(g);
    return 0;
}

/* What a stage compares of a bone: cells, translations or both. */
enum { CMP_CELLS = 1, CMP_T = 2 };

typedef struct score {
    uint64_t frames, frames_total, values, values_total;
} score;

/*
 * Scores o on the states of one kind (with_scale 1: scale path, 0: not, -1:
 * every state); miss: the first miss, if asked.
 */
static score evaluate(const sample *sm, const ref_pose_opts *o, int with_scale, int what,
                      uint8_t *work, const state **miss, int *miss_bone, int *miss_k)
{
    score sc = {0, 0, 0, 0};
    for (size_t i = 0; i < sm->n; i++) {
        const state *s = &sm->s[i];
        if (with_scale >= 0 && scale_path(s->in) != with_scale) continue;
        memcpy(work, s->in, s->len);
        ref_build_bone_matrices(work, s->bones, o);
        int whole = 1;
        for (unsigned b = 0; b < s->bones; b++) {
            const uint8_t *r = work + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE + 0x10;
            const uint8_t *g = s->orig + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE + 0x10;
            for (int k = 0; k < 12; k++) {
                if (!(what & (k < 9 ? CMP_CELLS : CMP_T))) continue;
                int32_t x = k < 9 ? le_s16(r + 2 * k) : le_s32(r + 0x14 + 4 * (k - 9));
                int32_t y = k < 9 ? le_s16(g + 2 * k) : le_s32(g + 0x14 + 4 * (k - 9));
                sc.values_total++;
                if (x == y) {
                    sc.values++;
                    continue;
                }
                if (whole && miss && !*miss) {
                    *miss = s;
                    *miss_bone = (int)b;
                    *miss_k = k;
                }
                whole = 0;
            }
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
static void stage(pose_conv *pc, const sample *sm, ref_pose_opts *best, const ref_pose_key *keys,
                  int nkeys, int with_scale, int what, const char *name, uint8_t *work)
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
        score sc = evaluate(sm, &o, with_scale, what, work, NULL, NULL, NULL);
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
 */
static void refine(pose_conv *pc, const sample *sm, ref_pose_opts *best, uint8_t *work)
{
    static const ref_pose_key cells[] = {REF_POSE_KEY_ORDER, REF_POSE_KEY_TRIG, REF_POSE_KEY_STEP};
    static const ref_pose_key rest[] = {REF_POSE_KEY_OFFSET, REF_POSE_KEY_LENGTH,
                                        REF_POSE_KEY_SCALE};
    score now = evaluate(sm, best, -1, CMP_CELLS | CMP_T, work, NULL, NULL, NULL);
    ref_pose_opts staged = *best;
    for (int round = 0; round < 2 && now.frames < now.frames_total; round++) {
        uint64_t before = now.frames;
        stage(pc, sm, best, rest, 3, -1, CMP_CELLS | CMP_T, "joint", work);
        stage(pc, sm, best, cells, 3, -1, CMP_CELLS | CMP_T, "joint", work);
        now = evaluate(sm, best, -1, CMP_CELLS | CMP_T, work, NULL, NULL, NULL);
        if (now.frames <= before) break;
    }
    if (memcmp(&staged, best, sizeof staged) != 0)
        snprintf(pc->note, sizeof pc->note,
                 "The states that show each choice left it undecided; it was decided jointly on "
                 "every sampled state");
}

static void first_miss(pose_conv *pc, const run_ctx *ctx, const sample *sm, const ref_pose_opts *o,
                       uint8_t *work)
{
    static const char *const names[12] = {"m[0][0]", "m[0][1]", "m[0][2]", "m[1][0]",
                                          "m[1][1]", "m[1][2]", "m[2][0]", "m[2][1]",
                                          "m[2][2]", "t.x",     "t.y",     "t.z"};
    pc->all_match = 1;
    for (int with_scale = 0; with_scale < 2 && pc->all_match; with_scale++) {
        const state *miss = NULL;
        int bone = 0, k = 0;
        evaluate(sm, o, with_scale, CMP_CELLS | CMP_T, work, &miss, &bone, &k);
        if (!miss) continue;
        pc->all_match = 0;
        snprintf(pc->first_file, sizeof pc->first_file, "%s", ctx->res->files[miss->file].name);
        pc->first_clip = miss->clip;
        pc->first_tick = miss->tick;
        pc->first_mode = miss->mode;
        snprintf(pc->first_field, sizeof pc->first_field, "bone[%d].%s", bone, names[k]);
        memcpy(work, miss->in, miss->len);
        ref_build_bone_matrices(work, miss->bones, o);
        const uint8_t *r = work + DAT_SKEL_HEADER + (size_t)bone * DAT_BONE_SIZE + 0x10;
        const uint8_t *g = miss->orig + DAT_SKEL_HEADER + (size_t)bone * DAT_BONE_SIZE + 0x10;
        pc->first_ref = k < 9 ? le_s16(r + 2 * k) : le_s32(r + 0x14 + 4 * (k - 9));
        pc->first_orig = k < 9 ? le_s16(g + 2 * k) : le_s32(g + 0x14 + 4 * (k - 9));
    }
}

int pose_search_run(run_ctx *ctx, ff_error *err)
{
    pose_conv *pc = &ctx->res->pose;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sample sm;
    memset(&sm, 0, sizeof sm);
    int rc = 0;
    for (uint32_t f = 0; f < ctx->res->nfiles && rc == 0; f++) {
        const dat_file *d;
        ff_error e;
        if (!ctx->res->files[f].parsed || run_file_get(ctx, f, &d, &e) < 0) continue;
        if (dat_kind_has_model(d->kind)) rc = sample_file(&sm, d, f, err);
        run_file_put(ctx, f);
    }
    if (rc == 0) rc = run_original(ctx, &sm, &pc->faulted, err);
    size_t maxlen = 0;
    for (size_t i = 0; i < sm.n; i++)
        if (sm.s[i].len > maxlen) maxlen = sm.s[i].len;
    uint8_t *work = rc == 0 ? malloc(maxlen ? maxlen : 1) : NULL;
    if (rc == 0 && !work) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (rc == 0) {
        ref_pose_opts best;
        ref_pose_opts_default(&best);
        static const ref_pose_key cells[] = {REF_POSE_KEY_ORDER, REF_POSE_KEY_TRIG,
                                             REF_POSE_KEY_STEP};
        static const ref_pose_key trans[] = {REF_POSE_KEY_OFFSET, REF_POSE_KEY_LENGTH};
        static const ref_pose_key scale[] = {REF_POSE_KEY_SCALE};
        for (size_t i = 0; i < sm.n; i++) {
            pc->states++;
            pc->scale_states += scale_path(sm.s[i].in);
        }
        stage(pc, &sm, &best, cells, 3, 0, CMP_CELLS, "cells", work);
        stage(pc, &sm, &best, trans, 2, 0, CMP_T, "translations", work);
        if (pc->scale_states)
            stage(pc, &sm, &best, scale, 1, 1, CMP_CELLS | CMP_T, "scale", work);
        else
            snprintf(pc->note, sizeof pc->note,
                     "No sampled state takes the scale path: the scale option is not "
                     "determined (default kept)");
        refine(pc, &sm, &best, work);
        score all = evaluate(&sm, &best, -1, CMP_CELLS | CMP_T, work, NULL, NULL, NULL);
        record(pc, &best, "final", all);
        first_miss(pc, ctx, &sm, &best, work);
        if (!sm.n)
            snprintf(pc->note, sizeof pc->note,
                     "No state could be sampled: the default convention is kept");
        ctx->pose_opts = best;
        pc->source = POSE_CONV_SEARCH;
        ref_pose_opts_format(&best, pc->chosen, sizeof pc->chosen);
    }
    free(work);
    sample_free(&sm);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pc->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return rc;
}
