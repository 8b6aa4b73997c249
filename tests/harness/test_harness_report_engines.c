/*
 * tests/harness/test_harness_report_engines.c: what each engine did, in
 * every output rendered from report.json, on the hand-built run of rt.c
 * (no engine runs here, so nothing is skipped anywhere). As a native run
 * leaves it: the calls on native (no hooks), the replays on Unicorn with
 * the reason, coverage asked for and not recorded: report.json validates
 * and holds it, index.html and summary.md say "Not recorded" and why
 * instead of a table of zeros and name the engines, the summary line and
 * junit.xml name them too. As a Unicorn run leaves it: the table is back
 * and nothing is said about another engine. Under --engine both, the second
 * engine and the agreement in every format.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/run/context.h"
#include "tests/harness/rt.h"

#define NOT_REC "the native engine has no coverage hooks; run with --engine unicorn to record it"
#define WHY                                                                                        \
    "write watches replayed on unicorn: the native engine has no write watch naming the "        \
    "instruction that wrote; explanations replayed on unicorn: the native engine has no "          \
    "recording of the calls of chosen routines (read logs)"

/* rt.c's run as a native run leaves it (native 1) or a Unicorn one (native 0). */
static cJSON *report_of(int native)
{
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    emu_engine_info info;
    memset(&info, 0, sizeof info);
    info.kind = native ? EMU_ENGINE_NATIVE : EMU_ENGINE_UNICORN;
    snprintf(info.version, sizeof info.version, "%s", native ? "6.1.0" : "2.1.1");
    info.caps = native ? 0 : emu_engine_caps(emu_engine_ops(EMU_ENGINE_UNICORN));
    m.engine = &info;
    res_engines *e = &r.engines;
    snprintf(e->calls, sizeof e->calls, "%s", native ? "native" : "unicorn");
    snprintf(e->replays, sizeof e->replays, "unicorn");
    snprintf(e->replays_why, sizeof e->replays_why, "%s", native ? WHY : "");
    if (native) {
        run_coverage_free(&r.coverage);
        r.coverage.enabled = 1;
        snprintf(r.coverage.not_recorded, sizeof r.coverage.not_recorded, NOT_REC);
    } else {
        snprintf(e->coverage, sizeof e->coverage, "unicorn");
    }
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL, "report_build failed");
    return j;
}

static void assert_valid(const cJSON *j)
{
    char *dir = ts_tempdir(), *json = cJSON_Print(j), *path = ts_path(dir, "report.json");
    const char *src = getenv("FF8DIFF_SOURCE_DIR");
    cr_assert(src != NULL, "FF8DIFF_SOURCE_DIR is not set");
    ts_write(path, json, strlen(json));
    char args[4200];
    snprintf(args, sizeof args, "validate %s/reports/schema/report.schema.json %s", src, path);
    int st;
    cJSON *v = rt_check(args, &st);
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(st, 0, "report.json does not validate (exit %d): %s", st, txt);
    free(txt);
    cJSON_Delete(v);
    free(path);
    free(json);
    ts_rmtree(dir);
}

