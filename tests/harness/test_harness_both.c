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

#define BONES 3
#define TICKS 4

/* Two outcomes of TICKS calls with the frame and pose fields, every value i + tick. */
static void two(orig_outcome *a, orig_outcome *b)
{
    field_set have = field_set_of_levels((1u << FIELD_LEVEL__COUNT) - 1);
    orig_outcome *o[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        outcome_init(o[k]);
        trace_clear(&o[k]->t, &have, BONES);
        for (size_t i = 0; i < TICKS; i++) {
            ff_error err;
            int32_t *row = trace_push_blank(&o[k]->t, &err);
            cr_assert_not_null(row);
            for (size_t s = 0; s < o[k]->t.lay.width; s++) row[s] = (int32_t)(s + i);
        }
    }
}

static void done(orig_outcome *a, orig_outcome *b)
{
    outcome_free(a);
    outcome_free(b);
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
