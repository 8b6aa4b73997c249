/*
 * tests/cli/test_cli_run.c: `ff8diff run` as a user meets it: exit codes
 * (0 all match, 1 mismatches, 2 bad input or usage), the report folder and
 * its files, the progress line staying off when stderr is not a terminal,
 * and SIGINT: a valid partial report marked interrupted, exit 130.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu/engine/emu.h"
#include "tests/support/ts.h"

static char *scratch;

static void setup(void)
{
    scratch = ts_tempdir();
}

static void cleanup(void)
{
    ts_rmtree(scratch);
}

static char *variant(const char *name)
{
    return ts_standin(name);
}

Test(run_cli, clean_run_exits_0_with_every_report_file, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *out = ts_path(scratch, "reports");
    /* On Unicorn whatever FF8DIFF_ENGINE says: its version facts and capabilities are checked. */
    ts_cli(scratch, &o, "run --engine unicorn --out '%s' --modes normal,fast", out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "report: "), "%s", o.out);
    cr_assert(!strstr(o.err, "\r["), "a progress line without a terminal: %s", o.err);
    size_t n;
    char **names = ts_dat_names(out, &n); /* none: report folders hold no .dat */
    free(names);
    cJSON *r = ts_report(out);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    cr_assert(ts_num(r, "totals.match") > 0);
    /* The engine the original ran on, as the library reports it, named everywhere. */
    emu_engine_info info;
    cr_assert_eq(emu_engine_info_get(NULL, &info, 0, NULL), 0);
    const cJSON *en = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "tool"),
                                          "engine");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(en, "kind")), "unicorn");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(en, "version")), info.version);
    const cJSON *caps = cJSON_GetObjectItem(en, "capabilities");
    cr_assert_eq(cJSON_GetArraySize(caps), EMU_CAP__COUNT, "Unicorn has every capability");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(caps, EMU_CAP_WATCH)),
                     emu_cap_name(EMU_CAP_WATCH));
    cr_assert_null(cJSON_GetObjectItem(en, "limits"), "Unicorn names nothing it does not see");
    const cJSON *uc = cJSON_GetObjectItem(en, "unicorn");
    char path[16];
    snprintf(path, sizeof path, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(uc, "store_path")));
    cr_assert(!strcmp(path, "fast") || !strcmp(path, "slow"), "%s", path);
    char line[96];
    snprintf(line, sizeof line, "engine: unicorn %s, %s stores", info.version, path);
    cr_assert(strstr(o.out, line), "no '%s' in: %s", line, o.out);
    cJSON_Delete(r);
    ts_out_free(&o);
    ts_cli(scratch, &o, "--version");
    cr_assert(strstr(o.out, line), "no '%s' in: %s", line, o.out);
    ts_out_free(&o);
    ts_sh(scratch, &o, "ls '%s'/*/index.html '%s'/*/summary.md '%s'/*/junit.xml '%s'/*/report.json",
          out, out, out, out);
    cr_assert_eq(o.status, 0, "report files missing: %s", o.err);
    ts_out_free(&o);
    free(out);
}

/*
 * --levels frame,entity on the small preset: its 8 entities compared (41 clips per mode,
 * corpus/README.md), nothing to report; the lockstep mutant j (QueueAnimation never starts
 * the weapon) fails every clip of both armed pairs at the entity level alone: exit 1.
 */
Test(run_cli, entity_level, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *out = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run -q --out '%s' --modes normal --levels frame,entity", out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "entity: 8 entities, 41 comparisons, 41 match"), "%s", o.out);
    ts_out_free(&o);
    cJSON *r = ts_report(out);
    cr_assert_eq(ts_num(r, "totals.entity.comparisons"), 41);
    cr_assert_eq(ts_num(r, "totals.entity.armed"), 2);
    cJSON_Delete(r);
    ts_sh(scratch, &o, "rm -rf '%s'", out);
    ts_out_free(&o);
    char *mut = variant("standin_mut_j.exe");
    ts_cli(scratch, &o, "run -q --exe '%s' --profile standin --out '%s' --modes normal --levels "
                        "frame,entity",
           mut, out);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    ts_out_free(&o);
    r = ts_report(out);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0, "the frame level does not call QueueAnimation");
    cr_assert_eq(ts_num(r, "totals.entity.mismatch"), 12, "d4c009's 6 clips with each weapon");
    cJSON_Delete(r);
    ts_sh(scratch, &o, "ls '%s'/*/report.json", out);
    o.out[strcspn(o.out, "\n")] = '\0';
    ts_assert_valid(scratch, o.out);
    ts_out_free(&o);
    free(mut);
    free(out);
}

