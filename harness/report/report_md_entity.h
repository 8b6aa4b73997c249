/*
 * harness/report/report_md_entity.h: the entity level in summary.md
 * (report_md_entity.c), called by report_md.c; written with the pieces of
 * report_md_base.h. Internal to the Markdown renderer; reads the report
 * tree only.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_MD_ENTITY_H
#define FF8_HARNESS_REPORT_REPORT_MD_ENTITY_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "harness/core/strbuf.h"
#include "harness/report/report_view.h"
#include "harness/report/report_view_entity.h"

/* "## Entities": totals, the pairs with problems or pool mismatches, their first failures. */
void rm_entities(strbuf *b, const cJSON *report, const rv_entities *x);
/* The lines of an entity group after its heading: the example and its stream. */
void rm_entity_group(strbuf *b, const cJSON *g, const rv_entities *x, rv_labels l);

#endif
