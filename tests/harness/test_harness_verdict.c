/*
 * tests/harness/test_harness_verdict.c: one verdict, rendered everywhere.
 * Runs driven to each verdict (their totals as a table: plain pass, plain
 * fail, entity failures only, leaf failures only, bad input only,
 * interrupted with nothing failed or after a failure, clips not run with
 * nothing failed) go through report_build; report.json's stored verdict,
 * index.html, summary.md, junit.xml, the terminal summary and the exit code
 * must all say the row's expected verdict. A report without a stored
 * verdict (as written before) renders the same, its verdict derived; a
 * stored verdict that is not one is refused by compare-reports.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/verdict.h"
#include "harness/report/report.h"
#include "harness/report/report_diff.h"
#include "harness/report/report_view.h"
#include "tests/harness/rt.h"

typedef struct vcase {
    const char *name;
    uint64_t match, mismatch, fault, bad, not_run;
    uint64_t leaf_mismatches, leaf_faults;
    uint64_t ent_match, ent_mismatch, ent_fault, ent_bad, ent_not_run;
    int signal; /* 0, SIGINT, SIGTERM */
    /* expected, worked out from the rule in verdict.h */
    const char *label, *result, *reason;
    int exit_code;
    uint64_t not_decoded; /* clips an outside decoder did not decode (rows that set it name it) */
} vcase;

static const vcase cases[] = {
    {"plain pass", 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "PASS", "pass", "all_match", 0, 0},
    {"plain fail", 8, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "FAIL", "fail", "differences", 1, 0},
    {"entity failures only", 10, 0, 0, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0, "FAIL", "fail",
     "differences", 1, 0},
    {"entity fault only", 10, 0, 0, 0, 0, 0, 0, 5, 0, 1, 0, 0, 0, "FAIL", "fail", "differences", 1, 0},
    {"leaf failures only", 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, "FAIL", "fail", "differences", 1, 0},
    {"bad input only", 9, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, "FAIL", "fail", "bad_input", 2, 0},
    {"entity bad input only", 9, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1, 0, 0, "FAIL", "fail", "bad_input",
     2, 0},
    {"interrupted, nothing failed", 5, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, SIGINT, "INCOMPLETE",
     "incomplete", "interrupted", 130, 0},
    {"interrupted by SIGTERM after a mismatch", 4, 1, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, SIGTERM,
     "FAIL", "fail", "differences", 143, 0},
    {"clips not run, nothing failed", 5, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, "INCOMPLETE",
     "incomplete", "not_run", 3, 0},
    {"entity clips not run, nothing failed", 5, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0,
     "INCOMPLETE", "incomplete", "not_run", 3, 0},
    /* A clip the candidate did not decode is the decoder's failure, never bad input. */
    {"not decoded only", 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "FAIL", "fail", "differences", 1,
     .not_decoded = 3},
    {"not decoded with bad input", 6, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, "FAIL", "fail",
     "differences", 1, .not_decoded = 3},
    {"not decoded, interrupted", 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, SIGINT, "FAIL", "fail",
     "differences", 130, .not_decoded = 1},
};
#define NCASES (sizeof cases / sizeof cases[0])

static void results_of(const vcase *c, run_results *r)
{
    memset(r, 0, sizeof *r);
    run_totals *t = &r->totals;
    t->by_status[RES_MATCH] = c->match;
    t->by_status[RES_MISMATCH] = c->mismatch;
    t->by_status[RES_FAULT] = c->fault;
    t->by_status[RES_BAD_INPUT] = c->bad;
    t->by_status[RES_NOT_RUN] = c->not_run;
    t->by_status[RES_NOT_DECODED] = c->not_decoded;
    t->comparisons = c->match + c->mismatch + c->fault + c->bad + c->not_run + c->not_decoded;
    t->leaf_mismatches = c->leaf_mismatches;
    t->leaf_faults = c->leaf_faults;
    t->leaf_calls = c->leaf_mismatches + c->leaf_faults ? 100 : 0;
    t->entity_by_status[RES_MATCH] = c->ent_match;
    t->entity_by_status[RES_MISMATCH] = c->ent_mismatch;
    t->entity_by_status[RES_FAULT] = c->ent_fault;
    t->entity_by_status[RES_BAD_INPUT] = c->ent_bad;
    t->entity_by_status[RES_NOT_RUN] = c->ent_not_run;
    t->entity_comparisons =
        c->ent_match + c->ent_mismatch + c->ent_fault + c->ent_bad + c->ent_not_run;
    t->entities = t->entity_comparisons ? 1 : 0;
    r->interrupted = c->signal != 0;
    r->interrupt_signal = c->signal;
}

