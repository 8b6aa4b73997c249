/*
 * harness/cli/util.c: what every subcommand needs: error printing, whole
 * file reads and atomic writes, number parsing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/cli/cli.h"

void cli_print_error(const ff_error *err)
{
    char buf[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    fprintf(stderr, "ff8diff: %s\n", ff_error_format(err, buf, sizeof buf));
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ff8diff: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ff8diff: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_read_file(const char *path, uint8_t **data, size_t *size, ff_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return ff_error_set(err, FF_E_IO, path, -1, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return ff_error_set(err, FF_E_IO, path, -1, "not a regular file");
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fclose(f);
        return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory for %zu bytes", n);
    }
    if (fread(buf, 1, n, f) != n) {
        free(buf);
        fclose(f);
        return ff_error_set(err, FF_E_IO, path, -1, "read error");
    }
    fclose(f);
    *data = buf;
    *size = n;
    return 0;
}

int cli_write_file(const char *path, const void *data, size_t size, ff_error *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return ff_error_set(err, FF_E_IO, path, -1, "path too long");
    FILE *f = fopen(tmp, "wb");
    if (!f) return ff_error_set(err, FF_E_IO, tmp, -1, "cannot create: %s", strerror(errno));
    int ok = fwrite(data, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return ff_error_set(err, FF_E_IO, path, -1, "cannot write: %s", strerror(errno));
    }
    return 0;
}

int cli_parse_uint(const char *text, unsigned long lo, unsigned long hi, unsigned long *out)
{
    if (!text || !*text || *text == '-' || *text == '+') return -1;
    errno = 0;
    char *end;
    unsigned long v = strtoul(text, &end, 0);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}
