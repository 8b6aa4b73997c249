/*
 * harness/report/report_html.h: the pieces of index.html's sections still
 * written as HTML text (causes, pose, entities), shared by their writers
 * (report_html_entity.c, report_causes_html.c, report_pose.c, report_cdiff.c).
 * Every string from the report tree is escaped with sb_html.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_HTML_H
#define FF8_HARNESS_REPORT_REPORT_HTML_H

#include <cjson/cJSON.h>

#include "harness/report/report_view.h"
#include "harness/report/report_view_entity.h"
#include "harness/core/strbuf.h"

/* Caps that keep the page readable for a corpus of any size. */
#define RH_MAX_LISTED 200 /* entities drawn with their failures */

/* Escaped text ("" for NULL); with rh_text_or, absent or "" shows `absent`. */
void rh_text(strbuf *b, const char *s);
void rh_text_or(strbuf *b, const char *s, const char *absent);
/* <tr><th>key</th><td>value</td></tr> rows of a class="kv" table. */
void rh_kv(strbuf *b, const char *key, const char *val);
void rh_kv_num(strbuf *b, const char *key, const cJSON *o, const char *k);
/* "a, b" of a string array. */
void rh_list(strbuf *b, const cJSON *arr);
/* o[key] in a <span class=cls>, with hex when field_kind is a flag byte. */
void rh_value(strbuf *b, const cJSON *o, const char *key, const char *field_kind, const char *cls);
/* A <td> of clip counts by status, one pill each ("-" when all are 0). */
void rh_status_cell(strbuf *b, const uint64_t n[RES__COUNT]);


#endif
