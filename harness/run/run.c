/*
 * harness/run/run.c: a run from start to end: open the corpus, plan, start the
 * workers (one engine each), wait, total up and sort the groups.
 */
#include "harness/run/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/causes.h"
#include "harness/run/cache.h"
#include "harness/run/leaf.h"
#include "harness/run/run_internal.h"


void run_config_init(run_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->modes = MODE_ALL;
    cfg->frame_level = 1;
    cfg->leaf_calls = 100000;
    cfg->seed = 1;
    cfg->dedup = 1;
    cfg->explain = RUN_EXPLAIN_GROUPS;
    cfg->coverage = 1;
}

static void fail(run_ctx *ctx, const ff_error *err)
{
    pthread_mutex_lock(&ctx->lock);
    if (!atomic_load(&ctx->failed)) ctx->fail_err = *err;
    atomic_store(&ctx->failed, 1);
    pthread_mutex_unlock(&ctx->lock);
}

typedef struct thread_arg {
    run_ctx *ctx;
    worker *w;
} thread_arg;

static void *work(void *p)
{
    thread_arg *t = p;
    run_ctx *ctx = t->ctx;
    for (;;) {
        if (run_cancelled(ctx)) break;
        size_t c = atomic_fetch_add(&ctx->next_chain, 1);
        if (c >= ctx->nchains) break;
        for (size_t i = ctx->chain_start[c]; i < ctx->chain_start[c + 1]; i++) {
            const run_unit *u = &ctx->units[i];
            ff_error err;
            ff_error_clear(&err);
            int rc = u->kind == UNIT_FRAME ? worker_frame_unit(t->w, u, &err)
                                           : worker_leaf_unit(t->w, u, &err);
            if (rc < 0) {
                fail(ctx, &err);
                return NULL;
            }
        }
    }
    return NULL;
}

