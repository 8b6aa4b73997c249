/*
 * harness/run/pose_sample.c: the states of the convention search
 * (pose_sample.h) and the original's pose of each.
 *
 * Plain and scale-path states: every TICK_STRIDE-th decoding call of each
 * clip (every call on the scale path), in normal and SLOW mode, at most
 * PER_FILE of each kind a file and MAX_STATES / MAX_SCALE in all. Extreme
 * states: in every mode, every call of every clip is measured by what its
 * input alone says about the size of its sums, without posing it (the
 * convention is what the search is looking for):
 *   translation  the largest |root[k] x model scale| (the root translation
 *                every bone's translation starts from);
 *   scale        on the scale path, the largest |s x v| of the scale vector
 *                chain worked out exactly (v = s << 2 at a root, the product
 *                >> 10 below it);
 * and the largest of each per file and mode is kept (once when it is the
 * same state, not again when it is already a plain or scale-path sample).
 */
#include "harness/run/pose_sample.h"

#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/le.h"
#include "harness/run/context.h"
#include "harness/run/pose_side.h"
#include "harness/run/refside.h"
#include "harness/run/run.h"

#define PER_FILE 8       /* plain and scale-path states per file and kind */
#define MAX_STATES 256   /* plain states in all */
#define MAX_SCALE 64     /* scale-path states in all */
#define MAX_EXTREME 4096 /* extreme states in all (two per file and mode) */
#define TICK_STRIDE 3    /* every third decoding call of a clip */
#define VEC_CLAMP ((int64_t)1 << 40) /* scale vectors kept exact below this */

int pose_state_scaled(const uint8_t *skel)
{
    return skel[DAT_SKEL_FLAGS] & 1;
}

void pose_sample_free(pose_sample *sm)
{
    for (size_t i = 0; i < sm->n; i++) {
        free(sm->s[i].in);
        free(sm->s[i].orig);
        free(sm->s[i].world);
        free(sm->s[i].placed);
    }
    free(sm->s);
    memset(sm, 0, sizeof *sm);
}

