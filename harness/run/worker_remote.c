/*
 * harness/run/worker_remote.c: a worker's engine process seen from the
 * worker (remote.h): a unit's original side asked for, what the process
 * did counted into the run, and when the process is lost (it died or
 * answered garbage), the unit's calls recorded as faults of kind
 * engine_process with how it ended, a warning, and a fresh process for the
 * next unit. Compares nothing.
 */
#include <stdio.h>
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

int worker_ask_remote(worker *w, const run_unit *u, remote_unit *rem, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    ff_error e;
    int rc = remote_ask(w->remote, u, rem, &e);
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

/* A leaf chunk's counts from a process: within the chunk, its strings ended. 1 when sound. */
static int chunk_sound(run_ctx *ctx, const run_unit *u, leaf_chunk *c)
{
    uint64_t cases = leaf_case_count((emu_leaf)u->leaf, ctx->cfg->leaf_calls);
    uint64_t lo = u->chunk * LEAF_CHUNK, n = cases > lo ? cases - lo : 0;
    if (n > LEAF_CHUNK) n = LEAF_CHUNK;
    c->local.fault = NULL;
    c->first_fault.detail[sizeof c->first_fault.detail - 1] = 0;
    c->first_fault.disasm[sizeof c->first_fault.disasm - 1] = 0;
    c->first_fault.import_dll[sizeof c->first_fault.import_dll - 1] = 0;
    c->first_fault.import_name[sizeof c->first_fault.import_name - 1] = 0;
    c->local.routine[sizeof c->local.routine - 1] = 0;
    return c->local.calls <= n && c->local.mismatches <= c->local.calls &&
           c->local.faults <= c->local.calls && (unsigned)c->first_fault.kind < EMU_FAULT__COUNT;
}

/* A pose helper's counts from a process: its strings ended. 1 when sound. */
static int pose_sound(pose_leaf_result *r)
{
    r->first[sizeof r->first - 1] = 0;
    r->first_fault[sizeof r->first_fault - 1] = 0;
    r->eng_first[sizeof r->eng_first - 1] = 0;
    return r->mismatches <= r->calls && r->faults <= r->calls;
}

int worker_leaf_remote(worker *w, const run_unit *u, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    remote_unit rem;
    ff_error e;
    char why[sizeof e.reason] = "";
    int rc = remote_ask(w->remote, u, &rem, &e);
    if (rc == -1) {
        *err = e;
        return -1;
    }
    if (rc == -2 && run_cancelled(ctx)) return 0;
    leaf_chunk c;
    pose_leaf_result p;
    int pose = u->kind == UNIT_POSE_LEAF;
    size_t want = pose ? sizeof p : sizeof c;
    if (rc == 0 && (rem.nclips || rem.raw_len != want)) rc = -3;
    if (rc == 0) memcpy(pose ? (void *)&p : (void *)&c, rem.raw, want);
    if (rc == 0 && !(pose ? pose_sound(&p) : chunk_sound(ctx, u, &c))) rc = -3;
    if (rc == -3) {
        remote_lose(w->remote, "answered garbage for a leaf unit");
        rc = -2;
    }
    if (rc == -2) {
        if (lost(w, u, why, sizeof why, err) < 0) return -1;
        if (pose)
            leaf_pose_lost(u, why, &p);
        else
            leaf_unit_lost(ctx, u, why, &c);
    }
    if (pose) {
        leaf_pose_merge(ctx, u, &p);
        return 0;
    }
    return leaf_unit_merge(ctx, u, &c, err);
}