static unsigned job_count(const run_config *cfg)
{
    if (cfg->jobs) return cfg->jobs;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static int run_workers(run_ctx *ctx, ff_error *err)
{
    unsigned jobs = job_count(ctx->cfg);
    if (jobs > ctx->nchains) jobs = ctx->nchains ? (unsigned)ctx->nchains : 1;
    ctx->res->jobs = jobs;
    thread_arg *args = calloc(jobs, sizeof *args);
    pthread_t *th = calloc(jobs, sizeof *th);
    int *running = calloc(jobs, sizeof *running);
    int rc = 0;
    unsigned made = 0;
    if (!args || !th || !running) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    for (; rc == 0 && made < jobs; made++) {
        args[made].ctx = ctx;
        if (!(args[made].w = worker_new(ctx, err))) rc = -1;
    }
    if (rc < 0 && made) made--; /* the last one failed and is NULL */
    /* Worker 0 runs on this thread, the others on their own. */
    for (unsigned i = 1; rc == 0 && i < jobs; i++) {
        running[i] = pthread_create(&th[i], NULL, work, &args[i]) == 0;
        if (!running[i]) {
            rc = ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot start a worker thread");
            atomic_store(&ctx->failed, 1);
        }
    }
    if (rc == 0) work(&args[0]);
    for (unsigned i = 1; i < jobs && running; i++)
        if (running[i]) pthread_join(th[i], NULL);
    for (unsigned i = 0; i < made; i++) worker_free(args[i].w);
    free(args);
    free(th);
    free(running);
    if (rc == 0 && atomic_load(&ctx->failed)) {
        *err = ctx->fail_err;
        rc = -1;
    }
    return rc;
}

static void total_up(run_ctx *ctx)
{
    run_results *res = ctx->res;
    run_totals *t = &res->totals;
    memset(t, 0, sizeof *t);
    t->files = res->nfiles;
    for (size_t f = 0; f < res->nfiles; f++) {
        t->bad_files += !res->files[f].parsed;
        if (res->files[f].parsed && dat_kind_has_model(res->files[f].kind))
            t->clips += res->files[f].clips;
    }
    for (size_t i = 0; i < res->nresults; i++) {
        const clip_result *r = &res->results[i];
        t->comparisons++;
        t->by_status[r->status]++;
        t->by_source[r->source]++;
        t->ticks_ref += r->ref_ticks;
        t->ticks_orig += r->orig_ticks;
    }
    for (size_t i = 0; i < res->nleaf; i++) {
        t->leaf_calls += res->leaf[i].calls;
        t->leaf_mismatches += res->leaf[i].mismatches;
        t->leaf_faults += res->leaf[i].faults;
    }
}

static void mark_cached(run_ctx *ctx)
{
    const run_config *cfg = ctx->cfg;
    if (!cfg->cache || cfg->traces_dir) return;
    for (size_t u = 0; u < ctx->nunits; u++) {
        run_unit *un = &ctx->units[u];
        if (un->kind != UNIT_FRAME) continue;
        ff_error e;
        /* A unit without a key is emulated, as if the cache did not hold it. */
        un->cached = cache_key(un->cache_key, cfg->cache_id ? cfg->cache_id : "",
                               ctx->res->files[un->file].sha256, un->mode,
                               cfg->game.keep_matrices ? "frame+matrices" : "frame", &e) == 0 &&
                     cache_has(cfg->cache, un->cache_key);
    }
}

/* The original's blocks, for coverage and explanations (an executable only). */
static int observe_setup(run_ctx *ctx, ff_error *err)
{
    const run_config *cfg = ctx->cfg;
    if (!cfg->image || cfg->traces_dir || (!cfg->coverage && !cfg->explain)) return 0;
    if (emu_image_blocks(cfg->image, &ctx->blocks, err) < 0) return -1;
    if (!cfg->coverage) return 0;
    ctx->cover_hits = calloc(ctx->blocks->nblocks ? ctx->blocks->nblocks : 1, 1);
    if (!ctx->cover_hits) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    return 0;
}

static void ctx_free(run_ctx *ctx)
{
    for (size_t i = 0; i < ctx->res->nfiles && ctx->data; i++) free(ctx->data[i]);
    free(ctx->data);
    free(ctx->size);
    free(ctx->dat);
    free(ctx->slot_of);
    for (size_t i = 0; i < ctx->nslots; i++) outcome_free(&ctx->slots[i].out);
    free(ctx->slots);
    free(ctx->units);
    free(ctx->chain_start);
    emu_blocks_free(ctx->blocks);
    free(ctx->cover_hits);
    corpus_close(ctx->corpus);
    pthread_mutex_destroy(&ctx->lock);
    pthread_cond_destroy(&ctx->slot_done);
}

int run_execute(const run_config *cfg, run_results *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cfg = cfg;
    ctx.fields = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    ctx.res = out;
    pthread_mutex_init(&ctx.lock, NULL);
    pthread_cond_init(&ctx.slot_done, NULL);
    int rc = 0;
    if (!cfg->image && !cfg->traces_dir)
        rc = ff_error_set(err, FF_E_USAGE, NULL, -1, "a run needs an executable or recorded traces");
    if (rc == 0 && cfg->frame_level && cfg->corpus_path == NULL)
        rc = ff_error_set(err, FF_E_USAGE, NULL, -1, "no corpus given");
    if (rc == 0 && cfg->corpus_path) rc = corpus_open(cfg->corpus_path, &ctx.corpus, err);
    if (rc == 0 && ctx.corpus) {
        snprintf(out->corpus_kind, sizeof out->corpus_kind, "%s",
                 corpus_kind_name(corpus_get_kind(ctx.corpus)));
        snprintf(out->corpus_description, sizeof out->corpus_description, "%s",
                 corpus_describe(ctx.corpus));
    }
    if (rc == 0 && ctx.corpus) rc = plan_load_files(&ctx, err);
    if (rc == 0) rc = plan_units(&ctx, err);
    if (rc == 0) mark_cached(&ctx);
    if (rc == 0 && cfg->frame_level && cfg->image && !cfg->traces_dir)
        rc = cfg->dedup ? plan_dedup(&ctx, err) : 0;
    if (rc == 0) rc = plan_order(&ctx, err);
    if (rc == 0) rc = observe_setup(&ctx, err);
    if (rc == 0) {
        if (cfg->progress)
            for (size_t u = 0; u < ctx.nunits; u++)
                if (ctx.units[u].kind == UNIT_FRAME)
                    atomic_fetch_add(&cfg->progress->clips_total,
                                     out->files[ctx.units[u].file].clips);
        rc = run_workers(&ctx, err);
    }
    /* The workers are done: the groups are this thread's alone now. */
    for (size_t i = 0; i < out->nleaf && ctx.res->leaf; i++)
        if (group_add_leaf(out, (unsigned)i) < 0 && rc == 0)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory grouping leaf results");
    group_sort(out);
    if (rc == 0) run_find_writers(&ctx);
    total_up(&ctx);
    if (rc == 0) run_explain(&ctx);
    if (rc == 0 && ctx.cover_hits) rc = run_coverage_build(&ctx, err);
    out->interrupted = cfg->cancel && *cfg->cancel;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    ctx_free(&ctx);
    return rc;
}

void run_results_free(run_results *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nresults; i++) {
        free(r->results[i].fault);
        free(r->results[i].error);
        free(r->results[i].expl);
    }
    causes_free(r);
    run_coverage_free(&r->coverage);
    for (size_t i = 0; i < r->nleaf; i++) free(r->leaf[i].fault);
    for (size_t i = 0; i < r->ngroups; i++) {
        free(r->groups[i].series.ref);
        free(r->groups[i].series.orig);
    }
    for (size_t i = 0; i < r->nfiles; i++) manifest_entry_clear(&r->files[i]);
    free(r->results);
    free(r->leaf);
    free(r->groups);
    free(r->files);
    memset(r, 0, sizeof *r);
}
