/*
 * harness/run/run_unit.c: what a worker does with one unit: every clip of one
 * file in one mode, both sides, compared; or one chunk of leaf cases.
 *
 * The original's side of a clip comes from, in this order: the cache (the
 * whole unit was found there; a clip it keeps as a digest is the
 * reference's trace when that trace has the digest, else emulated again and
 * the unit stored again), recorded traces (check), an emulation
 * already made for an identical clip (dedup slot), or a new emulation on
 * this worker's own engine (run_orig.c), or the worker's engine process
 * (remote.h), which may send a matching clip's record finished. Each
 * clip's record is written at its fixed index by run_clip.c. A worker's
 * making and freeing are in harness/run/worker.c, its engine process's
 * side in worker_remote.c and run_orig.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "harness/run/both.h"
#include "harness/run/cache.h"
#include "harness/run/leaf.h"
#include "harness/run/leaf_pose.h"
#include "harness/run/refside.h"
#include "harness/run/remote.h"
#include "harness/run/run_entity.h"
#include "harness/run/context.h"
#include "harness/run/worker.h"
#include "harness/traces/trace_fields.h"
#include "harness/traces/trace_json.h"
#include "harness/traces/tracefile.h"
#include "harness/traces/traceset.h"

/* ---- a frame unit ---- */

typedef struct unit_io {
    trace_file cand, auth;
    int use_cand, use_auth;
    const tset_file *cand_set, *auth_set; /* manifest entries, NULL: none */
    uint8_t *raw;                         /* cached outcomes */
    size_t raw_len, raw_pos;
    int cache_ok;      /* clips come from the cache */
    int cache_partial; /* the entry ran short or a digest failed: the unit is stored again */
    int blob_short;    /* a clip's record is missing from w->blob: the unit is not stored */
    int remote_ok;     /* clips come from the worker's engine process (rem) */
    int second_ok;     /* --engine both: the second engine's clips come from rem */
    remote_unit rem;
    size_t rem_pos;    /* ... the next of its records */
} unit_io;

/* The frame unit's original side from the engine process. Returns 0, or -1 with err. */
static int open_remote(worker *w, const run_unit *u, unit_io *io, ff_error *err)
{
    int rc = worker_ask_remote(w, u, &io->rem, err);
    if (rc != 0) return rc < 0 ? -1 : 0;
    io->remote_ok = !w->ctx->cfg->second;
    io->second_ok = w->ctx->cfg->second != NULL;
    return 0;
}

/*
 * The reference's trace of clip, to check a digest against: the candidate's
 * (cs, when it is the reference's and there), else made into w->rt_alt
 * (a scratch trace until pose_width_settle). NULL when the reference
 * cannot decode the clip.
 */
static const trace *reference_of(worker *w, const run_unit *u, ref_anim *a, uint32_t clip,
                                 const cand_side *cs)
{
    if (cs && cs->ok && !cs->traces) return &w->rt;
    ff_error e;
    ff_error_clear(&e);
    if (refside_clip(a, mode_flags(u->mode), clip, &w->ctx->fields, w->ctx->pose, &w->rt_alt, &e) <
        0)
        return NULL;
    return &w->rt_alt;
}

/*
 * A worker without an engine of its own (its engine is a process, remote.h)
 * cannot emulate one clip of a unit read from the cache: every digest of the
 * entry is checked against the reference before the unit starts, and one
 * that fails makes the whole entry a miss (the unit emulated and stored
 * again). Returns 1 when every digest holds, 0 when one does not or a
 * record is damaged (why says which), -1 with why when memory runs out.
 */
static int digests_hold(worker *w, const run_unit *u, ref_anim *a, unit_io *io, ff_error *why)
{
    size_t pos = 0;
    uint32_t clip;
    for (;;) {
        int rc = outcome_next(io->raw, io->raw_len, &pos, &clip, &w->oo, u->key.hex, why);
        if (rc <= 0) return rc == 0 ? 1 : 0; /* a damaged record: a miss, why says so */
        if (!w->oo.digested) continue;
        const trace *ref = reference_of(w, u, a, clip, NULL);
        int ok = ref ? outcome_resolve(&w->oo, ref, why) : 0;
        if (ok < 0) return -1;
        if (ok == 0) {
            ff_error_set(why, FF_E_FORMAT, u->key.hex, -1,
                         "the reference no longer gives the original's digested trace of anim %u: "
                         "the unit is emulated again",
                         clip);
            return 0;
        }
    }
}

