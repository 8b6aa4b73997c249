/*
 * harness/report/report_cdiff.c: text and HTML views of a corpus diff
 * (report_cdiff.h), from its JSON document.
 *
 * Must not print or exit, nor compute anything the document does not hold.
 */
#include "harness/report/report_cdiff.h"

#include <string.h>

#include "harness/core/cdiff.h"
#include "harness/core/modes.h"
#include "harness/report/report.h"
#include "harness/report/report_html.h"
#include "harness/report/report_view.h"

/* The description of corpus k ("?" when absent). */
static const char *corpus_of(const cJSON *corpora, int k)
{
    const cJSON *c = cJSON_GetArrayItem(corpora, k);
    return cJSON_IsString(c) ? c->valuestring : "?";
}

/* "normal 3, slow 3" for the modes whose first differing frame is known; "" when none. */
static void first_frames(const cJSON *clip, strbuf *b)
{
    const cJSON *first = rv_obj(clip, "first_frame");
    int any = 0;
    for (int m = 0; m < MODE__COUNT; m++) {
        const char *name = mode_name((mode_id)m);
        if (!rv_has_num(first, name)) continue;
        sb_printf(b, "%s%s %lld", any ? ", " : "", name, (long long)rv_int(first, name, 0));
        any = 1;
    }
    if (!any) sb_puts(b, "none");
}

static void clip_what(const cJSON *k, strbuf *b)
{
    if (!rv_bool(k, "in_a", 1))
        sb_puts(b, "only in B");
    else if (!rv_bool(k, "in_b", 1))
        sb_puts(b, "only in A");
    else {
        int skel = rv_bool(k, "skeleton", 0), stream = rv_bool(k, "stream", 0);
        sb_puts(b, skel && stream ? "skeleton and stream changed"
                   : skel         ? "skeleton changed"
                   : stream       ? "stream changed"
                                  : "bytes of both unchanged (reads past the clip differ)");
    }
}

static void sections_text(const cJSON *f, strbuf *b)
{
    if (rv_bool(f, "layout", 0)) {
        sb_puts(b, "section layout differs");
        return;
    }
    const cJSON *s;
    int any = 0;
    sb_puts(b, "sections");
    cJSON_ArrayForEach(s, rv_arr(f, "sections"))
    {
        sb_printf(b, "%s%d", any ? ", " : " ", (int)s->valuedouble);
        any = 1;
    }
    if (!any) sb_puts(b, " none (header only)");
}

void report_cdiff_text(const cJSON *doc, unsigned limit, strbuf *out)
{
    const cJSON *corp = rv_arr(doc, "corpora"), *t = rv_obj(doc, "totals"), *f;
    sb_printf(out, "A: %s\nB: %s\n", corpus_of(corp, 0), corpus_of(corp, 1));
    sb_printf(out,
              "files: %llu identical, %llu differ, %llu only in A, %llu only in B, %llu "
              "cannot be compared; %llu clips changed\n",
              (unsigned long long)rv_u64(t, "same", 0), (unsigned long long)rv_u64(t, "differ", 0),
              (unsigned long long)rv_u64(t, "only_a", 0),
              (unsigned long long)rv_u64(t, "only_b", 0), (unsigned long long)rv_u64(t, "bad", 0),
              (unsigned long long)rv_u64(t, "clips_changed", 0));
    cJSON_ArrayForEach(f, rv_arr(doc, "files"))
    {
        const char *st = rv_str(f, "status", "?");
        if (!strcmp(st, "same")) continue;
        sb_printf(out, "%s: ", rv_str(f, "name", "?"));
        if (!strcmp(st, "only_a") || !strcmp(st, "only_b")) {
            sb_printf(out, "only in %s\n", st[5] == 'a' ? "A" : "B");
            continue;
        }
        if (!strcmp(st, "bad")) {
            sb_printf(out, "cannot be compared: %s: %s\n", rv_str(f, "side", "?"),
                      rv_str(f, "error", "?"));
            continue;
        }
        sections_text(f, out);
        sb_printf(out, "; %zu clips changed\n", rv_len(rv_arr(f, "clips")));
        unsigned shown = 0;
        const cJSON *k;
        cJSON_ArrayForEach(k, rv_arr(f, "clips"))
        {
            if (limit && shown++ >= limit) {
                sb_printf(out, "  ... (%zu clips in all: --json lists them)\n",
                          rv_len(rv_arr(f, "clips")));
                break;
            }
            sb_printf(out, "  clip %llu: ", (unsigned long long)rv_u64(k, "clip", 0));
            clip_what(k, out);
            sb_puts(out, "; first differing frame: ");
            first_frames(k, out);
            sb_puts(out, "\n");
        }
    }
}

