/*
 * harness/report/report_html_base.c: the small pieces every part of
 * HTML written outside the document layer is written with (escaped text,
 * key-value rows), declared in report_html.h: the compared corpora's page
 * (report_cdiff.c) and the figures' markup (report_figure.c).
 */
#include "harness/report/report_html.h"

void rh_text(strbuf *b, const char *s)
{
    sb_html(b, s ? s : "");
}

/* Escaped text, or `absent` muted when s is absent or "". */
static void text_or(strbuf *b, const char *s, const char *absent)
{
    if (s && *s) {
        sb_html(b, s);
    } else {
        sb_puts(b, "<span class=\"muted\">");
        sb_html(b, absent);
        sb_puts(b, "</span>");
    }
}

void rh_kv(strbuf *b, const char *key, const char *val)
{
    sb_puts(b, "<tr><th>");
    sb_html(b, key);
    sb_puts(b, "</th><td>");
    text_or(b, val, "none");
    sb_puts(b, "</td></tr>\n");
}

void rh_kv_num(strbuf *b, const char *key, const cJSON *o, const char *k)
{
    sb_puts(b, "<tr><th>");
    sb_html(b, key);
    sb_puts(b, "</th><td>");
    if (rv_has_num(o, k))
        sb_printf(b, "%.15g", rv_num(o, k, 0));
    else
        sb_puts(b, "<span class=\"muted\">none</span>");
    sb_puts(b, "</td></tr>\n");
}
