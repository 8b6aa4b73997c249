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
/*
 * Text from input (names, a decoder's sentences) is shown the same way on
 * the terminal and in every report: a byte that could drive a terminal or
 * is not text, that is a C0 control (other than those a format keeps),
 * DEL, either byte of a C1 control (U+0080..U+009F) or a byte that is not
 * valid UTF-8, is written as the four characters \xNN.
 *
 * sb_shown: the length of the character at p to write as it is (1..4), or
 * 0 when the byte at p is written as \xNN (keep: the C0 controls kept,
 * "" for none). sb_hex_byte appends that \xNN.
 */
int sb_shown(const unsigned char *p, const char *keep);
void sb_hex_byte(strbuf *b, unsigned char c);
/* Appends s as it is shown on the terminal: every control, newline included, as \xNN. */
void sb_safe(strbuf *b, const char *s);
/* Appends s for a JSON document: bytes that are not valid UTF-8 and C1 controls as \xNN. */
void sb_utf8(strbuf *b, const char *s);

/* Appends s as a JSON string literal (quotes, escapes, \u00XX for C0, else as sb_utf8). */
void sb_json_str(strbuf *b, const char *s);
/* Appends s escaped for HTML text and attribute values (newline and tab kept). */
void sb_html(strbuf *b, const char *s);
/* Appends s escaped for XML: the same as for HTML. */
void sb_xml(strbuf *b, const char *s);
int strbuf_failed(const strbuf *b);

#endif
