/*
 * tests/hostile/test_hostile_engine_process.c: a native run's engine process
 * (harness/run/remote.h) killed in the middle of a run, through the built
 * ff8diff: the run goes on, the lost worker's unit and its later ones run on
 * Unicorn in-process, the run says so in report.json's warnings, and every
 * clip is compared and matches, as in a run nothing killed; frame and entity
 * units alike. Skipped, with
 * the reason, where the native engine cannot run (under AddressSanitizer,
 * whose shadow memory lies below 4 GiB).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/emu.h"
#include "tests/hostile/hs.h"

static void need_native(void)
{
    emu_engine_info info;
    ff_error err;
    if (emu_engine_info_get(emu_engine_ops(EMU_ENGINE_NATIVE), &info, 1, &err) < 0)
        cr_skip_test("the native engine cannot run here: %s", err.reason);
}

/*
 * Runs ff8diff with args (a native run with 2 jobs, its report in scratch/r)
 * and kills its engine process once that has worked: 10 ticks of CPU time in
 * /proc/PID/stat (a state, not a clock), long before its units are done.
 * Every child is looked at each time round: the native probe is a
 * short-lived child too, and the first one found may be it. Asserts one was
 * killed and the run passed.
 */
static void run_and_kill_the_engine_process(const char *scratch, const char *args)
{
    ts_out o;
    ts_sh(scratch, &o,
          "'%s' run --engine native --jobs 2 %s --no-cache --no-coverage --explain none -q "
          "--out '%s/r' & "
          "pid=$!; killed=; for i in $(seq 20000); do "
          "for c in $(pgrep -P $pid); do "
          "t=$(awk '{print $14}' /proc/$c/stat 2>/dev/null); "
          "[ \"${t:-0}\" -ge 10 ] && kill -9 $c 2>/dev/null && killed=$c && break; done; "
          "[ -n \"$killed\" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.01; done; "
          "wait $pid; echo \"exit $? killed ${killed:-none}\"",
          ts_ff8diff(), args, scratch);
    cr_assert(!strstr(o.out, "killed none"),
              "no engine process had worked 10 ticks before the run ended: %s\n%s", o.out, o.err);
    cr_assert(strstr(o.out, "exit 0"), "the run did not pass: %s\n%s", o.out, o.err);
    ts_out_free(&o);
}

/* Asserts report.json's warnings say an engine process was lost and Unicorn ran its units. */
static void says_it_was_lost(const cJSON *rep)
{
    const cJSON *warn = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "run"), "warnings");
    int lost = 0;
    for (int i = 0; i < cJSON_GetArraySize(warn); i++) {
        const char *w = cJSON_GetStringValue(cJSON_GetArrayItem(warn, i));
        lost |= w && strstr(w, "engine process") && strstr(w, "lost") && strstr(w, "Unicorn");
    }
    cr_assert(lost, "no warning says the engine process was lost and Unicorn ran its units");
}

/* scratch/r's report: over 1000 comparisons of the level (entity or frame), every one a
 * match, and the loss said. */
static void every_clip_matched_and_the_loss_said(const char *scratch, int entity)
{
    char *out = ts_path(scratch, "r");
    cJSON *rep = hs_report(out);
    const cJSON *t = cJSON_GetObjectItem(rep, "totals");
    if (entity) t = cJSON_GetObjectItem(t, "entity");
    cr_assert_gt(hs_num(t, "comparisons"), 1000);
    cr_assert_eq(hs_num(t, "comparisons"), hs_num(t, "match"));
    says_it_was_lost(rep);
    cJSON_Delete(rep);
    free(out);
}

Test(engine_process, killed_mid_run_its_units_run_on_unicorn_and_every_clip_is_compared,
     .timeout = 900)
{
    need_native();
    char *scratch = ts_tempdir();
    char *x87 = hs_standin("standin_x87.exe");
    char args[4096];
    /* The pose level on the x87 build: seconds of work natively, the engine process
     * starting after the pose search. */
    snprintf(args, sizeof args, "--exe '%s' --preset vanilla --modes normal --levels frame,pose",
             x87);
    run_and_kill_the_engine_process(scratch, args);
    every_clip_matched_and_the_loss_said(scratch, 0);
    free(x87);
    ts_rmtree(scratch);
}

