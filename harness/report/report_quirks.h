/*
 * harness/report/report_quirks.h: the quirk pass in the report (which
 * clips exercise which of the engine's quirks, ref/quirks.h): report.json's
 * "quirks" (report_json_quirks.c) and its renderings, each from the tree
 * alone (report_quirks_md.c, report_quirks_html.c, and the terminal's
 * lines, which the command line prints after the verdict).
 */
#ifndef FF8_HARNESS_REPORT_REPORT_QUIRKS_H
#define FF8_HARNESS_REPORT_REPORT_QUIRKS_H

#include <cjson/cJSON.h>

#include "harness/core/results.h"
#include "harness/core/strbuf.h"

/* report.json "quirks": null when the pass did not run on any clip. */
cJSON *report_json_quirks(const run_results *res);
/* The "Quirks" section of summary.md / index.html from report (nothing when null). */
void report_quirks_md(strbuf *b, const cJSON *report);
void report_quirks_html(strbuf *b, const cJSON *report);
/* Lines for the terminal after the verdict: per quirk its clips ("" when null). */
void report_quirks_text(strbuf *b, const cJSON *report);

#endif
