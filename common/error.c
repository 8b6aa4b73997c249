/*
 * common/error.c: filling and formatting ff_error values. No I/O here.
 */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {
#define FF_ERRKIND_NAME(name, json, msg) json,
    FF_ERRKIND_MAP(FF_ERRKIND_NAME)
#undef FF_ERRKIND_NAME
};

static const char *const kind_messages[] = {
#define FF_ERRKIND_MSG(name, json, msg) msg,
    FF_ERRKIND_MAP(FF_ERRKIND_MSG)
#undef FF_ERRKIND_MSG
};

void ff_error_clear(ff_error *err)
{
    if (!err) return;
    err->kind = FF_E_OK;
    err->file[0] = '\0';
    err->offset = -1;
    err->reason[0] = '\0';
}

int ff_error_set(ff_error *err, ff_errkind kind, const char *file, int64_t offset,
                 const char *fmt, ...)
{
    if (!err) return -1;
    err->kind = kind;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->reason, sizeof err->reason, fmt, ap);
    va_end(ap);
    return -1;
}

/* Copies src after dst[*used], truncating so dst stays NUL-terminated. */
static void append(char *dst, size_t cap, size_t *used, const char *src)
{
    size_t n = strlen(src);
    if (*used + 1 >= cap) return;
    if (n > cap - 1 - *used) n = cap - 1 - *used;
    memcpy(dst + *used, src, n);
    *used += n;
    dst[*used] = '\0';
}

void ff_error_prefix(ff_error *err, const char *fmt, ...)
{
    if (!err) return;
    char head[FF_ERR_REASON_MAX];
    char old[FF_ERR_REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, err->reason, sizeof old);
    /* Joined by hand: a "%s: %s" format trips -Wformat-truncation. */
    size_t used = 0;
    append(err->reason, sizeof err->reason, &used, head);
    append(err->reason, sizeof err->reason, &used, ": ");
    append(err->reason, sizeof err->reason, &used, old);
}

const char *ff_errkind_name(ff_errkind kind)
{
    if ((unsigned)kind >= FF_E__COUNT) return "?";
    return kind_names[kind];
}

const char *ff_errkind_message(ff_errkind kind)
{
    if ((unsigned)kind >= FF_E__COUNT) return "unknown error";
    return kind_messages[kind];
}

char *ff_error_format(const ff_error *err, char *buf, size_t n)
{
    if (!buf || n == 0) return buf;
    buf[0] = '\0';
    if (!err) return buf;
    size_t used = 0;
    if (err->file[0]) {
        int k = snprintf(buf, n, "%s: ", err->file);
        used = k > 0 ? (size_t)k : 0;
    }
    if (used < n && err->offset >= 0) {
        int k = snprintf(buf + used, n - used, "offset 0x%llx (%lld): ",
                         (unsigned long long)err->offset, (long long)err->offset);
        used += k > 0 ? (size_t)k : 0;
    }
    if (used < n)
        snprintf(buf + used, n - used, "%s",
                 err->reason[0] ? err->reason : ff_errkind_message(err->kind));
    return buf;
}