static void open_io(worker *w, const run_unit *u, const dat_file *d, ref_anim *a, unit_io *io)
{
    const run_config *cfg = w->ctx->cfg;
    const run_file *f = &w->ctx->res->files[u->file];
    memset(io, 0, sizeof *io);
    if (cfg->against_dir) {
        tf_open(&io->cand, cfg->against_dir, cfg->against_set, f, u->mode, 1);
        tf_limit(&io->cand, tf_text_need(d));
        io->cand_set = cfg->against_set ? tset_find(cfg->against_set, f->name) : NULL;
        io->use_cand = 1;
    }
    if (cfg->traces_dir) {
        tf_open(&io->auth, cfg->traces_dir, cfg->traces_set, f, u->mode, 0);
        tf_limit(&io->auth, tf_text_need(d));
        io->auth_set = cfg->traces_set ? tset_find(cfg->traces_set, f->name) : NULL;
        io->use_auth = 1;
    } else if (u->cached && cfg->cache) {
        uint8_t *packed = NULL;
        size_t len = 0;
        ff_error e;
        int got = cache_get(cfg->cache, &u->key, &packed, &len, &e);
        if (got == 1 && outcome_unpack(packed, len, u->key.hex, outcome_raw_max(d), &io->raw,
                                       &io->raw_len, &e) == 0)
            io->cache_ok = 1;
        else if (got != 0)
            run_cache_rejected(w->ctx, &e); /* refused or unreadable: emulated and stored again */
        free(packed);
        if (io->cache_ok && !w->game && digests_hold(w, u, a, io, &e) != 1) {
            run_cache_rejected(w->ctx, &e);
            free(io->raw);
            io->raw = NULL;
            io->raw_len = 0;
            io->cache_ok = 0;
        }
    }
}

static void close_io(unit_io *io)
{
    if (io->use_cand) tf_close(&io->cand);
    if (io->use_auth) tf_close(&io->auth);
    free(io->raw);
}

/*
 * The candidate's side of one clip into *cs: the reference, or traces. A
 * clip the traces hold nothing for comes back ok, absent, as an empty trace
 * (cerr says why).
 */
static void candidate(worker *w, const run_unit *u, const dat_file *d, unit_io *io, ref_anim *a,
                      uint32_t clip, cand_side *cs, ff_error *cerr)
{
    memset(cs, 0, sizeof *cs);
    cs->err = cerr;
    cs->traces = io->use_cand;
    if (!io->use_cand) {
        cs->ok = refside_clip(a, mode_flags(u->mode), clip, &w->ctx->fields, w->ctx->pose, &w->rt,
                              cerr) == 0;
        return;
    }
    if (io->cand_set && tset_fault_of(io->cand_set, u->mode, clip)) {
        ff_error_set(cerr, FF_E_FAULT, w->ctx->cfg->against_dir, -1,
                     "the traces compared record a fault of their engine on anim %u", clip);
        return;
    }
    int rc = tf_take(&io->cand, clip, d->bones, &w->rt, cerr);
    cs->frames = tf_is_frames(&io->cand);
    cs->ok = rc >= 0;
    cs->absent = rc == 1;
    cs->stop = rc == 0 ? tf_stopped(&io->cand) : NULL;
    if (cs->absent) {
        field_set have = cs->frames ? tjf_frames_fields() : w->ctx->fields;
        trace_clear(&w->rt, &have, d->bones);
    }
}

/*
 * The authority's side of one clip (cs: the candidate's side, a: the
 * reference's animation). Returns 1 ok, 0 input error (aerr), -1 run error.
 */
