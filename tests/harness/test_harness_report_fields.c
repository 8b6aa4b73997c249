/*
 * tests/harness/test_harness_report_fields.c: a clip an outside decoder did
 * not decode, and what a check compared per field class, in every output.
 * The hand-built run of rt.c with its first result (a match) turned into a
 * clip the candidate gave 2 of 5 frames of, its decoder's "error" line
 * holding markup, scales required and left out: report.json carries it and
 * validates; index.html, summary.md, junit.xml and the terminal summary say
 * "not decoded" with how far it got, escaped; the per-class sentences give
 * the counts of the totals.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "tests/harness/rt.h"
#include "tests/support/ts.h"

#define STOP_TEXT "scale type <b>5</b> unknown"

/* rt.c's run with result 0 not decoded by a frames-format candidate. */
static cJSON *report_not_decoded(void)
{
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    m.against_dir = "mine";
    m.cand_label = "candidate";
    m.cand_format = "frames";
    field_classes fc;
    field_classes_make(&fc);
    int scale = field_class_find(&fc, "scale"), root = field_class_find(&fc, "root");
    clip_result *c = &r.results[0];
    cr_assert_eq(c->status, RES_MATCH, "rt.c's result 0 is a match");
    c->status = RES_NOT_DECODED;
    c->ref_ticks = 2;
    c->orig_ticks = 5;
    c->missing = (uint16_t)(1u << scale);
    c->stopped = strdup(STOP_TEXT);
    c->use.ticks[root] = 2;
    c->use.unsupplied[scale] = 2;
    c->use.moving = (uint16_t)(1u << scale);
    r.cand_formats = RES_FMT_FRAMES;
    r.required = 1u << scale;
    r.totals.by_status[RES_MATCH]--;
    r.totals.by_status[RES_NOT_DECODED]++;
    r.totals.cls_clips[root] = 7;
    r.totals.cls_ticks[root] = 40;
    r.totals.cls_unsup_clips[scale] = 3;
    r.totals.cls_unsup_ticks[scale] = 12;
    r.totals.cls_moving_clips[scale] = 1;
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL);
    return j;
}

static const cJSON *at(const cJSON *o, const char *key)
{
    const cJSON *c = cJSON_GetObjectItem(o, key);
    cr_assert(c != NULL, "no key %s", key);
    return c;
}

Test(report_fields, report_json_carries_and_validates)
{
    char *dir = ts_tempdir();
    cJSON *j = report_not_decoded();
    const cJSON *r = cJSON_GetArrayItem(at(j, "results"), 0), *nd = at(r, "not_decoded");
    cr_assert_str_eq(at(r, "status")->valuestring, "not_decoded");
    cr_assert_eq(at(nd, "supplied")->valueint, 2);
    cr_assert_eq(at(nd, "expected")->valueint, 5);
    cr_assert_str_eq(at(nd, "unit")->valuestring, "frames");
    cr_assert_str_eq(cJSON_GetArrayItem(at(nd, "missing"), 0)->valuestring, "scale");
    cr_assert_str_eq(at(r, "decoder_error")->valuestring, STOP_TEXT);
    const cJSON *ns = cJSON_GetArrayItem(at(r, "not_supplied"), 0);
    cr_assert_str_eq(at(ns, "class")->valuestring, "scale");
    cr_assert(cJSON_IsTrue(at(ns, "moving")));
    /* Another result: nothing left out, not decoded null. */
    const cJSON *other = cJSON_GetArrayItem(at(j, "results"), 1);
    cr_assert(cJSON_IsNull(at(other, "not_decoded")) && cJSON_IsNull(at(other, "decoder_error")));
    cr_assert_eq(cJSON_GetArraySize(at(other, "not_supplied")), 0);
    cr_assert_eq(at(at(j, "totals"), "not_decoded")->valueint, 1);
    const cJSON *req = at(at(at(j, "run"), "options"), "require");
    cr_assert_eq(cJSON_GetArraySize(req), 1);
    cr_assert_str_eq(cJSON_GetArrayItem(req, 0)->valuestring, "scale");
    const cJSON *fields = at(at(j, "totals"), "fields"), *e;
    int seen = 0;
    cJSON_ArrayForEach(e, fields)
    {
        if (strcmp(at(e, "class")->valuestring, "scale") != 0) continue;
        seen = 1;
        cr_assert_eq(at(e, "not_supplied_clips")->valueint, 3);
        cr_assert_eq(at(e, "not_supplied_ticks")->valueint, 12);
        cr_assert_eq(at(e, "moving_clips")->valueint, 1);
        cr_assert(cJSON_IsTrue(at(e, "required")));
    }
    cr_assert(seen, "no scale entry in totals.fields");
    /* The schema knows all of it. */
    char *json = cJSON_Print(j), *path = ts_path(dir, "report.json"), args[4200];
    ts_write(path, json, strlen(json));
    snprintf(args, sizeof args, "validate %s/reports/schema/report.schema.json %s",
             getenv("FF8DIFF_SOURCE_DIR"), path);
    int st;
    cJSON *v = rt_check(args, &st);
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(st, 0, "report.json does not validate: %s", txt);
    /* ... and refuses a not_decoded result without its "not_decoded" object. */
    cJSON *res0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0);
    cJSON_ReplaceItemInObject(res0, "not_decoded", cJSON_CreateNull());
    free(json);
    json = cJSON_Print(j);
    ts_write(path, json, strlen(json));
    cJSON_Delete(v);
    v = rt_check(args, &st);
    cr_assert_eq(st, 3, "a not_decoded result without how far it got validated");
    free(txt);
    cJSON_Delete(v);
    free(json);
    free(path);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

