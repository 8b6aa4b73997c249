/*
 * tests/regress/test_regress_compare.c: compare-reports on report pairs
 * built by hand: the category of every kind of change (a table of
 * vectors through the library), then the command's exit codes, JSON and
 * text, and its refusal of inputs that do not follow the report schema.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report_diff.h"
#include "tests/support/ts.h"

/* ---- building reports ---- */

static cJSON *report(const char *id)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "schema", "ff8diff-report/1");
    cJSON *run = cJSON_AddObjectToObject(r, "run");
    cJSON_AddStringToObject(run, "id", id);
    cJSON_AddStringToObject(run, "command", "run");
    cJSON_AddArrayToObject(r, "results");
    cJSON_AddArrayToObject(r, "leaf");
    return r;
}

/* A frame record; "M:tick:field:ref:orig" for a mismatch, else a status name. */
typedef struct rec {
    const char *status;
    int tick;
    const char *field;
    int ref, orig;
} rec;

static void add_result(cJSON *r, const char *file, int clip, const char *mode, const rec *x)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddNumberToObject(o, "clip", clip);
    cJSON_AddStringToObject(o, "mode", mode);
    cJSON_AddStringToObject(o, "status", x->status);
    if (!strcmp(x->status, "mismatch")) {
        cJSON *d = cJSON_AddObjectToObject(o, "divergence");
        cJSON_AddNumberToObject(d, "tick", x->tick);
        cJSON_AddStringToObject(d, "field", x->field);
        cJSON_AddNumberToObject(d, "ref", x->ref);
        cJSON_AddNumberToObject(d, "orig", x->orig);
    } else {
        cJSON_AddNullToObject(o, "divergence");
    }
    cJSON_AddItemToArray(cJSON_GetObjectItem(r, "results"), o);
}

static void add_leaf(cJSON *r, const char *routine, int calls, int mism, int faults, int first)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "routine", routine);
    cJSON_AddNumberToObject(o, "calls", calls);
    cJSON_AddNumberToObject(o, "mismatches", mism);
    cJSON_AddNumberToObject(o, "faults", faults);
    if (first >= 0) {
        cJSON *f = cJSON_AddObjectToObject(o, "first_mismatch");
        cJSON_AddNumberToObject(f, "case", first);
    } else {
        cJSON_AddNullToObject(o, "first_mismatch");
    }
    cJSON_AddItemToArray(cJSON_GetObjectItem(r, "leaf"), o);
}

/* ---- categories ---- */

#define MATCH                                                                                      \
    {                                                                                              \
        "match", 0, NULL, 0, 0                                                                     \
    }
#define FAULT                                                                                      \
    {                                                                                              \
        "fault", 0, NULL, 0, 0                                                                     \
    }
#define BAD                                                                                        \
    {                                                                                              \
        "bad_input", 0, NULL, 0, 0                                                                 \
    }
#define NOTRUN                                                                                     \
    {                                                                                              \
        "not_run", 0, NULL, 0, 0                                                                   \
    }
#define ABSENT                                                                                     \
    {                                                                                              \
        NULL, 0, NULL, 0, 0                                                                        \
    }
#define MIS(t, f, r, o)                                                                            \
    {                                                                                              \
        "mismatch", t, f, r, o                                                                     \
    }

typedef struct vector {
    rec old, new;
    rdiff_kind kind;
    int regressed;
} vector;

