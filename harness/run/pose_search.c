/*
 * harness/run/pose_search.c: the pose level's convention search (`auto`).
 *
 * Before the run, states of the corpus (harness/run/pose_sample.h) are
 * sampled and the original's pose of each is emulated: BuildBoneMatrices,
 * then ComputeBonesWorldMatrices under both bases. The reference's
 * candidates are scored on the results. The choices are separable by what
 * they show in (ref/pose.h's REF_POSE_KEY_MAP: one row a key, its fifth
 * column): the keys that show in the cells (order, trig, step, root) are
 * decided together on plain states; those of the translations (offset,
 * length) given the best cells; the scale path's only on states whose flag
 * bit0 is set; the width sites that show only in sums past 2^31 on every
 * state, the extreme ones sampled for them, bone and world matrices alike.
 * The stages are derived from the rows: a new key is one row, searched in
 * the stage of what it shows; a key that shows in nothing is never varied
 * and is reported as undecided. When the staged choice misses sampled
 * states, a joint stage on every state follows (refine). Every candidate
 * tried is kept for the report (their number is bounded by
 * POSE_CONV_MAX_CANDIDATES, derived from the same rows: passing it is an
 * internal error), and so is what decided each choice: evidence (every
 * other value matches fewer values), or the default (another value ties).
 */
#include <pthread.h>
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

/* The threads a score is computed on: at most this many. */
#define SEARCH_THREADS 8

/* Room for the reference's side of one state: skeleton, world, placed. */
typedef struct work {
    uint8_t *skel, *world, *placed;
    ref_trig_table **tables; /* per trig option, filled when first asked; shared by every work */
    /* the works of the other threads a score is split over (w[0]'s only; nteam 0: none) */
    struct work *team;
    unsigned nteam;
} work;

/* Where a state is first missed: the area (0 bone, 1 world, 2 placed), bone, value. */
typedef struct miss {
    const pose_state *s;
    int area, bone, k;
} miss;

/* The states and values each kind of choice shows in, and its stage's name. */
typedef struct scope {
    int sel, what;
} scope;

static const scope scopes[REF_SHOWS__COUNT] = {
    [REF_SHOWS_CELLS] = {SEL_PLAIN, CMP_CELLS},
    [REF_SHOWS_T] = {SEL_PLAIN, CMP_T},
    [REF_SHOWS_SCALE] = {SEL_SCALE, CMP_CELLS | CMP_T},
    [REF_SHOWS_SUMS] = {SEL_ALL, CMP_ALL},
    [REF_SHOWS_NONE] = {SEL_ALL, CMP_ALL},
};

/* The keys that show in `shows`, in key order, into keys; returns how many. */
static int keys_showing(ref_pose_shows shows, ref_pose_key keys[REF_POSE_KEY__COUNT])
{
    int n = 0;
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
        if (ref_pose_key_shows((ref_pose_key)k) == shows) keys[n++] = (ref_pose_key)k;
    return n;
}

/*
 * A scale-path state of more than REF_POSE_STACK_SLOTS bones overruns the
 * engine's arrays under the notes' layout: what the original computes there
 * is no evidence about a convention, so such states are left out (counted).
 */
static int overruns(const pose_state *s)
{
    return pose_state_scaled(s->in) && s->bones > REF_POSE_STACK_SLOTS;
}

static int selected(const pose_state *s, int sel)
{
    if (overruns(s)) return 0;
    if (s->extreme) return (sel & SEL_EXTREME) != 0;
    return (sel & (pose_state_scaled(s->in) ? SEL_SCALE : SEL_PLAIN)) != 0;
}

/* Value k (0..8 the cells, 9..11 t) of bone b of a skeleton's MATRIX area. */
static int32_t value_at(const uint8_t *skel, int b, int k)
{
    const uint8_t *p = skel + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE + 0x10;
    return k < 9 ? le_s16(p + 2 * k) : le_s32(p + 0x14 + 4 * (k - 9));
}

/*
 * The sin and cos table of trig t, filled when first asked (65536 angles
 * once, against several per bone of every state each candidate poses);
 * NULL when memory runs out: the pose computes them, the same values.
 */
static const ref_trig_table *table_of(work *w, ref_pose_trig t)
{
    if ((unsigned)t >= REF_TRIG__COUNT) return NULL;
    if (!w->tables[t] && (w->tables[t] = malloc(sizeof *w->tables[t])) &&
        ref_trig_table_fill(w->tables[t], t) < 0) {
        free(w->tables[t]);
        w->tables[t] = NULL;
    }
    return w->tables[t];
}

/* The reference's pose of s under o into w (world and placed when asked). */
static void pose_ref(const pose_state *s, const ref_pose_opts *o, int world, work *w)
{
    memcpy(w->skel, s->in, s->len);
    ref_build_bone_matrices_table(w->skel, s->bones, o, NULL, table_of(w, o->trig));
    if (world) pose_ref_world(w->skel, s->bones, o, w->world, w->placed);
}

