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

int pose_width_any_open(const pose_width_run *pw)
{
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
        if (pw->site[k].open) return 1;
    return 0;
}

/* 1 when clip (file, clip, mode) comes before the place recorded, in corpus order. */
static int earlier(const pose_width_site *pw, uint32_t file, uint32_t clip, mode_id mode)
{
    if (!pw->have_at) return 1;
    if (file != pw->at_file) return file < pw->at_file;
    if ((int32_t)clip != pw->at_clip) return (int32_t)clip < pw->at_clip;
    return mode < pw->at_mode;
}

/* Records the clip's verdict on site k under the lock; 1 when rt is to take alt's place. */
static int judge(run_ctx *ctx, ref_pose_key k, ref_pose_width w_rt, int agree_rt, int agree_alt,
                 uint32_t file, uint32_t clip, mode_id mode, const cmp_divergence *d,
                 const trace *auth)
{
    pose_width_site *pw = &ctx->width.site[k];
    ref_pose_width w_alt = w_rt == REF_WIDTH_32 ? REF_WIDTH_64 : REF_WIDTH_32;
    pthread_mutex_lock(&ctx->lock);
    pw->clips++;
    if (!pw->decided && agree_rt != agree_alt) {
        pw->decided = 1;
        pw->width = agree_rt ? w_rt : w_alt;
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
            pw->at = *d;
            if (w_rt != REF_WIDTH_32) { /* at holds the 32-bit value in ref, the 64-bit in orig */
                pw->at.ref = d->orig;
                pw->at.orig = d->ref;
            }
            pw->at_orig = d->tick < auth->n ? trace_value(auth, d->tick, d->field, d->bone) : 0;
        }
    }
    int use_alt = pw->decided && pw->width != w_rt;
    pthread_mutex_unlock(&ctx->lock);
    return use_alt;
}

int pose_width_settle(run_ctx *ctx, ref_anim *a, uint32_t file, mode_id mode, uint32_t clip,
                      trace *rt, trace *alt, const trace *auth, ff_error *err)
{
    if (!ctx->pose || !pose_width_any_open(&ctx->width)) return 0;
    ref_pose_opts cur = *ctx->pose; /* the options rt was posed under */
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        if (!ctx->width.site[k].open) continue;
        ref_pose_width w_rt = (ref_pose_width)ref_pose_opts_get(&cur, (ref_pose_key)k);
        ref_pose_opts other = cur;
        ref_pose_opts_set(&other, (ref_pose_key)k, w_rt == REF_WIDTH_32 ? 1u : 0u);
        ff_error e;
        ff_error_clear(&e);
        if (refside_clip(a, mode_flags(mode), clip, &ctx->fields, &other, alt, &e) < 0) {
            if (e.kind != FF_E_NOMEM) return 0; /* the reference's side failed: judged as it is */
            *err = e;
            return -1;
        }
        cmp_divergence d;
        if (cmp_traces(rt, alt, &d) == 0) continue; /* the same under either value */
        int agree_rt = agrees_through(rt, auth, d.tick), agree_alt = agrees_through(alt, auth, d.tick);
        if (judge(ctx, (ref_pose_key)k, w_rt, agree_rt, agree_alt, file, clip, mode, &d, auth)) {
            trace t = *rt;
            *rt = *alt;
            *alt = t;
            cur = other;
        }
    }
    return 0;
}

/* One site's counts and place into the report's convention. */
static void finish_site(run_ctx *ctx, ref_pose_key k)
{
    pose_width_site *pw = &ctx->width.site[k];
    pose_conv *pc = &ctx->res->pose;
    pose_key_decision *d = &pc->keys[k];
    const char *name = ref_pose_key_name(k);
    pc->width_open[k] = 1;
    pc->width_clips[k] = pw->clips;
    pc->width_agreed[k] = pw->agreed;
    pc->width_contradicted[k] = pw->contradicted;
    pc->width_neither[k] = pw->neither;
    if (!pw->decided) {
        if (pw->clips) {
            d->basis = POSE_BASIS_DEFAULT;
            snprintf(d->note, sizeof d->note,
                     "%llu compared clips tell 32 from 64 bits apart at %s; the original agrees "
                     "with neither",
                     (unsigned long long)pw->clips, name);
        }
        return;
    }
    ref_pose_opts_set(&ctx->pose_opts, k, (unsigned)pw->width);
    d->basis = POSE_BASIS_COMPARISON;
    pose_width_at *at = &pc->width_at[k];
    snprintf(at->file, sizeof at->file, "%s", ctx->res->files[pw->at_file].name);
    at->clip = pw->at_clip;
    at->tick = (int32_t)pw->at.tick;
    at->mode = pw->at_mode;
    field_name(pw->at.field, pw->at.bone, at->field, sizeof at->field);
    at->ref32 = pw->at.ref;
    at->ref64 = pw->at.orig;
    at->orig = pw->at_orig;
    char file[sizeof at->file];
    memcpy(file, at->file, sizeof file);
    snprintf(d->note, sizeof d->note, "decided by the comparison at %.40s clip %d (%s) call %d",
             file, at->clip, mode_name(at->mode), at->tick);
}

void pose_width_finish(run_ctx *ctx)
{
    if (!pose_width_any_open(&ctx->width)) return;
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++)
        if (ctx->width.site[k].open) finish_site(ctx, (ref_pose_key)k);
    ref_pose_opts_format(&ctx->pose_opts, ctx->res->pose.chosen, sizeof ctx->res->pose.chosen);
}
