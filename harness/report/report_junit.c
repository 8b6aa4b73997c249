/*
 * harness/report/report_junit.c: junit.xml rendered from the report tree alone.
 * <testsuites> holds one <testsuite> per mode (one <testcase> per file:
 * <failure> when a clip mismatched, faulted or was not decoded, <error> for
 * bad input,
 * <skipped/> when nothing was compared), at the entity level one "entity
 * <mode>" suite per mode (one <testcase> per entity, the pair named, with
 * the same verdicts), a "leaf" suite (one <testcase> per routine) and a
 * "run" suite: the run's verdict as stored in report.json (its properties
 * "verdict" and "verdict_reason", and "engines": what each engine did),
 * one <testcase> with an <error> when
 * the verdict is INCOMPLETE, the warnings in its <system-err>. Every string is escaped with sb_xml.
 * Recomputes nothing: it only counts the statuses the JSON holds.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_view.h"
#include "harness/report/report_view_entity.h"

typedef enum jcase { JC_PASS, JC_FAIL, JC_ERROR, JC_SKIP } jcase;

typedef struct jcount {
    uint64_t tests, failures, errors, skipped;
} jcount;

static void count(jcount *c, jcase k)
{
    c->tests++;
    if (k == JC_FAIL) c->failures++;
    if (k == JC_ERROR) c->errors++;
    if (k == JC_SKIP) c->skipped++;
}

static jcase counts_case(const uint64_t *n)
{
    if (res_status_sum(n, RES_SHARE_DIFF)) return JC_FAIL;
    if (res_status_sum(n, RES_SHARE_BAD)) return JC_ERROR;
    if (!n[RES_MATCH]) return JC_SKIP;
    return JC_PASS;
}

static jcase file_case(const rv_file *f, int m)
{
    return counts_case(f->n[m]);
}

static jcase routine_case(const cJSON *l)
{
    if (rv_u64(l, "mismatches", 0) || rv_u64(l, "faults", 0)) return JC_FAIL;
    if (!rv_u64(l, "calls", 0)) return JC_SKIP;
    return JC_PASS;
}

static void suite_open(strbuf *b, const char *name, const jcount *c)
{
    sb_puts(b, "  <testsuite name=\"");
    sb_xml(b, name);
    sb_printf(b, "\" tests=\"%llu\" failures=\"%llu\" errors=\"%llu\" skipped=\"%llu\">\n",
              (unsigned long long)c->tests, (unsigned long long)c->failures,
              (unsigned long long)c->errors, (unsigned long long)c->skipped);
}

/* The statement of cause id, or NULL. */
static const char *cause_statement(const cJSON *report, int64_t id)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, rv_arr(report, "causes"))
    {
        if (rv_int(c, "id", -1) == id) return rv_str(c, "statement", NULL);
    }
    return NULL;
}

/* One sentence on a failing result (and its cause), for the failure message. */
static void first_failure(strbuf *b, const cJSON *r, rv_labels l, const cJSON *report)
{
    sb_printf(b, "first: clip %lld", (long long)rv_int(r, "clip", -1));
    const cJSON *d = rv_obj(r, "divergence"), *f = rv_obj(r, "fault");
    if (d) {
        sb_printf(b, ", tick %lld, %s: %s %lld, %s %lld", (long long)rv_int(d, "tick", -1),
                  rv_str(d, "field", "?"), l.cand, (long long)rv_int(d, "ref", 0), l.auth,
                  (long long)rv_int(d, "orig", 0));
    } else if (f) {
        sb_printf(b, " faulted: %s at EIP %s", rv_str(f, "message", rv_str(f, "kind", "?")),
                  rv_str(f, "eip", "?"));
    } else if (rv_obj(r, "not_decoded")) {
        sb_printf(b, " not decoded by the %s: ", l.cand);
        report_not_decoded_text(b, r);
    }
    const char *why = rv_has_num(r, "cause") ? cause_statement(report, rv_int(r, "cause", -1))
                                             : NULL;
    if (why) sb_printf(b, "; cause %lld: %s", (long long)rv_int(r, "cause", -1), why);
}

