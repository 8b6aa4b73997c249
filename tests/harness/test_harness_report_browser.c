/*
 * tests/harness/test_harness_report_browser.c: index.html opened in headless
 * Chromium. The DOM Chromium builds must hold the summary, the three groups
 * of the hand-built run, two plots of two polylines each, the hostile file
 * name as text and no script; a screenshot must come out as a real PNG.
 *
 * Chromium is required: when it is missing the test fails, it never skips.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report.h"
#include "tests/harness/rt.h"

/* Writes the hand-built report folder into dir; returns index.html's path. */
static char *write_report(const char *dir)
{
    cJSON *j = rt_report();
    char *out = NULL, msg[1024];
    ff_error err;
    ff_error_clear(&err);
    cr_assert_eq(report_write(j, dir, "run", 1, &out, &err), 0, "report_write: %s",
                 ff_error_format(&err, msg, sizeof msg));
    cJSON_Delete(j);
    char *html = ts_path(out, "index.html");
    free(out);
    return html;
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

/* The DOM Chromium built (o->out) against the hand-built run's report. */
static void check_dom(const char *dir, const ts_out *o)
{
    cr_assert(strstr(o->out, "<html"), "no DOM dumped; log: %.2000s", o->err);
    char *domp = ts_path(dir, "dom.html"), args[4200];
    ts_write(domp, o->out, strlen(o->out));
    snprintf(args, sizeof args, "dom %s", domp);
    int cst;
    cJSON *v = rt_check(args, &cst);
    char *txt = cJSON_PrintUnformatted(v);
    cr_assert_eq(cst, 0, "DOM check: %s", txt);
    cJSON *ids = cJSON_GetObjectItem(v, "ids");
    cr_assert(has_string(ids, "summary") && has_string(ids, "groups") && has_string(ids, "files"),
              "missing #summary, #groups or #files: %s", txt);
    cr_assert_eq(cJSON_GetObjectItem(v, "groups")->valueint, 3, ".group elements: %s", txt);
    cr_assert_eq(cJSON_GetObjectItem(v, "scripts")->valueint, 0, "a <script> in the DOM: %s", txt);
    cJSON *plots = cJSON_GetObjectItem(v, "plots");
    cr_assert_eq(cJSON_GetArraySize(plots), 2, "svg.plot elements: %s", txt);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(cJSON_GetArrayItem(plots, i)->valueint, 2, "plot %d polylines: %s", i, txt);
    cr_assert(has_string(cJSON_GetObjectItem(v, "names"), RT_HOSTILE),
              "the hostile name is not text in the DOM: %s", txt);
    free(txt);
    cJSON_Delete(v);
    free(domp);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The screenshot at shot: a real PNG of the window's size, not a blank page. */
static void check_shot(const char *shot, const char *log)
{
    size_t n = 0;
    unsigned char *png = (unsigned char *)ts_read(shot, &n);
    cr_assert(png != NULL, "no screenshot written; log: %.2000s", log);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    cr_assert(n > 24 && memcmp(png, sig, 8) == 0 && memcmp(png + 12, "IHDR", 4) == 0,
              "shot.png is not a PNG (%zu bytes)", n);
    cr_assert_eq(be32(png + 16), 1280, "width %u", be32(png + 16));
    cr_assert_eq(be32(png + 20), 2000, "height %u", be32(png + 20));
    cr_assert(n > 20000, "shot.png is only %zu bytes: a blank page?", n);
    /* keep a copy for a person to look at, when asked */
    const char *keep = getenv("FF8DIFF_KEEP_SCREENSHOT");
    if (keep && *keep) {
        char cmd[8700];
        snprintf(cmd, sizeof cmd, "cp %s %s", shot, keep);
        rt_run(cmd, NULL);
    }
    free(png);
}

/* One Chromium start gives both the DOM and the screenshot (each start costs seconds). */
Test(browser, chromium_lays_out_the_report, .timeout = 300)
{
    char *dir = ts_tempdir(), *html = write_report(dir), flags[4300];
    char *shot = ts_path(dir, "shot.png");
    snprintf(flags, sizeof flags,
             "--dump-dom --hide-scrollbars --window-size=1280,2000 --screenshot='%s'", shot);
    ts_out o;
    ts_chromium_run(dir, &o, html, flags);
    cr_assert_eq(o.status, 0, "chromium --dump-dom --screenshot exited %d: %.2000s", o.status,
                 o.err);
    check_dom(dir, &o);
    check_shot(shot, o.err);
    ts_out_free(&o);
    free(shot);
    free(html);
    ts_rmtree(dir);
}
