/*
 * tests/regress/test_regress_turns.c: differences a viewer never shows.
 * Golden traces of the small synthetic corpus are recorded with the pose
 * level (normal mode); a fixture (tests/regress/decoders/plant_turns.py)
 * turns them into frames with planted differences in one clip: rotations
 * of a leaf bone off by 65536 and by other multiples of 4096, and a scale
 * off by 65536, and prints what it planted. `check` must list and count
 * each as the fixture says (whole turns apart from pose differences), keep
 * the clip a mismatch, and say whether the bone matrices differed: built
 * by the reference's pose when the frames carry none, the frames' own
 * matrices when they do (one of them planted wrong), nothing without the
 * pose level.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/ts.h"

#define FILE_ "c0m001.dat"
#define CLIP 2 /* 10 frames in the small preset: room for the fixture's frames 1-3 */

typedef struct scratch {
    char *dir, *corpus;
} scratch;

static scratch s;

static void setup(void)
{
    s.dir = ts_tempdir();
    s.corpus = ts_corpus(s.dir);
    ts_out o;
    ts_cli(s.dir, &o,
           "record -q --levels frame,pose --modes normal --corpus '%s' --out '%s/golden'",
           s.corpus, s.dir);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
}

static void teardown(void)
{
    free(s.corpus);
    ts_rmtree(s.dir);
}

TestSuite(turns, .init = setup, .fini = teardown);

typedef struct checked {
    cJSON *planted; /* the fixture's {"bone", "cells"} */
    cJSON *report;
    char *out; /* check's stdout */
    char *rep; /* its reports folder */
} checked;

/* Plants (flags for the fixture), checks with extra options; exit status must be 1. */
static void plant_and_check(const char *name, const char *flags, const char *opts, checked *c)
{
    char *script = ts_source("tests/regress/decoders/plant_turns.py");
    ts_out o;
    ts_sh(s.dir, &o, "'%s' '%s' '%s/golden' '%s' '%s/%s' %s %d %s", ts_python(), script, s.dir,
          s.corpus, s.dir, name, FILE_, CLIP, flags);
    cr_assert_eq(o.status, 0, "plant_turns.py: %s", o.err);
    c->planted = cJSON_Parse(o.out);
    cr_assert(c->planted, "the fixture printed no JSON: %s", o.out);
    ts_out_free(&o);
    char sub[64];
    snprintf(sub, sizeof sub, "rep-%s", name);
    c->rep = ts_path(s.dir, sub);
    ts_cli(s.dir, &o, "check --traces '%s/golden' --against '%s/%s' --out '%s' %s", s.dir,
           s.dir, name, c->rep, opts);
    cr_assert_eq(o.status, 1, "check exits 1 (the clip stays a mismatch): %s", o.err);
    c->out = strdup(o.out);
    ts_out_free(&o);
    c->report = ts_report(c->rep);
    free(script);
}

