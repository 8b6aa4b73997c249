/*
 * harness/run/pose_width.c: the width of the pose's sums decided by the
 * comparison (pose_width.h).
 */
#include "harness/run/pose_width.h"

#include <stdio.h>
#include <string.h>

#include "harness/core/fields.h"
#include "harness/run/context.h"
#include "harness/run/refside.h"

/* 1 when the original's trace agrees with t up to and including call at. */
static int agrees_through(const trace *t, const trace *auth, size_t at)
{
    cmp_divergence d;
    return cmp_traces(t, auth, &d) == 0 || d.tick > at;
}

/* 1 when clip (file, clip, mode) comes before the place recorded, in corpus order. */
static int earlier(const pose_width_run *pw, uint32_t file, uint32_t clip, mode_id mode)
{
    if (!pw->have_at) return 1;
    if (file != pw->at_file) return file < pw->at_file;
    if ((int32_t)clip != pw->at_clip) return (int32_t)clip < pw->at_clip;
    return mode < pw->at_mode;
}

int pose_width_settle(run_ctx *ctx, ref_anim *a, uint32_t file, mode_id mode, uint32_t clip,
                      trace *rt, trace *alt, const trace *auth, ff_error *err)
{
    pose_width_run *pw = &ctx->width;
    if (!pw->open || !ctx->pose) return 0;
    ref_pose_opts other = *ctx->pose;
    other.width = other.width == REF_WIDTH_32 ? REF_WIDTH_64 : REF_WIDTH_32;
    ff_error e;
    ff_error_clear(&e);
    if (refside_clip(a, mode_flags(mode), clip, &ctx->fields, &other, alt, &e) < 0) {
        if (e.kind != FF_E_NOMEM) return 0; /* the reference's side failed: judged as it is */
        *err = e;
        return -1;
    }
    cmp_divergence d;
    if (cmp_traces(rt, alt, &d) == 0) return 0; /* the same under either width */
    int agree_rt = agrees_through(rt, auth, d.tick), agree_alt = agrees_through(alt, auth, d.tick);
    ref_pose_width w_rt = ctx->pose->width;
    int use_alt = 0;
    pthread_mutex_lock(&ctx->lock);
    pw->clips++;
    if (!pw->decided && agree_rt != agree_alt) {
        pw->decided = 1;
        pw->width = agree_rt ? w_rt : other.width;
    }
    if (!pw->decided) {
        pw->neither++;
    } else if (!(pw->width == w_rt ? agree_rt : agree_alt)) {
        pw->contradicted++;
    } else {
        pw->agreed++;
        if (earlier(pw, file, clip, mode)) {
            pw->have_at = 1;
            pw->at_file = file;
            pw->at_clip = (int32_t)clip;
            pw->at_mode = mode;
            pw->at = d;
            if (w_rt != REF_WIDTH_32) { /* at holds the 32-bit value in ref, the 64-bit in orig */
                pw->at.ref = d.orig;
                pw->at.orig = d.ref;
            }
            pw->at_orig = d.tick < auth->n ? trace_value(auth, d.tick, d.field, d.bone) : 0;
        }
    }
    use_alt = pw->decided && pw->width != w_rt;
    pthread_mutex_unlock(&ctx->lock);
    if (use_alt) {
        trace t = *rt;
        *rt = *alt;
        *alt = t;
    }
    return 0;
}

void pose_width_finish(run_ctx *ctx)
{
    pose_width_run *pw = &ctx->width;
    pose_conv *pc = &ctx->res->pose;
    if (!pw->open) return;
    pose_key_decision *d = &pc->keys[REF_POSE_KEY_WIDTH];
    pc->width_clips = pw->clips;
    pc->width_agreed = pw->agreed;
    pc->width_contradicted = pw->contradicted;
    pc->width_neither = pw->neither;
    if (!pw->decided) {
        if (pw->clips) {
            d->basis = POSE_BASIS_DEFAULT;
            snprintf(d->note, sizeof d->note,
                     "%llu compared clips tell 32 from 64 bits apart; the original agrees "
                     "with neither",
                     (unsigned long long)pw->clips);
        }
        return;
    }
    ctx->pose_opts.width = pw->width;
    ref_pose_opts_format(&ctx->pose_opts, pc->chosen, sizeof pc->chosen);
    d->basis = POSE_BASIS_COMPARISON;
    pose_width_at *at = &pc->width_at;
    snprintf(at->file, sizeof at->file, "%s", ctx->res->files[pw->at_file].name);
    at->clip = pw->at_clip;
    at->tick = (int32_t)pw->at.tick;
    at->mode = pw->at_mode;
    field_name(pw->at.field, pw->at.bone, at->field, sizeof at->field);
    at->ref32 = pw->at.ref;
    at->ref64 = pw->at.orig;
    at->orig = pw->at_orig;
    snprintf(d->note, sizeof d->note, "decided by the comparison at %.40s clip %d (%s) call %d",
             at->file, at->clip, mode_name(at->mode), at->tick);
}
