/*
 * harness/run/context.h: the state shared by the pieces of a run (plan,
 * workers, dedup table, groups). Not for use outside harness/run/.
 */
#ifndef FF8_HARNESS_RUN_CONTEXT_H
#define FF8_HARNESS_RUN_CONTEXT_H

#include <pthread.h>
#include <stdint.h>

#include "corpus/source.h"
#include "emu/engine/observe.h"
#include "harness/core/group.h"
#include "harness/core/outcome.h"
#include "harness/core/trace.h"
#include "harness/run/cache.h"
#include "harness/run/pose_width.h"
#include "harness/run/run.h"
#include "ref/dat.h"
#include "ref/pose.h"

/* A unit of work: one file in one mode (frame level), one entity in one
 * mode (entity level), a leaf chunk or the pose helpers' leaf level. */
typedef enum unit_kind { UNIT_FRAME, UNIT_LEAF, UNIT_POSE_LEAF, UNIT_ENTITY } unit_kind;

typedef struct run_unit {
    unit_kind kind;
    uint32_t file;     /* UNIT_FRAME */
    mode_id mode;      /* UNIT_FRAME */
    size_t first;      /* UNIT_FRAME: index of its first clip result */
    unsigned leaf;     /* UNIT_LEAF: index into results.leaf */
    uint64_t chunk;    /* UNIT_LEAF: chunk number */
    uint64_t cost;     /* estimated work, for ordering */
    int cached;        /* UNIT_FRAME: the cache holds an entry of that name */
    int keyed;         /* UNIT_FRAME: key holds the unit's cache key */
    cache_key key;
    size_t chain;      /* units sharing emulations form one chain (plan_order) */
    uint32_t entity;   /* UNIT_ENTITY: index into results.entities */
    int32_t eslot;     /* UNIT_ENTITY: emulations shared with identical entities, -1: none */
    int eleader;       /* UNIT_ENTITY: the one that emulates for its slot */
} run_unit;

/* An emulation shared by identical clips. */
typedef enum slot_state { SLOT_EMPTY, SLOT_RUNNING, SLOT_DONE } slot_state;

typedef struct dedup_slot {
    slot_state state;
    unsigned refs;       /* members that still need it */
    /* The leader's outcome. A slot lives until its last member took it,
     * within one chain of units (plan_order): at the pose level, whose
     * traces are large, packed (outcome_pack_one); at the frame level as it
     * is (out, NULL until the leader stores it), since packing cost more
     * time than the memory it saved (about 20 KiB a clip, 36 MB for every
     * slot of the vanilla preset at once). The last member takes out rather
     * than copying it. */
    uint8_t *packed;
    size_t packed_len;
    orig_outcome *out;
    uint64_t extent;     /* the leader's cursor extent */
    /* the leader's bytes from its clip's start to where its cursor reached (in its file) */
    uint64_t reach_total; /* how far its cursor reached from the clip's start */
    uint64_t reach_len;   /* of which in its file (the rest: the guard page's zeros) */
    uint8_t *reach;       /* those reach_len bytes */
} dedup_slot;

/* Loaded files unheld by any unit are kept while they total less than this. */
#define RUN_FILES_WARM (256u << 20)

/* A corpus file of the run: where it is, what the plan learnt, its bytes when loaded. */
typedef struct run_fslot {
    size_t entry;        /* corpus entry index */
    uint32_t clips;      /* clips (0 when the file has no model or did not parse) */
    uint8_t *frames;     /* frame byte of each clip */
    uint8_t *data;       /* NULL when not loaded */
    size_t size;
    dat_file dat;        /* valid while data is */
    unsigned refs;       /* units holding it */
    uint64_t used;       /* when it was last taken (files_clock) */
} run_fslot;

