/*
 * harness/report/report_doc.c: the document tree's builders, over an arena
 * freed at once (report_doc.h). The two emitters are in report_doc_emit.c.
 *
 * Must not read report.json, print or exit; a failed allocation marks the
 * document failed and the builders go on with NULL.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report_doc_node.h"

#define ARENA_BLOCK 65536

typedef struct arena_block {
    struct arena_block *next;
    size_t used, size;
    max_align_t data[];
} arena_block;

rd_doc *rd_new(void)
{
    rd_doc *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->title = rd_node_new(d, NULL, RD_N_INLINES);
    d->subtitle = rd_node_new(d, NULL, RD_N_INLINES);
    d->banners = rd_node_new(d, NULL, RD_N_BOX);
    d->body = rd_node_new(d, NULL, RD_N_BOX);
    return d;
}

void rd_free(rd_doc *d)
{
    if (!d) return;
    for (arena_block *b = d->arena, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(d);
}

int rd_failed(const rd_doc *d)
{
    return !d || d->failed;
}

void *rd_alloc(rd_doc *d, size_t n)
{
    if (!d) return NULL;
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    arena_block *b = d->arena;
    if (!b || b->size - b->used < n) {
        size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = malloc(sizeof *b + size);
        if (!b) {
            d->failed = 1;
            return NULL;
        }
        b->next = d->arena, b->used = 0, b->size = size;
        d->arena = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

const char *rd_strdup(rd_doc *d, const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = rd_alloc(d, n);
    if (p) memcpy(p, s, n);
    return p;
}

rd_node *rd_node_new(rd_doc *d, rd_node *parent, rd_kind kind)
{
    rd_node *n = rd_alloc(d, sizeof *n);
    if (!n) return NULL;
    n->kind = kind;
    n->doc = d;
    if (parent) {
        if (parent->last)
            parent->last->next = n;
        else
            parent->first = n;
        parent->last = n;
        parent->count++;
    }
    return n;
}

/* A child of parent (none when parent is NULL: an earlier allocation failed). */
static rd_node *child(rd_node *parent, rd_kind kind, const char *id)
{
    if (!parent) return NULL;
    rd_node *n = rd_node_new(parent->doc, parent, kind);
    if (n) n->id = rd_strdup(parent->doc, id);
    return n;
}

rd_node *rd_title(rd_doc *d)
{
    return d ? d->title : NULL;
}

rd_node *rd_subtitle(rd_doc *d)
{
    return d ? d->subtitle : NULL;
}

rd_node *rd_section(rd_doc *d, const char *id, const char *title)
{
    rd_node *n = child(d ? d->body : NULL, RD_N_SECTION, id);
    if (n) n->text = rd_strdup(d, title);
    return n;
}

rd_node *rd_banner(rd_doc *d, rd_banner_kind kind, const char *id)
{
    rd_node *n = child(d ? d->banners : NULL, RD_N_BANNER, id);
    if (n) n->flags = (unsigned)kind;
    return n;
}

rd_node *rd_heading(rd_node *parent, const char *id)
{
    return child(parent, RD_N_HEADING, id);
}

rd_node *rd_para(rd_node *parent, const char *cls)
{
    rd_node *n = child(parent, RD_N_PARA, NULL);
    if (n) n->cls = rd_strdup(n->doc, cls);
    return n;
}

rd_node *rd_box(rd_node *parent, const char *id)
{
    return child(parent, RD_N_BOX, id);
}

rd_node *rd_card(rd_node *parent, const char *id, const char *cls)
{
    rd_node *n = child(parent, RD_N_BOX, id);
    if (n) n->cls = rd_strdup(n->doc, cls);
    return n;
}

rd_node *rd_kv(rd_node *parent, const char *id)
{
    return child(parent, RD_N_KV, id);
}

rd_node *rd_kv_row(rd_node *kv, const char *key, const char *id)
{
    rd_node *row = child(kv, RD_N_ROW, NULL);
    if (row) row->text = rd_strdup(row->doc, key);
    return child(row, RD_N_INLINES, id);
}

rd_node *rd_table(rd_node *parent, const char *id, size_t ncols, const char *const *heads,
                  size_t fold)
{
    rd_node *t = child(parent, RD_N_TABLE, id);
    if (!t) return NULL;
    t->ncols = ncols;
    t->fold = fold ? fold : RD_FOLD_ROWS;
    const char **h = rd_alloc(t->doc, (ncols ? ncols : 1) * sizeof *h);
    for (size_t i = 0; h && i < ncols; i++) h[i] = rd_strdup(t->doc, heads[i]);
    t->heads = h;
    return t;
}

void rd_table_num(rd_node *table, size_t col)
{
    if (table && col < 32) table->flags |= 1u << col;
}

rd_node *rd_row(rd_node *table, const char *id)
{
    return child(table, RD_N_ROW, id);
}

rd_node *rd_cell(rd_node *row)
{
    return child(row, RD_N_INLINES, NULL);
}

rd_node *rd_code_block(rd_node *parent)
{
    return child(parent, RD_N_CODE, NULL);
}

void rd_code_line(rd_node *code, const char *line, int marked)
{
    rd_node *n = child(code, RD_N_RUN, NULL);
    if (!n) return;
    n->text = rd_strdup(n->doc, line ? line : "");
    n->style = marked ? RD_STRONG : RD_PLAIN;
}

rd_node *rd_list(rd_node *parent)
{
    return child(parent, RD_N_LIST, NULL);
}

rd_node *rd_item(rd_node *list)
{
    return child(list, RD_N_INLINES, NULL);
}

void rd_figure(rd_node *parent, const char *html, const char *md)
{
    rd_node *n = child(parent, RD_N_FIGURE, NULL);
    if (!n) return;
    n->text = rd_strdup(n->doc, html ? html : "");
    n->alt = rd_strdup(n->doc, md);
}

rd_node *rd_details(rd_node *parent, const char *summary)
{
    rd_node *n = child(parent, RD_N_DETAILS, NULL);
    if (n) n->text = rd_strdup(n->doc, summary);
    return n;
}

void rd_text(rd_node *in, rd_style style, const char *s)
{
    rd_node *n = child(in, RD_N_RUN, NULL);
    if (!n) return;
    n->style = style;
    n->text = rd_strdup(n->doc, s ? s : "");
}

void rd_textf(rd_node *in, rd_style style, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        rd_text(in, style, small);
        return;
    }
    char *big = in ? rd_alloc(in->doc, (size_t)n + 1) : NULL;
    if (!big) return;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    rd_node *r = child(in, RD_N_RUN, NULL);
    if (r) r->style = style, r->text = big;
}

void rd_link(rd_node *in, const char *href, const char *text)
{
    rd_node *n = child(in, RD_N_LINK, NULL);
    if (!n) return;
    n->text = rd_strdup(n->doc, text ? text : "");
    n->alt = rd_strdup(n->doc, href ? href : "");
}

void rd_badge(rd_node *in, const char *cls, const char *id, const char *text)
{
    rd_node *n = child(in, RD_N_BADGE, id);
    if (!n) return;
    n->cls = rd_strdup(n->doc, cls);
    n->text = rd_strdup(n->doc, text ? text : "");
}
