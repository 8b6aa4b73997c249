/*
 * harness/report/report_html.h: the pieces of the HTML written outside the
 * document layer (report_doc.h): the compared corpora's page
 * (report_cdiff.c) and the figures' markup (report_figure.c). Every string
 * from the report tree is escaped with sb_html.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_HTML_H
#define FF8_HARNESS_REPORT_REPORT_HTML_H

#include <cjson/cJSON.h>

#include "harness/report/report_view.h"
#include "harness/core/strbuf.h"

/* Escaped text ("" for NULL). */
void rh_text(strbuf *b, const char *s);
/* <tr><th>key</th><td>value</td></tr> rows of a class="kv" table ("none" when absent). */
void rh_kv(strbuf *b, const char *key, const char *val);
void rh_kv_num(strbuf *b, const char *key, const cJSON *o, const char *k);

#endif
