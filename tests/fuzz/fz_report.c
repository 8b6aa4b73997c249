/*
 * tests/fuzz/fz_report.c: what counts as a clean refusal, shared by every
 * fuzz body (see fz.h). Never prints or aborts: the caller decides.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tests/fuzz/fz.h"

void fz_report_init(fz_report *r)
{
    memset(r, 0, sizeof *r);
    ff_error_clear(&r->last);
}

int fz_broken(fz_report *r, const char *fmt, ...)
{
    if (r->broken[0]) return -1; /* the first broken contract is the one to fix */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->broken, sizeof r->broken, fmt, ap);
    va_end(ap);
    if (!r->broken[0]) snprintf(r->broken, sizeof r->broken, "broken contract");
    return -1;
}

/* Errors hostile data may cause; usage, internal, emu... may not. */
static int data_error(ff_errkind k)
{
    return k == FF_E_TRUNCATED || k == FF_E_FORMAT || k == FF_E_RANGE || k == FF_E_UNSUPPORTED ||
           k == FF_E_NOMEM;
}

int fz_rejected(fz_report *r, const ff_error *e, const char *want_file, const char *what)
{
    if (memchr(e->reason, '\0', sizeof e->reason) == NULL)
        return fz_broken(r, "%s: error reason is not NUL-terminated", what);
    if (memchr(e->file, '\0', sizeof e->file) == NULL)
        return fz_broken(r, "%s: error file is not NUL-terminated", what);
    if (!data_error(e->kind))
        return fz_broken(r, "%s: failed with error kind %d (%s): %s", what, (int)e->kind,
                         ff_errkind_name(e->kind), e->reason);
    if (!e->reason[0]) return fz_broken(r, "%s: failed with an empty reason", what);
    if (e->offset < -1) return fz_broken(r, "%s: error offset %lld", what, (long long)e->offset);
    if (want_file && strcmp(e->file, want_file) != 0)
        return fz_broken(r, "%s: error names file '%s', not '%s' (%s)", what, e->file, want_file,
                         e->reason);
    r->rejected++;
    r->last = *e;
    return 0;
}
