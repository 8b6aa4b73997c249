/*
 * tests/harness/test_harness_answers.c: an engine process's answers to a
 * leaf unit are the original's results, judged by the worker (harness/run/
 * remote.h: an engine process sends no verdict). leaf_unit_judge and
 * leaf_pose_judge compare answers against the reference whatever the answers
 * claim: answers made from the reference itself match, one changed value is
 * one mismatch at its case; leaf_answers_sound and leaf_pose_answers_sound
 * refuse answers that cannot be an honest engine's (a case left out, an
 * unknown fault kind, a first fault that is not the first faulting case, a
 * length that is not its count's). remote_frame_records_sound and
 * remote_entity_records_sound refuse, before the worker uses any, records
 * an engine process cannot have made honestly: another clip's, one left
 * out or cut short, bytes after the last, a digest (only the cache keeps
 * those); the worker then loses the process and the unit's clips are
 * engine_process faults, where such an answer once ended the whole run
 * with an internal error. The convention search's engine process fails its
 * own sample, never the run, once the executable's code has run
 * (pose_sample_child_end).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/context.h"
#include "harness/run/leaf.h"
#include "harness/run/leaf_pose.h"
#include "harness/run/pose_sample.h"
#include "harness/run/remote.h"
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

/* The fixture, u the bitReader's first chunk, and its answers as the reference gives them. */
static leaf_answers *bitreader_answers(fixture *f, run_unit *u)
{
    fixture_init(f);
    *u = (run_unit){.kind = UNIT_LEAF, .leaf = EMU_LEAF_BITREADER};
    return reference_answers(f, u);
}

/* u's answers a (and --engine both's second, or NULL) judged: the chunk's findings. */
static leaf_chunk judged(fixture *f, const run_unit *u, const leaf_answers *a,
                         const leaf_answers *second)
{
    leaf_chunk c;
    ff_error err;
    cr_assert_eq(leaf_unit_judge(&f->ctx, u, a, second, &c, &err), 0, "%s", err.reason);
    return c;
}

Test(answers, the_reference_s_own_answers_match_every_case)
{
    fixture f;
    fixture_init(&f);
    for (unsigned r = 0; r < LEAF_ROUTINES; r++) {
        run_unit u = {.kind = UNIT_LEAF, .leaf = r};
        leaf_answers *a = reference_answers(&f, &u);
        cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 1, "%s", leaf_routine_name((emu_leaf)r));
        leaf_chunk c = judged(&f, &u, a, NULL);
        cr_assert_eq(c.local.calls, a->n);
        cr_assert_eq(c.local.mismatches, 0, "%s", leaf_routine_name((emu_leaf)r));
        cr_assert_eq(c.local.faults, 0);
        free(a);
    }
}

Test(answers, one_changed_answer_is_one_mismatch_at_its_case)
{
    fixture f;
    run_unit u;
    leaf_answers *a = bitreader_answers(&f, &u);
    a->a[37].ax ^= 0x10;
    leaf_chunk c = judged(&f, &u, a, NULL);
    cr_assert_eq(c.local.mismatches, 1);
    cr_assert(c.local.have_first);
    cr_assert_eq(c.local.first.index, 37);
    cr_assert_eq(c.local.first.orig_ax ^ c.local.first.ref_ax, 0x10);
    /* The same answers as --engine both's second engine: one disagreement, no mismatch. */
    leaf_answers *honest = reference_answers(&f, &u);
    c = judged(&f, &u, honest, a);
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
    run_unit u;
    leaf_answers *a = bitreader_answers(&f, &u);
    a->a[5].faulted = 1;
    a->a[5].kind = EMU_FAULT_FETCH_UNMAPPED;
    a->have_fault = 1;
    a->fault_index = 5;
    a->first_fault.kind = EMU_FAULT_FETCH_UNMAPPED;
    cr_assert_eq(leaf_answers_sound(&f.ctx, &u, a), 1);
    leaf_chunk c = judged(&f, &u, a, NULL);
    cr_assert_eq(c.local.faults, 1);
    cr_assert_eq(c.local.mismatches, 0);
    cr_assert(c.have_fault);
    cr_assert_eq(c.fault_index, 5);
    free(a);
}

