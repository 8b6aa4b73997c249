/*
 * harness/run/explain.c: each mismatch's first differing read. After the
 * run (and after harness/run/writers.c has named each group's writing
 * instruction), the diverging call of each group's example clip (and, with
 * --explain all, of every mismatching clip) is replayed on both sides with
 * read logs: the reference with a log attached (ref/readlog.h), the
 * original with code hooks on its readers (emu/engine/observe.h). The logs are
 * aligned (harness/core/readcmp.h) and the mismatches merged into causes
 * (harness/core/causes.h). One replay per group by default, never per
 * result, on an engine of its own: its hooks exist only during these
 * replays (recording during each replayed call), never in the run's. That
 * engine is of the run's kind when it can record calls, else of a kind
 * that can (harness/run/engines.c; the report names it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/engine/image.h"
#include "emu/engine/observe.h"
#include "harness/core/causes.h"
#include "harness/run/context.h"

#define EXPLAIN_LOG_CAP 32768 /* reads per call: a 255-bone FAST tick with scales is ~11,000 */

typedef struct explainer {
    run_ctx *ctx;
    emu_game *game;
    int64_t loaded; /* file in the game, -1: none */
    ref_read *ref_reads, *orig_reads;
    uint8_t *skel;
    size_t skel_cap;
} explainer;

static void failed(res_explain *out, const char *what, const ff_error *err)
{
    out->state = RES_EXPL_FAILED;
    snprintf(out->note, sizeof out->note, "%s: %.120s", what, err ? err->reason : "");
}

/* The reference's log of call tick, and the field's value before it. */
static int ref_side(explainer *x, const clip_result *r, const dat_file *d, ref_read_log *log,
                    int32_t *before, ff_error *err)
{
    size_t need = ref_skel_size(d);
    if (need > x->skel_cap) {
        uint8_t *p = realloc(x->skel, need);
        if (!p) return ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
        x->skel = p;
        x->skel_cap = need;
    }
    ref_anim a;
    if (ref_anim_init(&a, d, x->skel, x->skel_cap, err) < 0) return -1;
    a.cmd.flags = mode_flags(r->mode);
    unsigned bone = field_is_per_bone(r->div.field) ? r->div.bone : 0;
    field_state s = {.cmd = (const uint8_t *)&a.cmd, .skel = a.skel};
    *before = field_read(r->div.field, bone, &s); /* as loaded, for tick 0 */
    ref_read_log_init(log, x->ref_reads, EXPLAIN_LOG_CAP);
    int ret = 0;
    for (size_t t = 0; t <= r->div.tick; t++) {
        if (t == r->div.tick) {
            s.ret = ret;
            if (t > 0) *before = field_read(r->div.field, bone, &s);
            a.log = log;
        }
        int rc = t == 0 ? ref_start_clip(&a, (int16_t)r->clip, &ret, err)
                        : ref_read_animation(&a, &ret, err);
        if (rc < 0) return -1;
        if (t < r->div.tick && ret == 1)
            return ff_error_set(err, FF_E_RANGE, d->name, -1,
                                "the reference ended clip %d at call %zu", r->clip, t);
    }
    return 0;
}

/* The original's call of the differing read: the instruction before its return address. */
static void call_site(explainer *x, res_explain *e)
{
    const ref_read *o = e->first.have_orig ? &e->first.orig : NULL;
    if (!o || o->site < 5) return;
    const emu_image *img = x->ctx->cfg->image;
    char text[96];
    emu_blocks_insn(emu_image_pe(img), emu_image_layout(img), o->site - 5, text, sizeof text);
    if (strncmp(text, "call", 4) != 0) return;
    e->call_eip = o->site - 5;
    snprintf(e->call_insn, sizeof e->call_insn, "%.63s", text);
    emu_owner own;
    ff_error err;
    if (emu_owner_of(emu_image_pe(img), emu_image_layout(img), emu_image_profile(img), e->call_eip,
                     &own, &err) == 0 &&
        own.known) {
        snprintf(e->call_routine, sizeof e->call_routine, "%s", own.routine);
        e->call_in_profile = own.in_profile;
        e->call_offset = own.offset;
    }
}

static void window(res_explain *e, const ref_read_log *ref, const ref_read_log *orig)
{
    size_t center = e->state == RES_EXPL_READ ? e->first.index : 0;
    size_t first = center > RES_WINDOW ? center - RES_WINDOW : 0;
    if (e->state != RES_EXPL_READ) first = 0;
    e->win_first = first;
    for (size_t i = first; i < first + RES_WINDOW_LEN; i++) {
        if (i < ref->n) e->win_ref[e->win_ref_n++] = ref->reads[i];
        if (i < orig->n) e->win_orig[e->win_orig_n++] = orig->reads[i];
    }
}

