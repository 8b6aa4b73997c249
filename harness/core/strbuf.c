/*
 * harness/core/strbuf.c: growable text buffer with JSON/HTML/XML escaping.
 */
#include "harness/core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

void sb_init(strbuf *b)
{
    b->s = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
    b->room = NULL;
    b->room_arg = NULL;
}

void sb_init_over(strbuf *b, int (*room)(strbuf *b, size_t need), void *arg)
{
    sb_init(b);
    b->room = room;
    b->room_arg = arg;
}

void sb_free(strbuf *b)
{
    if (!b->room) free(b->s);
    sb_init(b);
}

void sb_reset(strbuf *b)
{
    b->len = 0;
    if (b->s) b->s[0] = '\0';
}

static int grow(strbuf *b, size_t extra)
{
    if (b->failed) return -1;
    if (extra > SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return -1;
    }
    size_t need = b->len + extra + 1;
    if (b->room ? need > b->cap && b->room(b, need) < 0 : GROW(b->s, b->cap, need, 256) < 0) {
        b->failed = 1;
        return -1;
    }
    return 0;
}

void sb_add(strbuf *b, const char *s, size_t n)
{
    if (grow(b, n) < 0) return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_puts(strbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

void sb_putc(strbuf *b, char c)
{
    if (grow(b, 1) < 0) return;
    b->s[b->len++] = c;
    b->s[b->len] = '\0';
}

void sb_int(strbuf *b, int64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *--p = '-';
    sb_add(b, p, (size_t)(tmp + sizeof tmp - p));
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || grow(b, (size_t)n) < 0) return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

int utf8_seq_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80) return 1;
    int n;
    unsigned min, cp;
    if ((c & 0xE0) == 0xC0) n = 2, min = 0x80, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) n = 3, min = 0x800, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) n = 4, min = 0x10000, cp = c & 0x07;
    else return 0;
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0; /* also stops at the NUL */
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

int sb_shown(const unsigned char *p, const char *keep)
{
    if (*p < 0x20) return strchr(keep, *p) ? 1 : 0;
    if (*p == 0x7F) return 0;
    int n = utf8_seq_len(p);
    if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) return 0; /* C1: U+0080..U+009F */
    return n;
}

void sb_hex_byte(strbuf *b, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    sb_add(b, e, sizeof e);
}

/* Appends s with what sb_shown refuses as \xNN. */
static void shown_or_hex(strbuf *b, const char *s, const char *keep)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = sb_shown(p, keep);
        if (n == 0) {
            sb_hex_byte(b, *p++);
        } else {
            sb_add(b, (const char *)p, (size_t)n);
            p += n;
        }
    }
}

void sb_safe(strbuf *b, const char *s)
{
    shown_or_hex(b, s, "");
}

void sb_utf8(strbuf *b, const char *s)
{
    /* C0 controls stay: a JSON writer escapes them as \u00XX. */
    shown_or_hex(b, s, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12"
                       "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f");
}

void sb_json_str(strbuf *b, const char *s)
{
    sb_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) {
            int n = sb_shown(p, "");
            if (n == 0) {
                sb_putc(b, '\\'); /* \xNN, its backslash escaped for JSON */
                sb_hex_byte(b, *p);
            } else {
                sb_add(b, (const char *)p, (size_t)n);
                p += n - 1;
            }
            continue;
        }
        switch (*p) {
        case '"': sb_add(b, "\\\"", 2); break;
        case '\\': sb_add(b, "\\\\", 2); break;
        case '\n': sb_add(b, "\\n", 2); break;
        case '\r': sb_add(b, "\\r", 2); break;
        case '\t': sb_add(b, "\\t", 2); break;
        default:
            if (*p < 0x20 || *p == 0x7F)
                sb_printf(b, "\\u%04x", *p);
            else
                sb_putc(b, (char)*p);
        }
    }
    sb_putc(b, '"');
}

static void escape_markup(strbuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        switch (*p) {
        case '&': sb_puts(b, "&amp;"); break;
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        case '\'': sb_puts(b, "&#39;"); break;
        default: {
            int n = sb_shown(p, "\n\t");
            if (n == 0) {
                sb_hex_byte(b, *p);
            } else {
                sb_add(b, (const char *)p, (size_t)n);
                p += n - 1;
            }
        }
        }
        p++;
    }
}

void sb_html(strbuf *b, const char *s)
{
    escape_markup(b, s);
}

void sb_xml(strbuf *b, const char *s)
{
    escape_markup(b, s);
}

int strbuf_failed(const strbuf *b)
{
    return b->failed;
}
