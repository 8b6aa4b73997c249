/*
 * tests/mutants/test_both_run.c: --engine both over whole runs on the
 * lockstep mutants' corpus (mt_corpus.c): Unicorn and native agree on
 * every frame and entity clip with one job and two, and a second engine
 * whose calls answer otherwise (Unicorn's call with bit 0 of EAX flipped)
 * disagrees at the frame, entity and leaf levels, while its pose helpers'
 * off-by-one answers count as the x87 class.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/emu_impl.h"
#include "harness/core/verdict.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

static void run_cfg(run_config *cfg, run_results *r)
{
    mt_execute(cfg, r);
    cr_assert(!r->interrupted);
}

/*
 * --engine both: every call on Unicorn (the run's engine) and natively, with
 * one job (the second engine in-process) and two (the second worker's in its
 * engine process): every frame and entity clip is compared on both engines
 * and agrees, and the results are those of a Unicorn run alone.
 */
Test(both_run, both_engines_compare_every_frame_and_entity_clip, .timeout = 300)
{
    const emu_ops *nat = emu_engine_ops(EMU_ENGINE_NATIVE);
    emu_engine_info info;
    ff_error err;
    if (!nat || emu_engine_info_get(nat, &info, 1, &err) < 0)
        cr_skip_test("the native engine cannot run here");
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin_mut_i.exe");
    run_results alone, r[2];
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 1);
    cfg.game.engine = emu_engine_ops(EMU_ENGINE_UNICORN);
    run_cfg(&cfg, &alone);
    for (int j = 0; j < 2; j++) {
        mt_config_entity(&cfg, dir, img, (unsigned)j + 1);
        cfg.game.engine = emu_engine_ops(EMU_ENGINE_UNICORN);
        cfg.second = nat;
        cfg.dedup = 0; /* as the command line sets it under --engine both */
        run_cfg(&cfg, &r[j]);
        mt_same_entities(&alone, &r[j], j ? "both, 2 jobs" : "both, 1 job");
        cr_assert_gt(r[j].nentity_results, 0);
        for (size_t i = 0; i < r[j].nentity_results; i++) {
            const clip_result *c = &r[j].entity_results[i].r;
            if (c->status == RES_BAD_INPUT) continue;
            cr_assert_eq(c->eng.state, RES_ENG_AGREE, "%d jobs: entity result %zu: %s", j + 1, i,
                         res_eng_name(c->eng.state));
        }
        for (size_t i = 0; i < r[j].nresults; i++)
            if (r[j].results[i].status != RES_BAD_INPUT)
                cr_assert_eq(r[j].results[i].eng.state, RES_ENG_AGREE, "%d jobs: result %zu", j + 1,
                             i);
        const run_totals *t = &r[j].totals;
        cr_assert_eq(t->entity_engines[RES_ENG_AGREE] + t->entity_engines[RES_ENG_NONE],
                     r[j].nentity_results);
        cr_assert_gt(t->entity_engines[RES_ENG_AGREE], 0);
        cr_assert_eq(t->entity_engines[RES_ENG_DISAGREE], 0);
    }
    run_results_free(&alone);
    for (int j = 0; j < 2; j++)
        run_results_free(&r[j]);
    emu_image_free(img);
    ts_rmtree(dir);
}

/* Unicorn's call with bit 0 of EAX flipped on the way out: an engine that answers otherwise. */
static int flipped_call(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                        emu_fault *fault, const emu_rewind *rw)
{
    int rc = emu_engine_ops(EMU_ENGINE_UNICORN)->call(e, addr, args, nargs, eax, fault, rw);
    if (rc == 0) *eax ^= 1;
    return rc;
}

/*
 * --engine both with a second engine whose every call returns another EAX:
 * the frame level's clips, the entity level's and the leaf level's cases
 * all disagree, the first leaf disagreement shows both answers, and the run
 * fails on it though the run's own engine matches the reference throughout.
 */
/*
 * A normal-mode run of the stand-in with the leaf level (leaf_calls cases),
 * the entity level (entity) or the pose level (else), on Unicorn with that
 * flipped engine as --engine both's second.
 */
static void run_flipped(int entity, uint64_t leaf_calls, run_results *r)
{
    emu_ops other = *emu_engine_ops(EMU_ENGINE_UNICORN);
    other.call = flipped_call;
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin.exe");
    run_config cfg;
    mt_config(&cfg, dir, img, 1);
    cfg.entity_level = entity;
    cfg.pose_level = !entity;
    ref_pose_opts_default(&cfg.pose_opts);
    cfg.game.engine = emu_engine_ops(EMU_ENGINE_UNICORN);
    cfg.second = &other;
    cfg.dedup = 0;
    cfg.leaf_level = 1;
    cfg.leaf_calls = leaf_calls;
    cfg.modes = 1u << MODE_NORMAL;
    run_cfg(&cfg, r);
    emu_image_free(img);
    ts_rmtree(dir);
}

Test(both_run, a_second_engine_that_answers_otherwise_disagrees_at_every_level)
{
    run_results r;
    run_flipped(1, 2000, &r);
    const run_totals *t = &r.totals;
    cr_assert_eq(t->by_status[RES_MISMATCH] + t->entity_by_status[RES_MISMATCH], 0,
                 "the run's engine is the stand-in, as the reference");
    cr_assert_gt(t->engines[RES_ENG_DISAGREE], 0);
    cr_assert_gt(t->entity_engines[RES_ENG_DISAGREE], 0);
    cr_assert_gt(t->leaf_engine_calls, 0);
    cr_assert_eq(t->leaf_engine_disagree, t->leaf_engine_calls, "every EAX differs");
    const leaf_both *b = &r.leaf[0].eng;
    cr_assert(b->have_first);
    cr_assert_eq(b->first.index, 0, "the first disagreement is the first case");
    cr_assert_eq(b->first.ref_ax ^ b->first.orig_ax, 1, "AX %d against %d", b->first.ref_ax,
                 b->first.orig_ax);
    cr_assert_eq(b->fault_first, EMU_FAULT_NONE);
    cr_assert_eq(verdict_decide(t, 0), VERDICT_BY_DIFFERENCES);
    run_results_free(&r);
}

/*
 * The pose helpers' leaf level under --engine both, with the same second
 * engine: sin and cos return their value in EAX, so every angle comes back
 * off by one (the x87 class, not a disagreement); the matrix helpers answer
 * in memory, untouched, and agree.
 */
Test(both_run, pose_helpers_off_by_one_on_the_second_engine_are_the_x87_class, .timeout = 300)
{
    run_results r;
    run_flipped(0, 100, &r);
    cr_assert_eq(r.npose_leaf, POSE_LEAF_HELPERS);
    unsigned trig = 0, matrix = 0;
    for (size_t h = 0; h < r.npose_leaf; h++) {
        const pose_leaf_result *p = &r.pose_leaf[h];
        if (!p->ran) continue;
        trig += p->trig != 0;
        matrix += !p->trig;
        cr_assert_eq(p->eng_calls, p->calls, "%s", p->role);
        cr_assert_eq(p->eng_disagree, 0, "%s: %s", p->role, p->eng_first);
        if (p->trig) {
            cr_assert_eq(p->eng_x87, p->calls, "%s: every angle off by one", p->role);
            cr_assert(strstr(p->eng_first, "differ by 1 at most"), "%s", p->eng_first);
        } else {
            cr_assert_eq(p->eng_x87, 0, "%s: %s", p->role, p->eng_first);
        }
    }
    cr_assert_eq(trig, 2, "sin and cos ran");
    cr_assert_gt(matrix, 0, "a matrix helper ran");
    run_results_free(&r);
}