/* Scores o on the selected states i with i % step == first; m: the first miss, if asked. */
static score evaluate_some(const pose_sample *sm, const ref_pose_opts *o, int sel, int what,
                           work *w, miss *m, size_t first, size_t step)
{
    score sc = {0, 0, 0, 0};
    for (size_t i = first; i < sm->n; i += step) {
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

/* One thread's share of a score. */
typedef struct share {
    const pose_sample *sm;
    const ref_pose_opts *o;
    int sel, what;
    work *w;
    size_t first, step;
    score sc;
} share;

static void *evaluate_share(void *arg)
{
    share *h = arg;
    h->sc = evaluate_some(h->sm, h->o, h->sel, h->what, h->w, NULL, h->first, h->step);
    return NULL;
}

/*
 * Scores o on the selected states; m: the first miss, if asked. Without m
 * the states are split over w's team (the counts add up the same in any
 * order), once o's trig table is filled: the threads only read it.
 */
static score evaluate(const pose_sample *sm, const ref_pose_opts *o, int sel, int what, work *w,
                      miss *m)
{
    unsigned n = 1 + w->nteam;
    if (m || n == 1 || !table_of(w, o->trig)) return evaluate_some(sm, o, sel, what, w, m, 0, 1);
    share h[SEARCH_THREADS];
    pthread_t th[SEARCH_THREADS];
    int started[SEARCH_THREADS] = {0};
    for (unsigned k = 0; k < n; k++)
        h[k] = (share){sm, o, sel, what, k ? &w->team[k - 1] : w, k, n, {0, 0, 0, 0}};
    for (unsigned k = 1; k < n; k++)
        started[k] = pthread_create(&th[k], NULL, evaluate_share, &h[k]) == 0;
    evaluate_share(&h[0]);
    score sc = h[0].sc;
    for (unsigned k = 1; k < n; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            evaluate_share(&h[k]);
        sc.frames += h[k].sc.frames;
        sc.frames_total += h[k].sc.frames_total;
        sc.values += h[k].sc.values;
        sc.values_total += h[k].sc.values_total;
    }
    return sc;
}

/* Keeps a candidate; 1 past POSE_CONV_MAX_CANDIDATES (a bound the stages cannot pass). */
static int record(pose_conv *pc, const ref_pose_opts *o, const char *stage, score sc)
{
    if (pc->ncand >= POSE_CONV_MAX_CANDIDATES) return 1;
    pose_candidate *c = &pc->cand[pc->ncand++];
    ref_pose_opts_format(o, c->opts, sizeof c->opts);
    snprintf(c->stage, sizeof c->stage, "%s", stage);
    c->frames = sc.frames;
    c->frames_total = sc.frames_total;
    c->values = sc.values;
    c->values_total = sc.values_total;
    return 0;
}

/*
 * Tries every value of keys[0..nkeys) together (others from *best); keeps
 * the best in *best. Returns 1 when a candidate could not be kept.
 */
static int stage(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best,
                 const ref_pose_key *keys, int nkeys, int sel, int what, const char *name,
                 work *w)
{
    int full = 0;
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
        full |= record(pc, &o, name, sc);
        /* Most values matched wins; a tie keeps the earlier (default-first) candidate. */
        if (i == 0 || sc.values > top.values) {
            top = sc;
            winner = o;
        }
    }
    *best = winner;
    return full;
}

/* The stage of the keys that show in `shows` (none: nothing tried). */
static int stage_of(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best,
                    ref_pose_shows shows, work *w)
{
    ref_pose_key keys[REF_POSE_KEY__COUNT];
    int n = keys_showing(shows, keys);
    if (!n) return 0;
    return stage(pc, sm, best, keys, n, scopes[shows].sel, scopes[shows].what,
                 ref_pose_shows_name(shows), w);
}

/*
 * The stages are decided on the states that show their choice; when those
 * cannot tell the candidates apart (few plain states, or small skeletons:
 * every candidate ties and the default stays), the staged choice misses
 * states the right one matches. Then the cells' keys, and the translations'
 * with the scale's, are decided again jointly on every sampled state, at
 * most POSE_CONV_JOINT_ROUNDS times each, until the choice matches every
 * state or stops improving. (The extreme states and the world matrices are
 * left to the sums' stage.) Returns 1 when the choice changed; *full is set
 * when a candidate could not be kept.
 */
static int refine(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best, work *w, int *full)
{
    ref_pose_key cells[REF_POSE_KEY__COUNT], rest[REF_POSE_KEY__COUNT];
    int ncells = keys_showing(REF_SHOWS_CELLS, cells);
    int nrest = keys_showing(REF_SHOWS_T, rest);
    nrest += keys_showing(REF_SHOWS_SCALE, rest + nrest);
    const int sel = SEL_PLAIN | SEL_SCALE, what = CMP_CELLS | CMP_T;
    score now = evaluate(sm, best, sel, what, w, NULL);
    ref_pose_opts staged = *best;
    for (int round = 0; round < POSE_CONV_JOINT_ROUNDS && now.frames < now.frames_total; round++) {
        uint64_t before = now.frames;
        *full |= stage(pc, sm, best, rest, nrest, sel, what, "joint", w);
        *full |= stage(pc, sm, best, cells, ncells, sel, what, "joint", w);
        now = evaluate(sm, best, sel, what, w, NULL);
        if (now.frames <= before) break;
    }
    if (memcmp(&staged, best, sizeof staged) == 0) return 0;
    snprintf(pc->note, sizeof pc->note,
             "The states that show each choice left it undecided; it was decided jointly on "
             "every sampled state");
    return 1;
}

/*
 * 1 when s posed under o (already in w[0]) and under o with key's value
 * flipped (into w[1]) differs anywhere: a two-valued key's values told apart.
 */
_Static_assert(REF_WIDTH__COUNT == 2, "the keys that show in sums are two-valued widths");

static int tells_values(const pose_state *s, const ref_pose_opts *o, ref_pose_key key, work *w)
{
    ref_pose_opts o1 = *o;
    ref_pose_opts_set(&o1, key, ref_pose_opts_get(o, key) ? 0u : 1u);
    work b = {w[1].skel, w[1].world, w[1].placed, w[1].tables, NULL, 0};
    pose_ref(s, &o1, 1, &b);
    return memcmp(w[0].skel, b.skel, s->len) || memcmp(w[0].world, b.world, s->len) ||
           memcmp(w[0].placed, b.placed, s->len);
}

/* The sums' stage: the sampled states that tell each site apart, then the stage. */
static int sums_stage(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best, work *w)
{
    pc->width_states = 0;
    memset(pc->telling, 0, sizeof pc->telling);
    for (size_t i = 0; i < sm->n; i++) {
        int any = 0;
        if (overruns(&sm->s[i])) continue;
        work a = {w[0].skel, w[0].world, w[0].placed, w[0].tables, NULL, 0};
        pose_ref(&sm->s[i], best, 1, &a); /* once; each site's flip is compared with it */
        for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
            if (ref_pose_key_shows((ref_pose_key)k) != REF_SHOWS_SUMS) continue;
            int t = tells_values(&sm->s[i], best, (ref_pose_key)k, w);
            pc->telling[k] += (uint64_t)t;
            any |= t;
        }
        pc->width_states += (uint64_t)any;
    }
    return stage_of(pc, sm, best, REF_SHOWS_SUMS, w);
}