Test(report_fields, every_output_says_not_decoded_and_what_was_compared)
{
    cJSON *j = report_not_decoded();
    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, "<span class=\"pill not_decoded\">not decoded</span>"), "html pill");
    cr_assert(strstr(html, "gave 2 of 5 frames; left out (required): scale"), "html: how far");
    cr_assert(strstr(html, "scale type &lt;b&gt;5&lt;/b&gt; unknown") && !strstr(html, "<b>5"),
              "html: the decoder's sentence, escaped");
    cr_assert(strstr(html, "<section id=\"fields\">"), "html: What was compared");
    cr_assert(strstr(html, "root: compared on 7 clips, 40 frames"), "html: root");
    cr_assert(strstr(html, "scale: compared on 0 clips, 0 frames; not supplied on 3 clips (12 "
                           "frames) where the original side has it; 1 of them carries scale "
                           "data: the original poses differ there and were not checked "
                           "(required)"),
              "html: scale");
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "## Non-matching results\n"), "markdown: section");
    cr_assert(strstr(md, "| normal | **not decoded** |"), "markdown: the not-decoded row");
    cr_assert(strstr(md, "gave 2 of 5 frames"), "markdown: how far");
    cr_assert(strstr(md, "## What was compared\n"), "markdown: fields section");
    cr_assert(strstr(md, "1 not decoded, "), "markdown: result line");
    cr_assert(!strstr(md, "<b>5"), "markdown: markup not escaped");
    char *xml = rt_render(report_render_junit, j, "junit");
    /* Its file also has a mismatch in that mode: a failure counting both, this clip first. */
    cr_assert(strstr(xml, ", 1 not decoded); first: clip 0 not decoded by the candidate: gave 2 "
                          "of 5 frames"),
              "junit: message");
    char *line = rt_render(report_render_summary, j, "summary");
    cr_assert(strstr(line, ", 1 not decoded, "), "terminal: %s", line);
    strbuf b;
    sb_init(&b);
    report_fields_summary(&b, j);
    cr_assert(b.s && strstr(b.s, "compared, per field class:\n  root: compared on 7 clips, 40 "
                                 "frames\n"),
              "terminal fields: %s", b.s ? b.s : "");
    cr_assert(strstr(b.s, "never compared: "), "the classes never compared are named");
    sb_free(&b);
    free(line);
    free(xml);
    free(md);
    free(html);
    cJSON_Delete(j);
}

/* A run of the reference engine (no outside decoder, nothing left out) prints no such lines. */
Test(report_fields, quiet_when_nothing_was_left_out)
{
    cJSON *j = rt_report();
    strbuf b;
    sb_init(&b);
    report_fields_summary(&b, j);
    cr_assert(!b.s || !b.s[0], "unexpected: %s", b.s);
    sb_free(&b);
    cJSON_Delete(j);
}
