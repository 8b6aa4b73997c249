/*
 * harness/report/report_json_entity.c: the entity level in report.json.
 */
#include "harness/report/report_json_entity.h"

#include <string.h>

#include "corpus/pairs.h"
#include "harness/core/field_model.h"
#include "harness/report/report.h"
#include "harness/report/report_json_base.h"

static cJSON *name_or_null(const run_results *r, int32_t file)
{
    return file >= 0 ? json_string(r->files[file].name) : cJSON_CreateNull();
}

static cJSON *int_or_null(int64_t v)
{
    return v >= 0 ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

static cJSON *triple(const int16_t v[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < 3; k++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[k]));
    return a;
}

/* The in-hand offset over one clip's ticks: per axis, the reference's and the original's. */
static cJSON *plot_json(const res_entity *e)
{
    if (e->plot_clip < 0) return cJSON_CreateNull();
    static const char *const axes[3] = {"x", "y", "z"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "clip", e->plot_clip);
    json_add_str(o, "mode", mode_name(e->plot_mode));
    cJSON_AddNumberToObject(o, "ticks_ref", (double)e->offset[0].ref_n);
    cJSON_AddNumberToObject(o, "ticks_orig", (double)e->offset[0].orig_n);
    for (int k = 0; k < 3; k++) {
        const res_series *s = &e->offset[k];
        cJSON *a = cJSON_AddObjectToObject(o, axes[k]);
        cJSON_AddItemToObject(a, "ref", report_json_ints(s->ref, s->ref_n));
        cJSON_AddItemToObject(a, "orig", report_json_ints(s->orig, s->orig_n));
    }
    return o;
}

/* {"body": n, "weapon": n|null} from a side's speed bits; null when the body's is not known. */
static cJSON *speed_json(const int8_t v[2])
{
    if (v[0] < 0) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "body", v[0]);
    cJSON_AddItemToObject(o, "weapon", int_or_null(v[1]));
    return o;
}

/* The speed bits after QueueAnimation under each entity status, both sides. */
static cJSON *queue_json(const res_entity *e)
{
    cJSON *a = cJSON_CreateArray();
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++) {
        const res_queue *q = &e->queue[s];
        cJSON *o = cJSON_CreateObject();
        json_add_str(o, "status", entity_status_name((entity_status_id)s));
        cJSON_AddNumberToObject(o, "byte", entity_status_byte((entity_status_id)s));
        json_add_str(o, "mode", mode_name(entity_status_mode((entity_status_id)s)));
        cJSON_AddItemToObject(o, "ref", speed_json(q->ref));
        cJSON_AddItemToObject(o, "orig", speed_json(q->orig));
        if (q->ref[0] < 0 || q->orig[0] < 0)
            cJSON_AddNullToObject(o, "match");
        else
            cJSON_AddBoolToObject(o, "match", q->ref[0] == q->orig[0] && q->ref[1] == q->orig[1]);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *entity_json(const run_results *r, size_t i)
{
    const res_entity *e = &r->entities[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)i);
    cJSON_AddItemToObject(o, "body", name_or_null(r, (int32_t)e->body));
    cJSON_AddItemToObject(o, "weapon", name_or_null(r, e->weapon));
    json_add_str(o, "why", pairs_noweapon_name((pairs_noweapon)e->why));
    json_add_str(o, "why_text", pairs_noweapon_text((pairs_noweapon)e->why));
    cJSON_AddNumberToObject(o, "body_clips", e->body_clips);
    cJSON_AddNumberToObject(o, "weapon_clips", e->weapon_clips);
    cJSON_AddNumberToObject(o, "clips", e->clips);
    cJSON_AddBoolToObject(o, "pool_mismatch", e->pool_mismatch);
    cJSON *att = cJSON_AddObjectToObject(o, "attach");
    cJSON_AddItemToObject(att, "rotation", triple(e->attach_rot));
    cJSON_AddItemToObject(att, "translation", triple(e->attach_trans));
    cJSON_AddItemToObject(o, "shares", int_or_null(e->shares));
    cJSON_AddItemToObject(o, "plot", plot_json(e));
    cJSON_AddItemToObject(o, "queue", queue_json(e));
    return o;
}

static cJSON *result_json(const run_results *r, size_t i)
{
    const entity_result *er = &r->entity_results[i];
    const res_entity *e = &r->entities[er->entity];
    const clip_result *c = &er->r;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "entity", er->entity);
    cJSON_AddItemToObject(o, "body", name_or_null(r, (int32_t)e->body));
    cJSON_AddItemToObject(o, "weapon", name_or_null(r, e->weapon));
    cJSON_AddNumberToObject(o, "clip", c->clip);
    json_add_str(o, "mode", mode_name(c->mode));
    json_add_str(o, "status", res_status_name(c->status));
    json_add_str(o, "source", res_source_name(c->source));
    cJSON_AddNumberToObject(o, "frames", c->frames);
    cJSON_AddItemToObject(o, "weapon_frames",
                          e->weapon >= 0 ? cJSON_CreateNumber(er->weapon_frames)
                                         : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "ticks_ref", c->ref_ticks);
    cJSON_AddNumberToObject(o, "ticks_orig", c->orig_ticks);
    cJSON *we = cJSON_AddObjectToObject(o, "weapon_end");
    cJSON_AddItemToObject(we, "ref", int_or_null(er->weapon_end_ref));
    cJSON_AddItemToObject(we, "orig", int_or_null(er->weapon_end_orig));
    if (c->group >= 0)
        cJSON_AddNumberToObject(o, "group", c->group);
    else
        cJSON_AddNullToObject(o, "group");
    cJSON *div = report_json_divergence(c);
    if (cJSON_IsObject(div)) json_add_str(div, "model", field_model_name(c->div.model));
    if (c->status == RES_MISMATCH && c->cause >= 0 && (size_t)c->cause < r->ncauses)
        cJSON_AddNumberToObject(o, "cause", c->cause);
    else
        cJSON_AddNullToObject(o, "cause");
    cJSON_AddItemToObject(o, "divergence", div);
    cJSON_AddItemToObject(o, "fault", json_fault(c->fault));
    if (c->eng.state != RES_ENG_NONE)
        cJSON_AddItemToObject(o, "engines", report_json_both(&c->eng));
    cJSON_AddItemToObject(o, "error", report_json_error(c->error));
    return o;
}

