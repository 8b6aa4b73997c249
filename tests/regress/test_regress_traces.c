/*
 * tests/regress/test_regress_traces.c: `check` on trace folders edited by
 * hand: one planted difference is found at the right clip, tick and field
 * with both values; malformed traces (bad JSON, a missing key, a wrong bone
 * count, ticks out of order) are bad input whose error names the line; a
 * corpus file changed since recording, a missing trace file and the
 * original's recorded faults are reported as such; a candidate whose trace
 * of a clip stops short (every call it gives agreeing) or is not there is
 * not decoded, one that stops short after a wrong value a mismatch.
 *
 * Every expectation comes from the edit the test makes (which line, which
 * value), never from ff8diff's own output.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/ts.h"

#define FILE_ "c0m001.dat"
#define MODE_ "normal"
#define TRACE_ FILE_ "." MODE_ ".jsonl"

typedef struct scratch {
    char *tmp, *corpus, *golden, *edited, *rep;
} scratch;

static void setup(scratch *s, const char *modes)
{
    s->tmp = ts_tempdir();
    s->corpus = ts_corpus(s->tmp);
    s->golden = ts_path(s->tmp, "golden");
    s->edited = ts_path(s->tmp, "edited");
    s->rep = ts_path(s->tmp, "rep");
    ts_out o;
    ts_cli(s->tmp, &o, "record -q --corpus '%s' --out '%s' --modes %s", s->corpus,
           s->golden, modes);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
    ts_copy_dir(s->golden, s->edited);
}

static void teardown_(scratch *s)
{
    free(s->corpus);
    free(s->golden);
    free(s->edited);
    free(s->rep);
    ts_rmtree(s->tmp);
}

/* Index of the line holding (anim, tick) in a trace file's lines. */
static size_t find_line(char **lines, size_t n, int anim, int tick)
{
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_Parse(lines[i]);
        cr_assert(o != NULL, "line %zu is not JSON", i + 1);
        int a = (int)cJSON_GetObjectItem(o, "anim")->valuedouble;
        int t = (int)cJSON_GetObjectItem(o, "tick")->valuedouble;
        cJSON_Delete(o);
        if (a == anim && t == tick) return i;
    }
    cr_assert_fail("no line for anim %d tick %d", anim, tick);
    return 0;
}

static cJSON *check(const scratch *s, const char *args, int want_status, char **err)
{
    ts_out o;
    ts_cli(s->tmp, &o, "check -q --corpus '%s' --out '%s' %s", s->corpus, s->rep, args);
    cr_assert_eq(o.status, want_status, "check %s: exit %d, expected %d: %s%s", args, o.status,
                 want_status, o.out, o.err);
    if (err) *err = strdup(o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(s->rep);
    ts_sh(s->tmp, &o, "rm -rf '%s'", s->rep);
    ts_out_free(&o);
    return r;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    cr_assert(cJSON_IsString(v), "no string %s", key);
    return v->valuestring;
}

/* Plants +7 into bone[5].rot.y of anim 1, tick 2; returns (old, new) values. */
static void plant(const scratch *s, int *was, int *now)
{
    char *path = ts_path(s->edited, TRACE_);
    size_t n;
    char **lines = ts_lines(path, &n);
    size_t i = find_line(lines, n, 1, 2);
    cJSON *o = cJSON_Parse(lines[i]);
    cJSON *v = cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "rot"), 5), 1);
    cr_assert(cJSON_IsNumber(v), "anim 1 has fewer than 6 bones");
    *was = (int)v->valuedouble;
    *now = (int16_t)(uint16_t)(*was + 7);
    cJSON_SetNumberValue(v, *now);
    free(lines[i]);
    lines[i] = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    ts_put_lines(path, lines, n);
    free(path);
}

static void expect_divergence(const cJSON *r, int ref, int orig)
{
    cr_assert_eq(ts_num(r, "totals.mismatch"), 1, "exactly one clip differs");
    cr_assert_eq(ts_num(r, "totals.match") + 1, ts_num(r, "totals.comparisons"));
    const cJSON *res = ts_result(r, FILE_, 1, MODE_);
    cr_assert(res != NULL);
    cr_assert_str_eq(str_of(res, "status"), "mismatch");
    const cJSON *d = cJSON_GetObjectItem(res, "divergence");
    cr_assert_eq(ts_num(d, "tick"), 2);
    cr_assert_str_eq(str_of(d, "field"), "bone[5].rot.y");
    cr_assert_eq(ts_num(d, "ref"), ref);
    cr_assert_eq(ts_num(d, "orig"), orig);
    cr_assert_eq(ts_num(d, "differing_fields"), 1);
}

