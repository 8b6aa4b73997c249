/*
 * harness/report/report_cells.h: the section of index.html and summary.md
 * on differences a viewer never shows (rotations off by whole turns), from
 * the results' and totals' "cells" of report.json (report_cells_json in
 * report.h). Internal to the renderers; nothing when the run has none.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_CELLS_H
#define FF8_HARNESS_REPORT_REPORT_CELLS_H

#include <cjson/cJSON.h>

#include "harness/core/strbuf.h"
#include "harness/report/report_view.h"

void report_cells_html(strbuf *b, const cJSON *report, const rv_index *ix);
void report_cells_md(strbuf *b, const cJSON *report, const rv_index *ix);

#endif
