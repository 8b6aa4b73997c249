/*
 * tests/harness/test_harness_report.c: the three renderers: index.html
 * (well-formed, escaped, sections, plots, stream bits), junit.xml
 * (counts), summary.md (totals, escaping),
 * robustness on ill-typed trees, report_write's folder, and a run stopped
 * by SIGTERM with warnings and rejected cache entries in every format.
 *
 * Expected values come from the hand-built run in rt.c, worked out by hand.
 * report.json against its schema: test_harness_report_schema.c.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "ref/dat.h"
#include "common/error.h"
#include "harness/run/run.h"
#include "tests/harness/rt.h"

/* Runs report_check.py on text written as dir/name; returns its verdict. */
static cJSON *check_file(const char *dir, const char *name, const char *text, const char *cmd)
{
    char *path = ts_path(dir, name), args[4200];
    ts_write(path, text, strlen(text));
    snprintf(args, sizeof args, "%s %s", cmd, path);
    int st;
    cJSON *v = rt_check(args, &st);
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(st, 0, "%s %s: exit %d: %s", cmd, name, st, txt);
    free(txt);
    free(path);
    return v;
}

static int has_string(const cJSON *arr, const char *s)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0) return 1;
    }
    return 0;
}

static int num(const cJSON *o, const char *key)
{
    const cJSON *n = cJSON_GetObjectItem(o, key);
    cr_assert(cJSON_IsNumber(n), "no number %s", key);
    return n->valueint;
}

Test(html, well_formed_escaped_with_sections_and_plots)
{
    char *dir = ts_tempdir();
    cJSON *j = rt_report();
    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, RT_HOSTILE) == NULL, "the hostile name appears unescaped");
    cr_assert(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;.dat") != NULL,
              "the hostile name does not appear escaped");
    cr_assert_eq(ts_count(html, "<script"), 0, "a <script> element");
    cr_assert(!strstr(html, "http://") && !strstr(html, "https://"), "an external URL");
    cr_assert(strstr(html, "BuildBoneMatrices replaced by a plain return"), "matrices note");
    cr_assert(strstr(html, "unknown build &lt;v1.2&gt;: fingerprints hold"), "warning");
    cr_assert(strstr(html, "read at &lt;0xdeadbeef&gt; &amp; beyond"), "fault detail");
    cr_assert(strstr(html, "stream ends &lt;early&gt; &amp; short"), "bad input message");
    cr_assert(strstr(html, "<span class=\"eip\">&gt; 0x5092a5: mov eax, dword ptr [ecx]</span>"),
              "EIP line of the disassembly");
    /* 0x9a at stream index 4 is the cursor byte; LSB first 0x9a is 01011001, bit 3 marked */
    cr_assert(strstr(html, "<td class=\"cur\">9a</td>"), "cursor byte not highlighted");
    cr_assert(strstr(html, "<td class=\"bits cur\">010<span class=\"curbit\">1</span>1001</td>"),
              "cursor bit not highlighted");
    cr_assert(strstr(html, "<td class=\"cur\">0x68</td>"), "cursor byte offset 104");
    cr_assert(!strstr(html, "id=\"interrupted\""), "interrupted banner on a complete run");
    /* The page opens with the causes, before the run's details. */
    cr_assert(strstr(html, "id=\"causes\"") && strstr(html, "id=\"run\"") &&
                  strstr(html, "id=\"causes\"") < strstr(html, "id=\"run\""),
              "causes before the run section");
    cr_assert(strstr(html, "every read agrees, yet root.y differs &lt;by 1&gt; &amp; more"),
              "cause statement escaped");
    cr_assert(strstr(html, "<td class=\"num\"><strong>21 (first difference)</strong></td>"),
              "the first differing read marked in the window");
    cr_assert(strstr(html, "0x509487: add ecx, ecx &lt;&amp;&gt;"), "uncovered block text");
    cr_assert(strstr(html, "je 0x50948a</code> (which ran)"), "the branch leading to it");

    cJSON *v = check_file(dir, "index.html", html, "html");
    cJSON *ids = cJSON_GetObjectItem(v, "ids");
    static const char *const want[] = {
        "summary", "groups",      "files",         "nonmatching", "faults",  "bad-input", "leaf",
        "run",     "exe-warning", "bone-matrices", "group-0",     "group-1", "group-2",
        "causes",  "cause-0",     "cause-1",       "coverage",    "coverage-table"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert(has_string(ids, want[i]), "no element id=\"%s\"", want[i]);
    cr_assert_eq(num(v, "groups"), 3, "groups: %d", num(v, "groups"));
    cr_assert_eq(num(v, "scripts"), 0);
    cr_assert_eq(num(v, "links"), 0);
    cJSON *plots = cJSON_GetObjectItem(v, "plots");
    cr_assert_eq(cJSON_GetArraySize(plots), 2, "two frame groups, two plots");
    for (int i = 0; i < 2; i++)
        cr_assert_eq(cJSON_GetArrayItem(plots, i)->valueint, 2, "plot %d: polylines", i);
    cr_assert(has_string(cJSON_GetObjectItem(v, "names"), RT_HOSTILE),
              "the hostile name is not shown as text");
    cr_assert(has_string(cJSON_GetObjectItem(v, "names"), RT_PIPE), "the bad file");
    cJSON_Delete(v);
    free(html);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

Test(html, interrupted_banner)
{
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    r.interrupted = 1;
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL);
    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, "id=\"interrupted\""), "no interrupted banner");
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "**Interrupted**"), "markdown: no interrupted line");
    free(md);
    free(html);
    cJSON_Delete(j);
}