/* The only report.json under out (one run), as a path (caller frees). */
static char *only_report(const char *out)
{
    ts_out o;
    ts_sh(scratch, &o, "ls '%s'/*/report.json", out);
    o.out[strcspn(o.out, "\n")] = '\0';
    char *path = strdup(o.out);
    ts_out_free(&o);
    return path;
}

/*
 * The pose level on the 64-bit width variant: the search names width=64 by evidence, and
 * the report says what decided each choice; given width=32 it mismatches on world
 * translations (placed[i].t.*, a per-bone field outside bone[i]). Both reports validate.
 */
Test(run_cli, pose_width_searched_and_given, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *exe = variant("standin_width64.exe"), *out = ts_path(scratch, "w");
    ts_cli(scratch, &o, "run -q --exe '%s' --profile standin --out '%s/search' --modes normal "
                        "--levels frame,pose --no-cache",
           exe, out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "width-vec=64 (searched"), "%s", o.out);
    cr_assert(strstr(o.out, "pose width-t=64: evidence"), "%s", o.out);
    cr_assert(strstr(o.out, "pose width-vec=64: evidence"), "%s", o.out);
    cr_assert(strstr(o.out, "pose width-cols=32: undecided"), "%s", o.out);
    ts_out_free(&o);
    char *dir = ts_path(out, "search"), *path = only_report(dir);
    ts_assert_valid(scratch, path);
    free(path);
    free(dir);
    ts_cli(scratch, &o, "run -q --exe '%s' --profile standin --out '%s/given' --modes normal "
                        "--levels frame,pose --no-cache --explain none --pose-options "
                        "order=yxz," TS_STANDIN_TAIL ",width=32",
           exe, out);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    ts_out_free(&o);
    dir = ts_path(out, "given");
    path = only_report(dir);
    ts_assert_valid(scratch, path);
    free(path);
    free(dir);
    free(out);
    free(exe);
}

/* The string at report.json's run.pose.contradicted.<key> ("" when absent). */
static const char *contradicted_str(const cJSON *r, const char *key)
{
    const cJSON *c = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "pose"), "contradicted");
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(c, key));
    return s ? s : "";
}

/*
 * The stand-in given order=zyx (it follows yxz): the run says the executable's poses
 * follow order=yxz, not the given order=zyx, before the causes, whose every one is
 * marked a consequence; report.json records it (valid), and summary.md says it before
 * its first cause. Given its own convention, nothing mismatches and nothing is said.
 */
