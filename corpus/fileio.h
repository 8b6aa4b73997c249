/*
 * corpus/fileio.h: the few file-system operations the corpus library
 * needs: read a whole regular file (with a size limit), read a range of an
 * open file, write a file through a new temporary name and a rename (or a
 * link, to never replace), create a folder with its parents or a new one.
 *
 * Every failure is an ff_error naming the path (FF_E_IO with errno's text).
 * Nothing here prints, exits or keeps state.
 */
#ifndef FF8_CORPUS_FILEIO_H
#define FF8_CORPUS_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Flags of the readers. */
#define FIO_NOFOLLOW 1 /* refuse a symbolic link as the last component */

/*
 * Opens path for reading, only when it is a regular file (a FIFO, a device
 * or a folder is refused without blocking, FF_E_IO "not a regular file")
 * whose size is at most max bytes (0: no limit; above it FF_E_RANGE naming
 * the size, before anything is read). Returns the descriptor (caller
 * closes) and *size, or -1 with err.
 */
int fio_open_regular(const char *path, int flags, uint64_t max, uint64_t *size, ff_error *err);
/* As fio_open_regular, name inside the open folder dirfd; path is used in errors. */
int fio_open_regular_at(int dirfd, const char *name, const char *path, int flags, uint64_t max,
                        uint64_t *size, ff_error *err);

/*
 * Reads the whole regular file at path into a new buffer (*data, caller
 * frees; never NULL on success, even for an empty file), with the checks of
 * fio_open_regular. On failure *data is left untouched.
 */
int fio_read_file(const char *path, int flags, uint64_t max, uint8_t **data, size_t *size,
                  ff_error *err);
/* As fio_read_file, name inside the open folder dirfd; path is used in errors. */
int fio_read_at(int dirfd, const char *name, const char *path, int flags, uint64_t max,
                uint8_t **data, size_t *size, ff_error *err);
/* fio_read_file(path, 0, 0, ...): any regular file, links followed. */
int fio_read_all(const char *path, uint8_t **data, size_t *size, ff_error *err);

/*
 * Reads exactly len bytes at off of the open descriptor fd into buf.
 * A short read is FF_E_TRUNCATED; name is used in errors. Safe to call
 * from several threads on the same descriptor (pread).
 */
int fio_pread(int fd, const char *name, uint64_t off, void *buf, size_t len, ff_error *err);

/*
 * Writes data to path atomically: into a new temporary file in path's
 * folder (".NAME.<random>.tmp", created with O_CREAT|O_EXCL|O_NOFOLLOW, so
 * nothing planted there is ever followed), then renamed over path. A
 * symbolic link at path is replaced, never followed. On failure the
 * temporary file is removed and path untouched.
 */
int fio_write_atomic(const char *path, const uint8_t *data, size_t size, ff_error *err);
/*
 * As fio_write_atomic, but path must not exist (a link, even dangling,
 * counts): the complete temporary file is linked to path, which fails with
 * FF_E_IO "already exists" instead of replacing anything.
 */
int fio_write_new(const char *path, const uint8_t *data, size_t size, ff_error *err);
/*
 * As fio_write_atomic, name inside the open folder dirfd (dir_name is
 * used in errors). replace 0 gives fio_write_new's behaviour.
 */
int fio_write_at(int dirfd, const char *dir_name, const char *name, const uint8_t *data,
                 size_t size, int replace, ff_error *err);

/*
 * Creates the folder path, which must not exist yet (a link there counts as
 * existing: FF_E_IO), so that what is written inside is the caller's alone.
 * Its parent must exist.
 */
int fio_mkdir_new(const char *path, ff_error *err);

/* Creates path and its missing parents (mkdir -p); an existing folder is fine. */
int fio_mkdirs(const char *path, ff_error *err);

/* 1 when path names a folder, 0 otherwise (missing included). */
int fio_is_dir(const char *path);

/* Joins dir and name with one '/' into a new string (NULL when out of memory). */
char *fio_join(const char *dir, const char *name);

#endif
