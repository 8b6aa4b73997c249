/*
 * corpus/fileio.h: the few file-system operations the corpus library
 * needs: read a whole file, read a range of an open file, write a file
 * through a temporary name and a rename, create a folder with its parents.
 *
 * Every failure is an ff_error naming the path (FF_E_IO with errno's text).
 * Nothing here prints, exits or keeps state.
 */
#ifndef FF8_CORPUS_FILEIO_H
#define FF8_CORPUS_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/*
 * Reads the whole regular file at path into a new buffer (*data, caller
 * frees; never NULL on success, even for an empty file). On failure *data
 * is left untouched.
 */
int fio_read_all(const char *path, uint8_t **data, size_t *size, ff_error *err);

/*
 * Reads exactly len bytes at off of the open descriptor fd into buf.
 * A short read is FF_E_TRUNCATED; name is used in errors. Safe to call
 * from several threads on the same descriptor (pread).
 */
int fio_pread(int fd, const char *name, uint64_t off, void *buf, size_t len, ff_error *err);

/*
 * Writes data to path atomically: to "path.tmp.<pid>" first, then renamed
 * over path. On failure the temporary file is removed and path untouched.
 */
int fio_write_atomic(const char *path, const uint8_t *data, size_t size, ff_error *err);

/* Creates path and its missing parents (mkdir -p); an existing folder is fine. */
int fio_mkdirs(const char *path, ff_error *err);

/* 1 when path names a folder, 0 otherwise (missing included). */
int fio_is_dir(const char *path);

/* Joins dir and name with one '/' into a new string (NULL when out of memory). */
char *fio_join(const char *dir, const char *name);

#endif