/* Details of a failing result, for the failure body. */
static void failure_body(strbuf *b, const cJSON *r)
{
    const cJSON *d = rv_obj(r, "divergence"), *f = rv_obj(r, "fault"), *e;
    if (d) {
        const cJSON *cur = rv_obj(d, "cursor"), *st = rv_obj(d, "stream");
        sb_printf(b, "cursor at the tick's start: byte %lld, bit %lld (file offset 0x%llx)\n",
                  (long long)rv_int(cur, "byte", -1), (long long)rv_int(cur, "bit", -1),
                  (unsigned long long)rv_u64(cur, "file_offset", 0));
        if (*rv_str(st, "hex", ""))
            sb_printf(b,
                      "stream from 0x%llx, cursor byte index %lld:\n  hex  %s\n"
                      "  bits %s (LSB first)\n",
                      (unsigned long long)rv_u64(st, "offset", 0),
                      (long long)rv_int(st, "cursor_index", -1), rv_str(st, "hex", ""),
                      rv_str(st, "bits_lsb_first", ""));
        sb_printf(b, "differing field values: %llu; group %lld\n",
                  (unsigned long long)rv_u64(d, "differing_fields", 0),
                  (long long)rv_int(r, "group", -1));
    }
    if (f) {
        sb_printf(b, "%s (%s) at EIP %s, address %s\n%s\n", rv_str(f, "message", "?"),
                  rv_str(f, "kind", "?"), rv_str(f, "eip", "?"), rv_str(f, "address", "?"),
                  rv_str(f, "detail", ""));
        cJSON_ArrayForEach(e, rv_arr(f, "disassembly"))
        {
            if (cJSON_IsString(e)) sb_printf(b, "%s\n", e->valuestring);
        }
    }
}

/*
 * One <testcase> from the counts of one (file or entity, mode): name its
 * classname, the first failing and bad results fail and bad.
 */
static void testcase(strbuf *b, const char *name, int m, const uint64_t *n, const cJSON *fail,
                     const cJSON *bad, rv_labels l, const cJSON *report)
{
    const char *mode = mode_name((mode_id)m);
    jcase k = counts_case(n);
    strbuf t;
    sb_init(&t);
    sb_puts(b, "    <testcase classname=\"");
    sb_xml(b, name);
    sb_puts(b, "\" name=\"");
    sb_xml(b, name);
    sb_printf(b, " %s\"", mode);
    if (k == JC_PASS) {
        sb_puts(b, "/>\n");
        return;
    }
    sb_puts(b, ">\n");
    if (k == JC_FAIL) {
        uint64_t clips = 0;
        for (int s = 0; s < RES__COUNT; s++) clips += n[s];
        sb_printf(&t, "%llu of %llu clips differ (%llu mismatched, %llu faulted",
                  (unsigned long long)res_status_sum(n, RES_SHARE_DIFF), (unsigned long long)clips,
                  (unsigned long long)n[RES_MISMATCH], (unsigned long long)n[RES_FAULT]);
        if (n[RES_NOT_DECODED])
            sb_printf(&t, ", %llu not decoded", (unsigned long long)n[RES_NOT_DECODED]);
        sb_puts(&t, "); ");
        first_failure(&t, fail, l, report);
        sb_printf(b, "      <failure type=\"%s\" message=\"",
                  n[RES_MISMATCH] ? "mismatch" : n[RES_FAULT] ? "fault" : "not_decoded");
        sb_xml(b, t.s ? t.s : "");
        sb_puts(b, "\">");
        sb_reset(&t);
        failure_body(&t, fail);
        sb_xml(b, t.s ? t.s : "");
        sb_puts(b, "</failure>\n");
    } else if (k == JC_ERROR) {
        const cJSON *err = rv_obj(bad, "error");
        sb_puts(b, "      <error type=\"bad_input\" message=\"");
        sb_xml(b, rv_str(err, "message", "bad input"));
        sb_printf(b, "\">%llu bad input result(s); error kind ",
                  (unsigned long long)n[RES_BAD_INPUT]);
        sb_xml(b, rv_str(err, "kind", "?"));
        sb_puts(b, "</error>\n");
    } else {
        sb_printf(b, "      <skipped message=\"%s\"/>\n",
                  n[RES_NOT_RUN] ? "not run" : "no clip compared");
    }
    sb_puts(b, "    </testcase>\n");
    sb_free(&t);
}

static void file_testcase(strbuf *b, const rv_file *f, int m, const cJSON *report)
{
    testcase(b, f->name, m, f->n[m], f->first_fail[m], f->first_bad[m], rv_sides(report), report);
}

static void entity_testcase(strbuf *b, const rv_entity *e, int m, const cJSON *report)
{
    testcase(b, e->pair, m, e->n[m], e->first_fail[m], e->first_bad[m], rv_sides(report),
             report);
}