static int authority(worker *w, const run_unit *u, const dat_file *d, unit_io *io, ref_anim *a,
                     const cand_side *cs, uint32_t clip, res_source *src, ff_error *aerr,
                     ff_error *err)
{
    run_ctx *ctx = w->ctx;
    if (io->use_auth) {
        *src = RES_SRC_TRACES;
        if (tf_recorded(&io->auth, io->auth_set, clip, d->bones, &ctx->fields, &w->oo, aerr) == 0)
            return 1;
        if (aerr->kind != FF_E_NOMEM) return 0; /* the recorded file's fault */
        *err = *aerr;
        return -1;
    }
    if (io->remote_ok) {
        if (clip >= io->rem.nclips) {
            ff_error_set(err, FF_E_INTERNAL, NULL, -1, "the engine process answered %u clips of %u",
                         io->rem.nclips, d->clips);
            return -1;
        }
        *src = (res_source)io->rem.src[clip];
        if (!io->rem.ok[clip]) {
            *aerr = io->rem.errors[clip];
            return 0;
        }
        uint32_t got = 0;
        /* Read in place: the answer area stays as it is until the worker asks again. */
        int rc = outcome_next_lent(io->rem.raw, io->rem.raw_len, &io->rem_pos, &got, &w->oo,
                                   d->name, aerr);
        if (rc == 1 && got == clip) return 1;
        if (rc >= 0) ff_error_set(err, FF_E_INTERNAL, d->name, -1,
                                  "the engine process sent no record of anim %u", clip);
        else *err = *aerr;
        return -1;
    }
    if (io->cache_ok) {
        uint32_t got;
        ff_error e;
        int rc = outcome_next(io->raw, io->raw_len, &io->raw_pos, &got, &w->oo, u->key.hex, &e);
        int resolved = 1;
        if (rc == 1 && got == clip && w->oo.digested) {
            /* Kept as a digest: the reference's trace is the original's if it has the digest. */
            const trace *ref = reference_of(w, u, a, clip, cs);
            resolved = ref ? outcome_resolve(&w->oo, ref, err) : 0;
            if (resolved < 0) return -1;
        }
        if (rc == 1 && got == clip && resolved) {
            *src = RES_SRC_CACHE;
            return 1;
        }
        if (rc == 1 && got == clip) {
            /* Not trusted: this clip is emulated again for its detail, the entry redone. */
            ff_error_set(&e, FF_E_FORMAT, u->key.hex, -1,
                         "the reference no longer gives the original's digested trace of anim %u: "
                         "emulated again",
                         clip);
            run_cache_rejected(ctx, &e);
            io->cache_partial = 1;
            w->oo.digested = 0;
        } else {
            /* A verified entry that does not hold this clip: the rest is emulated, the entry
             * redone. */
            if (rc >= 0)
                ff_error_set(&e, FF_E_FORMAT, u->key.hex, -1,
                             "the entry holds no record of anim %u", clip);
            run_cache_rejected(ctx, &e);
            io->cache_ok = 0;
            io->cache_partial = 1;
        }
    }
    int32_t si = ctx->slot_of[u->first + clip];
    int rc;
    *src = RES_SRC_EMULATED;
    if (si >= 0)
        rc = run_orig_shared(w, si, u->file, d, u->mode, clip, src, aerr);
    else
        rc = run_orig_emulate(w, u->file, d, u->mode, clip, &w->oo, aerr);
    if (rc == 0) return 1;
    if (aerr->kind != FF_E_NOMEM) return 0; /* this clip cannot be emulated: its input */
    *err = *aerr;
    return -1;
}

/*
 * --engine both: clip's original side on the second engine (in-process, or
 * from the engine process's answer) compared with w->oo into r->eng.
 * Returns 0, or -1 with err (memory, or an answer that does not hold it).
 */
static int second_side(worker *w, const run_unit *u, const dat_file *d, unit_io *io,
                       uint32_t clip, clip_result *r, ff_error *err)
{
    ff_error aerr;
    ff_error_clear(&aerr);
    if (io->second_ok) {
        if (clip >= io->rem.nclips || !io->rem.ok[clip]) return 0; /* its input: not compared */
        uint32_t got = 0;
        int rc = outcome_next(io->rem.raw, io->rem.raw_len, &io->rem_pos, &got, &w->oo2, d->name,
                              &aerr);
        if (rc != 1 || got != clip)
            return ff_error_set(err, FF_E_INTERNAL, d->name, -1,
                                "the engine process sent no record of anim %u", clip);
    } else if (w->game2) {
        wengine we = {w->game2, &w->loaded2, &w->dirty2, w->memo2};
        if (run_orig_emulate_on(w, &we, u->file, d, u->mode, clip, &w->oo2, &aerr) < 0) {
            if (aerr.kind == FF_E_NOMEM) {
                *err = aerr;
                return -1;
            }
            return 0;
        }
    } else {
        return 0; /* the second engine was lost: not compared */
    }
    both_compare(&w->oo, &w->oo2, &r->eng);
    return 0;
}

/*
 * A check unit read to its files' ends: a clip whose lines came again (or
 * out of order), a clip past the model's and lines that cannot be read
 * after the last clip are bad input of the clip they concern (of the last
 * clip for the two last), naming the file and line. Then the mismatches
 * held are grouped. Returns 0, or -1 with err.
 */
