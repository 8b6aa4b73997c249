/*
 * corpus/synth_vanilla.c: the `vanilla` preset, sized on the measured
 * figures of the game's monster corpus (docs/engine.md section 7): 143 monster
 * models c0m000-c0m143 (c0m127 without a model), bones 1-71 (median 30),
 * clips per file 1-50 (median 22), frames per clip 1-140 (median 15, 90th
 * percentile 36, exactly two clips above 128), 22 files and 259 clips on
 * the scale path, and about 13% of clips in files that copy another file's
 * skeleton + animation. The game's cast follows: 8 armed characters with
 * their weapons and the game's clip counts (Rinoa's clips 5 and 6 a frame
 * longer on the weapons), Zell and Kiros with reduced 5-section weapons,
 * Edea's 10-section body (docs/pose.md section 5).
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

/*
 * The cast (corpus/README.md): character number X, body numbers, first
 * weapon number and weapon count, kinds, and the game's clip counts
 * (docs/pose.md section 5). Groups 0-6 and their weapon counts follow a public
 * list of the game's files; the numbers from Seifer's weapon on are ours.
 */
typedef struct vchar {
    char x;
    const char *who;
    unsigned nbodies, body[2];
    dat_kind body_kind;
    unsigned nweapons, first_weapon;
    dat_kind weapon_kind;
    unsigned clips;
} vchar;

static const vchar cast[] = {
    {'0', "Squall", 2, {0, 1}, DAT_BODY, 7, 0, DAT_WEAPON, 42},
    {'1', "Zell", 2, {3, 4}, DAT_BODY, 4, 8, DAT_WEAPON_REDUCED, 38},
    {'2', "Irvine", 1, {6}, DAT_BODY, 4, 13, DAT_WEAPON, 32},
    {'3', "Quistis", 1, {7}, DAT_BODY, 4, 18, DAT_WEAPON, 38},
    {'4', "Rinoa", 1, {9}, DAT_BODY, 5, 23, DAT_WEAPON, 31},
    {'5', "Selphie", 2, {11, 12}, DAT_BODY, 4, 28, DAT_WEAPON, 33},
    {'6', "Seifer", 1, {14}, DAT_BODY, 1, 32, DAT_WEAPON, 36},
    {'7', "Edea", 1, {16}, DAT_EDEA, 0, 0, DAT_WEAPON, 30},
    {'8', "Laguna", 1, {17}, DAT_BODY, 1, 33, DAT_WEAPON, 31},
    {'9', "Kiros", 1, {18}, DAT_BODY, 1, 34, DAT_WEAPON_REDUCED, 34},
    {'a', "Ward", 1, {19}, DAT_BODY, 1, 35, DAT_WEAPON, 31},
};

#define CAST_MAX_CLIPS 42
#define CAST_MAX_WEAPONS 7
#define RINOA '4'
/* Rinoa: clips 5 and 6 are 14 and 23 frames on the body, 15 and 24 on the weapons. */
static const unsigned rinoa_longer[2] = {5, 6};
static const uint8_t rinoa_body_frames[2] = {14, 23};

/*
 * One character: bodies of 24-40 bones, weapons of 2-5, clips of 4-40
 * frames shared by every model of the character (Rinoa's two planted).
 * SLOW+FAST reads one frame past every clip of 2 frames or more (docs/engine.md
 * section 4), so every clip over-reads on the body and on the weapons alike.
 */
static int add_cast_member(synth_plan *p, const vchar *v, rng *r, ff_error *err)
{
    char body[2][16], weapon[CAST_MAX_WEAPONS][16];
    const char *bodies[2], *weapons[CAST_MAX_WEAPONS];
    for (unsigned b = 0; b < v->nbodies; b++) {
        snprintf(body[b], sizeof body[b], "d%cc%03u.dat", v->x, v->body[b]);
        bodies[b] = body[b];
    }
    for (unsigned w = 0; w < v->nweapons; w++) {
        snprintf(weapon[w], sizeof weapon[w], "d%cw%03u.dat", v->x, v->first_weapon + w);
        weapons[w] = weapon[w];
    }
    synth_clip_spec clips[CAST_MAX_CLIPS];
    for (unsigned c = 0; c < v->clips; c++)
        clips[c] = (synth_clip_spec){(uint8_t)rng_range(r, 4, 40), 0, SYNTH_CLIP_RANDOM};
    int rinoa = v->x == RINOA;
    for (unsigned k = 0; rinoa && k < 2; k++)
        clips[rinoa_longer[k]].frames = rinoa_body_frames[k];
    /* Drawn one after the other: initializers have no evaluation order. */
    unsigned bones = (unsigned)rng_range(r, 24, 40);
    unsigned weapon_bones = (unsigned)rng_range(r, 2, 5);
    synth_character c = {.body = bodies,
                         .nbodies = v->nbodies,
                         .body_kind = v->body_kind,
                         .bones = bones,
                         .weapon = weapons,
                         .nweapons = v->nweapons,
                         .weapon_kind = v->weapon_kind,
                         .weapon_bones = weapon_bones,
                         .clips = clips,
                         .nclips = v->clips,
                         .longer = rinoa ? rinoa_longer : NULL,
                         .nlonger = rinoa ? 2u : 0u};
    return synth_plan_character(p, &c, err);
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
    /* The cast draws from a stream of its own: the monsters stay as they were. */
    rng cr = rng_make(p->seed, rng_label("cast"));
    for (size_t i = 0; i < sizeof cast / sizeof cast[0]; i++)
        if (add_cast_member(p, &cast[i], &cr, err) < 0) return -1;
    return 0;
}
