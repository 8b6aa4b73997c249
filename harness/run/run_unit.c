/*
 * harness/run/run_unit.c: what a worker does with one unit: every clip of one
 * file in one mode, both sides, compared; or one chunk of leaf cases.
 *
 * The original's side of a clip comes from, in this order: the cache (the
 * whole unit was found there), recorded traces (check), an emulation
 * already made for an identical clip (dedup slot), or a new emulation on
 * this worker's own engine. Each clip's record is written at its fixed
 * index; groups are updated under the run's lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/cache.h"
#include "harness/run/leaf.h"
#include "harness/run/refside.h"
#include "harness/run/run_internal.h"
#include "harness/traces/trace_json.h"
#include "harness/traces/tracefile.h"
#include "harness/traces/traceset.h"

struct worker {
    run_ctx *ctx;
    emu_game *game; /* NULL when no executable */
    int64_t loaded; /* file in guest memory, -1: none */
    int dirty;      /* a fault may have damaged the guest copy */
    uint8_t *skel;
    size_t skel_cap;
    trace rt;        /* candidate side */
    orig_outcome oo; /* authority side */
    strbuf blob;     /* cache record under construction */
    strbuf rec;      /* recorded traces under construction */
    uint8_t *hits;   /* blocks this worker's engine ran (coverage on), merged when freed */
};

worker *worker_new(run_ctx *ctx, ff_error *err)
{
    worker *w = calloc(1, sizeof *w);
    if (!w) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        return NULL;
    }
    w->ctx = ctx;
    w->loaded = -1;
    trace_init(&w->rt);
    outcome_init(&w->oo);
    sb_init(&w->blob);
    sb_init(&w->rec);
    if (ctx->cfg->image && emu_game_open(ctx->cfg->image, &ctx->cfg->game, &w->game, err) < 0) {
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

void worker_free(worker *w)
{
    if (!w) return;
    if (w->hits) {
        run_ctx *ctx = w->ctx;
        pthread_mutex_lock(&ctx->lock);
        for (unsigned i = 0; i < ctx->blocks->nblocks; i++) ctx->cover_hits[i] |= w->hits[i];
        pthread_mutex_unlock(&ctx->lock);
        free(w->hits);
    }
    emu_game_close(w->game);
    free(w->skel);
    trace_free(&w->rt);
    outcome_free(&w->oo);
    sb_free(&w->blob);
    sb_free(&w->rec);
    free(w);
}

emu_game *worker_game(worker *w)
{
    return w->game;
}

/* ---- the original's side ---- */

static int emulate(worker *w, uint32_t f, mode_id m, uint32_t clip, orig_outcome *o, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    const dat_file *d = &ctx->dat[f];
    if (!w->game) return ff_error_set(err, FF_E_USAGE, d->name, -1, "no executable to emulate");
    if (w->loaded != (int64_t)f || w->dirty) {
        w->loaded = -1;
        if (emu_game_load_file(w->game, d->data, d->size, d->skel_off,
                               d->section[DAT_SECTION_GEOMETRY], d->anim_off, err) < 0)
            return -1;
        w->loaded = f;
        w->dirty = 0;
    } else {
        emu_game_reset_skeleton(w->game);
    }
    o->faulted = 0;
    trace_clear(&o->t, &ctx->fields, d->bones);
    uint32_t ret = 0;
    int rc = emu_game_start_clip(w->game, mode_flags(m), (int16_t)clip, &ret, &o->fault);
    uint64_t calls = 1;
    while (rc == 0) {
        field_state s = {(int32_t)ret, emu_game_cmd(w->game), emu_game_skeleton(w->game)};
        if (trace_push_state(&o->t, &s, err) < 0) return -1;
        if (ret == 1 || o->t.n >= REFSIDE_MAX_TICKS) break;
        rc = emu_game_read_animation(w->game, &ret, &o->fault);
        calls++;
    }
    if (rc < 0) {
        o->faulted = 1;
        w->dirty = 1;
    }
    o->extent = emu_game_cursor_extent(w->game);
    if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->emulated_calls, calls);
    return 0;
}