/* Explains result idx of file d into *e (cleared by the caller). */
static void explain_file(explainer *x, size_t idx, const dat_file *d, res_explain *e)
{
    run_ctx *ctx = x->ctx;
    const clip_result *r = &ctx->res->results[idx];
    e->tick = r->div.tick;
    ff_error err;
    ff_error_clear(&err);
    uint32_t start = 0;
    if (dat_clip_offset(d, (uint32_t)r->clip, &start, &err) < 0) return failed(e, "clip", &err);
    ref_read_log rlog, olog;
    int32_t before = 0;
    if (ref_side(x, r, d, &rlog, &before, &err) < 0)
        return failed(e, "the reference's replay failed", &err);
    if (x->loaded != (int64_t)r->file) {
        x->loaded = -1;
        if (emu_game_load_file(x->game, d->data, d->size, d->skel_off,
                               d->section[DAT_SECTION_GEOMETRY], d->anim_off, &err) < 0)
            return failed(e, "loading the file for the replay", &err);
        x->loaded = r->file;
    }
    ref_read_log_init(&olog, x->orig_reads, EXPLAIN_LOG_CAP);
    emu_fault fault;
    if (emu_game_read_log(x->game, ctx->blocks, mode_flags(r->mode), (int16_t)r->clip,
                          r->div.tick, start, &olog, &fault, &err) < 0) {
        x->loaded = -1; /* a fault may have left the file damaged: load it again next time */
        return failed(e, "the original's replay failed", &err);
    }
    e->ref_reads = rlog.total;
    e->orig_reads = olog.total;
    if (rlog.total > rlog.n || olog.total > olog.n) {
        snprintf(e->note, sizeof e->note, "more than %d reads in one call: compared the first",
                 EXPLAIN_LOG_CAP);
    }
    const char *decoder = profile_routine_name(PROFILE_R_READ_ANIMATION);
    e->state = readcmp_compare(&rlog, &olog, decoder, &e->first) ? RES_EXPL_READ
                                                                 : RES_EXPL_COMBINE;
    window(e, &rlog, &olog);
    if (e->state == RES_EXPL_READ) {
        call_site(x, e);
        return;
    }
    e->before = before;
    causes_relation(r->div.ref, r->div.orig, before, field_is_bits(r->div.field), e->relation,
                    sizeof e->relation);
}

/* Explains result idx into *e (which it clears), its file held meanwhile. */
static void explain_one(explainer *x, size_t idx, res_explain *e)
{
    run_ctx *ctx = x->ctx;
    uint32_t f = ctx->res->results[idx].file;
    const dat_file *d;
    ff_error err;
    memset(e, 0, sizeof *e);
    if (run_file_get(ctx, f, &d, &err) < 0) return failed(e, "reading the file again", &err);
    explain_file(x, idx, d, e);
    run_file_put(ctx, f);
}

/*
 * The writing instruction of a clip explained on its own: its group's (found
 * for the group's example by harness/run/writers.c; a group is one field kind
 * in one mode). Finding it again for every clip would cost a watched replay
 * each, and every watch drops the engine's translated code.
 */
static void clip_writer(explainer *x, size_t idx, res_explain *e)
{
    const clip_result *r = &x->ctx->res->results[idx];
    const res_group *g = r->group >= 0 ? &x->ctx->res->groups[r->group] : NULL;
    if (!g) return;
    e->have_writer = g->have_writer;
    e->writer = g->writer;
}

static void explain_all(explainer *x)
{
    run_results *res = x->ctx->res;
    for (size_t i = 0; i < res->nresults && !run_cancelled(x->ctx); i++) {
        clip_result *r = &res->results[i];
        if (r->status != RES_MISMATCH) continue;
        if (!r->expl && !(r->expl = malloc(sizeof *r->expl))) return;
        explain_one(x, i, r->expl);
        if (r->expl->state == RES_EXPL_COMBINE) clip_writer(x, i, r->expl);
        if (r->group >= 0 && res->groups[r->group].example == (int64_t)i)
            res->groups[r->group].expl = *r->expl;
    }
    res->explained_all = 1;
}

static void explain_groups(explainer *x)
{
    run_results *res = x->ctx->res;
    for (size_t g = 0; g < res->ngroups && !run_cancelled(x->ctx); g++) {
        res_group *grp = &res->groups[g];
        if (strcmp(grp->level, "frame") != 0 || grp->example < 0) continue;
        explain_one(x, (size_t)grp->example, &grp->expl);
        grp->expl.have_writer = grp->have_writer;
        grp->expl.writer = grp->writer;
    }
}

/* No engine for the replays: each frame group's example says why instead. */
static void no_engine(run_results *res, const ff_error *err)
{
    for (size_t g = 0; g < res->ngroups; g++)
        if (!strcmp(res->groups[g].level, "frame") && res->groups[g].example >= 0)
            failed(&res->groups[g].expl, "no engine for the replay", err);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void run_explain(run_ctx *ctx)
{
    double t0 = seconds_now();
    const run_config *cfg = ctx->cfg;
    run_results *res = ctx->res;
    if (cfg->explain && cfg->image && ctx->blocks && res->ngroups && !run_cancelled(ctx)) {
        explainer x = {ctx, NULL, -1, NULL, NULL, NULL, 0};
        ff_error err;
        emu_game_opts opts;
        ff_error_clear(&err);
        x.ref_reads = malloc(EXPLAIN_LOG_CAP * sizeof *x.ref_reads);
        x.orig_reads = malloc(EXPLAIN_LOG_CAP * sizeof *x.orig_reads);
        if (x.ref_reads && x.orig_reads &&
            run_replay_opts(ctx, EMU_CAP_BIT(EMU_CAP_READ_LOG), "explanations", &opts, &err) ==
                0 &&
            emu_game_open(cfg->image, &opts, &x.game, &err) == 0) {
            if (cfg->explain == RUN_EXPLAIN_ALL)
                explain_all(&x);
            else
                explain_groups(&x);
            emu_game_read_log_end(x.game);
        } else if (x.ref_reads && x.orig_reads) {
            no_engine(res, &err);
        }
        emu_game_close(x.game);
        free(x.ref_reads);
        free(x.orig_reads);
        free(x.skel);
    }
    /* Leaf groups become causes even without replays. Out of memory: no causes, the
     * groups stand alone as before. */
    causes_build(res);
    res->explain_seconds = seconds_now() - t0;
}
