/*
 * harness/run/pose_score.c: a candidate convention's score on the sampled
 * states (harness/run/pose_score.h), and the sample with its works. Must not
 * print or exit.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "harness/run/pose_score.h"
#include "harness/run/pose_side.h"
#include "harness/run/context.h"

/*
 * A scale-path state of more than REF_POSE_STACK_SLOTS bones overruns the
 * engine's arrays under the notes' layout: what the original computes there
 * is no evidence about a convention, so such states are left out (counted).
 */
int pose_overruns(const pose_state *s)
{
    return pose_state_scaled(s->in) && s->bones > REF_POSE_STACK_SLOTS;
}

static int selected(const pose_state *s, int sel)
{
    if (pose_overruns(s)) return 0;
    if (s->extreme) return (sel & SEL_EXTREME) != 0;
    return (sel & (pose_state_scaled(s->in) ? SEL_SCALE : SEL_PLAIN)) != 0;
}

/* Value k (0..8 the cells, 9..11 t) of bone b of a skeleton's MATRIX area. */
int32_t pose_value_at(const uint8_t *skel, int b, int k)
{
    const uint8_t *p = skel + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE + 0x10;
    return k < 9 ? le_s16(p + 2 * k) : le_s32(p + 0x14 + 4 * (k - 9));
}

/*
 * The sin and cos table of trig t, filled when first asked (65536 angles
 * once, against several per bone of every state each candidate poses);
 * NULL when memory runs out: the pose computes them, the same values.
 */
static const ref_trig_table *table_of(pose_work *w, ref_pose_trig t)
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
void pose_score_ref(const pose_state *s, const ref_pose_opts *o, int world, pose_work *w)
{
    memcpy(w->skel, s->in, s->len);
    ref_build_bone_matrices_table(w->skel, s->bones, o, NULL, table_of(w, o->trig));
    if (world) pose_ref_world(w->skel, s->bones, o, w->world, w->placed);
}

/* Scores o on the selected states i with i % step == first; m: the first miss, if asked. */
static pose_score evaluate_some(const pose_sample *sm, const ref_pose_opts *o, int sel, int what,
                           pose_work *w, pose_miss *m, size_t first, size_t step)
{
    pose_score sc = {0, 0, 0, 0};
    for (size_t i = first; i < sm->n; i += step) {
        const pose_state *s = &sm->s[i];
        if (!selected(s, sel)) continue;
        pose_score_ref(s, o, what & CMP_WORLD, w);
        const uint8_t *ref[3] = {w->skel, w->world, w->placed};
        const uint8_t *orig[3] = {s->orig, s->world, s->placed};
        int whole = 1;
        for (int area = 0; area < ((what & CMP_WORLD) ? 3 : 1); area++)
            for (unsigned b = 0; b < s->bones; b++)
                for (int k = 0; k < 12; k++) {
                    if (area == 0 && !(what & (k < 9 ? CMP_CELLS : CMP_T))) continue;
                    sc.values_total++;
                    if (pose_value_at(ref[area], (int)b, k) == pose_value_at(orig[area], (int)b, k)) {
                        sc.values++;
                        continue;
                    }
                    if (whole && m && !m->s) *m = (pose_miss){s, area, (int)b, k};
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
    pose_work *w;
    size_t first, step;
    pose_score sc;
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
pose_score pose_eval(const pose_sample *sm, const ref_pose_opts *o, int sel, int what, pose_work *w,
                      pose_miss *m)
{
    unsigned n = 1 + w->nteam;
    if (m || n == 1 || !table_of(w, o->trig)) return evaluate_some(sm, o, sel, what, w, m, 0, 1);
    share h[POSE_SCORE_THREADS];
    pthread_t th[POSE_SCORE_THREADS];
    int started[POSE_SCORE_THREADS] = {0};
    for (unsigned k = 0; k < n; k++)
        h[k] = (share){sm, o, sel, what, k ? &w->team[k - 1] : w, k, n, {0, 0, 0, 0}};
    for (unsigned k = 1; k < n; k++)
        started[k] = pthread_create(&th[k], NULL, evaluate_share, &h[k]) == 0;
    evaluate_share(&h[0]);
    pose_score sc = h[0].sc;
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

/* Samples ctx's corpus and poses it on the original into *env; pose_env_close frees it either way. */
int pose_env_open(pose_env *env, run_ctx *ctx, unsigned threads, uint64_t *faulted,
                    ff_error *err)
{
    memset(env, 0, sizeof *env);
    int rc = pose_sample_corpus(ctx, &env->sm, err);
    if (rc == 0) rc = pose_sample_original(ctx, &env->sm, faulted, err);
    if (rc < 0) return rc;
    size_t maxlen = 1;
    for (size_t i = 0; i < env->sm.n; i++)
        if (env->sm.s[i].len > maxlen) maxlen = env->sm.s[i].len;
    /* Two works of this thread's (a pose and its flip), one for each other thread. */
    unsigned nteam = threads > POSE_SCORE_THREADS ? POSE_SCORE_THREADS - 1 : threads ? threads - 1 : 0;
    uint8_t *buf = env->buf = malloc(3 * (2 + (size_t)nteam) * maxlen);
    if (!buf) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    for (unsigned k = 0; k < nteam; k++) {
        uint8_t *at = buf + 3 * (2 + (size_t)k) * maxlen;
        env->team[k] = (pose_work){at, at + maxlen, at + 2 * maxlen, env->tables, NULL, 0};
    }
    env->w[0] = (pose_work){buf, buf + maxlen, buf + 2 * maxlen, env->tables, env->team, nteam};
    env->w[1] = (pose_work){buf + 3 * maxlen, buf + 4 * maxlen, buf + 5 * maxlen, env->tables, NULL, 0};
    return 0;
}

void pose_env_close(pose_env *env)
{
    free(env->buf);
    for (unsigned t = 0; t < REF_TRIG__COUNT; t++) free(env->tables[t]);
    pose_sample_free(&env->sm);
}
