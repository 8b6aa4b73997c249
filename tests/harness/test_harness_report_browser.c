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

static const char *chromium(void)
{
    const char *c = getenv("FF8DIFF_CHROMIUM");
    return c && *c ? c : "chromium";
}

static void need_chromium(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", chromium());
    cr_assert_eq(rt_run(cmd, NULL), 0,
                 "Chromium not found (%s): install Debian's chromium package or set "
                 "FF8DIFF_CHROMIUM to a Chromium binary",
                 chromium());
}

/* Runs Chromium headless on dir/run/index.html with extra flags; returns the exit status. */
static int run_chromium(const char *dir, const char *html, const char *flags, const char *out,
                        const char *log)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "timeout 120 %s --headless --no-sandbox --disable-gpu --disable-software-rasterizer "
             "--no-first-run --disable-background-networking --disable-component-update "
             "--disable-sync --user-data-dir=%s/profile %s file://%s > %s/%s 2> %s/%s",
             chromium(), dir, flags, html, dir, out, dir, log);
    return rt_run(cmd, NULL);
}

/* Writes the hand-built report folder into dir; returns index.html's path. */
static char *write_report(const char *dir)
{
    cJSON *j = rt_report();
    char *out = NULL, msg[1024];
    ff_error err;
    ff_error_clear(&err);
    cr_assert_eq(report_write(j, dir, "run", &out, &err), 0, "report_write: %s",
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

Test(browser, chromium_builds_the_expected_dom, .timeout = 300)
{
    need_chromium();
    char *dir = ts_tempdir(), *html = write_report(dir);
    int st = run_chromium(dir, html, "--dump-dom", "dom.html", "chromium-dom.log");
    char *logp = ts_path(dir, "chromium-dom.log"), *log = ts_read(logp, NULL);
    cr_assert_eq(st, 0, "chromium --dump-dom exited %d: %.2000s", st, log ? log : "");
    char *domp = ts_path(dir, "dom.html"), *dom = ts_read(domp, NULL), args[4200];
    cr_assert(dom && strstr(dom, "<html"), "no DOM dumped; log: %.2000s", log ? log : "");
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
    free(dom);
    free(domp);
    free(log);
    free(logp);
    free(html);
    ts_rmtree(dir);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

Test(browser, chromium_takes_a_screenshot, .timeout = 300)
{
    need_chromium();
    char *dir = ts_tempdir(), *html = write_report(dir), flags[4300];
    char *shot = ts_path(dir, "shot.png");
    snprintf(flags, sizeof flags, "--hide-scrollbars --window-size=1280,2000 --screenshot=%s",
             shot);
    int st = run_chromium(dir, html, flags, "shot.out", "chromium-shot.log");
    char *logp = ts_path(dir, "chromium-shot.log"), *log = ts_read(logp, NULL);
    cr_assert_eq(st, 0, "chromium --screenshot exited %d: %.2000s", st, log ? log : "");
    size_t n = 0;
    unsigned char *png = (unsigned char *)ts_read(shot, &n);
    cr_assert(png != NULL, "no screenshot written; log: %.2000s", log ? log : "");
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
    free(log);
    free(logp);
    free(shot);
    free(html);
    ts_rmtree(dir);
}