static void append_name(char *buf, size_t n, const char *name)
{
    size_t at = strlen(buf);
    snprintf(buf + at, n - at, "%s%s", at ? ", " : "", name);
}

/* A key that shows only in sums: undecided when no sampled state tells its values apart. */
static void decide_sums(pose_conv *pc, ref_pose_key key, pose_key_decision *d)
{
    unsigned long long telling = (unsigned long long)pc->telling[key];
    const char *name = ref_pose_key_name(key);
    if (!telling) {
        d->basis = POSE_BASIS_UNDECIDED;
        snprintf(d->note, sizeof d->note,
                 "undecided: no sampled state tells 32-bit from 64-bit at %s", name);
    } else if (d->basis == POSE_BASIS_EVIDENCE) {
        snprintf(d->note, sizeof d->note,
                 "on the %llu of the %llu states that tell 32-bit from 64-bit at %s", telling,
                 (unsigned long long)pc->states, name);
    } else {
        d->basis = POSE_BASIS_DEFAULT;
        snprintf(d->note, sizeof d->note,
                 "the %llu of the %llu states that tell 32-bit from 64-bit at %s favour neither",
                 telling, (unsigned long long)pc->states, name);
    }
}

/* What decided each choice: every other value of the key scored on the states showing it. */
static void decide_keys(pose_conv *pc, const pose_sample *sm, const ref_pose_opts *best, work *w)
{
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        ref_pose_key key = (ref_pose_key)k;
        ref_pose_shows shows = ref_pose_key_shows(key);
        pose_key_decision *d = &pc->keys[k];
        if (shows == REF_SHOWS_NONE) {
            d->basis = POSE_BASIS_UNDECIDED;
            snprintf(d->note, sizeof d->note,
                     "no input can tell its values apart (the same result under each); the "
                     "default is kept");
            continue;
        }
        int sel = scopes[shows].sel, what = scopes[shows].what;
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
        /* Counted against the states searched (pc->states), the run's one count. */
        unsigned long long shown = (unsigned long long)mine.frames_total,
                           all = (unsigned long long)pc->states;
        d->basis = !shown ? POSE_BASIS_DEFAULT
                   : more[0] ? POSE_BASIS_JOINT
                   : ties[0] ? POSE_BASIS_DEFAULT
                             : POSE_BASIS_EVIDENCE;
        /* Cut to fit (the return value read: a long list of ties may not fit). */
        int k = !shown     ? snprintf(d->note, sizeof d->note, "no sampled state shows it")
                : more[0] ? snprintf(d->note, sizeof d->note,
                                     "%.40s: more values on the %llu of the %llu states that "
                                     "show it",
                                     more, shown, all)
                : ties[0] ? snprintf(d->note, sizeof d->note,
                                     "%.40s: as many values on the %llu of the %llu states "
                                     "that show it",
                                     ties, shown, all)
                          : snprintf(d->note, sizeof d->note,
                                     "every other value: fewer values on the %llu of the %llu "
                                     "states that show it",
                                     shown, all);
        if (k < 0) d->note[0] = '\0';
        if (shows == REF_SHOWS_SUMS) decide_sums(pc, key, d);
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

/*
 * The staged search on sm, then the checks; the result in pc and *best.
 * Returns 1 when a candidate could not be kept (an internal error).
 */
static int search(pose_conv *pc, const run_ctx *ctx, const pose_sample *sm, ref_pose_opts *best,
                  work w[2])
{
    int full = 0;
    ref_pose_opts_default(best);
    for (size_t i = 0; i < sm->n; i++) {
        if (overruns(&sm->s[i])) {
            pc->overrun_states++;
            continue;
        }
        if (sm->s[i].extreme) {
            pc->extreme_states++;
            continue;
        }
        pc->states++;
        pc->scale_states += (uint64_t)pose_state_scaled(sm->s[i].in);
    }
    full |= stage_of(pc, sm, best, REF_SHOWS_CELLS, w);
    full |= stage_of(pc, sm, best, REF_SHOWS_T, w);
    if (pc->scale_states)
        full |= stage_of(pc, sm, best, REF_SHOWS_SCALE, w);
    else
        snprintf(pc->note, sizeof pc->note,
                 "No sampled state takes the scale path: the scale option is not "
                 "determined (default kept)");
    full |= sums_stage(pc, sm, best, w);
    if (refine(pc, sm, best, w, &full)) full |= sums_stage(pc, sm, best, w);
    full |= record(pc, best, "final", evaluate(sm, best, SEL_ALL, CMP_ALL, w, NULL));
    first_miss(pc, ctx, sm, best, w);
    decide_keys(pc, sm, best, w);
    if (!sm->n)
        snprintf(pc->note, sizeof pc->note,
                 "No state could be sampled: the default convention is kept");
    return full;
}

int pose_search_run(run_ctx *ctx, unsigned threads, ff_error *err)
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
    /* Two works of this thread's (a pose and its flip), one for each other thread. */
    unsigned nteam = threads > SEARCH_THREADS ? SEARCH_THREADS - 1 : threads ? threads - 1 : 0;
    uint8_t *buf = rc == 0 ? malloc(3 * (2 + (size_t)nteam) * maxlen) : NULL;
    if (rc == 0 && !buf) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    ref_trig_table *tables[REF_TRIG__COUNT] = {0};
    work team[SEARCH_THREADS];
    for (unsigned k = 0; rc == 0 && k < nteam; k++) {
        uint8_t *at = buf + 3 * (2 + (size_t)k) * maxlen;
        team[k] = (work){at, at + maxlen, at + 2 * maxlen, tables, NULL, 0};
    }
    if (rc == 0) {
        work w[2] = {{buf, buf + maxlen, buf + 2 * maxlen, tables, team, nteam},
                     {buf + 3 * maxlen, buf + 4 * maxlen, buf + 5 * maxlen, tables, NULL, 0}};
        ref_pose_opts best;
        if (search(pc, ctx, &sm, &best, w))
            rc = ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                              "pose search: more candidates than POSE_CONV_MAX_CANDIDATES (%u)",
                              (unsigned)POSE_CONV_MAX_CANDIDATES);
        ctx->pose_opts = best;
        pc->source = POSE_CONV_SEARCH;
        ref_pose_opts_format(&best, pc->chosen, sizeof pc->chosen);
        /* A width site the sample could not settle is left to the comparison (pose_width.h). */
        for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
            ctx->width.site[k].open = ref_pose_key_shows((ref_pose_key)k) == REF_SHOWS_SUMS &&
                                      pc->keys[k].basis != POSE_BASIS_EVIDENCE;
    }
    free(buf);
    for (unsigned t = 0; t < REF_TRIG__COUNT; t++) free(tables[t]);
    pose_sample_free(&sm);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pc->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return rc;
}