Test(run_cli, pose_options_contradicted_by_the_executable, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *exe = variant("standin.exe"), *out = ts_path(scratch, "c");
    ts_cli(scratch, &o, "run -q --exe '%s' --profile standin --out '%s' --modes normal "
                        "--levels frame,pose --no-cache --pose-options order=zyx," TS_STANDIN_TAIL,
           exe, out);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    const char *say = strstr(o.out, "the executable's poses follow order=yxz, not the given "
                                    "order=zyx, on ");
    const char *cause = strstr(o.out, "  cause 0 (");
    cr_assert(say && cause && say < cause, "the sentence before the causes: %s", o.out);
    cr_assert_eq(ts_count(o.out, "  cause "),
                 ts_count(o.out, "[a consequence of the convention given]"), "%s", o.out);
    cJSON *r = ts_report(out);
    cr_assert_str_eq(contradicted_str(r, "given"), "order=zyx");
    cr_assert_str_eq(contradicted_str(r, "found"), "order=yxz");
    cr_assert_str_eq(contradicted_str(r, "convention"), TS_STANDIN_POSE);
    double states = ts_num(r, "run.pose.contradicted.states");
    cr_assert_gt(states, 0);
    cr_assert_eq(ts_num(r, "run.pose.contradicted.states_found"), states);
    cr_assert_lt(ts_num(r, "run.pose.contradicted.states_given"), states);
    char n[32];
    snprintf(n, sizeof n, "on %.0f of %.0f states", states, states);
    cr_assert(strstr(say, n), "no '%s' in: %s", n, o.out);
    const cJSON *causes = cJSON_GetObjectItem(r, "causes");
    cr_assert_gt(cJSON_GetArraySize(causes), 0);
    const cJSON *c;
    cJSON_ArrayForEach(c, causes)
        cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c, "consequence_of")),
                         "pose_options");
    cJSON_Delete(r);
    ts_out_free(&o);
    char *md = ts_run_file(out, "summary.md"), *text = ts_read(md, NULL);
    cr_assert_not_null(text, "%s", md);
    const char *banner = strstr(text, "The convention given is contradicted: the executable's "
                                      "poses follow order=yxz, not the given order=zyx");
    cr_assert(banner && strstr(text, "### Cause 0") && banner < strstr(text, "### Cause 0"),
              "%s", text);
    free(text);
    free(md);
    ts_sh(scratch, &o, "ls '%s'/*/report.json", out);
    o.out[strcspn(o.out, "\n")] = '\0';
    ts_assert_valid(scratch, o.out);
    ts_out_free(&o);
    ts_sh(scratch, &o, "rm -rf '%s'", out);
    ts_out_free(&o);
    ts_cli(scratch, &o, "run -q --exe '%s' --profile standin --out '%s' --modes normal "
                        "--levels frame,pose --no-cache --pose-options " TS_STANDIN_POSE,
           exe, out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(!strstr(o.out, "the executable's poses follow"), "%s", o.out);
    ts_out_free(&o);
    r = ts_report(out);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "pose"), "contradicted")));
    cJSON_Delete(r);
    free(out);
    free(exe);
}

Test(run_cli, mismatches_exit_1_bad_input_exits_2, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *mut = variant("standin_mut_b.exe");
    ts_cli(scratch, &o, "run -q --exe '%s' --profile standin --out '%s/r1'", mut, scratch);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "unknown build"), "the warning is printed: %s", o.err);
    ts_out_free(&o);
    /* A corpus with one good file and one cut short. */
    char *corpus = ts_corpus(scratch), *src = ts_path(corpus, "c0m000.dat");
    char *dir = ts_path(scratch, "mixed");
    ts_sh(scratch, &o, "mkdir -p '%s' && cp '%s' '%s/' && head -c 100 '%s' > '%s/c0m900.dat'",
          dir, src, dir, src, dir);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    ts_cli(scratch, &o, "run -q --corpus '%s' --out '%s/r2'", dir, scratch);
    cr_assert_eq(o.status, 2, "bad input and no mismatch: exit 2 (%s)", o.out);
    ts_out_free(&o);
    ts_cli(scratch, &o, "run --jobs 0");
    cr_assert_eq(o.status, 2);
    ts_out_free(&o);
    ts_cli(scratch, &o, "run --levels frames");
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "--levels"), "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "run --exe '%s/none.exe'", scratch);
    cr_assert_eq(o.status, 2);
    ts_out_free(&o);
    /* run takes no operands: a corpus given without --corpus is refused, not ignored. */
    ts_cli(scratch, &o, "run -q '%s'", dir);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "run: unexpected argument"), "%s", o.err);
    ts_out_free(&o);
    free(dir);
    free(src);
    free(corpus);
    free(mut);
}

/*
 * After the verdict line, the terminal names the first bad inputs, each file
 * once (not once per mode), then how many more the report holds.
 */
