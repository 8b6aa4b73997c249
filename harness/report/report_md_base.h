/*
 * harness/report/report_md_base.h: the pieces summary.md is written with,
 * shared by the Markdown emitter (report_doc_emit.c) and the views' stream
 * figures. Internal to the Markdown rendering; they read only
 * the report tree and show a missing key as absent.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_MD_BASE_H
#define FF8_HARNESS_REPORT_REPORT_MD_BASE_H

#include <cjson/cJSON.h>

#include "harness/core/strbuf.h"
#include "harness/report/report_view.h"
#include "harness/report/report_view_entity.h"

/* Text escaped for Markdown prose and table cells ("" for NULL). */
void rm_text(strbuf *b, const char *s);
/* s as an inline code span that is also safe inside a table cell. */
void rm_code(strbuf *b, const char *s);
/* One line of a fenced block: nothing that could close the fence. */
void rm_pre_line(strbuf *b, const char *s);
/* A divergence's stream window as list items: bytes, bits, the value's read, the cursor. */
void rm_stream_lines(strbuf *b, const cJSON *divergence);

#endif
