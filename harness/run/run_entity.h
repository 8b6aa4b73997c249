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
 * worker's own emulation on emu/engine/entity.h), compared with ent_cmp;
 * each mode reached through the entity's status byte (harness/core/modes.h).
 * Then the unit's speed probes (run_entity_probe.c): QueueAnimation under
 * each status of its mode with no flags preset, the speed bits left.
 */
#ifndef FF8_HARNESS_RUN_RUN_ENTITY_H
#define FF8_HARNESS_RUN_RUN_ENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/entity.h"
#include "harness/core/strbuf.h"
#include "harness/run/cache.h"
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
 * The level tag of entity cache keys ("entity+status",
 * "entity+status+matrices", at the pose level
 * "entity+status+pose-base1+attach-zyx/<convention>").
 */
const char *run_entity_level_tag(const run_ctx *ctx);
/*
 * The cache key of a unit's QueueAnimation probe (the speed bits the
 * original left per status, run_entity.c). Returns 0, or -1 when the run
 * has no cache or the key cannot be made.
 */
int run_entity_queue_key(const run_ctx *ctx, const run_unit *u, cache_key *k);
/*
 * Adds the entity level's figures to the run's totals (speed probes that
 * differ included); an entity sharing another's emulations takes its
 * original's probes first.
 */
void run_entity_totals(run_ctx *ctx);
/* Frees the plan (ctx->ent). */
void run_entity_plan_free(run_ctx *ctx);
/* Frees what results hold of the entity level. */
void run_entity_results_free(run_results *r);

/* ---- run_entity_probe.c: QueueAnimation's speed probes ---- */

/* The entity status a unit's clips run under (the plan runs only the modes some status reaches). */
entity_status_id run_entity_unit_status(const run_unit *u);
/* The entity's speed fields in status s, as emu/engine/entity.h takes them. */
emu_entity_speed run_entity_emu_speed(entity_status_id s);
/*
 * The speed bits each model's AnimCmd holds after QueueAnimation called
 * with no flags preset, for every status the unit's mode stands for, into
 * the unit's entity (results.h res_queue; the rows of the unit's statuses
 * only, so units of other modes write theirs at the same time):
 *   _ref    the reference's, the notes' routine (ref_queue_flags);
 *   _orig   the original's, one QueueAnimation on clip 0 of the entity
 *           loaded on ent; -1 when a call faulted (ent must then be
 *           reloaded), else 0;
 *   _cache  stores (put) or takes the original's from the run's cache, under
 *           the unit's probe key (nothing without a cache).
 */
void run_entity_probe_ref(run_ctx *ctx, const run_unit *u);
int run_entity_probe_orig(run_ctx *ctx, const run_unit *u, emu_entity *ent);
void run_entity_probe_cache(run_ctx *ctx, const run_unit *u, int put);
/* The original's probe in the cache's form (and an engine process's answer): body and
 * weapon per entity status, 0xFF where the unit does not probe it. */
#define ENT_PROBE_BYTES (2 * ENTITY_STATUS__COUNT)
/* The unit's rows of its res_queue (the original's) into b, and back. */
void run_entity_probe_bytes(const run_ctx *ctx, const run_unit *u, uint8_t b[ENT_PROBE_BYTES]);
void run_entity_probe_take(run_ctx *ctx, const run_unit *u, const uint8_t b[ENT_PROBE_BYTES]);

/* ---- run_entity.c: a worker's entity state ---- */

typedef struct ent_worker ent_worker;
struct remote_unit;
/*
 * A worker's engine process asked for the original's side of unit u
 * (remote.h): 0 with *out; 1 when the process is lost and the worker now
 * has an engine in-process (given with run_entity_worker_engine); -1 with
 * err (the run stops).
 */
typedef int (*ent_fetch_fn)(void *arg, const run_unit *u, struct remote_unit *out, ff_error *err);
/*
 * Where a worker's entity units get the original's side: g, the worker's
 * engine (NULL without an executable, or while fetch answers for it), with
 * memo, its pose memo (the pose level on an executable; NULL otherwise);
 * --engine both's second engine in-process (g2, memo2; NULL: none, or
 * fetch's); fetch (with arg): the worker's engine process, NULL: none;
 * fetch_second: it answers for the second engine, not the run's.
 */
typedef struct ent_engines {
    emu_game *g, *g2;
    pose_memo *memo, *memo2;
    ent_fetch_fn fetch;
    void *arg;
    int fetch_second;
} ent_engines;
ent_worker *run_entity_worker_new(run_ctx *ctx, const ent_engines *e, ff_error *err);
/* From here the original's side runs on g (fetch's process was lost). */
void run_entity_worker_engine(ent_worker *ew, emu_game *g, pose_memo *memo);
void run_entity_worker_free(ent_worker *ew);
/* Runs every clip of one entity unit. Returns 0, or -1 with err (the run stops). */
int run_entity_unit(ent_worker *ew, const run_unit *u, ff_error *err);

#endif