/* A run on a located profile: report.json records it, validates, and both pages say so. */
Test(html, located_profile_banner)
{
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    m.profile = "ff8_en_steam2013_located_0123abcd";
    m.located_from = "ff8_en_steam2013";
    m.located_exe = "FF8_FR.exe";
    m.located_patterns = "learned from FF8_EN.exe";
    m.located_tool = "ff8diff 0.1.0";
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL);
    const cJSON *loc =
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "run"), "executable"),
                            "profile_located");
    cr_assert(cJSON_IsObject(loc));
    cr_assert_str_eq(cJSON_GetObjectItem(loc, "executable")->valuestring, "FF8_FR.exe");
    char *dir = ts_tempdir();
    cJSON *v;
    cr_assert_eq(rt_validate(dir, j, &v), 0, "a located report does not validate");
    cJSON_Delete(v);
    ts_rmtree(dir);
    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, "id=\"profile-located\""), "no located banner");
    cr_assert(strstr(html, "FF8_FR.exe"));
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "**Located profile**"), "markdown: no located line");
    cr_assert(strstr(md, "| Located | by structure from profile ff8\\_en\\_steam2013 in "
                         "FF8\\_FR.exe"),
              "%s", md);
    free(md);
    free(html);
    cJSON_Delete(j);
    /* Without a located profile: null, and no banner. */
    rt_results(&r);
    rt_meta(&m);
    j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(cJSON_IsNull(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "run"), "executable"),
                            "profile_located")));
    html = rt_render(report_render_html, j, "html");
    cr_assert_null(strstr(html, "profile-located"));
    free(html);
    cJSON_Delete(j);
}

Test(render, same_output_from_the_tree_and_from_report_json)
{
    cJSON *j = rt_report();
    char *text = cJSON_PrintUnformatted(j);
    cJSON *back = cJSON_Parse(text);
    cr_assert(back != NULL);
    int (*fns[3])(const cJSON *, strbuf *) = {report_render_html, report_render_markdown,
                                              report_render_junit};
    for (int i = 0; i < 3; i++) {
        char *a = rt_render(fns[i], j, "tree"), *b = rt_render(fns[i], back, "parsed");
        cr_assert_str_eq(a, b, "renderer %d differs after a JSON round trip", i);
        free(a);
        free(b);
    }
    cJSON_Delete(back);
    free(text);
    cJSON_Delete(j);
}

