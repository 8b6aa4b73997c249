/*
 * harness/run/run_clip.c: one frame-level clip's record from its two sides
 * (run_unit.c gets them): decided when a side failed or the original
 * faulted, compared field by field, and for a mismatch the stream bytes
 * around its value's read, the cells against recorded traces, the x87
 * limit's check and the clip's group (under the run's lock); and in an
 * engine process, whether a clip matches, so that only the others go back
 * to the worker. Emulates nothing.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/le.h"
#include "harness/run/cells_pose.h"
#include "harness/run/refside.h"
#include "harness/run/worker.h"
#include "harness/traces/trace_fields.h"

/*
 * The stream bytes around a mismatch: centred on the read that produced the
 * diverging value when the reference can say which (a, NULL: it cannot),
 * else from just before the tick's cursor. Returns 0, or -1 with err.
 */
static int stream_window(const dat_file *d, ref_anim *a, clip_result *r, ff_error *err)
{
    uint32_t start;
    if (refside_cursor_in_file(d, r, &start, err) < 0) return -1;
    uint64_t cur = r->cursor_file_off, at = cur;
    ref_read v;
    int found = 0;
    if (a && refside_value_read(a, mode_flags(r->mode), (uint32_t)r->clip, r->div.tick,
                                r->div.field, r->div.bone, &v, &found, err) < 0)
        return -1;
    if (found && v.pos >= 0 && (uint64_t)start + (uint64_t)v.pos < d->size) {
        r->have_value = 1;
        r->value_file_off = (uint64_t)start + (uint64_t)v.pos;
        r->value_bit = (uint8_t)v.bit;
        r->value_routine = v.routine;
        r->value_bits = (uint16_t)((v.pos_after - v.pos) * 8 + (v.bit_after - v.bit));
        /* The read's bytes (up to 3 for 17 bits) in the middle of the window. */
        at = r->value_file_off + 2;
    }
    uint64_t from = at >= RES_STREAM_BYTES / 2 ? at - RES_STREAM_BYTES / 2 : 0;
    if (!r->have_value) from = cur >= 4 ? cur - 4 : 0;
    refside_stream_copy(d, r, from);
    return 0;
}

/*
 * The original's calls as a frames-format candidate sees them: the decoded
 * frames, without the end call that returns 1 and changes nothing.
 */
static trace frames_view(const trace *t)
{
    trace v = *t;
    if (v.n && trace_value(&v, v.n - 1, FIELD_RET, 0) == 1) v.n--;
    return v;
}

/*
 * Against recorded traces (check): every differing value of a mismatching
 * clip, classed by its effect on the pose, whole turns checked against the
 * bone matrices where the pose level runs. Returns 0, or -1 with err.
 */
static int collect_cells(run_ctx *ctx, const dat_file *d, clip_result *r, const trace *cand,
                         const trace *auth, ff_error *err)
{
    if (!ctx->cfg->traces_dir) return 0;
    if (!(r->cells = malloc(sizeof *r->cells)))
        return ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
    cells_pose cp;
    cells_pose_init(&cp, d, ctx->pose, cand, auth);
    int rc = cell_collect(cand, auth, r->div.tick, cells_pose_check, &cp, r->cells, err);
    cells_pose_free(&cp);
    return rc;
}

typedef struct held_group held_group;
static int hold_group(worker *w, size_t idx, const trace *auth, int16_t *parents, ff_error *err);

