/*
 * harness/run/run_internal.h: the state shared by the pieces of a run (plan,
 * workers, dedup table, groups). Not for use outside harness/run*.c,
 * harness/run/leaf.c and harness/group.c.
 */
#ifndef FF8_HARNESS_RUN_RUN_INTERNAL_H
#define FF8_HARNESS_RUN_RUN_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "corpus/source.h"
#include "emu/observe.h"
#include "harness/core/group.h"
#include "harness/core/outcome.h"
#include "harness/core/trace.h"
#include "harness/run/run.h"
#include "ref/dat.h"

/* A unit of work: one file in one mode (frame level) or a leaf chunk. */
typedef enum unit_kind { UNIT_FRAME, UNIT_LEAF } unit_kind;

typedef struct run_unit {
    unit_kind kind;
    uint32_t file;     /* UNIT_FRAME */
    mode_id mode;      /* UNIT_FRAME */
    size_t first;      /* UNIT_FRAME: index of its first clip result */
    unsigned leaf;     /* UNIT_LEAF: index into results.leaf */
    uint64_t chunk;    /* UNIT_LEAF: chunk number */
    uint64_t cost;     /* estimated work, for ordering */
    int cached;        /* UNIT_FRAME: the cache holds the original's side */
    char cache_key[65];
    size_t chain;      /* units sharing emulations form one chain (plan_order) */
} run_unit;

/* An emulation shared by identical clips. */
typedef enum slot_state { SLOT_EMPTY, SLOT_RUNNING, SLOT_DONE } slot_state;

typedef struct dedup_slot {
    slot_state state;
    unsigned refs;       /* members that still need it */
    orig_outcome out;    /* the leader's outcome */
    uint32_t file;       /* the leader's file and clip start */
    uint64_t clip_start;
} dedup_slot;

typedef struct run_ctx {
    const run_config *cfg;
    field_set fields; /* what both sides' traces carry: the fields of the levels run */
    corpus *corpus;
    run_results *res;
    /* per file: bytes and parse, kept for the whole run */
    uint8_t **data;
    size_t *size;
    dat_file *dat;
    /* per clip result: dedup slot (-1: none) and the ref's extent */
    int32_t *slot_of;
    size_t nslots;
    dedup_slot *slots;
    pthread_mutex_t lock; /* slots, groups */
    pthread_cond_t slot_done;
    size_t nunits;
    run_unit *units;
    /*
     * Chains of units, taken whole by one worker: units whose clips share a
     * dedup slot are one chain, so no worker ever waits for another's
     * emulation. Chain i is units[chain_start[i] .. chain_start[i + 1]).
     */
    size_t nchains;
    size_t *chain_start;
    atomic_size_t next_chain;
    atomic_int failed;    /* a worker hit a run-stopping error */
    ff_error fail_err;
    /* The original's routines as blocks (coverage, explanations); NULL: no executable. */
    emu_blockmap *blocks;
    uint8_t *cover_hits;  /* blocks->nblocks bytes, the workers' hits merged; NULL: off */
} run_ctx;

/* run_plan.c */
int plan_load_files(run_ctx *ctx, ff_error *err);
int plan_units(run_ctx *ctx, ff_error *err);
int plan_dedup(run_ctx *ctx, ff_error *err);
int plan_order(run_ctx *ctx, ff_error *err);

/* run_unit.c: a worker's private state. */
typedef struct worker worker;
worker *worker_new(run_ctx *ctx, ff_error *err);
void worker_free(worker *w);
int worker_frame_unit(worker *w, const run_unit *u, ff_error *err);
int worker_leaf_unit(worker *w, const run_unit *u, ff_error *err);
struct emu_game *worker_game(worker *w);

/* writers.c: the original instruction behind each frame group's example. */
void run_find_writers(run_ctx *ctx);
/* explain.c: first differing reads (as cfg->explain asks), then the causes. */
void run_explain(run_ctx *ctx);
/* coverage.c: res->coverage from the merged hits. -1 when memory runs out. */
int run_coverage_build(run_ctx *ctx, ff_error *err);
void run_coverage_free(res_coverage *c);


static inline int run_cancelled(const run_ctx *ctx)
{
    return (ctx->cfg->cancel && *ctx->cfg->cancel) || atomic_load(&ctx->failed);
}

#endif