void report_json_entities(cJSON *root, const run_results *r)
{
    cJSON *ents = cJSON_AddArrayToObject(root, "entities");
    for (size_t i = 0; i < r->nentities; i++)
        cJSON_AddItemToArray(ents, entity_json(r, i));
    cJSON *res = cJSON_AddArrayToObject(root, "entity_results");
    for (size_t i = 0; i < r->nentity_results; i++)
        cJSON_AddItemToArray(res, result_json(r, i));
}

cJSON *report_json_entity_totals(const run_results *r)
{
    const run_totals *t = &r->totals;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "entities", (double)t->entities);
    cJSON_AddNumberToObject(o, "armed", (double)t->entities_armed);
    cJSON_AddNumberToObject(o, "pool_mismatches", (double)t->pool_mismatches);
    cJSON_AddNumberToObject(o, "comparisons", (double)t->entity_comparisons);
    for (int s = 0; s < RES__COUNT; s++)
        cJSON_AddNumberToObject(o, res_status_name((res_status)s), (double)t->entity_by_status[s]);
    cJSON *src = cJSON_AddObjectToObject(o, "sources");
    for (int s = 0; s < RES_SRC__COUNT; s++)
        cJSON_AddNumberToObject(src, res_source_name((res_source)s),
                                (double)t->entity_by_source[s]);
    cJSON_AddNumberToObject(o, "queue_mismatches", (double)t->queue_mismatches);
    cJSON *eng = cJSON_AddObjectToObject(o, "engines");
    for (int k = 0; k < RES_ENG__COUNT; k++)
        cJSON_AddNumberToObject(eng, res_eng_name((res_eng)k), (double)t->entity_engines[k]);
    /* The modes QueueAnimation can produce, those run; those it cannot, and why. */
    cJSON *can = cJSON_AddArrayToObject(o, "modes_possible");
    cJSON *ran = cJSON_AddArrayToObject(o, "modes");
    cJSON *not = cJSON_AddArrayToObject(o, "modes_frame_only");
    for (int m = 0; m < MODE__COUNT; m++) {
        cJSON *name = json_string(mode_name((mode_id)m));
        if (mode_entity_why_not((mode_id)m)) {
            cJSON *n = cJSON_CreateObject();
            cJSON_AddItemToObject(n, "mode", name);
            json_add_str(n, "why", mode_entity_why_not((mode_id)m));
            cJSON_AddItemToArray(not, n);
            continue;
        }
        cJSON_AddItemToArray(can, name);
        if (r->entity_modes & (1u << m)) cJSON_AddItemToArray(ran, json_string(mode_name((mode_id)m)));
    }
    return o;
}

void report_json_entity_example(const run_results *r, const res_group *g, cJSON *o, cJSON *ex)
{
    const entity_result *er = &r->entity_results[g->example];
    const res_entity *e = &r->entities[er->entity];
    const clip_result *c = &er->r;
    char name[64];
    field_model_field_name(c->div.model, c->div.field, c->div.bone, name, sizeof name);
    cJSON_AddNumberToObject(ex, "result", (double)g->example);
    cJSON_AddNumberToObject(ex, "entity", er->entity);
    cJSON_AddItemToObject(ex, "file", name_or_null(r, (int32_t)e->body));
    cJSON_AddItemToObject(ex, "weapon", name_or_null(r, e->weapon));
    cJSON_AddNumberToObject(ex, "clip", c->clip);
    json_add_str(ex, "mode", mode_name(c->mode));
    cJSON_AddNumberToObject(ex, "tick", (double)c->div.tick);
    json_add_str(ex, "field", name);
    json_add_str(ex, "model", field_model_name(c->div.model));
    cJSON_AddNumberToObject(ex, "ref", c->div.ref);
    cJSON_AddNumberToObject(ex, "orig", c->div.orig);
    cJSON *s = cJSON_AddObjectToObject(o, "series");
    json_add_str(s, "field", name);
    cJSON_AddNumberToObject(s, "ref_ticks", (double)g->series.ref_n);
    cJSON_AddNumberToObject(s, "orig_ticks", (double)g->series.orig_n);
    cJSON_AddItemToObject(s, "ref", report_json_ints(g->series.ref, g->series.ref_n));
    cJSON_AddItemToObject(s, "orig", report_json_ints(g->series.orig, g->series.orig_n));
    cJSON_AddNullToObject(o, "writer");
}
