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

struct run_ctx;

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

#endif
