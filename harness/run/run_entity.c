/*
 * harness/run/run_entity.c: what a worker does with one entity unit: every
 * clip both models have, in one mode, both sides, compared with ent_cmp.
 *
 * The original's side of a clip comes from, in this order: recorded traces
 * (check), the cache (the whole unit was found there), the outcomes of the
 * identical entity that leads this one's slot, or a new emulation: in the
 * worker's engine process (remote.h) when it has one, else on its own
 * engine (run_entity_orig.c). Each clip's record is written at its fixed
 * index; groups and plots are updated under the run's lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "emu/engine/entity.h"
#include "harness/core/group.h"
#include "harness/run/cache.h"
#include "harness/run/pose_side.h"
#include "harness/run/refside.h"
#include "harness/run/remote.h"
#include "harness/run/run_entity_worker.h"
#include "harness/traces/tracefile.h"

static void held_free(ent_worker *ew);

ent_worker *run_entity_worker_new(run_ctx *ctx, const ent_engines *e, ff_error *err)
{
    ent_worker *ew = calloc(1, sizeof *ew);
    if (!ew) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        return NULL;
    }
    ew->ctx = ctx;
    ew->side[0].g = e->g;
    ew->side[0].memo = e->memo;
    ew->side[1].g = e->g2;
    ew->side[1].memo = e->memo2;
    ew->fetch = e->fetch;
    ew->fetch_arg = e->arg;
    ew->fetch_second = e->fetch_second;
    for (int k = 0; k < 2; k++) {
        ew->side[k].loaded = -1;
        ent_outcome_init(&ew->side[k].ao);
    }
    ent_trace_init(&ew->rt);
    sb_init(&ew->blob);
    sb_init(&ew->rec);
    return ew;
}

void run_entity_worker_engine(ent_worker *ew, emu_game *g, pose_memo *memo)
{
    if (!ew->fetch_second) {
        ew->side[0].g = g;
        ew->side[0].memo = memo;
    }
    ew->fetch = NULL; /* the second engine's process, lost: not compared from here */
}

void run_entity_worker_free(ent_worker *ew)
{
    if (!ew) return;
    for (int k = 0; k < 2; k++) {
        emu_entity_close(ew->side[k].ent);
        for (int m = 0; m < 2; m++)
            free(ew->side[k].world[m]);
        ent_outcome_free(&ew->side[k].ao);
    }
    for (int m = 0; m < 2; m++)
        free(ew->skel[m]);
    ent_trace_free(&ew->rt);
    held_free(ew);
    free(ew->held);
    sb_free(&ew->blob);
    sb_free(&ew->rec);
    free(ew);
}

/* Where the original's side of a unit's clips comes from. */
typedef struct ent_io {
    ent_files files; /* trace files: candidate (against) and authority (traces) */
    uint8_t *raw;    /* cached or shared outcomes */
    size_t raw_len, raw_pos;
    int raw_ok;
    res_source raw_src;
    int rem_ok;    /* the clips come from the worker's engine process (rem) */
    int second_ok; /* --engine both: the second engine's clips come from rem */
    remote_unit rem;
    size_t rem_pos; /* ... the next of its records */
} ent_io;

static void take_raw(ent_worker *ew, ent_io *io, const uint8_t *packed, size_t len, const char *key,
                     res_source src)
{
    ff_error e;
    size_t max = outcome_raw_max(ew->bd) + (ew->wd ? outcome_raw_max(ew->wd) : 0);
    if (outcome_unpack(packed, len, key, max, &io->raw, &io->raw_len, &e) == 0) {
        io->raw_ok = 1;
        io->raw_src = src;
    }
}