Test(traces, planted_difference_found_at_its_clip_tick_and_field)
{
    scratch s;
    setup(&s, "normal,slow");
    int was, now;
    plant(&s, &was, &now);
    char args[4200];
    /* The edited traces as the authority: the reference keeps the old value. */
    snprintf(args, sizeof args, "--traces '%s'", s.edited);
    cJSON *r = check(&s, args, 1, NULL);
    expect_divergence(r, was, now);
    cJSON_Delete(r);
    /* As the candidate (an outside decoder) against the golden traces. */
    snprintf(args, sizeof args, "--traces '%s' --against '%s'", s.golden, s.edited);
    r = check(&s, args, 1, NULL);
    expect_divergence(r, now, was);
    cJSON_Delete(r);
    teardown_(&s);
}

Test(traces, planted_difference_is_a_regression_for_compare_reports)
{
    scratch s;
    setup(&s, "normal");
    char *before = ts_path(s.tmp, "before"), *after = ts_path(s.tmp, "after");
    ts_out o;
    ts_cli(s.tmp, &o, "check -q --traces '%s' --against '%s' --out '%s'", s.golden, s.edited,
           before);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    int was, now;
    plant(&s, &was, &now);
    ts_cli(s.tmp, &o, "check -q --traces '%s' --against '%s' --out '%s'", s.golden, s.edited,
           after);
    cr_assert_eq(o.status, 1, "%s", o.err);
    ts_out_free(&o);
    ts_cli(s.tmp, &o, "compare-reports '%s'/* '%s'/*", before, after);
    cr_assert_eq(o.status, 1, "a newly broken clip is a regression: %s%s", o.out, o.err);
    cr_assert(strstr(o.out, "newly broken (1)") != NULL, "%s", o.out);
    cr_assert(strstr(o.out, FILE_ " anim 1 " MODE_ ": match -> mismatch at tick 2 bone[5].rot.y") !=
                  NULL,
              "%s", o.out);
    ts_out_free(&o);
    ts_cli(s.tmp, &o, "compare-reports '%s'/* '%s'/*", after, before);
    cr_assert_eq(o.status, 0, "fixing is no regression: %s", o.out);
    cr_assert(strstr(o.out, "fixed (1)") != NULL, "%s", o.out);
    ts_out_free(&o);
    free(before);
    free(after);
    teardown_(&s);
}

/* ---- malformed traces: each error names its line ---- */

typedef void (*edit_fn)(char **lines, size_t at, size_t n);

static void edit_bad_json(char **lines, size_t at, size_t n)
{
    (void)n;
    lines[at][strlen(lines[at]) / 2] = '\0'; /* cut in the middle */
}

static void edit_missing_key(char **lines, size_t at, size_t n)
{
    (void)n;
    cJSON *o = cJSON_Parse(lines[at]);
    cJSON_DeleteItemFromObject(o, "root");
    free(lines[at]);
    lines[at] = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
}

static void drop_bone(char **line)
{
    cJSON *o = cJSON_Parse(*line);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(o, "rot"), 0);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(o, "scale"), 0);
    free(*line);
    *line = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
}

static void edit_bone_count(char **lines, size_t at, size_t n)
{
    (void)n;
    drop_bone(&lines[at]);
}

static void edit_swap_ticks(char **lines, size_t at, size_t n)
{
    cr_assert(at + 1 < n);
    char *t = lines[at];
    lines[at] = lines[at + 1];
    lines[at + 1] = t;
}

typedef struct malformed {
    const char *name;
    edit_fn edit;
    int tick;          /* the line edited: anim 1 at this tick */
    const char *words; /* in the error after "line N: " */
} malformed;

static const malformed cases[] = {
    {"bad JSON", edit_bad_json, 2, "not valid JSON"},
    {"missing key", edit_missing_key, 2, "key \"root\" missing"},
    {"wrong bone count", edit_bone_count, 2, "\"rot\" has 70 bones, expected 71"},
    {"ticks out of order", edit_swap_ticks, 2, "tick 3 out of order (expected 2)"},
};

