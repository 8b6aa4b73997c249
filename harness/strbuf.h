/*
 * harness/strbuf.h: a growable text buffer for writers (traces, reports).
 * An allocation failure is sticky: later appends do nothing and
 * strbuf_failed() says so, so a writer checks once at the end.
 */
#ifndef FF8_HARNESS_STRBUF_H
#define FF8_HARNESS_STRBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct strbuf {
    char *s;    /* NUL-terminated when len > 0 or after any append */
    size_t len;
    size_t cap;
    int failed;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
/* Empties the buffer, keeps its memory. */
void sb_reset(strbuf *b);
void sb_add(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_putc(strbuf *b, char c);
void sb_int(strbuf *b, int64_t v);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s as a JSON string literal (quotes, escapes, \u00XX for controls). */
void sb_json_str(strbuf *b, const char *s);
/* Appends s escaped for HTML text and attribute values. */
void sb_html(strbuf *b, const char *s);
/* Appends s escaped for XML (same set as HTML plus control characters dropped). */
void sb_xml(strbuf *b, const char *s);
int strbuf_failed(const strbuf *b);

#endif
