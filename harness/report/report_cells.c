/*
 * harness/report/report_cells.c: the differing values of mismatching clips,
 * classed by their effect on the pose (harness/core/cells.h): each result's
 * "cells" and the totals' "cells" in report.json (the section that lists
 * the whole-turn differences: report_view_cells.c).
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/field_model.h"
#include "harness/report/report.h"

static cJSON *cell_json(const cell_value *c)
{
    char name[64];
    field_id f = (field_id)c->field;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "tick", c->tick);
    cJSON_AddStringToObject(o, "field", field_name(f, c->bone, name, sizeof name));
    cJSON_AddStringToObject(o, "field_kind", field_kind_name(f));
    if (field_is_per_bone(f))
        cJSON_AddNumberToObject(o, "bone", c->bone);
    else
        cJSON_AddNullToObject(o, "bone");
    cJSON_AddNumberToObject(o, "ref", c->ref);
    cJSON_AddNumberToObject(o, "orig", c->orig);
    cJSON_AddStringToObject(o, "class", cell_class_name((cell_class)c->cls));
    if (c->mat == CELL_MAT_UNKNOWN)
        cJSON_AddNullToObject(o, "matrices");
    else
        cJSON_AddStringToObject(o, "matrices", c->mat == CELL_MAT_EQUAL ? "equal" : "differ");
    return o;
}

cJSON *report_cells_json(const cell_list *c)
{
    if (!c) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON *n = cJSON_AddObjectToObject(o, "counts");
    uint64_t total = 0;
    for (int k = 0; k < CELL__COUNT; k++) {
        cJSON_AddNumberToObject(n, cell_class_name((cell_class)k), (double)c->count[k]);
        total += c->count[k];
    }
    cJSON *m = cJSON_AddObjectToObject(o, "whole_turns_matrices");
    const char *from = cell_mat_from_name((cell_mat_from)c->mat_from);
    if (from)
        cJSON_AddStringToObject(m, "from", from);
    else
        cJSON_AddNullToObject(m, "from");
    cJSON_AddNumberToObject(m, "equal", (double)c->turns_equal);
    cJSON_AddNumberToObject(m, "differ", (double)c->turns_differ);
    cJSON *l = cJSON_AddArrayToObject(o, "listed");
    for (uint32_t i = 0; i < c->n; i++)
        cJSON_AddItemToArray(l, cell_json(&c->cell[i]));
    cJSON_AddNumberToObject(o, "unlisted", (double)(total - c->n));
    return o;
}

cJSON *report_cells_totals_json(const run_totals *t)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; k < CELL__COUNT; k++)
        cJSON_AddNumberToObject(o, cell_class_name((cell_class)k), (double)t->cells[k]);
    cJSON_AddNumberToObject(o, "whole_turns_matrices_equal", (double)t->turns_equal);
    cJSON_AddNumberToObject(o, "whole_turns_matrices_differ", (double)t->turns_differ);
    return o;
}
