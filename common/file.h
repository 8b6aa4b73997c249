/*
 * common/file.h: reading files the way every stage must: only regular
 * files (a FIFO, a device or a folder refused without blocking), sized
 * before anything is read and refused above a limit, whole or by range.
 *
 * Every failure is an ff_error naming the path (FF_E_IO with errno's text,
 * FF_E_RANGE for a file above its limit). Nothing here prints, exits or
 * keeps state.
 */
#ifndef FF8_COMMON_FILE_H
#define FF8_COMMON_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Flags of the readers. */
#define FILE_NOFOLLOW 1 /* refuse a symbolic link as the last component */

/*
 * Opens path for reading, only when it is a regular file (a FIFO, a device
 * or a folder is refused without blocking, FF_E_IO "not a regular file")
 * whose size is at most max bytes (0: no limit; above it FF_E_RANGE naming
 * the size, before anything is read). Returns the descriptor (caller
 * closes) and *size, or -1 with err.
 */
int file_open_regular(const char *path, int flags, uint64_t max, uint64_t *size, ff_error *err);
/* As file_open_regular, name inside the open folder dirfd; path is used in errors. */
int file_open_regular_at(int dirfd, const char *name, const char *path, int flags, uint64_t max,
                        uint64_t *size, ff_error *err);

/*
 * Reads the whole regular file at path into a new buffer (*data, caller
 * frees; never NULL on success, even for an empty file), with the checks of
 * file_open_regular. On failure *data is left untouched.
 */
int file_read(const char *path, int flags, uint64_t max, uint8_t **data, size_t *size,
                  ff_error *err);
/* As file_read, name inside the open folder dirfd; path is used in errors. */
int file_read_at(int dirfd, const char *name, const char *path, int flags, uint64_t max,
                uint8_t **data, size_t *size, ff_error *err);
/* file_read(path, 0, 0, ...): any regular file, links followed. */
int file_read_all(const char *path, uint8_t **data, size_t *size, ff_error *err);

/*
 * Reads exactly len bytes at off of the open descriptor fd into buf.
 * A short read is FF_E_TRUNCATED; name is used in errors. Safe to call
 * from several threads on the same descriptor (pread).
 */
int file_pread(int fd, const char *name, uint64_t off, void *buf, size_t len, ff_error *err);

#endif
