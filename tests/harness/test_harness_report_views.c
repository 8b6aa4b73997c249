/*
 * tests/harness/test_harness_report_views.c: the section table and its
 * views (harness/report/report_sections.h). Every key a view asks for,
 * over a passing, a failing and an interrupted run, is a key of
 * report.json's schema (report_check.py keys), and a misspelt key is
 * caught the same way; index.html and summary.md carry the same sections
 * in the same order and every number of the totals.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report_sections.h"
#include "tests/harness/rt.h"

enum { PASSING, FAILING, INTERRUPTED, NKINDS };
static const char *const kind_name[NKINDS] = {"passing", "failing", "interrupted"};

/*
 * The pose level's convention (found by a search with a closest miss and a
 * width site the comparison decided) and an entity level (a monster alone
 * with a bad clip, an armed pair with a mismatch, a pool mismatch and an
 * offset plot, an entity group), which the hand-built run lacks, so that
 * the Pose convention's and the Entities' views read their keys too.
 */
static void inject_pose_and_entities(cJSON *j)
{
    cJSON *run = cJSON_GetObjectItem(j, "run");
    cJSON *pose = cJSON_Parse(
        "{\"source\":\"search\",\"chosen\":\"trig=x87-nearest\",\"states_emulated\":9,"
        "\"states_replayed\":3,\"decisions\":[{\"key\":\"trig\",\"shows\":\"rotation\","
        "\"value\":\"x87-nearest\",\"basis\":\"evidence\",\"note\":\"4 states\"}],"
        "\"widths\":[{\"key\":\"mul\",\"clips\":4,\"agreed\":3,\"contradicted\":1,"
        "\"neither\":0,\"decided_at\":{\"file\":\"a.dat\",\"clip\":1,\"mode\":\"normal\","
        "\"tick\":2,\"field\":\"bone[0].pos.x\",\"ref_32\":1,\"ref_64\":2,\"orig\":2}}],"
        "\"search\":{\"states\":12,\"scale_states\":2,\"extreme_states\":1,"
        "\"width_states\":1,\"faulted\":0,\"overrun_states\":0,\"all_match\":false,"
        "\"seconds\":0.5,\"note\":\"\",\"first_miss\":{\"file\":\"a.dat\",\"clip\":0,"
        "\"mode\":\"normal\",\"tick\":1,\"field\":\"bone[1].rot.y\",\"ref\":1,\"orig\":2},"
        "\"candidates\":[{\"options\":\"trig=x87-nearest\",\"stage\":\"final\","
        "\"frames\":11,\"frames_total\":12,\"values\":99,\"values_total\":100}]},"
        "\"contradicted\":{\"given\":\"order=zyx\",\"found\":\"order=yxz\","
        "\"convention\":\"order=yxz,trig=x87-nearest\",\"states\":12,"
        "\"states_found\":12,\"states_given\":2,\"seconds\":0.5}}");
    cr_assert_not_null(pose);
    cJSON_ReplaceItemInObject(run, "pose", pose);
    /* The first cause follows from the convention contradicted, so its mark is read too. */
    cJSON *cause = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "causes"), 0);
    if (cause)
        cJSON_ReplaceItemInObject(cause, "consequence_of", cJSON_CreateString("pose_options"));
    cJSON *levels = cJSON_GetObjectItem(run, "levels");
    if (levels) cJSON_AddItemToArray(levels, cJSON_CreateString("entity"));
    cJSON *series = cJSON_Parse("{\"ref\":[1,2],\"orig\":[1,3]}");
    cJSON *ents = cJSON_Parse(
        "[{\"id\":0,\"body\":\"c0m001.dat\",\"weapon\":null,\"why\":\"monster\","
        "\"why_text\":\"a monster carries no weapon model\",\"body_clips\":2,"
        "\"weapon_clips\":0,\"clips\":2,\"pool_mismatch\":false,\"shares\":null,"
        "\"plot\":null},"
        "{\"id\":1,\"body\":\"d4c009.dat\",\"weapon\":\"d4w023.dat\",\"why\":null,"
        "\"why_text\":\"\",\"body_clips\":3,\"weapon_clips\":2,\"clips\":2,"
        "\"pool_mismatch\":true,\"shares\":0,\"plot\":{\"clip\":0,\"mode\":\"normal\","
        "\"ticks_ref\":2,\"ticks_orig\":2,\"x\":{\"ref\":[1,2],\"orig\":[1,3]},"
        "\"y\":{\"ref\":[1],\"orig\":[1]},\"z\":{\"ref\":[1],\"orig\":[1]}}}]");
    cJSON *res = cJSON_Parse(
        "[{\"entity\":0,\"body\":\"c0m001.dat\",\"weapon\":null,\"clip\":1,"
        "\"mode\":\"normal\",\"status\":\"bad_input\",\"frames\":0,\"error\":"
        "{\"message\":\"clip 1 reads past the end\"}},"
        "{\"entity\":1,\"body\":\"d4c009.dat\",\"weapon\":\"d4w023.dat\",\"clip\":0,"
        "\"mode\":\"normal\",\"status\":\"mismatch\",\"frames\":4,\"weapon_frames\":5,"
        "\"ticks_ref\":5,\"ticks_orig\":6,\"weapon_end\":{\"ref\":null,\"orig\":4},"
        "\"divergence\":{\"tick\":3,\"field\":\"weapon.bone[1].rot.z\",\"ref\":5,"
        "\"orig\":-5,\"cursor\":{\"byte\":1,\"bit\":2,\"file_offset\":65}}},"
        "{\"entity\":1,\"body\":\"d4c009.dat\",\"weapon\":\"d4w023.dat\",\"clip\":1,"
        "\"mode\":\"normal\",\"status\":\"fault\",\"frames\":4,\"fault\":"
        "{\"message\":\"read of unmapped memory\",\"eip\":\"0x509000\"}}]");
    cr_assert(series && ents && res);
    cJSON_ReplaceItemInObject(j, "entities", ents);
    cJSON_ReplaceItemInObject(j, "entity_results", res);
    cJSON *g = cJSON_CreateObject();
    cJSON_AddNumberToObject(g, "id", 9);
    cJSON_AddStringToObject(g, "level", "entity");
    cJSON_AddStringToObject(g, "field", "weapon.rot.z");
    cJSON_AddStringToObject(g, "mode", "normal");
    cJSON_AddStringToObject(g, "shape", "negated");
    cJSON_AddNumberToObject(g, "count", 1);
    cJSON *ex = cJSON_Parse("{\"result\":1,\"entity\":1,\"file\":\"d4c009.dat\","
                            "\"weapon\":\"d4w023.dat\",\"clip\":0,\"mode\":\"normal\","
                            "\"tick\":3,\"field\":\"weapon.bone[1].rot.z\",\"model\":"
                            "\"weapon\",\"ref\":5,\"orig\":-5}");
    cJSON_AddItemToObject(g, "example", ex);
    cJSON_AddItemToObject(g, "series", series);
    cJSON_AddItemToArray(cJSON_GetObjectItem(j, "groups"), g);
    cJSON *te = cJSON_Parse("{\"armed\":1,\"pool_mismatches\":1,\"comparisons\":3,"
                            "\"queue_mismatches\":0,\"modes\":[\"normal\"],"
                            "\"modes_frame_only\":[{\"mode\":\"slow+fast\",\"why\":\"no "
                            "entity status\"}]}");
    cr_assert_not_null(te);
    cJSON *totals = cJSON_GetObjectItem(j, "totals");
    if (cJSON_GetObjectItem(totals, "entity")) cJSON_DeleteItemFromObject(totals, "entity");
    cJSON_AddItemToObject(totals, "entity", te);
}

