/*
 * corpus/fileio.h: the file-system writes the corpus library needs: write
 * a file through a new temporary name and a rename (or a link, to never
 * replace), create a folder with its parents or a new one. Reading a whole
 * file or a range of one is common/file.h's; joining paths common/path.h's.
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

#endif
