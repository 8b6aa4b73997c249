/*
 * tests/cli/test_cli_figure.c: the picture of a pose-level mismatch. `run`
 * of a pose mutant of the stand-in (its axis order planted wrong) over the
 * small synthetic corpus at the frame and pose levels: report.json's pose
 * groups hold both sides' matrices at the example's first divergent tick
 * (the diverging value among them, the schema holding), and index.html,
 * opened in headless Chromium, draws them as an inline SVG in three
 * orthographic views (XY, XZ, ZY) with the diverging bone marked in each.
 * The screenshot is kept in the build tree as a test artifact:
 * <build>/test-artifacts/pose-figure.png.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/fields.h"
#include "tests/support/ts.h"

#define STANDIN_POSE TS_STANDIN_POSE_BASE

static char *scratch;

static void setup(void)
{
    scratch = ts_tempdir();
}

static void cleanup(void)
{
    ts_rmtree(scratch);
}

static char *build_path(const char *rel)
{
    const char *bin = getenv("FF8DIFF_BINARY_DIR");
    cr_assert(bin, "FF8DIFF_BINARY_DIR is not set");
    return ts_path(bin, rel);
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The first group whose example diverges on a pose field and carries a skeleton. */
static const cJSON *pose_group(const cJSON *report)
{
    const cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(report, "groups"))
    {
        const cJSON *sk = cJSON_GetObjectItem(g, "skeleton");
        if (cJSON_IsObject(sk)) return g;
    }
    return NULL;
}

/* The skeleton holds both sides' values of the diverging field at the divergence. */
static void expect_skeleton(const cJSON *g)
{
    const cJSON *sk = cJSON_GetObjectItem(g, "skeleton"), *ex = cJSON_GetObjectItem(g, "example");
    field_id f;
    unsigned bone;
    cr_assert_eq(field_parse(str_of(ex, "field"), &f, &bone), 0, "field %s", str_of(ex, "field"));
    const field_def *d = field_def_of(f);
    cr_assert_eq(d->level, FIELD_LEVEL_POSE, "a pose field: %s", str_of(ex, "field"));
    cr_assert_eq(ts_num(sk, "bone"), bone);
    cr_assert_eq(ts_num(sk, "tick"), ts_num(ex, "tick"), "the first divergent tick");
    const char *space = d->area == FIELD_AREA_WORLD    ? "world"
                        : d->area == FIELD_AREA_PLACED ? "placed"
                                                       : "bone";
    cr_assert_str_eq(str_of(sk, "space"), space);
    int bones = cJSON_GetArraySize(cJSON_GetObjectItem(sk, "parents"));
    static const char *const keys[4] = {"ref", "orig", "ref_matrices", "orig_matrices"};
    for (int k = 0; k < 4; k++)
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(sk, keys[k])), bones, "%s", keys[k]);
    /* m[r][c] is cell 3r+c of the bone's row, t.k its joint's k: json_index 0..8, 9..11 */
    int idx = d->json_index;
    for (int side = 0; side < 2; side++) {
        const cJSON *rows = cJSON_GetObjectItem(sk, idx < 9 ? keys[2 + side] : keys[side]);
        const cJSON *row = cJSON_GetArrayItem(rows, (int)bone);
        double v = cJSON_GetArrayItem(row, idx < 9 ? idx : idx - 9)->valuedouble;
        cr_assert_eq(v, ts_num(ex, side ? "orig" : "ref"), "%s side of %s in the skeleton",
                     side ? "orig" : "ref", str_of(ex, "field"));
    }
}