int run_clip_classify(worker *w, const dat_file *d, ref_anim *a, size_t idx, const cand_side *cs,
                    int auth_ok, const ff_error *auth_err, res_source src, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    clip_result *r = &ctx->res->results[idx];
    const char *name = d->name;
    run_progress *p = ctx->cfg->progress;
    trace auth = cs->frames ? frames_view(&w->oo.t) : w->oo.t;
    run_sides sides = {name,   src,     (uint32_t)w->rt.n, (uint32_t)auth.n,
                       cs->ok, auth_ok, cs->err,           auth_err,
                       w->oo.faulted ? &w->oo.fault : NULL};
    if (cs->ok && cs->stop && !(r->stopped = strdup(cs->stop)))
        return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
    int decided = run_result_sides(ctx, r, &sides, err);
    if (decided) return decided < 0 ? -1 : 0;
    if (ctx->pose && !trace_has(&auth, FIELD_M00)) {
        /* Nothing defaulted: an authority without matrices cannot say the pose matches. */
        r->status = RES_BAD_INPUT;
        r->error = run_dup(auth_err, sizeof *r->error);
        if (!r->error) return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
        ff_error_set(r->error, FF_E_FORMAT, name, -1,
                     "the original's side carries no bone matrices (traces recorded without "
                     "the pose level)");
        if (p) atomic_fetch_add(&p->bad_input, 1);
        return 0;
    }
    field_set all = field_set_of_levels((1u << FIELD_LEVEL__COUNT) - 1), frames = tjf_frames_fields();
    run_decoded dc = {!cs->traces ? &ctx->fields : cs->frames ? &frames : &all, cs->absent,
                      cs->err};
    int done = run_result_decoded(ctx, d, r, &w->rt, &auth, &dc, err);
    if (done) return done < 0 ? -1 : 0;
    r->status = RES_MISMATCH;
    if (stream_window(d, a, r, err) < 0) return -1;
    if (collect_cells(ctx, d, r, &w->rt, &auth, err) < 0) return -1;
    /* A pose cell off by one may be the x87 emulation limit: said apart, never accepted.
     * Only where an emulator computed it: never on the CPU itself, and under --engine
     * both not where the CPU gave the emulator's value (measured: the difference is real). */
    int32_t diff = r->div.ref - r->div.orig;
    int emulated = emu_engine_emulated(ctx->cfg->game.engine) &&
                   !(ctx->cfg->second && r->eng.state == RES_ENG_AGREE);
    if (a && ctx->pose && emulated && (diff == 1 || diff == -1) &&
        refside_near(a, mode_flags(r->mode), (uint32_t)r->clip, ctx->pose, r->div.tick,
                     r->div.field, r->div.bone, &r->x87_limit, err) < 0)
        return -1;
    if (p) atomic_fetch_add(&p->mismatches, 1);
    /* The pose level's groups get a picture: the skeleton's parents from the file. */
    int16_t *parents = ctx->pose ? malloc((d->bones ? d->bones : 1) * sizeof *parents) : NULL;
    if (ctx->pose && !parents) return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
    for (unsigned b = 0; parents && b < d->bones; b++)
        parents[b] = le_s16(d->data + d->skel_off + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE +
                            DAT_BONE_PARENT);
    if (w->hold) return hold_group(w, idx, &auth, parents, err);
    pthread_mutex_lock(&ctx->lock);
    int rc = group_add_frame(ctx->res, idx, &w->rt, &auth, parents);
    free(parents);
    pthread_mutex_unlock(&ctx->lock);
    return rc < 0 ? ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory grouping") : 0;
}

/* ---- mismatches held until their unit's files are read to the end ---- */

typedef struct held_group {
    size_t idx;
    trace ref, orig;
    int16_t *parents; /* NULL: none */
} held_group;

/* Keeps result idx's two sides for run_clip_release; takes parents over. */
static int hold_group(worker *w, size_t idx, const trace *auth, int16_t *parents, ff_error *err)
{
    if (GROW(w->held, w->held_cap, w->nheld + 1, 8) < 0) {
        free(parents);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    held_group *h = &w->held[w->nheld];
    h->idx = idx;
    h->parents = parents;
    trace_init(&h->ref);
    trace_init(&h->orig);
    w->nheld++;
    if (trace_copy(&h->ref, &w->rt, err) < 0 || trace_copy(&h->orig, auth, err) < 0) return -1;
    return 0;
}

void run_clip_held_free(worker *w)
{
    for (size_t i = 0; i < w->nheld; i++) {
        trace_free(&w->held[i].ref);
        trace_free(&w->held[i].orig);
        free(w->held[i].parents);
    }
    w->nheld = 0;
}

int run_clip_release(worker *w, ff_error *err)
{
    run_ctx *ctx = w->ctx;
    int rc = 0;
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < w->nheld && rc == 0; i++) {
        held_group *h = &w->held[i];
        if (ctx->res->results[h->idx].status == RES_MISMATCH)
            rc = group_add_frame(ctx->res, h->idx, &h->ref, &h->orig, h->parents);
    }
    pthread_mutex_unlock(&ctx->lock);
    run_clip_held_free(w);
    return rc < 0 ? ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory grouping") : 0;
}