static void leaf_testcase(strbuf *b, const cJSON *l)
{
    jcase k = routine_case(l);
    sb_puts(b, "    <testcase classname=\"leaf\" name=\"");
    sb_xml(b, rv_str(l, "routine", "?"));
    sb_puts(b, "\"");
    if (k == JC_PASS) {
        sb_puts(b, "/>\n");
        return;
    }
    sb_puts(b, ">\n");
    if (k == JC_SKIP) {
        sb_puts(b, "      <skipped message=\"no call made\"/>\n    </testcase>\n");
        return;
    }
    const cJSON *m = rv_obj(l, "first_mismatch"), *f = rv_obj(l, "fault");
    strbuf t;
    sb_init(&t);
    sb_printf(&t, "%llu of %llu calls mismatched, %llu faulted",
              (unsigned long long)rv_u64(l, "mismatches", 0),
              (unsigned long long)rv_u64(l, "calls", 0),
              (unsigned long long)rv_u64(l, "faults", 0));
    if (m) {
        const cJSON *r = rv_obj(m, "ref"), *o = rv_obj(m, "orig");
        sb_printf(&t,
                  "; first: case %llu, bytes %s, bit %lld, n %lld: ax %lld vs %lld, "
                  "cursor after %lld.%lld vs %lld.%lld",
                  (unsigned long long)rv_u64(m, "case", 0), rv_str(m, "bytes", "?"),
                  (long long)rv_int(m, "bit", 0), (long long)rv_int(m, "n", 0),
                  (long long)rv_int(r, "ax", 0), (long long)rv_int(o, "ax", 0),
                  (long long)rv_int(r, "byte", 0), (long long)rv_int(r, "bit", 0),
                  (long long)rv_int(o, "byte", 0), (long long)rv_int(o, "bit", 0));
    }
    sb_printf(b, "      <failure type=\"%s\" message=\"", m ? "mismatch" : "fault");
    sb_xml(b, t.s ? t.s : "");
    sb_puts(b, "\">");
    if (f) {
        sb_reset(&t);
        sb_printf(&t, "%s (%s) at EIP %s, address %s\n", rv_str(f, "message", "?"),
                  rv_str(f, "kind", "?"), rv_str(f, "eip", "?"), rv_str(f, "address", "?"));
        const cJSON *e;
        cJSON_ArrayForEach(e, rv_arr(f, "disassembly"))
        {
            if (cJSON_IsString(e)) sb_printf(&t, "%s\n", e->valuestring);
        }
        sb_xml(b, t.s ? t.s : "");
    }
    sb_puts(b, "</failure>\n    </testcase>\n");
    sb_free(&t);
}

/*
 * The "run" suite: the verdict report.json stores as its properties
 * ("verdict", "verdict_reason"), and one test case, "run completed", with an
 * <error> when the run was interrupted (type "interrupted", whatever the
 * verdict) or its verdict is INCOMPLETE (type "not_run");
 * the warnings as its <system-err>. *c gets its counts.
 */
static int run_incomplete(const cJSON *report, verdict v)
{
    return verdict_result_of(v) == VERDICT_INCOMPLETE ||
           rv_bool(rv_obj(report, "run"), "interrupted", 0);
}

static void run_suite_counts(const cJSON *report, verdict v, jcount *c)
{
    memset(c, 0, sizeof *c);
    count(c, run_incomplete(report, v) ? JC_ERROR : JC_PASS);
}

static void run_suite(strbuf *b, const cJSON *report, verdict v, const jcount *c)
{
    const cJSON *run = rv_obj(report, "run"), *w;
    suite_open(b, "run", c);
    sb_printf(b,
              "    <properties>\n      <property name=\"verdict\" value=\"%s\"/>\n"
              "      <property name=\"verdict_reason\" value=\"%s\"/>\n",
              verdict_label(v), verdict_reason_name(v));
    /* What each engine did (report_engines.c), when one ran. */
    if (rv_str(rv_obj(run, "engines"), "calls", NULL)) {
        strbuf e;
        sb_init(&e);
        rv_engines_text(&e, report);
        sb_puts(b, "      <property name=\"engines\" value=\"");
        sb_xml(b, e.s ? e.s : "");
        sb_puts(b, "\"/>\n");
        sb_free(&e);
    }
    sb_puts(b, "    </properties>\n");
    sb_puts(b, "    <testcase classname=\"ff8diff\" name=\"run completed\">");
    if (run_incomplete(report, v)) {
        int interrupted = rv_bool(run, "interrupted", 0);
        uint64_t not_run = rv_u64(rv_obj(report, "totals"), "not_run", 0);
        strbuf t;
        sb_init(&t);
        if (interrupted)
            sb_printf(&t, "the run was interrupted%s%s: %llu comparisons were not run",
                      rv_str(run, "interrupted_by", NULL) ? " by " : "",
                      rv_str(run, "interrupted_by", ""), (unsigned long long)not_run);
        else
            sb_printf(&t, "%s: %llu comparisons were not run", verdict_meaning(v),
                      (unsigned long long)not_run);
        sb_printf(b, "<error type=\"%s\" message=\"",
                  interrupted ? "interrupted" : verdict_reason_name(v));
        sb_xml(b, t.s ? t.s : "");
        sb_puts(b, "\"/>");
        sb_free(&t);
    }
    sb_puts(b, "</testcase>\n");
    if (rv_len(rv_arr(run, "warnings"))) {
        sb_puts(b, "    <system-err>");
        cJSON_ArrayForEach(w, rv_arr(run, "warnings"))
        {
            sb_puts(b, "warning: ");
            sb_xml(b, cJSON_IsString(w) ? w->valuestring : "?");
            sb_puts(b, "\n");
        }
        sb_puts(b, "</system-err>\n");
    }
    sb_puts(b, "  </testsuite>\n");
}

