/*
 * harness/report/report_doc_emit.c: the document tree written twice, as
 * index.html's body (rd_emit_html: every text through sb_html, figures
 * as their maker wrote them) and as summary.md (rd_emit_md: text through
 * rm_text / rm_code, so a name can neither break a table nor inject
 * markup). Long tables are folded here for every view: the first rows,
 * then the rest behind <details> in HTML and counted in Markdown.
 *
 * Must not read report.json, print or exit.
 */
#include <string.h>

#include "harness/report/report_doc_node.h"
#include "harness/report/report_md_base.h"

/* ---- HTML ---- */

static void html_attr(strbuf *b, const char *name, const char *v)
{
    if (!v || !*v) return;
    sb_printf(b, " %s=\"", name);
    sb_html(b, v);
    sb_putc(b, '"');
}

static void html_inlines(strbuf *b, const rd_node *in)
{
    static const char *const open[] = {
        [RD_PLAIN] = "",
        [RD_CODE] = "<code>",
        [RD_STRONG] = "<strong>",
        [RD_MUTED] = "<span class=\"muted\">",
        [RD_TAG] = "<span class=\"tag\">",
        [RD_NAME] = "<span class=\"name\">",
    };
    static const char *const close[] = {
        [RD_PLAIN] = "", [RD_CODE] = "</code>", [RD_STRONG] = "</strong>",
        [RD_MUTED] = "</span>", [RD_TAG] = "</span>", [RD_NAME] = "</span>",
    };
    for (const rd_node *r = in ? in->first : NULL; r; r = r->next) {
        if (r->kind == RD_N_LINK) {
            sb_puts(b, "<a");
            html_attr(b, "href", r->alt);
            sb_putc(b, '>');
            sb_html(b, r->text);
            sb_puts(b, "</a>");
        } else if (r->kind == RD_N_BADGE) {
            sb_puts(b, "<span");
            html_attr(b, "class", r->cls);
            html_attr(b, "id", r->id);
            sb_putc(b, '>');
            sb_html(b, r->text);
            sb_puts(b, "</span>");
        } else {
            sb_puts(b, open[r->style]);
            sb_html(b, r->text);
            sb_puts(b, close[r->style]);
        }
    }
}

static void html_blocks(strbuf *b, const rd_node *parent);

static void html_head_row(strbuf *b, const rd_node *t)
{
    sb_puts(b, "<thead><tr>");
    for (size_t i = 0; i < t->ncols; i++) {
        sb_puts(b, (t->flags >> i) & 1u ? "<th class=\"num\">" : "<th>");
        sb_html(b, t->heads ? t->heads[i] : "");
        sb_puts(b, "</th>");
    }
    sb_puts(b, "</tr></thead>\n");
}

static void html_row(strbuf *b, const rd_node *t, const rd_node *row)
{
    sb_puts(b, "<tr");
    html_attr(b, "id", row->id);
    sb_putc(b, '>');
    size_t i = 0;
    for (const rd_node *c = row->first; c; c = c->next, i++) {
        sb_puts(b, i < 32 && (t->flags >> i) & 1u ? "<td class=\"num\">" : "<td>");
        html_inlines(b, c);
        sb_puts(b, "</td>");
    }
    sb_puts(b, "</tr>\n");
}

/* A table with a header row; rows after t->fold in a second table behind <details>. */
static void html_table(strbuf *b, const rd_node *t)
{
    sb_puts(b, "<div class=\"tbl\"><table class=\"grid\"");
    html_attr(b, "id", t->id);
    sb_puts(b, ">\n");
    html_head_row(b, t);
    size_t i = 0;
    const rd_node *row = t->first;
    for (; row && i < t->fold; row = row->next, i++) html_row(b, t, row);
    sb_puts(b, "</table>\n");
    if (row) {
        sb_printf(b, "<details class=\"fold\"><summary>%zu more rows</summary>\n"
                     "<table class=\"grid\">\n", t->count - t->fold);
        html_head_row(b, t);
        for (; row; row = row->next) html_row(b, t, row);
        sb_puts(b, "</table>\n</details>\n");
    }
    sb_puts(b, "</div>\n");
}