Test(render, ill_typed_trees_do_not_crash)
{
    static const char *const docs[] = {
        "{}",
        "[]",
        "{\"run\":5,\"totals\":\"x\",\"manifest\":{},\"results\":7,\"leaf\":null,\"groups\":true}",
        "{\"results\":[1,null,{\"file\":3},{\"file\":\"a\",\"mode\":\"warp\",\"status\":\"match\"},"
        "{\"file\":\"a\",\"mode\":\"normal\",\"status\":\"mismatch\",\"divergence\":[]}],"
        "\"groups\":[{},{\"level\":\"frame\",\"example\":{\"result\":1e300},"
        "\"series\":{\"ref\":\"x\",\"orig\":[1,\"y\",3]}},{\"level\":\"leaf\",\"example\":5},"
        "{\"series\":{\"ref\":[],\"orig\":[]},\"example\":{\"tick\":-5}},"
        "{\"series\":{\"ref\":[4,4,4],\"orig\":[4]},\"example\":{\"tick\":99}}],"
        "\"leaf\":[{\"routine\":7,\"first_mismatch\":[],\"fault\":{\"disassembly\":[1,\"x\"]}}],"
        "\"manifest\":[{\"name\":\"a\",\"error\":{}},{\"name\":null}]}",
        "{\"results\":[{\"file\":\"a\",\"mode\":\"normal\",\"status\":\"mismatch\","
        "\"divergence\":{\"stream\":{\"hex\":\"zz <b> 01 02\",\"bits_lsb_first\":\"1 & 2\","
        "\"cursor_index\":-3}}}],\"groups\":[{\"example\":{\"result\":0}}]}",
    };
    int (*fns[3])(const cJSON *, strbuf *) = {report_render_html, report_render_markdown,
                                              report_render_junit};
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        cJSON *j = cJSON_Parse(docs[d]);
        cr_assert(j != NULL, "doc %zu is not JSON", d);
        for (int i = 0; i < 3; i++) {
            strbuf b;
            sb_init(&b);
            cr_assert_eq(fns[i](j, &b), 0, "doc %zu, renderer %d failed", d, i);
            cr_assert(b.len > 0, "doc %zu, renderer %d: empty output", d, i);
            if (i == 0) {
                cr_assert(strstr(b.s, "id=\"summary\""), "doc %zu: no summary", d);
                cr_assert(!strstr(b.s, "<b>"), "doc %zu: unescaped markup", d);
            }
            sb_free(&b);
        }
        cJSON_Delete(j);
    }
    strbuf b;
    sb_init(&b);
    cr_assert_eq(report_render_html(NULL, &b), 0, "NULL tree");
    sb_free(&b);
}

static const cJSON *suite(const cJSON *v, const char *name)
{
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItem(v, "suites"))
    {
        if (strcmp(cJSON_GetObjectItem(s, "name")->valuestring, name) == 0) return s;
    }
    cr_assert_fail("no testsuite %s", name);
    return NULL;
}

static void suite_counts(const cJSON *v, const char *name, int tests, int failures, int errors,
                         int skipped)
{
    const cJSON *s = suite(v, name);
    cr_assert_eq(num(s, "tests"), tests, "%s: tests attribute", name);
    cr_assert_eq(num(s, "cases"), tests, "%s: testcase elements", name);
    cr_assert_eq(num(s, "failures"), failures, "%s: failures attribute", name);
    cr_assert_eq(num(s, "case_failures"), failures, "%s: failure elements", name);
    cr_assert_eq(num(s, "errors"), errors, "%s: errors attribute", name);
    cr_assert_eq(num(s, "case_errors"), errors, "%s: error elements", name);
    cr_assert_eq(num(s, "skipped"), skipped, "%s: skipped attribute", name);
    cr_assert_eq(num(s, "case_skipped"), skipped, "%s: skipped elements", name);
}

