/*
 * corpus/fileio.c: whole-file reads, ranged reads, atomic writes and
 * mkdir -p for the corpus library (POSIX).
 *
 * Must not print, exit or leave a temporary file behind on failure.
 */
#include "corpus/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fio_read_all(const char *path, uint8_t **data, size_t *size, ff_error *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return ff_error_set(err, FF_E_IO, path, -1, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return ff_error_set(err, FF_E_IO, path, -1, "cannot stat: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return ff_error_set(err, FF_E_IO, path, -1, "not a regular file");
    }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX - 1) {
        close(fd);
        return ff_error_set(err, FF_E_RANGE, path, -1, "file too large to load");
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        close(fd);
        return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory for %zu bytes", n);
    }
    if (n && fio_pread(fd, path, 0, buf, n, err) < 0) {
        free(buf);
        close(fd);
        return -1;
    }
    close(fd);
    *data = buf;
    *size = n;
    return 0;
}

int fio_pread(int fd, const char *name, uint64_t off, void *buf, size_t len, ff_error *err)
{
    uint8_t *p = buf;
    size_t done = 0;
    while (done < len) {
        ssize_t k = pread(fd, p + done, len - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0)
            return ff_error_set(err, FF_E_IO, name, (int64_t)(off + done), "read failed: %s",
                                strerror(errno));
        if (k == 0)
            return ff_error_set(err, FF_E_TRUNCATED, name, (int64_t)(off + done),
                                "file ends %zu bytes short of a %zu-byte read", len - done, len);
        done += (size_t)k;
    }
    return 0;
}

static int write_fd(int fd, const char *name, const uint8_t *data, size_t size, ff_error *err)
{
    size_t done = 0;
    while (done < size) {
        ssize_t k = write(fd, data + done, size - done);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0)
            return ff_error_set(err, FF_E_IO, name, (int64_t)done, "write failed: %s",
                                strerror(errno));
        done += (size_t)k;
    }
    return 0;
}

int fio_write_atomic(const char *path, const uint8_t *data, size_t size, ff_error *err)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory for a file name");
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        ff_error_set(err, FF_E_IO, tmp, -1, "cannot create: %s", strerror(errno));
        free(tmp);
        return -1;
    }
    if (write_fd(fd, tmp, data, size, err) < 0) goto fail;
    if (close(fd) < 0) {
        fd = -1;
        ff_error_set(err, FF_E_IO, tmp, -1, "close failed: %s", strerror(errno));
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) < 0) {
        ff_error_set(err, FF_E_IO, path, -1, "cannot rename %s into place: %s", tmp,
                     strerror(errno));
        goto fail;
    }
    free(tmp);
    return 0;
fail:
    if (fd >= 0) close(fd);
    unlink(tmp);
    free(tmp);
    return -1;
}

int fio_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int fio_mkdirs(const char *path, ff_error *err)
{
    size_t n = strlen(path);
    if (n == 0) return ff_error_set(err, FF_E_USAGE, NULL, -1, "empty folder name");
    char *p = malloc(n + 1);
    if (!p) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory for a folder name");
    memcpy(p, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != '\0') continue;
        char keep = p[i];
        p[i] = '\0';
        if (mkdir(p, 0755) < 0 && errno != EEXIST) {
            ff_error_set(err, FF_E_IO, p, -1, "cannot create folder: %s", strerror(errno));
            free(p);
            return -1;
        }
        p[i] = keep;
    }
    free(p);
    if (!fio_is_dir(path))
        return ff_error_set(err, FF_E_IO, path, -1, "exists and is not a folder");
    return 0;
}

char *fio_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    int slash = a > 0 && dir[a - 1] != '/';
    char *s = malloc(a + (size_t)slash + b + 1);
    if (!s) return NULL;
    memcpy(s, dir, a);
    if (slash) s[a] = '/';
    memcpy(s + a + (size_t)slash, name, b + 1);
    return s;
}