static int account_lines(worker *w, const run_unit *u, const dat_file *d, unit_io *io,
                         ff_error *err)
{
    if (io->use_cand) tf_rest(&io->cand, d->clips);
    if (io->use_auth) tf_rest(&io->auth, d->clips);
    for (uint32_t c = 0; c < d->clips; c++) {
        ff_error why;
        if (!(io->use_cand && tf_problem(&io->cand, c, d->clips, &why)) &&
            !(io->use_auth && tf_problem(&io->auth, c, d->clips, &why)))
            continue;
        if (run_result_demote(w->ctx, &w->ctx->res->results[u->first + c], &why, err) < 0)
            return -1;
    }
    return run_clip_release(w, err);
}

static int finish_unit(worker *w, const run_unit *u, const strbuf *blob, int complete,
                       int from_cache, ff_error *err)
{
    const run_config *cfg = w->ctx->cfg;
    int rc = 0;
    if (complete && !from_cache && u->keyed && cfg->cache && blob->len && !cfg->traces_dir) {
        uint8_t *packed;
        size_t len;
        ff_error e;
        /* A cache that cannot be written only costs time next run: counted, one warning. */
        if (outcome_pack(blob, &packed, &len, &e) == 0) {
            if (cache_put(cfg->cache, &u->key, packed, len, &e) < 0)
                run_cache_unwritten(w->ctx, &e);
            free(packed);
        }
    }
    if (complete && cfg->record_dir) {
        char file[512], path[4096];
        tj_file_name(file, sizeof file, w->ctx->res->files[u->file].name, u->mode, cfg->record_lz4);
        rc = path_join(path, sizeof path, cfg->record_dir, file, err);
        if (rc == 0) rc = tj_write_file(path, &w->rec, cfg->record_lz4, err);
    }
    sb_reset(&w->blob);
    sb_reset(&w->rec);
    return rc;
}

/* The sink's part of one clip (run.h): the original's side, or why there is none. */
static int sink_clip(worker *w, const run_unit *u, const dat_file *d, uint32_t clip, int auth_ok,
                     const ff_error *aerr, ff_error *err)
{
    const run_sink *k = w->ctx->cfg->sink;
    if (!k || !k->clip) return 0;
    run_sink_clip c = {u->file, d, u->mode, clip, auth_ok ? &w->oo : NULL, aerr};
    return k->clip(k->arg, &c, err);
}

static int sink_unit_done(worker *w, const run_unit *u, int complete, const ff_error *why,
                          ff_error *err)
{
    const run_sink *k = w->ctx->cfg->sink;
    if (!k || !k->unit_done) return 0;
    return k->unit_done(k->arg, u->file, u->mode, complete, why, err);
}

/* A unit whose file cannot be read again: each of its clips is bad input with the reason. */
static int unit_unreadable(worker *w, const run_unit *u, const ff_error *why)
{
    run_ctx *ctx = w->ctx;
    run_progress *p = ctx->cfg->progress;
    for (uint32_t c = 0; c < ctx->fslots[u->file].clips; c++) {
        clip_result *r = &ctx->res->results[u->first + c];
        r->status = RES_BAD_INPUT;
        if (!(r->error = run_dup(why, sizeof *why))) return -1;
        if (p) {
            atomic_fetch_add(&p->bad_input, 1);
            atomic_fetch_add(&p->clips_done, 1);
        }
    }
    return 0;
}

