/*
 * harness/report/report_cdiff.h: a corpus diff's views, rendered from its
 * CDIFF_SCHEMA document alone (harness/core/cdiff.h): the terminal text and
 * an HTML page holding one "Corpus diff" section styled as the run
 * report's sections.
 *
 * Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_CDIFF_H
#define FF8_HARNESS_REPORT_REPORT_CDIFF_H

#include <cjson/cJSON.h>

#include "harness/core/strbuf.h"

/* The summary and one block per file that is not identical; limit: clips shown per file (0: all).
 */
void report_cdiff_text(const cJSON *doc, unsigned limit, strbuf *out);
/* The section alone (for a page of the caller's). */
void report_cdiff_section(const cJSON *doc, strbuf *out);
/* A whole page: the run report's style, then the section. */
void report_cdiff_html(const cJSON *doc, strbuf *out);

#endif
