/*
 * tests/harness/test_harness_both.c: --engine both's comparison of one clip's
 * original side on two engines (harness/run/both.h): the same calls agree;
 * pose cells off by one and nothing else are the x87 class; any other value,
 * a cell off by two, a fault on one side only or at another place, or another
 * number of calls disagree.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "harness/run/both.h"
#include "harness/run/run_entity_io.h"

#define BONES 3
#define TICKS 4

/* TICKS calls pushed onto t (cleared to carry every field), every value slot + tick. */
static void fill(trace *t)
{
    for (size_t i = 0; i < TICKS; i++) {
        ff_error err;
        int32_t *row = trace_push_blank(t, &err);
        cr_assert_not_null(row);
        for (size_t s = 0; s < t->lay.width; s++) row[s] = (int32_t)(s + i);
    }
}

/* Two outcomes of TICKS calls with the frame and pose fields, every value i + tick. */
static void two(orig_outcome *a, orig_outcome *b)
{
    field_set have = field_set_of_levels((1u << FIELD_LEVEL__COUNT) - 1);
    orig_outcome *o[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        outcome_init(o[k]);
        trace_clear(&o[k]->t, &have, BONES);
        fill(&o[k]->t);
    }
}

static void done(orig_outcome *a, orig_outcome *b)
{
    outcome_free(a);
    outcome_free(b);
}

/* Two armed entity outcomes of TICKS calls, every value i + tick in both models. */
static void two_armed(ent_outcome *a, ent_outcome *b)
{
    field_set have = field_set_of_levels((1u << FIELD_LEVEL__COUNT) - 1);
    ent_outcome *o[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        ent_outcome_init(o[k]);
        ent_trace_clear(&o[k]->t, 1, &have, BONES, BONES);
        fill(&o[k]->t.body);
        fill(&o[k]->t.weapon);
    }
}

Test(both, the_same_calls_agree)
{
    orig_outcome a, b;
    res_both e;
    two(&a, &b);
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_AGREE);
    cr_assert_eq(e.cells, 0);
    done(&a, &b);
    /* An entity: body and weapon alike on both engines. */
    ent_outcome x, y;
    two_armed(&x, &y);
    ent_both_compare(&x, &y, &e);
    cr_assert_eq(e.state, RES_ENG_AGREE);
    cr_assert_eq(e.cells, 0);
    ent_outcome_free(&x);
    ent_outcome_free(&y);
}

Test(both, pose_cells_off_by_one_are_the_x87_class)
{
    orig_outcome a, b;
    res_both e;
    two(&a, &b);
    trace_set(&b.t, 1, FIELD_M01, 2, trace_value(&a.t, 1, FIELD_M01, 2) + 1);
    trace_set(&b.t, 3, FIELD_WORLD_M22, 0, trace_value(&a.t, 3, FIELD_WORLD_M22, 0) - 1);
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_X87, "state %d", e.state);
    cr_assert_eq(e.cells, 2);
    cr_assert_eq(e.div.tick, 1);
    cr_assert_eq(e.div.field, FIELD_M01);
    done(&a, &b);
}

Test(both, a_cell_off_by_two_or_any_frame_value_disagrees)
{
    orig_outcome a, b;
    res_both e;
    two(&a, &b);
    trace_set(&b.t, 2, FIELD_M10, 0, trace_value(&a.t, 2, FIELD_M10, 0) + 2);
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE);
    done(&a, &b);
    two(&a, &b);
    trace_set(&b.t, 0, FIELD_ROT_Y, 1, trace_value(&a.t, 0, FIELD_ROT_Y, 1) + 1);
    trace_set(&b.t, 1, FIELD_M00, 1, trace_value(&a.t, 1, FIELD_M00, 1) + 1);
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE, "a rotation off by one is no x87 result");
    cr_assert_eq(e.cells, 2);
    done(&a, &b);
}

Test(both, faults_and_call_counts_must_agree)
{
    orig_outcome a, b;
    res_both e;
    two(&a, &b);
    b.faulted = 1;
    b.fault.kind = EMU_FAULT_BUDGET;
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE, "a fault on one engine only");
    cr_assert_eq(e.fault_second, EMU_FAULT_BUDGET);
    a.faulted = 1;
    a.fault = b.fault;
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_AGREE, "the same fault at the same place");
    b.fault.eip = 0x509000;
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE, "the same fault elsewhere");
    done(&a, &b);
    two(&a, &b);
    b.t.n--;
    both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE, "one call fewer");
    done(&a, &b);
}

/* ---- the entity level: a body and a weapon on each engine ---- */

Test(both, an_entity_compares_its_body_then_its_weapon)
{
    ent_outcome a, b;
    res_both e;
    two_armed(&a, &b);
    /* The weapon alone differs: its difference is the first, named as the weapon's. */
    trace_set(&b.t.weapon, 2, FIELD_ROOT_Y, 0, trace_value(&a.t.weapon, 2, FIELD_ROOT_Y, 0) + 5);
    ent_both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE);
    cr_assert_eq(e.div.model, FIELD_MODEL_WEAPON);
    cr_assert_eq(e.div.tick, 2);
    cr_assert_eq(e.div.field, FIELD_ROOT_Y);
    cr_assert_eq(e.cells, 1);
    /* A body pose cell off by one comes first; the weapon's difference still disagrees. */
    trace_set(&b.t.body, 1, FIELD_M01, 2, trace_value(&a.t.body, 1, FIELD_M01, 2) + 1);
    ent_both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE);
    cr_assert_eq(e.div.model, FIELD_MODEL_BODY);
    cr_assert_eq(e.div.tick, 1);
    cr_assert_eq(e.cells, 2);
    ent_outcome_free(&a);
    ent_outcome_free(&b);
    /* Pose cells off by one in both models and nothing else: the x87 class. */
    two_armed(&a, &b);
    trace_set(&b.t.weapon, 3, FIELD_WORLD_M22, 1,
              trace_value(&a.t.weapon, 3, FIELD_WORLD_M22, 1) - 1);
    ent_both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_X87, "state %d", e.state);
    cr_assert_eq(e.div.model, FIELD_MODEL_WEAPON);
    trace_set(&b.t.body, 0, FIELD_M11, 0, trace_value(&a.t.body, 0, FIELD_M11, 0) + 1);
    ent_both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_X87);
    cr_assert_eq(e.cells, 2);
    cr_assert_eq(e.div.model, FIELD_MODEL_BODY);
    /* A fault on the second engine only (the body carries the entity's fault). */
    b.faulted = 1;
    b.fault.kind = EMU_FAULT_READ_UNMAPPED;
    ent_both_compare(&a, &b, &e);
    cr_assert_eq(e.state, RES_ENG_DISAGREE);
    cr_assert_eq(e.fault_second, EMU_FAULT_READ_UNMAPPED);
    ent_outcome_free(&a);
    ent_outcome_free(&b);
}