static cJSON *report_of(int kind)
{
    run_results r;
    run_meta m;
    if (kind == PASSING)
        rt_results_passing(&r);
    else
        rt_results(&r);
    rt_meta(&m);
    if (kind == INTERRUPTED) {
        r.interrupted = 1;
        r.interrupt_signal = SIGTERM;
    }
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert_not_null(j, "report_build (%s)", kind_name[kind]);
    if (kind == FAILING) {
        /* A pose helper of the leaf level, so that its section's view reads its keys too. */
        cJSON *h = cJSON_Parse("[{\"role\":\"sin\",\"routine\":\"Sin\",\"signature\":\"int "
                               "(int)\",\"ran\":true,\"note\":\"\",\"calls\":10,"
                               "\"mismatches\":1,\"faults\":0,\"first_mismatch\":\"case 3\","
                               "\"first_fault\":null,\"trig\":[{\"option\":\"x87-nearest\","
                               "\"matched\":10,\"every_angle\":true}]}]");
        cr_assert_not_null(h);
        cJSON_ReplaceItemInObject(j, "pose_leaf", h);
        /* A quirk pass's row with a cause it explains, so the Quirks view reads its keys. */
        cJSON *q = cJSON_Parse(
            "{\"clips_studied\":4,\"clips\":[],\"rows\":[{\"name\":\"rot-wrap\",\"kind\":"
            "\"quirk\",\"observable\":true,\"engine\":\"wraps\",\"plain\":\"does not wrap\","
            "\"anchor\":\"docs/engine.md\",\"clips\":1,\"first\":{\"file\":\"a.dat\","
            "\"clip\":0,\"mode\":\"normal\",\"tick\":2,\"field\":\"bone[0].rot.x\","
            "\"engine\":-2,\"plain\":65534},\"where\":[0],\"explains\":1,\"explains_first\":"
            "{\"file\":\"a.dat\",\"clip\":0,\"mode\":\"normal\",\"tick\":2,\"field\":"
            "\"bone[0].rot.x\",\"engine\":-2,\"plain\":65534}}]}");
        cr_assert_not_null(q);
        cJSON_ReplaceItemInObject(j, "quirks", q);
        inject_pose_and_entities(j);
    }
    return j;
}