static const cJSON *at(const cJSON *o, const char *dotted)
{
    char buf[128], *save = NULL;
    snprintf(buf, sizeof buf, "%s", dotted);
    for (char *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
        o = cJSON_GetObjectItem(o, k);
    cr_assert(o != NULL, "no %s", dotted);
    return o;
}

Test(engines_report, native_run_in_every_format)
{
    cJSON *j = report_of(1);
    assert_valid(j);
    cr_assert_str_eq(cJSON_GetStringValue(at(j, "run.tool.engine.kind")), "native");
    cr_assert_str_eq(cJSON_GetStringValue(at(j, "run.tool.engine.version")), "6.1.0");
    cr_assert_eq(cJSON_GetArraySize(at(j, "run.tool.engine.capabilities")), 0);
    cr_assert_str_eq(cJSON_GetStringValue(at(j, "run.engines.calls")), "native");
    cr_assert_str_eq(cJSON_GetStringValue(at(j, "run.engines.replays")), "unicorn");
    cr_assert_str_eq(cJSON_GetStringValue(at(j, "run.engines.replays_why")), WHY);
    cr_assert(cJSON_IsNull(at(j, "run.engines.coverage")));
    cr_assert(cJSON_IsFalse(at(j, "coverage.recorded")));
    cr_assert_str_eq(cJSON_GetStringValue(at(j, "coverage.not_recorded")), NOT_REC);
    cr_assert_eq(cJSON_GetArraySize(at(j, "coverage.routines")), 0);

    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, "<span id=\"engine\">engine native 6.1.0</span>"), "header");
    cr_assert(strstr(html, "<td id=\"engines\">calls on native 6.1.0 (no hooks); " WHY
                           "; coverage not recorded (" NOT_REC ")</td>"),
              "engines row");
    cr_assert(strstr(html, "id=\"coverage-not-recorded\">\n<p>Not recorded: " NOT_REC ".</p>"),
              "coverage section");
    cr_assert(!strstr(html, "coverage-table"), "a table of zeros");
    cr_assert(strstr(html, "coverage not recorded"), "options");
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "| Engines | calls on native 6.1.0 (no hooks); "), "%s", md);
    cr_assert(strstr(md, "\nNot recorded: " NOT_REC ".\n"), "coverage section");
    cr_assert(!strstr(md, "| Routine | Entry | Blocks run |"), "a table of zeros");
    char *line = rt_render(report_render_summary, j, "summary");
    cr_assert(strstr(line, "; engine: native, replays on unicorn, coverage not recorded (1.5 s)\n"),
              "%s", line);
    char *xml = rt_render(report_render_junit, j, "junit");
    cr_assert(strstr(xml, "<property name=\"engines\" value=\"calls on native 6.1.0 (no hooks); "),
              "junit.xml");
    free(xml);
    free(line);
    free(md);
    free(html);
    cJSON_Delete(j);
}

Test(engines_report, unicorn_run_keeps_its_table_and_names_one_engine)
{
    cJSON *j = report_of(0);
    assert_valid(j);
    cr_assert(cJSON_IsTrue(at(j, "coverage.recorded")));
    cr_assert(cJSON_IsNull(at(j, "coverage.not_recorded")));
    cr_assert_str_eq(cJSON_GetStringValue(at(j, "run.engines.coverage")), "unicorn");
    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, "id=\"coverage-table\""), "the table");
    cr_assert(!strstr(html, "coverage-not-recorded"), "no banner");
    cr_assert(strstr(html, "; replays with hooks (write watches, read logs) on unicorn; coverage "
                           "recorded on unicorn</td>"),
              "engines row");
    char *line = rt_render(report_render_summary, j, "summary");
    cr_assert(strstr(line, "; engine: unicorn (1.5 s)\n"), "%s", line);
    free(line);
    free(html);
    cJSON_Delete(j);
}

/* A check against traces ran no engine: nothing named, the summary line unchanged. */
Test(engines_report, no_engine_no_clause)
{
    cJSON *j = rt_report();
    assert_valid(j);
    cr_assert(cJSON_IsNull(at(j, "run.engines.calls")));
    char *line = rt_render(report_render_summary, j, "summary");
    cr_assert(!strstr(line, "engine:"), "%s", line);
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "| Engines | none: the original was not run |"), "markdown");
    free(md);
    free(line);
    cJSON_Delete(j);
}

/*
 * --engine both: the second engine and the engines' agreement are in the Engines row of
 * index.html and summary.md (the terminal's summary line says them too), with why the
 * cache and dedup are off.
 */
Test(engines_report, both_engines_told_in_every_format)
{
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    emu_engine_info info;
    memset(&info, 0, sizeof info);
    info.kind = EMU_ENGINE_UNICORN;
    snprintf(info.version, sizeof info.version, "2.1.1");
    m.engine = &info;
    snprintf(r.engines.calls, sizeof r.engines.calls, "unicorn");
    snprintf(r.engines.second, sizeof r.engines.second, "native");
    r.totals.engines[RES_ENG_AGREE] = 7;
    r.totals.engines[RES_ENG_DISAGREE] = 1;
    r.totals.engines[RES_ENG_X87] = 2;
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL);
    static const char said[] = "and every call again on native (--engine both): 10 comparisons on "
                               "both, 7 agree, 1 disagree, 2 x87 (emulation against hardware); "
                               "the results cache and dedup off, so that each clip runs on both";
    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, said), "index.html's Engines row");
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, said), "summary.md's Engines row");
    char *line = rt_render(report_render_summary, j, "summary");
    cr_assert(strstr(line, "engines unicorn and native on 10 comparisons: 7 agree, 1 disagree, "
                           "2 x87"),
              "%s", line);
    free(line);
    free(md);
    free(html);
    cJSON_Delete(j);
}
