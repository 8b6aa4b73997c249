/*
 * harness/run/run_quirks.c: the quirk table on a worker's frame-level
 * clips (harness/run/quirkside.h): the quirk pass into each clip's result,
 * and a checked decoder's mismatches tried against the table. Reference
 * side only: emulates nothing, prints nothing.
 */
#include "harness/core/compare.h"
#include "harness/core/modes.h"
#include "harness/run/quirkside.h"
#include "harness/run/worker.h"

/*
 * The quirk pass on one clip (harness/run/quirkside.h), on this worker: the
 * clip's exact frame-level trace (the reference's side already decoded when
 * have_ref, else decoded here) beside the switched ones, into its result.
 * Reference side only. Returns 0, or -1 (out of memory).
 */
int run_quirks_clip(worker *w, const run_unit *u, ref_anim *a, uint32_t c, int have_ref,
                    ff_error *err)
{
    clip_result *r = &w->ctx->res->results[u->first + c];
    uint8_t flags = mode_flags(u->mode);
    ff_error e;
    if (!have_ref && quirkside_trace(a, flags, c, NULL, 0, &w->rt, &e) < 0) {
        if (e.kind != FF_E_NOMEM) return 0; /* the clip's error is the comparison's to say */
        *err = e;
        return -1;
    }
    if (quirkside_clip(a, flags, c, &w->rt, quirkside_observable(), &w->rt_alt, &r->quirks,
                       r->quirk, err) < 0)
        return -1;
    r->quirks_done = 1;
    return 0;
}

/*
 * A checked decoder's mismatching clip (its trace in w->rt) tried against
 * the quirk table: the rows (one, else two together) whose switched
 * reference writes exactly what the decoder wrote, into r->explained.
 * Returns 0, or -1 (out of memory).
 */
int run_quirks_explain(worker *w, const run_unit *u, ref_anim *a, uint32_t c, clip_result *r,
                       ff_error *err)
{
    uint8_t flags = mode_flags(u->mode);
    uint32_t rows = quirkside_observable(), found = 0;
    ff_error e;
    for (unsigned q = 0; q < REF_Q__COUNT && !found; q++) {
        if (!(rows & REF_QUIRK_BIT(q))) continue;
        int rc = quirkside_trace(a, flags, c, &w->rt.lay.have, REF_QUIRK_BIT(q), &w->rt_alt, &e);
        if (rc < 0 && e.kind == FF_E_NOMEM) {
            *err = e;
            return -1;
        }
        cmp_divergence d;
        if (rc == 0 && cmp_traces(&w->rt_alt, &w->rt, &d) == 0) found = REF_QUIRK_BIT(q);
    }
    for (unsigned q = 0; q < REF_Q__COUNT && !found; q++)
        for (unsigned p = q + 1; p < REF_Q__COUNT && !found; p++) {
            uint32_t m = REF_QUIRK_BIT(q) | REF_QUIRK_BIT(p);
            if ((rows & m) != m) continue;
            int rc = quirkside_trace(a, flags, c, &w->rt.lay.have, m, &w->rt_alt, &e);
            if (rc < 0 && e.kind == FF_E_NOMEM) {
                *err = e;
                return -1;
            }
            cmp_divergence d;
            if (rc == 0 && cmp_traces(&w->rt_alt, &w->rt, &d) == 0) found = m;
        }
    r->explained = found;
    return 0;
}
