/*
 * harness/cli/util.c: what every subcommand needs: error printing (control
 * bytes escaped: names come from files), whole-file reads, number parsing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/fileio.h"
#include "corpus/source.h"
#include "harness/cli/cli.h"

/* Writes "ff8diff: " + prefix + text + newline, every control byte of text as \xNN. */
static void put_line(const char *prefix, const char *text)
{
    fputs("ff8diff: ", stderr);
    fputs(prefix, stderr);
    char buf[8];
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        fputs(cli_safe_char(*p, buf), stderr);
    fputc('\n', stderr);
}

const char *cli_safe_char(unsigned char c, char buf[8])
{
    if (c < 0x20 || c == 0x7F) {
        snprintf(buf, 8, "\\x%02x", c);
    } else {
        buf[0] = (char)c;
        buf[1] = '\0';
    }
    return buf;
}

char *cli_safe(const char *s, char *buf, size_t n)
{
    size_t k = 0;
    char one[8];
    buf[0] = '\0';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *piece = cli_safe_char(*p, one);
        size_t len = strlen(piece);
        if (k + len >= n) break;
        memcpy(buf + k, piece, len + 1);
        k += len;
    }
    return buf;
}

void cli_print_error(const ff_error *err)
{
    char buf[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    put_line("", ff_error_format(err, buf, sizeof buf));
}

static void put_va(const char *prefix, const char *fmt, va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    put_line(prefix, buf);
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_va("", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_va("warning: ", fmt, ap);
    va_end(ap);
}

int cli_read_file(const char *path, uint8_t **data, size_t *size, ff_error *err)
{
    return fio_read_file(path, 0, CORPUS_ENTRY_MAX, data, size, err);
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
