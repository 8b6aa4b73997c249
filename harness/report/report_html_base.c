/*
 * harness/report/report_html_base.c: the small pieces every part of
 * index.html is written with (escaped text, key-value rows, lists, values
 * with their flag bytes in hex), declared in report_html.h. They call no
 * section writer: the sections still written as HTML text (report_html.c,
 * report_html_entity.c, report_causes_html.c, report_pose.c) stand on them.
 */
#include "harness/core/fields.h"
#include "harness/report/report_html.h"

void rh_text(strbuf *b, const char *s)
{
    sb_html(b, s ? s : "");
}

void rh_text_or(strbuf *b, const char *s, const char *absent)
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
    rh_text_or(b, val, "none");
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

/* "a, b, c" of a string array, escaped. */
void rh_list(strbuf *b, const cJSON *arr)
{
    const cJSON *e;
    int n = 0;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e)) continue;
        if (n++) sb_puts(b, ", ");
        rh_text(b, e->valuestring);
    }
    if (!n) sb_puts(b, "<span class=\"muted\">none</span>");
}

/* A value of field kind: decimal, plus hex for flag bytes. */
void rh_value(strbuf *b, const cJSON *o, const char *key, const char *field_kind, const char *cls)
{
    sb_printf(b, "<span class=\"%s\">", cls);
    if (!rv_has_num(o, key)) {
        sb_puts(b, "?</span>");
        return;
    }
    int64_t v = rv_int(o, key, 0);
    sb_printf(b, "%lld", (long long)v);
    int f = field_kind ? field_from_kind_name(field_kind) : -1;
    if (f >= 0 && field_is_bits((field_id)f))
        sb_printf(b, " (0x%02llx)", (unsigned long long)v & 0xFF);
    sb_puts(b, "</span>");
}

void rh_status_cell(strbuf *b, const uint64_t n[RES__COUNT])
{
    uint64_t total = 0;
    for (int s = 0; s < RES__COUNT; s++)
        total += n[s];
    sb_puts(b, "<td>");
    if (!total) sb_puts(b, "<span class=\"muted\">-</span>");
    for (int s = 0; s < RES__COUNT; s++)
        if (n[s])
            sb_printf(b, "<span class=\"pill %s\" title=\"%s\">%llu</span>",
                      res_status_name((res_status)s), rv_status_label(s), (unsigned long long)n[s]);
    sb_puts(b, "</td>");
}
