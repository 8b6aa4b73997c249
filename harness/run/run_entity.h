/*
 * harness/run/run_entity.h: the entity level inside a run (QueueAnimation
 * and AdvanceBy1 on every entity of the corpus, corpus/pairs.h), as the
 * pieces of run.c, run_plan.c and run_unit.c call it. Not for use outside
 * harness/run/.
 *
 * Plan (run_entity_plan.c): the entities from the corpus's pairing (an
 * entities manifest beside a folder corpus gives the attach values), one
 * result per (entity, mode, clip) for the clips both models have, one
 * unit per (entity, mode). Entities whose two files are byte for byte the
 * same as an earlier entity's (and whose attach values are the same) share
 * its emulations: one leader emulates, the followers take its outcomes, all
 * in one chain so the result is the same for any number of jobs. The
 * cache keys an (entity, mode) unit by both files' SHA-256 and the attach
 * values.
 *
 * Work (run_entity.c): per clip, the reference side (refside_entity.c)
 * and the original's side (the cache, the leader's outcomes, or this
 * worker's own emulation on emu/engine/entity.h), compared with ent_cmp.
 */
#ifndef FF8_HARNESS_RUN_RUN_ENTITY_H
#define FF8_HARNESS_RUN_RUN_ENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/strbuf.h"
#include "harness/run/pose_side.h"
#include "harness/run/context.h"

/* The outcomes a leader leaves for its followers. */
typedef struct ent_slot {
    int ready;       /* the leader ran every clip: packed holds its outcomes */
    uint8_t *packed; /* outcome_pack form, as the cache stores it */
    size_t len;
} ent_slot;

/* The entity level's share of a run's context. */
struct ent_plan {
    size_t nslots;
    ent_slot *slots;
    /* per entity: the result its plot shows, as a rank (lower wins) */
    uint64_t *plot_rank;
    char level_tag[40 + REF_POSE_OPTS_TEXT_MAX]; /* run_entity_level_tag's text at the pose level */
};

/* ---- run_entity_plan.c ---- */

/*
 * Pairs the corpus's files (the attach values of PAIRS_ATTACH_FILE beside
 * a folder corpus), fills results.entities and lays out one result per
 * (entity, mode, clip). *nunits receives the units it needs. Returns 0, or
 * -1 with err (a malformed entities manifest, memory).
 */
int run_entity_plan(run_ctx *ctx, size_t *nunits, ff_error *err);
/* Writes the entity units into units (run_entity_plan's count of them). */
void run_entity_units(run_ctx *ctx, run_unit *units);
/* Marks the entity units whose original side the cache holds. */
void run_entity_mark_cached(run_ctx *ctx);
/* Finds entity units that may share emulations (not cached ones). Returns 0 or -1 (memory). */
int run_entity_dedup(run_ctx *ctx, ff_error *err);
/*
 * The level tag of entity cache keys ("entity", "entity+matrices", at the
 * pose level "entity+pose-base1+attach-zyx/<convention>").
 */
const char *run_entity_level_tag(const run_ctx *ctx);
/* Adds the entity level's figures to the run's totals. */
void run_entity_totals(run_ctx *ctx);
/* Frees the plan (ctx->ent). */
void run_entity_plan_free(run_ctx *ctx);
/* Frees what results hold of the entity level. */
void run_entity_results_free(run_results *r);

/* ---- run_entity.c: a worker's entity state ---- */

typedef struct ent_worker ent_worker;
/*
 * g: the worker's engine (NULL without an executable); memo: the worker's
 * pose memo (the pose level on an executable; NULL otherwise).
 */
ent_worker *run_entity_worker_new(run_ctx *ctx, emu_game *g, pose_memo *memo,
                                  ff_error *err);
void run_entity_worker_free(ent_worker *ew);
/* Runs every clip of one entity unit. Returns 0, or -1 with err (the run stops). */
int run_entity_unit(ent_worker *ew, const run_unit *u, ff_error *err);

#endif