/* Every output of report j says case c's verdict. */
static void assert_outputs(const vcase *c, const cJSON *j, const char *how)
{
    char want[128];
    char *html = rt_render(report_render_html, j, "html");
    snprintf(want, sizeof want, "<span class=\"verdict %s\" id=\"verdict\">%s</span>", c->result,
             c->label);
    cr_assert(strstr(html, want), "%s (%s): index.html lacks %s", c->name, how, want);
    char *md = rt_render(report_render_markdown, j, "markdown");
    snprintf(want, sizeof want, "**Result: %s**", c->label);
    cr_assert(strstr(md, want), "%s (%s): summary.md lacks %s", c->name, how, want);
    char *xml = rt_render(report_render_junit, j, "junit");
    snprintf(want, sizeof want, "<property name=\"verdict\" value=\"%s\"/>", c->label);
    cr_assert(strstr(xml, want), "%s (%s): junit.xml lacks %s", c->name, how, want);
    snprintf(want, sizeof want, "<property name=\"verdict_reason\" value=\"%s\"/>", c->reason);
    cr_assert(strstr(xml, want), "%s (%s): junit.xml lacks %s", c->name, how, want);
    char *line = rt_render(report_render_summary, j, "summary");
    size_t n = strlen(c->label);
    cr_assert(strncmp(line, c->label, n) == 0 && (line[n] == ':' || line[n] == ' '),
              "%s (%s): the terminal summary says %s", c->name, how, line);
    cr_assert_eq(strstr(line, "(interrupted)") != NULL, c->signal != 0,
                 "%s (%s): interruption in the terminal summary: %s", c->name, how, line);
    /* Clips not decoded are counted as their own class, wherever there are some. */
    snprintf(want, sizeof want, ", %llu not decoded, ", (unsigned long long)c->not_decoded);
    cr_assert_eq(strstr(line, want) != NULL, c->not_decoded != 0,
                 "%s (%s): not decoded in the terminal summary: %s", c->name, how, line);
    snprintf(want, sizeof want, "%llu not decoded, ", (unsigned long long)c->not_decoded);
    cr_assert(strstr(md, want), "%s (%s): summary.md lacks %s", c->name, how, want);
    cr_assert_eq(report_exit_code(j), c->exit_code, "%s (%s): exit code %d", c->name, how,
                 report_exit_code(j));
    free(line);
    free(xml);
    free(md);
    free(html);
}

Test(verdict, every_output_renders_the_stored_verdict)
{
    run_meta m;
    rt_meta(&m);
    for (size_t i = 0; i < NCASES; i++) {
        const vcase *c = &cases[i];
        run_results r;
        results_of(c, &r);
        cJSON *j = report_build(&m, &r);
        cr_assert(j != NULL);
        const cJSON *v = cJSON_GetObjectItem(j, "verdict");
        cr_assert_str_eq(cJSON_GetObjectItem(v, "result")->valuestring, c->result, "%s", c->name);
        cr_assert_str_eq(cJSON_GetObjectItem(v, "reason")->valuestring, c->reason, "%s", c->name);
        assert_outputs(c, j, "stored");
        /* A report written before the verdict was stored: derived, the same everywhere. */
        cJSON_DeleteItemFromObject(j, "verdict");
        verdict d;
        cr_assert_eq(rv_verdict(j, &d), 0, "%s: a missing verdict is derived", c->name);
        cr_assert_str_eq(verdict_reason_name(d), c->reason, "%s", c->name);
        assert_outputs(c, j, "derived");
        cJSON_Delete(j);
    }
}

/* The renderers obey the stored value, not the totals: they never decide again. */
Test(verdict, renderers_do_not_decide_again)
{
    run_meta m;
    rt_meta(&m);
    run_results r;
    results_of(&cases[0], &r); /* totals of a plain pass */
    cJSON *j = report_build(&m, &r);
    cJSON_ReplaceItemInObject(j, "verdict", report_json_verdict(VERDICT_BY_NOT_RUN));
    assert_outputs(&cases[9], j, "stored not_run over passing totals");
    cJSON_Delete(j);
}

static cJSON *report_with_verdict(const char *result, const char *reason)
{
    run_meta m;
    rt_meta(&m);
    run_results r;
    results_of(&cases[1], &r);
    cJSON *j = report_build(&m, &r);
    cJSON *v = cJSON_CreateObject();
    if (result) cJSON_AddStringToObject(v, "result", result);
    if (reason) cJSON_AddStringToObject(v, "reason", reason);
    cJSON_ReplaceItemInObject(j, "verdict", v);
    return j;
}