typedef struct run_ctx {
    const run_config *cfg;
    field_set fields; /* what both sides' traces carry: the fields of the levels run */
    field_classes classes; /* the field table's classes, for what each clip compared */
    ref_pose_opts pose_opts;   /* the reference's pose convention (pose level) */
    const ref_pose_opts *pose; /* &pose_opts with the pose level, else NULL */
    pose_width_run width;      /* the width of the sums when the comparison decides it */
    corpus *corpus;
    run_results *res;
    /* per file (res->files order): loaded on demand, run_files.c */
    run_fslot *fslots;
    pthread_mutex_t files_lock;
    uint64_t files_clock, loaded_bytes;
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
    /* The process that forks the engine processes (spawner.h); NULL: none in this run. */
    struct spawner *spawner;
    /* An engine process's files come from its worker (remote.c): it opens none itself.
     * NULL: read from the corpus. */
    int (*file_fetch)(void *arg, uint32_t f, uint8_t **data, size_t *size, ff_error *err);
    void *file_fetch_arg;
    atomic_int failed;    /* a worker hit a run-stopping error */
    ff_error fail_err;
    /* the results cache: entries refused, entries that could not be stored (under lock) */
    uint64_t cache_rejected, cache_unwritten;
    ff_error cache_reject_err, cache_write_err; /* the first of each */
    struct ent_plan *ent; /* the entity level (run_entity.h); NULL when it is off */
    /* The original's routines as blocks (coverage, explanations); NULL: no executable. */
    emu_blockmap *blocks;
    uint8_t *cover_hits;  /* blocks->nblocks bytes, the workers' hits merged; NULL: off */
} run_ctx;

/* run_result.c: one clip's two sides, as frame and entity units both record them. */
typedef struct run_sides {
    const char *name;          /* the file named in errors */
    res_source src;            /* where the original's side came from */
    uint32_t ref_ticks, orig_ticks;
    int cand_ok, auth_ok;      /* each side ran (0: its error below) */
    const ff_error *cand_err, *auth_err;
    const emu_fault *fault;    /* the original's fault, NULL when it did not fault */
} run_sides;
/*
 * Records r's source and tick counts, keeps the original's fault, and
 * decides r when a side failed (RES_BAD_INPUT with that side's error) or
 * the original faulted (RES_FAULT), counting it in the progress. Returns 1
 * when r is decided, 0 when both sides are to be compared, -1 with err
 * when memory runs out.
 */
int run_result_sides(run_ctx *ctx, clip_result *r, const run_sides *s, ff_error *err);
/* The candidate's side as run_result_decoded judges it. */
typedef struct run_decoded {
    const field_set *can; /* the fields the candidate's format can carry */
    int absent;           /* its traces hold nothing for the clip (cand is empty) ... */
    const ff_error *why;  /* ... and why */
} run_decoded;
/*
 * With both sides there and the original not faulted: counts what the clip
 * compared per field class into r->use, compares, and decides r when every
 * value compared agrees: RES_NOT_DECODED when cand stops short of auth (a
 * prefix of it: no trace at all included, keeping why) or leaves out a
 * class cfg->require names (r->missing), else RES_MATCH. Returns 1 when
 * decided, 0 when the traces differ (r->div holds the first divergence: a
 * mismatch for the caller to record), -1 with err when memory runs out.
 */
int run_result_decoded(run_ctx *ctx, const dat_file *d, clip_result *r, const trace *cand,
                       const trace *auth, const run_decoded *dc, ff_error *err);
/*
 * Makes decided result r bad input for why (its trace file turned out to
 * hold the clip twice...), undoing what it counted; a clip bad input
 * already keeps its first problem. r must not be grouped yet (the worker
 * holds a check unit's mismatches: worker.h). Returns 0, or -1 with err.
 */
int run_result_demote(run_ctx *ctx, clip_result *r, const ff_error *why, ff_error *err);
/* A malloc'd copy of n bytes at p; NULL when out of memory. */
void *run_dup(const void *p, size_t n);
/*
 * The reference's animation a on d, its skeleton in the buffer *skel (of
 * capacity *cap, grown to fit). Returns 0, or -1 with err.
 */
int run_ref_setup(uint8_t **skel, size_t *cap, const dat_file *d, ref_anim *a, ff_error *err);

