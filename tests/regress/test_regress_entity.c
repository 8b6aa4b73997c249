/*
 * tests/regress/test_regress_entity.c: entity runs through the regression
 * workflow: `record --levels frame,entity` writes one trace file per entity
 * and mode (weapon lines, then body lines, the pair named) listed in the
 * manifest; `decode --weapon` prints the same lines from the reference
 * engine; `check` compares them by default (the manifest says entities were
 * recorded), finds a difference planted in a weapon line at its call and
 * field, and takes a malformed body line as that clip's bad input.
 *
 * Every expectation comes from the edit the test makes, never from
 * ff8diff's own output.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/ts.h"

#define BODY "d4c009.dat"
#define WEAPON "d4w023.dat"
#define PAIR_FILE BODY "+" WEAPON ".entity.normal.jsonl"

typedef struct scratch {
    char *tmp, *corpus, *golden, *rep;
} scratch;

static void setup(scratch *s)
{
    s->tmp = ts_tempdir();
    s->corpus = ts_corpus(s->tmp);
    s->golden = ts_path(s->tmp, "golden");
    s->rep = ts_path(s->tmp, "rep");
    ts_out o;
    ts_cli(s->tmp, &o,
           "record -q --corpus '%s' --out '%s' --modes normal --levels "
           "frame,entity",
           s->corpus, s->golden);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
}

static void teardown_(scratch *s)
{
    free(s->corpus);
    free(s->golden);
    free(s->rep);
    ts_rmtree(s->tmp);
}

static cJSON *check(const scratch *s, const char *args, int want_status)
{
    ts_out o;
    ts_cli(s->tmp, &o, "check -q --corpus '%s' --out '%s' --traces '%s' %s", s->corpus, s->rep,
           s->golden, args);
    cr_assert_eq(o.status, want_status, "check %s: exit %d, expected %d: %s%s", args, o.status,
                 want_status, o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(s->rep);
    ts_sh(s->tmp, &o, "rm -rf '%s'", s->rep);
    ts_out_free(&o);
    return r;
}

/* The entity result (body, weapon, clip) of a report, asserted present. */
static const cJSON *entity_result(const cJSON *r, const char *weapon, int clip)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(r, "entity_results"))
    {
        const cJSON *w = cJSON_GetObjectItem(e, "weapon");
        if (!strcmp(cJSON_GetObjectItem(e, "body")->valuestring, BODY) && cJSON_IsString(w) &&
            !strcmp(w->valuestring, weapon) && cJSON_GetObjectItem(e, "clip")->valueint == clip)
            return e;
    }
    cr_assert_fail("no entity result %s+%s clip %d", BODY, weapon, clip);
    return NULL;
}

/* The index of the line of (model, anim, tick) in an entity trace file's lines. */
static size_t find_line(char **lines, size_t n, const char *model, int anim, int tick)
{
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_Parse(lines[i]);
        cr_assert(o != NULL, "line %zu is not JSON", i + 1);
        int hit = !strcmp(cJSON_GetObjectItem(o, "model")->valuestring, model) &&
                  cJSON_GetObjectItem(o, "anim")->valueint == anim &&
                  cJSON_GetObjectItem(o, "tick")->valueint == tick;
        cJSON_Delete(o);
        if (hit) return i;
    }
    cr_assert_fail("no %s line for anim %d tick %d", model, anim, tick);
    return 0;
}

/* The manifest lists the entities; the pair's file has its weapon's lines first, naming it. */
Test(regress_entity, recorded_with_the_pair_named)
{
    scratch s;
    setup(&s);
    char *man = ts_path(s.golden, "manifest.json");
    cJSON *m = ts_json(man);
    /* small preset: 4 monsters, d1c003, d4c009 with each of two weapons, d7c016 */
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(m, "entities")), 8);
    cr_assert_eq(ts_num(m, "totals.entities"), 8);
    char *path = ts_path(s.golden, PAIR_FILE);
    size_t n;
    char **lines = ts_lines(path, &n);
    cJSON *first = cJSON_Parse(lines[0]);
    cr_assert_str_eq(cJSON_GetObjectItem(first, "model")->valuestring, "weapon");
    cr_assert_str_eq(cJSON_GetObjectItem(first, "file")->valuestring, WEAPON);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(first, "entity"), "body")->valuestring,
                     BODY);
    cr_assert_null(cJSON_GetObjectItem(first, "ret"), "the weapon's lines carry no ret");
    cJSON_Delete(first);
    /* Clip 0 has 6 frames on both: 7 calls, 7 weapon lines then 7 body lines. */
    size_t b0 = find_line(lines, n, "body", 0, 0);
    cr_assert_eq(b0, 7u);
    ts_put_lines(path, lines, n);
    cJSON_Delete(m);
    free(man);
    free(path);
    teardown_(&s);
}

