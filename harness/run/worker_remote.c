/*
 * harness/run/worker_remote.c: a worker's engine process seen from the
 * worker (remote.h): a unit's original side asked for, what the process
 * did counted into the run, and when the process is lost (it died or
 * answered garbage), the unit's calls recorded as faults of kind
 * engine_process with how it ended, a warning, and a fresh process for the
 * next unit. Compares nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/leaf.h"
#include "harness/run/leaf_pose.h"
#include "harness/run/remote.h"
#include "harness/run/worker.h"

/*
 * The worker's engine process was lost on unit u: why into buf, the run
 * warned (once per worker), a fresh process started. Returns 0, or -1 with
 * err when none can start.
 */
static int lost(worker *w, const run_unit *u, char *buf, size_t n, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    const char *unit = u->kind == UNIT_FRAME    ? ctx->res->files[u->file].name
                       : u->kind == UNIT_ENTITY ? ctx->res->files[ctx->res->entities[u->entity].body].name
                                                : "a leaf unit";
    snprintf(buf, n, "%.150s while it ran %.60s %s: this unit's calls are faults, and a fresh "
                     "engine process went on",
             remote_why(w->remote), unit, u->kind == UNIT_FRAME || u->kind == UNIT_ENTITY
                                               ? mode_name(u->mode)
                                               : "");
    if (!w->lost++) {
        pthread_mutex_lock(&ctx->lock);
        int rc = run_warn(ctx->res, "%s", buf);
        pthread_mutex_unlock(&ctx->lock);
        if (rc < 0) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    return remote_respawn(w->remote, err);
}

/*
 * Whether the records of frame or entity unit u's answer rem are sound
 * (remote.h), read before any is used. 1 when sound, else 0 with why.
 */
static int records_sound(worker *w, const run_unit *u, const remote_unit *rem, ff_error *why)
{
    const run_results *res = w->ctx->res;
    if (u->kind == UNIT_FRAME)
        return remote_frame_records_sound(rem, res->files[u->file].name, &w->oo, why);
    ent_outcome o;
    ent_outcome_init(&o);
    int ok = remote_entity_records_sound(rem, res->entities[u->entity].weapon >= 0, &o, why);
    ent_outcome_free(&o);
    return ok;
}

int worker_ask_remote(worker *w, const run_unit *u, remote_unit *rem, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    ff_error e;
    int rc = remote_ask(w->remote, u, rem, &e);
    /* A record the process cannot have made honestly loses it, as garbage does: the unit's
     * clips are engine_process faults and the run goes on (never a run error). */
    if (rc == 0 && !records_sound(w, u, rem, &e)) {
        char why[sizeof e.reason + 32];
        snprintf(why, sizeof why, "answered garbage (%s)", e.reason);
        remote_lose(w->remote, why);
        rc = -2;
    }
    if (rc == -2) {
        memset(rem, 0, sizeof *rem);
        rem->lost = 1;
        if (run_cancelled(ctx)) return 0; /* killed for the cancel: the unit is not run */
        char why[sizeof e.reason];
        if (lost(w, u, why, sizeof why, err) < 0) return -1;
        return remote_lost_unit(w->remote, u, why, rem, err);
    }
    if (rc < 0) {
        *err = e;
        return -1;
    }
    if (ctx->cfg->progress)
        atomic_fetch_add(&ctx->cfg->progress->emulated_calls, rem->emulated_calls);
    pthread_mutex_lock(&ctx->lock);
    ctx->res->pose.states_emulated += rem->memo_misses;
    ctx->res->pose.states_replayed += rem->memo_hits;
    pthread_mutex_unlock(&ctx->lock);
    return 0;
}

int worker_entity_fetch(void *arg, const run_unit *u, remote_unit *out, ff_error *err)
{
    worker *w = arg;
    return worker_ask_remote(w, u, out, err);
}

/*
 * How a leaf unit's answer ended, rc: 0 sound, -3 unsound (the process is
 * then lost as garbage), -2 lost. Returns 0 when sound; 1 when lost (why
 * says how, a fresh process started); -1 with err.
 */
static int leaf_answered(worker *w, const run_unit *u, int rc, char *why, size_t n, ff_error *err)
{
    if (rc == -3) {
        remote_lose(w->remote, "answered garbage for a leaf unit");
        rc = -2;
    }
    if (rc == 0) return 0;
    return lost(w, u, why, n, err) < 0 ? -1 : 1;
}

/*
 * A leaf unit's answer of want bytes copied out of the answer area into
 * *theirs, with room for this worker's own answers (mine bytes; 0: none) in
 * *ours. Returns rc (remote_ask's) when it is not 0; -3 when the answer is
 * not want bytes of no clip; -1 with err (memory, nothing kept); else 0.
 */
static int answers_taken(const remote_unit *rem, int rc, size_t want, size_t mine, void **theirs,
                         void **ours, ff_error *err)
{
    *theirs = *ours = NULL;
    if (rc != 0) return rc;
    if (rem->nclips || rem->raw_len != want) return -3;
    if (!(*theirs = malloc(want)) || (mine && !(*ours = malloc(mine)))) {
        free(*theirs);
        *theirs = NULL;
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    memcpy(*theirs, rem->raw, want);
    return 0;
}

/*
 * A leaf unit's comparison from the process's answers (rc: remote_ask's):
 * under --engine both the run's engine is this worker's and the process's
 * the second. Returns 0, or -1 with err.
 */
static int leaf_chunk_from(worker *w, const run_unit *u, int rc, const remote_unit *rem,
                           ff_error *err)
{
    run_ctx *ctx = w->ctx;
    int second = ctx->cfg->second != NULL;
    void *t, *m;
    rc = answers_taken(rem, rc, sizeof(leaf_answers), second ? sizeof(leaf_answers) : 0, &t, &m,
                       err);
    if (rc == -1) return -1;
    leaf_answers *theirs = t, *mine = m;
    if (rc == 0 && !leaf_answers_sound(ctx, u, theirs)) rc = -3;
    leaf_chunk c;
    char why[sizeof err->reason];
    int gone = leaf_answered(w, u, rc, why, sizeof why, err);
    if (gone == 1) {
        leaf_unit_lost(ctx, u, why, &c);
    } else if (gone == 0) {
        if (second) leaf_unit_answer(ctx, w->game, u, mine);
        gone = leaf_unit_judge(ctx, u, second ? mine : theirs, second ? theirs : NULL, &c, err);
    }
    free(theirs);
    free(mine);
    return gone < 0 ? -1 : leaf_unit_merge(ctx, u, &c, err);
}

/* As leaf_chunk_from, for a pose helper's unit. */
static int pose_leaf_from(worker *w, const run_unit *u, int rc, const remote_unit *rem,
                          ff_error *err)
{
    run_ctx *ctx = w->ctx;
    int second = ctx->cfg->second != NULL;
    size_t want = leaf_pose_answers_size(leaf_pose_cases(u));
    void *t, *m;
    rc = answers_taken(rem, rc, want, second ? want : 0, &t, &m, err);
    if (rc == -1) return -1;
    pose_leaf_answers *theirs = t, *mine = m;
    if (rc == 0 && !leaf_pose_answers_sound(u, theirs, want)) rc = -3;
    pose_leaf_result p;
    char why[sizeof err->reason];
    int gone = leaf_answered(w, u, rc, why, sizeof why, err);
    if (gone == 1) {
        leaf_pose_lost(u, why, &p);
    } else if (gone == 0) {
        if (second) leaf_pose_answer(ctx, w->game, u, mine);
        leaf_pose_judge(ctx, u, second ? mine : theirs, second ? theirs : NULL, &p);
    }
    free(theirs);
    free(mine);
    if (gone < 0) return -1;
    leaf_pose_merge(ctx, u, &p);
    return 0;
}

int worker_leaf_remote(worker *w, const run_unit *u, ff_error *err)
{
    remote_unit rem;
    ff_error e;
    int rc = remote_ask(w->remote, u, &rem, &e);
    if (rc == -1) {
        *err = e;
        return -1;
    }
    if (rc == -2 && run_cancelled(w->ctx)) return 0;
    return u->kind == UNIT_POSE_LEAF ? pose_leaf_from(w, u, rc, &rem, err)
                                     : leaf_chunk_from(w, u, rc, &rem, err);
}
