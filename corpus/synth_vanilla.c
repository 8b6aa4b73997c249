/*
 * corpus/synth_vanilla.c: the `vanilla` preset, sized on the measured
 * figures of the game's monster corpus (ENGINE.md section 7): 143 monster
 * models c0m000-c0m143 (c0m127 without a model), bones 1-71 (median 30),
 * clips per file 1-50 (median 22), frames per clip 1-140 (median 15, 90th
 * percentile 36, exactly two clips above 128), 22 files and 259 clips on
 * the scale path, and about 13% of clips in files that copy another file's
 * skeleton + animation. A few character files follow: two body + weapon
 * pairs (one with a clip a frame longer on the weapon), an Edea-like
 * 10-section body and a reduced weapon.
 *
 * Values are quantiles of piecewise-linear tables shuffled by the seed, so
 * the totals are nearly the same for every seed. Must not print or exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth_plan.h"
#include "common/rng.h"

#define MONSTERS 144      /* c0m000..c0m143 */
#define NO_MODEL 127      /* c0m127 */
#define WRAP_FILE 33      /* holds the s16-wrap clip (as c0m033 clip 10 does) */
#define EXTREMES_FILE 105 /* holds the width-extremes clip (0x7C00 scales, as c0m105) */
#define LONG_FILE_A 47    /* clip 0 has 129 frames */
#define LONG_FILE_B 88    /* clip 0 has 140 frames */
#define BONES_MIN 1       /* ends of bones_q */
#define BONES_MAX 71
#define CLIPS_MAX 50 /* end of clips_q */
#define SCALE_FILES 22
#define SCALE_CLIPS 259
#define DUP_PERCENT 13

typedef struct knot {
    double u, v;
} knot;

static const knot bones_q[] = {{0, BONES_MIN}, {0.05, 4}, {0.5, 30}, {0.95, 55}, {1, BONES_MAX}};
static const knot clips_q[] = {{0, 1}, {0.1, 5}, {0.5, 22}, {0.8, 30}, {1, CLIPS_MAX}};
static const knot frames_q[] = {{0, 1},    {0.2, 4},   {0.5, 15}, {0.7, 20},
                                {0.9, 36}, {0.97, 52}, {1, 100}};

enum role { ROLE_FREE, ROLE_FEATURE, ROLE_DUP, ROLE_SOURCE, ROLE_SCALE };

static double quantile(const knot *k, size_t nk, double u)
{
    for (size_t i = 1; i < nk; i++)
        if (u <= k[i].u)
            return k[i - 1].v + (k[i].v - k[i - 1].v) * (u - k[i - 1].u) / (k[i].u - k[i - 1].u);
    return k[nk - 1].v;
}

/* n quantiles of a table (first and last pinned to its ends), shuffled. */
static void pool(unsigned *out, size_t n, const knot *k, size_t nk, rng *r)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (unsigned)(quantile(k, nk, (i + 0.5) / n) + 0.5);
    if (n) out[0] = (unsigned)k[0].v, out[n - 1] = (unsigned)k[nk - 1].v;
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(r, (uint32_t)i);
        unsigned t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
}

static void shuffle(unsigned *a, size_t n, rng *r)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(r, (uint32_t)i);
        unsigned t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* Working state of the monster part. */
typedef struct vplan {
    unsigned bones[MONSTERS], nclips[MONSTERS];
    enum role role[MONSTERS];
    int dup_of[MONSTERS];
    unsigned scale_k[MONSTERS]; /* scale-path random clips per file */
} vplan;

static int is_feature(unsigned m)
{
    return m == WRAP_FILE || m == EXTREMES_FILE || m == LONG_FILE_A || m == LONG_FILE_B;
}