static void malformed_case(const malformed *c, int authority)
{
    scratch s;
    setup(&s, "normal");
    char *path = ts_path(s.edited, TRACE_);
    size_t n;
    char **lines = ts_lines(path, &n);
    size_t at = find_line(lines, n, 1, c->tick);
    c->edit(lines, at, n);
    ts_put_lines(path, lines, n);
    free(path);
    char args[4200], want[256], *err;
    if (authority)
        snprintf(args, sizeof args, "--traces '%s'", s.edited);
    else
        snprintf(args, sizeof args, "--traces '%s' --against '%s'", s.golden, s.edited);
    cJSON *r = check(&s, args, 2, &err);
    snprintf(want, sizeof want, "line %zu: %s", at + 1, c->words);
    const cJSON *res = ts_result(r, FILE_, 1, MODE_);
    cr_assert_str_eq(str_of(res, "status"), "bad_input", "%s", c->name);
    const char *msg = str_of(cJSON_GetObjectItem(res, "error"), "message");
    cr_assert(strstr(msg, want) != NULL, "%s: error '%s' lacks '%s'", c->name, msg, want);
    cr_assert(strstr(err, want) != NULL, "%s: stderr '%s' lacks '%s'", c->name, err, want);
    cr_assert_str_eq(str_of(ts_result(r, FILE_, 0, MODE_), "status"), "match",
                     "%s: the clip before the damage", c->name);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0, "%s", c->name);
    free(err);
    cJSON_Delete(r);
    teardown_(&s);
}

Test(traces, malformed_candidate_errors_name_the_line)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        malformed_case(&cases[i], 0);
}

Test(traces, malformed_golden_errors_name_the_line)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        malformed_case(&cases[i], 1);
}

Test(traces, a_whole_clip_with_the_wrong_bone_count)
{
    scratch s;
    setup(&s, "normal");
    char *path = ts_path(s.edited, TRACE_);
    size_t n;
    char **lines = ts_lines(path, &n);
    size_t first = find_line(lines, n, 1, 0), after = find_line(lines, n, 2, 0);
    for (size_t i = first; i < after; i++)
        drop_bone(&lines[i]);
    ts_put_lines(path, lines, n);
    free(path);
    char args[4200], want[128];
    snprintf(args, sizeof args, "--traces '%s' --against '%s'", s.golden, s.edited);
    cJSON *r = check(&s, args, 2, NULL);
    snprintf(want, sizeof want, "line %zu: anim 1 has 70 bones, the model has 71", first + 1);
    const cJSON *res = ts_result(r, FILE_, 1, MODE_);
    const char *msg = str_of(cJSON_GetObjectItem(res, "error"), "message");
    cr_assert(strstr(msg, want) != NULL, "error '%s' lacks '%s'", msg, want);
    /* Only that clip: the next one reads on. */
    cr_assert_str_eq(str_of(ts_result(r, FILE_, 2, MODE_), "status"), "match");
    cr_assert_eq(ts_num(r, "totals.bad_input"), 1);
    cJSON_Delete(r);
    teardown_(&s);
}

/* ---- what the manifest lets check refuse ---- */

Test(traces, a_changed_corpus_file_is_bad_input)
{
    scratch s;
    setup(&s, "normal");
    /* One byte of the geometry section (section 1) changes: the file still parses. */
    char *p = ts_path(s.corpus, "c0m002.dat");
    size_t n;
    char *d = ts_read(p, &n);
    uint32_t geo =
        (uint8_t)d[8] | (uint8_t)d[9] << 8 | (uint8_t)d[10] << 16 | (uint32_t)(uint8_t)d[11] << 24;
    cr_assert(geo < n);
    d[geo] ^= 0x55;
    ts_write(p, d, n);
    free(d);
    free(p);
    char args[4200];
    snprintf(args, sizeof args, "--traces '%s'", s.golden);
    cJSON *r = check(&s, args, 2, NULL);
    unsigned bones, clips;
    p = ts_path(s.corpus, "c0m002.dat");
    clips = ts_dat_clips(p, &bones);
    free(p);
    cr_assert_eq(ts_num(r, "totals.bad_input"), clips);
    for (unsigned c = 0; c < clips; c++) {
        const cJSON *res = ts_result(r, "c0m002.dat", (int)c, MODE_);
        cr_assert_str_eq(str_of(res, "status"), "bad_input", "anim %u", c);
        cr_assert(strstr(str_of(cJSON_GetObjectItem(res, "error"), "message"),
                         "traces recorded from a different file") != NULL,
                  "anim %u", c);
    }
    cr_assert_eq(ts_num(r, "totals.match"), ts_num(r, "totals.comparisons") - clips);
    cJSON_Delete(r);
    teardown_(&s);
}

