/*
 * bench/report/bench_report.c: what rendering a report costs. Reads one
 * report.json (e.g. a run over the vanilla preset's corpus), then renders
 * index.html and summary.md from it N times each (report_render_html,
 * report_render_markdown, each building its document) and both from one
 * document as report_write does (report_render_pages: "both"), and prints
 * the median, minimum and maximum milliseconds of each and the output sizes.
 *
 * usage: bench_report REPORT.json [--repeat N] [--out DIR]   (N defaults to 20)
 * --out DIR: the last renderings written there as index.html and summary.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/file.h"
#include "corpus/fileio.h"
#include "harness/report/report.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Renders n times; prints median/min/max ms and the size of the last rendering. */
static int time_render(const char *name, int (*fn)(const cJSON *, strbuf *), const cJSON *report,
                       int n, const char *out)
{
    double *ms = calloc((size_t)n, sizeof *ms);
    strbuf b;
    sb_init(&b);
    if (!ms) return -1;
    for (int i = 0; i < n; i++) {
        sb_reset(&b);
        double t0 = now_ms();
        if (fn(report, &b) < 0) {
            fprintf(stderr, "bench_report: %s failed\n", name);
            free(ms);
            sb_free(&b);
            return -1;
        }
        ms[i] = now_ms() - t0;
    }
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    printf("%-11s median %8.2f ms  min %8.2f  max %8.2f  (%d renders, %zu bytes)\n", name,
           ms[n / 2], ms[0], ms[n - 1], n, b.len);
    char path[4200];
    ff_error err = {0};
    if (out && snprintf(path, sizeof path, "%s/%s", out, name) < (int)sizeof path &&
        fio_write_atomic(path, (const uint8_t *)(b.s ? b.s : ""), b.len, &err) < 0)
        fprintf(stderr, "bench_report: %s: %s\n", path, err.reason);
    free(ms);
    sb_free(&b);
    return 0;
}

/* Both pages from one document, as report_write renders them. */
static int both(const cJSON *report, strbuf *out)
{
    strbuf md;
    sb_init(&md);
    int rc = report_render_pages(report, out, &md);
    sb_add(out, md.s ? md.s : "", md.len);
    sb_free(&md);
    return rc;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    int repeat = 20;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path || repeat < 1) {
        fprintf(stderr, "usage: bench_report REPORT.json [--repeat N] [--out DIR]\n");
        return 2;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    ff_error err = {0};
    if (file_read_all(path, &data, &len, &err) < 0) {
        fprintf(stderr, "bench_report: %s: %s\n", path, err.reason);
        return 1;
    }
    cJSON *report = cJSON_ParseWithLength((const char *)data, len);
    free(data);
    if (!report) {
        fprintf(stderr, "bench_report: %s: not JSON\n", path);
        return 1;
    }
    printf("%s: %d results\n", path, cJSON_GetArraySize(cJSON_GetObjectItem(report, "results")));
    int rc = time_render("both", both, report, repeat, NULL) < 0 || time_render("index.html", report_render_html, report, repeat, out) < 0 ||
             time_render("summary.md", report_render_markdown, report, repeat, out) < 0;
    cJSON_Delete(report);
    return rc ? 1 : 0;
}
