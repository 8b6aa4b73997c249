/*
 * harness/run/run.c: a run from start to end: open the corpus, plan, start the
 * workers (one engine each), wait, total up and sort the groups.
 */
#include "harness/run/run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/causes.h"
#include "harness/run/cache.h"
#include "harness/run/leaf.h"
#include "harness/run/pose_search.h"
#include "harness/run/remote.h"
#include "harness/run/run_entity.h"
#include "harness/run/spawner.h"
#include "harness/run/context.h"


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
    cfg->quirks = 1;
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

/* The next chain for a worker: the shared counter's. SIZE_MAX at the end. */
static size_t next_chain(run_ctx *ctx)
{
    size_t c = atomic_fetch_add(&ctx->next_chain, 1);
    return c < ctx->nchains ? c : SIZE_MAX;
}

static void *work(void *p)
{
    thread_arg *t = p;
    run_ctx *ctx = t->ctx;
    for (;;) {
        if (run_cancelled(ctx)) break;
        size_t c = next_chain(ctx);
        if (c == SIZE_MAX) break;
        for (size_t i = ctx->chain_start[c]; i < ctx->chain_start[c + 1]; i++) {
            const run_unit *u = &ctx->units[i];
            ff_error err;
            ff_error_clear(&err);
            int rc = u->kind == UNIT_FRAME    ? worker_frame_unit(t->w, u, &err)
                     : u->kind == UNIT_ENTITY ? worker_entity_unit(t->w, u, &err)
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
    if (!args || !th || !running) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    /* The executable's code on the CPU (native) never runs in this process: every worker
     * gets an engine process (remote.h), forked before any worker starts; with
     * engine_processes, on any engine. */
    const run_config *cfg = ctx->cfg;
    int remote = cfg->image && run_engine_processes(cfg);
    /* An engine may end the process when it cannot reserve its room (Unicorn): ask first. */
    if (rc == 0 && ctx->cfg->image)
        rc = emu_game_room(cfg->game.engine, remote && !cfg->second ? 1 : jobs, err);
    struct remote **rs = remote && rc == 0 ? calloc(jobs, sizeof *rs) : NULL;
    if (remote && rc == 0 &&
        (!rs || spawner_start(ctx, &ctx->spawner, err) < 0 ||
         remote_start(ctx, jobs, rs, err) < 0 || remote_ready(rs, jobs, err) < 0)) {
        if (!rs) ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        rc = -1;
    }
    for (unsigned i = 0; rc == 0 && i < jobs; i++) {
        args[i].ctx = ctx;
        args[i].w = remote ? worker_new_remote(ctx, rs[i], err) : worker_new(ctx, err);
        if (rs) rs[i] = NULL; /* the worker's now, made or not */
        if (!args[i].w) rc = -1;
    }
    for (unsigned i = 0; rs && i < jobs; i++)
        remote_stop(rs[i]); /* those no worker took */
    free(rs);
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
    /* The engine processes end while the workers are freed. */
    for (unsigned i = 0; args && i < jobs; i++)
        worker_hangup(args[i].w);
    for (unsigned i = 0; args && i < jobs; i++) worker_free(args[i].w);
    spawner_stop(ctx->spawner);
    ctx->spawner = NULL;
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
        t->x87_limit += r->status == RES_MISMATCH && r->x87_limit;
        for (int k = 0; r->cells && k < CELL__COUNT; k++) t->cells[k] += r->cells->count[k];
        t->turns_equal += r->cells ? r->cells->turns_equal : 0;
        t->turns_differ += r->cells ? r->cells->turns_differ : 0;
        t->by_source[r->source]++;
        t->engines[r->eng.state]++;
        t->x87_measured += r->status == RES_MISMATCH && r->x87_limit && r->eng.state == RES_ENG_X87;
        t->ticks_ref += r->ref_ticks;
        t->ticks_orig += r->orig_ticks;
        for (int k = 0; k < FIELD_CLASS_MAX; k++) {
            t->cls_clips[k] += r->use.ticks[k] != 0;
            t->cls_ticks[k] += r->use.ticks[k];
            t->cls_unsup_clips[k] += r->use.unsupplied[k] != 0;
            t->cls_unsup_ticks[k] += r->use.unsupplied[k];
            t->cls_moving_clips[k] += r->use.moving >> k & 1;
        }
    }
    for (size_t i = 0; i < res->nleaf; i++) {
        t->leaf_calls += res->leaf[i].calls;
        t->leaf_mismatches += res->leaf[i].mismatches;
        t->leaf_faults += res->leaf[i].faults;
        t->leaf_engine_calls += res->leaf[i].eng.calls;
        t->leaf_engine_disagree += res->leaf[i].eng.disagree;
    }
    t->cache_rejected = ctx->cache_rejected;
    run_entity_totals(ctx);
}

int run_warn(run_results *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    char **w = s ? realloc(r->warnings, (r->nwarnings + 1) * sizeof *w) : NULL;
    if (!w) {
        free(s);
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    r->warnings = w;
    r->warnings[r->nwarnings++] = s;
    return 0;
}

/* Entries renamed because another has the same base name: one warning each (at most 20). */
static int warn_renamed(run_ctx *ctx)
{
    const corpus *c = ctx->corpus;
    size_t shown = 0, total = corpus_renamed_count(c);
    int rc = 0;
    for (size_t i = 0; i < corpus_count(c) && shown < 20 && rc == 0; i++)
        if (corpus_renamed(c, i) && ++shown)
            rc = run_warn(ctx->res, "%s: another archive entry has the same base name: named %s",
                          corpus_path(c, i), corpus_name(c, i));
    if (rc == 0 && total > shown)
        rc = run_warn(ctx->res, "... and %zu more entries renamed for the same reason",
                      total - shown);
    return rc;
}

/* Problems of a zzz's table (the corpus opened with what was left): one warning each. */
static int warn_problems(run_ctx *ctx)
{
    const corpus *c = ctx->corpus;
    char msg[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    int rc = 0;
    size_t n = corpus_problem_count(c), k = 0;
    for (; k < n && corpus_problem(c, k) && rc == 0; k++)
        rc = run_warn(ctx->res, "%s", ff_error_format(corpus_problem(c, k), msg, sizeof msg));
    if (rc == 0 && n > k)
        rc = run_warn(ctx->res, "... and %zu more problems in the archive's table", n - k);
    return rc;
}

/* The results cache's troubles of this run, one warning each. */
static int warn_cache(run_ctx *ctx)
{
    char msg[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    int rc = 0;
    if (ctx->cache_rejected)
        rc = run_warn(ctx->res,
                      "%llu results cache entr%s refused and emulated again (first: %s)",
                      (unsigned long long)ctx->cache_rejected,
                      ctx->cache_rejected == 1 ? "y was" : "ies were",
                      ff_error_format(&ctx->cache_reject_err, msg, sizeof msg));
    if (rc == 0 && ctx->cache_unwritten)
        rc = run_warn(ctx->res,
                      "the results cache could not be written (%llu entr%s not stored: %s); "
                      "the run went on without it",
                      (unsigned long long)ctx->cache_unwritten,
                      ctx->cache_unwritten == 1 ? "y" : "ies",
                      ff_error_format(&ctx->cache_write_err, msg, sizeof msg));
    return rc;
}

int run_engine_processes(const run_config *cfg)
{
    return cfg->engine_processes ||
           emu_engine_one_per_process(cfg->second ? cfg->second : cfg->game.engine);
}

const char *run_engine_key(const run_config *cfg)
{
    return emu_engine_kind_name(emu_engine_kind_of(cfg->game.engine));
}

static void mark_cached(run_ctx *ctx)
{
    const run_config *cfg = ctx->cfg;
    if (!cfg->cache || cfg->traces_dir) return;
    for (size_t u = 0; u < ctx->nunits; u++) {
        run_unit *un = &ctx->units[u];
        if (un->kind != UNIT_FRAME) continue;
        ff_error e;
        /* The pose level's original side includes the fixed base's world matrices. */
        cache_key_in in = {cfg->cache_id, ctx->res->files[un->file].sha256, un->mode,
                           cfg->pose_level              ? "frame+pose-base1"
                           : cfg->game.keep_matrices ? "frame+matrices"
                                                     : "frame",
                           cfg->game.budget, run_engine_key(cfg)};
        /* A unit without a key is emulated and not stored, as if there were no cache. */
        un->keyed = cache_key_make(&un->key, &in, &e) == 0;
        un->cached = un->keyed && cache_has(cfg->cache, &un->key);
    }
}

/*
 * The original's blocks, for coverage and explanations (an executable only).
 * Coverage is recorded only on an engine with coverage hooks: on another,
 * no hits are kept and res->coverage says why (run_engines_begin).
 */
static int observe_setup(run_ctx *ctx, ff_error *err)
{
    const run_config *cfg = ctx->cfg;
    int record = run_engines_begin(ctx);
    if (!cfg->image || cfg->traces_dir || (!record && !cfg->explain)) return 0;
    if (emu_image_blocks(cfg->image, &ctx->blocks, err) < 0) return -1;
    if (!record) return 0;
    ctx->cover_hits = calloc(ctx->blocks->nblocks ? ctx->blocks->nblocks : 1, 1);
    if (!ctx->cover_hits) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    return 0;
}

static void ctx_free(run_ctx *ctx)
{
    run_files_free(ctx);
    free(ctx->slot_of);
    for (size_t i = 0; i < ctx->nslots; i++) {
        free(ctx->slots[i].packed);
        if (ctx->slots[i].out) outcome_free(ctx->slots[i].out);
        free(ctx->slots[i].out);
        free(ctx->slots[i].reach);
    }
    free(ctx->slots);
    free(ctx->units);
    free(ctx->chain_start);
    run_entity_plan_free(ctx);
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
    ctx.fields = field_set_of_levels(1u << FIELD_LEVEL_FRAME |
                                     (cfg->pose_level ? 1u << FIELD_LEVEL_POSE : 0));
    field_classes_make(&ctx.classes);
    out->required = cfg->require;
    if (cfg->pose_level) {
        ctx.pose_opts = cfg->pose_opts;
        ctx.pose = &ctx.pose_opts;
        out->pose.source = cfg->pose_search   ? POSE_CONV_SEARCH
                           : cfg->pose_pinned ? POSE_CONV_PROFILE
                                              : POSE_CONV_GIVEN;
        ref_pose_opts_format(&ctx.pose_opts, out->pose.chosen, sizeof out->pose.chosen);
        /* Given or pinned, every choice is; the search, when it runs, says what decided each. */
        for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
            out->pose.keys[k].basis = cfg->pose_search   ? POSE_BASIS_DEFAULT
                                      : cfg->pose_pinned ? POSE_BASIS_PINNED
                                                         : POSE_BASIS_GIVEN;
    }
    ctx.res = out;
    pthread_mutex_init(&ctx.lock, NULL);
    pthread_cond_init(&ctx.slot_done, NULL);
    run_files_init(&ctx);
    int rc = 0;
    if (!cfg->image && !cfg->traces_dir)
        rc = ff_error_set(err, FF_E_USAGE, NULL, -1, "a run needs an executable or recorded traces");
    if (rc == 0 && (cfg->frame_level || cfg->entity_level) && cfg->corpus_path == NULL)
        rc = ff_error_set(err, FF_E_USAGE, NULL, -1, "no corpus given");
    if (rc == 0 && cfg->corpus_path)
        rc = corpus_open_lang(cfg->corpus_path, cfg->corpus_lang, &ctx.corpus, err);
    if (rc == 0 && ctx.corpus) {
        snprintf(out->corpus_kind, sizeof out->corpus_kind, "%s",
                 corpus_kind_name(corpus_get_kind(ctx.corpus)));
        snprintf(out->corpus_description, sizeof out->corpus_description, "%s",
                 corpus_describe(ctx.corpus));
        corpus_origin o = corpus_get_origin(ctx.corpus);
        snprintf(out->corpus_release, sizeof out->corpus_release, "%s", o.release);
        snprintf(out->corpus_archive, sizeof out->corpus_archive, "%s", o.archive ? o.archive : "");
        snprintf(out->corpus_zzz_entry, sizeof out->corpus_zzz_entry, "%s",
                 o.zzz_entry ? o.zzz_entry : "");
        out->corpus_zzz_offset = o.zzz_offset;
        snprintf(out->corpus_lang, sizeof out->corpus_lang, "%s", o.lang ? o.lang : "");
    }
    if (rc == 0 && ctx.corpus && warn_problems(&ctx) < 0)
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (rc == 0 && ctx.corpus && warn_renamed(&ctx) < 0)
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (rc == 0 && ctx.corpus) rc = plan_load_files(&ctx, job_count(cfg), err);
    if (rc == 0 && cfg->pose_level && cfg->pose_search && cfg->image && !cfg->traces_dir &&
        !run_cancelled(&ctx))
        rc = pose_search_run(&ctx, job_count(cfg), err);
    /* The search alone: nothing is planned, no unit runs. */
    int units = !(cfg->search_only && cfg->pose_level && cfg->pose_search);
    if (rc == 0 && units && cfg->sink && cfg->sink->begin && !run_cancelled(&ctx))
        rc = cfg->sink->begin(cfg->sink->arg, out, ctx.pose, err);
    if (rc == 0 && units) rc = plan_units(&ctx, err);
    if (rc == 0 && units) mark_cached(&ctx);
    if (rc == 0 && units) run_entity_mark_cached(&ctx);
    if (rc == 0 && units && cfg->frame_level && cfg->image && !cfg->traces_dir)
        rc = cfg->dedup ? plan_dedup(&ctx, err) : 0;
    if (rc == 0 && units && cfg->entity_level && cfg->image && !cfg->traces_dir && cfg->dedup)
        rc = run_entity_dedup(&ctx, err);
    if (rc == 0 && units) rc = plan_order(&ctx, err);
    if (rc == 0 && units) rc = observe_setup(&ctx, err);
    if (rc == 0 && units) {
        if (cfg->progress)
            for (size_t u = 0; u < ctx.nunits; u++) {
                if (ctx.units[u].kind == UNIT_FRAME)
                    atomic_fetch_add(&cfg->progress->clips_total,
                                     out->files[ctx.units[u].file].clips);
                else if (ctx.units[u].kind == UNIT_ENTITY)
                    atomic_fetch_add(&cfg->progress->clips_total,
                                     out->entities[ctx.units[u].entity].clips);
            }
        rc = run_workers(&ctx, err);
    }
    pose_width_finish(&ctx); /* before the replays: they pose under the width taken */
    /* The workers are done: the groups are this thread's alone now. */
    for (size_t i = 0; i < out->nleaf && ctx.res->leaf; i++)
        if (group_add_leaf(out, (unsigned)i) < 0 && rc == 0)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory grouping leaf results");
    group_sort(out);
    if (rc == 0) run_find_writers(&ctx);
    total_up(&ctx);
    if (rc == 0) run_explain(&ctx);
    /* A convention given that the executable's poses contradict: said before the causes. */
    if (rc == 0 && units) {
        ff_error e;
        if (pose_contradict_run(&ctx, job_count(cfg), &e) < 0 &&
            run_warn(out, "the pose convention given was not checked against the executable's "
                          "poses: %s", e.reason) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    if (rc == 0 && ctx.cover_hits) rc = run_coverage_build(&ctx, err);
    if (warn_cache(&ctx) < 0 && rc == 0)
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    out->interrupt_signal = cfg->cancel ? (int)*cfg->cancel : 0;
    out->interrupted = out->interrupt_signal != 0;
    /* The search's choice for this executable, for the commands that cannot search cheaply. */
    if (rc == 0 && !out->interrupted && cfg->pose_level && cfg->pose_search && cfg->image &&
        !cfg->traces_dir && cfg->cache && out->pose.chosen[0]) {
        ff_error e;
        if (pose_search_remember(cfg->cache, cfg->cache_id, out->pose.chosen, &e) < 0 &&
            run_warn(out, "the pose convention searched was not remembered in the results "
                          "cache: %s", e.reason) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
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
        free(r->results[i].cells);
        free(r->results[i].stopped);
    }
    causes_free(r);
    run_coverage_free(&r->coverage);
    for (size_t i = 0; i < r->nleaf; i++) free(r->leaf[i].fault);
    for (size_t i = 0; i < r->ngroups; i++) {
        free(r->groups[i].series.ref);
        free(r->groups[i].series.orig);
        group_figure_free(&r->groups[i].figure);
    }
    for (size_t i = 0; i < r->nfiles; i++) manifest_entry_clear(&r->files[i]);
    for (size_t i = 0; i < r->nwarnings; i++) free(r->warnings[i]);
    free(r->warnings);
    run_entity_results_free(r);
    run_results_release(r);
    free(r->leaf);
    free(r->groups);
    free(r->files);
    memset(r, 0, sizeof *r);
}
