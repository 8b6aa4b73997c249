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
 * The scores are harness/run/pose_score.c's.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness/run/pose_sample.h"
#include "harness/run/pose_score.h"
#include "harness/run/pose_search.h"
#include "harness/run/context.h"

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

/* Keeps a candidate; 1 past POSE_CONV_MAX_CANDIDATES (a bound the stages cannot pass). */
static int record(pose_conv *pc, const ref_pose_opts *o, const char *stage, pose_score sc)
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
                 pose_work *w)
{
    int full = 0;
    unsigned total = 1;
    for (int k = 0; k < nkeys; k++)
        total *= ref_pose_value_count(keys[k]);
    ref_pose_opts winner = *best;
    pose_score top = {0, 0, 0, 0};
    for (unsigned i = 0; i < total; i++) {
        ref_pose_opts o = *best;
        unsigned rest = i;
        for (int k = nkeys - 1; k >= 0; k--) {
            unsigned n = ref_pose_value_count(keys[k]);
            ref_pose_opts_set(&o, keys[k], rest % n);
            rest /= n;
        }
        pose_score sc = pose_eval(sm, &o, sel, what, w, NULL);
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
                    ref_pose_shows shows, pose_work *w)
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
static int refine(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best, pose_work *w, int *full)
{
    ref_pose_key cells[REF_POSE_KEY__COUNT], rest[REF_POSE_KEY__COUNT];
    int ncells = keys_showing(REF_SHOWS_CELLS, cells);
    int nrest = keys_showing(REF_SHOWS_T, rest);
    nrest += keys_showing(REF_SHOWS_SCALE, rest + nrest);
    const int sel = SEL_PLAIN | SEL_SCALE, what = CMP_CELLS | CMP_T;
    pose_score now = pose_eval(sm, best, sel, what, w, NULL);
    ref_pose_opts staged = *best;
    for (int round = 0; round < POSE_CONV_JOINT_ROUNDS && now.frames < now.frames_total; round++) {
        uint64_t before = now.frames;
        *full |= stage(pc, sm, best, rest, nrest, sel, what, "joint", w);
        *full |= stage(pc, sm, best, cells, ncells, sel, what, "joint", w);
        now = pose_eval(sm, best, sel, what, w, NULL);
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

static int tells_values(const pose_state *s, const ref_pose_opts *o, ref_pose_key key, pose_work *w)
{
    ref_pose_opts o1 = *o;
    ref_pose_opts_set(&o1, key, ref_pose_opts_get(o, key) ? 0u : 1u);
    pose_work b = {w[1].skel, w[1].world, w[1].placed, w[1].tables, NULL, 0};
    pose_score_ref(s, &o1, 1, &b);
    return memcmp(w[0].skel, b.skel, s->len) || memcmp(w[0].world, b.world, s->len) ||
           memcmp(w[0].placed, b.placed, s->len);
}

/* The sums' stage: the sampled states that tell each site apart, then the stage. */
static int sums_stage(pose_conv *pc, const pose_sample *sm, ref_pose_opts *best, pose_work *w)
{
    pc->width_states = 0;
    memset(pc->telling, 0, sizeof pc->telling);
    for (size_t i = 0; i < sm->n; i++) {
        int any = 0;
        if (pose_overruns(&sm->s[i])) continue;
        pose_work a = {w[0].skel, w[0].world, w[0].placed, w[0].tables, NULL, 0};
        pose_score_ref(&sm->s[i], best, 1, &a); /* once; each site's flip is compared with it */
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
static void decide_keys(pose_conv *pc, const pose_sample *sm, const ref_pose_opts *best, pose_work *w)
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
        pose_score mine = pose_eval(sm, best, sel, what, w, NULL);
        char ties[64] = "", more[64] = "";
        unsigned chosen = ref_pose_opts_get(best, key);
        for (unsigned v = 0; v < ref_pose_value_count(key); v++) {
            if (v == chosen) continue;
            ref_pose_opts o = *best;
            ref_pose_opts_set(&o, key, v);
            pose_score sc = pose_eval(sm, &o, sel, what, w, NULL);
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
                       const ref_pose_opts *o, pose_work *w)
{
    static const char *const names[12] = {"m[0][0]", "m[0][1]", "m[0][2]", "m[1][0]",
                                          "m[1][1]", "m[1][2]", "m[2][0]", "m[2][1]",
                                          "m[2][2]", "t.x",     "t.y",     "t.z"};
    static const char *const areas[3] = {"bone", "world", "placed"};
    static const int order[3] = {SEL_PLAIN, SEL_SCALE, SEL_EXTREME};
    pc->all_match = 1;
    for (int i = 0; i < 3 && pc->all_match; i++) {
        pose_miss m = {NULL, 0, 0, 0};
        pose_eval(sm, o, order[i], CMP_ALL, w, &m);
        if (!m.s) continue;
        pc->all_match = 0;
        snprintf(pc->first_file, sizeof pc->first_file, "%s", ctx->res->files[m.s->file].name);
        pc->first_clip = m.s->clip;
        pc->first_tick = m.s->tick;
        pc->first_mode = m.s->mode;
        snprintf(pc->first_field, sizeof pc->first_field, "%s[%d].%s", areas[m.area], m.bone,
                 names[m.k]);
        pose_score_ref(m.s, o, 1, w);
        const uint8_t *ref[3] = {w->skel, w->world, w->placed};
        const uint8_t *orig[3] = {m.s->orig, m.s->world, m.s->placed};
        pc->first_ref = pose_value_at(ref[m.area], m.bone, m.k);
        pc->first_orig = pose_value_at(orig[m.area], m.bone, m.k);
    }
}

int pose_search_on(pose_conv *pc, const run_ctx *ctx, const pose_sample *sm, ref_pose_opts *best,
                   pose_work *w, ff_error *err)
{
    int full = 0;
    ref_pose_opts_default(best);
    for (size_t i = 0; i < sm->n; i++) {
        if (pose_overruns(&sm->s[i])) {
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
    full |= record(pc, best, "final", pose_eval(sm, best, SEL_ALL, CMP_ALL, w, NULL));
    first_miss(pc, ctx, sm, best, w);
    decide_keys(pc, sm, best, w);
    if (!sm->n)
        snprintf(pc->note, sizeof pc->note,
                 "No state could be sampled: the default convention is kept");
    if (!full) return 0;
    return ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                        "pose search: more candidates than POSE_CONV_MAX_CANDIDATES (%u)",
                        (unsigned)POSE_CONV_MAX_CANDIDATES);
}

int pose_search_run(run_ctx *ctx, unsigned threads, ff_error *err)
{
    pose_conv *pc = &ctx->res->pose;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pose_env env;
    int rc = pose_env_open(&env, ctx, threads, &pc->faulted, err);
    if (rc == 0) {
        ref_pose_opts best;
        rc = pose_search_on(pc, ctx, &env.sm, &best, env.w, err);
        ctx->pose_opts = best;
        pc->source = POSE_CONV_SEARCH;
        ref_pose_opts_format(&best, pc->chosen, sizeof pc->chosen);
        /* A width site the sample could not settle is left to the comparison (pose_width.h). */
        for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
            ctx->width.site[k].open = ref_pose_key_shows((ref_pose_key)k) == REF_SHOWS_SUMS &&
                                      pc->keys[k].basis != POSE_BASIS_EVIDENCE;
    }
    pose_env_close(&env);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pc->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return rc;
}