/* Runs report_check.py keys over the log's paths; its output (caller deletes) and status. */
static cJSON *check_keys(const rk_log *log, int *status)
{
    char *dir = ts_tempdir(), *list = ts_path(dir, "keys.txt"), args[4400];
    strbuf b;
    sb_init(&b);
    for (size_t i = 0; i < log->n; i++) {
        sb_puts(&b, log->paths[i]);
        sb_putc(&b, '\n');
    }
    ts_write(list, b.s ? b.s : "", b.len);
    snprintf(args, sizeof args, "keys %s/reports/schema/report.schema.json %s",
             getenv("FF8DIFF_SOURCE_DIR"), list);
    cJSON *v = rt_check(args, status);
    cr_assert_not_null(v, "report_check.py keys gave no JSON");
    sb_free(&b);
    free(list);
    ts_rmtree(dir);
    return v;
}

static int log_has(const rk_log *log, const char *path)
{
    for (size_t i = 0; i < log->n; i++)
        if (!strcmp(log->paths[i], path)) return 1;
    return 0;
}

Test(views, every_key_a_view_asks_for_is_in_the_schema)
{
    cr_assert_not_null(getenv("FF8DIFF_SOURCE_DIR"), "run through ctest");
    for (int k = 0; k < NKINDS; k++) {
        cJSON *j = report_of(k);
        rk_log log = {0};
        rd_doc *d = rs_build(j, &log);
        cr_assert_not_null(d, "%s: the document", kind_name[k]);
        cr_assert(!log.failed, "%s: the key log ran out of memory", kind_name[k]);
        if (k == FAILING)
        {
            cr_assert(log_has(&log, "pose_leaf[].trig[].every_angle"), "the pose helpers' view");
            cr_assert(log_has(&log, "quirks.rows[].explains_first.plain"), "the quirks' view");
            cr_assert(log_has(&log, "causes[].counts.entity_clips"), "the causes' view");
            cr_assert(log_has(&log, "groups[].explanation.window.ref"), "the causes' read logs");
            cr_assert(log_has(&log, "run.pose.search.candidates[].values_total"), "the pose view");
            cr_assert(log_has(&log, "run.pose.widths[].decided_at.ref_64"), "the width sites");
            cr_assert(log_has(&log, "run.pose.contradicted.states_given"), "the contradiction");
            cr_assert(log_has(&log, "causes[].consequence_of"), "a cause's consequence");
            cr_assert(log_has(&log, "entity_results[].weapon_end.orig"), "the entities' view");
            cr_assert(log_has(&log, "entities[].plot.x"), "the offset plots");
            cr_assert(log_has(&log, "totals.entity.modes_frame_only[].why"), "the entity totals");
        }
        /* The views read the run, the executable, the totals and the sources at least. */
        cr_assert_gt(log.n, 60, "%s: only %zu keys asked for", kind_name[k], log.n);
        int st;
        cJSON *v = check_keys(&log, &st);
        char *txt = cJSON_PrintUnformatted(v);
        cr_assert_eq(st, 0, "%s: keys the schema does not hold: %s", kind_name[k], txt);
        cr_assert_eq(cJSON_GetObjectItem(v, "checked")->valueint, (int)log.n);
        free(txt);
        cJSON_Delete(v);
        rd_free(d);
        rk_log_free(&log);
        cJSON_Delete(j);
    }
}

