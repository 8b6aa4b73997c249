/*
 * harness/report/report_causes.h: the causes, the explanation of a group's
 * example and the coverage of the original, in the report tree
 * (report_json_causes.c); the sections drawn from it are views
 * (report_view_causes.c, report_view_coverage.c), which read only the tree
 * and show a missing or ill-typed key as absent. Internal to harness/report.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_CAUSES_H
#define FF8_HARNESS_REPORT_REPORT_CAUSES_H

#include <cjson/cJSON.h>

#include "harness/core/results.h"
#include "harness/core/strbuf.h"

/* report.json pieces. */
cJSON *report_json_causes(const run_results *res);
cJSON *report_json_coverage(const res_coverage *c);
/*
 * A group's or a result's explanation; null when it was not explained. The
 * read logs' window only with_window (a group's example: one per group; a
 * result explained on its own keeps report.json small without it).
 */
cJSON *report_json_explain(const res_explain *e, int with_window);

/*
 * One read of a window as text: "ReadRotationType = -300  3.6 -> 5.5", a
 * bitReader with its count ("bitReader(12) = ..."), indented by its depth.
 * From the tree; "?" parts when keys are missing.
 */
void report_read_text(const cJSON *read, char *out, size_t n);
/* The group whose "id" is id in the report, or NULL. */
const cJSON *report_group_by_id(const cJSON *report, int64_t id);

#endif