static void html_kv(strbuf *b, const rd_node *kv)
{
    sb_puts(b, "<table class=\"kv\"");
    html_attr(b, "id", kv->id);
    sb_puts(b, ">\n");
    for (const rd_node *row = kv->first; row; row = row->next) {
        sb_puts(b, "<tr><th>");
        sb_html(b, row->text);
        sb_puts(b, "</th><td");
        html_attr(b, "id", row->first ? row->first->id : NULL);
        sb_putc(b, '>');
        html_inlines(b, row->first);
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table>\n");
}

static void html_block(strbuf *b, const rd_node *n)
{
    switch (n->kind) {
    case RD_N_HEADING:
        sb_puts(b, "<h3");
        html_attr(b, "id", n->id);
        sb_putc(b, '>');
        html_inlines(b, n);
        sb_puts(b, "</h3>\n");
        break;
    case RD_N_PARA:
        sb_puts(b, "<p");
        html_attr(b, "class", n->cls);
        sb_putc(b, '>');
        html_inlines(b, n);
        sb_puts(b, "</p>\n");
        break;
    case RD_N_BOX:
        sb_puts(b, "<div class=\"card-box");
        if (n->cls) {
            sb_putc(b, ' ');
            sb_html(b, n->cls);
        }
        sb_putc(b, '"');
        html_attr(b, "id", n->id);
        sb_puts(b, ">\n");
        html_blocks(b, n);
        sb_puts(b, "</div>\n");
        break;
    case RD_N_KV: html_kv(b, n); break;
    case RD_N_TABLE: html_table(b, n); break;
    case RD_N_CODE:
        sb_puts(b, "<pre>");
        for (const rd_node *l = n->first; l; l = l->next) {
            if (l->style == RD_STRONG) sb_puts(b, "<span class=\"eip\">");
            sb_html(b, l->text);
            if (l->style == RD_STRONG) sb_puts(b, "</span>");
            sb_putc(b, '\n');
        }
        sb_puts(b, "</pre>\n");
        break;
    case RD_N_LIST:
        sb_puts(b, "<ul>\n");
        for (const rd_node *it = n->first; it; it = it->next) {
            sb_puts(b, "<li>");
            html_inlines(b, it);
            sb_puts(b, "</li>\n");
        }
        sb_puts(b, "</ul>\n");
        break;
    case RD_N_FIGURE: sb_puts(b, n->text); break;
    case RD_N_DETAILS:
        sb_puts(b, "<details><summary>");
        sb_html(b, n->text);
        sb_puts(b, "</summary>\n");
        html_blocks(b, n);
        sb_puts(b, "</details>\n");
        break;
    default: break;
    }
}

static void html_blocks(strbuf *b, const rd_node *parent)
{
    for (const rd_node *n = parent->first; n; n = n->next) html_block(b, n);
}

void rd_emit_html(strbuf *b, const rd_doc *d)
{
    static const char *const banner_cls[] = {[RD_NOTE] = "note", [RD_WARN] = "warn",
                                             [RD_STOP] = "stop"};
    if (!d) return;
    sb_puts(b, "<header class=\"top\"><main><h1>");
    html_inlines(b, d->title);
    sb_puts(b, "</h1>\n<div class=\"sub\">");
    html_inlines(b, d->subtitle);
    sb_puts(b, "</div></main></header>\n<main>\n");
    for (const rd_node *n = d->banners->first; n; n = n->next) {
        sb_printf(b, "<div class=\"banner %s\"", banner_cls[n->flags % 3]);
        html_attr(b, "id", n->id);
        sb_putc(b, '>');
        html_inlines(b, n);
        sb_puts(b, "</div>\n");
    }
    for (const rd_node *s = d->body->first; s; s = s->next) {
        sb_puts(b, "<section");
        html_attr(b, "id", s->id);
        sb_puts(b, "><h2>");
        sb_html(b, s->text);
        sb_puts(b, "</h2>\n");
        html_blocks(b, s);
        sb_puts(b, "</section>\n");
    }
}

/* ---- Markdown ---- */

static void md_inlines(strbuf *b, const rd_node *in)
{
    for (const rd_node *r = in ? in->first : NULL; r; r = r->next) {
        if (r->kind == RD_N_BADGE) {
            sb_puts(b, "**");
            rm_text(b, r->text);
            sb_puts(b, "**");
            continue;
        }
        switch (r->kind == RD_N_LINK ? RD_PLAIN : r->style) {
        case RD_CODE: rm_code(b, r->text); break;
        case RD_NAME:
            /* A code span keeps a name whole; one with markup characters stays escaped text. */
            if (strpbrk(r->text, "<>&\"'"))
                rm_text(b, r->text);
            else
                rm_code(b, r->text);
            break;
        case RD_STRONG:
            sb_puts(b, "**");
            rm_text(b, r->text);
            sb_puts(b, "**");
            break;
        case RD_TAG:
            sb_puts(b, "(");
            rm_text(b, r->text);
            sb_puts(b, ")");
            break;
        default: rm_text(b, r->text); break;
        }
    }
}

static void md_blocks(strbuf *b, const rd_node *parent);

static void md_table(strbuf *b, const rd_node *t)
{
    sb_puts(b, "|");
    for (size_t i = 0; i < t->ncols; i++) {
        sb_putc(b, ' ');
        rm_text(b, t->heads ? t->heads[i] : "");
        sb_puts(b, " |");
    }
    sb_puts(b, "\n|");
    for (size_t i = 0; i < t->ncols; i++) sb_puts(b, (t->flags >> i) & 1u ? "---:|" : "---|");
    sb_putc(b, '\n');
    size_t i = 0;
    const rd_node *row = t->first;
    for (; row && i < t->fold; row = row->next, i++) {
        sb_puts(b, "|");
        for (const rd_node *c = row->first; c; c = c->next) {
            sb_putc(b, ' ');
            md_inlines(b, c);
            sb_puts(b, " |");
        }
        sb_putc(b, '\n');
    }
    sb_putc(b, '\n');
    if (row)
        sb_printf(b, "_and %zu more rows: see index.html or report.json_\n\n",
                  t->count - t->fold);
}

static void md_block(strbuf *b, const rd_node *n)
{
    switch (n->kind) {
    case RD_N_HEADING:
        sb_puts(b, "### ");
        md_inlines(b, n);
        sb_puts(b, "\n\n");
        break;
    case RD_N_PARA:
        md_inlines(b, n);
        sb_puts(b, "\n\n");
        break;
    case RD_N_BOX:
    case RD_N_DETAILS:
        if (n->kind == RD_N_DETAILS) {
            sb_puts(b, "_");
            rm_text(b, n->text);
            sb_puts(b, "_\n\n");
        }
        md_blocks(b, n);
        break;
    case RD_N_KV:
        sb_puts(b, "| | |\n|---|---|\n");
        for (const rd_node *row = n->first; row; row = row->next) {
            sb_puts(b, "| ");
            rm_text(b, row->text);
            sb_puts(b, " | ");
            md_inlines(b, row->first);
            sb_puts(b, " |\n");
        }
        sb_putc(b, '\n');
        break;
    case RD_N_TABLE: md_table(b, n); break;
    case RD_N_CODE:
        sb_puts(b, "```\n");
        for (const rd_node *l = n->first; l; l = l->next) rm_pre_line(b, l->text);
        sb_puts(b, "```\n\n");
        break;
    case RD_N_LIST:
        for (const rd_node *it = n->first; it; it = it->next) {
            sb_puts(b, "- ");
            md_inlines(b, it);
            sb_putc(b, '\n');
        }
        sb_putc(b, '\n');
        break;
    case RD_N_FIGURE:
        if (n->alt) sb_puts(b, n->alt);
        break;
    default: break;
    }
}

static void md_blocks(strbuf *b, const rd_node *parent)
{
    for (const rd_node *n = parent->first; n; n = n->next) md_block(b, n);
}

void rd_emit_md(strbuf *b, const rd_doc *d)
{
    if (!d) return;
    sb_puts(b, "# ");
    md_inlines(b, d->title);
    sb_puts(b, "\n\n");
    if (d->subtitle->first) {
        md_inlines(b, d->subtitle);
        sb_puts(b, "\n\n");
    }
    for (const rd_node *n = d->banners->first; n; n = n->next) {
        sb_puts(b, "> ");
        md_inlines(b, n);
        sb_puts(b, "\n\n");
    }
    for (const rd_node *s = d->body->first; s; s = s->next) {
        sb_puts(b, "## ");
        rm_text(b, s->text);
        sb_puts(b, "\n\n");
        md_blocks(b, s);
    }
}