Test(traces, a_missing_trace_file_is_bad_input)
{
    scratch s;
    setup(&s, "normal,fast");
    char *p = ts_path(s.golden, "c0m003.dat.fast.jsonl");
    cr_assert(remove(p) == 0);
    free(p);
    p = ts_path(s.corpus, "c0m003.dat");
    unsigned bones, clips = ts_dat_clips(p, &bones);
    free(p);
    char args[4200];
    snprintf(args, sizeof args, "--traces '%s'", s.golden);
    cJSON *r = check(&s, args, 2, NULL);
    cr_assert_eq(ts_num(r, "totals.bad_input"), clips);
    cr_assert_str_eq(str_of(ts_result(r, "c0m003.dat", 0, "fast"), "status"), "bad_input");
    cr_assert_str_eq(str_of(ts_result(r, "c0m003.dat", 0, "normal"), "status"), "match");
    cJSON_Delete(r);
    teardown_(&s);
}

/*
 * Every fault the manifest records has the shape report.json gives the same
 * clip's fault (disassembly as an array of lines, import null unless an
 * import was called), field for field.
 */
static void expect_manifest_faults_as_in(const char *golden, const cJSON *report)
{
    char *mpath = ts_path(golden, "manifest.json");
    cJSON *man = ts_json(mpath);
    cr_assert(man != NULL, "%s does not parse", mpath);
    size_t seen = 0;
    const cJSON *f, *e;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(man, "files"))
    {
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(f, "faults"))
        {
            const cJSON *match = ts_result(report, str_of(f, "name"), (int)ts_num(e, "anim"),
                                           str_of(e, "mode"));
            cr_assert(match != NULL, "%s %s anim %g: no such result in the run", str_of(f, "name"),
                      str_of(e, "mode"), ts_num(e, "anim"));
            const cJSON *want = cJSON_GetObjectItem(match, "fault");
            const cJSON *got = cJSON_GetObjectItem(e, "fault");
            cr_assert(cJSON_IsArray(cJSON_GetObjectItem(got, "disassembly")),
                      "%s anim %g: the manifest's disassembly is not a list of lines",
                      str_of(f, "name"), ts_num(e, "anim"));
            cr_assert(cJSON_Compare(want, got, 1), "%s anim %g: manifest fault differs from report's",
                      str_of(f, "name"), ts_num(e, "anim"));
            seen++;
        }
    }
    cr_assert(seen > 0, "the manifest records no fault");
    cJSON_Delete(man);
    free(mpath);
}

Test(traces, recorded_faults_count_as_faults)
{
    /* A tiny instruction budget makes the original fault on most clips: on Unicorn, whatever
     * FF8DIFF_ENGINE says (a native budget is CPU time, 20 ms at least: nothing faults). */
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp), *golden = ts_path(tmp, "golden");
    char *rep_run = ts_path(tmp, "rep-run"), *rep_check = ts_path(tmp, "rep-check");
    ts_out o;
    ts_cli(tmp, &o, "record -q --engine unicorn --no-cache --budget 1000 --corpus '%s' --out '%s'",
           corpus, golden);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
    ts_cli(tmp, &o, "run -q --engine unicorn --no-cache --budget 1000 --corpus '%s' --out '%s'",
           corpus, rep_run);
    cr_assert_eq(o.status, 1, "run: %s", o.err);
    ts_out_free(&o);
    ts_cli(tmp, &o, "check -q --traces '%s' --out '%s'", golden, rep_check);
    cr_assert_eq(o.status, 1, "check: %s", o.err);
    ts_out_free(&o);
    cJSON *a = ts_report(rep_run), *b = ts_report(rep_check);
    cr_assert(ts_num(a, "totals.fault") > 0, "the budget made nothing fault");
    cr_assert_eq(ts_num(b, "totals.fault"), ts_num(a, "totals.fault"));
    cr_assert_eq(ts_num(b, "totals.match"), ts_num(a, "totals.match"));
    const cJSON *x;
    size_t i = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(a, "results"))
    {
        const cJSON *y = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "results"), (int)i++);
        cr_assert_str_eq(str_of(x, "status"), str_of(y, "status"), "result %zu", i - 1);
        cr_assert_eq(ts_num(x, "ticks_orig"), ts_num(y, "ticks_orig"), "result %zu", i - 1);
        if (!strcmp(str_of(x, "status"), "fault"))
            cr_assert_str_eq(str_of(cJSON_GetObjectItem(x, "fault"), "kind"),
                             str_of(cJSON_GetObjectItem(y, "fault"), "kind"), "result %zu", i - 1);
    }
    expect_manifest_faults_as_in(golden, a);
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(rep_run);
    free(rep_check);
    free(golden);
    free(corpus);
    ts_rmtree(tmp);
}

