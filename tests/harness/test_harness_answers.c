/*
 * tests/harness/test_harness_answers.c: an engine process's answers to a
 * leaf unit are the original's results, judged by the worker (harness/run/
 * remote.h: an engine process sends no verdict). leaf_unit_judge and
 * leaf_pose_judge compare answers against the reference whatever the answers
 * claim: answers made from the reference itself match, one changed value is
 * one mismatch at its case; leaf_answers_sound and leaf_pose_answers_sound
 * refuse answers that cannot be an honest engine's (a case left out, an
 * unknown fault kind, a first fault that is not the first faulting case, a
 * length that is not its count's).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/context.h"
#include "harness/run/leaf.h"
#include "harness/run/leaf_pose.h"
#include "ref/pose.h"

typedef struct fixture {
    run_config cfg;
    run_ctx ctx;
} fixture;

static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->cfg.seed = 7;
    f->cfg.leaf_calls = 1000;
    f->ctx.cfg = &f->cfg;
    ref_pose_opts_default(&f->ctx.pose_opts);
}

/* Answers to u's chunk as the reference gives them: what an honest engine equal to it sends. */
static leaf_answers *reference_answers(fixture *f, const run_unit *u)
{
    leaf_answers *a = calloc(1, sizeof *a);
    cr_assert_not_null(a);
    uint64_t cases = leaf_case_count((emu_leaf)u->leaf, f->cfg.leaf_calls);
    uint64_t lo = u->chunk * LEAF_CHUNK, hi = lo + LEAF_CHUNK < cases ? lo + LEAF_CHUNK : cases;
    for (uint64_t i = lo; i < hi; i++) {
        leaf_case c;
        ff_error err;
        leaf_case_make((emu_leaf)u->leaf, f->cfg.seed, i, &c);
        cr_assert_eq(leaf_case_ref((emu_leaf)u->leaf, &c, &err), 0, "%s", err.reason);
        leaf_answer *e = &a->a[a->n++];
        e->ax = c.ref_ax;
        e->pos = c.ref_pos;
        e->bit = c.ref_bit;
    }
    return a;
}

Test(answers, the_reference_s_own_answers_match_every_case)
{
    fixture f;
    fixture_init(&f);
    for (unsigned r = 0; r < LEAF_ROUTINES; r++) {
        run_unit u = {.kind = UNIT_LEAF, .leaf = r};
        leaf_answers *a = reference_answers(&f, &u);
        cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 1, "%s", leaf_routine_name((emu_leaf)r));
        leaf_chunk c;
        ff_error err;
        cr_assert_eq(leaf_unit_judge(&f.ctx, &u, a, NULL, &c, &err), 0);
        cr_assert_eq(c.local.calls, a->n);
        cr_assert_eq(c.local.mismatches, 0, "%s", leaf_routine_name((emu_leaf)r));
        cr_assert_eq(c.local.faults, 0);
        free(a);
    }
}

Test(answers, one_changed_answer_is_one_mismatch_at_its_case)
{
    fixture f;
    fixture_init(&f);
    run_unit u = {.kind = UNIT_LEAF, .leaf = EMU_LEAF_BITREADER};
    leaf_answers *a = reference_answers(&f, &u);
    a->a[37].ax ^= 0x10;
    leaf_chunk c;
    ff_error err;
    cr_assert_eq(leaf_unit_judge(&f.ctx, &u, a, NULL, &c, &err), 0);
    cr_assert_eq(c.local.mismatches, 1);
    cr_assert(c.local.have_first);
    cr_assert_eq(c.local.first.index, 37);
    cr_assert_eq(c.local.first.orig_ax ^ c.local.first.ref_ax, 0x10);
    /* The same answers as --engine both's second engine: one disagreement, no mismatch. */
    leaf_answers *honest = reference_answers(&f, &u);
    cr_assert_eq(leaf_unit_judge(&f.ctx, &u, honest, a, &c, &err), 0);
    cr_assert_eq(c.local.mismatches, 0);
    cr_assert_eq(c.local.eng.calls, a->n);
    cr_assert_eq(c.local.eng.disagree, 1);
    cr_assert_eq(c.local.eng.first.index, 37);
    free(honest);
    free(a);
}

Test(answers, a_fault_is_counted_and_kept_as_the_first)
{
    fixture f;
    fixture_init(&f);
    run_unit u = {.kind = UNIT_LEAF, .leaf = EMU_LEAF_BITREADER};
    leaf_answers *a = reference_answers(&f, &u);
    a->a[5].faulted = 1;
    a->a[5].kind = EMU_FAULT_FETCH_UNMAPPED;
    a->have_fault = 1;
    a->fault_index = 5;
    a->first_fault.kind = EMU_FAULT_FETCH_UNMAPPED;
    cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 1);
    leaf_chunk c;
    ff_error err;
    cr_assert_eq(leaf_unit_judge(&f.ctx, &u, a, NULL, &c, &err), 0);
    cr_assert_eq(c.local.faults, 1);
    cr_assert_eq(c.local.mismatches, 0);
    cr_assert(c.have_fault);
    cr_assert_eq(c.fault_index, 5);
    free(a);
}

Test(answers, answers_no_honest_engine_sends_are_refused)
{
    fixture f;
    fixture_init(&f);
    run_unit u = {.kind = UNIT_LEAF, .leaf = EMU_LEAF_BITREADER};
    leaf_answers *a = reference_answers(&f, &u);
    a->n--; /* a case left out: it would count as neither run nor failed */
    cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 0);
    a->n++;
    a->a[3].kind = EMU_FAULT__COUNT;
    a->a[3].faulted = 1;
    cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 0, "an unknown fault kind");
    a->a[3].kind = EMU_FAULT_BUDGET;
    cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 0, "a fault without its first fault");
    a->have_fault = 1;
    a->fault_index = 4;
    a->first_fault.kind = EMU_FAULT_BUDGET;
    cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 0, "the first fault of another case");
    a->fault_index = 3;
    cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 1);
    free(a);
}

/* A pose helper row's unit: sin is row 0 (leaf_pose.c's rows). */
Test(answers, pose_helper_answers_are_judged_against_the_reference)
{
    fixture f;
    fixture_init(&f);
    run_unit u = {.kind = UNIT_POSE_LEAF, .leaf = 0};
    pose_leaf_answers *a = leaf_pose_answers_new(&u);
    cr_assert_not_null(a);
    memset(a, 0, leaf_pose_answers_size(65536));
    a->n = 65536;
    for (uint64_t i = 0; i < a->n; i++)
        a->a[i].value = ref_pose_sin((int16_t)(uint16_t)i, f.ctx.pose_opts.trig);
    size_t len = leaf_pose_answers_size(a->n);
    cr_assert_eq(leaf_pose_answers_sound(&u, a, len), 1);
    cr_assert_eq(leaf_pose_answers_sound(&u, a, len - 1), 0, "a length not its count's");
    pose_leaf_result r;
    leaf_pose_judge(&f.ctx, &u, a, NULL, &r);
    cr_assert_eq(r.calls, 65536);
    cr_assert_eq(r.mismatches, 0, "%s", r.first);
    cr_assert_eq(r.trig_matched[f.ctx.pose_opts.trig], 65536);
    a->a[100].value += 2;
    leaf_pose_judge(&f.ctx, &u, a, NULL, &r);
    cr_assert_eq(r.mismatches, 1);
    cr_assert(strstr(r.first, "case 100,"), "%s", r.first);
    a->n--;
    cr_assert_eq(leaf_pose_answers_sound(&u, a, leaf_pose_answers_size(a->n)), 0,
                 "an angle left out");
    free(a);
}