static const vector vectors[] = {
    {MATCH, MATCH, RDIFF_UNCHANGED, 0},
    {MIS(5, "root.x", 1, 2), MATCH, RDIFF_FIXED, 0},
    {FAULT, MATCH, RDIFF_FIXED, 0},
    {BAD, MATCH, RDIFF_FIXED, 0},
    {MATCH, MIS(4, "bone[2].rot.x", 5, 6), RDIFF_NEWLY_BROKEN, 1},
    {MATCH, FAULT, RDIFF_NEWLY_BROKEN, 1},
    {MIS(5, "bone[2].rot.x", 5, 6), MIS(3, "bone[2].rot.x", 5, 6), RDIFF_MOVED_EARLIER, 1},
    {MIS(3, "bone[2].rot.x", 5, 6), MIS(5, "bone[2].rot.x", 5, 6), RDIFF_MOVED, 0},
    /* same tick: root comes before the bones, bone 1 before bone 2, cmd after them */
    {MIS(3, "bone[2].rot.x", 5, 6), MIS(3, "root.y", 0, 1), RDIFF_MOVED_EARLIER, 1},
    {MIS(3, "bone[2].rot.x", 5, 6), MIS(3, "bone[1].scale.z", 5, 6), RDIFF_MOVED_EARLIER, 1},
    {MIS(3, "bone[2].rot.x", 5, 6), MIS(3, "cmd.off", 9, 10), RDIFF_MOVED, 0},
    {MIS(3, "bone[2].rot.x", 5, 6), MIS(3, "bone[2].rot.x", 5, 7), RDIFF_MOVED, 0},
    {MIS(3, "bone[2].rot.x", 5, 6), MIS(3, "bone[2].rot.x", 5, 6), RDIFF_STILL_BROKEN, 0},
    {MIS(3, "bone[2].rot.x", 5, 6), FAULT, RDIFF_STILL_BROKEN, 0},
    {NOTRUN, MATCH, RDIFF_NOT_COMPARED, 0},
    {MATCH, NOTRUN, RDIFF_NOT_COMPARED, 0},
    {ABSENT, MIS(0, "ret", 0, 1), RDIFF_ADDED, 0},
    {MATCH, ABSENT, RDIFF_REMOVED, 0},
};

Test(compare, every_kind_of_change_in_its_category)
{
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        const vector *v = &vectors[i];
        cJSON *a = report("old"), *b = report("new");
        /* A neighbour that matches in both, so pairing has to find the right one. */
        static const rec match = MATCH;
        add_result(a, "c0m000.dat", 0, "normal", &match);
        add_result(b, "c0m000.dat", 0, "normal", &match);
        if (v->old.status) add_result(a, "c0m001.dat", 2, "slow", &v->old);
        if (v->new.status) add_result(b, "c0m001.dat", 2, "slow", &v->new);
        rdiff d;
        memset(&d, 0, sizeof d);
        ff_error err;
        cr_assert_eq(rdiff_compare(a, b, &d, &err), 0, "vector %zu: %s", i, err.reason);
        cr_assert_eq(d.count[v->kind], 1 + (v->kind == RDIFF_UNCHANGED), "vector %zu: %s", i,
                     rdiff_kind_name(v->kind));
        cr_assert_eq(d.count[RDIFF_UNCHANGED], 1 + (v->kind == RDIFF_UNCHANGED), "vector %zu", i);
        cr_assert_eq(rdiff_regressed(&d), v->regressed, "vector %zu", i);
        if (v->kind != RDIFF_UNCHANGED) {
            cr_assert_eq(d.n, 1, "vector %zu", i);
            cr_assert_str_eq(d.e[0].file, "c0m001.dat", "vector %zu", i);
            cr_assert_eq(d.e[0].clip, 2, "vector %zu", i);
            cr_assert_str_eq(d.e[0].mode, "slow", "vector %zu", i);
        }
        rdiff_free(&d);
        cJSON_Delete(a);
        cJSON_Delete(b);
    }
}

typedef struct leaf_vector {
    int old_calls, old_mism, old_first, new_calls, new_mism, new_first;
    rdiff_kind kind;
} leaf_vector;

static const leaf_vector leaf_vectors[] = {
    {1000, 0, -1, 1000, 0, -1, RDIFF_UNCHANGED}, {1000, 0, -1, 1000, 3, 17, RDIFF_NEWLY_BROKEN},
    {1000, 3, 17, 1000, 0, -1, RDIFF_FIXED},     {1000, 3, 17, 1000, 4, 9, RDIFF_MOVED_EARLIER},
    {1000, 3, 9, 1000, 2, 17, RDIFF_MOVED},      {1000, 3, 17, 1000, 3, 17, RDIFF_STILL_BROKEN},
    {0, 0, -1, 1000, 0, -1, RDIFF_NOT_COMPARED},
};