Test(run_cli, the_first_problems_are_named_then_counted, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *corpus = ts_corpus(scratch), *src = ts_path(corpus, "c0m000.dat");
    char *dir = ts_path(scratch, "cut");
    /* Seven files cut short (c0m901..c0m907), each bad input in all 4 modes. */
    ts_sh(scratch, &o,
          "mkdir -p '%s' && for i in 1 2 3 4 5 6 7; do head -c 100 '%s' > \"%s/c0m90$i.dat\"; done",
          dir, src, dir);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    ts_cli(scratch, &o, "run -q --modes all --corpus '%s' --out '%s/r'", dir, scratch);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    for (int i = 1; i <= 5; i++) {
        char want[64];
        snprintf(want, sizeof want, "bad input: c0m90%d.dat: ", i);
        cr_assert_eq(ts_count(o.err, want), 1, "c0m90%d named once: %s", i, o.err);
    }
    cr_assert_eq(ts_count(o.err, "c0m906.dat"), 0, "%s", o.err);
    cr_assert(strstr(o.err, "and 2 more bad inputs: see the report"), "%s", o.err);
    ts_out_free(&o);
    free(dir);
    free(src);
    free(corpus);
}

/* The summary line naming the engine ("engine: native ..."), or "" when there is none. */
static char *engine_line(const char *out)
{
    const char *l = strstr(out, "engine: ");
    size_t n = l ? strcspn(l, "\n") : 0;
    char *s = malloc(n + 1);
    cr_assert(s);
    memcpy(s, l ? l : "", n);
    s[n] = 0;
    return s;
}

/*
 * FF8DIFF_ENGINE sets the default of --engine: a value that is no engine is
 * a usage error naming the variable, the option wins over it, and set to
 * native it does what --engine native does here (runs natively, or is
 * refused for the same reason where native cannot run). Empty is unset.
 */
Test(run_cli, ff8diff_engine_sets_the_default_of_engine, .init = setup, .fini = cleanup)
{
    const char *common = "run -q --no-cache --no-coverage --jobs 1 --modes normal";
    ts_out o;
    ts_sh(scratch, &o, "FF8DIFF_ENGINE=qemu '%s' %s", ts_ff8diff(), common);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "FF8DIFF_ENGINE=qemu: expected unicorn, native, auto or both"), "%s",
              o.err);
    ts_out_free(&o);
    ts_sh(scratch, &o, "FF8DIFF_ENGINE=qemu '%s' %s --engine unicorn --out '%s/r1'", ts_ff8diff(),
          common, scratch);
    cr_assert_eq(o.status, 0, "the option wins: %s%s", o.out, o.err);
    cr_assert(strstr(o.out, "engine: unicorn "), "%s", o.out);
    ts_out_free(&o);
    ts_sh(scratch, &o, "FF8DIFF_ENGINE= '%s' %s --out '%s/r2'", ts_ff8diff(), common, scratch);
    cr_assert_eq(o.status, 0, "empty is unset: %s%s", o.out, o.err);
    cr_assert(strstr(o.out, "engine: unicorn "), "%s", o.out);
    ts_out_free(&o);
    ts_out opt, env;
    ts_sh(scratch, &opt, "env -u FF8DIFF_ENGINE '%s' %s --engine native --out '%s/r3'",
          ts_ff8diff(), common, scratch);
    ts_sh(scratch, &env, "FF8DIFF_ENGINE=native '%s' %s --out '%s/r4'", ts_ff8diff(), common,
          scratch);
    cr_assert_eq(env.status, opt.status, "--engine native: %s%s\nFF8DIFF_ENGINE=native: %s%s",
                 opt.out, opt.err, env.out, env.err);
    char *a = engine_line(opt.out), *b = engine_line(env.out);
    cr_assert_str_eq(b, a);
    if (opt.status == 0)
        cr_assert(strstr(a, "engine: native "), "%s", a);
    else
        cr_assert(strstr(env.err, "FF8DIFF_ENGINE=native cannot run here: "), "%s", env.err);
    free(a);
    free(b);
    ts_out_free(&opt);
    ts_out_free(&env);
}

/*
 * FF8DIFF_JOBS sets the default of --jobs (the suite gives every run 1): the
 * run takes that many workers, the option wins over it, and a value that is
 * no number of jobs is a usage error naming the variable.
 */
