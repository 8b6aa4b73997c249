/*
 * tests/harness/test_harness_report_schema.c: report.json against its
 * schema: valid as built from the hand-built run in rt.c, broken copies
 * rejected (each break one rule of the schema), and every enum of the
 * schema equal to the C table it names.
 */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/emu.h"
#include "emu/engine/fault.h"
#include "harness/core/fields.h"
#include "harness/core/verdict.h"
#include "harness/run/leaf.h"
#include "harness/report/report.h"
#include "ref/dat.h"
#include "tests/harness/rt.h"

/* The suites' schema check (tests/js/schema.mjs, Ajv) on the files `pattern` names in dir:
 * its exit status (0 all valid, 1 some invalid) and how many it named invalid. */
static int ajv_status(const char *dir, const char *pattern, int *invalid)
{
    char *script = ts_source("tests/js/schema.mjs");
    char *schema = ts_source("reports/schema/report.schema.json");
    ts_out o;
    ts_sh(dir, &o, "node '%s' '%s' '%s'/%s", script, schema, dir, pattern);
    int st = o.status;
    *invalid = ts_count(o.err, " does not validate against ");
    ts_out_free(&o);
    free(schema);
    free(script);
    return st;
}

Test(schema, built_report_validates)
{
    char *dir = ts_tempdir();
    cJSON *j = rt_report(), *v;
    int st = rt_validate(dir, j, &v);
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(st, 0, "report.json does not validate (exit %d): %s", st, txt);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(v, "valid")), "%s", txt);
    int invalid;
    cr_assert_eq(ajv_status(dir, "report.json", &invalid), 0,
                 "tests/js/schema.mjs refuses a valid report");
    free(txt);
    cJSON_Delete(v);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

static cJSON *at(cJSON *o, const char *key)
{
    cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(c != NULL, "no key %s", key);
    return c;
}

static void break_status(cJSON *j)
{
    cJSON *r = cJSON_GetArrayItem(at(j, "results"), 0);
    cJSON_ReplaceItemInObject(r, "status", cJSON_CreateString("maybe"));
}
static void drop_total(cJSON *j)
{
    cJSON_DeleteItemFromObject(at(j, "totals"), "match");
}
static void extra_key(cJSON *j)
{
    cJSON_AddNumberToObject(j, "extra", 1);
}
static void mismatch_without_divergence(cJSON *j)
{
    cJSON *r = cJSON_GetArrayItem(at(j, "results"), 1);
    cJSON_ReplaceItemInObject(r, "divergence", cJSON_CreateNull());
}
static void bad_fault_kind(cJSON *j)
{
    cJSON *r = cJSON_GetArrayItem(at(j, "results"), 2);
    cJSON_ReplaceItemInObject(at(r, "fault"), "kind", cJSON_CreateString("segv"));
}
static void bad_dat_kind(cJSON *j)
{
    cJSON *m = cJSON_GetArrayItem(at(j, "manifest"), 0);
    cJSON_ReplaceItemInObject(m, "kind", cJSON_CreateString("dragon"));
}
static void frame_group_leaf_example(cJSON *j)
{
    cJSON *g = cJSON_GetArrayItem(at(j, "groups"), 0), *ex = cJSON_CreateObject();
    cJSON_AddStringToObject(ex, "routine", "bitReader");
    cJSON_AddNumberToObject(ex, "case", 1);
    cJSON_ReplaceItemInObject(g, "example", ex);
}
static void wrong_schema_name(cJSON *j)
{
    cJSON_ReplaceItemInObject(j, "schema", cJSON_CreateString("ff8diff-report/2"));
}
static void field_name_typo(cJSON *j)
{
    cJSON *d = at(cJSON_GetArrayItem(at(j, "results"), 1), "divergence");
    cJSON_ReplaceItemInObject(d, "field", cJSON_CreateString("bone[3].rot..x"));
}

Test(schema, broken_reports_fail)
{
    static const struct {
        const char *name;
        void (*mutate)(cJSON *);
    } cases[] = {
        {"status maybe", break_status},
        {"totals.match missing", drop_total},
        {"unknown top-level key", extra_key},
        {"mismatch with null divergence", mismatch_without_divergence},
        {"fault kind segv", bad_fault_kind},
        {"manifest kind dragon", bad_dat_kind},
        {"frame group with a leaf example", frame_group_leaf_example},
        {"schema ff8diff-report/2", wrong_schema_name},
        {"field bone[3].rot..x", field_name_typo},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    char *dir = ts_tempdir(), args[4096];
    const char *src = getenv("FF8DIFF_SOURCE_DIR");
    cr_assert(src != NULL, "FF8DIFF_SOURCE_DIR is not set");
    int at = snprintf(args, sizeof args, "validate-each %s/reports/schema/report.schema.json", src);
    cJSON *good = rt_report();
    for (size_t i = 0; i < N; i++) {
        cJSON *j = cJSON_Duplicate(good, 1);
        cases[i].mutate(j);
        char kept[64], *json = cJSON_Print(j), *path;
        snprintf(kept, sizeof kept, "case-%02zu.json", i);
        path = ts_path(dir, kept);
        ts_write(path, json, strlen(json));
        at += snprintf(args + at, sizeof args - (size_t)at, " %s", path);
        cr_assert_lt((size_t)at, sizeof args);
        free(path);
        free(json);
        cJSON_Delete(j);
    }
    /* One start of the checker judges each case on its own. 3 = an invalid document;
     * anything else means the checker did not judge them. */
    int st;
    cJSON *v = rt_check(args, &st), *docs = cJSON_GetObjectItem(v, "docs");
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(st, 3, "expected validation failures, exit %d: %s", st, txt);
    cr_assert_eq(cJSON_GetArraySize(docs), N, "%s", txt);
    for (int i = 0; i < N; i++) {
        const cJSON *d = cJSON_GetArrayItem(docs, i);
        cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(d, "valid")),
                  "case %d (%s): expected a validation failure: %s", i, cases[i].name, txt);
    }
    free(txt);
    cJSON_Delete(v);
    /* The suites' faster check (ts_assert_valid) refuses every one of them too. */
    int invalid, n = N;
    cr_assert_eq(ajv_status(dir, "case-*.json", &invalid), 1, "tests/js/schema.mjs accepts all");
    cr_assert_eq(invalid, n, "tests/js/schema.mjs refuses %d of the %d cases", invalid, n);
    cJSON_Delete(good);
    ts_rmtree(dir);
}