static void open_io(ent_worker *ew, const run_unit *u, ent_io *io)
{
    run_ctx *ctx = ew->ctx;
    const run_config *cfg = ctx->cfg;
    memset(io, 0, sizeof *io);
    ent_files_open(&io->files, ctx, u);
    uint64_t need = tf_text_need(ew->bd) + (ew->wd ? tf_text_need(ew->wd) : 0);
    if (io->files.cand.r) tj_limit(io->files.cand.r, TF_INFLATION * need);
    if (io->files.auth.r) tj_limit(io->files.auth.r, TF_INFLATION * need);
    if (cfg->traces_dir) return;
    if (u->cached && cfg->cache) {
        uint8_t *packed = NULL;
        size_t len = 0;
        ff_error e;
        int got = cache_get(cfg->cache, &u->key, &packed, &len, &e);
        if (got == 1) take_raw(ew, io, packed, len, u->key.hex, RES_SRC_CACHE);
        else if (got < 0) run_cache_rejected(ctx, &e);
        free(packed);
        return;
    }
    if (u->eslot >= 0 && !u->eleader) {
        /* The leader ran earlier in this chain; its outcomes do not change once ready. */
        ent_slot *s = &ctx->ent->slots[u->eslot];
        pthread_mutex_lock(&ctx->lock);
        int ready = s->ready;
        pthread_mutex_unlock(&ctx->lock);
        if (ready) take_raw(ew, io, s->packed, s->len, "shared outcomes", RES_SRC_SHARED);
    }
}

static void close_io(ent_io *io)
{
    ent_files_close(&io->files);
    free(io->raw);
}

/* The authority's side of one clip. Returns 1 ok, 0 input error (aerr), -1 run error. */
static int authority(ent_worker *ew, const run_unit *u, ent_io *io, uint32_t clip, res_source *src,
                     ff_error *aerr, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    const res_entity *en = &ctx->res->entities[u->entity];
    if (ctx->cfg->traces_dir) {
        *src = RES_SRC_TRACES;
        return ent_files_authority(&io->files, ctx, en, clip, &ew->side[0].ao, aerr) == 0;
    }
    if (io->rem_ok) {
        const remote_unit *rem = &io->rem;
        if (clip < rem->nclips && !rem->ok[clip]) {
            *src = (res_source)rem->src[clip];
            *aerr = rem->errors[clip];
            return 0;
        }
        if (clip < rem->nclips && ent_outcome_next(rem->raw, rem->raw_len, &io->rem_pos, clip,
                                                   en->weapon >= 0, &ew->side[0].ao, aerr) == 1) {
            *src = (res_source)rem->src[clip];
            return 1;
        }
        return ff_error_set(err, FF_E_INTERNAL, ctx->res->files[en->body].name, -1,
                            "the engine process sent no record of anim %u", clip),
               -1;
    }
    if (io->raw_ok) {
        if (ent_outcome_next(io->raw, io->raw_len, &io->raw_pos, clip, en->weapon >= 0,
                             &ew->side[0].ao, aerr) == 1) {
            *src = io->raw_src;
            return 1;
        }
        io->raw_ok = 0; /* damaged or incomplete: emulate the rest */
    }
    *src = RES_SRC_EMULATED;
    if (ent_orig_clip(ew, &ew->side[0], u, clip, aerr) == 0) return 1;
    if (aerr->kind != FF_E_NOMEM) return 0; /* this clip cannot be emulated: its input */
    *err = *aerr;
    return -1;
}

/*
 * --engine both: clip's original side on the second engine (in-process, or
 * from the engine process's answer) compared with the run's engine's into
 * r->eng. Returns 0 (not compared where the second cannot run it), or -1
 * with err (memory, or an answer that does not hold it).
 */
static int second_side(ent_worker *ew, const run_unit *u, ent_io *io, uint32_t clip, clip_result *r,
                       ff_error *err)
{
    const res_entity *en = &ew->ctx->res->entities[u->entity];
    ent_side *sd = &ew->side[1];
    ff_error aerr;
    ff_error_clear(&aerr);
    if (io->second_ok) {
        const remote_unit *rem = &io->rem;
        if (clip >= rem->nclips || !rem->ok[clip]) return 0; /* its input: not compared */
        if (ent_outcome_next(rem->raw, rem->raw_len, &io->rem_pos, clip, en->weapon >= 0, &sd->ao,
                             &aerr) != 1)
            return ff_error_set(err, FF_E_INTERNAL, ew->ctx->res->files[en->body].name, -1,
                                "the engine process sent no record of anim %u", clip);
    } else if (sd->g) {
        if (ent_orig_clip(ew, sd, u, clip, &aerr) < 0) {
            if (aerr.kind != FF_E_NOMEM) return 0;
            *err = aerr;
            return -1;
        }
    } else {
        return 0; /* no second engine (its process was lost): not compared */
    }
    ent_both_compare(&ew->side[0].ao, &sd->ao, &r->eng);
    return 0;
}

