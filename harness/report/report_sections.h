/*
 * harness/report/report_sections.h: the report's sections, one table that
 * both index.html and summary.md walk. Each row is a section: its anchor
 * id, its title and its view, a function turning report.json (read
 * through report_key.h's cursors, so every key it asks for is recorded)
 * into nodes of a report_doc.h document. The HTML and Markdown renderers
 * build the document once and only emit it (report_doc_emit.c).
 *
 * A new section is one row in REPORT_SECTIONS plus one view (declared
 * below, defined in a report_view_*.c of its own), plus its keys in
 * report.json's schema when the section adds keys. Nothing here prints.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_SECTIONS_H
#define FF8_HARNESS_REPORT_REPORT_SECTIONS_H

#include <cjson/cJSON.h>

#include "harness/report/report_doc.h"
#include "harness/report/report_key.h"
#include "harness/report/report_view.h"
#include "harness/report/report_view_entity.h"

typedef struct rs_row rs_row;

/* What a view reads and where it writes. */
typedef struct rs_ctx {
    rd_doc *doc;
    rk root;                 /* report.json's root, recording keys when a log is attached */
    const cJSON *report;     /* the same tree, for helpers that read it through rv_* */
    const rv_index *ix;      /* results in order, files' counts (report_view.h) */
    const rv_entities *ents; /* the entity level (report_view_entity.h) */
    const rs_row *row;       /* the section being built */
} rs_ctx;

typedef void (*rs_view)(const rs_ctx *c);

struct rs_row {
    const char *id, *title;
    rs_view view;
};

/*
 * X(id, title, view): the sections in the order both renderings show them.
 * A view adds its section with rs_open (or nothing when the report has no
 * such part, e.g. no pose level).
 */
#define REPORT_SECTIONS(X)                                                                         \
    X("causes", "Causes", rs_view_causes)                                                          \
    X("quirks", "Quirks", rs_view_quirks)                                                          \
    X("run", "Run", rs_view_run)                                                                   \
    X("summary", "Summary", rs_view_summary)                                                       \
    X("fields", "What was compared", rs_view_fields)                                               \
    X("pose", "Pose convention", rs_view_pose)                                                     \
    X("pose-leaf", "Pose helpers (leaf level)", rs_view_pose_leaf)                                 \
    X("coverage", "Coverage of the original's routines", rs_view_coverage)                         \
    X("groups", "Mismatch groups", rs_view_groups)                                                 \
    X("whole-turns", "Differences a viewer never shows", rs_view_cells)                            \
    X("entities", "Entities", rs_view_entities)                                                    \
    X("files", "Files", rs_view_files)                                                             \
    X("nonmatching", "Non-matching results", rs_view_nonmatching)                                  \
    X("faults", "Faults", rs_view_faults)                                                          \
    X("bad-input", "Bad input", rs_view_bad_input)                                                 \
    X("leaf", "Leaf routines", rs_view_leaf)

#define RS_DECLARE(id, title, view) void view(const rs_ctx *c);
REPORT_SECTIONS(RS_DECLARE)
#undef RS_DECLARE

/* The title, banners and the line under the title (not a section: every report has them). */
void rs_view_head(const rs_ctx *c);

/* An entity group's example (report_view_entities.c), drawn by the groups' view. */
void rs_entity_example(rd_node *box, const rs_ctx *c, rk g, rv_labels l);

/* The rows, in order, and how many. */
const rs_row *rs_rows(size_t *n);

/*
 * Opens the row's section in the document; title NULL keeps the row's
 * title, else the given one (e.g. with a count: "Causes (2)").
 */
rd_node *rs_open(const rs_ctx *c, const char *title);
/* The same with a formatted title. */
rd_node *rs_openf(const rs_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The document of a report: the head, then every row's view. log (may be
 * NULL) receives every key the views asked for. NULL when out of memory.
 */
rd_doc *rs_build(const cJSON *report, rk_log *log);

#endif