Test(junit, suites_cases_and_counts)
{
    char *dir = ts_tempdir();
    cJSON *j = rt_report();
    char *xml = rt_render(report_render_junit, j, "junit");
    cr_assert(strstr(xml, RT_HOSTILE) == NULL, "the hostile name appears unescaped");
    cJSON *v = check_file(dir, "junit.xml", xml, "junit");
    cr_assert_str_eq(cJSON_GetObjectItem(v, "root")->valuestring, "testsuites");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(v, "suites")), 4,
                 "normal, slow, leaf, run");
    /* normal: c0m001 fails (mismatch + fault), hostile fails, broken errors, c0m099 skipped */
    suite_counts(v, "normal", 4, 2, 1, 1);
    /* slow: c0m001 passes (2 match, 1 not run), hostile and broken error, c0m099 skipped */
    suite_counts(v, "slow", 4, 0, 2, 1);
    /* leaf: bitReader mismatches, ReadPositionType faults, ReadBoneScale made no call */
    suite_counts(v, "leaf", 4, 2, 0, 1);
    /* run: "run completed" passes (the run was not interrupted) */
    suite_counts(v, "run", 1, 0, 0, 0);
    cr_assert_eq(num(v, "tests"), 13);
    cr_assert_eq(num(v, "failures"), 4);
    cr_assert_eq(num(v, "errors"), 3);
    cr_assert_eq(num(v, "skipped"), 3);
    const cJSON *n = suite(v, "normal");
    cr_assert(has_string(cJSON_GetObjectItem(n, "names"), "c0m001.dat normal"));
    cr_assert(has_string(cJSON_GetObjectItem(n, "names"), RT_HOSTILE " normal"));
    cr_assert(has_string(cJSON_GetObjectItem(n, "classnames"), RT_HOSTILE));
    cr_assert(has_string(cJSON_GetObjectItem(n, "messages"),
                         "2 of 3 clips differ (1 mismatched, 1 faulted); first: clip 1, tick 2, "
                         "bone[3].rot.x: reference 20, original 36; cause 0: ReadRotationType "
                         "returns 36 where the reference returns 20 (rotation type 1)"),
              "failure message of c0m001.dat normal");
    cr_assert(has_string(cJSON_GetObjectItem(n, "messages"),
                         RT_PIPE ": offset 0x4 (4): section count 99 > 16"),
              "error message of the bad file");
    cJSON_Delete(v);
    free(xml);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

Test(markdown, totals_groups_and_escaping)
{
    cJSON *j = rt_report();
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "| match | mismatch | fault | not decoded | bad input | not run |\n"
                         "|---:|---:|---:|---:|---:|---:|\n| 5 | 2 | 1 | 0 | 3 | 1 |"),
              "totals row (match .. not run), one column per status");
    cr_assert(strstr(md, "| Files | 4 (1 bad) |\n| Clips | 5, compared in 12 (clip, mode) pairs |"),
              "files and clips");
    cr_assert(strstr(md, "| Leaf level | 200 calls, 3 mismatches, 1 faults |"), "leaf level");
    cr_assert(strstr(md, "| Groups | 3 |"), "groups");
    cr_assert(strstr(md, "**Result: FAIL**"));
    cr_assert(!strstr(md, "<script"), "unescaped markup");
    cr_assert(strstr(md, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;\"'.dat"), "hostile name");
    cr_assert(strstr(md, "broken\\|name.dat"), "pipe in a file name not escaped");
    cr_assert(!strstr(md, "broken|name"), "raw pipe in a file name");
    cr_assert(strstr(md, "| First divergence | tick 2, `bone[3].rot.x` |\n"
                         "| Reference vs original | **20** vs **36** |"),
              "first divergence of group 0");
    cr_assert(strstr(md, "`12 34 56 78 9a bc de f0`"), "stream hex");
    cr_assert(strstr(md, "BuildBoneMatrices replaced by a plain return"));
    cr_assert(strstr(md, "> 0x5092a5: mov eax, dword ptr [ecx]\n"), "disassembly block");
    cr_assert_eq(ts_count(md, "### \\#"), 3, "three groups");
    cr_assert_eq(ts_count(md, "### Cause "), 2, "two causes");
    cr_assert(strstr(md, "## Causes (2)") && strstr(md, "## Causes (2)") < strstr(md, "## Run"),
              "causes open the summary");
    cr_assert(strstr(md, "### Cause 1 (combine): 1 clip") &&
                  strstr(md, "**every read agrees, yet root.y differs &lt;by 1&gt; &amp; more**"),
              "cause statement escaped: %s", md);
    cr_assert(strstr(md, "| **21 (first difference)** | `ReadRotationType = 20  5.3 -> 6.3` | "
                         "`ReadRotationType = 36  5.3 -> 6.3` |"),
              "read window with the first differing read marked");
    cr_assert(strstr(md, "| StartClip | `0x509440` | 2 / 3 |"), "coverage row");
    cr_assert(strstr(md, "from `0x509485` `je 0x50948a` (which ran)"), "uncovered block's way in");
    free(md);
    cJSON_Delete(j);
}

