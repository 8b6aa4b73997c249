/*
 * common/file.c: whole-file reads of regular files with a size limit, and
 * ranged reads (POSIX).
 *
 * Must not print, exit, block on a FIFO or read a file it has not sized.
 */
#include "common/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bulk.h"

static int mib_text(uint64_t max, char *buf, size_t n)
{
    if (max % (1u << 20) == 0) return snprintf(buf, n, "%llu MiB", (unsigned long long)(max >> 20));
    return snprintf(buf, n, "%llu bytes", (unsigned long long)max);
}

int file_open_regular(const char *path, int flags, uint64_t max, uint64_t *size, ff_error *err)
{
    return file_open_regular_at(AT_FDCWD, path, path, flags, max, size, err);
}

int file_open_regular_at(int dirfd, const char *name, const char *path, int flags, uint64_t max,
                        uint64_t *size, ff_error *err)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
    int oflags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    if (flags & FILE_NOFOLLOW) oflags |= O_NOFOLLOW;
    int fd = openat(dirfd, name, oflags);
    if (fd < 0) {
        if (errno == ELOOP && (flags & FILE_NOFOLLOW))
            return ff_error_set(err, FF_E_IO, path, -1, "is a symbolic link: refused");
        return ff_error_set(err, FF_E_IO, path, -1, "cannot open: %s", strerror(errno));
    }
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
    uint64_t n = (uint64_t)st.st_size;
    if ((max && n > max) || n > (uint64_t)SIZE_MAX - 1) {
        char lim[48];
        mib_text(max ? max : (uint64_t)SIZE_MAX - 1, lim, sizeof lim);
        close(fd);
        return ff_error_set(err, FF_E_RANGE, path, -1,
                            "file of %llu bytes, above the limit of %s: not read",
                            (unsigned long long)n, lim);
    }
    /* Reads of a regular file never block: back to plain reads. */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    *size = n;
    return fd;
}

int file_read(const char *path, int flags, uint64_t max, uint8_t **data, size_t *size,
                  ff_error *err)
{
    return file_read_at(AT_FDCWD, path, path, flags, max, data, size, err);
}

int file_read_at(int dirfd, const char *name, const char *path, int flags, uint64_t max,
                uint8_t **data, size_t *size, ff_error *err)
{
    uint64_t n64 = 0;
    int fd = file_open_regular_at(dirfd, name, path, flags, max, &n64, err);
    if (fd < 0) return -1;
    size_t n = (size_t)n64;
    uint8_t *buf = bulk_alloc(n);
    if (!buf) {
        close(fd);
        return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory for %zu bytes", n);
    }
    if (n && file_pread(fd, path, 0, buf, n, err) < 0) {
        free(buf);
        close(fd);
        return -1;
    }
    close(fd);
    *data = buf;
    *size = n;
    return 0;
}

int file_read_all(const char *path, uint8_t **data, size_t *size, ff_error *err)
{
    return file_read(path, 0, 0, data, size, err);
}

int file_pread(int fd, const char *name, uint64_t off, void *buf, size_t len, ff_error *err)
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