/* The same check fails on a misspelt key, at the top and deep down, and names it. */
Test(views, a_misspelt_key_fails_the_schema_check)
{
    cr_assert_not_null(getenv("FF8DIFF_SOURCE_DIR"), "run through ctest");
    cJSON *j = report_of(FAILING);
    rk_log log = {0};
    rk root = rk_root(j, &log), run = rk_obj(root, "run");
    cr_assert_eq(rk_u64(rk_obj(root, "totals"), "mismatch", 99), 2, "a real key reads");
    cr_assert_eq(rk_u64(rk_obj(root, "totals"), "mismatchs", 99), 99, "a misspelt key: default");
    rk_str(rk_obj(run, "executable"), "sha265", NULL);
    for (rk g = rk_first(rk_arr(root, "groups")); g.j; g = rk_next(g)) rk_str(g, "feild", NULL);
    int st;
    cJSON *v = check_keys(&log, &st);
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(st, 3, "misspelt keys pass: %s", txt);
    const cJSON *missing = cJSON_GetObjectItem(v, "missing");
    cr_assert_eq(cJSON_GetArraySize(missing), 3, "%s", txt);
    cr_assert_str_eq(cJSON_GetArrayItem(missing, 0)->valuestring, "totals.mismatchs");
    cr_assert_str_eq(cJSON_GetArrayItem(missing, 1)->valuestring, "run.executable.sha265");
    cr_assert_str_eq(cJSON_GetArrayItem(missing, 2)->valuestring, "groups[].feild");
    free(txt);
    cJSON_Delete(v);
    rk_log_free(&log);
    cJSON_Delete(j);
}

/* n written in decimal in s, not as part of a longer number. */
static int has_number(const char *s, unsigned long long n)
{
    char want[32];
    int len = snprintf(want, sizeof want, "%llu", n);
    for (const char *p = strstr(s, want); p; p = strstr(p + 1, want)) {
        int before = p > s && p[-1] >= '0' && p[-1] <= '9';
        int after = p[len] >= '0' && p[len] <= '9';
        if (!before && !after) return 1;
    }
    return 0;
}

/* Every number of totals (and of totals.sources) in text. */
static void totals_in(const cJSON *totals, const char *text, const char *what)
{
    const cJSON *e;
    size_t n = 0;
    cJSON_ArrayForEach(e, totals)
    {
        if (cJSON_IsObject(e) && !strcmp(e->string, "sources")) totals_in(e, text, what);
        if (!cJSON_IsNumber(e)) continue;
        n++;
        cr_assert(has_number(text, (unsigned long long)e->valuedouble),
                  "%s: totals.%s = %.0f not shown", what, e->string, e->valuedouble);
    }
    cr_assert_gt(n, 3, "%s: too few totals", what);
}

Test(views, both_renderings_carry_the_same_sections_and_the_totals)
{
    cr_assert_not_null(getenv("FF8DIFF_SOURCE_DIR"), "run through ctest");
    for (int k = 0; k < NKINDS; k++) {
        cJSON *j = report_of(k);
        char *html = rt_render(report_render_html, j, "html");
        char *md = rt_render(report_render_markdown, j, "markdown");
        char *dir = ts_tempdir(), *hp = ts_path(dir, "index.html"), *mp = ts_path(dir, "summary.md");
        ts_write(hp, html, strlen(html));
        ts_write(mp, md, strlen(md));
        char args[8400];
        snprintf(args, sizeof args, "outline %s %s", hp, mp);
        int st;
        cJSON *v = rt_check(args, &st);
        char *txt = cJSON_PrintUnformatted(v);
        cr_assert_eq(st, 0, "%s", txt);
        const cJSON *h = cJSON_GetObjectItem(v, "html"), *m = cJSON_GetObjectItem(v, "md");
        cr_assert_gt(cJSON_GetArraySize(h), 5, "%s: sections: %s", kind_name[k], txt);
        cr_assert_eq(cJSON_GetArraySize(h), cJSON_GetArraySize(m), "%s: %s", kind_name[k], txt);
        for (int i = 0; i < cJSON_GetArraySize(h); i++)
            cr_assert_str_eq(cJSON_GetArrayItem(h, i)->valuestring,
                             cJSON_GetArrayItem(m, i)->valuestring, "%s: section %d: %s",
                             kind_name[k], i, txt);
        /* The ids are the table's, in its order (a view may leave its section out). */
        size_t nrows, r = 0;
        const rs_row *rows = rs_rows(&nrows);
        const cJSON *id;
        cJSON_ArrayForEach(id, cJSON_GetObjectItem(v, "html_ids"))
        {
            while (r < nrows && strcmp(rows[r].id, id->valuestring) != 0) r++;
            cr_assert_lt(r, nrows, "%s: section %s out of the table's order", kind_name[k],
                         id->valuestring);
        }
        const cJSON *totals = cJSON_GetObjectItem(j, "totals");
        totals_in(totals, html, "index.html");
        totals_in(totals, md, "summary.md");
        free(txt);
        cJSON_Delete(v);
        free(hp);
        free(mp);
        ts_rmtree(dir);
        free(html);
        free(md);
        cJSON_Delete(j);
    }
}