/* decode --weapon prints what the original's recording holds, byte for byte. */
Test(regress_entity, decode_prints_the_recorded_lines)
{
    scratch s;
    setup(&s);
    ts_out o;
    ts_cli(s.tmp, &o, "decode '%s/%s' --weapon '%s/%s' --mode normal", s.corpus, BODY, s.corpus,
           WEAPON);
    cr_assert_eq(o.status, 0, "%s", o.err);
    char *path = ts_path(s.golden, PAIR_FILE);
    char *rec = ts_read(path, NULL);
    cr_assert(rec && !strcmp(rec, o.out), "decode --weapon differs from the recording");
    free(rec);
    free(path);
    ts_out_free(&o);
    teardown_(&s);
}

Test(regress_entity, check_compares_entities_by_default)
{
    scratch s;
    setup(&s);
    cJSON *r = check(&s, "", 0);
    /* normal mode: 7 + 4 + 7 + 7 monster clips, 2 of d1c003, 6 + 6 armed, 2 of d7c016 */
    cr_assert_eq(ts_num(r, "totals.entity.comparisons"), 41);
    cr_assert_eq(ts_num(r, "totals.entity.match"), 41);
    cr_assert_eq(ts_num(r, "totals.entity.sources.traces"), 41);
    cr_assert_eq(ts_num(r, "totals.comparisons"), 47, "the frame level as well");
    cJSON_Delete(r);
    r = check(&s, "--levels frame", 0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(r, "entity_results")), 0);
    cJSON_Delete(r);
    teardown_(&s);
}

/*
 * Weapon root.x of clip 2, call 3, plus 5 in the golden file: the reference
 * differs there first, on the weapon, the recorded value against the edit.
 */
Test(regress_entity, a_planted_weapon_difference_is_found)
{
    scratch s;
    setup(&s);
    char *path = ts_path(s.golden, PAIR_FILE);
    size_t n;
    char **lines = ts_lines(path, &n);
    size_t i = find_line(lines, n, "weapon", 2, 3);
    cJSON *o = cJSON_Parse(lines[i]);
    cJSON *root = cJSON_GetObjectItem(o, "root");
    int was = cJSON_GetArrayItem(root, 0)->valueint;
    cJSON_ReplaceItemInArray(root, 0, cJSON_CreateNumber(was + 5));
    free(lines[i]);
    lines[i] = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    ts_put_lines(path, lines, n);
    cJSON *r = check(&s, "", 1);
    const cJSON *e = entity_result(r, WEAPON, 2), *d = cJSON_GetObjectItem(e, "divergence");
    cr_assert_str_eq(cJSON_GetObjectItem(e, "status")->valuestring, "mismatch");
    cr_assert_eq(cJSON_GetObjectItem(d, "tick")->valueint, 3);
    cr_assert_str_eq(cJSON_GetObjectItem(d, "field")->valuestring, "weapon.root.x");
    cr_assert_str_eq(cJSON_GetObjectItem(d, "model")->valuestring, "weapon");
    cr_assert_eq(cJSON_GetObjectItem(d, "ref")->valueint, was);
    cr_assert_eq(cJSON_GetObjectItem(d, "orig")->valueint, was + 5);
    cr_assert_eq(ts_num(r, "totals.entity.mismatch"), 1);
    cJSON_Delete(r);
    free(path);
    teardown_(&s);
}

/* A body line without "ret": that clip is bad input naming the line; the others compare. */
Test(regress_entity, a_malformed_body_line_spoils_its_clip)
{
    scratch s;
    setup(&s);
    char *path = ts_path(s.golden, PAIR_FILE);
    size_t n;
    char **lines = ts_lines(path, &n);
    size_t i = find_line(lines, n, "body", 1, 0);
    cJSON *o = cJSON_Parse(lines[i]);
    cJSON_DeleteItemFromObject(o, "ret");
    free(lines[i]);
    lines[i] = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    ts_put_lines(path, lines, n);
    cJSON *r = check(&s, "", 2);
    const cJSON *e = entity_result(r, WEAPON, 1);
    cr_assert_str_eq(cJSON_GetObjectItem(e, "status")->valuestring, "bad_input");
    const char *msg = cJSON_GetObjectItem(cJSON_GetObjectItem(e, "error"), "message")->valuestring;
    char want[64];
    snprintf(want, sizeof want, "line %zu: key \"ret\" missing", i + 1);
    cr_assert(strstr(msg, want) != NULL, "%s (expected %s)", msg, want);
    cr_assert_eq(ts_num(r, "totals.entity.bad_input"), 1);
    cr_assert_eq(ts_num(r, "totals.entity.match"), 40);
    cJSON_Delete(r);
    free(path);
    teardown_(&s);
}