Test(compare, leaf_routines_by_name)
{
    for (size_t i = 0; i < sizeof leaf_vectors / sizeof leaf_vectors[0]; i++) {
        const leaf_vector *v = &leaf_vectors[i];
        cJSON *a = report("old"), *b = report("new");
        add_leaf(a, "ReadBoneScale", 50, 0, 0, -1);
        add_leaf(b, "ReadBoneScale", 50, 0, 0, -1);
        add_leaf(a, "bitReader", v->old_calls, v->old_mism, 0, v->old_first);
        add_leaf(b, "bitReader", v->new_calls, v->new_mism, 0, v->new_first);
        rdiff d;
        memset(&d, 0, sizeof d);
        ff_error err;
        cr_assert_eq(rdiff_compare(a, b, &d, &err), 0, "leaf vector %zu: %s", i, err.reason);
        cr_assert_eq(d.count[v->kind], 1 + (v->kind == RDIFF_UNCHANGED), "leaf vector %zu", i);
        if (v->kind != RDIFF_UNCHANGED) {
            cr_assert(d.e[0].leaf, "leaf vector %zu", i);
            cr_assert_str_eq(d.e[0].file, "bitReader", "leaf vector %zu", i);
        }
        rdiff_free(&d);
        cJSON_Delete(a);
        cJSON_Delete(b);
    }
}

/* ---- the command ---- */

static char *save(const char *dir, const char *name, const cJSON *r)
{
    char *p = ts_path(dir, name), *text = cJSON_PrintUnformatted(r);
    ts_write(p, text, strlen(text));
    cJSON_free(text);
    return p;
}

