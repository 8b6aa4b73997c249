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