/* run_files.c: files taken by units, released, kept warm within RUN_FILES_WARM. */
void run_files_init(run_ctx *ctx);
/* Gives the loaded file f the store (data owned from now on), unheld. */
void run_files_keep(run_ctx *ctx, uint32_t f, uint8_t *data, size_t size, const dat_file *dat);
/*
 * Holds file f, loading it when needed (its SHA-256 must still be the one
 * the plan recorded): *dat stays valid until run_file_put. -1 with err when
 * it cannot be read again.
 */
int run_file_get(run_ctx *ctx, uint32_t f, const dat_file **dat, ff_error *err);
void run_file_put(run_ctx *ctx, uint32_t f);
void run_files_free(run_ctx *ctx);

/* run_plan.c */
/* Threads the plan's file loading uses at most. */
#define RUN_PLAN_THREADS 64
/* Loads, describes and parses every file of the corpus into res->files and ctx->fslots on up
 * to threads threads. Returns 0, or -1 with err (memory: a file's own trouble is its entry's). */
int plan_load_files(run_ctx *ctx, unsigned threads, ff_error *err);
/* Frees r->results, heap or mapping (run_plan.c lays them out). */
void run_results_release(run_results *r);
int plan_units(run_ctx *ctx, ff_error *err);
int plan_dedup(run_ctx *ctx, ff_error *err);
int plan_order(run_ctx *ctx, ff_error *err);

/* worker.c, run_unit.c: a worker's private state (worker.h). */
typedef struct worker worker;
worker *worker_new(run_ctx *ctx, ff_error *err);
/* A worker whose frame units' original side comes from engine process r (remote.h; NULL:
 * worker_new); it holds no engine of its own until r is lost, and takes r. */
struct remote;
worker *worker_new_remote(run_ctx *ctx, struct remote *r, ff_error *err);
/* A worker with an engine process: the process is told no more work comes (remote_hangup). */
void worker_hangup(worker *w);
void worker_free(worker *w);
int worker_frame_unit(worker *w, const run_unit *u, ff_error *err);
int worker_leaf_unit(worker *w, const run_unit *u, ff_error *err);
int worker_entity_unit(worker *w, const run_unit *u, ff_error *err);
struct emu_game *worker_game(worker *w);


/* writers.c: the original instruction behind each frame group's example. */
void run_find_writers(run_ctx *ctx);
/* explain.c: first differing reads (as cfg->explain asks), then the causes. */
void run_explain(run_ctx *ctx);
/*
 * engines.c: which engine does what (res->engines). run_engines_begin
 * names the calls' engine and, when coverage is asked for, returns 1 when
 * the run's engine records it, else 0 with res->coverage saying why not.
 * run_replay_opts fills *opts with the run's game options on an engine
 * that has every capability of caps (EMU_CAP_BIT flags; the run's own when
 * it has them) for the replays named by what ("explanations"), and records
 * it: 0, or -1 with err (FF_E_UNSUPPORTED) when no engine built in has them.
 */
int run_engines_begin(run_ctx *ctx);
int run_replay_opts(run_ctx *ctx, unsigned caps, const char *what, emu_game_opts *opts,
                    ff_error *err);
/* coverage.c: res->coverage from the merged hits. -1 when memory runs out. */
int run_coverage_build(run_ctx *ctx, ff_error *err);
void run_coverage_free(res_coverage *c);

static inline int run_cancelled(const run_ctx *ctx)
{
    return (ctx->cfg->cancel && *ctx->cfg->cancel) || atomic_load(&ctx->failed);
}

/* A cache entry refused, or one that could not be stored: counted, the first reason kept. */
static inline void run_cache_rejected(run_ctx *ctx, const ff_error *why)
{
    pthread_mutex_lock(&ctx->lock);
    if (ctx->cache_rejected++ == 0) ctx->cache_reject_err = *why;
    pthread_mutex_unlock(&ctx->lock);
}

static inline void run_cache_unwritten(run_ctx *ctx, const ff_error *why)
{
    pthread_mutex_lock(&ctx->lock);
    if (ctx->cache_unwritten++ == 0) ctx->cache_write_err = *why;
    pthread_mutex_unlock(&ctx->lock);
}

#endif
