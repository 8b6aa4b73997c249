/*
 * tests/harness/test_harness_quirks.c: the quirk pass (harness/run/quirkside.h)
 * on the synthetic presets. Each clip and mode's pass is checked against the
 * plain way of finding where a row bites: the whole clip decoded with that
 * row switched (quirkside_trace) and compared with the exact trace, first
 * divergence by cmp_traces; so the pass's shortcuts (rows skipped where
 * they cannot bite, wrap rows decoded together, the over-read resumed near
 * the clip's end) must find the very same ticks, fields and values. The
 * presets must plant every observable row at least once.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "corpus/synth.h"
#include "harness/core/causes.h"
#include "harness/core/compare.h"
#include "harness/core/modes.h"
#include "harness/run/quirkside.h"
#include "ref/dat.h"
#include "ref/engine.h"
#include "tests/support/ts.h"

/* Where the plain way says row q first departs; 0 when it never does. */
static int brute(ref_anim *a, uint8_t flags, uint32_t clip, const trace *exact, ref_quirk q,
                 res_quirk_hit *h)
{
    trace t;
    trace_init(&t);
    ff_error e;
    int rc = quirkside_trace(a, flags, clip, NULL, REF_QUIRK_BIT(q), &t, &e);
    cr_assert(rc == 0 || e.kind != FF_E_NOMEM);
    trace head = t; /* the ticks both have */
    trace ex = *exact;
    if (head.n > ex.n) head.n = ex.n;
    if (ex.n > head.n) ex.n = head.n;
    cmp_divergence d;
    int found = 0;
    for (size_t i = 0; i < head.n && !found; i++) found = cmp_tick(&ex, &head, i, &d);
    if (found) {
        *h = (res_quirk_hit){(uint16_t)d.tick, (uint16_t)d.field, (uint16_t)d.bone, 0, d.ref, d.orig};
    } else if (rc < 0 || t.n != exact->n) {
        size_t at = t.n < exact->n ? t.n : exact->n - 1;
        *h = (res_quirk_hit){(uint16_t)at, FIELD_RET, 0, 0, trace_value(exact, at, FIELD_RET, 0),
                             rc < 0 ? -1 : 0};
        found = 1;
    }
    trace_free(&t);
    return found;
}

/* Checks every clip and mode of a preset's first files; ORs the rows that bit into *seen. */
static void check_preset(synth_preset p, size_t max_files, uint32_t *seen)
{
    synth_plan *plan;
    ff_error e;
    TS_OK(synth_plan_make(p, 1, &plan, &e), &e);
    size_t n = synth_plan_count(plan);
    if (n > max_files) n = max_files;
    trace exact, scratch;
    trace_init(&exact);
    trace_init(&scratch);
    for (size_t i = 0; i < n; i++) {
        uint8_t *data;
        size_t size;
        TS_OK(synth_plan_build(plan, i, &data, &size, NULL, &e), &e);
        dat_file dat;
        TS_OK(dat_parse(data, size, synth_plan_name(plan, i), &dat, &e), &e);
        if (!dat_kind_has_model(dat.kind)) {
            free(data);
            continue;
        }
        size_t len = ref_skel_size(&dat);
        uint8_t *skel = malloc(len);
        ref_anim a;
        TS_OK(ref_anim_init(&a, &dat, skel, len, &e), &e);
        for (uint32_t c = 0; c < dat.clips; c++)
            for (int m = 0; m < MODE__COUNT; m++) {
                uint8_t flags = mode_flags((mode_id)m);
                if (quirkside_trace(&a, flags, c, NULL, 0, &exact, &e) < 0) continue;
                uint32_t bites;
                res_quirk_hit hit[REF_Q__COUNT];
                TS_OK(quirkside_clip(&a, flags, c, &exact, quirkside_observable(), &scratch,
                                     &bites, hit, &e),
                      &e);
                for (unsigned q = 0; q < REF_Q__COUNT; q++) {
                    const char *name = ref_quirk_def_of((ref_quirk)q)->name;
                    res_quirk_hit want;
                    int bit = ref_quirk_def_of((ref_quirk)q)->observable &&
                              brute(&a, flags, c, &exact, (ref_quirk)q, &want);
                    cr_assert_eq((bites >> q) & 1, (unsigned)bit, "%s clip %u %s: %s bites %d",
                                 dat.name, c, mode_name((mode_id)m), name, bit);
                    if (!bit) continue;
                    const res_quirk_hit *h = &hit[q];
                    cr_assert(h->tick == want.tick && h->field == want.field &&
                                  h->bone == want.bone && h->engine == want.engine &&
                                  h->plain == want.plain,
                              "%s clip %u %s: %s at tick %u field %u bone %u %d/%d, want tick "
                              "%u field %u bone %u %d/%d",
                              dat.name, c, mode_name((mode_id)m), name, h->tick, h->field, h->bone,
                              h->engine, h->plain, want.tick, want.field, want.bone, want.engine,
                              want.plain);
                }
                *seen |= bites;
            }
        free(skel);
        free(data);
    }
    trace_free(&exact);
    trace_free(&scratch);
    synth_plan_free(plan);
}

