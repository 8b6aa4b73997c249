/*
 * harness/run/worker_remote.c: a worker's engine process seen from the
 * worker (remote.h): a unit's original side asked for, what the process
 * did counted into the run, and when the process is lost, the worker's own
 * engine opened in-process (Unicorn) with one warning. Compares nothing.
 */
#include "harness/run/remote.h"
#include "harness/run/worker.h"

/*
 * The worker's engine process is lost: from here its units run on a
 * Unicorn engine of its own, in-process, and the run says so once per
 * worker. Returns 0, or -1 with err when no engine can be opened.
 */
static int remote_lost(worker *w, const ff_error *why, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    remote_stop(w->remote);
    w->remote = NULL;
    if (ctx->cfg->second) {
        /* --engine both: the run's engine is in-process already; the second is gone. */
        pthread_mutex_lock(&ctx->lock);
        int rc = run_warn(ctx->res,
                          "%s; the worker's later clips were not compared on the second engine",
                          why->reason);
        pthread_mutex_unlock(&ctx->lock);
        return rc < 0 ? ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory") : 0;
    }
    emu_game_opts opts = ctx->cfg->game;
    opts.engine = emu_engine_ops(EMU_ENGINE_UNICORN);
    pthread_mutex_lock(&ctx->lock);
    int rc = run_warn(ctx->res,
                      "%s; its unit and the worker's later units were run on Unicorn in-process",
                      why->reason);
    pthread_mutex_unlock(&ctx->lock);
    if (rc < 0) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (emu_game_open(ctx->cfg->image, &opts, &w->game, err) < 0) return -1;
    if (ctx->pose && !(w->memo = pose_memo_new(0)))
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the pose memo");
    return 0;
}

int worker_ask_remote(worker *w, const run_unit *u, remote_unit *rem, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    ff_error e;
    int rc = remote_ask(w->remote, u, rem, &e);
    if (rc == -2) return remote_lost(w, &e, err) < 0 ? -1 : 1;
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
    int rc = w->remote ? worker_ask_remote(w, u, out, err) : 1;
    if (rc == 1) run_entity_worker_engine(w->ent, w->game, w->memo);
    return rc;
}
