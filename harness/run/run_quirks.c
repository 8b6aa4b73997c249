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
 * The switched reading of clip c (rows of mask) as the candidate's format
 * shows it, into w->rt_alt: the fields the candidate carries (and ret), and
 * for the frames format the decoded frames only (the end call returning 1
 * dropped, as run_clip.c's authority). Returns 1 when it decoded, 2 when
 * it failed after some ticks (w->rt_alt holds them: a decoder with that
 * row stops there too), 0 when it failed at once (it explains nothing),
 * -1 with err (memory).
 */
static int switched(worker *w, ref_anim *a, uint8_t flags, uint32_t c, int frames, uint32_t mask,
                    ff_error *err)
{
    field_set have = w->rt.lay.have;
    field_set_add(&have, FIELD_RET);
    ff_error e;
    int rc = quirkside_trace(a, flags, c, &have, mask, &w->rt_alt, &e);
    if (rc < 0 && e.kind == FF_E_NOMEM) {
        *err = e;
        return -1;
    }
    trace *t = &w->rt_alt;
    if (rc < 0) return t->n ? 2 : 0;
    if (frames && t->n && trace_value(t, t->n - 1, FIELD_RET, 0) == 1) t->n--;
    return 1;
}

/*
 * The first row (table order) whose switched reading is the candidate's
 * trace into *found (0: none); with auth, the rows tried whose switched
 * reading departs from it (fails, or differs on a field both carry) into
 * *bites.
 */
static int one_row(worker *w, ref_anim *a, uint8_t flags, uint32_t c, int frames, const trace *auth,
                   uint32_t *found, uint32_t *bites, ff_error *err)
{
    uint32_t rows = quirkside_observable();
    *found = 0;
    *bites = 0;
    for (unsigned q = 0; q < REF_Q__COUNT && !*found; q++) {
        if (!(rows & REF_QUIRK_BIT(q))) continue;
        int rc = switched(w, a, flags, c, frames, REF_QUIRK_BIT(q), err);
        if (rc < 0) return -1;
        cmp_divergence d;
        if (rc >= 1 && cmp_traces(&w->rt_alt, &w->rt, &d) == 0) *found = REF_QUIRK_BIT(q);
        if (auth && (rc != 1 || cmp_traces(&w->rt_alt, auth, &d) != 0)) *bites |= REF_QUIRK_BIT(q);
    }
    return 0;
}

/*
 * A mismatch: one row, else two together, whose switched reading is the
 * candidate's. Two rows only where each alone departs from the authority
 * auth on this clip (a row that changes nothing here alone is taken to
 * change nothing beside another: the pairs tried fall from 78 to a few).
 */
static int explain_mismatch(worker *w, ref_anim *a, uint8_t flags, uint32_t c, int frames,
                            const trace *auth, uint32_t *found, ff_error *err)
{
    uint32_t rows;
    if (one_row(w, a, flags, c, frames, auth, found, &rows, err) < 0) return -1;
    for (unsigned q = 0; q < REF_Q__COUNT && !*found; q++)
        for (unsigned p = q + 1; p < REF_Q__COUNT && !*found; p++) {
            uint32_t m = REF_QUIRK_BIT(q) | REF_QUIRK_BIT(p);
            if ((rows & m) != m) continue;
            int rc = switched(w, a, flags, c, frames, m, err);
            if (rc < 0) return -1;
            cmp_divergence d;
            if (rc >= 1 && cmp_traces(&w->rt_alt, &w->rt, &d) == 0) *found = m;
        }
    return 0;
}

/*
 * A clip the candidate stopped short on, after stop ticks all agreeing
 * with the authority auth: the row whose switched reading is the
 * candidate's trace (a plain reading that stops there, or fails there),
 * else the first of
 * the engine's quirks (table order) whose plain reading first departs from
 * the authority at tick stop (the decoder gave up where the engine departs
 * from a plain reading; the departures, a decoder's own bugs, explain no
 * stop this way). A candidate that gave nothing (stop 0) is explained only
 * by the first kind: every clip starts where some row bites (start-reset).
 */
static int explain_stop(worker *w, ref_anim *a, uint8_t flags, uint32_t c, int frames,
                        const trace *auth, uint32_t *found, ff_error *err)
{
    uint32_t bites;
    if (one_row(w, a, flags, c, frames, NULL, found, &bites, err) < 0) return -1;
    size_t stop = w->rt.n;
    uint32_t rows = quirkside_observable();
    for (unsigned q = 0; q < REF_Q__COUNT && !*found && stop > 0; q++) {
        if (!(rows & REF_QUIRK_BIT(q)) ||
            ref_quirk_def_of((ref_quirk)q)->kind != REF_QUIRK_KIND_QUIRK)
            continue;
        int rc = switched(w, a, flags, c, frames, REF_QUIRK_BIT(q), err);
        if (rc < 0) return -1;
        cmp_divergence d;
        if (rc >= 1 && cmp_traces(&w->rt_alt, auth, &d) == 1 && d.tick == stop)
            *found = REF_QUIRK_BIT(q);
    }
    return 0;
}

/*
 * A checked decoder's clip (its trace in w->rt, the authority's in auth;
 * frames: the candidate's is the frames format) tried against the
 * quirk table: a mismatch, the rows (one, else two together) whose switched
 * reference writes exactly what the decoder wrote; a clip not decoded
 * because it stopped short, the row that explains where (explain_stop).
 * Into r->explained, r->explain_tried set. Other clips are left alone.
 * Returns 0, or -1 (out of memory).
 */
int run_quirks_explain(worker *w, const run_unit *u, ref_anim *a, uint32_t c, const trace *auth,
                       int frames, clip_result *r, ff_error *err)
{
    uint8_t flags = mode_flags(u->mode);
    uint32_t found = 0;
    trace view = *auth; /* the frames format's view: the end call dropped */
    if (frames && view.n && trace_value(&view, view.n - 1, FIELD_RET, 0) == 1) view.n--;
    int rc;
    if (r->status == RES_MISMATCH)
        rc = explain_mismatch(w, a, flags, c, frames, &view, &found, err);
    else if (r->status == RES_NOT_DECODED && r->ref_ticks < r->orig_ticks)
        rc = explain_stop(w, a, flags, c, frames, &view, &found, err);
    else
        return 0;
    if (rc < 0) return -1;
    r->explained = found;
    r->explain_tried = 1;
    return 0;
}