Test(verdict, compare_reports_reads_the_stored_verdict)
{
    run_meta m;
    rt_meta(&m);
    run_results r;
    results_of(&cases[1], &r);
    cJSON *old = report_build(&m, &r);
    cJSON_DeleteItemFromObject(old, "verdict"); /* written before the verdict was stored */
    cJSON *new = report_with_verdict("incomplete", "not_run");
    rdiff d;
    ff_error err;
    cr_assert_eq(rdiff_compare(old, new, &d, &err), 0);
    cr_assert_eq(d.old.verdict, VERDICT_BY_DIFFERENCES, "the old report's verdict, derived");
    cr_assert_eq(d.old.verdict_stored, 0);
    cr_assert_eq(d.new.verdict, VERDICT_BY_NOT_RUN, "the new report's stored verdict");
    cr_assert_eq(d.new.verdict_stored, 1);
    strbuf t;
    sb_init(&t);
    rdiff_text(&d, 0, &t);
    cr_assert(strstr(t.s, ": FAIL (derived"), "%s", t.s);
    cr_assert(strstr(t.s, ": INCOMPLETE\n"), "%s", t.s);
    sb_free(&t);
    rdiff_free(&d);
    cJSON_Delete(new);

    static const char *const bad[][2] = {
        {"fail", "not_run"}, {"pass", NULL}, {NULL, "differences"}, {"maybe", "all_match"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        new = report_with_verdict(bad[i][0], bad[i][1]);
        cr_assert_eq(rdiff_compare(old, new, &d, &err), -1, "bad verdict %zu accepted", i);
        cr_assert(strstr(err.reason, "verdict"), "%zu: %s", i, err.reason);
        rdiff_free(&d);
        cJSON_Delete(new);
    }
    cJSON_Delete(old);
}

/* verdict_decide over each row: the one decision the outputs above render. */
Test(verdict, decide_follows_the_rule)
{
    for (size_t i = 0; i < NCASES; i++) {
        run_results r;
        results_of(&cases[i], &r);
        verdict v = verdict_decide(&r.totals, r.interrupted);
        cr_assert_str_eq(verdict_reason_name(v), cases[i].reason, "%s", cases[i].name);
        cr_assert_str_eq(verdict_label(v), cases[i].label, "%s", cases[i].name);
        cr_assert_eq(verdict_exit_code(v, cases[i].signal), cases[i].exit_code, "%s",
                     cases[i].name);
    }
}

/* A speed probe that differs (entity level) fails the run though every clip matched. */
Test(verdict, a_speed_probe_that_differs_is_a_difference)
{
    run_totals t;
    memset(&t, 0, sizeof t);
    t.by_status[RES_MATCH] = 4;
    t.entity_by_status[RES_MATCH] = 3;
    cr_assert_eq(verdict_decide(&t, 0), VERDICT_BY_PASS);
    t.queue_mismatches = 1;
    cr_assert_eq(verdict_decide(&t, 0), VERDICT_BY_DIFFERENCES);
    cr_assert_eq(verdict_entity_failures(&t), 1u);
}

/*
 * --engine both: an entity clip the two engines disagree on fails the run
 * though every clip matched, as a frame-level one does; the x87 class does
 * not. report.json carries the count, and a verdict derived from it again
 * is the same.
 */
Test(verdict, an_entity_clip_the_engines_disagree_on_is_a_difference)
{
    run_totals t;
    memset(&t, 0, sizeof t);
    t.by_status[RES_MATCH] = 4;
    t.entity_by_status[RES_MATCH] = 3;
    t.entity_engines[RES_ENG_AGREE] = 2;
    t.entity_engines[RES_ENG_X87] = 1;
    cr_assert_eq(verdict_decide(&t, 0), VERDICT_BY_PASS);
    t.entity_engines[RES_ENG_AGREE] = 1;
    t.entity_engines[RES_ENG_DISAGREE] = 1;
    cr_assert_eq(verdict_decide(&t, 0), VERDICT_BY_DIFFERENCES);
    cr_assert_eq(verdict_entity_failures(&t), 1u);
    run_results r;
    rt_results(&r);
    r.totals = t;
    run_meta m;
    rt_meta(&m);
    cJSON *rep = report_build(&m, &r);
    cr_assert_not_null(rep);
    run_totals back;
    rv_totals(rep, &back);
    cr_assert_eq(back.entity_engines[RES_ENG_DISAGREE], 1u);
    cr_assert_eq(back.entity_engines[RES_ENG_X87], 1u);
    cr_assert_eq(verdict_decide(&back, 0), VERDICT_BY_DIFFERENCES);
    cJSON_Delete(rep);
    run_results_free(&r);
}
