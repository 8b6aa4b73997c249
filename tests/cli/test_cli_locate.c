/*
 * tests/cli/test_cli_locate.c: `ff8diff identify EXE --locate` as a user
 * meets it, on the stand-in linked as another build (standin_relinked.exe)
 * with the stand-in's profile, and without its patterns (no --from: sizes
 * and call order), and as a build without BuildBoneMatrices (standin_nobbm.exe): where each
 * routine is (checked against the build's own symbols, from nm), the
 * written profile that `identify` and `run` accept, the run on it with
 * zero mismatches and every report saying the profile was located, and
 * the refusals (nothing written, nothing run).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static char *standin(const char *name)
{
    return ts_standin(name);
}

/* The address nm gave name in emu/standin/<file>. */
static unsigned sym(const char *file, const char *name)
{
    char *path = standin(file);
    size_t n;
    char **lines = ts_lines(path, &n);
    unsigned found = 0;
    for (size_t i = 0; i < n; i++) {
        char nm[200];
        unsigned a;
        if (sscanf(lines[i], "%199s 0x%x", nm, &a) == 2 && strcmp(nm, name) == 0) found = a;
        free(lines[i]);
    }
    free(lines);
    free(path);
    cr_assert(found, "%s not in %s", name, file);
    return found;
}

Test(locate_cli, relinked_build_located_written_and_run, .init = setup, .fini = cleanup)
{
    char *exe = standin("standin_relinked.exe");
    char *prof = ts_path(scratch, "relinked.json");
    ts_out o;
    ts_cli(scratch, &o, "identify '%s' --locate --write-profile '%s'", exe, prof);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    static const char *const names[] = {"Battle_ReadAnimation", "StartClip",
                                        "Field_Alloc",          "Field_Free",
                                        "BuildBoneMatrices",    "QueueAnimation"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char want[128];
        snprintf(want, sizeof want, "found     0x%08X  %s (profile: 0x",
                 sym("standin_relinked.sym", names[i]), names[i]);
        cr_assert(strstr(o.out, want), "no \"%s\" in:\n%s", want, o.out);
    }
    cr_assert(strstr(o.out, "how: reads table position_widths"), "%s", o.out);
    cr_assert(strstr(o.out, "verdict: located"), "%s", o.out);
    ts_out_free(&o);
    cJSON *p = ts_json(prof);
    cJSON *loc = cJSON_GetObjectItem(p, "located");
    cr_assert(loc, "the written profile says it was located");
    cr_assert_str_eq(cJSON_GetObjectItem(loc, "from_profile")->valuestring, "standin");
    cJSON_Delete(p);

    /* identify accepts it: the build is now known. */
    ts_cli(scratch, &o, "identify '%s' --profile '%s' --routines", exe, prof);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "verdict: known"), "%s", o.out);
    cr_assert(strstr(o.out, "was located by structure"), "%s", o.out);
    cr_assert(strstr(o.out, "0 routines with problems"), "%s", o.out);
    ts_out_free(&o);

    /* run on it: zero mismatches, and the reports say the profile was located. */
    char *reports = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run --exe '%s' --profile '%s' -q --no-cache --out '%s'", exe, prof,
           reports);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "located by structure"), "%s", o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(reports);
    cr_assert_gt(ts_num(r, "totals.comparisons"), 0);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    cr_assert_eq(ts_num(r, "totals.fault"), 0);
    const cJSON *ex = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "executable");
    const cJSON *pl = cJSON_GetObjectItem(ex, "profile_located");
    cr_assert(cJSON_IsObject(pl), "report.json says nothing of the located profile");
    cr_assert_str_eq(cJSON_GetObjectItem(pl, "from_profile")->valuestring, "standin");
    cr_assert_str_eq(cJSON_GetObjectItem(pl, "executable")->valuestring, "standin_relinked.exe");
    cr_assert_str_eq(cJSON_GetObjectItem(ex, "verdict")->valuestring, "known");
    cJSON_Delete(r);
    ts_sh(scratch, &o, "cat '%s'/*/summary.md", reports);
    cr_assert(strstr(o.out, "**Located profile**"), "%s", o.out);
    cr_assert(strstr(o.out, "| Located | by structure from profile standin"), "%s", o.out);
    ts_out_free(&o);
    ts_sh(scratch, &o, "cat '%s'/*/index.html", reports);
    cr_assert(strstr(o.out, "id=\"profile-located\""));
    ts_out_free(&o);
    free(reports);
    free(prof);
    free(exe);
}