/* ---- one clip's record ---- */

/* The stream bytes of the diverging model's file around its cursor. */
static int stream_window(const ent_worker *ew, clip_result *r, ff_error *err)
{
    int weapon = r->div.model == FIELD_MODEL_WEAPON && ew->wd;
    const dat_file *d = weapon ? ew->wd : ew->bd;
    uint32_t start;
    if (refside_cursor_in_file(d, r, &start, err) < 0) return -1;
    uint64_t cur = r->cursor_file_off;
    refside_stream_copy(d, r, cur >= 4 ? cur - 4 : 0);
    return 0;
}

static void capture_axis(res_series *s, const ent_trace *ref, size_t ref_n, const ent_trace *orig,
                         size_t orig_n, int k, int32_t *a, int32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = i < ref_n ? ent_root_offset(ref, i, k) : 0;
        b[i] = i < orig_n ? ent_root_offset(orig, i, k) : 0;
    }
    free(s->ref);
    free(s->orig);
    s->ref = a;
    s->orig = b;
    s->n = n;
    s->ref_n = ref_n < n ? ref_n : n;
    s->orig_n = orig_n < n ? orig_n : n;
}

/*
 * The entity's plot shows its first mismatching result, else its first
 * result compared (lowest index: the same for any number of jobs). Called
 * under the run's lock. Returns 0, or -1 when memory runs out.
 */
static int offer_plot(ent_worker *ew, size_t idx, int cand_ok, int auth_ok, const ent_trace *rt,
                      const ent_trace *at)
{
    run_ctx *ctx = ew->ctx;
    entity_result *er = &ctx->res->entity_results[idx];
    res_entity *en = &ctx->res->entities[er->entity];
    if (en->weapon < 0 || (er->r.status != RES_MATCH && er->r.status != RES_MISMATCH)) return 0;
    uint64_t rank = ((uint64_t)(er->r.status != RES_MISMATCH) << 62) | idx;
    if (rank >= ctx->ent->plot_rank[er->entity]) return 0;
    size_t rn = cand_ok ? rt->body.n : 0, on = auth_ok ? at->body.n : 0;
    size_t n = rn > on ? rn : on;
    if (n > RES_SERIES_MAX) n = RES_SERIES_MAX;
    for (int k = 0; k < 3; k++) {
        int32_t *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
        if (!a || !b) {
            free(a);
            free(b);
            return -1;
        }
        capture_axis(&en->offset[k], rt, rn, at, on, k, a, b, n);
    }
    ctx->ent->plot_rank[er->entity] = rank;
    en->plot_clip = er->r.clip;
    en->plot_mode = er->r.mode;
    return 0;
}

