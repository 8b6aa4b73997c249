/*
 * harness/report/report_json_base.h: the pieces report.json's builders
 * share (report_json.c, report_json_entity.c, report_json_causes.c): keys
 * added as valid UTF-8 strings, hex numbers, an error, a divergence, an
 * array of ints. Internal to harness/report; report_json_string and
 * report_json_fault, which the trace-set manifest shares, are in report.h.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_JSON_BASE_H
#define FF8_HARNESS_REPORT_REPORT_JSON_BASE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "harness/core/results.h"

/* o[key] = s as a valid UTF-8 string ("" for NULL). */
void rj_add_str(cJSON *o, const char *key, const char *s);
/* s as a valid UTF-8 string, or null when s is NULL. */
cJSON *rj_str_or_null(const char *s);
/* o[key] = "0x..." of v. */
void rj_add_hex(cJSON *o, const char *key, uint32_t v);
/* An error (null when e is NULL): kind, file, offset, reason, message. */
cJSON *report_json_error(const ff_error *e);
/*
 * A divergence (null unless r is a mismatch; its field named with its
 * model), with the stream window around the value's read.
 */
cJSON *report_json_divergence(const clip_result *r);
/* An array of n ints. */
cJSON *report_json_ints(const int32_t *v, size_t n);

#endif
