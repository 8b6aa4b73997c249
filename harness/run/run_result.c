/*
 * harness/run/run_result.c: what a frame unit (run_unit.c) and an entity
 * unit (run_entity.c) both do with one clip's two sides before comparing
 * them: the record's source and tick counts, the original's fault kept, the
 * status when a side failed or the original faulted; and the reference's
 * skeleton buffer. Compares nothing, groups nothing.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
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

int run_ref_setup(uint8_t **skel, size_t *cap, const dat_file *d, ref_anim *a, ff_error *err)
{
    size_t need = ref_skel_size(d);
    if (GROW(*skel, *cap, need, need) < 0)
        return ff_error_set(err, FF_E_NOMEM, d->name, -1, "out of memory");
    return ref_anim_init(a, d, *skel, *cap, err);
}