static void checked_free(checked *c)
{
    cJSON_Delete(c->planted);
    cJSON_Delete(c->report);
    free(c->out);
    free(c->rep);
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * The planted clip is the only mismatch, diverging at the first planted
 * cell; its cells are the planted ones, in order, classed as planted, with
 * want[i] the matrices of the i-th whole-turn cell ("equal", "differ" or
 * NULL: null). Returns the clip's "cells".
 */
static const cJSON *expect_cells(const checked *c, const char *from, const char *const want[3])
{
    const cJSON *r = c->report, *planted = cJSON_GetObjectItem(c->planted, "cells");
    cr_assert_eq(ts_num(r, "totals.mismatch"), 1, "one mismatching clip");
    cr_assert_eq(ts_num(r, "totals.bad_input"), 0);
    const cJSON *res = ts_result(r, FILE_, CLIP, "normal");
    cr_assert(res && strcmp(str_of(res, "status"), "mismatch") == 0, "the clip is a mismatch");
    const cJSON *first = cJSON_GetArrayItem(planted, 0),
                *d = cJSON_GetObjectItem(res, "divergence");
    cr_assert_eq(ts_num(d, "tick"), ts_num(first, "tick"));
    cr_assert_str_eq(str_of(d, "field"), str_of(first, "field"));
    const cJSON *cells = cJSON_GetObjectItem(res, "cells");
    cr_assert(cJSON_IsObject(cells), "the clip's values are classed");
    int n = cJSON_GetArraySize(planted), turns = 0, pose = 0;
    const cJSON *listed = cJSON_GetObjectItem(cells, "listed");
    cr_assert_eq(cJSON_GetArraySize(listed), n, "every planted value listed, nothing else");
    for (int i = 0; i < n; i++) {
        const cJSON *p = cJSON_GetArrayItem(planted, i), *l = cJSON_GetArrayItem(listed, i);
        const char *cls = str_of(p, "class");
        cr_assert_str_eq(str_of(l, "field"), str_of(p, "field"), "cell %d", i);
        cr_assert_eq(ts_num(l, "tick"), ts_num(p, "tick"), "cell %d", i);
        cr_assert_eq(ts_num(l, "ref"), ts_num(p, "ref"), "cell %d", i);
        cr_assert_eq(ts_num(l, "orig"), ts_num(p, "orig"), "cell %d", i);
        cr_assert_str_eq(str_of(l, "class"), cls, "cell %d (%s)", i, str_of(p, "field"));
        const char *mat = str_of(l, "matrices");
        if (strcmp(cls, "whole_turns") == 0) {
            const char *w = want[turns++];
            cr_assert(w ? mat && strcmp(mat, w) == 0
                        : cJSON_IsNull(cJSON_GetObjectItem(l, "matrices")),
                      "cell %d (%s): matrices %s, expected %s", i, str_of(p, "field"),
                      mat ? mat : "null", w ? w : "null");
        } else {
            pose++;
            cr_assert(cJSON_IsNull(cJSON_GetObjectItem(l, "matrices")), "cell %d", i);
        }
    }
    cr_assert_eq(turns, 3, "the fixture plants three whole-turn values");
    cr_assert_eq(ts_num(cells, "counts.whole_turns"), turns);
    cr_assert_eq(ts_num(cells, "counts.pose"), pose);
    cr_assert_eq(ts_num(cells, "counts.state"), 0);
    cr_assert_eq(ts_num(cells, "unlisted"), 0);
    cr_assert_eq(ts_num(d, "differing_fields"), n, "the counts add up to the differing values");
    const cJSON *m = cJSON_GetObjectItem(cells, "whole_turns_matrices");
    const char *got = str_of(m, "from");
    cr_assert(from ? got && strcmp(got, from) == 0 : cJSON_IsNull(cJSON_GetObjectItem(m, "from")),
              "matrices from %s, expected %s", got ? got : "null", from ? from : "null");
    cr_assert_eq(ts_num(r, "totals.cells.whole_turns"), turns);
    cr_assert_eq(ts_num(r, "totals.cells.pose"), pose);
    return cells;
}

/* report.json valid against the schema; the section in index.html and summary.md; the line. */
static void expect_rendered(const checked *c, unsigned equal, unsigned differ)
{
    char line[160];
    snprintf(line, sizeof line,
             "3 differing values are whole turns: no pose effect beyond trig rounding (still "
             "mismatches; bone matrices: %u equal, %u differ, %u not compared)",
             equal, differ, 3 - equal - differ);
    cr_assert(strstr(c->out, line), "the terminal says '%s':\n%s", line, c->out);
    char *run = NULL, *html, *md, *json;
    ts_out o;
    ts_sh(s.dir, &o, "ls -d '%s'/*/", c->rep);
    run = strndup(o.out, strcspn(o.out, "\n"));
    ts_out_free(&o);
    html = ts_path(run, "index.html");
    md = ts_path(run, "summary.md");
    json = ts_path(run, "report.json");
    ts_assert_valid(s.dir, json);
    char *h = ts_read(html, NULL), *m = ts_read(md, NULL);
    cr_assert(h && strstr(h, "<section id=\"whole-turns\">"), "index.html has the section");
    cr_assert_eq(ts_count(h, "<tr id=\"turn-"), 3, "one row per whole-turn value");
    cr_assert(m && strstr(m, "## Differences a viewer never shows"), "summary.md has it");
    free(h);
    free(m);
    free(json);
    free(md);
    free(html);
    free(run);
}

Test(turns, computed_matrices_when_the_frames_carry_none)
{
    checked c;
    plant_and_check("plain", "", "", &c);
    static const char *const want[3] = {"equal", "equal", "equal"};
    expect_cells(&c, "computed", want);
    expect_rendered(&c, 3, 0);
    checked_free(&c);
}

Test(turns, the_frames_own_matrices_say_where_they_differ)
{
    checked c;
    plant_and_check("mat", "--mat --bad-mat", "", &c);
    /* frame 2's leaf matrix is planted wrong: its whole turn shows "differ" */
    static const char *const want[3] = {"equal", "differ", "equal"};
    expect_cells(&c, "candidate", want);
    expect_rendered(&c, 2, 1);
    checked_free(&c);
}

Test(turns, without_the_pose_level_matrices_are_not_compared)
{
    checked c;
    plant_and_check("frame", "", "--levels frame", &c);
    static const char *const want[3] = {NULL, NULL, NULL};
    expect_cells(&c, NULL, want);
    expect_rendered(&c, 0, 0);
    checked_free(&c);
}