/* Old and new runs over three clips: one fixed, one newly broken, one moved. */
static void pair(const char *dir, const rec *x, const rec *y, char **old_path, char **new_path)
{
    cJSON *a = report("20261130-000000-0001"), *b = report("20261130-000000-0002");
    static const rec match = MATCH;
    add_result(a, "c0m000.dat", 0, "normal", &match);
    add_result(b, "c0m000.dat", 0, "normal", &match);
    add_result(a, "c0m000.dat", 1, "normal", x);
    add_result(b, "c0m000.dat", 1, "normal", y);
    *old_path = save(dir, "old.json", a);
    *new_path = save(dir, "new.json", b);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

typedef struct cli_vector {
    rec old, new;
    int status;
    const char *category, *text;
} cli_vector;

static const cli_vector cli_vectors[] = {
    {MIS(2, "root.z", 1, 2), MATCH, 0, "fixed",
     "fixed (1):\n  c0m000.dat anim 1 normal: "
     "mismatch at tick 2 root.z (ref 1, orig 2) -> match"},
    {MATCH, MIS(2, "root.z", 1, 2), 1, "newly_broken", "REGRESSED: 1 newly broken"},
    {MIS(6, "root.z", 1, 2), MIS(2, "root.z", 1, 2), 1, "moved_earlier",
     "REGRESSED: 0 newly broken, 1 with the first divergence earlier"},
    {MIS(2, "root.z", 1, 2), MIS(6, "root.z", 1, 2), 0, "moved", "no regression"},
    {MATCH, MATCH, 0, "unchanged", "no regression"},
};

Test(compare, exit_codes_json_and_text)
{
    char *tmp = ts_tempdir();
    for (size_t i = 0; i < sizeof cli_vectors / sizeof cli_vectors[0]; i++) {
        const cli_vector *v = &cli_vectors[i];
        char *a, *b;
        pair(tmp, &v->old, &v->new, &a, &b);
        ts_out o;
        ts_cli(tmp, &o, "compare-reports '%s' '%s'", a, b);
        cr_assert_eq(o.status, v->status, "vector %zu: exit %d: %s%s", i, o.status, o.out, o.err);
        cr_assert(strstr(o.out, v->text) != NULL, "vector %zu: text lacks '%s':\n%s", i, v->text,
                  o.out);
        ts_out_free(&o);
        ts_cli(tmp, &o, "compare-reports --json '%s' '%s'", a, b);
        cr_assert_eq(o.status, v->status, "vector %zu (--json)", i);
        cJSON *j = cJSON_Parse(o.out);
        cr_assert(j != NULL, "vector %zu: not JSON: %s", i, o.out);
        cr_assert_str_eq(cJSON_GetObjectItem(j, "schema")->valuestring, "ff8diff-report-diff/1");
        char key[64];
        snprintf(key, sizeof key, "counts.%s", v->category);
        cr_assert_eq(ts_num(j, key), 1 + !strcmp(v->category, "unchanged"), "vector %zu", i);
        cr_assert_eq(cJSON_IsTrue(cJSON_GetObjectItem(j, "regressed")), v->status == 1,
                     "vector %zu", i);
        cJSON_Delete(j);
        ts_out_free(&o);
        free(a);
        free(b);
    }
    ts_rmtree(tmp);
}

/* ---- inputs that are not reports ---- */

static void expect_refused(const char *tmp, const char *old_path, const char *new_path,
                           const char *words, const char *name)
{
    ts_out o;
    ts_cli(tmp, &o, "compare-reports '%s' '%s'", old_path, new_path);
    cr_assert_eq(o.status, 2, "%s: exit %d", name, o.status);
    cr_assert(strstr(o.err, words) != NULL, "%s: stderr '%s' lacks '%s'", name, o.err, words);
    ts_out_free(&o);
}

Test(compare, schema_is_checked_on_both_inputs)
{
    char *tmp = ts_tempdir();
    static const rec match = MATCH, mis = MIS(1, "root.x", 0, 1);
    cJSON *good = report("a");
    add_result(good, "c0m000.dat", 0, "normal", &match);
    char *ok = save(tmp, "good.json", good);

    cJSON *r = report("b");
    cJSON_ReplaceItemInObject(r, "schema", cJSON_CreateString("ff8diff-report/2"));
    char *p = save(tmp, "schema.json", r);
    expect_refused(tmp, ok, p, "\"schema\" missing or another version", "schema version");
    expect_refused(tmp, p, ok, "schema.json", "schema version, old side");
    cJSON_Delete(r);
    free(p);

    r = report("c");
    add_result(r, "c0m000.dat", 0, "normal", &match);
    add_result(r, "c0m000.dat", 1, "normal", &match);
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "results"), 1), "status");
    p = save(tmp, "nostatus.json", r);
    expect_refused(tmp, ok, p, "results[1] is incomplete", "missing status");
    cJSON_Delete(r);
    free(p);

    r = report("d");
    add_result(r, "c0m000.dat", 0, "normal", &mis);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "results"), 0),
                              "divergence", cJSON_CreateNull());
    p = save(tmp, "nodiv.json", r);
    expect_refused(tmp, ok, p, "results[0] is incomplete", "mismatch without divergence");
    cJSON_Delete(r);
    free(p);

    r = report("e");
    add_result(r, "c0m000.dat", 0, "normal", &match);
    add_result(r, "c0m000.dat", 0, "normal", &mis);
    p = save(tmp, "twice.json", r);
    expect_refused(tmp, ok, p, "appears twice", "duplicate key");
    cJSON_Delete(r);
    free(p);

    p = ts_path(tmp, "broken.json");
    ts_write(p, "{\"schema\":", 10);
    expect_refused(tmp, ok, p, "not valid JSON", "not JSON");
    free(p);
    p = ts_path(tmp, "absent.json");
    expect_refused(tmp, ok, p, "absent.json", "missing file");
    free(p);

    cJSON_Delete(good);
    free(ok);
    ts_rmtree(tmp);
}