Test(quirks, the_pass_finds_what_whole_switched_decodes_find_small_and_cover)
{
    uint32_t seen = 0;
    check_preset(SYNTH_SMALL, 1000, &seen);
    check_preset(SYNTH_COVER, 1000, &seen);
    for (unsigned q = 0; q < REF_Q__COUNT; q++)
        if (ref_quirk_def_of((ref_quirk)q)->observable)
            cr_expect(seen & REF_QUIRK_BIT(q), "no clip of small or cover exercises %s",
                      ref_quirk_def_of((ref_quirk)q)->name);
}

Test(quirks, the_pass_finds_what_whole_switched_decodes_find_vanilla_slice, .timeout = 300)
{
    uint32_t seen = 0;
    check_preset(SYNTH_VANILLA, 12, &seen);
    cr_expect(seen & REF_QUIRK_BIT(REF_Q_SLOW_FAST_OVERREAD));
}

/* ---- a checked decoder's clips in the causes (harness/core/causes_quirk.c) ---- */

/* A hand-built check of 8 frame results: file a.dat, clips 0-1 in the four modes. */
static void checked_run(run_results *res)
{
    memset(res, 0, sizeof *res);
    res->nfiles = 1;
    res->files = calloc(1, sizeof *res->files);
    cr_assert(res->files);
    res->files[0].name = strdup("a.dat");
    res->nresults = 8;
    res->results = calloc(8, sizeof *res->results);
    cr_assert(res->results);
    for (size_t i = 0; i < 8; i++) {
        clip_result *r = &res->results[i];
        r->clip = (int32_t)(i % 2);
        r->mode = (mode_id)(i / 2);
        r->status = RES_MATCH;
        r->group = -1;
        r->explain_tried = 1;
    }
}

/* Result i a mismatch of group g at field f, candidate cand, authority auth. */
static void mismatch(run_results *res, size_t i, int g, field_id f, int32_t cand, int32_t auth)
{
    clip_result *r = &res->results[i];
    r->status = RES_MISMATCH;
    r->group = g;
    r->div.field = f;
    r->div.tick = 3;
    r->div.ref = cand;
    r->div.orig = auth;
}

static void groups(run_results *res, size_t n)
{
    res->ngroups = n;
    res->groups = calloc(n, sizeof *res->groups);
    cr_assert(res->groups);
    for (size_t g = 0; g < n; g++) {
        snprintf(res->groups[g].level, sizeof res->groups[g].level, "frame");
        res->groups[g].example = -1;
    }
    for (size_t i = 0; i < res->nresults; i++) {
        int g = res->results[i].group;
        if (g >= 0 && res->groups[g].example < 0) res->groups[g].example = (int64_t)i;
    }
}

/* The shapes of docs/quirks.md, each from the first test that holds. */
Test(quirk_causes, shapes_of_a_first_difference)
{
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 5, 4), "off_by_one");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 1, 0), "off_by_one"); /* before zero */
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 0, 300), "zero_where_nonzero");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 300, 0), "nonzero_where_zero");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, -300, 300), "sign_flip");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 900, 300), "constant_factor");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 150, 300), "constant_factor");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 316, 300), "power_of_two_offset");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 40000, 40000 - 65536), "no_16bit_wrap");
    cr_assert_str_eq(causes_shape(FIELD_SCALE_Y, 1024, 2000), "neutral_scale");
    cr_assert_str_eq(causes_shape(FIELD_RET, -1, 0), "ending");
    cr_assert_str_eq(causes_shape(FIELD_ROT_X, 301, 297), "other");
}

