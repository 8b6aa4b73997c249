/*
 * harness/run/pose_score.h: how the pose level's convention search scores a
 * candidate convention (harness/run/pose_search.c): the reference's poses of
 * the sampled states (harness/run/pose_sample.h) under it against the
 * original's, counted as states matched whole and values equal, split over
 * a team of threads. Internal to harness/run; nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_POSE_SCORE_H
#define FF8_HARNESS_RUN_POSE_SCORE_H

#include <stdint.h>

#include "common/error.h"
#include "harness/run/pose_sample.h"
#include "ref/pose.h"

struct run_ctx;

/* What a score compares: bone cells, bone translations, the world matrices. */
enum { CMP_CELLS = 1, CMP_T = 2, CMP_WORLD = 4, CMP_ALL = 7 };
/* Which states it looks at. */
enum { SEL_PLAIN = 1, SEL_SCALE = 2, SEL_EXTREME = 4, SEL_ALL = 7 };

typedef struct pose_score {
    uint64_t frames, frames_total, values, values_total;
} pose_score;

/* The threads a score is computed on: at most this many. */
#define POSE_SCORE_THREADS 8

/* Room for the reference's side of one state: skeleton, world, placed. */
typedef struct pose_work {
    uint8_t *skel, *world, *placed;
    ref_trig_table **tables; /* per trig option, filled when first asked; shared by every work */
    /* the works of the other threads a score is split over (w[0]'s only; nteam 0: none) */
    struct pose_work *team;
    unsigned nteam;
} pose_work;

/* Where a state is first missed: the area (0 bone, 1 world, 2 placed), bone, value. */
typedef struct pose_miss {
    const pose_state *s;
    int area, bone, k;
} pose_miss;

/*
 * 1 when s is a scale-path state of more than REF_POSE_STACK_SLOTS bones:
 * it overruns the engine's arrays under the notes' layout, so what the
 * original computes there is no evidence about a convention (such states
 * are left out, counted).
 */
int pose_overruns(const pose_state *s);
/* Value k (0..8 the cells, 9..11 t) of bone b of a skeleton's MATRIX area. */
int32_t pose_value_at(const uint8_t *skel, int b, int k);
/* The reference's pose of s under o into w (world and placed when world is set). */
void pose_score_ref(const pose_state *s, const ref_pose_opts *o, int world, pose_work *w);
/*
 * Scores o on the states of sm selected by sel (SEL_*), on the values of
 * what (CMP_*); m: the first miss, if asked. Without m the states are split
 * over w's team (the counts add up the same in any order).
 */
pose_score pose_eval(const pose_sample *sm, const ref_pose_opts *o, int sel, int what,
                     pose_work *w, pose_miss *m);

/* The sample of a corpus, the original's poses of it and the works its scores are made on. */
typedef struct pose_env {
    pose_sample sm;
    uint8_t *buf;
    ref_trig_table *tables[REF_TRIG__COUNT];
    pose_work team[POSE_SCORE_THREADS];
    pose_work w[2]; /* this thread's two (a pose and its flip); w[0] leads the team */
} pose_env;

/*
 * Samples ctx's corpus and poses it on the original (pose_sample.h) into
 * *env, with works for threads threads (at most POSE_SCORE_THREADS).
 * Returns 0, or -1 with err when the engine cannot start or memory runs
 * out; *faulted counts the states the original faulted on. pose_env_close
 * frees env either way; env must not move in between (w[0] points into it).
 */
int pose_env_open(pose_env *env, struct run_ctx *ctx, unsigned threads, uint64_t *faulted,
                  ff_error *err);
void pose_env_close(pose_env *env);

#endif