/* The four files of a report folder written with threads, each read whole. */
static char **read_parts(const cJSON *j, const char *dir, const char *id, unsigned threads,
                         size_t len[4])
{
    static const char *const parts[] = {"report.json", "index.html", "summary.md", "junit.xml"};
    char *out = NULL, msg[1024];
    ff_error err;
    ff_error_clear(&err);
    cr_assert_eq(report_write(j, dir, id, threads, &out, &err), 0, "report_write: %s",
                 ff_error_format(&err, msg, sizeof msg));
    char **text = calloc(4, sizeof *text);
    for (size_t i = 0; i < 4; i++) {
        char *p = ts_path(out, parts[i]);
        text[i] = ts_read(p, &len[i]);
        cr_assert(text[i] != NULL, "%s missing", parts[i]);
        free(p);
    }
    free(out);
    return text;
}

/*
 * A run of more results than one thread builds (copies of the hand-built
 * run's, each another clip): the tree built on 1 and on 4 threads is the
 * same, and so are the files written on 1 and on 2.
 */
Test(report, the_same_on_any_number_of_threads)
{
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    clip_result *own = r.results;
    size_t nown = r.nresults, n = 3 * 2048 + 5;
    clip_result *many = malloc(n * sizeof *many);
    cr_assert(many);
    for (size_t i = 0; i < n; i++) {
        many[i] = own[i % nown]; /* shallow: the report only reads them */
        many[i].clip = (int32_t)(i / nown);
    }
    r.results = many;
    r.nresults = n;
    m.jobs = 1;
    cJSON *one = report_build(&m, &r);
    m.jobs = 4;
    cJSON *four = report_build(&m, &r);
    cr_assert(one && four);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(four, "results")), (int)n);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(four, "run"), "jobs", cJSON_CreateNumber(1));
    cr_assert(cJSON_Compare(one, four, 1), "the tree built on 4 threads differs");
    char *dir = ts_tempdir();
    size_t la[4], lb[4];
    char **a = read_parts(four, dir, "serial", 1, la), **b = read_parts(four, dir, "apart", 2, lb);
    for (size_t i = 0; i < 4; i++) {
        cr_assert(la[i] == lb[i] && memcmp(a[i], b[i], la[i]) == 0, "part %zu differs", i);
        free(a[i]);
        free(b[i]);
    }
    free(a);
    free(b);
    ts_rmtree(dir);
    cJSON_Delete(one);
    cJSON_Delete(four);
    r.results = own;
    r.nresults = nown;
    free(many);
    run_results_free(&r);
}

Test(report, write_folder_holds_four_files)
{
    char *dir = ts_tempdir(), *out = NULL;
    cJSON *j = rt_report();
    ff_error err;
    ff_error_clear(&err);
    char msg[1024];
    cr_assert_eq(report_write(j, dir, "run-1", 1, &out, &err), 0, "report_write: %s",
                 ff_error_format(&err, msg, sizeof msg));
    static const char *const parts[] = {"report.json", "index.html", "summary.md", "junit.xml"};
    for (size_t i = 0; i < 4; i++) {
        char *p = ts_path(out, parts[i]);
        size_t n = 0;
        char *s = ts_read(p, &n);
        cr_assert(s != NULL && n > 100, "%s missing or empty", parts[i]);
        free(s);
        free(p);
    }
    char *p = ts_path(out, "report.json"), *text = ts_read(p, NULL);
    cJSON *back = cJSON_Parse(text);
    cr_assert(back != NULL, "report.json does not parse back");
    cr_assert(cJSON_Compare(back, j, 1), "report.json differs from the tree");
    cJSON_Delete(back);
    free(text);
    free(p);
    free(out);
    cJSON_Delete(j);
    ts_rmtree(dir);
}

