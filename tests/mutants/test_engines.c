/*
 * tests/mutants/test_engines.c: which engine does what in a run. The run's
 * calls go to the engine asked for; on an engine without hooks (the native
 * one has none) coverage is not recorded, with the reason in the results,
 * and the replays after the run (write watches, read logs) go to an engine
 * that has them, so mutant c still gets its one cause, named as on
 * Unicorn. A Unicorn table stripped of every hook stands for an engine
 * without hooks everywhere (also under AddressSanitizer); the native
 * engine itself is run where this process can run it, and the test is
 * skipped with the reason where it cannot.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/emu_impl.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

/* Unicorn's table with every hook removed, flags and entries alike: caps 0, as native's. */
static emu_ops hookless(void)
{
    emu_ops o = *emu_engine_ops(EMU_ENGINE_UNICORN);
    o.caps = 0;
    o.last_insns = NULL, o.set_budget = NULL;
    o.stub_return = NULL, o.stub_set = NULL;
    o.watch_writes = NULL, o.watch_reset = NULL, o.watch_result = NULL, o.unwatch = NULL;
    o.cover_start = NULL, o.cover_stop = NULL;
    o.calls_start = NULL, o.calls_armed = NULL, o.calls_record = NULL, o.calls_taken = NULL;
    o.calls_stop = NULL;
    return o;
}

/* Mutant c (ReadBoneScale returns 0 for an absent scale) over its corpus on engine ops. */
static void run_c(const emu_ops *ops, run_results *r, char **dir)
{
    const mt_mutant *m = mt_mutant_named("c");
    *dir = ts_tempdir();
    mt_write_mutant(*dir, m);
    emu_image *img = mt_image(m->exe);
    run_config cfg;
    mt_config(&cfg, *dir, img, 1);
    cfg.game.engine = ops;
    mt_execute(&cfg, r);
    emu_image_free(img);
    cr_assert_eq(r->totals.by_status[RES_MISMATCH], m->nexpect, "%llu mismatches",
                 (unsigned long long)r->totals.by_status[RES_MISMATCH]);
}

/* The one cause of mutant c, explained by a replay with read logs; each group's writer watched. */
static void assert_explained(const run_results *r)
{
    cr_assert_eq(r->ncauses, 1, "%zu causes (first: %s; groups %zu, first's explanation %d %s)",
                 r->ncauses, r->ncauses ? r->causes[0].statement : "-", r->ngroups,
                 r->ngroups ? (int)r->groups[0].expl.state : -1,
                 r->ngroups ? r->groups[0].expl.note : "");
    cr_assert_str_eq(r->causes[0].kind, "read", "%s", r->causes[0].statement);
    cr_assert_str_eq(r->causes[0].routine, "ReadBoneScale", "%s", r->causes[0].statement);
    for (size_t g = 0; g < r->ngroups; g++) {
        const res_group *grp = &r->groups[g];
        if (strcmp(grp->level, "frame") != 0 || grp->example < 0) continue;
        cr_assert_eq(grp->expl.state, RES_EXPL_READ, "group %zu: %s", g, grp->expl.note);
        cr_assert(grp->have_writer || !strstr(grp->writer_note, "replay failed"),
                  "group %zu: %s", g, grp->writer_note);
    }
}

/* What a run on an engine of kind `kind` without hooks must say it did. */
static void assert_hookless_story(const run_results *r, const char *kind)
{
    char want[160];
    cr_assert_str_eq(r->engines.calls, kind);
    cr_assert(r->coverage.enabled, "coverage was asked for (the default)");
    snprintf(want, sizeof want,
             "the %s engine has no coverage hooks; run with --engine unicorn to record it", kind);
    cr_assert_str_eq(r->coverage.not_recorded, want);
    cr_assert_eq(r->coverage.nroutines, 0, "no table of zeros: %u routines", r->coverage.nroutines);
    cr_assert_str_eq(r->engines.coverage, "", "no engine recorded coverage");
    cr_assert_str_eq(r->engines.replays, "unicorn");
    snprintf(want, sizeof want,
             "explanations replayed on unicorn: the %s engine has no recording of the calls of "
             "chosen routines (read logs)",
             kind);
    cr_assert(strstr(r->engines.replays_why, want), "'%s' not in '%s'", want,
              r->engines.replays_why);
    snprintf(want, sizeof want,
             "write watches replayed on unicorn: the %s engine has no write watch naming the "
             "instruction that wrote",
             kind);
    cr_assert(strstr(r->engines.replays_why, want), "'%s' not in '%s'", want,
              r->engines.replays_why);
}

Test(engines, unicorn_does_everything_itself)
{
    run_results r;
    char *dir;
    run_c(NULL, &r, &dir);
    assert_explained(&r);
    cr_assert_str_eq(r.engines.calls, "unicorn");
    cr_assert_str_eq(r.engines.replays, "unicorn");
    cr_assert_str_eq(r.engines.replays_why, "", "%s", r.engines.replays_why);
    cr_assert_str_eq(r.engines.coverage, "unicorn");
    cr_assert_str_eq(r.coverage.not_recorded, "");
    cr_assert_gt(r.coverage.nroutines, 0);
    run_results_free(&r);
    ts_rmtree(dir);
}

Test(engines, an_engine_without_hooks_records_no_coverage_and_replays_on_unicorn)
{
    emu_ops ops = hookless();
    run_results r;
    char *dir;
    run_c(&ops, &r, &dir);
    assert_explained(&r);
    assert_hookless_story(&r, "unicorn");
    run_results_free(&r);
    ts_rmtree(dir);
}

Test(engines, native_records_no_coverage_and_replays_on_unicorn)
{
    const emu_ops *nat = emu_engine_ops(EMU_ENGINE_NATIVE);
    if (!nat) cr_skip_test("the native engine is not built into this program");
    emu_engine_info info;
    ff_error err;
    ff_error_clear(&err);
    if (emu_engine_info_get(nat, &info, 1, &err) < 0)
        cr_skip_test("the native engine cannot run in this process: %s", err.reason);
    run_results r;
    char *dir;
    run_c(nat, &r, &dir);
    assert_explained(&r);
    assert_hookless_story(&r, "native");
    run_results_free(&r);
    ts_rmtree(dir);
}