/* A reason many entities without a weapon share is said once, above the entity table. */
Test(views, a_reason_shared_by_entities_is_said_once)
{
    cJSON *j = cJSON_Parse(
        "{\"schema\":\"ff8diff-report/1\",\"run\":{\"levels\":[\"entity\"]},"
        "\"manifest\":[{\"name\":\"c0m001.dat\",\"kind\":\"monster\",\"status\":\"ok\"},"
        "{\"name\":\"c0m002.dat\",\"kind\":\"monster\",\"status\":\"ok\"},"
        "{\"name\":\"d0c001.dat\",\"kind\":\"body\",\"status\":\"ok\"},"
        "{\"name\":\"d0w001.dat\",\"kind\":\"weapon\",\"status\":\"ok\"}],"
        "\"entities\":[{\"id\":0,\"body\":\"c0m001.dat\",\"why_text\":\"a monster carries no "
        "weapon model\"},{\"id\":1,\"body\":\"c0m002.dat\",\"why_text\":\"a monster carries no "
        "weapon model\"},{\"id\":2,\"body\":\"d0c001.dat\",\"weapon\":\"d0w001.dat\"}]}");
    cr_assert_not_null(j);
    rv_entities x;
    cr_assert_eq(rv_entities_build(j, &x), 0);
    size_t n;
    const char *why = rv_entities_common_why(&x, &n);
    cr_assert_str_eq(why, "a monster carries no weapon model");
    cr_assert_eq(n, 2);
    rv_entities_free(&x);
    char *html = rt_render(report_render_html, j, "html");
    cr_assert_eq(ts_count(html, "a monster carries no weapon model"), 1, "said once: %s", html);
    cr_assert(strstr(html, "2 entities have no weapon: a monster carries no weapon model"));
    cr_assert(strstr(html, "4 files gave 3 entities: 1 a body with one of its weapons"), "%s",
              html);
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "4 files gave 3 entities: 1 a body with one of its weapons"), "%s", md);
    free(md);
    free(html);
    cJSON_Delete(j);
}

/* The emitters fold every long table the same way, and a details node in both formats. */
Test(views, long_tables_folded_in_both_renderings)
{
    rd_doc *d = rd_new();
    cr_assert_not_null(d);
    static const char *const heads[] = {"File", "Clips"};
    rd_node *sec = rd_section(d, "s", "Section");
    rd_node *t = rd_table(sec, "t", 2, heads, 0);
    rd_table_num(t, 1);
    for (int i = 0; i < RD_FOLD_ROWS + 5; i++) {
        rd_node *row = rd_row(t, NULL);
        rd_textf(rd_cell(row), RD_NAME, "c0m%03d.dat", i);
        rd_textf(rd_cell(row), RD_PLAIN, "%d", i);
    }
    rd_node *tail = rd_details(sec, "the long tail");
    rd_text(rd_para(tail, NULL), RD_PLAIN, "inside the fold");
    cr_assert(!rd_failed(d));
    strbuf h, m;
    sb_init(&h);
    sb_init(&m);
    rd_emit_html(&h, d);
    rd_emit_md(&m, d);
    /* HTML: every row, the last 5 behind a fold with the header row again. */
    cr_assert_eq(ts_count(h.s, "<span class=\"name\">c0m"), RD_FOLD_ROWS + 5);
    const char *fold = strstr(h.s, "<details class=\"fold\"><summary>5 more rows</summary>");
    cr_assert_not_null(fold, "%s", h.s);
    cr_assert(strstr(fold, "<th class=\"num\">Clips</th>") && strstr(fold, "c0m029.dat") &&
                  !strstr(fold, "c0m024.dat"),
              "the fold holds rows 25-29 under the header: %s", fold);
    cr_assert(strstr(h.s, "<details><summary>the long tail</summary>\n<p>inside the fold</p>"));
    /* Markdown: the first rows, then the rest counted; the details' blocks inline. */
    cr_assert(strstr(m.s, "| File | Clips |\n|---|---:|\n| `c0m000.dat` | 0 |"), "%s", m.s);
    cr_assert(strstr(m.s, "| `c0m024.dat` | 24 |\n\n_and 5 more rows: see index.html or "
                          "report.json_"),
              "%s", m.s);
    cr_assert(!strstr(m.s, "c0m025.dat"), "a folded row in Markdown");
    cr_assert(strstr(m.s, "_the long tail_\n\ninside the fold"), "%s", m.s);
    sb_free(&h);
    sb_free(&m);
    rd_free(d);
}
