/*
 * tests/harness/test_harness_report_entity.c: the entity level in the
 * report, from a run's results built here by hand: report.json (valid
 * against the schema, entities, results with their model-named field and
 * where the weapon ended, totals, an entity group's example), junit.xml
 * (one case per pair and mode), summary.md and index.html (pairs, pool
 * mismatch, first failures, the in-hand offset plots).
 *
 * The run: files c0m001.dat (monster), d4c009.dat (body), d4w023.dat and
 * d4w051.dat (weapons); normal mode only; entities
 *   0  c0m001.dat alone: clip 0 match, clip 1 bad input
 *   1  d4c009+d4w023: clip 0 mismatch (weapon.bone[1].rot.z at call 3,
 *      5 vs -5; the weapon still runs on the reference, ends at call 4 on
 *      the original), clip 1 fault
 *   2  d4c009+d4w051: pool mismatch (body 3 clips, weapon 2), both match
 * and one entity group, its example result 2. The speed probes: every
 * entity's normal known on both sides (0), entity 1's haste differing
 * (reference 2/2, original 1/1), the rest not known; the entity level ran
 * normal alone.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/pairs.h"
#include "harness/core/fields.h"
#include "tests/harness/rt.h"

static void *must(void *p)
{
    cr_assert(p != NULL, "out of memory");
    return p;
}

static int32_t *ints(const int32_t *v, size_t n)
{
    int32_t *p = must(malloc(n * sizeof *p));
    memcpy(p, v, n * sizeof *p);
    return p;
}

static void file(run_file *f, const char *name, dat_kind kind, unsigned clips)
{
    memset(f, 0, sizeof *f);
    f->name = must(strdup(name));
    f->parsed = 1;
    f->kind = kind;
    f->clips = clips;
    f->bones = 2;
    f->size = 1000;
    memset(f->sha256, 'a', 64);
}

static entity_result *eres(run_results *r, size_t i, uint32_t entity, int32_t clip, res_status s)
{
    entity_result *e = &r->entity_results[i];
    e->entity = entity;
    e->r.file = r->entities[entity].body;
    e->r.clip = clip;
    e->r.mode = MODE_NORMAL;
    e->r.status = s;
    e->r.source = RES_SRC_EMULATED;
    e->r.group = -1;
    e->r.frames = 4;
    e->r.ref_ticks = e->r.orig_ticks = 5;
    e->weapon_frames = r->entities[entity].weapon >= 0 ? 5 : 0;
    e->weapon_end_ref = e->weapon_end_orig = -1;
    r->totals.entity_by_status[s]++;
    r->totals.entity_by_source[RES_SRC_EMULATED]++;
    return e;
}

static void build(run_results *r)
{
    memset(r, 0, sizeof *r);
    r->nfiles = 4;
    r->files = must(calloc(4, sizeof *r->files));
    file(&r->files[0], "c0m001.dat", DAT_MONSTER, 2);
    file(&r->files[1], "d4c009.dat", DAT_BODY, 3);
    file(&r->files[2], "d4w023.dat", DAT_WEAPON, 3);
    file(&r->files[3], "d4w051.dat", DAT_WEAPON, 2);
    r->nentities = 3;
    r->entities = must(calloc(3, sizeof *r->entities));
    res_entity *en = r->entities;
    en[0] = (res_entity){.body = 0,
                         .weapon = -1,
                         .why = PAIRS_NOWEAPON_MONSTER,
                         .body_clips = 2,
                         .clips = 2,
                         .shares = -1,
                         .plot_clip = -1};
    en[1] = (res_entity){.body = 1,
                         .weapon = 2,
                         .body_clips = 3,
                         .weapon_clips = 3,
                         .clips = 2,
                         .shares = -1,
                         .plot_clip = 0,
                         .plot_mode = MODE_NORMAL};
    en[1].attach_rot[0] = 300;
    en[2] = (res_entity){.body = 1,
                         .weapon = 3,
                         .body_clips = 3,
                         .weapon_clips = 2,
                         .clips = 2,
                         .pool_mismatch = 1,
                         .shares = -1,
                         .plot_clip = -1};
    for (int e = 0; e < 3; e++) {
        memset(en[e].queue, 0xFF, sizeof en[e].queue);
        res_queue *q = &en[e].queue[ENTITY_STATUS_NORMAL];
        q->ref[0] = q->orig[0] = 0;
        q->ref[1] = q->orig[1] = en[e].weapon >= 0 ? 0 : -1;
    }
    en[1].queue[ENTITY_STATUS_HASTE] = (res_queue){{2, 2}, {1, 1}};
    r->totals.queue_mismatches = 1;
    r->entity_modes = 1u << MODE_NORMAL;
    static const int32_t ref[4] = {10, 12, 14, 16}, orig[5] = {10, 12, 14, 18, 18};
    for (int k = 0; k < 3; k++) {
        en[1].offset[k] = (res_series){5, 4, 5, ints(ref, 4), ints(orig, 5)};
    }
    r->nentity_results = 6;
    r->entity_results = must(calloc(6, sizeof *r->entity_results));
    eres(r, 0, 0, 0, RES_MATCH);
    entity_result *bad = eres(r, 1, 0, 1, RES_BAD_INPUT);
    bad->r.error = must(malloc(sizeof *bad->r.error));
    ff_error_set(bad->r.error, FF_E_RANGE, "c0m001.dat", -1, "body: clip 1 reads past the end");
    entity_result *mis = eres(r, 2, 1, 0, RES_MISMATCH);
    mis->r.div = (cmp_divergence){.tick = 3,
                                  .model = FIELD_MODEL_WEAPON,
                                  .field = FIELD_ROT_Z,
                                  .bone = 1,
                                  .ref = 5,
                                  .orig = -5,
                                  .cursor_off = 7,
                                  .cursor_bit = 2,
                                  .differing = 9,
                                  .ref_ticks = 5,
                                  .orig_ticks = 6};
    mis->r.group = 0;
    mis->r.orig_ticks = 6;
    mis->weapon_end_orig = 4;
    mis->r.stream_off = 0x40;
    mis->r.stream_len = 2;
    mis->r.stream[0] = 0x81;
    mis->r.cursor_file_off = 0x41;
    entity_result *flt = eres(r, 3, 1, 1, RES_FAULT);
    flt->r.fault = must(calloc(1, sizeof *flt->r.fault));
    flt->r.fault->kind = EMU_FAULT_READ_UNMAPPED;
    flt->r.fault->routine = 0x509520;
    flt->r.fault->addr = 0xDEAD0000;
    snprintf(flt->r.fault->disasm, sizeof flt->r.fault->disasm, ">0x509000: mov eax, 1");
    flt->r.orig_ticks = 0;
    eres(r, 4, 2, 0, RES_MATCH);
    eres(r, 5, 2, 1, RES_MATCH);
    run_totals *t = &r->totals;
    t->files = 4;
    t->entities = 3;
    t->entities_armed = 2;
    t->pool_mismatches = 1;
    t->entity_comparisons = 6;
    r->ngroups = 1;
    r->groups = must(calloc(1, sizeof *r->groups));
    res_group *g = &r->groups[0];
    snprintf(g->level, sizeof g->level, "entity");
    snprintf(g->field, sizeof g->field, "weapon.rot.z");
    snprintf(g->mode, sizeof g->mode, "normal");
    snprintf(g->shape, sizeof g->shape, "negated");
    g->count = 1;
    g->example = 2;
    static const int32_t sref[5] = {0, 1, 3, 5, 5}, sorig[6] = {0, 1, 3, -5, -5, -5};
    g->series = (res_series){6, 5, 6, ints(sref, 5), ints(sorig, 6)};
}

static cJSON *report(void)
{
    run_results r;
    run_meta m;
    build(&r);
    rt_meta(&m);
    m.modes = 1u << MODE_NORMAL;
    m.entity_level = 1;
    cJSON *j = report_build(&m, &r);
    cr_assert_not_null(j);
    run_results_free(&r);
    return j;
}

static const cJSON *get(const cJSON *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *save, *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
        o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, atoi(k)) : cJSON_GetObjectItem(o, k);
    cr_assert_not_null(o, "no %s", path);
    return o;
}

/* Writes text into dir/name and runs report_check.py on it. */
static cJSON *check(const char *dir, const char *name, const char *text, const char *what)
{
    char *path = ts_path(dir, name), args[4400];
    ts_write(path, text, strlen(text));
    const char *src = getenv("FF8DIFF_SOURCE_DIR");
    cr_assert_not_null(src, "FF8DIFF_SOURCE_DIR is not set");
    if (!strcmp(what, "validate"))
        snprintf(args, sizeof args, "validate %s/reports/schema/report.schema.json %s", src, path);
    else
        snprintf(args, sizeof args, "%s %s", what, path);
    int st;
    cJSON *v = rt_check(args, &st);
    char *txt = v ? cJSON_PrintUnformatted(v) : NULL;
    cr_assert_eq(st, 0, "%s %s: exit %d: %s", what, name, st, txt ? txt : "");
    free(txt);
    free(path);
    return v;
}