Test(locate_cli, without_a_located_profile_the_build_is_refused, .init = setup, .fini = cleanup)
{
    char *exe = standin("standin_relinked.exe");
    ts_out o;
    ts_cli(scratch, &o, "run --exe '%s' -q --no-cache --out '%s/r'", exe, scratch);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "--locate"), "the refusal points to --locate: %s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "identify '%s'", exe);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.out, "--locate"), "%s", o.out);
    ts_out_free(&o);
    free(exe);
}

Test(locate_cli, a_build_without_bone_matrices_is_refused, .init = setup, .fini = cleanup)
{
    char *exe = standin("standin_nobbm.exe");
    char *prof = ts_path(scratch, "nobbm.json");
    ts_out o;
    ts_cli(scratch, &o, "identify '%s' --locate --profile standin --write-profile '%s'", exe, prof);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "NOT FOUND             BuildBoneMatrices"), "%s", o.out);
    cr_assert(strstr(o.out, "verdict: refused: BuildBoneMatrices not found"), "%s", o.out);
    cr_assert(strstr(o.err, "nothing runs on a guess"), "%s", o.err);
    cr_assert_neq(access(prof, F_OK), 0, "a profile was written for a refused build");
    ts_out_free(&o);
    free(prof);
    free(exe);
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The stand-in's profile written to scratch/name without the evidence named: "pattern",
 * "size" and "insns", and (order) the call order of the callees (sorted by name).
 */
static char *stripped_profile(const char *name, int sizes, int order)
{
    const char *bin = getenv("FF8DIFF_BINARY_DIR");
    char *src = ts_path(bin, "emu/profiles/standin.json");
    cJSON *p = ts_json(src);
    cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(p, "routines"))
    {
        cJSON_DeleteItemFromObject(r, "pattern");
        if (sizes) {
            cJSON_DeleteItemFromObject(r, "size");
            cJSON_DeleteItemFromObject(r, "insns");
        }
        cJSON *cal = cJSON_GetObjectItem(r, "callees");
        int n = cal ? cJSON_GetArraySize(cal) : 0;
        if (!order || n < 2) continue;
        char **names = calloc((size_t)n, sizeof *names);
        for (int i = 0; i < n; i++) names[i] = strdup(cJSON_GetArrayItem(cal, i)->valuestring);
        qsort(names, (size_t)n, sizeof *names, by_string);
        cJSON_ReplaceItemInObject(r, "callees",
                                  cJSON_CreateStringArray((const char *const *)names, n));
        for (int i = 0; i < n; i++) free(names[i]);
        free(names);
    }
    char *text = cJSON_Print(p);
    char *out = ts_path(scratch, name);
    ts_write(out, text, strlen(text));
    free(text);
    cJSON_Delete(p);
    free(src);
    return out;
}

/* No --from and no pattern: sizes and call order locate the relinked build, which runs. */
Test(locate_cli, relinked_build_located_without_from, .init = setup, .fini = cleanup)
{
    char *bare = stripped_profile("nopatterns.json", 0, 0);
    char *exe = standin("standin_relinked.exe");
    char *prof = ts_path(scratch, "located.json");
    ts_out o;
    ts_cli(scratch, &o, "identify '%s' --locate --profile '%s' --write-profile '%s'", exe, bare,
           prof);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "patterns: none (structure only)"), "%s", o.out);
    cr_assert(strstr(o.out, "verdict: located"), "%s", o.out);
    static const char *const names[] = {"Field_Alloc", "Field_Free", "ComputeBonesWorldMatrices",
                                        "BuildBoneMatrices"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char want[128];
        snprintf(want, sizeof want, "found     0x%08X  %s (profile: 0x",
                 sym("standin_relinked.sym", names[i]), names[i]);
        cr_assert(strstr(o.out, want), "no \"%s\" in:\n%s", want, o.out);
    }
    ts_out_free(&o);
    /* Call order alone tells the allocators apart. */
    char *nosizes = stripped_profile("nosizes.json", 1, 0);
    ts_cli(scratch, &o, "identify '%s' --locate --profile '%s'", exe, nosizes);
    char want[160];
    snprintf(want, sizeof want, "found     0x%08X  Field_Alloc (profile: 0x",
             sym("standin_relinked.sym", "Field_Alloc"));
    cr_assert(strstr(o.out, want), "no \"%s\" in:\n%s", want, o.out);
    cr_assert(strstr(o.out, "called first by "), "%s", o.out);
    ts_out_free(&o);
    char *reports = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run --exe '%s' --profile '%s' -q --no-cache --out '%s'", exe, prof,
           reports);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(reports);
    cr_assert_gt(ts_num(r, "totals.comparisons"), 0);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    cr_assert_eq(ts_num(r, "totals.fault"), 0);
    cJSON_Delete(r);
    free(reports);
    free(nosizes);
    free(prof);
    free(exe);
    free(bare);
}

