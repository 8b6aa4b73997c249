/*
 * harness/run/pose_search.h: the convention search of the pose level
 * (`--pose-options auto`): which combination of ref/pose.h's open choices
 * the original's BuildBoneMatrices computes, found on a sample of the
 * corpus's states before the run, so that the whole run then compares with
 * it. Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_POSE_SEARCH_H
#define FF8_HARNESS_RUN_POSE_SEARCH_H

#include "common/error.h"
#include "ref/pose.h"

struct run_ctx;
struct cache;
struct pose_conv;
struct pose_sample;
struct pose_work;

/*
 * Samples states of ctx's corpus, runs the original's BuildBoneMatrices on
 * them (one engine of its own), scores the candidates and sets
 * ctx->pose_opts to the best; ctx->res->pose receives every candidate
 * tried, the choice and, when the choice misses a sampled state, the first
 * such miss. States the original faults on are counted and left out. The
 * candidates' scores are computed on up to threads threads (at most 8): the
 * same choice and figures for any count. Returns 0, or -1 with err when the
 * engine cannot start or memory runs out.
 */
int pose_search_run(struct run_ctx *ctx, unsigned threads, ff_error *err);

/*
 * The search itself on sm (the original's poses sampled: pose_score.h's
 * pose_env), scored on w (two works, w[0] leading a team): every candidate
 * and decision into pc, the choice into *best. Returns 0, or -1 with err when a candidate could not be kept
 * (more than POSE_CONV_MAX_CANDIDATES: an internal error; pc and *best are
 * then filled all the same).
 */
int pose_search_on(struct pose_conv *pc, const struct run_ctx *ctx, const struct pose_sample *sm,
                   ref_pose_opts *best, struct pose_work *w, ff_error *err);

/*
 * After a run given a convention (--pose-options, on an executable) in
 * which pose values mismatch: the search on a sample of its own, against
 * the convention given, into ctx->res->pose.contradicted (pose_contradict.c).
 * When the search's convention matches more sampled states whole, the run
 * records the options that differ, and marks each cause whose groups are
 * all pose values as a consequence of the convention given
 * (res_cause.consequence_of). Does nothing otherwise; never changes the
 * run's convention or verdicts. Returns 0, or -1 with err when the engine
 * cannot start or memory runs out.
 */
int pose_contradict_run(struct run_ctx *ctx, unsigned threads, ff_error *err);

/*
 * The search's choice for the executable exe_id (run_config.cache_id),
 * remembered in the results cache c as an entry of its own (the key names
 * the executable and "pose-search", the payload the convention's text), so
 * that the commands that pose without running a search (export --source
 * reference, check-gltf, decode --pose) take what a run found. Returns 0,
 * or -1 with err when it cannot be stored.
 */
int pose_search_remember(struct cache *c, const char *exe_id, const char *chosen, ff_error *err);
/*
 * What pose_search_remember stored for exe_id: 1 with *out (and its text
 * in text, n bytes, may be NULL), 0 when nothing is remembered, -1 with err
 * when an entry is there but refused (cache_get) or does not parse.
 */
int pose_search_recall(struct cache *c, const char *exe_id, ref_pose_opts *out, char *text,
                       size_t n, ff_error *err);

#endif