Test(answers, answers_no_honest_engine_sends_are_refused)
{
    fixture f;
    run_unit u;
    leaf_answers *a = bitreader_answers(&f, &u);
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

/* An outcome of 3 calls with the frame fields, every value its slot plus its tick. */
static void outcome_of(orig_outcome *o, int32_t base)
{
    field_set have = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    outcome_init(o);
    trace_clear(&o->t, &have, 2);
    for (size_t i = 0; i < 3; i++) {
        ff_error err;
        int32_t *row = trace_push_blank(&o->t, &err);
        cr_assert_not_null(row);
        for (size_t k = 0; k < o->t.lay.width; k++)
            row[k] = base + (int32_t)(k + i);
    }
}

/* A frame unit's answer of three clips (clip 1 an input error) over the records in raw. */
static remote_unit frame_answer(const strbuf *raw, uint8_t ok[3], uint8_t src[3])
{
    remote_unit r;
    memset(&r, 0, sizeof r);
    ok[0] = ok[2] = REMOTE_RECORD;
    ok[1] = 0;
    src[0] = src[1] = src[2] = RES_SRC_EMULATED;
    r.nclips = 3;
    r.ok = ok;
    r.src = src;
    r.raw = (const uint8_t *)raw->s;
    r.raw_len = raw->len;
    return r;
}

Test(answers, frame_records_an_engine_process_cannot_have_made_are_refused)
{
    orig_outcome a, b, scratch;
    outcome_of(&a, 10);
    outcome_of(&b, 20);
    outcome_init(&scratch);
    uint8_t ok[3], src[3];
    ff_error why;
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, &a);
    outcome_append(&raw, 2, &b);
    remote_unit r = frame_answer(&raw, ok, src);
    cr_assert_eq(remote_frame_records_sound(&r, "x.dat", &scratch, &why), 1, "%s", why.reason);
    r.raw_len--;
    cr_assert_eq(remote_frame_records_sound(&r, "x.dat", &scratch, &why), 0, "cut short");
    r.raw_len++;
    ok[1] = REMOTE_RECORD;
    cr_assert_eq(remote_frame_records_sound(&r, "x.dat", &scratch, &why), 0,
                 "clip 1's record is clip 2's");
    ok[1] = 0;
    ok[2] = 0;
    cr_assert_eq(remote_frame_records_sound(&r, "x.dat", &scratch, &why), 0, "bytes after");
    /* A digest of rows the reference has: the cache's form, never an answer's. */
    sb_reset(&raw);
    outcome_append(&raw, 0, &a);
    outcome_append_cached(&raw, 2, &b, &b.t);
    r = frame_answer(&raw, ok, src);
    cr_assert_eq(remote_frame_records_sound(&r, "x.dat", &scratch, &why), 0, "a digest");
    cr_assert(strstr(why.reason, "digest"), "%s", why.reason);
    sb_free(&raw);
    outcome_free(&scratch);
    outcome_free(&a);
    outcome_free(&b);
}

Test(answers, entity_records_an_engine_process_cannot_have_made_are_refused)
{
    ent_outcome a, scratch;
    ent_outcome_init(&a);
    ent_outcome_init(&scratch);
    uint8_t ok[3], src[3];
    ff_error why;
    strbuf raw;
    sb_init(&raw);
    a.t.armed = 1;
    ent_outcome_append(&raw, 0, &a);
    ent_outcome_append(&raw, 2, &a);
    remote_unit r = frame_answer(&raw, ok, src);
    cr_assert_eq(remote_entity_records_sound(&r, 1, &scratch, &why), 1, "%s", why.reason);
    cr_assert_eq(remote_entity_records_sound(&r, 0, &scratch, &why), 0,
                 "an unarmed entity's answer with weapon records");
    r.raw_len -= 4;
    cr_assert_eq(remote_entity_records_sound(&r, 1, &scratch, &why), 0, "cut short");
    sb_free(&raw);
    ent_outcome_free(&scratch);
    ent_outcome_free(&a);
}

/* The convention search's engine process: what the run takes, by how it ended. */
Test(answers, the_search_s_engine_process_fails_only_its_own_sample)
{
    /* Before the executable's first instruction: the engine could not open (exit 1 and an
     * error), or the process was killed (no error). */
    cr_assert_eq(pose_sample_child_end(0, 0, -1, 1), POSE_CHILD_RUN_ERROR);
    cr_assert_eq(pose_sample_child_end(0, 0, -1, 0), POSE_CHILD_NOT_POSED);
    cr_assert_eq(pose_sample_child_end(0, 1, 0, 0), POSE_CHILD_NOT_POSED, "it never started");
    cr_assert_eq(pose_sample_child_end(1, 1, 0, 0), POSE_CHILD_TAKE);
    /* After it: an error written into the shared memory and an exit status, as code that
     * escaped could leave them, fail only the sample. */
    cr_assert_eq(pose_sample_child_end(1, 0, -1, 1), POSE_CHILD_NOT_POSED);
    cr_assert_eq(pose_sample_child_end(1, 1, -1, 1), POSE_CHILD_NOT_POSED);
    cr_assert_eq(pose_sample_child_end(1, 0, 0, 0), POSE_CHILD_NOT_POSED);
}
