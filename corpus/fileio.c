/*
 * corpus/fileio.c: writes through new temporary files and a rename (or a
 * link, to never replace), and mkdir -p for the corpus library (POSIX).
 * Reading is common/file.c's.
 *
 * Must not print, exit, follow a link it did not create when writing, or
 * leave a temporary file behind on failure.
 */
#include "corpus/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* Unpredictable bits for temporary names (O_EXCL keeps them safe anyway). */
static uint64_t name_bits(void)
{
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v) return v;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
}

/* Creates ".NAME.<16 hex>.tmp" in dirfd exclusively, never through a link; returns its fd. */
static int create_temp(int dirfd, const char *shown, const char *name, char *tmp, size_t n,
                       ff_error *err)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        snprintf(tmp, n, ".%.180s.%016llx.tmp", name, (unsigned long long)name_bits());
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) return fd;
        if (errno != EEXIST)
            return ff_error_set(err, FF_E_IO, shown, -1, "cannot create a temporary file: %s",
                                strerror(errno));
    }
    return ff_error_set(err, FF_E_IO, shown, -1, "no free temporary name");
}

/* The temporary file, complete, becomes name: renamed over it, or linked when nothing is there. */
static int put_in_place(int dirfd, const char *tmp, const char *shown, const char *name,
                        int replace, ff_error *err)
{
    if (replace ? renameat(dirfd, tmp, dirfd, name) == 0 : linkat(dirfd, tmp, dirfd, name, 0) == 0)
        return 0;
    if (!replace && errno == EEXIST)
        return ff_error_set(err, FF_E_IO, shown, -1, "already exists: not replaced");
    return ff_error_set(err, FF_E_IO, shown, -1, "cannot move the new file into place: %s",
                        strerror(errno));
}

static int write_in(int dirfd, const char *shown, const char *name, const uint8_t *data,
                    size_t size, int replace, ff_error *err)
{
    char tmp[256];
    int fd = create_temp(dirfd, shown, name, tmp, sizeof tmp, err);
    if (fd < 0) return -1;
    int rc = write_fd(fd, shown, data, size, err);
    if (close(fd) < 0 && rc == 0)
        rc = ff_error_set(err, FF_E_IO, shown, -1, "close failed: %s", strerror(errno));
    if (rc == 0) rc = put_in_place(dirfd, tmp, shown, name, replace, err);
    /* After a rename the temporary name is gone; after a link or a failure it is removed. */
    if (rc < 0 || !replace) unlinkat(dirfd, tmp, 0);
    return rc;
}

int fio_write_at(int dirfd, const char *dir_name, const char *name, const uint8_t *data,
                 size_t size, int replace, ff_error *err)
{
    char shown[FF_ERR_FILE_MAX];
    snprintf(shown, sizeof shown, "%s/%s", dir_name, name);
    return write_in(dirfd, shown, name, data, size, replace, err);
}

/* Opens path's folder (links in the folder's own path are the caller's) and splits off NAME. */
static int open_parent(const char *path, const char **name, ff_error *err)
{
    const char *slash = strrchr(path, '/');
    *name = slash ? slash + 1 : path;
    if (!**name || !strcmp(*name, ".") || !strcmp(*name, ".."))
        return ff_error_set(err, FF_E_USAGE, path, -1, "names a folder, not a file");
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory for a folder name");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) ff_error_set(err, FF_E_IO, dir, -1, "cannot open folder: %s", strerror(errno));
    free(dir);
    return fd;
}

static int write_path(const char *path, const uint8_t *data, size_t size, int replace,
                      ff_error *err)
{
    const char *name;
    int dfd = open_parent(path, &name, err);
    if (dfd < 0) return -1;
    int rc = write_in(dfd, path, name, data, size, replace, err);
    close(dfd);
    return rc;
}

int fio_write_atomic(const char *path, const uint8_t *data, size_t size, ff_error *err)
{
    return write_path(path, data, size, 1, err);
}

int fio_write_new(const char *path, const uint8_t *data, size_t size, ff_error *err)
{
    return write_path(path, data, size, 0, err);
}

int fio_mkdir_new(const char *path, ff_error *err)
{
    if (mkdir(path, 0755) == 0) return 0;
    if (errno == EEXIST)
        return ff_error_set(err, FF_E_IO, path, -1, "already exists: a new folder was expected");
    return ff_error_set(err, FF_E_IO, path, -1, "cannot create folder: %s", strerror(errno));
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