/* Same bytes from each clip's start to where the leader's own cursor reached. */
static int same_reach(const run_ctx *ctx, const dedup_slot *s, uint32_t f, uint64_t start)
{
    const dat_file *a = &ctx->dat[s->file], *b = &ctx->dat[f];
    uint64_t reach = s->out.extent > s->clip_start ? s->out.extent - s->clip_start : 0;
    uint64_t in_a = a->size - s->clip_start, in_b = b->size - start;
    uint64_t la = reach < in_a ? reach : in_a, lb = reach < in_b ? reach : in_b;
    return la == lb && memcmp(a->data + s->clip_start, b->data + start, (size_t)la) == 0;
}

static void slot_release(dedup_slot *s)
{
    if (--s->refs == 0) outcome_free(&s->out);
}

/*
 * The original's side through a dedup slot: the first to come emulates,
 * the others wait for it and copy. Returns 0, or -1 with err.
 */
static int shared(worker *w, int32_t si, uint32_t f, mode_id m, uint32_t clip, res_source *src,
                  ff_error *err)
{
    run_ctx *ctx = w->ctx;
    dedup_slot *s = &ctx->slots[si];
    uint32_t start = 0;
    dat_clip_offset(&ctx->dat[f], clip, &start, NULL);
    pthread_mutex_lock(&ctx->lock);
    while (s->state == SLOT_RUNNING)
        pthread_cond_wait(&ctx->slot_done, &ctx->lock);
    if (s->state == SLOT_DONE) {
        int ok = same_reach(ctx, s, f, start);
        int rc = ok ? outcome_copy(&w->oo, &s->out, err) : 0;
        slot_release(s);
        pthread_mutex_unlock(&ctx->lock);
        if (ok) {
            *src = RES_SRC_SHARED;
            return rc;
        }
        *src = RES_SRC_EMULATED;
        return emulate(w, f, m, clip, &w->oo, err);
    }
    s->state = SLOT_RUNNING;
    pthread_mutex_unlock(&ctx->lock);
    int rc = emulate(w, f, m, clip, &w->oo, err);
    pthread_mutex_lock(&ctx->lock);
    if (rc == 0) rc = outcome_copy(&s->out, &w->oo, err);
    s->file = f;
    s->clip_start = start;
    s->state = rc == 0 ? SLOT_DONE : SLOT_EMPTY;
    if (rc == 0) slot_release(s);
    pthread_cond_broadcast(&ctx->slot_done);
    pthread_mutex_unlock(&ctx->lock);
    *src = RES_SRC_EMULATED;
    return rc;
}

/* ---- one clip's record ---- */

static void *dup_mem(const void *p, size_t n)
{
    void *q = malloc(n);
    if (q) memcpy(q, p, n);
    return q;
}

static void stream_window(const run_ctx *ctx, clip_result *r)
{
    const dat_file *d = &ctx->dat[r->file];
    uint32_t start = 0;
    dat_clip_offset(d, (uint32_t)r->clip, &start, NULL);
    int64_t cur = (int64_t)start + r->div.cursor_off;
    if (cur < 0) cur = 0;
    if ((uint64_t)cur > d->size) cur = (int64_t)d->size;
    r->cursor_file_off = (uint64_t)cur;
    uint64_t from = cur >= 4 ? (uint64_t)cur - 4 : 0;
    uint64_t n = d->size - from < RES_STREAM_BYTES ? d->size - from : RES_STREAM_BYTES;
    r->stream_off = from;
    r->stream_len = (uint8_t)n;
    memcpy(r->stream, d->data + from, (size_t)n);
}