Test(report_entity, json_validates_and_holds_the_entity_level)
{
    char *dir = ts_tempdir();
    cJSON *j = report();
    char *text = cJSON_Print(j);
    cJSON_Delete(check(dir, "report.json", text, "validate"));
    free(text);
    cr_assert_str_eq(get(j, "run.levels.0")->valuestring, "frame");
    cr_assert_str_eq(get(j, "run.levels.1")->valuestring, "entity");
    cr_assert_eq(cJSON_GetArraySize(get(j, "entities")), 3);
    cr_assert(cJSON_IsNull(get(j, "entities.0.weapon")));
    cr_assert_str_eq(get(j, "entities.0.why")->valuestring, "monster");
    cr_assert(cJSON_IsTrue(get(j, "entities.2.pool_mismatch")));
    cr_assert_eq(get(j, "entities.1.attach.rotation.0")->valueint, 300);
    cr_assert_eq(cJSON_GetArraySize(get(j, "entities.1.plot.x.ref")), 4);
    cr_assert_eq(get(j, "entities.1.plot.x.orig.3")->valueint, 18);
    const cJSON *d = get(j, "entity_results.2.divergence");
    cr_assert_str_eq(get(d, "field")->valuestring, "weapon.bone[1].rot.z");
    cr_assert_str_eq(get(d, "field_kind")->valuestring, "rot.z");
    cr_assert_str_eq(get(d, "model")->valuestring, "weapon");
    cr_assert_eq(get(d, "bone")->valueint, 1);
    cr_assert(cJSON_IsNull(get(j, "entity_results.2.weapon_end.ref")), "still running");
    cr_assert_eq(get(j, "entity_results.2.weapon_end.orig")->valueint, 4);
    cr_assert_str_eq(get(j, "entity_results.2.weapon")->valuestring, "d4w023.dat");
    cr_assert_str_eq(get(j, "entity_results.3.fault.kind")->valuestring, "read_unmapped");
    cr_assert_eq(get(j, "totals.entity.mismatch")->valueint, 1);
    cr_assert_eq(get(j, "totals.entity.pool_mismatches")->valueint, 1);
    cr_assert_eq(get(j, "totals.entity.sources.emulated")->valueint, 6);
    cr_assert_str_eq(get(j, "groups.0.level")->valuestring, "entity");
    cr_assert_str_eq(get(j, "groups.0.example.field")->valuestring, "weapon.bone[1].rot.z");
    cr_assert_str_eq(get(j, "groups.0.example.weapon")->valuestring, "d4w023.dat");
    cr_assert_str_eq(get(j, "groups.0.series.field")->valuestring, "weapon.bone[1].rot.z");
    cJSON_Delete(j);
    ts_rmtree(dir);
}

