/*
 * harness/report/report_view_entity.h: read-only access to the entity
 * level of a report tree ("entities", "entity_results") for the renderers:
 * per entity and mode the count of each status with the first failing and
 * first bad result, and lookups by index. Like report_view.h it only counts
 * what the JSON says, tolerates missing or ill-typed keys, never recomputes
 * and never prints.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_VIEW_ENTITY_H
#define FF8_HARNESS_REPORT_REPORT_VIEW_ENTITY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/core/modes.h"
#include "harness/core/results.h"
#include "harness/core/strbuf.h"

typedef struct rv_entity {
    const cJSON *e;   /* its "entities" element; NULL when results name an unlisted one */
    const char *body; /* file names ("" when absent), weapon NULL without a weapon slot */
    const char *weapon;
    char pair[520]; /* "body+weapon", or the body alone */
    uint64_t n[MODE__COUNT][RES__COUNT];
    const cJSON *first_fail[MODE__COUNT]; /* first mismatch or fault in that mode */
    const cJSON *first_bad[MODE__COUNT];  /* first bad_input in that mode */
} rv_entity;

typedef struct rv_entities {
    size_t n;
    rv_entity *e; /* "entities" order */
    size_t nresults;
    const cJSON **results;          /* "entity_results", in order */
    unsigned modes;                 /* every mode seen in entity results */
    uint64_t by_status[RES__COUNT]; /* counted over entity results */
} rv_entities;

/* Builds the view. Returns 0, or -1 when memory runs out (x then empty; free is safe). */
int rv_entities_build(const cJSON *report, rv_entities *x);
void rv_entities_free(rv_entities *x);
/* Entity result i, NULL when out of range. */
const cJSON *rv_entity_result(const rv_entities *x, int64_t i);
/* 1 when the report ran the entity level (run.levels says so, or it holds entities). */
int rv_entity_level(const cJSON *report);

/*
 * One entity's QueueAnimation probe under one status ("queue" element):
 * each side's speed bits as text ("2", or "2/2" body/weapon; "" when not
 * known) and whether they match (1), differ (0) or cannot tell (-1).
 */
typedef struct rv_queue {
    const char *status; /* "haste" */
    int64_t byte;       /* 0x40 */
    char ref[8], orig[8];
    int match;
} rv_queue;
/* The probes of entity en, up to cap of them into q; returns how many it holds. */
size_t rv_entity_queue(const rv_entity *en, rv_queue *q, size_t cap);

/*
 * The reason most entities without a weapon share (their "why_text"), said
 * once above the table instead of on each row; NULL when no reason is
 * shared by two entities or more. *count gets how many share it.
 */
const char *rv_entities_common_why(const rv_entities *x, size_t *count);
/*
 * Entities against files, in words for the caller to escape: how many
 * files, how many entities, and why they differ, from the manifest (files
 * by kind, bad ones) and the entities (with a weapon or alone).
 */
void rv_entities_story(strbuf *b, const cJSON *report, const rv_entities *x);

#endif