Test(locate_cli, patterns_from_a_known_build, .init = setup, .fini = cleanup)
{
    /* The stand-in's profile without patterns, sizes or call order: the allocator twins
     * stay ambiguous... */
    char *bare = stripped_profile("bare.json", 1, 1);
    char *exe = standin("standin_relinked.exe"), *known = standin("standin.exe");
    ts_out o;
    ts_cli(scratch, &o, "identify '%s' --locate --profile '%s'", exe, bare);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "patterns: none (structure only)"), "%s", o.out);
    cr_assert(strstr(o.out, "AMBIGUOUS             Field_Alloc"), "%s", o.out);
    cr_assert(strstr(o.out, "give --from a build the profile describes"), "%s", o.out);
    ts_out_free(&o);
    /* ...until the patterns come from a build the profile describes. */
    ts_cli(scratch, &o, "identify '%s' --locate --profile '%s' --from '%s'", exe, bare, known);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "patterns: learned from"), "%s", o.out);
    ts_out_free(&o);
    /* A known build the profile does not describe is refused. */
    ts_cli(scratch, &o, "identify '%s' --locate --profile '%s' --from '%s'", exe, bare, exe);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "not the build profile"), "%s", o.err);
    ts_out_free(&o);
    /* Without --profile, --from picks the built-in profiles that describe the known build. */
    ts_cli(scratch, &o, "identify '%s' --locate --from '%s'", exe, known);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "locating the routines of profile standin"), "%s", o.out);
    ts_out_free(&o);
    ts_cli(scratch, &o, "identify '%s' --locate --from '%s'", exe, exe);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "no built-in profile describes that build"), "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "identify '%s' --from '%s'", exe, known);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "go with --locate"), "%s", o.err);
    ts_out_free(&o);
    free(exe);
    free(known);
    free(bare);
}

/*
 * A build whose call structure is not the profile's (standin_calls_relinked.exe:
 * Battle_ReadAnimation calls one routine more, BuildBoneMatrices one fewer):
 * located with --from the same code at the profile's addresses, its written
 * profile runs the frame and pose levels with no mismatch; without --from the
 * output says which evidence disagreed.
 */
Test(locate_cli, another_call_structure_with_and_without_from, .init = setup, .fini = cleanup)
{
    char *exe = standin("standin_calls_relinked.exe"), *known = standin("standin_calls.exe");
    char *prof = ts_path(scratch, "calls.json");
    ts_out o;
    ts_cli(scratch, &o, "identify '%s' --locate", exe);
    cr_assert(strstr(o.out, "disagreed: its candidate makes 8 distinct direct calls, the profile "
                            "lists 7"),
              "%s", o.out);
    ts_out_free(&o);
    ts_cli(scratch, &o, "identify '%s' --locate --from '%s' --write-profile '%s'", exe, known,
           prof);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "verdict: located"), "%s", o.out);
    cr_assert(!strstr(o.out, "disagreed:"), "%s", o.out);
    char want[128];
    snprintf(want, sizeof want, "found     0x%08X  BuildBoneMatrices (profile: 0x",
             sym("standin_calls_relinked.sym", "BuildBoneMatrices"));
    cr_assert(strstr(o.out, want), "no \"%s\" in:\n%s", want, o.out);
    ts_out_free(&o);
    char *reports = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run --exe '%s' --profile '%s' --levels frame,pose -q --no-cache --out '%s'",
           exe, prof, reports);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(reports);
    cr_assert_gt(ts_num(r, "totals.comparisons"), 0);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    cr_assert_eq(ts_num(r, "totals.fault"), 0);
    cJSON_Delete(r);
    free(reports);
    free(prof);
    free(known);
    free(exe);
}
