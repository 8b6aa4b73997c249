/*
 * common/path.h: building file paths into fixed buffers with truncation
 * reported as an error (FF_E_RANGE naming the start of the path), never
 * silently cut; and into new strings.
 * Nothing here touches the file system, prints or exits.
 */
#ifndef FF8_COMMON_PATH_H
#define FF8_COMMON_PATH_H

#include <stddef.h>

#include "common/error.h"

/*
 * Writes dir and name joined by one '/' (none added when dir is empty or
 * already ends with one) into out (n bytes). Returns 0, or -1 with err
 * (FF_E_RANGE) when it does not fit: out then holds "" .
 */
int path_join(char *out, size_t n, const char *dir, const char *name, ff_error *err);

/*
 * Formats a path into out (n bytes) as snprintf does. Returns 0, or -1 with
 * err (FF_E_RANGE) when it does not fit: out then holds "".
 */
int path_format(char *out, size_t n, ff_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* dir and name joined as path_join does, into a new string (NULL when out of memory). */
char *path_join_new(const char *dir, const char *name);

/*
 * The base name of a path or an archive entry's name: what follows the last
 * '/' or '\\' (both separate: FL lines and zzz names are Windows paths, file
 * system paths use '/'); path itself when it holds neither. The one base-name
 * function of the project: a pointer inside path, never NULL for a string.
 */
const char *path_base(const char *path);

#endif
