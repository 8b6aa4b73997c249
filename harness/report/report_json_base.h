/*
 * harness/report/report_json_base.h: the pieces report.json's builders
 * share (report_json.c, report_json_entity.c, report_json_causes.c): an
 * error, a divergence, a clip on both engines, an array of ints. Internal to harness/report; the
 * pieces the trace-set manifest shares (strings, hex, a fault, the run's
 * identity) are harness/core/json_out.h's.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_JSON_BASE_H
#define FF8_HARNESS_REPORT_REPORT_JSON_BASE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "harness/core/json_out.h"
#include "harness/core/results.h"

/* An error (null when e is NULL): kind, file, offset, reason, message. */
cJSON *report_json_error(const ff_error *e);
/*
 * A divergence (null unless r is a mismatch; its field named with its
 * model), with the stream window around the value's read.
 */
cJSON *report_json_divergence(const clip_result *r);
/* --engine both: one clip on the two engines (its first difference's model named at the
 * entity level). */
cJSON *report_json_both(const res_both *e);
/* An array of n ints. */
cJSON *report_json_ints(const int32_t *v, size_t n);

#endif