Test(figure, a_pose_mismatch_is_drawn_in_three_views, .init = setup, .fini = cleanup,
     .timeout = 600)
{
    char *all = ts_corpus(scratch), *exe = build_path("emu/standin/standin_mut_pose_order.exe");
    char *out = ts_path(scratch, "reports"), *corpus = ts_path(scratch, "one");
    ts_out o;
    /* One model, no replays: its first group, figure included, fits the screenshot. */
    ts_sh(scratch, &o, "mkdir '%s' && cp '%s/c0m001.dat' '%s/'", corpus, all, corpus);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o,
           "run -q --no-cache --explain none --no-coverage --exe '%s' --profile standin "
           "--corpus '%s' --modes normal --levels frame,pose --pose-options %s --out '%s'",
           exe, corpus, STANDIN_POSE, out);
    cr_assert_eq(o.status, 1, "the mutant mismatches: %s%s", o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(out);
    const cJSON *g = pose_group(r);
    cr_assert(g, "a pose group with a skeleton");
    expect_skeleton(g);
    int bone = (int)ts_num(cJSON_GetObjectItem(g, "skeleton"), "bone");
    cr_assert_eq(ts_num(g, "id"), 0, "the first group has the figure");

    ts_sh(scratch, &o, "ls -d '%s'/*/", out);
    o.out[strcspn(o.out, "\n")] = '\0';
    char *run = strdup(o.out), *json = ts_path(run, "report.json"),
         *html = ts_path(run, "index.html");
    ts_out_free(&o);
    ts_assert_valid(scratch, json);
    char *checker = ts_source("tests/harness/report_check.py");

    /* One Chromium start (each costs seconds): the DOM it builds, and the screenshot down to
     * the first group's figure, kept as a test artifact. */
    char *dir = build_path("test-artifacts"), *shot = ts_path(dir, "pose-figure.png");
    char flags[4400];
    ts_sh(scratch, &o, "mkdir -p '%s' && rm -f '%s'", dir, shot);
    ts_out_free(&o);
    snprintf(flags, sizeof flags,
             "--dump-dom --hide-scrollbars --window-size=1280,2400 --screenshot='%s'", shot);
    ts_chromium_run(scratch, &o, html, flags);
    cr_assert_eq(o.status, 0, "chromium --dump-dom --screenshot: %.2000s", o.err);

    /* The DOM: the group's figure, three views, the bone marked in each. */
    char *domp = ts_path(scratch, "dom.html");
    ts_write(domp, o.out, strlen(o.out));
    ts_out_free(&o);
    ts_sh(scratch, &o, "'%s' '%s' dom '%s'", ts_python(), checker, domp);
    cr_assert_eq(o.status, 0, "DOM check: %s", o.out);
    cJSON *v = cJSON_Parse(o.out);
    ts_out_free(&o);
    const cJSON *figs = cJSON_GetObjectItem(v, "figures"), *fig = cJSON_GetArrayItem(figs, 0);
    cr_assert(fig, "an svg.figure in the DOM");
    char want[64];
    snprintf(want, sizeof want, "bone %d marked", bone);
    cr_assert(strstr(str_of(fig, "title"), want), "title: %s", str_of(fig, "title"));
    cr_assert_eq(atoi(str_of(fig, "bone")), bone);
    const cJSON *views = cJSON_GetObjectItem(fig, "views");
    cr_assert_eq(cJSON_GetArraySize(views), 3, "three views");
    static const char *const names[3] = {"xy", "xz", "zy"};
    for (int i = 0; i < 3; i++) {
        const cJSON *w = cJSON_GetArrayItem(views, i);
        cr_assert_str_eq(str_of(w, "view"), names[i]);
        cr_assert_geq(ts_num(w, "hits"), 2, "view %s marks the bone on both sides", names[i]);
    }
    cr_assert_eq(ts_num(fig, "axes"), 3 * 3 * 2, "the bone's three axes, both sides, each view");
    cJSON_Delete(v);

    /* The screenshot. */
    size_t n = 0;
    char *png = ts_read(shot, &n);
    cr_assert(png && n > 8 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is a PNG", shot);
    cr_assert(n > 20000, "%s is only %zu bytes: a blank page?", shot, n);
    free(png);
    free(shot);
    free(dir);
    free(domp);
    free(checker);
    free(html);
    free(json);
    free(run);
    cJSON_Delete(r);
    free(out);
    free(exe);
    free(corpus);
    free(all);
}