/*
 * A corpus-sized run: 1000 files x 4 modes x 3 clips = 12000 results;
 * clip 1 mismatches in normal, slow and fast (3000 mismatches), spread
 * over 150 groups of 200-tick series.
 */
static void large_run(run_results *r)
{
    enum { FILES = 1000, GROUPS = 150, TICKS = 200 };
    memset(r, 0, sizeof *r);
    r->nfiles = FILES;
    r->files = calloc(FILES, sizeof *r->files);
    r->nresults = (size_t)FILES * MODE__COUNT * 3;
    r->results = calloc(r->nresults, sizeof *r->results);
    r->ngroups = GROUPS;
    r->groups = calloc(GROUPS, sizeof *r->groups);
    cr_assert(r->files && r->results && r->groups, "out of memory");
    for (size_t f = 0; f < FILES; f++) {
        char name[32];
        snprintf(name, sizeof name, "c0m%04zu.dat", f);
        r->files[f].name = strdup(name);
        r->files[f].parsed = 1;
        r->files[f].kind = DAT_MONSTER;
        r->files[f].clips = 3;
        for (int m = 0; m < MODE__COUNT; m++)
            for (int c = 0; c < 3; c++) {
                size_t k = (f * MODE__COUNT + (size_t)m) * 3 + (size_t)c;
                clip_result *x = &r->results[k];
                x->file = (uint32_t)f;
                x->clip = c;
                x->mode = (mode_id)m;
                x->source = RES_SRC_EMULATED;
                x->group = -1;
                x->status = RES_MATCH;
                if (c == 1 && m != MODE_SLOW_FAST) {
                    x->status = RES_MISMATCH;
                    x->group = (int)(f % GROUPS);
                    x->div.field = FIELD_ROT_Y;
                    x->div.tick = 7;
                }
            }
    }
    for (size_t g = 0; g < GROUPS; g++) {
        res_group *gr = &r->groups[g];
        snprintf(gr->level, sizeof gr->level, "frame");
        snprintf(gr->field, sizeof gr->field, "rot.y");
        snprintf(gr->mode, sizeof gr->mode, "normal");
        snprintf(gr->shape, sizeof gr->shape, "other");
        gr->count = 20;
        gr->example = (int64_t)(g * MODE__COUNT * 3 + 1);
        gr->series.n = gr->series.ref_n = gr->series.orig_n = TICKS;
        gr->series.ref = malloc(TICKS * sizeof(int32_t));
        gr->series.orig = malloc(TICKS * sizeof(int32_t));
        cr_assert(gr->series.ref && gr->series.orig);
        for (int t = 0; t < TICKS; t++) {
            gr->series.ref[t] = t * 3;
            gr->series.orig[t] = t < 7 ? t * 3 : t * 3 + 64;
        }
    }
    r->totals.files = FILES;
    r->totals.by_status[RES_MATCH] = r->nresults - 3000;
    r->totals.by_status[RES_MISMATCH] = 3000;
}

Test(html, large_run_is_capped)
{
    run_results r;
    run_meta m;
    large_run(&r);
    rt_meta(&m);
    m.modes = MODE_ALL;
    m.leaf_level = 0;
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL);
    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, "2800 more non-matching results are in report.json."),
              "3000 mismatches, 200 listed");
    cr_assert(strstr(html, "50 more groups are in report.json."), "150 groups, 100 drawn");
    cr_assert_eq(ts_count(html, "<div class=\"card-box group\""), 100);
    cr_assert_eq(ts_count(html, "<svg class=\"plot\""), 100);
    cr_assert_eq(ts_count(html, "<tr id=\"file-"), 1000, "one row per file");
    cr_assert_eq(ts_count(html, "<details class=\"fold\"><summary>975 more rows</summary>"), 1,
                 "the files after the first 25 folded");
    cr_assert(strlen(html) < 4u << 20, "index.html is %zu bytes", strlen(html));
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "50 more groups are in report.json."), "150 groups, 100 in Markdown too");
    cr_assert_eq(ts_count(md, "### \\#"), 100, "the same groups as the page");
    char *xml = rt_render(report_render_junit, j, "junit");
    cr_assert_eq(ts_count(xml, "<testcase "), 4001, "1000 files x 4 modes, run completed");
    cr_assert(strstr(xml, "tests=\"4001\" failures=\"3000\" errors=\"0\" skipped=\"0\""),
              "testsuites counts");
    cr_assert_eq(ts_count(xml, "<testsuite "), 5, "four modes and the run, no leaf level");
    free(xml);
    free(md);
    free(html);
    cJSON_Delete(j);
}

