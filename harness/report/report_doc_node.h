/*
 * harness/report/report_doc_node.h: the document tree's nodes, shared by
 * its builders (report_doc.c) and its emitters (report_doc_emit.c) only;
 * views build through report_doc.h and never see a node's fields.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_DOC_NODE_H
#define FF8_HARNESS_REPORT_REPORT_DOC_NODE_H

#include <stddef.h>

#include "harness/report/report_doc.h"

typedef enum rd_kind {
    RD_N_SECTION, /* text: title */
    RD_N_BANNER,  /* flags: rd_banner_kind; inlines */
    RD_N_HEADING, /* inlines */
    RD_N_PARA,    /* inlines; cls */
    RD_N_BOX,     /* blocks */
    RD_N_KV,      /* rows: text the key, one inline child the value */
    RD_N_TABLE,   /* heads[ncols], rows of cells; flags: numeric columns; fold */
    RD_N_ROW,     /* cells (inline containers) */
    RD_N_INLINES, /* a cell, item, title: runs */
    RD_N_CODE,    /* runs, one a line */
    RD_N_LIST,    /* items */
    RD_N_FIGURE,  /* text: HTML as it is; alt: Markdown as it is, or NULL */
    RD_N_DETAILS, /* text: summary; blocks */
    RD_N_RUN,     /* text in a style */
    RD_N_LINK,    /* text; alt: href */
    RD_N_BADGE,   /* text; cls; id */
} rd_kind;

struct rd_node {
    rd_kind kind;
    rd_style style;
    unsigned flags;
    const char *id, *cls, *text, *alt;
    const char **heads;
    size_t ncols, fold, count;
    rd_node *first, *last, *next;
    rd_doc *doc;
};

typedef struct arena_block arena_block;

struct rd_doc {
    arena_block *arena;
    int failed;
    rd_node *title, *subtitle, *banners, *body;
};

/* Zeroed memory from the document's arena (NULL and the document failed when out of memory). */
void *rd_alloc(rd_doc *d, size_t n);
const char *rd_strdup(rd_doc *d, const char *s);
/* A node appended to parent's children (parent may be NULL: a root of the document). */
rd_node *rd_node_new(rd_doc *d, rd_node *parent, rd_kind kind);

#endif
