/*
 * harness/run/pose_contradict.c: a convention given (--pose-options) that
 * the executable's poses contradict (pose_search.h's pose_contradict_run).
 *
 * After a run whose pose values mismatch, the convention search runs on a
 * sample of its own (pose_score.h's pose_env, pose_search.c) into a scratch
 * record: the run's convention, its record (run.pose) and its verdicts stay
 * as they are. When the search's convention matches more sampled states
 * whole than the one given, the run keeps the options that differ (only
 * those the poses need: any other goes back to its given value), and marks
 * the causes that follow from them. Must not print or exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/core/fields.h"
#include "harness/run/pose_score.h"
#include "harness/run/pose_search.h"
#include "harness/run/context.h"

/* "key=value" of each key on which a and b differ, a's values, into buf. */
static void differing(const ref_pose_opts *a, const ref_pose_opts *b, char *buf, size_t n)
{
    buf[0] = '\0';
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        unsigned v = ref_pose_opts_get(a, (ref_pose_key)k);
        if (v == ref_pose_opts_get(b, (ref_pose_key)k)) continue;
        size_t at = strlen(buf);
        snprintf(buf + at, n - at, "%s%s=%s", at ? "," : "", ref_pose_key_name((ref_pose_key)k),
                 ref_pose_value_name((ref_pose_key)k, v));
    }
}

/*
 * The search's best against the given convention on every sampled state
 * (cells, translations and both world areas). Each of best's options that
 * differs from the given goes back to its given value when that matches as
 * many states and values: what remains is what the poses need.
 */
static void contradiction(pose_contradiction *out, const pose_sample *sm, pose_work *w,
                          const ref_pose_opts *given, const ref_pose_opts *best)
{
    ref_pose_opts found = *best;
    pose_score top = pose_eval(sm, &found, SEL_ALL, CMP_ALL, w, NULL);
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        unsigned v = ref_pose_opts_get(given, (ref_pose_key)k);
        if (ref_pose_opts_get(&found, (ref_pose_key)k) == v) continue;
        ref_pose_opts o = found;
        ref_pose_opts_set(&o, (ref_pose_key)k, v);
        pose_score sc = pose_eval(sm, &o, SEL_ALL, CMP_ALL, w, NULL);
        if (sc.frames >= top.frames && sc.values >= top.values) {
            found = o;
            top = sc;
        }
    }
    pose_score mine = pose_eval(sm, given, SEL_ALL, CMP_ALL, w, NULL);
    out->states = top.frames_total;
    out->states_found = top.frames;
    out->states_given = mine.frames;
    out->contradicted = top.frames > mine.frames;
    if (!out->contradicted) return;
    differing(given, &found, out->given, sizeof out->given);
    differing(&found, given, out->found, sizeof out->found);
    ref_pose_opts_format(&found, out->convention, sizeof out->convention);
}

/* 1 when a group's values are poses: a bone's matrix, a world or a placed matrix. */
static int pose_group(const res_group *g)
{
    if (g->figure.bones) return 1;
    if (strcmp(g->level, "frame") != 0) return 0;
    int f = field_from_kind_name(g->field);
    const field_def *d = f < 0 ? NULL : field_def_of((field_id)f);
    return d && d->level == FIELD_LEVEL_POSE &&
           (d->area == FIELD_AREA_BONE || d->area == FIELD_AREA_WORLD ||
            d->area == FIELD_AREA_PLACED);
}

/* The causes whose groups are all pose groups follow from the convention given. */
static void mark_consequences(run_results *res)
{
    for (size_t c = 0; c < res->ncauses; c++) {
        res_cause *k = &res->causes[c];
        size_t poses = 0;
        for (size_t i = 0; i < k->ngroups; i++)
            poses += k->groups[i] >= 0 && (size_t)k->groups[i] < res->ngroups &&
                     pose_group(&res->groups[k->groups[i]]);
        if (k->ngroups && poses == k->ngroups)
            snprintf(k->consequence_of, sizeof k->consequence_of, "%s", "pose_options");
    }
}

int pose_contradict_run(run_ctx *ctx, unsigned threads, ff_error *err)
{
    const run_config *cfg = ctx->cfg;
    run_results *res = ctx->res;
    if (!cfg->pose_level || cfg->pose_search || cfg->pose_pinned || !cfg->image ||
        cfg->traces_dir || cfg->against_dir || run_cancelled(ctx))
        return 0;
    size_t g = 0;
    while (g < res->ngroups && !pose_group(&res->groups[g])) g++;
    if (g == res->ngroups) return 0; /* no pose value mismatches: nothing to contradict */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pose_contradiction *out = &res->pose.contradicted;
    memset(out, 0, sizeof *out);
    /* The search's own record (candidates, decisions) is scratch: the run keeps its own. */
    pose_conv *pc = calloc(1, sizeof *pc);
    if (!pc) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    pose_env env;
    uint64_t faulted = 0;
    int rc = pose_env_open(&env, ctx, threads, &faulted, err);
    ref_pose_opts best;
    if (rc == 0) rc = pose_search_on(pc, ctx, &env.sm, &best, env.w, err);
    if (rc == 0) contradiction(out, &env.sm, env.w, &cfg->pose_opts, &best);
    pose_env_close(&env);
    free(pc);
    if (rc == 0 && out->contradicted) mark_consequences(res);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return rc;
}
