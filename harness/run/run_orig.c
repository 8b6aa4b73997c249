/*
 * harness/run/run_orig.c: the original's side of a frame clip on a worker:
 * emulated on the worker's engine (or --engine both's second), or taken
 * from an identical clip's emulation through its dedup slot; and an engine
 * process's whole part of a frame unit (remote.h): every clip's original
 * side, sent back whole for its worker to compare. Compares nothing itself
 * (run_clip.c does) and records no result.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/run/pose_side.h"
#include "harness/run/refside.h"
#include "harness/run/remote.h"
#include "harness/run/context.h"
#include "harness/run/worker.h"

/*
 * Room for the world and placed states of a len-byte skeleton, both set to
 * the skeleton as it is before any decoding call.
 */
static int world_room(worker *w, emu_game *g, size_t len, uint8_t **world, uint8_t **placed,
                      ff_error *err)
{
    if (2 * len > w->world_cap) {
        uint8_t *p = realloc(w->world, 2 * len);
        if (!p) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        w->world = p;
        w->world_cap = 2 * len;
    }
    *world = w->world;
    *placed = w->world + len;
    memcpy(*world, emu_game_skeleton(g), len);
    memcpy(*placed, emu_game_skeleton(g), len);
    return 0;
}


int run_orig_emulate_on(worker *w, const wengine *we, uint32_t f, const dat_file *d, mode_id m,
                        uint32_t clip, orig_outcome *o, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    if (!we->game) return ff_error_set(err, FF_E_USAGE, d->name, -1, "no executable to emulate");
    if (*we->loaded != (int64_t)f || *we->dirty) {
        *we->loaded = -1;
        if (emu_game_load_file(we->game, d->data, d->size, d->skel_off,
                               d->section[DAT_SECTION_GEOMETRY], d->anim_off, err) < 0)
            return -1;
        *we->loaded = f;
        *we->dirty = 0;
    } else {
        emu_game_reset_skeleton(we->game);
    }
    o->faulted = 0;
    o->digested = 0;
    trace_clear(&o->t, &ctx->fields, d->bones);
    uint8_t *world = NULL, *placed = NULL;
    if (ctx->pose && world_room(w, we->game, emu_game_skeleton_size(we->game), &world, &placed, err) < 0)
        return -1;
    uint32_t ret = 0;
    int32_t build_ret = 0; /* BuildBoneMatrices' last return in this clip */
    int rc = emu_game_start_clip(we->game, mode_flags(m), (int16_t)clip, &ret, &o->fault);
    uint64_t calls = 1;
    while (rc == 0) {
        int emulated = 0;
        ff_error pe;
        ff_error_clear(&pe);
        /* A call that decodes nothing rebuilds nothing: its world states stay. */
        if (world && ret == 0) {
            rc = pose_orig_tick(we->memo, we->game, world, placed, &emulated, &o->fault, &pe);
            if (rc == 0) build_ret = (int32_t)pose_memo_build_ret(we->memo);
        }
        if (pe.kind != FF_E_OK) {
            *err = pe; /* memory, not the original's doing */
            return -1;
        }
        calls += emulated ? 3 : 0;
        if (rc < 0) break; /* the original faulted in its pose routines */
        field_state s = {.ret = (int32_t)ret,
                         .build_ret = build_ret,
                         .cmd = emu_game_cmd(we->game),
                         .skel = emu_game_skeleton(we->game),
                         .world = world,
                         .placed = placed};
        if (trace_push_state(&o->t, &s, err) < 0) return -1;
        if (ret == 1 || o->t.n >= REFSIDE_MAX_TICKS) break;
        rc = emu_game_read_animation(we->game, &ret, &o->fault);
        calls++;
    }
    if (rc < 0) {
        o->faulted = 1;
        *we->dirty = 1;
    }
    o->extent = emu_game_cursor_extent(we->game);
    if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->emulated_calls, calls);
    return 0;
}

int run_orig_emulate(worker *w, uint32_t f, const dat_file *d, mode_id m, uint32_t clip,
                     orig_outcome *o, ff_error *err)
{
    wengine we = {w->game, &w->loaded, &w->dirty, w->memo};
    return run_orig_emulate_on(w, &we, f, d, m, clip, o, err);
}

/* Same bytes from each clip's start to where the leader's own cursor reached. */
static int same_reach(const dedup_slot *s, const dat_file *b, uint64_t start)
{
    uint64_t in_b = b->size - start;
    uint64_t lb = s->reach_total < in_b ? s->reach_total : in_b;
    return s->reach_len == lb && memcmp(s->reach, b->data + start, (size_t)lb) == 0;
}

/* The leader's reached bytes into its slot, so members compare without its file. */
static int keep_reach(dedup_slot *s, const dat_file *d, uint64_t start, ff_error *err)
{
    uint64_t in = d->size - start;
    s->reach_total = s->extent > start ? s->extent - start : 0;
    s->reach_len = s->reach_total < in ? s->reach_total : in;
    s->reach = malloc(s->reach_len ? (size_t)s->reach_len : 1);
    if (!s->reach) return ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
    memcpy(s->reach, d->data + start, (size_t)s->reach_len);
    return 0;
}

