/*
 * harness/core/strbuf.h: a growable text buffer for writers (traces, reports).
 * An allocation failure is sticky: later appends do nothing and
 * strbuf_failed() says so, so a writer checks once at the end.
 */
#ifndef FF8_HARNESS_CORE_STRBUF_H
#define FF8_HARNESS_CORE_STRBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct strbuf {
    char *s;    /* NUL-terminated when len > 0 or after any append */
    size_t len;
    size_t cap;
    int failed;
    /* NULL: s is this buffer's malloc'd memory. Else s is memory its owner
     * provides (a mapping), and room(b, need) makes it hold need bytes,
     * updating s and cap (contents kept): 0, or -1 when it cannot. */
    int (*room)(struct strbuf *b, size_t need);
    void *room_arg;
} strbuf;

void sb_init(strbuf *b);
/* A buffer over memory its owner provides and grows (see room above); s may start NULL. */
void sb_init_over(strbuf *b, int (*room)(strbuf *b, size_t need), void *arg);
/* Frees malloc'd memory (not an owner's) and empties the buffer. */
void sb_free(strbuf *b);
/* Empties the buffer, keeps its memory. */
void sb_reset(strbuf *b);
void sb_add(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_putc(strbuf *b, char c);
void sb_int(strbuf *b, int64_t v);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Length of the valid UTF-8 sequence starting at p (1..4), or 0 when the
 * bytes there are not valid UTF-8 (overlong forms and surrogates included).
 */
int utf8_seq_len(const unsigned char *p);
/* Appends s with every byte that is not valid UTF-8 replaced by U+FFFD. */
void sb_utf8(strbuf *b, const char *s);

/*
 * Appends s as a JSON string literal (quotes, escapes, \u00XX for controls,
 * U+FFFD for bytes that are not valid UTF-8: names come from files).
 */
void sb_json_str(strbuf *b, const char *s);
/* Appends s escaped for HTML text and attribute values. */
void sb_html(strbuf *b, const char *s);
/* Appends s escaped for XML (same set as HTML plus control characters dropped). */
void sb_xml(strbuf *b, const char *s);
int strbuf_failed(const strbuf *b);

#endif
