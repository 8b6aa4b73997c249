/*
 * harness/report/report_json_entity.h: the entity level's part of
 * report.json (harness/report/report_json.c builds the rest): the
 * entities with their in-hand offset plots, one record per entity result,
 * the entity totals and an entity group's example. Like report_json.c it
 * only turns results into report data; nothing is recomputed here.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_JSON_ENTITY_H
#define FF8_HARNESS_REPORT_REPORT_JSON_ENTITY_H

#include <cjson/cJSON.h>

#include "harness/core/results.h"

/* Adds "entities" and "entity_results" (empty arrays without the entity level) to root. */
void report_json_entities(cJSON *root, const run_results *r);
/* The "entity" object of "totals". */
cJSON *report_json_entity_totals(const run_results *r);
/* Fills an entity group's "example", "series" and "writer" (group object o, its example ex). */
void report_json_entity_example(const run_results *r, const res_group *g, cJSON *o, cJSON *ex);

#endif