/* Lines of anim in lines[0..n): how many, and where the first is. */
static size_t anim_lines(char **lines, size_t n, int anim, size_t *first)
{
    size_t k = 0;
    char key[32];
    snprintf(key, sizeof key, "\"anim\":%d,", anim);
    for (size_t i = 0; i < n; i++)
        if (strstr(lines[i], key) && !k++) *first = i;
    return k;
}

Test(traces, a_candidate_stopping_short_is_not_decoded)
{
    scratch s;
    setup(&s, "normal");
    char *path = ts_path(s.edited, TRACE_);
    size_t n, f1 = 0, f2 = 0, f3 = 0;
    char **lines = ts_lines(path, &n);
    size_t n1 = anim_lines(lines, n, 1, &f1), n2 = anim_lines(lines, n, 0, &f2),
           n3 = anim_lines(lines, n, 2, &f3);
    cr_assert(n1 >= 2 && n2 >= 1 && n3 >= 4, "clips 1, 0, 2 have calls: %zu %zu %zu", n1, n2, n3);
    /* anim 1 loses its end call; anim 0 every line; anim 2 its last two, and tick 1 is wrong. */
    int was = 0;
    {
        cJSON *o = cJSON_Parse(lines[f3 + 1]);
        cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "root"), 0);
        was = (int)v->valuedouble;
        cJSON_SetNumberValue(v, was + 1);
        free(lines[f3 + 1]);
        lines[f3 + 1] = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int drop = i == f1 + n1 - 1 || (i >= f2 && i < f2 + n2) || (i >= f3 + n3 - 2 && i < f3 + n3);
        if (drop) free(lines[i]);
        else lines[kept++] = lines[i];
    }
    ts_put_lines(path, lines, kept);
    free(path);
    char args[4200];
    snprintf(args, sizeof args, "--traces '%s' --against '%s'", s.golden, s.edited);
    cJSON *r = check(&s, args, 1, NULL);
    cr_assert_eq(ts_num(r, "totals.bad_input"), 0);
    const cJSON *a1 = ts_result(r, FILE_, 1, MODE_), *a2 = ts_result(r, FILE_, 0, MODE_),
                *a3 = ts_result(r, FILE_, 2, MODE_);
    cr_assert_str_eq(str_of(a1, "status"), "not_decoded");
    const cJSON *nd = cJSON_GetObjectItem(a1, "not_decoded");
    cr_assert_eq(ts_num(nd, "supplied"), n1 - 1);
    cr_assert_eq(ts_num(nd, "expected"), n1);
    cr_assert_str_eq(str_of(nd, "unit"), "ticks");
    cr_assert_str_eq(str_of(a2, "status"), "not_decoded");
    cr_assert_eq(ts_num(cJSON_GetObjectItem(a2, "not_decoded"), "supplied"), 0);
    cr_assert(strstr(str_of(cJSON_GetObjectItem(a2, "error"), "message"), "no trace for anim 0"));
    cr_assert_str_eq(str_of(a3, "status"), "mismatch", "wrong before stopping: a mismatch");
    const cJSON *d = cJSON_GetObjectItem(a3, "divergence");
    cr_assert_eq(ts_num(d, "tick"), 1);
    cr_assert_str_eq(str_of(d, "field"), "root.x");
    cr_assert_eq(ts_num(d, "ref"), was + 1);
    cr_assert_eq(ts_num(r, "totals.not_decoded"), 2);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 1);
    cJSON_Delete(r);
    teardown_(&s);
}