/* The speed probes per entity and status, and the modes the entity level can and did run. */
Test(report_entity, json_speed_probes_and_modes)
{
    char *dir = ts_tempdir();
    cJSON *j = report();
    char *text = cJSON_Print(j);
    cJSON_Delete(check(dir, "report.json", text, "validate"));
    free(text);
    cr_assert_eq(cJSON_GetArraySize(get(j, "entities.1.queue")), 4);
    const cJSON *h = get(j, "entities.1.queue.2");
    cr_assert_str_eq(get(h, "status")->valuestring, "haste");
    cr_assert_eq(get(h, "byte")->valueint, 0x40);
    cr_assert_str_eq(get(h, "mode")->valuestring, "fast");
    cr_assert_eq(get(h, "ref.body")->valueint, 2);
    cr_assert_eq(get(h, "orig.weapon")->valueint, 1);
    cr_assert(cJSON_IsFalse(get(h, "match")));
    cr_assert(cJSON_IsTrue(get(j, "entities.1.queue.0.match")));
    cr_assert(cJSON_IsNull(get(j, "entities.0.queue.0.ref.weapon")), "no weapon slot");
    cr_assert(cJSON_IsNull(get(j, "entities.0.queue.3.orig")));
    cr_assert(cJSON_IsNull(get(j, "entities.0.queue.3.match")));
    cr_assert_str_eq(get(j, "entities.0.queue.3.status")->valuestring, "slow+haste");
    cr_assert_str_eq(get(j, "entities.0.queue.3.mode")->valuestring, "slow");
    const cJSON *t = get(j, "totals.entity");
    cr_assert_eq(get(t, "queue_mismatches")->valueint, 1);
    cr_assert_eq(cJSON_GetArraySize(get(t, "modes")), 1);
    cr_assert_str_eq(get(t, "modes.0")->valuestring, "normal");
    cr_assert_eq(cJSON_GetArraySize(get(t, "modes_possible")), 3);
    cr_assert_eq(cJSON_GetArraySize(get(t, "modes_frame_only")), 1);
    cr_assert_str_eq(get(t, "modes_frame_only.0.mode")->valuestring, "slow+fast");
    cr_assert(strstr(get(t, "modes_frame_only.0.why")->valuestring, "never both") != NULL);
    char *line = rt_render(report_render_summary, j, "summary");
    cr_assert(strstr(line, "1 bad input, 1 speed probes differing") != NULL, "%s", line);
    free(line);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

/* A probe's speed bits out of range or a status not listed are refused. */
Test(report_entity, schema_checks_the_probes)
{
    char *dir = ts_tempdir();
    for (int k = 0; k < 2; k++) {
        cJSON *j = report();
        cJSON *q = (cJSON *)get(j, "entities.1.queue.2");
        if (k == 0)
            cJSON_ReplaceItemInObject((cJSON *)get(q, "ref"), "body", cJSON_CreateNumber(4));
        else
            cJSON_ReplaceItemInObject(q, "status", cJSON_CreateString("fast"));
        char *text = cJSON_Print(j), *path = ts_path(dir, "report.json"), args[4400];
        ts_write(path, text, strlen(text));
        snprintf(args, sizeof args, "validate %s/reports/schema/report.schema.json %s",
                 getenv("FF8DIFF_SOURCE_DIR"), path);
        int st;
        cJSON_Delete(rt_check(args, &st));
        cr_assert_eq(st, 3, "case %d validated", k);
        free(text);
        free(path);
        cJSON_Delete(j);
    }
    ts_rmtree(dir);
}

/* A divergence named without its model is refused at the entity level. */
Test(report_entity, schema_wants_the_model_in_the_field)
{
    char *dir = ts_tempdir();
    cJSON *j = report();
    cJSON *d = (cJSON *)get(j, "entity_results.2.divergence");
    cJSON_ReplaceItemInObject(d, "field", cJSON_CreateString("bone[1].rot.z"));
    char *text = cJSON_Print(j), *path = ts_path(dir, "report.json"), args[4400];
    ts_write(path, text, strlen(text));
    snprintf(args, sizeof args, "validate %s/reports/schema/report.schema.json %s",
             getenv("FF8DIFF_SOURCE_DIR"), path);
    int st;
    cJSON_Delete(rt_check(args, &st));
    cr_assert_eq(st, 3, "a field without its model validated");
    free(text);
    free(path);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

Test(report_entity, junit_one_case_per_pair_and_mode)
{
    char *dir = ts_tempdir();
    cJSON *j = report();
    char *x = rt_render(report_render_junit, j, "junit");
    cJSON *v = check(dir, "junit.xml", x, "junit");
    const cJSON *s, *suite = NULL;
    cJSON_ArrayForEach(s, get(v, "suites"))
    {
        if (!strcmp(get(s, "name")->valuestring, "entity normal")) suite = s;
    }
    cr_assert_not_null(suite, "no \"entity normal\" suite:\n%s", x);
    cr_assert_eq(get(suite, "tests")->valueint, 3);
    cr_assert_eq(get(suite, "failures")->valueint, 1, "the armed pair: a mismatch and a fault");
    cr_assert_eq(get(suite, "errors")->valueint, 1, "the monster's bad input");
    cr_assert_str_eq(get(suite, "names.1")->valuestring, "d4c009.dat+d4w023.dat normal");
    cr_assert_str_eq(get(suite, "classnames.2")->valuestring, "d4c009.dat+d4w051.dat");
    cr_assert(strstr(x, "tick 3, weapon.bone[1].rot.z: reference 5, original -5") != NULL, "%s", x);
    cJSON_Delete(v);
    free(x);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

Test(report_entity, markdown_pairs_and_first_failures)
{
    cJSON *j = report();
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "**Result: FAIL**") != NULL, "%s", md);
    cr_assert(strstr(md, "## Entities (3)") != NULL, "%s", md);
    cr_assert(strstr(md, "pool mismatch: body 3 clips, weapon 2; the 2 both have ran") != NULL,
              "%s", md);
    cr_assert(strstr(md, "`weapon.bone[1].rot.z` reference 5, original -5; weapon's end call: "
                         "reference none (still running), original 4") != NULL,
              "%s", md);
    cr_assert(strstr(md, "| Body | `d4c009.dat` |\n| Weapon | `d4w023.dat` |\n"
                         "| Clip / mode | clip 0, normal |\n"
                         "| First divergence | call 3, `weapon.bone[1].rot.z` |") != NULL,
              "the group's example:\n%s", md);
    cr_assert(strstr(md, "cannot be seen between calls") != NULL);
    cr_assert(strstr(md, "Modes run: normal, each reached as the game reaches it: the entity's status byte") !=
                  NULL,
              "%s", md);
    cr_assert(strstr(md, "slow+fast not at this level") != NULL, "%s", md);
    cr_assert(strstr(md, "with no flags preset, both sides when they differ (1 differ;") != NULL, "%s", md);
    cr_assert(strstr(md, "speed after QueueAnimation under status haste (0x40), body/weapon: "
                         "reference 2/2, original 1/1") != NULL,
              "%s", md);
    free(md);
    cJSON_Delete(j);
}

Test(report_entity, html_pairs_and_offset_plots)
{
    char *dir = ts_tempdir();
    cJSON *j = report();
    char *h = rt_render(report_render_html, j, "html");
    cJSON *v = check(dir, "index.html", h, "html");
    int entities = 0, armed = 0, table = 0;
    const cJSON *id;
    cJSON_ArrayForEach(id, get(v, "ids"))
    {
        entities += !strcmp(id->valuestring, "entities");
        table += !strcmp(id->valuestring, "entities-table");
        armed += !strcmp(id->valuestring, "entity-1");
    }
    cr_assert(entities && table && armed, "%s", h);
    /* The group's plot and the pair's three offset plots (x, y, z), two lines each. */
    cr_assert_eq(cJSON_GetArraySize(get(v, "plots")), 4);
    cr_assert(strstr(h, "pool mismatch") != NULL);
    cr_assert(strstr(h, "<span class=\"verdict fail\"") != NULL);
    cr_assert(strstr(h, "In-hand offset") != NULL);
    /* A speed column per status, entity 1's haste differing, the modes in the summary. */
    cr_assert(strstr(h, "<th>speed haste (0x40)</th>") != NULL, "%s", h);
    cr_assert(strstr(h, "<span class=\"pill mismatch\">2/2 vs 1/1</span>") != NULL, "%s", h);
    cr_assert(strstr(h, "<span class=\"pill match\">0/0</span>") != NULL, "%s", h);
    cr_assert(strstr(h, "modes run: normal;") != NULL, "%s", h);
    cr_assert(strstr(h, "1 speed probes differ") != NULL, "%s", h);
    /* Entities against files: 4 files, 3 entities, the weapons drawn in a body's hand. */
    cr_assert(strstr(h, "<p>4 files gave 3 entities: 2 a body with one of "
                        "its weapons (one entity per body and weapon), 1 a monster or a body "
                        "alone. 2 weapon files are drawn only in a body&#39;s hand"),
              "%s", h);
    cJSON_Delete(v);
    free(h);
    cJSON_Delete(j);
    ts_rmtree(dir);
}