static void file_row(const cJSON *f, strbuf *b)
{
    const char *st = rv_str(f, "status", "?");
    sb_puts(b, "<tr><td class=\"mono\">");
    rh_text(b, rv_str(f, "name", "?"));
    sb_puts(b, "</td><td>");
    for (int s = 0; s < CDIFF__COUNT; s++)
        if (!strcmp(st, cdiff_status_name((cdiff_status)s)))
            rh_text(b, cdiff_status_heading((cdiff_status)s));
    sb_puts(b, "</td><td>");
    strbuf t;
    sb_init(&t);
    if (!strcmp(st, "differ")) sections_text(f, &t);
    if (!strcmp(st, "bad"))
        sb_printf(&t, "%s: %s", rv_str(f, "side", "?"), rv_str(f, "error", "?"));
    if (t.s) rh_text(b, t.s);
    sb_reset(&t);
    sb_puts(b, "</td></tr>\n");
    const cJSON *k;
    cJSON_ArrayForEach(k, rv_arr(f, "clips"))
    {
        sb_printf(b, "<tr class=\"sub\"><td></td><td>clip %llu</td><td>",
                  (unsigned long long)rv_u64(k, "clip", 0));
        clip_what(k, &t);
        sb_puts(&t, "; first differing frame: ");
        first_frames(k, &t);
        if (t.s) rh_text(b, t.s);
        sb_reset(&t);
        sb_puts(b, "</td></tr>\n");
    }
    sb_free(&t);
}

void report_cdiff_section(const cJSON *doc, strbuf *out)
{
    const cJSON *corp = rv_arr(doc, "corpora"), *t = rv_obj(doc, "totals"), *f;
    sb_puts(out, "<section id=\"corpus-diff\"><h2>Corpus diff</h2>\n<div class=\"card-box\">"
                 "<table class=\"kv\">\n");
    rh_kv(out, "A", corpus_of(corp, 0));
    rh_kv(out, "B", corpus_of(corp, 1));
    for (int s = 0; s < CDIFF__COUNT; s++)
        rh_kv_num(out, cdiff_status_heading((cdiff_status)s), t,
                  cdiff_status_name((cdiff_status)s));
    rh_kv_num(out, "clips changed", t, "clips_changed");
    sb_puts(out, "</table></div>\n<div class=\"card-box\"><table class=\"grid\">\n"
                 "<tr><th>file</th><th>status</th><th>what differs</th></tr>\n");
    cJSON_ArrayForEach(f, rv_arr(doc, "files"))
    {
        if (strcmp(rv_str(f, "status", ""), "same")) file_row(f, out);
    }
    sb_puts(out, "</table></div>\n</section>\n");
}

void report_cdiff_html(const cJSON *doc, strbuf *out)
{
    sb_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                 "<title>ff8diff corpus diff</title>\n<style>");
    sb_puts(out, report_html_css());
    sb_puts(out, "</style>\n</head>\n<body>\n<header class=\"top\"><main><h1>ff8diff corpus "
                 "diff</h1></main></header>\n<main>\n");
    report_cdiff_section(doc, out);
    sb_puts(out, "</main>\n</body>\n</html>\n");
}
