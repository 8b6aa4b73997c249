/*
 * harness/run/run_entity_worker.h: a worker's entity state, shared by the
 * file that drives a unit (run_entity.c) and the one that runs the
 * original's side of it (run_entity_orig.c). Internal to harness/run/;
 * one worker per thread (or engine process): nothing here is locked.
 */
#ifndef FF8_HARNESS_RUN_RUN_ENTITY_WORKER_H
#define FF8_HARNESS_RUN_RUN_ENTITY_WORKER_H

#include "harness/run/refside_entity.h"
#include "harness/run/run_entity.h"
#include "harness/run/run_entity_io.h"

/*
 * One engine's side of the original: the worker's engine, the entity on
 * it, what it holds, its pose memo and world states, the clip's outcome.
 */
typedef struct ent_side {
    emu_game *g;       /* NULL when no executable (or while a fetch answers) */
    emu_entity *ent;   /* opened on g at the first emulation */
    int64_t loaded;    /* entity in guest memory, -1: none */
    pose_memo *memo;   /* the pose level: the engine's memo (shared with its frame units) */
    uint8_t *world[2]; /* each model's world and placed states ([weapon, body]) */
    size_t world_cap[2];
    ent_outcome ao; /* authority side */
} ent_side;

struct ent_worker {
    run_ctx *ctx;
    /* [0] the run's engine; [1] --engine both's second, in-process (g NULL when the
     * second's outcomes come from the worker's engine process, through fetch) */
    ent_side side[2];
    uint8_t *skel[2];
    size_t skel_cap[2];
    ent_trace rt; /* candidate side */
    strbuf blob;  /* outcomes under construction (cache, followers) */
    strbuf rec;   /* recorded traces under construction */
    /* the unit's files, held (run_file_get) while it runs; wd NULL without a weapon */
    const dat_file *bd, *wd;
    /* the pose level: the unit's bases */
    refside_entity_pose pose;
    emu_matrix base[2][2];
    /* the worker's engine process, when the original (or --engine both's second
     * engine) runs there; NULL: in-process */
    ent_fetch_fn fetch;
    void *fetch_arg;
    int fetch_second; /* fetch answers for the second engine (--engine both) */
    /*
     * check: the unit's compared clips wait here for their groups and the
     * entity's plot until its trace files are read to the end (a clip
     * found given twice there is bad input); hold is set for such a unit.
     */
    struct ent_held *held;
    size_t nheld, held_cap;
    int hold;
};

/*
 * Holds the unit's files in ew->bd and ew->wd (released by ent_unit_release)
 * and sets the pose level's bases. Returns 0, or -1 with err (the file's
 * error when one cannot be read again).
 */
int ent_unit_hold(ent_worker *ew, const run_unit *u, ff_error *err);
void ent_unit_release(ent_worker *ew, const run_unit *u);
/*
 * The original's side of one clip on engine side sd into sd->ao
 * (run_entity_orig.c): QueueAnimation, then AdvanceBy1 to the body's end
 * call or a fault (then sd->ao.faulted). Returns 0, or -1 with err when it cannot be emulated
 * (no executable, the entity does not load, memory).
 */
int ent_orig_clip(ent_worker *ew, ent_side *sd, const run_unit *u, uint32_t clip, ff_error *err);
/*
 * The unit's speed probe on the run's engine (run_entity_probe_orig): the
 * unit's rows of its res_queue, and b in the cache's form. Returns 0; 1
 * when a call faulted (what it left is kept, the entity reloaded next
 * time); -1 when it could not run (no engine, the entity does not load).
 */
int ent_orig_probe(ent_worker *ew, const run_unit *u, uint8_t b[ENT_PROBE_BYTES]);

#endif
