/*
 * tests/cli/test_cli_install.c: `cmake --install BUILD --prefix P` into a
 * scratch folder, the installed tree moved elsewhere as a whole, then
 * P/bin/ff8diff run from an empty folder: it finds the installed stand-in
 * relative to itself (not the build tree), writes a report there, and a
 * profile dropped into P/share/ff8diff/profiles/ is taken by name.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static const char *env(const char *name)
{
    const char *v = getenv(name);
    cr_assert(v && *v, "%s is not set (run through ctest)", name);
    return v;
}

Test(install, installed_ff8diff_runs_from_an_empty_folder, .init = setup, .fini = cleanup)
{
    char *prefix = ts_path(scratch, "prefix"), *moved = ts_path(scratch, "moved");
    ts_out o;
    ts_sh(scratch, &o, "'%s' --install '%s' --prefix '%s'", env("FF8DIFF_CMAKE"),
          env("FF8DIFF_BINARY_DIR"), prefix);
    cr_assert_eq(o.status, 0, "install failed: %s%s", o.out, o.err);
    ts_out_free(&o);
    static const char *const files[] = {
        "bin/ff8diff", "share/ff8diff/standin/standin.exe", "share/ff8diff/profiles/standin.json",
        "share/ff8diff/profiles/ff8_en_steam2013.json", "share/ff8diff/schema/report.schema.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *f = ts_path(prefix, files[i]);
        cr_assert_eq(access(f, R_OK), 0, "%s was not installed", files[i]);
        free(f);
    }
    /* A project-local Unicorn (cmake/unicorn.cmake) goes with it. */
    const char *local_uc = getenv("FF8DIFF_UNICORN_LOCAL");
    if (local_uc && *local_uc) {
        char *lib = ts_path(prefix, "lib/ff8diff/libunicorn.so.2");
        cr_assert_eq(access(lib, R_OK), 0, "the build's Unicorn (%s) was not installed", local_uc);
        free(lib);
    }
    /* Moved as a whole: nothing may point back at the prefix or the build tree. */
    cr_assert_eq(rename(prefix, moved), 0);
    if (local_uc && *local_uc) {
        ts_sh(scratch, &o, "ldd '%s/bin/ff8diff' | grep libunicorn", moved);
        cr_assert(strstr(o.out, "/moved/bin/../lib/ff8diff/libunicorn.so.2"),
                  "the moved ff8diff does not load its own Unicorn: %s", o.out);
        ts_out_free(&o);
    }
    char *work = ts_path(scratch, "work");
    cr_assert_eq(mkdir(work, 0755), 0);
    ts_sh(scratch, &o, "cd '%s' && env -u FF8DIFF_STANDIN '%s/bin/ff8diff' run -q --no-cache", work,
          moved);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    char *reports = ts_path(work, "reports");
    cJSON *r = ts_report(reports);
    cr_assert_gt(ts_num(r, "totals.comparisons"), 0);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    const char *exe = cJSON_GetObjectItem(
                          cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "executable"), "path")
                          ->valuestring;
    char want[4200];
    snprintf(want, sizeof want, "%s/share/ff8diff/standin/standin.exe", moved);
    char *real_want = realpath(want, NULL);
    cr_assert(real_want);
    cr_assert_str_eq(exe, real_want, "the installed ff8diff ran %s", exe);
    free(real_want);
    cJSON_Delete(r);
    /* --help names the data folder it found. */
    ts_sh(scratch, &o, "'%s/bin/ff8diff' --help", moved);
    cr_assert(strstr(o.out, "/moved/share/ff8diff (stand-in engine, profiles, report schema)"),
              "%s", o.out);
    ts_out_free(&o);
    /* A profile in the data folder is taken by name. */
    ts_sh(scratch, &o,
          "cp '%s/share/ff8diff/profiles/standin.json' '%s/share/ff8diff/profiles/mine.json' && "
          "sed -i 's/\"name\":[[:space:]]*\"standin\"/\"name\": \"mine\"/' "
          "'%s/share/ff8diff/profiles/mine.json' && cd '%s' && '%s/bin/ff8diff' identify "
          "'%s/share/ff8diff/standin/standin.exe' --profile mine",
          moved, moved, moved, work, moved, moved);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "verdict: known (profile mine)"), "%s", o.out);
    ts_out_free(&o);
    free(reports);
    free(work);
    free(moved);
    free(prefix);
}