static int classify(worker *w, size_t idx, int cand_ok, const ff_error *cand_err, int auth_ok,
                    const ff_error *auth_err, res_source src)
{
    run_ctx *ctx = w->ctx;
    clip_result *r = &ctx->res->results[idx];
    run_progress *p = ctx->cfg->progress;
    r->source = src;
    r->ref_ticks = (uint32_t)w->rt.n;
    r->orig_ticks = auth_ok ? (uint32_t)w->oo.t.n : 0;
    if (auth_ok && w->oo.faulted && !(r->fault = dup_mem(&w->oo.fault, sizeof w->oo.fault)))
        return -1;
    if (!cand_ok || !auth_ok) {
        r->status = RES_BAD_INPUT;
        if (!(r->error = dup_mem(cand_ok ? auth_err : cand_err, sizeof *r->error))) return -1;
        if (p) atomic_fetch_add(&p->bad_input, 1);
        return 0;
    }
    if (w->oo.faulted) {
        r->status = RES_FAULT;
        if (p) atomic_fetch_add(&p->faults, 1);
        return 0;
    }
    if (cmp_traces(&w->rt, &w->oo.t, &r->div) == 0) {
        r->status = RES_MATCH;
        return 0;
    }
    r->status = RES_MISMATCH;
    stream_window(ctx, r);
    if (p) atomic_fetch_add(&p->mismatches, 1);
    pthread_mutex_lock(&ctx->lock);
    int rc = group_add_frame(ctx->res, idx, &w->rt, &w->oo.t);
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

/* ---- a frame unit ---- */

typedef struct unit_io {
    trace_file cand, auth;
    int use_cand, use_auth;
    const tset_file *cand_set, *auth_set; /* manifest entries, NULL: none */
    uint8_t *raw;                         /* cached outcomes */
    size_t raw_len, raw_pos;
    int cache_ok;
} unit_io;

static int setup_ref(worker *w, const dat_file *d, ref_anim *a, ff_error *err)
{
    size_t need = ref_skel_size(d);
    if (need > w->skel_cap) {
        uint8_t *p = realloc(w->skel, need);
        if (!p) return ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
        w->skel = p;
        w->skel_cap = need;
    }
    return ref_anim_init(a, d, w->skel, w->skel_cap, err);
}

static void open_io(worker *w, const run_unit *u, unit_io *io)
{
    const run_config *cfg = w->ctx->cfg;
    const run_file *f = &w->ctx->res->files[u->file];
    memset(io, 0, sizeof *io);
    if (cfg->against_dir) {
        tf_open(&io->cand, cfg->against_dir, cfg->against_set, f, u->mode);
        io->cand_set = cfg->against_set ? tset_find(cfg->against_set, f->name) : NULL;
        io->use_cand = 1;
    }
    if (cfg->traces_dir) {
        tf_open(&io->auth, cfg->traces_dir, cfg->traces_set, f, u->mode);
        io->auth_set = cfg->traces_set ? tset_find(cfg->traces_set, f->name) : NULL;
        io->use_auth = 1;
    } else if (u->cached && cfg->cache) {
        uint8_t *packed = NULL;
        size_t len = 0;
        ff_error e;
        if (cache_get(cfg->cache, u->cache_key, &packed, &len, &e) == 1 &&
            outcome_unpack(packed, len, u->cache_key, &io->raw, &io->raw_len, &e) == 0)
            io->cache_ok = 1;
        free(packed);
    }
}

static void close_io(unit_io *io)
{
    if (io->use_cand) tf_close(&io->cand);
    if (io->use_auth) tf_close(&io->auth);
    free(io->raw);
}

/* The candidate's side of one clip: the reference, or traces. 1 ok, 0 error (cerr). */
static int candidate(worker *w, const run_unit *u, unit_io *io, ref_anim *a, uint32_t clip,
                     ff_error *cerr)
{
    const dat_file *d = &w->ctx->dat[u->file];
    if (!io->use_cand)
        return refside_clip(a, mode_flags(u->mode), clip, &w->ctx->fields, &w->rt, cerr) == 0;
    if (io->cand_set && tset_fault_of(io->cand_set, u->mode, clip))
        return ff_error_set(cerr, FF_E_FAULT, w->ctx->cfg->against_dir, -1,
                            "the traces compared record a fault of their engine on anim %u",
                            clip) == 0;
    return tf_take(&io->cand, clip, d->bones, &w->rt, cerr) == 0;
}

/* The authority's side of one clip. Returns 1 ok, 0 input error (aerr), -1 run error. */
static int authority(worker *w, const run_unit *u, unit_io *io, uint32_t clip, res_source *src,
                     ff_error *aerr, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    const dat_file *d = &ctx->dat[u->file];
    if (io->use_auth) {
        *src = RES_SRC_TRACES;
        return tf_recorded(&io->auth, io->auth_set, clip, d->bones, &ctx->fields, &w->oo, aerr) ==
               0;
    }
    if (io->cache_ok) {
        uint32_t got;
        int rc = outcome_next(io->raw, io->raw_len, &io->raw_pos, &got, &w->oo, u->cache_key, aerr);
        if (rc == 1 && got == clip) {
            *src = RES_SRC_CACHE;
            return 1;
        }
        io->cache_ok = 0; /* damaged: emulate the rest */
    }
    int32_t si = ctx->slot_of[u->first + clip];
    int rc;
    *src = RES_SRC_EMULATED;
    if (si >= 0)
        rc = shared(w, si, u->file, u->mode, clip, src, aerr);
    else
        rc = emulate(w, u->file, u->mode, clip, &w->oo, aerr);
    if (rc == 0) return 1;
    if (aerr->kind != FF_E_NOMEM) return 0; /* this clip cannot be emulated: its input */
    *err = *aerr;
    return -1;
}

static int finish_unit(worker *w, const run_unit *u, int complete, int from_cache, ff_error *err)
{
    const run_config *cfg = w->ctx->cfg;
    int rc = 0;
    if (complete && !from_cache && cfg->cache && w->blob.len && !cfg->traces_dir) {
        uint8_t *packed;
        size_t len;
        ff_error e;
        /* A cache that cannot be written only costs time next run. */
        if (outcome_pack(&w->blob, &packed, &len, &e) == 0) {
            cache_put(cfg->cache, u->cache_key, packed, len, &e);
            free(packed);
        }
    }
    if (complete && cfg->record_dir) {
        char file[512], path[4096];
        tj_file_name(file, sizeof file, w->ctx->res->files[u->file].name, u->mode,
                       cfg->record_lz4);
        snprintf(path, sizeof path, "%s/%s", cfg->record_dir, file);
        rc = tj_write_file(path, &w->rec, cfg->record_lz4, err);
    }
    sb_reset(&w->blob);
    sb_reset(&w->rec);
    return rc;
}

int worker_frame_unit(worker *w, const run_unit *u, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    const dat_file *d = &ctx->dat[u->file];
    ref_anim a;
    unit_io io;
    if (setup_ref(w, d, &a, err) < 0) return -1;
    open_io(w, u, &io);
    int from_cache = io.cache_ok, rc = 0;
    uint32_t c = 0;
    tj_clip id = {0};
    snprintf(id.file, sizeof id.file, "%s", d->name);
    snprintf(id.model, sizeof id.model, "%s", dat_kind_name(d->kind));
    id.mode = u->mode;
    for (; c < d->clips && rc == 0 && !run_cancelled(ctx); c++) {
        ff_error cerr, aerr;
        ff_error_clear(&cerr);
        ff_error_clear(&aerr);
        int cand_ok = candidate(w, u, &io, &a, c, &cerr);
        res_source src = RES_SRC_NONE;
        int auth = authority(w, u, &io, c, &src, &aerr, err);
        if (auth < 0) {
            rc = -1;
            break;
        }
        if (auth == 1 && !io.use_auth && ctx->cfg->cache) outcome_append(&w->blob, c, &w->oo);
        if (auth == 1 && ctx->cfg->record_dir) {
            id.anim = c;
            tj_write_trace(&w->rec, &id, &w->oo.t);
        }
        if (classify(w, u->first + c, cand_ok, &cerr, auth == 1, &aerr, src) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
        if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->clips_done, 1);
    }
    if (rc == 0) rc = finish_unit(w, u, c == d->clips, from_cache, err);
    close_io(&io);
    return rc;
}

int worker_leaf_unit(worker *w, const run_unit *u, ff_error *err)
{
    if (!w->game) return 0;
    return leaf_run_unit(w->ctx, w->game, u, err);
}
