/*
 * common/path.c: path_join, path_format and path_join_new.
 */
#include "common/path.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One '/' between dir and name, unless dir is empty or ends with one. */
static const char *separator(const char *dir)
{
    size_t a = strlen(dir);
    return a > 0 && dir[a - 1] != '/' ? "/" : "";
}

static int too_long(char *out, size_t n, int len, ff_error *err)
{
    char start[64];
    snprintf(start, sizeof start, "%s", n ? out : "");
    if (n) out[0] = '\0';
    if (len < 0) return ff_error_set(err, FF_E_RANGE, NULL, -1, "a path cannot be formatted");
    return ff_error_set(err, FF_E_RANGE, start, -1,
                        "path of %d bytes, longer than the %zu this needs fit in", len,
                        n ? n - 1 : 0);
}

int path_format(char *out, size_t n, ff_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(out, n, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= n) return too_long(out, n, len, err);
    return 0;
}

int path_join(char *out, size_t n, const char *dir, const char *name, ff_error *err)
{
    return path_format(out, n, err, "%s%s%s", dir, separator(dir), name);
}

char *path_join_new(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name), s = strlen(separator(dir));
    char *p = malloc(a + s + b + 1);
    if (!p) return NULL;
    memcpy(p, dir, a);
    memcpy(p + a, separator(dir), s);
    memcpy(p + a + s, name, b + 1);
    return p;
}

const char *path_base(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    return b;
}