/* Picks copies: each takes the free file whose clip count is closest. */
static void pick_dups(vplan *v, rng *r)
{
    unsigned order[MONSTERS], n = 0, total = 0, dup_clips = 0;
    for (unsigned m = 0; m < MONSTERS; m++) {
        total += v->nclips[m];
        if (v->role[m] == ROLE_FREE) order[n++] = m;
    }
    shuffle(order, n, r);
    for (unsigned k = 0; k < n && dup_clips * 100 < total * DUP_PERCENT; k++) {
        unsigned i = order[k], best = MONSTERS, gap = ~0u;
        if (v->role[i] != ROLE_FREE) continue;
        for (unsigned j = 0; j < MONSTERS; j++) {
            if (j == i || v->role[j] != ROLE_FREE) continue;
            unsigned d = v->nclips[j] > v->nclips[i] ? v->nclips[j] - v->nclips[i]
                                                     : v->nclips[i] - v->nclips[j];
            if (d < gap) gap = d, best = j;
        }
        if (best == MONSTERS) break;
        total = total - v->nclips[i] + v->nclips[best];
        v->nclips[i] = v->nclips[best];
        v->bones[i] = v->bones[best];
        v->role[i] = ROLE_DUP;
        v->role[best] = ROLE_SOURCE;
        v->dup_of[i] = (int)best;
        dup_clips += v->nclips[best];
    }
}

/* 22 scale files (the extremes file among them) sharing 259 scale clips. */
static void pick_scale(vplan *v, rng *r)
{
    unsigned order[MONSTERS], n = 0, files[SCALE_FILES], nf = 0, cap_sum = 0;
    for (unsigned m = 0; m < MONSTERS; m++)
        if (v->role[m] == ROLE_FREE) order[n++] = m;
    shuffle(order, n, r);
    files[nf++] = EXTREMES_FILE;
    for (unsigned k = 0; k < n && nf < SCALE_FILES; k++)
        files[nf++] = order[k];
    for (unsigned k = 0; k < nf; k++)
        cap_sum += v->nclips[files[k]];
    unsigned target = SCALE_CLIPS - 1, sum = 0; /* the extremes clip is one */
    for (unsigned k = 0; k < nf; k++) {
        unsigned f = files[k], want = cap_sum ? target * v->nclips[f] / cap_sum : 0;
        if (want < 1) want = 1;
        if (want > v->nclips[f]) want = v->nclips[f];
        v->scale_k[f] = want;
        v->role[f] = f == EXTREMES_FILE ? ROLE_FEATURE : ROLE_SCALE;
        sum += want;
    }
    for (unsigned k = 0, stuck = 0; sum < target && stuck < nf; k = (k + 1) % nf) {
        unsigned f = files[k];
        if (v->scale_k[f] < v->nclips[f])
            v->scale_k[f]++, sum++, stuck = 0;
        else
            stuck++;
    }
}

/* Fills one monster's clip list: frames from the pool, features, scales. */
static void fill_clips(plan_entry *e, unsigned m, const vplan *v, const unsigned *frames,
                       size_t *next, rng *r)
{
    unsigned n = v->nclips[m];
    for (unsigned c = 0; c < n; c++)
        e->clips[c].frames = (uint8_t)frames[(*next)++];
    if (m == LONG_FILE_A) e->clips[0].frames = 129;
    if (m == LONG_FILE_B) e->clips[0].frames = 140;
    unsigned idx[CLIPS_MAX]; /* n <= CLIPS_MAX: the clip table ends there */
    for (unsigned c = 0; c < n; c++)
        idx[c] = c;
    shuffle(idx, n, r);
    for (unsigned k = 0; k < v->scale_k[m]; k++)
        e->clips[idx[k]].scale = 1;
    if (m == EXTREMES_FILE) e->clips[n] = (synth_clip_spec){0, 0, SYNTH_CLIP_EXTREMES};
    if (m == WRAP_FILE) {
        unsigned at = n < 10 ? n : 10;
        memmove(&e->clips[at + 1], &e->clips[at], (n - at) * sizeof e->clips[0]);
        e->clips[at] = (synth_clip_spec){0, 0, SYNTH_CLIP_WRAP};
    }
}

