/*
 * harness/report/report_doc.h: the report as a format-neutral document, a
 * tree of sections, headings, paragraphs, banners, key-value tables,
 * tables with a header row, code blocks and figures, built by the views
 * (report_sections.h) from report.json and written by two emitters:
 * rd_emit_html (index.html's body) and rd_emit_md (summary.md's).
 *
 * Every node lives in the document's arena and is freed with it; a node
 * that cannot be allocated makes the document failed (rd_failed) and the
 * builders quietly accept NULL parents, so a view never checks. Text given
 * to the builders is copied and escaped by each emitter; figure nodes carry
 * markup the HTML emitter writes as it is (their maker escapes) and a line
 * of text for Markdown. Long tables are folded by the emitters, once for
 * every table: the first rows shown, the rest behind <details> in HTML and
 * counted in Markdown. Nothing here reads report.json, prints or exits.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_DOC_H
#define FF8_HARNESS_REPORT_REPORT_DOC_H

#include <stddef.h>

#include "harness/core/strbuf.h"

/* Rows a table shows before the rest is folded (a table may ask for another count). */
#define RD_FOLD_ROWS 25

typedef struct rd_doc rd_doc;
typedef struct rd_node rd_node;

/* Inline styles of a text run. */
typedef enum rd_style {
    RD_PLAIN,  /* prose */
    RD_CODE,   /* a name, a value, an instruction: <code>, `code` */
    RD_STRONG, /* <strong>, **bold** */
    RD_MUTED,  /* an aside: muted in HTML, plain in Markdown */
    RD_TAG,    /* a label beside a title: a tag in HTML, [label] in Markdown */
    RD_NAME,   /* a file or entity name: never broken inside (nowrap / code span) */
} rd_style;

/* Banner kinds (the page's coloured boxes; a quote in Markdown). */
typedef enum rd_banner_kind { RD_NOTE, RD_WARN, RD_STOP } rd_banner_kind;

/* Cell flags. */
#define RD_NUM 1u /* a number: right-aligned */

rd_doc *rd_new(void);
void rd_free(rd_doc *d);
/* 1 when an allocation failed while building: the document is incomplete. */
int rd_failed(const rd_doc *d);

/* The document's title and its line under the title (inline containers). */
rd_node *rd_title(rd_doc *d);
rd_node *rd_subtitle(rd_doc *d);
/* A top-level section, in the order added; id is its anchor, title its heading. */
rd_node *rd_section(rd_doc *d, const char *id, const char *title);
/* Banners above the sections (interruption, warnings, notes). */
rd_node *rd_banner(rd_doc *d, rd_banner_kind kind, const char *id);

/* Blocks (parent: a section, a box, a details node or a banner). */
rd_node *rd_heading(rd_node *parent, const char *id); /* a sub-heading: inline container */
rd_node *rd_para(rd_node *parent, const char *cls);   /* inline container; cls e.g. "muted" */
rd_node *rd_box(rd_node *parent, const char *id);     /* a card: blocks kept together */
/* A card with a class of its own beside card-box (HTML only: "group"). */
rd_node *rd_card(rd_node *parent, const char *id, const char *cls);
rd_node *rd_kv(rd_node *parent, const char *id);      /* key-value table */
/* A row of a key-value table: its value cell (an inline container), id may be NULL. */
rd_node *rd_kv_row(rd_node *kv, const char *key, const char *id);
/* A table whose header row is heads[0..ncols); fold rows after `fold` (0: RD_FOLD_ROWS). */
rd_node *rd_table(rd_node *parent, const char *id, size_t ncols, const char *const *heads,
                  size_t fold);
/* Marks column col of a table numeric (right-aligned). */
void rd_table_num(rd_node *table, size_t col);
rd_node *rd_row(rd_node *table, const char *id);
rd_node *rd_cell(rd_node *row); /* inline container */
/* A code block, one line per rd_code_line; a marked line is highlighted in HTML (the EIP). */
rd_node *rd_code_block(rd_node *parent);
void rd_code_line(rd_node *code, const char *line, int marked);
/* A list; each item an inline container. */
rd_node *rd_list(rd_node *parent);
rd_node *rd_item(rd_node *list);
/*
 * A figure: html written into index.html as it is (the caller escaped
 * it: an SVG plot, a stream table), md written into summary.md as it is
 * (the caller escaped it too: a list of the stream's bytes; NULL: the
 * figure is left out of summary.md).
 */
void rd_figure(rd_node *parent, const char *html, const char *md);
/* A folded tail: <details> with its summary line in HTML, the blocks inline in Markdown. */
rd_node *rd_details(rd_node *parent, const char *summary);

/* Inline text (parent: a title, heading, paragraph, cell, item or banner). */
void rd_text(rd_node *in, rd_style style, const char *s);
void rd_textf(rd_node *in, rd_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A link to an anchor of the page ("#cause-1") or to a file beside it (text alone in Markdown). */
void rd_link(rd_node *in, const char *href, const char *text);
/* A badge (the verdict): <span class="cls" id="id"> in HTML, **text** in Markdown. */
void rd_badge(rd_node *in, const char *cls, const char *id, const char *text);

/* The body of index.html (header, banners, sections) and all of summary.md. */
void rd_emit_html(strbuf *b, const rd_doc *d);
void rd_emit_md(strbuf *b, const rd_doc *d);

#endif
