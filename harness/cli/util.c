/*
 * harness/cli/util.c: what every subcommand needs: error printing and
 * number parsing (files are read and written through corpus/fileio.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/cli/cli.h"

void cli_print_error(const ff_error *err)
{
    char buf[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    fprintf(stderr, "ff8diff: %s\n", ff_error_format(err, buf, sizeof buf));
}

/* One line on stderr: prefix, the message, a newline. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("ff8diff: ", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("ff8diff: warning: ", fmt, ap);
    va_end(ap);
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