static int add_monsters(synth_plan *p, const vplan *v, rng *r, ff_error *err)
{
    size_t slots = 0, next = 0;
    for (unsigned m = 0; m < MONSTERS; m++)
        if (m != NO_MODEL && v->role[m] != ROLE_DUP) slots += v->nclips[m];
    unsigned *frames = malloc((slots ? slots : 1) * sizeof *frames);
    if (!frames) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a plan");
    pool(frames, slots, frames_q, sizeof frames_q / sizeof frames_q[0], r);
    long index[MONSTERS];
    int rc = 0;
    for (unsigned m = 0; m < MONSTERS && rc == 0; m++) {
        char name[16];
        snprintf(name, sizeof name, "c0m%03u.dat", m);
        int model = m != NO_MODEL && v->role[m] != ROLE_DUP;
        unsigned extra = m == WRAP_FILE || m == EXTREMES_FILE;
        index[m] =
            synth_plan_add(p, name, m == NO_MODEL ? DAT_NO_MODEL : DAT_MONSTER,
                           model ? v->bones[m] : 0, model ? v->nclips[m] + extra : 0, NULL, err);
        if (index[m] < 0)
            rc = -1;
        else if (model)
            fill_clips(&p->e[index[m]], m, v, frames, &next, r);
    }
    for (unsigned m = 0; m < MONSTERS && rc == 0; m++)
        if (v->role[m] == ROLE_DUP)
            rc = synth_plan_copy_model(p, (size_t)index[m], (size_t)index[v->dup_of[m]], err);
    free(frames);
    return rc;
}

/* A character's clip list: frames 4..40, the same for body and weapon. */
static int add_character(synth_plan *p, const char *body, dat_kind kind, unsigned bones,
                         const char *weapon, unsigned weapon_bones, unsigned nclips,
                         int longer_clip, rng *r, ff_error *err)
{
    synth_clip_spec clips[32];
    for (unsigned c = 0; c < nclips; c++)
        clips[c] = (synth_clip_spec){(uint8_t)rng_range(r, 4, 40), 0, SYNTH_CLIP_RANDOM};
    if (synth_plan_add(p, body, kind, bones, nclips, clips, err) < 0) return -1;
    if (!weapon) return 0;
    if (longer_clip >= 0) clips[longer_clip].frames++;
    return synth_plan_add(p, weapon, DAT_WEAPON, weapon_bones, nclips, clips, err) < 0 ? -1 : 0;
}

int synth_plan_vanilla(synth_plan *p, ff_error *err)
{
    vplan v;
    memset(&v, 0, sizeof v);
    rng r = rng_make(p->seed, 0xA11A);
    unsigned b[MONSTERS - 1], c[MONSTERS - 1];
    pool(b, MONSTERS - 1, bones_q, sizeof bones_q / sizeof bones_q[0], &r);
    pool(c, MONSTERS - 1, clips_q, sizeof clips_q / sizeof clips_q[0], &r);
    for (unsigned m = 0, k = 0; m < MONSTERS; m++) {
        v.dup_of[m] = -1;
        if (m == NO_MODEL) {
            v.role[m] = ROLE_FEATURE;
            continue;
        }
        v.bones[m] = b[k];
        v.nclips[m] = c[k++];
        /* The 1-bone and 71-bone skeletons must not be replaced by copies. */
        if (is_feature(m) || v.bones[m] == BONES_MIN || v.bones[m] == BONES_MAX)
            v.role[m] = ROLE_FEATURE;
    }
    pick_dups(&v, &r);
    pick_scale(&v, &r);
    if (add_monsters(p, &v, &r, err) < 0) return -1;
    if (add_character(p, "d0c000.dat", DAT_BODY, 30, "d0w000.dat", 4, 10, -1, &r, err) < 0 ||
        synth_plan_add(p, "d1w000.dat", DAT_WEAPON_REDUCED, 0, 0, NULL, err) < 0 ||
        add_character(p, "d4c000.dat", DAT_BODY, 26, "d4w000.dat", 2, 8, 5, &r, err) < 0 ||
        add_character(p, "d7c016.dat", DAT_EDEA, 28, NULL, 0, 6, -1, &r, err) < 0)
        return -1;
    return 0;
}
