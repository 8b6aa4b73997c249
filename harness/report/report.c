/*
 * harness/report/report.c: a report folder written whole: every file into
 * <dir>/.<id>.tmp, then one rename to <dir>/<id>.
 */
#include "harness/report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "corpus/fileio.h"

void report_make_run_id(char *buf, size_t n)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    unsigned tag = ((unsigned)getpid() * 2654435761u) ^ (unsigned)ts.tv_nsec;
    snprintf(buf, n, "%04d%02d%02d-%02d%02d%02d-%04x", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tag & 0xFFFF);
}

void report_now_iso(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_part(const char *dir, const char *name, const strbuf *b, ff_error *err)
{
    if (strbuf_failed(b)) return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
    char path[4200];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return ff_error_set(err, FF_E_IO, dir, -1, "path too long");
    return fio_write_atomic(path, (const uint8_t *)(b->s ? b->s : ""), b->len, err);
}

static void remove_tree(const char *dir)
{
    static const char *const parts[] = {"report.json", "index.html", "summary.md", "junit.xml"};
    char path[4200];
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (snprintf(path, sizeof path, "%s/%s", dir, parts[i]) < (int)sizeof path) remove(path);
    rmdir(dir);
}

int report_write(const cJSON *report, const char *reports_dir, const char *run_id,
                 char **dir_out, ff_error *err)
{
    char tmp[4096], final[4096];
    if (snprintf(tmp, sizeof tmp, "%s/.%s.tmp", reports_dir, run_id) >= (int)sizeof tmp ||
        snprintf(final, sizeof final, "%s/%s", reports_dir, run_id) >= (int)sizeof final)
        return ff_error_set(err, FF_E_IO, reports_dir, -1, "path too long");
    if (fio_mkdirs(tmp, err) < 0) return -1;
    strbuf b;
    sb_init(&b);
    int rc = 0;
    char *json = cJSON_PrintUnformatted(report);
    if (!json) rc = ff_error_set(err, FF_E_NOMEM, "report.json", -1, "out of memory");
    if (rc == 0) {
        sb_puts(&b, json);
        sb_putc(&b, '\n');
        rc = write_part(tmp, "report.json", &b, err);
    }
    cJSON_free(json);
    struct {
        const char *name;
        int (*render)(const cJSON *, strbuf *);
    } parts[] = {{"index.html", report_render_html},
                 {"summary.md", report_render_markdown},
                 {"junit.xml", report_render_junit}};
    for (size_t i = 0; rc == 0 && i < sizeof parts / sizeof parts[0]; i++) {
        sb_reset(&b);
        if (parts[i].render(report, &b) < 0)
            rc = ff_error_set(err, FF_E_INTERNAL, parts[i].name, -1, "cannot render");
        else
            rc = write_part(tmp, parts[i].name, &b, err);
    }
    sb_free(&b);
    if (rc == 0 && rename(tmp, final) != 0)
        rc = ff_error_set(err, FF_E_IO, final, -1, "cannot move the report into place: %s",
                          strerror(errno));
    if (rc < 0) {
        remove_tree(tmp);
        return -1;
    }
    if (dir_out && !(*dir_out = strdup(final)))
        return ff_error_set(err, FF_E_NOMEM, final, -1, "out of memory");
    return 0;
}
