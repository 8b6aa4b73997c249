/*
 * harness/report/report_quirks.h: the quirk pass in the report (which
 * clips exercise which of the engine's quirks, ref/quirks.h): report.json's
 * "quirks" (report_json_quirks.c) and the terminal's lines, which the
 * command line prints after the verdict (index.html and summary.md: the
 * section's view, report_view_quirks.c).
 */
#ifndef FF8_HARNESS_REPORT_REPORT_QUIRKS_H
#define FF8_HARNESS_REPORT_REPORT_QUIRKS_H

#include <cjson/cJSON.h>

#include "harness/core/results.h"
#include "harness/core/strbuf.h"

/* report.json "quirks": null when the pass did not run on any clip. */
cJSON *report_json_quirks(const run_results *res);
/* Lines for the terminal after the verdict: per quirk its clips ("" when null). */
void report_quirks_text(strbuf *b, const cJSON *report);

#endif
