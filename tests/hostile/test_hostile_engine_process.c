/*
 * tests/hostile/test_hostile_engine_process.c: engine processes (harness/run/remote.h,
 * docs/engine.md section 9) through the built ff8diff, natively and on Unicorn with
 * --engine-processes (the same processes, so these run on a machine without native
 * code too):
 *   - killed in the middle of a run: the run goes on with a fresh process; the killed
 *     unit's clips are faults of kind engine_process naming the signal, the run says
 *     so, every other clip matches (frame and entity units alike);
 *   - confined: under a seccomp filter with no_new_privs, holding no descriptor but
 *     /dev/null on 0-2, its socket and memory files (no terminal, no report, cache
 *     or corpus file);
 *   - kill -9 of ff8diff: its engine processes die with it;
 *   - SIGTERM while the guest loops: the run ends within 2 s with 143 and a report;
 *   - 1, 2 and 3 jobs give the same results;
 *   - engine processes lost one after another while the other workers run: each fresh
 *     one is the run's child (forked by the run's spawner, harness/run/spawner.h), opens,
 *     and the run ends.
 * The native tests skip, with the reason, where the native engine cannot run.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/emu.h"
#include "tests/hostile/hs.h"

/* The engine arguments of a run on engine (native, or unicorn in engine processes). */
static const char *engine_args(const char *engine)
{
    if (strcmp(engine, "native") == 0) {
        emu_engine_info info;
        ff_error err;
        if (emu_engine_info_get(emu_engine_ops(EMU_ENGINE_NATIVE), &info, 1, &err) < 0)
            cr_skip_test("the native engine cannot run here: %s", err.reason);
        return "--engine native";
    }
    return "--engine unicorn --engine-processes";
}

/* A case as two tests: natively (skipped where native cannot run) and on Unicorn in
 * engine processes. */
#define ON_BOTH_ENGINES(name, fn, secs)                                                            \
    Test(engine_process, native_##name, .timeout = secs) { fn("native"); }                        \
    Test(engine_process, unicorn_##name, .timeout = secs) { fn("unicorn"); }

/* Shell, inside a loop over the run's children $k: skips one that is no engine process
 * (its fd 3 is not a socket) and sets t to its CPU ticks. */
#define ENGINE_CHILD_TICKS                                                                         \
    "case $(readlink /proc/$k/fd/3 2>/dev/null) in socket:*) ;; *) continue ;; esac; "            \
    "t=$(awk '{print $14}' /proc/$k/stat 2>/dev/null); "
/* Shell: sets c to the first worker's engine process of $pid (a child whose fd 3 is its
 * socket: not the convention search's or the spawner's, which hold none) that has used 10 ticks of CPU (a
 * state, not a clock), waiting for it while $pid runs; every child looked at each time. */
#define FIND_WORKED_CHILD                                                                          \
    "c=; for i in $(seq 20000); do for k in $(pgrep -P $pid); do " ENGINE_CHILD_TICKS            \
    "[ \"${t:-0}\" -ge 10 ] && c=$k && break; done; "                                            \
    "[ -n \"$c\" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.01; done; "

/*
 * Runs ff8diff run with engine and args (2 jobs, report in scratch/r) and kills its
 * first engine process once that has worked. Asserts one was killed and the run ended
 * with 1 (the killed unit's faults).
 */
static void run_and_kill_the_engine_process(const char *scratch, const char *engine,
                                            const char *args)
{
    ts_out o;
    ts_sh(scratch, &o,
          "'%s' run %s --jobs 2 %s --no-cache --no-coverage --explain none -q --out '%s/r' & "
          "pid=$!; " FIND_WORKED_CHILD "[ -n \"$c\" ] && kill -9 $c; "
          "wait $pid; echo \"exit $? killed ${c:-none}\"",
          ts_ff8diff(), engine_args(engine), args, scratch);
    cr_assert(!strstr(o.out, "killed none"),
              "no engine process had worked 10 ticks before the run ended: %s\n%s", o.out, o.err);
    cr_assert(strstr(o.out, "exit 1"), "the run did not end with faults (1): %s\n%s", o.out,
              o.err);
    ts_out_free(&o);
}

/* scratch/r's report: over 1000 comparisons of the level, each a match or a fault of
 * kind engine_process naming SIGKILL, some of those, and the loss in the warnings. */
static void the_lost_unit_faults_and_the_rest_match(const char *scratch, int entity)
{
    char *out = ts_path(scratch, "r");
    cJSON *rep = hs_report(out);
    const cJSON *t = cJSON_GetObjectItem(rep, "totals");
    if (entity) t = cJSON_GetObjectItem(t, "entity");
    cr_assert_gt(hs_num(t, "comparisons"), 1000);
    cr_assert_eq(hs_num(t, "comparisons"), hs_num(t, "match") + hs_num(t, "fault"));
    cr_assert_gt(hs_num(t, "fault"), 0, "no clip of the killed unit is a fault");
    const cJSON *rs = cJSON_GetObjectItem(rep, entity ? "entity_results" : "results"), *r;
    cJSON_ArrayForEach(r, rs)
    {
        const cJSON *f = cJSON_GetObjectItem(r, "fault");
        if (!cJSON_IsObject(f)) continue;
        cr_assert_str_eq(hs_str(f, "kind"), "engine_process");
        cr_assert(strstr(hs_str(f, "detail"), "killed by signal 9"), "%s", hs_str(f, "detail"));
    }
    const cJSON *warn = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "run"), "warnings");
    int said = 0;
    for (int i = 0; i < cJSON_GetArraySize(warn); i++) {
        const char *w = cJSON_GetStringValue(cJSON_GetArrayItem(warn, i));
        said |= w && strstr(w, "engine process") && strstr(w, "fresh engine process");
    }
    cr_assert(said, "no warning says an engine process was lost and replaced");
    cJSON_Delete(rep);
    free(out);
}

