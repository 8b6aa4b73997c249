/*
 * harness/run/worker.h: a worker's private state, shared by the file that
 * makes it (worker.c), the one that drives it (run_unit.c), the one that
 * runs the original's side of a clip (run_orig.c), the one that records a
 * clip (run_clip.c) and its engine process's side (worker_remote.c). Internal to
 * harness/run/; the rest of the run knows a worker only through
 * context.h. One worker per thread: nothing here is locked.
 */
#ifndef FF_HARNESS_RUN_WORKER_H
#define FF_HARNESS_RUN_WORKER_H

#include <stdint.h>

#include "harness/core/outcome.h"
#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "harness/run/pose_side.h"
#include "harness/run/run_entity.h"
#include "harness/run/context.h"

struct worker {
    run_ctx *ctx;
    emu_game *game; /* NULL when no executable */
    int64_t loaded; /* file in guest memory, -1: none */
    int dirty;      /* a fault may have damaged the guest copy */
    uint8_t *skel;
    size_t skel_cap;
    trace rt;        /* candidate side */
    trace rt_alt;    /* the candidate under the other width (pose_width.h) */
    orig_outcome oo; /* authority side */
    strbuf blob;     /* cache record under construction */
    strbuf rec;      /* recorded traces under construction */
    pose_memo *memo; /* pose level: the original's poses by input */
    ref_trig_table *trig; /* pose level: the reference's sin and cos, looked up */
    uint8_t *world;  /* pose level: world and placed skeleton bytes */
    size_t world_cap;
    ent_worker *ent; /* the entity level's state (run_entity.c), NULL when it is off */
    uint8_t *hits;   /* blocks this worker's engine ran (coverage on), merged when freed */
    struct remote *remote; /* its engine process (remote.h), NULL: the engine is in-process */
    unsigned lost;         /* engine processes lost (each replaced by a fresh one) */
    /* --engine both: the second engine in-process (or remote's), its file and memo */
    emu_game *game2;
    int64_t loaded2;
    int dirty2;
    pose_memo *memo2;
    orig_outcome oo2;
    /*
     * check: a unit's mismatches wait here for their groups until its trace
     * files are read to the end (a clip found given twice there is bad
     * input, and groups nothing); hold is set for such a unit.
     */
    struct held_group *held;
    size_t nheld, held_cap;
    int hold;
};

/* The candidate's side of one clip as run_clip_classify takes it. */
typedef struct cand_side {
    int ok;           /* w->rt holds its trace (0: err says why) */
    int absent;       /* the traces hold nothing for the clip: w->rt is empty, err says why */
    int frames;       /* read from the frames format */
    int traces;       /* read from traces (not the reference) */
    const char *stop; /* the decoder's "error" line for the clip, NULL: none */
    const ff_error *err;
} cand_side;

/*
 * Records frame result idx (d's clip, a: the reference's animation, NULL
 * when the candidate is traces) from both sides: the candidate's cs in
 * w->rt, the authority's in w->oo (auth_ok; else auth_err says why), from
 * src (run_clip.c). Returns 0, or -1 with err.
 */
int run_clip_classify(worker *w, const dat_file *d, ref_anim *a, size_t idx, const cand_side *cs,
                      int auth_ok, const ff_error *auth_err, res_source src, ff_error *err);

/*
 * Groups the mismatches held for the unit that are mismatches still, then
 * forgets them all. Returns 0, or -1 with err (memory).
 */
int run_clip_release(worker *w, ff_error *err);
/* Forgets the mismatches held (a unit given up). */
void run_clip_held_free(worker *w);

/* One engine of the worker: the run's (emulate) or --engine both's second. */
typedef struct wengine {
    emu_game *game;
    int64_t *loaded; /* file in its guest memory, -1: none */
    int *dirty;      /* a fault may have damaged the guest copy */
    pose_memo *memo;
} wengine;

/*
 * run_orig.c: clip's original side on engine we into *o (file f, parsed as
 * d, loaded into the engine's guest memory unless it is there already), on
 * the worker's own engine, or through dedup slot si (the first to come
 * emulates, the others wait and take its outcome into w->oo when the bytes
 * its cursor reached are theirs too; *src says which). Return 0, or -1 with
 * err (the clip's input, or memory when err is FF_E_NOMEM).
 */
int run_orig_emulate_on(worker *w, const wengine *we, uint32_t f, const dat_file *d, mode_id m,
                        uint32_t clip, orig_outcome *o, ff_error *err);
int run_orig_emulate(worker *w, uint32_t f, const dat_file *d, mode_id m, uint32_t clip,
                     orig_outcome *o, ff_error *err);
int run_orig_shared(worker *w, int32_t si, uint32_t f, const dat_file *d, mode_id m, uint32_t clip,
                    res_source *src, ff_error *err);

/*
 * run_quirks.c. The quirk pass on clip c of unit u (into its result): the
 * reference's side already in w->rt when have_ref, else decoded. And on a
 * checked decoder's mismatching clip (its trace in w->rt, the authority's
 * in auth as compared; frames: the frames format), the rows of the quirk
 * table that reproduce it, or on a clip it stopped short on, the row that
 * explains where, into r->explained. Both return 0, or -1 with err (out of
 * memory).
 */
int run_quirks_clip(worker *w, const run_unit *u, ref_anim *a, uint32_t c, int have_ref,
                    ff_error *err);
int run_quirks_explain(worker *w, const run_unit *u, ref_anim *a, uint32_t c, const trace *auth,
                       int frames, clip_result *r, ff_error *err);

/*
 * Unit u's original side from the worker's engine process into *rem, its
 * calls and pose memo counted into the run (worker_remote.c). When the
 * process is lost, rem holds every clip as a fault of kind engine_process
 * (rem->lost; none when the run was cancelled) and a fresh process takes
 * the next unit. Returns 0, or -1 with err.
 */
struct remote_unit;
int worker_ask_remote(worker *w, const run_unit *u, struct remote_unit *rem, ff_error *err);
/*
 * The entity level's fetch (run_entity.h) of a worker whose engine runs in
 * an engine process (arg: the worker): the unit's original side from there;
 * once the process is lost, the worker's in-process engine.
 */
int worker_entity_fetch(void *arg, const run_unit *u, struct remote_unit *out, ff_error *err);
/* A leaf unit run in the worker's engine process, merged into the run's. Returns 0, or -1. */
int worker_leaf_remote(worker *w, const run_unit *u, ff_error *err);

#endif