static void slot_release(dedup_slot *s)
{
    if (--s->refs) return;
    free(s->packed);
    s->packed = NULL;
    if (s->out) outcome_free(s->out);
    free(s->out);
    s->out = NULL;
    free(s->reach);
    s->reach = NULL;
}

/*
 * What a slot keeps of its leader's outcome o, made before the slot's lock
 * is taken: packed at the pose level, a copy at the frame level. Returns 0,
 * or -1 with err.
 */
static int slot_keep(const run_ctx *ctx, const orig_outcome *o, dedup_slot *kept, ff_error *err)
{
    if (ctx->pose) return outcome_pack_one(o, &kept->packed, &kept->packed_len, err);
    kept->out = malloc(sizeof *kept->out);
    if (!kept->out) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    outcome_init(kept->out);
    if (outcome_copy(kept->out, o, err) == 0) return 0;
    outcome_free(kept->out);
    free(kept->out);
    kept->out = NULL;
    return -1;
}

/* A member's outcome from its slot (lock held): the last member takes the frame level's. */
static int slot_take(const run_ctx *ctx, dedup_slot *s, orig_outcome *o, ff_error *err)
{
    if (ctx->pose) return outcome_unpack_one(s->packed, s->packed_len, o, err);
    if (s->refs > 1) return outcome_copy(o, s->out, err);
    orig_outcome t = *o;
    *o = *s->out;
    *s->out = t; /* o's old memory, freed as the slot is released */
    return 0;
}

/*
 * The original's side through a dedup slot: the first to come emulates,
 * the others wait for it and copy. Returns 0, or -1 with err.
 */
int run_orig_shared(worker *w, int32_t si, uint32_t f, const dat_file *d, mode_id m, uint32_t clip,
                    res_source *src, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    dedup_slot *s = &ctx->slots[si];
    uint32_t start;
    if (dat_clip_offset(d, clip, &start, err) < 0) return -1;
    pthread_mutex_lock(&ctx->lock);
    while (s->state == SLOT_RUNNING)
        pthread_cond_wait(&ctx->slot_done, &ctx->lock);
    if (s->state == SLOT_DONE) {
        int ok = same_reach(s, d, start);
        int rc = ok ? slot_take(ctx, s, &w->oo, err) : 0;
        slot_release(s);
        pthread_mutex_unlock(&ctx->lock);
        if (ok) {
            *src = RES_SRC_SHARED;
            return rc;
        }
        *src = RES_SRC_EMULATED;
        return run_orig_emulate(w, f, d, m, clip, &w->oo, err);
    }
    s->state = SLOT_RUNNING;
    pthread_mutex_unlock(&ctx->lock);
    int rc = run_orig_emulate(w, f, d, m, clip, &w->oo, err);
    /* What the slot keeps is made before the lock is taken, so members wait only for it. */
    dedup_slot kept = {.extent = w->oo.extent};
    if (rc == 0) rc = slot_keep(ctx, &w->oo, &kept, err);
    if (rc == 0) rc = keep_reach(&kept, d, start, err);
    pthread_mutex_lock(&ctx->lock);
    if (rc == 0) {
        kept.state = SLOT_DONE;
        kept.refs = s->refs;
        *s = kept;
    } else {
        s->state = SLOT_EMPTY;
        kept.refs = 1;
        slot_release(&kept);
    }
    if (rc == 0) slot_release(s);
    pthread_cond_broadcast(&ctx->slot_done);
    pthread_mutex_unlock(&ctx->lock);
    *src = RES_SRC_EMULATED;
    return rc;
}

/* ---- the engine process's part (remote.h) ---- */

int worker_frame_authority(worker *w, const run_unit *u, remote_sink *out, uint32_t *nclips,
                           ff_error *err)
{
    run_ctx *ctx = w->ctx;
    const dat_file *d;
    *nclips = 0;
    sb_reset(&out->raw);
    if (run_file_get(ctx, u->file, &d, err) < 0) return -1;
    int rc = remote_sink_room(out, d->clips, err);
    /* Every clip's record goes back whole: the worker compares (remote.h says why). */
    for (uint32_t c = 0; rc == 0 && c < d->clips; c++) {
        ff_error *aerr = &out->errors[c];
        ff_error_clear(aerr);
        int32_t si = ctx->slot_of[u->first + c];
        res_source src = RES_SRC_EMULATED;
        int got = si >= 0 ? run_orig_shared(w, si, u->file, d, u->mode, c, &src, aerr)
                          : run_orig_emulate(w, u->file, d, u->mode, c, &w->oo, aerr);
        if (got < 0 && aerr->kind == FF_E_NOMEM) {
            *err = *aerr;
            rc = -1;
            break;
        }
        out->ok[c] = got == 0 ? REMOTE_RECORD : 0;
        out->src[c] = (uint8_t)src;
        if (got == 0) outcome_append(&out->raw, c, &w->oo);
        *nclips = c + 1;
    }
    run_file_put(ctx, u->file);
    if (rc == 0 && out->raw.failed)
        return ff_error_set(
            err, FF_E_NOMEM, NULL, -1,
            "out of memory: the engine process's answer area cannot hold the records");
    return rc;
}