/*
 * A run stopped by SIGTERM, with warnings (one holding markup) and rejected
 * cache entries: every format says it was interrupted and by what, shows the
 * warnings escaped, and report.json validates.
 */
Test(render, interrupted_by_a_signal_with_warnings_in_every_format)
{
    char *dir = ts_tempdir();
    run_results r;
    run_meta m;
    rt_results(&r);
    rt_meta(&m);
    r.interrupted = 1;
    r.interrupt_signal = SIGTERM;
    r.totals.cache_rejected = 3;
    cr_assert_eq(run_warn(&r, "c:\\b\\C0M001.DAT: named %s", "C0M001~2.DAT"), 0);
    cr_assert_eq(run_warn(&r, "%s", "the results cache could not be written <b>disk full</b>"), 0);
    cJSON *j = report_build(&m, &r);
    run_results_free(&r);
    cr_assert(j != NULL);
    cJSON *v;
    int st = rt_validate(dir, j, &v);
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(st, 0, "report.json does not validate: %s", txt);
    free(txt);
    cJSON_Delete(v);
    const cJSON *run = cJSON_GetObjectItem(j, "run");
    cr_assert_str_eq(cJSON_GetObjectItem(run, "interrupted_by")->valuestring, "SIGTERM");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(run, "warnings")), 2);
    cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "totals"), "cache_rejected")->valueint,
                 3);

    char *html = rt_render(report_render_html, j, "html");
    cr_assert(strstr(html, "<strong>Interrupted</strong> by SIGTERM"), "html: no signal in the banner");
    cr_assert(strstr(html, "id=\"warnings\""), "html: no warnings banner");
    cr_assert(strstr(html, "C0M001~2.DAT"));
    cr_assert(strstr(html, "&lt;b&gt;disk full&lt;/b&gt;") && !strstr(html, "<b>disk"),
              "html: a warning is not escaped");
    cr_assert(strstr(html, "cache entries rejected (emulated again): 3"),
              "html: rejected entries not shown");
    char *md = rt_render(report_render_markdown, j, "markdown");
    cr_assert(strstr(md, "> **Interrupted** by SIGTERM"), "markdown: no signal");
    cr_assert_eq(ts_count(md, "> **Warning**: "), 2, "markdown: the two warnings");
    cr_assert(strstr(md, "cache entries rejected (emulated again): 3"), "markdown: rejected");
    char *xml = rt_render(report_render_junit, j, "junit");
    v = check_file(dir, "junit.xml", xml, "junit");
    suite_counts(v, "run", 1, 0, 1, 0);
    /* 12 test cases of the hand-built run, plus "run completed". */
    cr_assert_eq(num(v, "tests"), 13);
    cr_assert_eq(num(v, "errors"), 4);
    const cJSON *rs = suite(v, "run");
    cr_assert(has_string(cJSON_GetObjectItem(rs, "messages"),
                         "the run was interrupted by SIGTERM: 1 comparisons were not run"),
              "junit: no interrupted error");
    cr_assert(strstr(xml, "<system-err>warning: c:\\b\\C0M001.DAT: named C0M001~2.DAT\n"),
              "junit: warnings not in system-err");
    cJSON_Delete(v);
    free(xml);
    free(md);
    free(html);
    cJSON_Delete(j);
    ts_rmtree(dir);
}
