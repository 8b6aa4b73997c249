/*
 * harness/report/report_html_entity.h: the entity level's parts of
 * index.html (report_html_entity.c), placed by the section table
 * (report_view_text.c, report_view_groups.c). Internal to
 * the HTML renderer; reads the report tree only.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_HTML_ENTITY_H
#define FF8_HARNESS_REPORT_REPORT_HTML_ENTITY_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "harness/core/strbuf.h"
#include "harness/report/report_view.h"
#include "harness/report/report_view_entity.h"

/* The <section id="entities"> (nothing without the entity level). */
void rh_entities(strbuf *b, const cJSON *report, const rv_entities *x);
/* The body of an entity group: its example with the diverging channel and stream. */
void rh_entity_example(strbuf *b, const cJSON *g, const rv_entities *x, rv_labels l);

#endif
