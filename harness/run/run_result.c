/*
 * harness/run/run_result.c: what a frame unit (run_unit.c) and an entity
 * unit (run_entity.c) both do with one clip's two sides before comparing
 * them: the record's source and tick counts, the original's fault kept, the
 * status when a side failed or the original faulted; what a clip compared
 * per field class and whether the candidate decoded it; and the reference's
 * skeleton buffer; a clip decided before its candidate's file turned out
 * to hold it twice, made bad input. Groups nothing.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "harness/core/field_use.h"
#include "harness/run/context.h"

void *run_dup(const void *p, size_t n)
{
    void *q = malloc(n);
    if (q) memcpy(q, p, n);
    return q;
}

int run_result_sides(run_ctx *ctx, clip_result *r, const run_sides *s, ff_error *err)
{
    run_progress *p = ctx->cfg->progress;
    r->source = s->src;
    /* A side that failed has no ticks to count, whatever its buffer still holds. */
    r->ref_ticks = s->cand_ok ? s->ref_ticks : 0;
    r->orig_ticks = s->auth_ok ? s->orig_ticks : 0;
    if (s->auth_ok && s->fault && !(r->fault = run_dup(s->fault, sizeof *s->fault)))
        return ff_error_set(err, FF_E_NOMEM, s->name, -1, "out of memory");
    if (!s->cand_ok || !s->auth_ok) {
        r->status = RES_BAD_INPUT;
        if (!(r->error = run_dup(s->cand_ok ? s->auth_err : s->cand_err, sizeof *r->error)))
            return ff_error_set(err, FF_E_NOMEM, s->name, -1, "out of memory");
        if (p) atomic_fetch_add(&p->bad_input, 1);
        return 1;
    }
    if (s->fault) {
        r->status = RES_FAULT;
        if (p) atomic_fetch_add(&p->faults, 1);
        return 1;
    }
    return 0;
}

int run_result_demote(run_ctx *ctx, clip_result *r, const ff_error *why, ff_error *err)
{
    if (r->status == RES_BAD_INPUT) return 0; /* its first problem stands */
    ff_error *e = run_dup(why, sizeof *why);
    if (!e) return ff_error_set(err, FF_E_NOMEM, why->file, -1, "out of memory");
    run_progress *p = ctx->cfg->progress;
    if (p && (r->status == RES_MISMATCH || r->status == RES_NOT_DECODED))
        atomic_fetch_sub(&p->mismatches, 1);
    if (p && r->status == RES_FAULT) atomic_fetch_sub(&p->faults, 1);
    if (p) atomic_fetch_add(&p->bad_input, 1);
    free(r->error);
    free(r->fault);
    free(r->expl);
    free(r->cells);
    r->error = e;
    r->fault = NULL;
    r->expl = NULL;
    r->cells = NULL;
    r->status = RES_BAD_INPUT;
    r->ref_ticks = 0;
    r->missing = 0;
    r->x87_limit = 0;
    r->group = -1;
    memset(&r->use, 0, sizeof r->use);
    return 0;
}

/* The skeleton's bytes before a clip, NULL when the file's skeleton section is short. */
static const uint8_t *skeleton0(const dat_file *d)
{
    size_t need = ref_skel_size(d);
    return need && d->skel_off <= d->size && need <= d->size - d->skel_off
               ? d->data + d->skel_off
               : NULL;
}

int run_result_decoded(run_ctx *ctx, const dat_file *d, clip_result *r, const trace *cand,
                       const trace *auth, const run_decoded *dc, ff_error *err)
{
    field_use_clip(&ctx->classes, cand, auth, dc->can, skeleton0(d), &r->use);
    int differ = cmp_traces(cand, auth, &r->div);
    int short_of = differ && cand->n < auth->n && r->div.tick == cand->n;
    if (differ && !short_of) return 0;
    r->missing = (uint16_t)(field_use_unsupplied(&ctx->classes, &r->use) & ctx->cfg->require);
    if (!short_of && !r->missing) {
        r->status = RES_MATCH;
        return 1;
    }
    r->status = RES_NOT_DECODED;
    if (dc->absent && !(r->error = run_dup(dc->why, sizeof *r->error)))
        return ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
    if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->mismatches, 1);
    return 1;
}

int run_ref_setup(uint8_t **skel, size_t *cap, const dat_file *d, ref_anim *a, ff_error *err)
{
    size_t need = ref_skel_size(d);
    if (GROW(*skel, *cap, need, need) < 0)
        return ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
    return ref_anim_init(a, d, *skel, *cap, err);
}