static int frame_unit(worker *w, const run_unit *u, const dat_file *d, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    ref_anim a;
    unit_io io;
    if (run_ref_setup(&w->skel, &w->skel_cap, d, &a, err) < 0) return -1;
    a.pose_trig = w->trig;
    open_io(w, u, d, &a, &io);
    int from_cache = io.cache_ok, rc = 0;
    if (w->remote && !io.cache_ok && !io.use_auth && open_remote(w, u, &io, err) < 0) {
        close_io(&io);
        return -1;
    }
    uint32_t c = 0;
    w->hold = io.use_cand || io.use_auth;
    tj_clip id = {0};
    snprintf(id.file, sizeof id.file, "%s", d->name);
    snprintf(id.model, sizeof id.model, "%s", dat_kind_name(d->kind));
    id.mode = u->mode;
    for (; c < d->clips && rc == 0 && !run_cancelled(ctx); c++) {
        ff_error cerr, aerr;
        ff_error_clear(&cerr);
        ff_error_clear(&aerr);
        cand_side cs;
        candidate(w, u, d, &io, &a, c, &cs, &cerr);
        if (!cs.ok && cerr.kind == FF_E_NOMEM) {
            *err = cerr; /* not the file's fault */
            rc = -1;
            break;
        }
        int cand_ok = cs.ok;
        res_source src = RES_SRC_NONE;
        int auth = authority(w, u, d, &io, &a, &cs, c, &src, &aerr, err);
        if (auth < 0) {
            rc = -1;
            break;
        }
        /* Kept as a digest when the reference's trace has the original's very rows. */
        if (auth == 1 && !io.use_auth && ctx->cfg->cache)
            outcome_append_cached(&w->blob, c, &w->oo, cand_ok && !io.use_cand ? &w->rt : NULL);
        if (auth == 1 && ctx->cfg->second && !io.use_auth && !io.cache_ok &&
            second_side(w, u, d, &io, c, &ctx->res->results[u->first + c], err) < 0) {
            rc = -1;
            break;
        }
        if (cand_ok && auth == 1 && !io.use_cand && !w->oo.faulted &&
            pose_width_settle(ctx, &a, u->file, u->mode, c, &w->rt, &w->rt_alt, &w->oo.t, err) <
                0) {
            rc = -1;
            break;
        }
        if (auth == 1 && ctx->cfg->record_dir) {
            id.anim = c;
            tj_write_trace(&w->rec, &id, &w->oo.t);
        }
        if (io.use_cand && cand_ok && io.cand.r) {
            pthread_mutex_lock(&ctx->lock);
            ctx->res->cand_formats |= cs.frames ? RES_FMT_FRAMES : RES_FMT_TICKS;
            pthread_mutex_unlock(&ctx->lock);
        }
        if (run_clip_classify(w, d, io.use_cand ? NULL : &a, u->first + c, &cs, auth == 1, &aerr,
                              src, err) < 0 ||
            sink_clip(w, u, d, c, auth == 1, &aerr, err) < 0)
            rc = -1;
        clip_result *res = &ctx->res->results[u->first + c];
        if (rc == 0 && ctx->cfg->quirks && io.use_cand && cand_ok && auth == 1 &&
            (res->status == RES_MISMATCH || res->status == RES_NOT_DECODED) &&
            run_quirks_explain(w, u, &a, c, &w->oo.t, cs.frames, res, err) < 0)
            rc = -1;
        if (rc == 0 && ctx->cfg->quirks && !run_cancelled(ctx) &&
            run_quirks_clip(w, u, &a, c, cand_ok && !io.use_cand, err) < 0)
            rc = -1;
        if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->clips_done, 1);
    }
    /* A unit cut short (the run cancelled) groups what it compared, its files unread on. */
    if (rc == 0 && w->hold) rc = c == d->clips ? account_lines(w, u, d, &io, err)
                                               : run_clip_release(w, err);
    run_clip_held_free(w);
    w->hold = 0;
    /* A lost engine process's faults are never stored, nor a unit missing a clip's record. */
    if (rc == 0)
        rc = finish_unit(w, u, &w->blob, c == d->clips,
                         (from_cache && !io.cache_partial) || io.rem.lost || io.blob_short, err);
    if (rc == 0) rc = sink_unit_done(w, u, c == d->clips, NULL, err);
    close_io(&io);
    return rc;
}

int worker_frame_unit(worker *w, const run_unit *u, ff_error *err)
{
    const dat_file *d;
    ff_error e;
    if (run_file_get(w->ctx, u->file, &d, &e) < 0) {
        if (e.kind == FF_E_NOMEM) {
            *err = e;
            return -1;
        }
        if (unit_unreadable(w, u, &e) < 0)
            return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        return sink_unit_done(w, u, 0, &e, err);
    }
    int rc = frame_unit(w, u, d, err);
    run_file_put(w->ctx, u->file);
    return rc;
}

int worker_entity_unit(worker *w, const run_unit *u, ff_error *err)
{
    if (!w->ent)
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                            "an entity unit in a run without the entity level");
    return run_entity_unit(w->ent, u, err);
}

int worker_leaf_unit(worker *w, const run_unit *u, ff_error *err)
{
    if (w->remote) return worker_leaf_remote(w, u, err);
    if (!w->game) return 0;
    if (u->kind == UNIT_POSE_LEAF) return leaf_pose_run_unit(w->ctx, w->game, w->game2, u, err);
    return leaf_run_unit(w->ctx, w->game, w->game2, u, err);
}
