/*
 * harness/report/report_md_base.c: the small pieces every part of
 * summary.md is written with (escaped text, inline code, preformatted
 * lines, a divergence's stream window), declared in report_md_base.h. They
 * call no section writer: the Markdown emitter (report_doc_emit.c) and the
 * views' stream figures (report_view_groups.c, report_view_entities.c)
 * stand on them.
 */
#include <string.h>

#include "harness/report/report_md_base.h"

/*
 * Appends what sb_shown refuses at *p as \xNN and returns 1, else 0 (the
 * character at *p is the caller's: plain ASCII, or copied whole when it is
 * longer, *p moved past all but its last byte).
 */
static int unsafe_or_wide(strbuf *b, const unsigned char **p)
{
    int n = sb_shown(*p, "\n\r\t");
    if (n == 0) {
        sb_hex_byte(b, **p);
        return 1;
    }
    if (n == 1) return 0;
    sb_add(b, (const char *)*p, (size_t)n);
    *p += n - 1;
    return 1;
}

/* Text escaped for Markdown prose and table cells. */
void rm_text(strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (unsafe_or_wide(b, &p)) continue;
        if (*p == '&')
            sb_puts(b, "&amp;");
        else if (*p == '<')
            sb_puts(b, "&lt;");
        else if (*p == '>')
            sb_puts(b, "&gt;");
        else if (*p == '\n' || *p == '\r' || *p == '\t')
            sb_putc(b, ' ');
        else {
            if (strchr("\\`*_[]|#~!", *p)) sb_putc(b, '\\');
            sb_putc(b, (char)*p);
        }
    }
}

/* s as an inline code span that is also safe inside a table cell. */
void rm_code(strbuf *b, const char *s)
{
    sb_putc(b, '`');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (unsafe_or_wide(b, &p)) continue;
        if (*p == '|')
            sb_puts(b, "\\|");
        else if (*p == '`')
            sb_putc(b, '\'');
        else
            sb_putc(b, *p < 0x20 ? ' ' : (char)*p);
    }
    sb_putc(b, '`');
}

/* One line of a fenced block: nothing that could close the fence. */
void rm_pre_line(strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (unsafe_or_wide(b, &p)) continue;
        sb_putc(b, *p == '`' || *p == '~' || *p < 0x20 ? '?' : (char)*p);
    }
    sb_putc(b, '\n');
}

void rm_stream_lines(strbuf *b, const cJSON *d)
{
    const cJSON *st = rv_obj(d, "stream"), *cur = rv_obj(d, "cursor");
    if (!st) return;
    int64_t ci = rv_int(st, "cursor_index", -1);
    const cJSON *v = rv_obj(st, "value");
    sb_printf(b, "- Stream from file offset 0x%llx", (unsigned long long)rv_u64(st, "offset", 0));
    if (v) {
        sb_printf(b, " (the value's read: %lld bits of ", (long long)rv_int(v, "bits", 0));
        rm_text(b, rv_str(v, "routine", "?"));
        sb_printf(b, " from byte number %lld, bit %lld", (long long)rv_int(v, "index", 0),
                  (long long)rv_int(v, "bit", 0));
        if (ci >= 0) sb_printf(b, "; the tick's cursor byte is number %lld", (long long)ci);
        sb_puts(b, "): hex ");
    } else {
        sb_printf(b, " (cursor byte is number %lld, from 0): hex ", (long long)ci);
    }
    rm_code(b, rv_str(st, "hex", ""));
    sb_puts(b, "\n- Bits, LSB first per byte (the order the engine reads them): ");
    rm_code(b, rv_str(st, "bits_lsb_first", ""));
    sb_printf(b,
              "\n- Cursor at the tick's start: byte %lld, bit %lld (file offset 0x%llx); "
              "differing field values: %llu\n",
              (long long)rv_int(cur, "byte", -1), (long long)rv_int(cur, "bit", -1),
              (unsigned long long)rv_u64(cur, "file_offset", 0),
              (unsigned long long)rv_u64(d, "differing_fields", 0));
}