/* Groups a mismatch and offers the plot (rt: the candidate's side, at: the original's). */
static int file_result(ent_worker *ew, size_t idx, int cand_ok, int auth_ok, const ent_trace *rt,
                       const ent_trace *at)
{
    run_ctx *ctx = ew->ctx;
    clip_result *r = &ctx->res->entity_results[idx].r;
    pthread_mutex_lock(&ctx->lock);
    int rc = 0;
    if (r->status == RES_MISMATCH)
        rc = group_add_entity(ctx->res, idx, ent_trace_model_c(rt, r->div.model),
                              ent_trace_model_c(at, r->div.model));
    if (rc == 0) rc = offer_plot(ew, idx, cand_ok, auth_ok, rt, at);
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

/* ---- compared clips held until the unit's trace files are read to the end ---- */

typedef struct ent_held {
    size_t idx;
    int cand_ok, auth_ok;
    ent_trace rt, at;
} ent_held;

static int hold_result(ent_worker *ew, size_t idx, int cand_ok, int auth_ok, ff_error *err)
{
    if (GROW(ew->held, ew->held_cap, ew->nheld + 1, 8) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    ent_held *h = &ew->held[ew->nheld++];
    h->idx = idx;
    h->cand_ok = cand_ok;
    h->auth_ok = auth_ok;
    ent_trace_init(&h->rt);
    ent_trace_init(&h->at);
    if (ent_trace_copy(&h->rt, &ew->rt, err) < 0 || ent_trace_copy(&h->at, &ew->side[0].ao.t, err) < 0)
        return -1;
    return 0;
}

static void held_free(ent_worker *ew)
{
    for (size_t i = 0; i < ew->nheld; i++) {
        ent_trace_free(&ew->held[i].rt);
        ent_trace_free(&ew->held[i].at);
    }
    ew->nheld = 0;
}

/* The clips held grouped and offered to the plot. Returns 0, or -1 with err. */
static int release_held(ent_worker *ew, ff_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < ew->nheld && rc == 0; i++) {
        ent_held *h = &ew->held[i];
        if (file_result(ew, h->idx, h->cand_ok, h->auth_ok, &h->rt, &h->at) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory grouping");
    }
    return rc;
}

/*
 * The unit's files read to their ends: clips they hold again, out of order
 * or past the entity's made bad input, then the clips held grouped and
 * offered to the plot. Returns 0, or -1 with err.
 */
static int account_lines(ent_worker *ew, const run_unit *u, ent_files *f, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    uint32_t n = ctx->res->entities[u->entity].clips;
    ent_files_rest(f, n);
    for (uint32_t c = 0; c < n; c++) {
        ff_error why;
        if (ent_files_problem(f, c, n, &why) &&
            run_result_demote(ctx, &ctx->res->entity_results[u->first + c].r, &why, err) < 0)
            return -1;
    }
    return release_held(ew, err);
}

/* Records clip idx's verdict from both sides. Returns 0, or -1 with err. */
static int classify(ent_worker *ew, size_t idx, int cand_ok, const ff_error *cand_err, int auth_ok,
                    const ff_error *auth_err, res_source src, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    entity_result *er = &ctx->res->entity_results[idx];
    const res_entity *en = &ctx->res->entities[er->entity];
    clip_result *r = &er->r;
    const char *name = ctx->res->files[en->body].name;
    run_progress *p = ctx->cfg->progress;
    if (cand_ok && ew->rt.armed) er->weapon_end_ref = ent_weapon_end(&ew->rt.weapon);
    if (auth_ok && ew->side[0].ao.t.armed)
        er->weapon_end_orig = ent_weapon_end(&ew->side[0].ao.t.weapon);
    run_sides sides = {name,
                       src,
                       (uint32_t)ew->rt.body.n,
                       (uint32_t)ew->side[0].ao.t.body.n,
                       cand_ok,
                       auth_ok,
                       cand_err,
                       auth_err,
                       ew->side[0].ao.faulted ? &ew->side[0].ao.fault : NULL};
    int decided = run_result_sides(ctx, r, &sides, err);
    if (decided) return decided < 0 ? -1 : 0;
    if (ent_cmp(&ew->rt, &ew->side[0].ao.t, &r->div) == 0) {
        r->status = RES_MATCH;
    } else {
        r->status = RES_MISMATCH;
        if (stream_window(ew, r, err) < 0) return -1;
        if (p) atomic_fetch_add(&p->mismatches, 1);
    }
    if (ew->hold) return hold_result(ew, idx, cand_ok, auth_ok, err);
    if (file_result(ew, idx, cand_ok, auth_ok, &ew->rt, &ew->side[0].ao.t) < 0)
        return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory grouping");
    return 0;
}

/* ---- a unit ---- */

/* The cache entry and the followers' outcomes, once every clip ran; the traces recorded. */
static int finish_unit(ent_worker *ew, const run_unit *u, int complete, int from_raw, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    const run_config *cfg = ctx->cfg;
    int lead = u->eslot >= 0 && u->eleader;
    int rc = 0;
    if (complete && !from_raw && ew->blob.len && !cfg->traces_dir && (cfg->cache || lead)) {
        uint8_t *packed;
        size_t len;
        ff_error e;
        /* A cache that cannot be written only costs time next run; followers then emulate. */
        if (outcome_pack(&ew->blob, &packed, &len, &e) == 0) {
            if (cfg->cache && u->keyed && cache_put(cfg->cache, &u->key, packed, len, &e) < 0)
                run_cache_unwritten(ctx, &e);
            if (lead) {
                ent_slot *s = &ctx->ent->slots[u->eslot];
                pthread_mutex_lock(&ctx->lock);
                s->packed = packed;
                s->len = len;
                s->ready = 1;
                pthread_mutex_unlock(&ctx->lock);
            } else {
                free(packed);
            }
        }
    }
    if (complete && cfg->record_dir) rc = ent_files_record(ctx, u, &ew->rec, err);
    sb_reset(&ew->blob);
    sb_reset(&ew->rec);
    return rc;
}

/*
 * The unit's speed probes (run_entity_probe.c): the reference's always;
 * the original's when the unit emulated (on this worker's entity, or sent
 * by its engine process; then cached), else from the cache.
 */
static void probe_queue(ent_worker *ew, const run_unit *u, int emulated, const ent_io *io)
{
    run_ctx *ctx = ew->ctx;
    uint8_t b[ENT_PROBE_BYTES];
    if (!emulated && !ctx->cfg->traces_dir) run_entity_probe_cache(ctx, u, 0);
    run_entity_probe_ref(ctx, u);
    if (!emulated) return;
    int probed = io->rem_ok ? io->rem.probed : ent_orig_probe(ew, u, b) >= 0;
    if (io->rem_ok && probed) run_entity_probe_take(ctx, u, io->rem.probe);
    if (probed) run_entity_probe_cache(ctx, u, 1);
}

static int entity_clips(ent_worker *ew, const run_unit *u, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    const run_config *cfg = ctx->cfg;
    const res_entity *en = &ctx->res->entities[u->entity];
    ref_anim body, weapon;
    ref_entity re = {&body, NULL, NULL};
    if (run_ref_setup(&ew->skel[1], &ew->skel_cap[1], ew->bd, &body, err) < 0) return -1;
    if (en->weapon >= 0) {
        if (run_ref_setup(&ew->skel[0], &ew->skel_cap[0], ew->wd, &weapon, err) < 0) return -1;
        re.weapon = &weapon;
    }
    ent_io io;
    open_io(ew, u, &io);
    if (!io.raw_ok && !cfg->traces_dir && ew->fetch) {
        int f = ew->fetch(ew->fetch_arg, u, &io.rem, err);
        if (f < 0) {
            close_io(&io);
            return -1;
        }
        io.rem_ok = f == 0 && !ew->fetch_second;
        io.second_ok = f == 0 && ew->fetch_second;
    }
    /* Outcomes kept for the cache and the followers, unless they came from there (or from
     * a lost engine process: faults of that process, never stored or shared). */
    int from_raw = io.raw_ok,
        keep = !from_raw && !io.rem.lost && !cfg->traces_dir && (cfg->cache || u->eleader);
    ref_entity_speed speed = refside_entity_speed(run_entity_unit_status(u));
    int rc = 0, emulated = 0;
    uint32_t c = 0;
    ew->hold = cfg->against_dir || cfg->traces_dir;
    for (; c < en->clips && rc == 0 && !run_cancelled(ctx); c++) {
        ff_error cerr, aerr;
        ff_error_clear(&cerr);
        ff_error_clear(&aerr);
        int cand_ok = cfg->against_dir
                          ? ent_files_candidate(&io.files, ctx, en, c, &ew->rt, &cerr) == 0
                          : refside_entity_clip(&re, &speed, mode_flags(u->mode), c,
                                                &ctx->fields, ctx->pose ? &ew->pose : NULL,
                                                &ew->rt, &cerr) == 0;
        res_source src = RES_SRC_NONE;
        int auth = authority(ew, u, &io, c, &src, &aerr, err);
        if (auth < 0) {
            rc = -1;
            break;
        }
        emulated |= src == RES_SRC_EMULATED;
        if (auth == 1 && cfg->second && !cfg->traces_dir &&
            second_side(ew, u, &io, c, &ctx->res->entity_results[u->first + c].r, err) < 0) {
            rc = -1;
            break;
        }
        if (auth == 1 && keep) ent_outcome_append_packed(&ew->blob, c, &ew->side[0].ao);
        if (auth == 1 && cfg->record_dir) ent_files_write(&ew->rec, ctx, u, c, &ew->side[0].ao.t);
        if (classify(ew, u->first + c, cand_ok, &cerr, auth == 1, &aerr, src, err) < 0) rc = -1;
        if (cfg->progress) atomic_fetch_add(&cfg->progress->clips_done, 1);
    }
    /* A unit cut short (the run cancelled) groups what it compared, its files unread on. */
    if (rc == 0 && ew->hold)
        rc = c == en->clips ? account_lines(ew, u, &io.files, err) : release_held(ew, err);
    held_free(ew);
    ew->hold = 0;
    if (rc == 0 && !run_cancelled(ctx)) probe_queue(ew, u, emulated, &io);
    if (rc == 0) rc = finish_unit(ew, u, c == en->clips, from_raw, err);
    close_io(&io);
    return rc;
}

/* Every clip of the unit is bad input: one of its files cannot be read again. */
static int unit_unreadable(ent_worker *ew, const run_unit *u, const ff_error *why, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    run_progress *p = ctx->cfg->progress;
    const res_entity *en = &ctx->res->entities[u->entity];
    for (uint32_t c = 0; c < en->clips; c++) {
        clip_result *r = &ctx->res->entity_results[u->first + c].r;
        r->status = RES_BAD_INPUT;
        if (!(r->error = run_dup(why, sizeof *why)))
            return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        if (p) {
            atomic_fetch_add(&p->bad_input, 1);
            atomic_fetch_add(&p->clips_done, 1);
        }
    }
    return 0;
}

int ent_unit_hold(ent_worker *ew, const run_unit *u, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    const res_entity *en = &ctx->res->entities[u->entity];
    /* Both files are held while the unit runs (run_files.c loads them on demand). */
    ew->wd = NULL;
    if (run_file_get(ctx, en->body, &ew->bd, err) < 0) {
        ew->bd = NULL;
        return -1;
    }
    if (en->weapon >= 0 && run_file_get(ctx, (uint32_t)en->weapon, &ew->wd, err) < 0) {
        run_file_put(ctx, en->body);
        ew->bd = ew->wd = NULL;
        return -1;
    }
    if (ctx->pose) {
        refside_entity_pose_make(ctx->pose, en->attach_rot, en->attach_trans, &ew->pose);
        pose_bases_to_emu(ew->pose.weapon, ew->base[0]);
        pose_bases_to_emu(ew->pose.body, ew->base[1]);
    }
    return 0;
}

void ent_unit_release(ent_worker *ew, const run_unit *u)
{
    const res_entity *en = &ew->ctx->res->entities[u->entity];
    if (ew->wd) run_file_put(ew->ctx, (uint32_t)en->weapon);
    run_file_put(ew->ctx, en->body);
    ew->bd = ew->wd = NULL;
}

int run_entity_unit(ent_worker *ew, const run_unit *u, ff_error *err)
{
    ff_error e;
    if (ent_unit_hold(ew, u, &e) < 0) {
        if (e.kind == FF_E_NOMEM) {
            *err = e;
            return -1;
        }
        return unit_unreadable(ew, u, &e, err);
    }
    int rc = entity_clips(ew, u, err);
    ent_unit_release(ew, u);
    return rc;
}
