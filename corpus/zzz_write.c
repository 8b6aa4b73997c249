/*
 * corpus/zzz_write.c: writing zzz archives (zzz.h) for tests, fixtures and
 * the benches, with holes so that a gigabyte archive costs no disk.
 *
 * Must not print or exit; a failed write leaves no file at path (the
 * temporary file is removed).
 */
#include "corpus/zzz.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/le.h"

static int put(int fd, const char *name, uint64_t at, const void *p, size_t n, ff_error *err)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t k = pwrite(fd, b, n, (off_t)at);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0)
            return ff_error_set(err, FF_E_IO, name, (int64_t)at, "cannot write: %s",
                                strerror(errno));
        b += k, at += (uint64_t)k, n -= (size_t)k;
    }
    return 0;
}

/* Size of the table: the count and every record. */
static int table_size(const zzz_input *in, size_t n, uint64_t *size, ff_error *err)
{
    uint64_t t = 4;
    for (size_t i = 0; i < n; i++) {
        size_t len = in[i].name ? strlen(in[i].name) : 0;
        if (len == 0 || len > ZZZ_NAME_MAX)
            return ff_error_set(err, FF_E_USAGE, in[i].name, -1, "zzz entry %zu: bad name or data",
                                i);
        t += 4 + len + 12;
    }
    *size = t;
    return 0;
}

static int write_all(int fd, const char *tmp, const zzz_input *in, size_t n, ff_error *err)
{
    uint64_t at = 0, pos = 0;
    if (n > UINT32_MAX) return ff_error_set(err, FF_E_USAGE, tmp, -1, "too many entries");
    if (table_size(in, n, &pos, err) < 0) return -1;
    uint8_t w[12];
    le_put32(w, (uint32_t)n);
    if (put(fd, tmp, at, w, 4, err) < 0) return -1;
    at += 4;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(in[i].name);
        le_put32(w, (uint32_t)len);
        if (put(fd, tmp, at, w, 4, err) < 0 || put(fd, tmp, at + 4, in[i].name, len, err) < 0)
            return -1;
        at += 4 + len;
        le_put32(w, (uint32_t)pos);
        le_put32(w + 4, (uint32_t)(pos >> 32));
        le_put32(w + 8, in[i].size);
        if (put(fd, tmp, at, w, 12, err) < 0) return -1;
        at += 12;
        if (in[i].size && in[i].data && put(fd, tmp, pos, in[i].data, in[i].size, err) < 0)
            return -1;
        pos += in[i].size;
    }
    if (ftruncate(fd, (off_t)pos) < 0)
        return ff_error_set(err, FF_E_IO, tmp, -1, "cannot size the file: %s", strerror(errno));
    return 0;
}

int zzz_write(const char *path, const zzz_input *in, size_t n, ff_error *err)
{
    size_t k = strlen(path) + 8;
    char *tmp = malloc(k);
    if (!tmp) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    snprintf(tmp, k, "%s.tmp~", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    int rc = fd < 0 ? ff_error_set(err, FF_E_IO, tmp, -1, "cannot create: %s", strerror(errno))
                    : write_all(fd, tmp, in, n, err);
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = ff_error_set(err, FF_E_IO, tmp, -1, "cannot close: %s", strerror(errno));
    if (rc == 0 && rename(tmp, path) < 0)
        rc = ff_error_set(err, FF_E_IO, path, -1, "cannot rename into place: %s", strerror(errno));
    if (rc < 0 && fd >= 0) unlink(tmp);
    free(tmp);
    return rc;
}