static int keep(pose_sample *sm, const uint8_t *skel, size_t len, unsigned bones, uint32_t f,
                int32_t clip, mode_id m, int32_t tick, int extreme, ff_error *err)
{
    if (GROW(sm->s, sm->cap, sm->n + 1, 64) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory sampling poses");
    pose_state *s = &sm->s[sm->n];
    memset(s, 0, sizeof *s);
    s->in = malloc(len);
    s->orig = malloc(len);
    s->world = malloc(len);
    s->placed = malloc(len);
    if (!s->in || !s->orig || !s->world || !s->placed) {
        free(s->in);
        free(s->orig);
        free(s->world);
        free(s->placed);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory sampling poses");
    }
    memcpy(s->in, skel, len);
    *s = (pose_state){f, clip, tick, m, extreme, s->in, s->orig, s->world, s->placed, len, bones};
    sm->n++;
    if (extreme)
        sm->extreme++;
    else if (pose_state_scaled(skel))
        sm->scale++;
    else
        sm->plain++;
    return 0;
}

/* The size of the root translation's sum: max |root[k] x model scale|. */
static int64_t translation_metric(const uint8_t *skel)
{
    int64_t top = 0, scale = le_s16(skel + DAT_SKEL_MODEL_SCALE);
    for (int k = 0; k < 3; k++) {
        int64_t v = le_s16(skel + DAT_SKEL_ROOT + 2 * k) * scale;
        if (v < 0) v = -v;
        if (v > top) top = v;
    }
    return top;
}

/* The largest |s x v| of the scale vector chain, exact (0 off the scale path). */
static int64_t scale_metric(const uint8_t *skel, unsigned bones, int64_t (*vec)[3])
{
    int64_t top = 0;
    if (!pose_state_scaled(skel)) return 0;
    for (unsigned i = 0; i < bones; i++) {
        const uint8_t *b = skel + DAT_SKEL_HEADER + (size_t)i * DAT_BONE_SIZE;
        int16_t p = le_s16(b + DAT_BONE_PARENT);
        int child = p >= 0 && (unsigned)p < i;
        for (int k = 0; k < 3; k++) {
            int64_t s = le_s16(b + DAT_BONE_SCALE + 2 * k);
            int64_t prod = s * (child ? vec[p][k] : 4096); /* a root: (s x 4096) >> 10 = s << 2 */
            int64_t v = prod / 1024;
            vec[i][k] = v > VEC_CLAMP ? VEC_CLAMP : v < -VEC_CLAMP ? -VEC_CLAMP : v;
            if (prod < 0) prod = -prod;
            if (child && prod > top) top = prod;
        }
    }
    return top;
}

/* The state of one file and mode with the largest metric so far. */
typedef struct extreme {
    int64_t metric;
    int32_t clip, tick;
    uint8_t *skel;
} extreme;

static void consider(extreme *x, int64_t metric, const uint8_t *skel, size_t len, uint32_t clip,
                     int tick)
{
    if (metric <= x->metric) return;
    x->metric = metric;
    x->clip = (int32_t)clip;
    x->tick = tick;
    memcpy(x->skel, skel, len);
}

/* 1 when file f's state (clip, tick, m) is among the states kept from index first on. */
static int kept(const pose_sample *sm, size_t first, int32_t clip, int32_t tick, mode_id m)
{
    for (size_t i = first; i < sm->n; i++)
        if (sm->s[i].clip == clip && sm->s[i].tick == tick && sm->s[i].mode == m) return 1;
    return 0;
}

/* One file in one mode: the regular samples (normal and SLOW), the two extremes. */
static int sample_mode(pose_sample *sm, ref_anim *a, uint32_t f, mode_id m, unsigned count[2],
                       extreme x[2], int64_t (*vec)[3], ff_error *err)
{
    const dat_file *d = a->dat;
    size_t len = ref_skel_size(d);
    int regular = m == MODE_NORMAL || m == MODE_SLOW, rc = 0;
    x[0].metric = x[1].metric = 0;
    for (uint32_t c = 0; c < d->clips && c <= REFSIDE_MAX_CLIP && rc == 0; c++) {
        ref_anim_reset_skeleton(a);
        memset(&a->cmd, 0, sizeof a->cmd);
        a->cmd.flags = mode_flags(m);
        ff_error e;
        int ret = 0, tick = 0;
        if (ref_start_clip(a, (int16_t)c, &ret, &e) < 0) continue;
        for (; ret == 0 && rc == 0 && tick < REFSIDE_MAX_TICKS; tick++) {
            int sp = pose_state_scaled(a->skel);
            int want = sp ? count[1] < PER_FILE && sm->scale < MAX_SCALE
                          : count[0] < PER_FILE && sm->plain < MAX_STATES;
            if (regular && want && (tick % TICK_STRIDE == 0 || sp)) {
                rc = keep(sm, a->skel, len, a->bones, f, (int32_t)c, m, tick, 0, err);
                count[sp]++;
            }
            consider(&x[0], translation_metric(a->skel), a->skel, len, c, tick);
            consider(&x[1], scale_metric(a->skel, a->bones, vec), a->skel, len, c, tick);
            if (ref_read_animation(a, &ret, &e) < 0) break;
        }
    }
    return rc;
}

/* Samples one file in every mode. */
static int sample_file(pose_sample *sm, const dat_file *d, uint32_t f, ff_error *err)
{
    size_t len = ref_skel_size(d), first = sm->n;
    uint8_t *skel = malloc(3 * (len ? len : 1));
    int64_t(*vec)[3] = malloc((d->bones ? d->bones : 1) * sizeof *vec);
    ref_anim a;
    int rc = 0;
    if (!skel || !vec) {
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory sampling poses");
    } else if (ref_anim_init(&a, d, skel, len, err) < 0) {
        ff_error_clear(err); /* a file the reference cannot read is the run's bad input */
    } else {
        unsigned count[2] = {0, 0};
        extreme x[2] = {{0, 0, 0, skel + len}, {0, 0, 0, skel + 2 * len}};
        for (int m = 0; m < MODE__COUNT && rc == 0; m++) {
            rc = sample_mode(sm, &a, f, (mode_id)m, count, x, vec, err);
            for (int k = 0; k < 2 && rc == 0; k++) {
                int same = k == 1 && x[0].metric && x[1].clip == x[0].clip &&
                           x[1].tick == x[0].tick;
                if (!x[k].metric || same || sm->extreme >= MAX_EXTREME ||
                    kept(sm, first, x[k].clip, x[k].tick, (mode_id)m))
                    continue;
                rc = keep(sm, x[k].skel, len, a.bones, f, x[k].clip, (mode_id)m, x[k].tick, 1,
                          err);
            }
        }
    }
    free(vec);
    free(skel);
    return rc;
}

int pose_sample_corpus(run_ctx *ctx, pose_sample *sm, ff_error *err)
{
    int rc = 0;
    for (uint32_t f = 0; f < ctx->res->nfiles && rc == 0; f++) {
        const dat_file *d;
        ff_error e;
        if (!ctx->res->files[f].parsed || run_file_get(ctx, f, &d, &e) < 0) continue;
        if (dat_kind_has_model(d->kind)) rc = sample_file(sm, d, f, err);
        run_file_put(ctx, f);
    }
    return rc;
}

/* Loads file f into g: 0, or -1 when it cannot be read or loaded again. */
static int load(run_ctx *ctx, emu_game *g, uint32_t f)
{
    const dat_file *d;
    ff_error e;
    if (run_file_get(ctx, f, &d, &e) < 0) return -1;
    int rc = emu_game_load_file(g, d->data, d->size, d->skel_off, d->section[DAT_SECTION_GEOMETRY],
                                d->anim_off, &e);
    run_file_put(ctx, f);
    return rc < 0 ? -1 : 0;
}

int pose_sample_run(run_ctx *ctx, emu_game *g, pose_sample *sm, uint8_t *ok, ff_error *err)
{
    pose_memo *memo = pose_memo_new(0);
    if (!memo) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the pose memo");
    int64_t loaded = -1;
    int rc = 0;
    for (size_t i = 0; i < sm->n; i++) {
        pose_state *s = &sm->s[i];
        /* States come file by file: each file is loaded once, from the run's files. */
        if (loaded != (int64_t)s->file) loaded = load(ctx, g, s->file) == 0 ? (int64_t)s->file : -1;
        ok[i] = loaded >= 0;
        if (ok[i]) {
            int emulated;
            emu_fault fault;
            ff_error e;
            ff_error_clear(&e);
            emu_game_set_skeleton(g, s->in);
            ok[i] = pose_orig_tick(memo, g, s->world, s->placed, &emulated, &fault, &e) == 0;
            if (e.kind == FF_E_NOMEM) {
                *err = e;
                rc = -1;
            }
        }
        if (ok[i])
            memcpy(s->orig, emu_game_skeleton(g), s->len);
        else
            loaded = -1; /* a fault may have damaged the guest copy */
    }
    pose_memo_free(memo);
    return rc;
}

void pose_sample_keep(pose_sample *sm, const uint8_t *ok, uint64_t *faulted)
{
    size_t kept_n = 0;
    for (size_t i = 0; i < sm->n; i++) {
        pose_state *s = &sm->s[i];
        if (ok[i]) {
            sm->s[kept_n++] = *s;
            continue;
        }
        (*faulted)++;
        free(s->in);
        free(s->orig);
        free(s->world);
        free(s->placed);
    }
    sm->n = kept_n;
}

int pose_sample_original(run_ctx *ctx, pose_sample *sm, uint64_t *faulted, ff_error *err)
{
    /* The executable's code on the CPU runs in an engine process of its own. */
    if (ctx->cfg->image && run_engine_processes(ctx->cfg))
        return pose_sample_confined(ctx, sm, faulted, err);
    uint8_t *ok = calloc(sm->n ? sm->n : 1, 1);
    if (!ok) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory sampling poses");
    emu_game *g;
    if (emu_game_open(ctx->cfg->image, &ctx->cfg->game, &g, err) < 0) {
        free(ok);
        return -1;
    }
    int rc = pose_sample_run(ctx, g, sm, ok, err);
    emu_game_close(g);
    pose_sample_keep(sm, ok, faulted);
    free(ok);
    return rc;
}
