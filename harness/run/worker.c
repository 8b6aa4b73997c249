/*
 * harness/run/worker.c: a worker made and freed: its own engine on the
 * executable, the pose memo and trig table, the entity level's state and its coverage
 * marks, each only when the run needs it. Freeing merges what the worker
 * counted (coverage, pose memo hits) into the run under its lock.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/run/remote.h"
#include "harness/run/worker.h"

worker *worker_new(run_ctx *ctx, ff_error *err)
{
    return worker_new_remote(ctx, NULL, err);
}

worker *worker_new_remote(run_ctx *ctx, struct remote *r, ff_error *err)
{
    worker *w = calloc(1, sizeof *w);
    if (!w) {
        remote_stop(r);
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        return NULL;
    }
    w->ctx = ctx;
    w->loaded = -1;
    w->remote = r; /* from here the worker's to stop */
    trace_init(&w->rt);
    trace_init(&w->rt_alt);
    outcome_init(&w->oo);
    outcome_init(&w->oo2);
    w->loaded2 = -1;
    sb_init(&w->blob);
    sb_init(&w->rec);
    /* With a second engine the run's engine stays in-process; the second is the remote's. */
    const run_config *cfg = ctx->cfg;
    if (cfg->image && (!r || cfg->second) &&
        emu_game_open(cfg->image, &cfg->game, &w->game, err) < 0) {
        worker_free(w);
        return NULL;
    }
    emu_game_opts second = cfg->game;
    second.engine = cfg->second;
    if (cfg->image && cfg->second && !r && emu_game_open(cfg->image, &second, &w->game2, err) < 0) {
        worker_free(w);
        return NULL;
    }
    if (cfg->second && ctx->pose && cfg->image && !r && !(w->memo2 = pose_memo_new(0))) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the pose memo");
        worker_free(w);
        return NULL;
    }
    if (ctx->pose && ctx->cfg->image && (!r || cfg->second) && !(w->memo = pose_memo_new(0))) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the pose memo");
        worker_free(w);
        return NULL;
    }
    if (ctx->pose && (!(w->trig = malloc(sizeof *w->trig)) ||
                      ref_trig_table_fill(w->trig, ctx->pose->trig) < 0)) {
        /* Only a speed-up: without it the reference computes each value. */
        free(w->trig);
        w->trig = NULL;
    }
    /* With an engine process, the entity level's original side (or under --engine both
     * the second engine's) comes from there. */
    ent_engines ee = {
        w->game, w->game2,           w->memo, w->memo2, r ? worker_entity_fetch : NULL,
        w,       cfg->second != NULL};
    if (ctx->ent && !(w->ent = run_entity_worker_new(ctx, &ee, err))) {
        worker_free(w);
        return NULL;
    }
    if (w->game && ctx->cover_hits) {
        w->hits = calloc(ctx->blocks->nblocks ? ctx->blocks->nblocks : 1, 1);
        if (!w->hits) ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        if (!w->hits || emu_game_cover(w->game, ctx->blocks, w->hits, err) < 0) {
            worker_free(w);
            return NULL;
        }
    }
    return w;
}

void worker_hangup(worker *w)
{
    if (w) remote_hangup(w->remote);
}

void worker_free(worker *w)
{
    if (!w) return;
    run_entity_worker_free(w->ent); /* its entity lives on the game's engine: first */
    if (w->hits) {
        run_ctx *ctx = w->ctx;
        pthread_mutex_lock(&ctx->lock);
        for (unsigned i = 0; i < ctx->blocks->nblocks; i++)
            ctx->cover_hits[i] |= w->hits[i];
        pthread_mutex_unlock(&ctx->lock);
        free(w->hits);
    }
    emu_game_close(w->game2);
    pose_memo_free(w->memo2);
    outcome_free(&w->oo2);
    emu_game_close(w->game);
    remote_stop(w->remote);
    free(w->skel);
    if (w->memo) {
        pose_memo_stats st = pose_memo_get_stats(w->memo);
        pthread_mutex_lock(&w->ctx->lock);
        w->ctx->res->pose.states_emulated += st.misses;
        w->ctx->res->pose.states_replayed += st.hits;
        pthread_mutex_unlock(&w->ctx->lock);
    }
    pose_memo_free(w->memo);
    free(w->trig);
    free(w->world);
    trace_free(&w->rt);
    trace_free(&w->rt_alt);
    run_clip_held_free(w);
    free(w->held);
    outcome_free(&w->oo);
    sb_free(&w->blob);
    sb_free(&w->rec);
    free(w);
}

emu_game *worker_game(worker *w)
{
    return w->game;
}