int report_render_junit(const cJSON *report, strbuf *out)
{
    rv_index ix;
    rv_entities ents;
    if (rv_index_build(report, &ix) < 0) return -1;
    if (rv_entities_build(report, &ents) < 0) {
        rv_index_free(&ix);
        return -1;
    }
    int entity = rv_entity_level(report);
    jcount esuite[MODE__COUNT] = {{0}};
    for (int m = 0; entity && m < MODE__COUNT; m++) {
        if (!(ents.modes & (1u << m))) continue;
        for (size_t i = 0; i < ents.n; i++) count(&esuite[m], counts_case(ents.e[i].n[m]));
    }
    const cJSON *run = rv_obj(report, "run"), *levels = rv_arr(run, "levels");
    const cJSON *leaf = rv_arr(report, "leaf"), *l;
    /* frame suites when the frame level ran (or the report says nothing of levels) */
    int frame = !levels || rv_has_string(levels, "frame") || ix.nresults > 0;
    int with_leaf = rv_has_string(levels, "leaf") || rv_len(leaf) > 0;
    jcount suite[MODE__COUNT] = {{0}}, lc = {0}, all = {0};
    for (int m = 0; frame && m < MODE__COUNT; m++) {
        if (!(ix.modes & (1u << m))) continue;
        for (size_t i = 0; i < ix.nfiles; i++)
            count(&suite[m], file_case(&ix.files[i], m));
    }
    cJSON_ArrayForEach(l, leaf)
    {
        count(&lc, routine_case(l));
    }
    for (int m = 0; m < MODE__COUNT; m++) {
        all.tests += suite[m].tests + esuite[m].tests;
        all.failures += suite[m].failures + esuite[m].failures;
        all.errors += suite[m].errors + esuite[m].errors;
        all.skipped += suite[m].skipped + esuite[m].skipped;
    }
    all.tests += lc.tests;
    all.failures += lc.failures;
    all.errors += lc.errors;
    all.skipped += lc.skipped;
    verdict v;
    rv_verdict(report, &v);
    jcount rc;
    run_suite_counts(report, v, &rc);
    all.tests += rc.tests;
    all.errors += rc.errors;

    sb_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ff8diff ");
    sb_xml(out, rv_str(run, "id", ""));
    sb_printf(out,
              "\" tests=\"%llu\" failures=\"%llu\" errors=\"%llu\" skipped=\"%llu\" "
              "time=\"%.3f\">\n",
              (unsigned long long)all.tests, (unsigned long long)all.failures,
              (unsigned long long)all.errors, (unsigned long long)all.skipped,
              rv_num(run, "seconds", 0));
    for (int m = 0; frame && m < MODE__COUNT; m++) {
        if (!(ix.modes & (1u << m))) continue;
        suite_open(out, mode_name((mode_id)m), &suite[m]);
        for (size_t i = 0; i < ix.nfiles; i++)
            file_testcase(out, &ix.files[i], m, report);
        sb_puts(out, "  </testsuite>\n");
    }
    for (int m = 0; entity && m < MODE__COUNT; m++) {
        if (!(ents.modes & (1u << m))) continue;
        char name[32];
        snprintf(name, sizeof name, "entity %s", mode_name((mode_id)m));
        suite_open(out, name, &esuite[m]);
        for (size_t i = 0; i < ents.n; i++) entity_testcase(out, &ents.e[i], m, report);
        sb_puts(out, "  </testsuite>\n");
    }
    if (with_leaf) {
        suite_open(out, "leaf", &lc);
        cJSON_ArrayForEach(l, leaf)
        {
            leaf_testcase(out, l);
        }
        sb_puts(out, "  </testsuite>\n");
    }
    run_suite(out, report, v, &rc);
    sb_puts(out, "</testsuites>\n");
    rv_index_free(&ix);
    rv_entities_free(&ents);
    return strbuf_failed(out) ? -1 : 0;
}