static cJSON *schema_enum(cJSON *schema, const char *def)
{
    cJSON *e =
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(schema, "$defs"), def), "enum");
    cr_assert(cJSON_IsArray(e), "schema has no $defs.%s.enum", def);
    return e;
}

static void same_enum(cJSON *schema, const char *def, int n, const char *(*name)(int))
{
    cJSON *e = schema_enum(schema, def);
    cr_assert_eq(cJSON_GetArraySize(e), n, "%s: %d names in the schema, %d in the C table", def,
                 cJSON_GetArraySize(e), n);
    /* same size and every (distinct) C name present: the same set, in any order */
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++)
            cr_assert(strcmp(name(k), name(i)) != 0, "%s: C table repeats %s", def, name(i));
        int found = 0;
        const cJSON *s;
        cJSON_ArrayForEach(s, e)
        {
            found |= cJSON_IsString(s) && strcmp(s->valuestring, name(i)) == 0;
        }
        cr_assert(found, "%s: the C table's %s is not in the schema", def, name(i));
    }
}

static const char *fault_n(int i)
{
    return emu_fault_name((emu_fault_kind)i);
}
static const char *err_n(int i)
{
    return ff_errkind_name((ff_errkind)i);
}
static const char *field_n(int i)
{
    return field_kind_name((field_id)i);
}
/* Every field's full name, per-bone ones at the largest bone. */
static const char *field_full_n(int i)
{
    static char buf[FIELD__COUNT][48];
    return field_name((field_id)i, 254, buf[i], sizeof buf[i]);
}

/*
 * Field names follow a pattern, not an enumeration, so that a new field is
 * one row of the C table: every C name must match it.
 */
static void same_pattern(cJSON *schema, const char *def, int n, const char *(*name)(int))
{
    cJSON *p = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(schema, "$defs"), def), "pattern");
    cr_assert(cJSON_IsString(p), "schema has no $defs.%s.pattern", def);
    regex_t re;
    cr_assert_eq(regcomp(&re, p->valuestring, REG_EXTENDED | REG_NOSUB), 0, "%s: bad pattern", def);
    for (int i = 0; i < n; i++)
        cr_assert_eq(regexec(&re, name(i), 0, NULL, 0), 0, "%s: %s does not match %s", def,
                     name(i), p->valuestring);
    cr_assert_neq(regexec(&re, "bone[1]..x", 0, NULL, 0), 0, "%s: the pattern accepts junk", def);
    regfree(&re);
}

static const char *dat_n(int i)
{
    return dat_kind_name((dat_kind)i);
}
static const char *mode_n(int i)
{
    return mode_name((mode_id)i);
}
static const char *status_n(int i)
{
    return res_status_name((res_status)i);
}
static const char *source_n(int i)
{
    return res_source_name((res_source)i);
}
static const char *verdict_n(int i)
{
    return verdict_reason_name((verdict)i);
}
static const char *routine_n(int i)
{
    return leaf_routine_name((emu_leaf)i);
}
static const char *engine_n(int i)
{
    return emu_engine_kind_name((emu_engine_kind)i);
}

Test(schema, enums_equal_the_c_tables)
{
    char *path = ts_path(getenv("FF8DIFF_SOURCE_DIR"), "reports/schema/report.schema.json");
    char *text = ts_read(path, NULL);
    cr_assert(text != NULL, "cannot read %s", path);
    cJSON *s = cJSON_Parse(text);
    cr_assert(s != NULL, "%s is not JSON", path);
    same_enum(s, "fault_kind", EMU_FAULT__COUNT, fault_n);
    same_enum(s, "verdict_reason", VERDICT__COUNT, verdict_n);
    same_enum(s, "error_kind", FF_E__COUNT, err_n);
    same_pattern(s, "field_kind", FIELD__COUNT, field_n);
    same_pattern(s, "field_name", FIELD__COUNT, field_full_n);
    same_enum(s, "dat_kind", DAT__KIND_COUNT, dat_n);
    same_enum(s, "mode", MODE__COUNT, mode_n);
    same_enum(s, "status", RES__COUNT, status_n);
    same_enum(s, "source", RES_SRC__COUNT, source_n);
    same_enum(s, "routine", LEAF_ROUTINES, routine_n);
    same_enum(s, "engine_kind", EMU_ENGINE__COUNT, engine_n);
    cJSON *c = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(s, "properties"), "schema"), "const");
    cr_assert(cJSON_IsString(c) && strcmp(c->valuestring, REPORT_SCHEMA) == 0,
              "schema const is not " REPORT_SCHEMA);
    cJSON_Delete(s);
    free(text);
    free(path);
}