/*
 * A decoder that adds 1 to rotation deltas in normal and fast mode, the
 * first difference in rot.x on clip 0 and rot.y on clip 1: four groups
 * (two fields x two modes), one shape cause. A mismatch of another shape
 * (a root value negated) is a cause of its own; results whose table row
 * is known merge by row, stopped clips by whether a row explains them.
 */
Test(quirk_causes, unexplained_groups_merge_by_class_and_shape)
{
    run_results res;
    checked_run(&res);
    /* results: normal 0-1, slow 2-3, fast 4-5, slow+fast 6-7 */
    mismatch(&res, 0, 0, FIELD_ROT_X, 1, 0);
    mismatch(&res, 1, 1, FIELD_ROT_Y, 301, 300);
    mismatch(&res, 4, 2, FIELD_ROT_X, 1, 0);
    mismatch(&res, 5, 3, FIELD_ROT_Y, -7, -6);
    mismatch(&res, 2, 4, FIELD_ROOT_Y, -40, 40);
    mismatch(&res, 3, 5, FIELD_ROT_Z, 40000, 40000 - 65536);
    res.results[3].explained = REF_QUIRK_BIT(REF_Q_ROT_WRAP);
    res.results[6].status = RES_NOT_DECODED;
    res.results[6].ref_ticks = 4;
    res.results[6].orig_ticks = 9;
    res.results[6].explained = REF_QUIRK_BIT(REF_Q_ROT_WRAP);
    res.results[7].status = RES_NOT_DECODED;
    res.results[7].ref_ticks = 0;
    res.results[7].orig_ticks = 9;
    groups(&res, 6);
    cr_assert_eq(causes_build(&res), 0);
    /* off by one in rot (4 clips), rot-wrap (2: a mismatch, a stop), sign flip in root (1),
     * stopped unexplained (1) */
    cr_assert_eq(res.ncauses, 4);
    const res_cause *k = &res.causes[0];
    cr_assert_str_eq(k->kind, "shape");
    cr_assert_str_eq(k->signature, "shape|rot|off_by_one");
    cr_assert_eq(k->clips, 4);
    cr_assert_eq(k->modes, 1u << MODE_NORMAL | 1u << MODE_FAST);
    cr_assert_eq(k->ngroups, 4);
    cr_assert_eq(k->example, 0);
    cr_assert_eq(k->example_result, 0);
    cr_assert(strstr(k->statement, "rot values are off by one"), "%s", k->statement);
    cr_assert(strstr(k->statement, "2 fields: rot.x, rot.y; modes normal, fast"), "%s", k->statement);
    for (size_t i = 0; i < 6; i += 4) cr_assert_eq(res.results[i].cause, 0);
    for (int g = 0; g < 4; g++) cr_assert_eq(res.groups[g].cause, 0, "group %d", g);
    k = &res.causes[1];
    cr_assert_str_eq(k->kind, "quirk");
    cr_assert_eq(k->rows, REF_QUIRK_BIT(REF_Q_ROT_WRAP));
    cr_assert_eq(k->clips, 2);
    cr_assert_eq(k->example_result, 3);
    cr_assert(strstr(k->statement, ref_quirk_def_of(REF_Q_ROT_WRAP)->plain), "%s", k->statement);
    cr_assert_eq(res.results[6].cause, 1);
    cr_assert_eq(res.groups[5].cause, 1);
    /* The two single ones: sign flip first by its group (example 4 before none). */
    cr_assert_str_eq(res.causes[2].signature, "shape|root|sign_flip");
    cr_assert_str_eq(res.causes[3].kind, "stopped");
    cr_assert_eq(res.causes[3].example, -1);
    cr_assert_eq(res.causes[3].example_result, 7);
    /* Not tried (--no-quirks): no cause at all. */
    for (size_t i = 0; i < res.nresults; i++) res.results[i].explain_tried = 0;
    cr_assert_eq(causes_build(&res), 0);
    cr_assert_eq(res.ncauses, 0);
    run_results_free(&res);
}