Test(run_cli, ff8diff_jobs_sets_the_default_of_jobs, .init = setup, .fini = cleanup)
{
    const char *common = "run -q --no-cache --no-coverage --engine unicorn --modes normal";
    ts_out o;
    ts_sh(scratch, &o, "FF8DIFF_JOBS=many '%s' %s", ts_ff8diff(), common);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "FF8DIFF_JOBS='many' is not a number of jobs (1..256)"), "%s", o.err);
    ts_out_free(&o);
    const char *runs[][2] = {{"FF8DIFF_JOBS=2", ""}, {"FF8DIFF_JOBS=2", "--jobs 1"},
                             {"FF8DIFF_JOBS=1", ""}};
    const double want[] = {2, 1, 1};
    for (int i = 0; i < 3; i++) {
        char *out = ts_path(scratch, i == 0 ? "j0" : i == 1 ? "j1" : "j2");
        ts_sh(scratch, &o, "%s '%s' %s %s --out '%s'", runs[i][0], ts_ff8diff(), common,
              runs[i][1], out);
        cr_assert_eq(o.status, 0, "%s %s: %s%s", runs[i][0], runs[i][1], o.out, o.err);
        ts_out_free(&o);
        cJSON *r = ts_report(out);
        cr_assert_eq(ts_num(r, "run.jobs"), want[i], "%s %s: %g jobs", runs[i][0], runs[i][1],
                     ts_num(r, "run.jobs"));
        cJSON_Delete(r);
        free(out);
    }
}

/*
 * At the pose level BuildBoneMatrices runs after every decoding call: its coverage counts
 * those calls (at the frame level it is a plain return and counts nothing).
 */
Test(run_cli, pose_level_coverage_counts_build_bone_matrices, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *out = ts_path(scratch, "reports");
    for (int pose = 0; pose < 2; pose++) {
        ts_cli(scratch, &o, "run -q --engine unicorn --no-cache --levels %s --out '%s/%d'",
               pose ? "pose" : "frame", out, pose);
        cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
        ts_out_free(&o);
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/%d", out, pose);
        cJSON *r = ts_report(dir);
        const cJSON *rs = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "coverage"), "routines"), *x;
        int found = 0;
        cJSON_ArrayForEach(x, rs)
        {
            if (strcmp(cJSON_GetObjectItem(x, "name")->valuestring, "BuildBoneMatrices")) continue;
            found = 1;
            const cJSON *note = cJSON_GetObjectItem(x, "note");
            int covered = cJSON_GetObjectItem(x, "covered")->valueint;
            int replaced = cJSON_IsString(note) && strstr(note->valuestring, "plain return");
            cr_assert_eq(replaced, !pose, "level %d: replaced %d", pose, replaced);
            cr_assert(pose ? covered > 0 : covered == 0, "level %d: %d blocks", pose, covered);
        }
        cr_assert(found);
        cJSON_Delete(r);
    }
    free(out);
}

/*
 * The cover preset with coverage (the default): every block of the decoding routines
 * ran, as printed and in report.json; a mutant names its one cause on stdout; --explain
 * takes none, groups or all; --no-coverage leaves coverage null.
 */
Test(run_cli, causes_and_coverage, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *out = ts_path(scratch, "reports");
    /* On Unicorn whatever FF8DIFF_ENGINE says: coverage is its hook (EMU_CAP_COVERAGE). */
    ts_cli(scratch, &o, "run -q --engine unicorn --preset cover --out '%s'", out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "coverage: "), "%s", o.out);
    cJSON *r = ts_report(out);
    const cJSON *rs = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "coverage"), "routines"), *x;
    unsigned full = 0;
    cJSON_ArrayForEach(x, rs)
    {
        const char *name = cJSON_GetObjectItem(x, "name")->valuestring;
        int all = cJSON_GetObjectItem(x, "covered")->valueint ==
                  cJSON_GetObjectItem(x, "blocks")->valueint;
        if (!strcmp(name, "Battle_ReadAnimation") || !strcmp(name, "StartClip") ||
            !strcmp(name, "bitReader") || !strncmp(name, "Read", 4))
            full += all;
    }
    cr_assert_eq(full, 6, "decoding routines fully covered: %u of 6", full);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(
                  cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "options"), "coverage")));
    cJSON_Delete(r);
    ts_out_free(&o);
    char *mut = variant("standin_mut_c.exe");
    char *out2 = ts_path(scratch, "reports2");
    ts_cli(scratch, &o, "run -q --exe '%s' --profile standin --out '%s' --no-coverage", mut,
           out2);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, ", 1 cause\n"), "%s", o.out);
    cr_assert(strstr(o.out, "cause 0 (") && strstr(o.out, "ReadBoneScale returns 0 where the "
                                                             "reference returns 1024"),
              "%s", o.out);
    r = ts_report(out2);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(r, "coverage")), "coverage off");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(r, "causes")), 1);
    cJSON_Delete(r);
    ts_out_free(&o);
    ts_cli(scratch, &o, "run -q --explain some");
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "--explain"), "%s", o.err);
    ts_out_free(&o);
    free(mut);
    free(out2);
    free(out);
}