/* The entity level's units go to engine processes too: an entity-only run whose engine
 * process is killed once it has worked (it worked: it was sent entity units). */
Test(engine_process, entity_units_run_in_the_engine_process_and_survive_its_loss, .timeout = 900)
{
    need_native();
    char *scratch = ts_tempdir();
    run_and_kill_the_engine_process(scratch, "--preset vanilla --levels entity");
    every_clip_matched_and_the_loss_said(scratch, 1);
    ts_rmtree(scratch);
}

/* Three jobs: two engine processes, each of which must see its own EOF at the end (a
 * sibling holding the other's socket once kept a run from ending). */
Test(engine_process, native_two_and_three_jobs_give_the_results_of_one, .timeout = 900)
{
    need_native();
    char *scratch = ts_tempdir();
    char *faulty = hs_standin("standin_faulty.exe");
    ts_out o;
    for (int jobs = 1; jobs <= 3; jobs++) {
        ts_sh(scratch, &o,
              "'%s' run --engine native --jobs %d --exe '%s' --modes normal,fast "
              "--levels frame,entity --no-cache --no-coverage --explain none -q "
              "--out '%s/r%d'; echo \"exit $?\"",
              ts_ff8diff(), jobs, faulty, scratch, jobs);
        cr_assert(strstr(o.out, "exit 1"), "faults fail the run: %s\n%s", o.out, o.err);
        ts_out_free(&o);
    }
    for (int jobs = 2; jobs <= 3; jobs++) {
    char *d1 = ts_path(scratch, "r1"), *d2 = ts_path(scratch, jobs == 2 ? "r2" : "r3");
    cJSON *a = hs_report(d1), *b = hs_report(d2);
    const cJSON *ra = cJSON_GetObjectItem(a, "results"), *rb = cJSON_GetObjectItem(b, "results");
    cr_assert_eq(cJSON_GetArraySize(ra), cJSON_GetArraySize(rb));
    int faults = 0;
    for (int i = 0; i < cJSON_GetArraySize(ra); i++) {
        const cJSON *x = cJSON_GetArrayItem(ra, i), *y = cJSON_GetArrayItem(rb, i);
        cr_assert_str_eq(hs_str(x, "status"), hs_str(y, "status"), "result %d", i);
        const cJSON *fx = cJSON_GetObjectItem(x, "fault"), *fy = cJSON_GetObjectItem(y, "fault");
        if (!cJSON_IsObject(fx)) continue;
        faults++;
        cr_assert_str_eq(hs_str(fx, "kind"), hs_str(fy, "kind"), "result %d", i);
        cr_assert_str_eq(hs_str(fx, "eip"), hs_str(fy, "eip"), "result %d", i);
        cr_assert_str_eq(hs_str(fx, "address"), hs_str(fy, "address"), "result %d", i);
    }
    cr_assert_gt(faults, 0, "the faulty build faults on some clips");
    /* The entity level's, the speed probes' included, as one job gives them. */
    const cJSON *ea = cJSON_GetObjectItem(a, "entity_results"),
                *eb = cJSON_GetObjectItem(b, "entity_results");
    cr_assert_gt(cJSON_GetArraySize(ea), 0);
    cr_assert_eq(cJSON_GetArraySize(ea), cJSON_GetArraySize(eb));
    for (int i = 0; i < cJSON_GetArraySize(ea); i++) {
        char *x = cJSON_PrintUnformatted(cJSON_GetArrayItem(ea, i));
        char *y = cJSON_PrintUnformatted(cJSON_GetArrayItem(eb, i));
        cr_assert_str_eq(x, y, "entity result %d", i);
        free(x);
        free(y);
    }
    char *qa = cJSON_PrintUnformatted(cJSON_GetObjectItem(a, "entities"));
    char *qb = cJSON_PrintUnformatted(cJSON_GetObjectItem(b, "entities"));
    cr_assert_str_eq(qa, qb, "entities (speed probes)");
    free(qa);
    free(qb);
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(d1);
    free(d2);
    }
    free(faulty);
    ts_rmtree(scratch);
}
