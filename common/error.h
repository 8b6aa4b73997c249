/*
 * common/error.h: the error value every library function of ff8diff returns
 * through a pointer. An error names what went wrong (kind), where (file and
 * byte offset, -1 when no offset applies) and why (a sentence).
 *
 * Library code never prints and never exits: it fills an ff_error and
 * returns -1 (or NULL). Only the CLI turns errors into text on stderr.
 */
#ifndef FF8_COMMON_ERROR_H
#define FF8_COMMON_ERROR_H

#include <stddef.h>
#include <stdint.h>

/* One list gives the enum, its JSON names and its messages. */
#define FF_ERRKIND_MAP(XX)                                                     \
    XX(OK, "ok", "no error")                                                   \
    XX(USAGE, "usage", "bad usage")                                            \
    XX(IO, "io", "input/output error")                                         \
    XX(NOMEM, "nomem", "out of memory")                                        \
    XX(TRUNCATED, "truncated", "input is truncated")                           \
    XX(FORMAT, "format", "malformed input")                                    \
    XX(RANGE, "range", "offset or index out of range")                         \
    XX(UNSUPPORTED, "unsupported", "unsupported input")                        \
    XX(EXE, "exe", "executable refused")                                       \
    XX(EMU, "emu", "emulator error")                                           \
    XX(FAULT, "fault", "emulated code faulted")                                \
    XX(INTERNAL, "internal", "internal error")

typedef enum ff_errkind {
#define FF_ERRKIND_ENUM(name, json, msg) FF_E_##name,
    FF_ERRKIND_MAP(FF_ERRKIND_ENUM)
#undef FF_ERRKIND_ENUM
        FF_E__COUNT
} ff_errkind;

#define FF_ERR_FILE_MAX 256
#define FF_ERR_REASON_MAX 512

typedef struct ff_error {
    ff_errkind kind;
    char file[FF_ERR_FILE_MAX];     /* "" when no file applies */
    int64_t offset;                 /* byte offset in file, -1 when none */
    char reason[FF_ERR_REASON_MAX]; /* one sentence, no trailing newline */
} ff_error;

/* Clears err to FF_E_OK. err may be NULL. */
void ff_error_clear(ff_error *err);

/*
 * Fills err (when not NULL) and returns -1, so that callers can write
 * `return ff_error_set(err, FF_E_FORMAT, name, off, "bad count %u", n);`.
 * file may be NULL; offset -1 means "no offset".
 */
int ff_error_set(ff_error *err, ff_errkind kind, const char *file, int64_t offset,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Prefixes err->reason with "context: " (keeps kind, file, offset). */
void ff_error_prefix(ff_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "io", "format", ... for JSON; "?" for an unknown kind. */
const char *ff_errkind_name(ff_errkind kind);
/* A short message for the kind. */
const char *ff_errkind_message(ff_errkind kind);

/*
 * Writes "file: offset 0x1f (31): reason" (parts omitted when absent) into
 * buf, always NUL-terminated. Returns buf.
 */
char *ff_error_format(const ff_error *err, char *buf, size_t n);

#endif