Test(run_cli, sigint_writes_a_valid_partial_report, .init = setup, .fini = cleanup, .timeout = 300)
{
    /* A corpus large enough to take a while: the vanilla preset, generated first. */
    ts_out o;
    char *corpus = ts_path(scratch, "vanilla"), *out = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "corpus synth --preset vanilla --out '%s'", corpus);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/cache", scratch);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("FF8DIFF_CACHE_DIR", cache, 1);
        freopen("/dev/null", "w", stdout);
        execl(ts_ff8diff(), "ff8diff", "run", "-q", "--jobs", "2", "--corpus", corpus, "--out",
              out, (char *)NULL);
        _exit(127);
    }
    /*
     * Interrupt once a unit has finished: each finished (file, mode) unit
     * leaves an entry in the results cache, whatever the machine's speed.
     */
    int waited = 0;
    for (;;) {
        ts_out f;
        ts_sh(scratch, &f, "find '%s/results' -name '*.bin' 2>/dev/null | head -1", cache);
        int some = f.out[0] != '\0';
        ts_out_free(&f);
        if (some) break;
        cr_assert(waitpid(pid, NULL, WNOHANG) == 0, "the run ended before it was interrupted");
        cr_assert(waited++ < 2400, "no unit finished in 120 s");
        usleep(50000);
    }
    cr_assert_eq(kill(pid, SIGINT), 0);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st), "ff8diff died of a signal: the handler did not take SIGINT");
    cr_assert_eq(WEXITSTATUS(st), 130);
    cJSON *r = ts_report(out);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "interrupted")));
    cr_assert(ts_num(r, "totals.not_run") > 0, "stopped early: some clips were not run");
    cr_assert(ts_num(r, "totals.match") > 0, "some clips were compared before the signal");
    const cJSON *v = cJSON_GetObjectItem(r, "verdict");
    cr_assert_str_eq(cJSON_GetObjectItem(v, "result")->valuestring, "incomplete");
    cr_assert_str_eq(cJSON_GetObjectItem(v, "reason")->valuestring, "interrupted");
    cJSON_Delete(r);
    /* Every rendering says the stored verdict (test_cli_verdict.c for the others). */
    ts_sh(scratch, &o,
          "grep -c 'id=\"verdict\">INCOMPLETE<' '%s'/*/index.html && "
          "grep -c '^\\*\\*Result: INCOMPLETE\\*\\*' '%s'/*/summary.md && "
          "grep -c 'name=\"verdict\" value=\"INCOMPLETE\"' '%s'/*/junit.xml",
          out, out, out);
    cr_assert_eq(o.status, 0, "a rendering does not say INCOMPLETE: %s%s", o.out, o.err);
    ts_out_free(&o);
    /* The report folder was moved into place whole, and it validates. */
    ts_sh(scratch, &o, "find '%s' -name '.*.tmp'", out);
    cr_assert_str_eq(o.out, "", "a temporary report folder is left: %s", o.out);
    ts_out_free(&o);
    ts_sh(scratch, &o, "ls '%s'/*/report.json", out);
    o.out[strcspn(o.out, "\n")] = '\0';
    ts_assert_valid(scratch, o.out);
    ts_out_free(&o);
    free(out);
    free(corpus);
}