static void killed_mid_run(const char *engine)
{
    char *scratch = ts_tempdir();
    char *x87 = hs_standin("standin_x87.exe");
    char args[4096];
    /* The vanilla preset's frame level, two modes (on the CPU, which is ten times as fast,
     * all four): seconds of work, so the first engine process is killed with units left
     * (a pose-level unit travels the same way, its cells in the same records; the pose
     * level costs 5 times as much). */
    snprintf(args, sizeof args, "--exe '%s' --preset vanilla --modes %s --levels frame", x87,
             strcmp(engine, "native") == 0 ? "all" : "normal,slow");
    run_and_kill_the_engine_process(scratch, engine, args);
    the_lost_unit_faults_and_the_rest_match(scratch, 0);
    free(x87);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(killed_mid_run_its_unit_faults_and_a_fresh_one_goes_on, killed_mid_run, 900)

static void entity_killed(const char *engine)
{
    char *scratch = ts_tempdir();
    /* One mode of the vanilla preset's entities (on the CPU, three): the same margin. */
    run_and_kill_the_engine_process(scratch, engine,
                                    strcmp(engine, "native") == 0
                                        ? "--preset vanilla --levels entity --modes normal,slow,fast"
                                        : "--preset vanilla --levels entity --modes normal");
    the_lost_unit_faults_and_the_rest_match(scratch, 1);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(entity_units_survive_the_loss, entity_killed, 900)

/* What an engine process holds while it works: its filter and its descriptors. The frame
 * level only: the whole run must end, and on Unicorn 2.0.1 under the sanitizers the pose
 * level of the vanilla preset takes longer than the test's limit. */
static void confined(const char *engine)
{
    char *scratch = ts_tempdir();
    char *x87 = hs_standin("standin_x87.exe");
    ts_out o;
    /* One mode (on the CPU, ten times as fast, all four): the engine process still works
     * when its status is read. */
    ts_sh(scratch, &o,
          "'%s' run %s --jobs 1 --exe '%s' --preset vanilla --modes %s --levels frame "
          "--no-cache --no-coverage --explain none -q --out '%s/r' </dev/null & pid=$!; "
          FIND_WORKED_CHILD
          "grep -E '^(Seccomp|NoNewPrivs):' /proc/$c/status; "
          "for f in /proc/$c/fd/*; do echo \"fd ${f##*/} $(readlink $f)\"; done; "
          "wait $pid; echo \"exit $?\"",
          ts_ff8diff(), engine_args(engine), x87,
          strcmp(engine, "native") == 0 ? "all" : "normal", scratch);
    cr_assert(strstr(o.out, "exit 0"), "the run did not pass: %s\n%s", o.out, o.err);
    cr_assert(strstr(o.out, "Seccomp:\t2"), "no seccomp filter: %s", o.out);
    cr_assert(strstr(o.out, "NoNewPrivs:\t1"), "no no_new_privs: %s", o.out);
    int fds = 0;
    for (char *line = strstr(o.out, "fd "); line; line = strstr(line + 1, "\nfd ")) {
        if (line != o.out && line[0] == '\n') line++;
        char what[512];
        int n = -1;
        cr_assert_eq(sscanf(line, "fd %d %511s", &n, what), 2, "%s", line);
        fds++;
        if (n <= 2)
            cr_expect_str_eq(what, "/dev/null", "fd %d", n);
        else
            cr_expect(strncmp(what, "socket:", 7) == 0 || strncmp(what, "/memfd:", 7) == 0 ||
                          strncmp(what, "anon_inode:", 11) == 0,
                      "fd %d is %s: an engine process holds its socket and memory files only", n,
                      what);
    }
    cr_assert_geq(fds, 4, "%s", o.out);
    ts_out_free(&o);
    free(x87);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(confined, confined, 600)

/* kill -9 of ff8diff: its engine processes end too, never orphaned. */
static void dies_with_the_run(const char *engine)
{
    char *scratch = ts_tempdir();
    char *x87 = hs_standin("standin_x87.exe");
    ts_out o;
    ts_sh(scratch, &o,
          "'%s' run %s --jobs 2 --exe '%s' --preset vanilla --levels frame,pose --no-cache "
          "--no-coverage --explain none -q --out '%s/r' & pid=$!; " FIND_WORKED_CHILD
          "kids=$(pgrep -P $pid); kill -9 $pid; wait $pid; "
          "for i in $(seq 200); do left=; for k in $kids; do "
          "[ -e /proc/$k ] && ! grep -q '^State:.*Z' /proc/$k/status 2>/dev/null && left=$k; "
          "done; [ -z \"$left\" ] && break; sleep 0.01; done; "
          "echo \"children ${kids:-none} left ${left:-none}\"",
          ts_ff8diff(), engine_args(engine), x87, scratch);
    cr_assert(!strstr(o.out, "children none"), "no engine process to look at: %s", o.out);
    cr_assert(strstr(o.out, "left none"), "an engine process outlived the run: %s", o.out);
    ts_out_free(&o);
    free(x87);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(dies_with_the_run, dies_with_the_run, 600)

/* SIGTERM while the guest loops for hours (a budget of 10^12 instructions): 143 within 2 s,
 * a report written. */
static void sigterm_while_the_guest_loops(const char *engine)
{
    char *scratch = ts_tempdir();
    char *loop = hs_standin("standin_hostile_loop.exe");
    ts_out o;
    ts_sh(scratch, &o,
          "'%s' run %s --jobs 2 --exe '%s' --profile standin --budget 1000000000000 --no-cache "
          "--no-coverage --explain none -q --out '%s/r' & pid=$!; " FIND_WORKED_CHILD
          "s=$(awk '{print int($1 * 1000)}' /proc/uptime); kill -TERM $pid; wait $pid; rc=$?; "
          "e=$(awk '{print int($1 * 1000)}' /proc/uptime); "
          "echo \"exit $rc ms $((e - s)) report $(ls '%s'/r/*/report.json | wc -l)\"",
          ts_ff8diff(), engine_args(engine), loop, scratch, scratch);
    int rc = -1, ms = -1, reports = -1;
    const char *at = strstr(o.out, "exit ");
    cr_assert(at && sscanf(at, "exit %d ms %d report %d", &rc, &ms, &reports) == 3, "%s\n%s",
              o.out, o.err);
    cr_expect_eq(rc, 143, "exit status %d, expected 143: %s", rc, o.err);
    cr_expect_leq(ms, 2000, "the run took %d ms to end after SIGTERM", ms);
    cr_expect_eq(reports, 1, "no report of the interrupted run: %s", o.err);
    ts_out_free(&o);
    free(loop);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(sigterm_while_the_guest_loops, sigterm_while_the_guest_loops, 600)

/* 2 and 3 jobs: the results of one, faults (places included), entities and probes. */
static void jobs_give_the_results_of_one(const char *engine)
{
    char *scratch = ts_tempdir();
    char *faulty = hs_standin("standin_faulty.exe");
    ts_out o;
    /* A budget of 2M instructions (every routine needs far fewer): the loops of clip 1
     * end sooner (a run took 0.6 s instead of 3.2 s). */
    for (int jobs = 1; jobs <= 3; jobs++) {
        ts_sh(scratch, &o,
              "'%s' run %s --jobs %d --exe '%s' --modes normal,fast --budget 2000000 "
              "--levels frame,entity --no-cache --no-coverage --explain none -q "
              "--out '%s/r%d'; echo \"exit $?\"",
              ts_ff8diff(), engine_args(engine), jobs, faulty, scratch, jobs);
        cr_assert(strstr(o.out, "exit 1"), "faults fail the run: %s\n%s", o.out, o.err);
        ts_out_free(&o);
    }
    char *d1 = ts_path(scratch, "r1");
    cJSON *a = hs_report(d1);
    for (int jobs = 2; jobs <= 3; jobs++) {
        char name[8];
        snprintf(name, sizeof name, "r%d", jobs);
        char *d2 = ts_path(scratch, name);
        cJSON *b = hs_report(d2);
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
            if (strcmp(hs_str(fx, "kind"), "budget") != 0)
                cr_assert_str_eq(hs_str(fx, "eip"), hs_str(fy, "eip"), "result %d", i);
            cr_assert_str_eq(hs_str(fx, "address"), hs_str(fy, "address"), "result %d", i);
        }
        cr_assert_gt(faults, 0, "the faulty build faults on some clips");
        /* The entity level's, the speed probes' included, as one job gives them. */
        static const char *const keys[] = {"entity_results", "entities"};
        for (size_t k = 0; k < 2; k++) {
            char *x = cJSON_PrintUnformatted(cJSON_GetObjectItem(a, keys[k]));
            char *y = cJSON_PrintUnformatted(cJSON_GetObjectItem(b, keys[k]));
            cr_assert(x && y && strlen(x) > 2, "%s missing", keys[k]);
            cr_assert_str_eq(x, y, "%s with %d jobs", keys[k], jobs);
            free(x);
            free(y);
        }
        cJSON_Delete(b);
        free(d2);
    }
    cJSON_Delete(a);
    free(d1);
    free(faulty);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(two_and_three_jobs_give_the_results_of_one, jobs_give_the_results_of_one, 900)

/*
 * Engine processes killed one after another while the other workers run. A fresh one
 * forked from the running process itself could inherit a lock another thread held at
 * that instant (under AddressSanitizer such processes hung in malloc and the run waited
 * for their hello forever): each comes from the run's spawner, is the run's own child
 * (reparented: PPid is the run), opens its engine, and the run ends with the lost units'
 * faults and every other clip a match.
 */
static void respawned_under_load(const char *engine)
{
    char *scratch = ts_tempdir();
    char *x87 = hs_standin("standin_x87.exe");
    ts_out o;
    /* Rounds of every engine process whose engine is open (its filter is on) killed at
     * once (the workers then ask for fresh ones together, as when a build's clip kills
     * them all). The vanilla preset's frame level in one mode (on the CPU, ten times as
     * fast, all four), so that the run outlasts several rounds. */
    ts_sh(scratch, &o,
          "'%s' run %s --jobs 3 --exe '%s' --preset vanilla --modes %s --levels frame "
          "--no-cache --no-coverage --explain none -q --out '%s/r' & pid=$!; kills=0; parents=; "
          "for round in $(seq 40); do kill -0 $pid 2>/dev/null || break; "
          "for k in $(pgrep -P $pid); do " ENGINE_CHILD_TICKS
          "grep -q '^Seccomp:.2' /proc/$k/status 2>/dev/null || continue; "
          "pp=$(awk '/^PPid:/{print $2}' /proc/$k/status 2>/dev/null); "
          "kill -9 $k 2>/dev/null && kills=$((kills + 1)) && parents=\"$parents ${pp:-0}\"; "
          "done; sleep 0.2; done; "
          "wait $pid; echo \"exit $? kills $kills run $pid parents$parents.\"",
          ts_ff8diff(), engine_args(engine), x87, strcmp(engine, "native") == 0 ? "all" : "normal",
          scratch);
    int rc = -1, kills = -1, run = -1;
    const char *at = strstr(o.out, "exit ");
    cr_assert(at && sscanf(at, "exit %d kills %d run %d", &rc, &kills, &run) == 3, "%s\n%s",
              o.out, o.err);
    cr_assert_eq(rc, 1, "the lost units' faults fail the run: %s\n%s", o.out, o.err);
    cr_assert_geq(kills, 3, "only %d engine processes were killed: %s", kills, o.out);
    const char *p = strstr(at, "parents");
    cr_assert(p);
    p += strlen("parents");
    for (int k = 0; k < kills; k++) {
        int parent = -1, used = 0;
        cr_assert_eq(sscanf(p, " %d%n", &parent, &used), 1, "%s", o.out);
        cr_assert_eq(parent, run, "an engine process's parent is %d, not the run %d", parent,
                     run);
        p += used;
    }
    cr_assert(!strstr(o.err, "did not open its engine"), "a fresh engine process hung: %s",
              o.err);
    ts_out_free(&o);
    char *out = ts_path(scratch, "r");
    cJSON *rep = hs_report(out);
    const cJSON *t = cJSON_GetObjectItem(rep, "totals");
    cr_assert_eq(hs_num(t, "comparisons"), hs_num(t, "match") + hs_num(t, "fault"));
    cr_assert_gt(hs_num(t, "fault"), 0, "no clip of a killed unit is a fault");
    cr_assert_gt(hs_num(t, "match"), 0, "no clip was compared");
    cJSON_Delete(rep);
    free(out);
    free(x87);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(respawned_under_load, respawned_under_load, 900)

/* The report's key as text, the timings left out (none is in these). */
static char *member_text(const cJSON *rep, const char *key)
{
    char *s = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(rep, key));
    cr_assert(s && strlen(s) > 2, "%s missing", key);
    return s;
}

/*
 * The leaf levels in engine processes: a process answers with the original's
 * results and its worker compares (harness/run/remote.h), so the leaf and the
 * pose helpers' results are those of a run in one process, mismatches and
 * their first cases included: mutant a's ReadRotationType differs, and under
 * trig=x87-trunc the helpers' sin and cos differ from the reference's. With
 * --engine both (natively), the worker runs Unicorn and the process the CPU:
 * every case agrees.
 */
static void leaf_levels_compared_by_the_worker(const char *engine)
{
    char *scratch = ts_tempdir();
    char *mut = hs_standin("standin_mut_a.exe");
    const char *runs[3] = {"--engine unicorn", engine_args(engine),
                           strcmp(engine, "native") == 0 ? "--engine both" : NULL};
    cJSON *rep[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3 && runs[k]; k++) {
        ts_out o;
        ts_sh(scratch, &o,
              "'%s' run %s --jobs 2 --exe '%s' --modes normal --levels leaf,pose "
              "--leaf-calls 5000 --pose-options trig=x87-trunc --no-cache --no-coverage "
              "--explain none -q --out '%s/r%d'; echo \"exit $?\"",
              ts_ff8diff(), runs[k], mut, scratch, k);
        cr_assert(strstr(o.out, "exit 1"), "%s: the differences fail the run: %s\n%s", runs[k],
                  o.out, o.err);
        ts_out_free(&o);
        char name[8];
        snprintf(name, sizeof name, "r%d", k);
        char *dir = ts_path(scratch, name);
        rep[k] = hs_report(dir);
        free(dir);
    }
    static const char *const keys[] = {"leaf", "pose_leaf"};
    const cJSON *leaf = cJSON_GetObjectItemCaseSensitive(rep[0], "leaf");
    cr_assert_gt(hs_num(cJSON_GetArrayItem(leaf, 2), "mismatches"), 0, "ReadRotationType");
    const cJSON *sin = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(rep[0], "pose_leaf"), 0);
    cr_assert_gt(hs_num(sin, "mismatches"), 0, "sin under trig=x87-trunc");
    for (size_t i = 0; i < 2; i++) {
        char *alone = member_text(rep[0], keys[i]), *there = member_text(rep[1], keys[i]);
        cr_assert_str_eq(alone, there, "%s in engine processes (%s)", keys[i], runs[1]);
        free(alone);
        free(there);
    }
    if (rep[2]) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(rep[2], "totals"),
                    *le = cJSON_GetObjectItemCaseSensitive(t, "leaf_engines");
        cr_assert_gt(hs_num(le, "calls"), 0);
        cr_assert_eq(hs_num(le, "disagree"), 0, "--engine both at the leaf level");
        for (int i = 0; i < cJSON_GetArraySize(cJSON_GetObjectItem(rep[2], "pose_leaf")); i++) {
            const cJSON *h = cJSON_GetArrayItem(cJSON_GetObjectItem(rep[2], "pose_leaf"), i);
            cr_assert_eq(hs_num(h, "mismatches"),
                         hs_num(cJSON_GetArrayItem(cJSON_GetObjectItem(rep[0], "pose_leaf"), i),
                                "mismatches"),
                         "%s under --engine both", hs_str(h, "role"));
        }
    }
    for (int k = 0; k < 3; k++) cJSON_Delete(rep[k]);
    free(mut);
    ts_rmtree(scratch);
}

ON_BOTH_ENGINES(leaf_levels_compared_by_the_worker, leaf_levels_compared_by_the_worker, 600)
