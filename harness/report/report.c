/*
 * harness/report/report.c: a report folder written whole: every file into a
 * new <dir>/.<id>.tmp, then one rename to <dir>/<id>; before a run, the
 * reports folder checked for writing and the .<id>.tmp folders of runs that
 * died writing removed. Writers hold <dir>/.ff8diff-reports.lock shared, the
 * cleaner exclusively (and only when no one writes), so a live report is
 * never removed.
 *
 * Must not follow a link it did not create, print or exit.
 */
#include "harness/report/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "corpus/fileio.h"

/* Held shared while a report folder is being written, exclusively to clean dead ones. */
#define REPORT_LOCK ".ff8diff-reports.lock"

static int open_lock(const char *reports_dir)
{
    char path[4200];
    if (snprintf(path, sizeof path, "%s/%s", reports_dir, REPORT_LOCK) >= (int)sizeof path)
        return -1;
    return open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
}

static int write_part(int dirfd, const char *dir, const char *name, const strbuf *b,
                      ff_error *err)
{
    if (strbuf_failed(b)) return ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
    return fio_write_at(dirfd, dir, name, (const uint8_t *)(b->s ? b->s : ""), b->len, 1, err);
}

/* Removes the regular files of a temporary report folder, then the folder; never follows a link. */
static void remove_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
    rmdir(dir);
}

/* report.json into the folder open as dirfd: on a thread of its own beside the renderers. */
typedef struct json_part {
    const cJSON *report;
    int dirfd;
    const char *tmp;
    int rc;
    ff_error err;
} json_part;

static void *write_json(void *arg)
{
    json_part *p = arg;
    strbuf b;
    sb_init(&b);
    p->rc = 0;
    char *json = cJSON_PrintUnformatted(p->report);
    if (!json) p->rc = ff_error_set(&p->err, FF_E_NOMEM, "report.json", -1, "out of memory");
    if (p->rc == 0) {
        sb_puts(&b, json);
        sb_putc(&b, '\n');
        p->rc = write_part(p->dirfd, p->tmp, "report.json", &b, &p->err);
    }
    cJSON_free(json);
    sb_free(&b);
    return NULL;
}

/*
 * The renderers (index.html and summary.md from one document, then
 * junit.xml), each into the folder open as dirfd; with threads above 1,
 * report.json (the largest) is printed on a second thread meanwhile.
 */
static int write_parts(const cJSON *report, int dirfd, const char *tmp, unsigned threads,
                       ff_error *err)
{
    json_part jp = {.report = report, .dirfd = dirfd, .tmp = tmp};
    pthread_t th;
    int apart = threads > 1 && pthread_create(&th, NULL, write_json, &jp) == 0;
    if (!apart) write_json(&jp);
    strbuf html, md;
    sb_init(&html);
    sb_init(&md);
    int rc = 0, go = apart || jp.rc == 0;
    /* One document for both pages, then junit.xml on its own. */
    if (go && report_render_pages(report, &html, &md) < 0)
        rc = ff_error_set(err, FF_E_INTERNAL, "index.html", -1, "cannot render");
    if (go && rc == 0) rc = write_part(dirfd, tmp, "index.html", &html, err);
    if (go && rc == 0) rc = write_part(dirfd, tmp, "summary.md", &md, err);
    sb_free(&html);
    sb_free(&md);
    strbuf b;
    sb_init(&b);
    if (go && rc == 0) {
        if (report_render_junit(report, &b) < 0)
            rc = ff_error_set(err, FF_E_INTERNAL, "junit.xml", -1, "cannot render");
        else
            rc = write_part(dirfd, tmp, "junit.xml", &b, err);
    }
    sb_free(&b);
    if (apart) pthread_join(th, NULL);
    /* report.json's trouble first, as when it was written before the others. */
    if (jp.rc < 0) {
        *err = jp.err;
        return -1;
    }
    return rc;
}

int report_write(const cJSON *report, const char *reports_dir, const char *run_id, unsigned threads,
                 char **dir_out, ff_error *err)
{
    char tmp[4096], final[4096];
    if (snprintf(tmp, sizeof tmp, "%s/.%s.tmp", reports_dir, run_id) >= (int)sizeof tmp ||
        snprintf(final, sizeof final, "%s/%s", reports_dir, run_id) >= (int)sizeof final)
        return ff_error_set(err, FF_E_IO, reports_dir, -1, "path too long");
    if (fio_mkdirs(reports_dir, err) < 0) return -1;
    /* Shared: other runs may write too; a cleaner waits for none of them. */
    int lock = open_lock(reports_dir);
    if (lock >= 0) flock(lock, LOCK_SH);
    int rc = fio_mkdir_new(tmp, err);
    int dirfd = rc == 0 ? open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (rc == 0 && dirfd < 0)
        rc = ff_error_set(err, FF_E_IO, tmp, -1, "cannot open: %s", strerror(errno));
    if (rc == 0) rc = write_parts(report, dirfd, tmp, threads, err);
    if (dirfd >= 0) close(dirfd);
    if (rc == 0 && rename(tmp, final) != 0)
        rc = ff_error_set(err, FF_E_IO, final, -1, "cannot move the report into place: %s",
                          strerror(errno));
    if (rc < 0) remove_tree(tmp);
    if (lock >= 0) close(lock);
    if (rc < 0) return -1;
    if (dir_out && !(*dir_out = strdup(final)))
        return ff_error_set(err, FF_E_NOMEM, final, -1, "out of memory");
    return 0;
}

/* ".<run-id>.tmp": a run folder being written, or left by a run that died. */
static int is_temp_folder(const char *name)
{
    size_t n = strlen(name);
    return name[0] == '.' && n > 5 && strcmp(name + n - 4, ".tmp") == 0;
}

/* With the lock held exclusively no report is being written: every temporary folder is dead. */
static unsigned clean_dead(const char *reports_dir)
{
    DIR *d = opendir(reports_dir);
    if (!d) return 0;
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (!is_temp_folder(e->d_name) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
            continue;
        char path[4200];
        if (snprintf(path, sizeof path, "%s/%s", reports_dir, e->d_name) >= (int)sizeof path)
            continue;
        remove_tree(path);
        n += fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0;
    }
    closedir(d);
    return n;
}

int report_dir_prepare(const char *reports_dir, unsigned *cleaned, ff_error *err)
{
    if (cleaned) *cleaned = 0;
    if (fio_mkdirs(reports_dir, err) < 0) return -1;
    int dirfd = open(reports_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0)
        return ff_error_set(err, FF_E_IO, reports_dir, -1, "cannot open: %s", strerror(errno));
    char probe[64];
    snprintf(probe, sizeof probe, ".probe-%ld", (long)getpid());
    int rc = fio_write_at(dirfd, reports_dir, probe, (const uint8_t *)"", 0, 1, err);
    if (rc == 0) unlinkat(dirfd, probe, 0);
    close(dirfd);
    if (rc < 0) {
        ff_error_prefix(err, "the reports folder cannot be written");
        return -1;
    }
    int lock = open_lock(reports_dir);
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0) {
        unsigned n = clean_dead(reports_dir);
        if (cleaned) *cleaned = n;
    }
    if (lock >= 0) close(lock);
    return 0;
}
