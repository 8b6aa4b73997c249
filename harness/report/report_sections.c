/*
 * harness/report/report_sections.c: the section table walked once into a
 * document, and the two renderers that emit it: index.html (the page's
 * shell and style around rd_emit_html) and summary.md (rd_emit_md).
 *
 * Must not recompute anything the run decided, print or exit.
 */
#include "harness/report/report_sections.h"

#include <stdarg.h>
#include <stdio.h>

#include "harness/report/report.h"
#include "harness/report/report_md_base.h"

static const rs_row rows[] = {
#define RS_ROW(id, title, view) {id, title, view},
    REPORT_SECTIONS(RS_ROW)
#undef RS_ROW
};

const rs_row *rs_rows(size_t *n)
{
    *n = sizeof rows / sizeof rows[0];
    return rows;
}

rd_node *rs_open(const rs_ctx *c, const char *title)
{
    return rd_section(c->doc, c->row ? c->row->id : NULL,
                      title ? title : c->row ? c->row->title : "");
}

rd_node *rs_openf(const rs_ctx *c, const char *fmt, ...)
{
    char title[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(title, sizeof title, fmt, ap);
    va_end(ap);
    return rs_open(c, title);
}

rd_doc *rs_build(const cJSON *report, rk_log *log)
{
    rv_index ix;
    rv_entities ents;
    rd_doc *d = rd_new();
    if (!d || rv_index_build(report, &ix) < 0) {
        rd_free(d);
        return NULL;
    }
    if (rv_entities_build(report, &ents) < 0) {
        rv_index_free(&ix);
        rd_free(d);
        return NULL;
    }
    rs_ctx c = {.doc = d, .root = rk_root(report, log), .report = report, .ix = &ix,
                .ents = &ents};
    rs_view_head(&c);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        c.row = &rows[i];
        rows[i].view(&c);
    }
    rv_index_free(&ix);
    rv_entities_free(&ents);
    if (rd_failed(d)) {
        rd_free(d);
        return NULL;
    }
    return d;
}

/* index.html around the document. */
static int emit_page(const cJSON *report, const rd_doc *d, strbuf *out)
{
    const cJSON *run = rv_obj(report, "run"), *tool = rv_obj(run, "tool");
    sb_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
                 "<title>ff8diff report ");
    sb_html(out, rv_str(run, "id", ""));
    sb_puts(out, "</title>\n<style>");
    sb_puts(out, report_html_css());
    sb_puts(out, "</style>\n</head>\n<body>\n");
    rd_emit_html(out, d);
    sb_puts(out, "<footer>Rendered from report.json (schema ");
    sb_html(out, rv_str(report, "schema", "?"));
    sb_puts(out, ") by ");
    sb_html(out, rv_str(tool, "name", "ff8diff"));
    sb_puts(out, " ");
    sb_html(out, rv_str(tool, "version", "?"));
    sb_puts(out, ".</footer>\n</main>\n</body>\n</html>\n");
    return strbuf_failed(out) ? -1 : 0;
}

/* summary.md: the document and the line saying where it came from. */
static int emit_summary(const cJSON *report, const rd_doc *d, strbuf *out)
{
    rd_emit_md(out, d);
    sb_puts(out, "Rendered from report.json, schema ");
    rm_text(out, rv_str(report, "schema", "?"));
    sb_puts(out, ".\n");
    return strbuf_failed(out) ? -1 : 0;
}

int report_render_html(const cJSON *report, strbuf *out)
{
    rd_doc *d = rs_build(report, NULL);
    int rc = d ? emit_page(report, d, out) : -1;
    rd_free(d);
    return rc;
}

int report_render_markdown(const cJSON *report, strbuf *out)
{
    rd_doc *d = rs_build(report, NULL);
    int rc = d ? emit_summary(report, d, out) : -1;
    rd_free(d);
    return rc;
}

int report_render_pages(const cJSON *report, strbuf *html, strbuf *md)
{
    rd_doc *d = rs_build(report, NULL);
    int rc = d && emit_page(report, d, html) == 0 && emit_summary(report, d, md) == 0 ? 0 : -1;
    rd_free(d);
    return rc;
}

