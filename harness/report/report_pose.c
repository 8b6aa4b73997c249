/*
 * harness/report/report_pose.c: the pose level's part of a report: the
 * convention (how it was decided, what decided each choice, the width
 * sites and where the comparison decided each, every candidate the search
 * tried, the choice, the closest miss; a convention given that the
 * executable's poses contradict) into report.json as "pose", and the
 * pose helpers' leaf level as "pose_leaf" (their sections are views:
 * report_view_pose.c, report_view_pose_leaf.c). Must not print or exit.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_view.h"

/* Each choice: its value in the chosen text, and what decided it. */
static cJSON *decisions_json(const pose_conv *p)
{
    cJSON *arr = cJSON_CreateArray();
    ref_pose_opts o;
    ff_error e;
    if (ref_pose_opts_parse(p->chosen, &o, &e) < 0) ref_pose_opts_default(&o);
    for (unsigned k = 0; arr && k < REF_POSE_KEY__COUNT; k++) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, d);
        cJSON_AddStringToObject(d, "key", ref_pose_key_name((ref_pose_key)k));
        cJSON_AddStringToObject(d, "shows", ref_pose_shows_name(ref_pose_key_shows((ref_pose_key)k)));
        cJSON_AddStringToObject(d, "value",
                                ref_pose_value_name((ref_pose_key)k,
                                                    ref_pose_opts_get(&o, (ref_pose_key)k)));
        cJSON_AddStringToObject(d, "basis", pose_basis_name(p->keys[k].basis));
        cJSON_AddItemToObject(d, "note", json_string(p->keys[k].note));
    }
    return arr;
}

/* An object named name in o locating a state: file, clip, mode, tick, field. */
static cJSON *place_json(cJSON *o, const char *name, const char *file, int32_t clip, mode_id mode,
                         int32_t tick, const char *field)
{
    cJSON *m = cJSON_AddObjectToObject(o, name);
    cJSON_AddItemToObject(m, "file", json_string(file));
    cJSON_AddNumberToObject(m, "clip", clip);
    cJSON_AddStringToObject(m, "mode", mode_name(mode));
    cJSON_AddNumberToObject(m, "tick", tick);
    cJSON_AddStringToObject(m, "field", field);
    return m;
}

/* One width site as the comparison saw it. */
static cJSON *width_site_json(const pose_conv *p, ref_pose_key k)
{
    pose_basis b = p->keys[k].basis;
    cJSON *w = cJSON_CreateObject();
    cJSON_AddStringToObject(w, "key", ref_pose_key_name(k));
    cJSON_AddNumberToObject(w, "clips", (double)p->width_clips[k]);
    cJSON_AddNumberToObject(w, "agreed", (double)p->width_agreed[k]);
    cJSON_AddNumberToObject(w, "contradicted", (double)p->width_contradicted[k]);
    cJSON_AddNumberToObject(w, "neither", (double)p->width_neither[k]);
    if (b != POSE_BASIS_COMPARISON) {
        cJSON_AddNullToObject(w, "decided_at");
        return w;
    }
    const pose_width_at *at = &p->width_at[k];
    cJSON *a = place_json(w, "decided_at", at->file, at->clip, at->mode, at->tick, at->field);
    cJSON_AddNumberToObject(a, "ref_32", at->ref32);
    cJSON_AddNumberToObject(a, "ref_64", at->ref64);
    cJSON_AddNumberToObject(a, "orig", at->orig);
    return w;
}

/* The width sites the search left to the comparison, one entry each (none: []). */
static cJSON *widths_json(const pose_conv *p)
{
    cJSON *arr = cJSON_CreateArray();
    for (unsigned k = 0; arr && k < REF_POSE_KEY__COUNT; k++)
        if (p->source == POSE_CONV_SEARCH && p->width_open[k])
            cJSON_AddItemToArray(arr, width_site_json(p, (ref_pose_key)k));
    return arr;
}

/* The convention given against the executable's poses: null unless they contradict it. */
static cJSON *contradicted_json(const pose_contradiction *c)
{
    if (!c->contradicted) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "given", c->given);
    cJSON_AddStringToObject(o, "found", c->found);
    cJSON_AddStringToObject(o, "convention", c->convention);
    cJSON_AddNumberToObject(o, "states", (double)c->states);
    cJSON_AddNumberToObject(o, "states_found", (double)c->states_found);
    cJSON_AddNumberToObject(o, "states_given", (double)c->states_given);
    cJSON_AddNumberToObject(o, "seconds", c->seconds);
    return o;
}

cJSON *report_pose_json(const pose_conv *p)
{
    if (p->source == POSE_CONV_NONE) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "source", pose_conv_source_name(p->source));
    cJSON_AddStringToObject(o, "chosen", p->chosen);
    cJSON_AddNumberToObject(o, "states_emulated", (double)p->states_emulated);
    cJSON_AddNumberToObject(o, "states_replayed", (double)p->states_replayed);
    cJSON_AddItemToObject(o, "decisions", decisions_json(p));
    cJSON_AddItemToObject(o, "widths", widths_json(p));
    cJSON_AddItemToObject(o, "contradicted", contradicted_json(&p->contradicted));
    if (p->source != POSE_CONV_SEARCH) return o;
    cJSON *s = cJSON_AddObjectToObject(o, "search");
    cJSON_AddNumberToObject(s, "states", (double)p->states);
    cJSON_AddNumberToObject(s, "scale_states", (double)p->scale_states);
    cJSON_AddNumberToObject(s, "extreme_states", (double)p->extreme_states);
    cJSON_AddNumberToObject(s, "width_states", (double)p->width_states);
    cJSON_AddNumberToObject(s, "faulted", (double)p->faulted);
    cJSON_AddNumberToObject(s, "overrun_states", (double)p->overrun_states);
    cJSON_AddBoolToObject(s, "all_match", p->all_match);
    cJSON_AddNumberToObject(s, "seconds", p->seconds);
    cJSON_AddItemToObject(s, "note", json_string(p->note));
    if (p->all_match) {
        cJSON_AddNullToObject(s, "first_miss");
    } else {
        cJSON *m = place_json(s, "first_miss", p->first_file, p->first_clip, p->first_mode,
                              p->first_tick, p->first_field);
        cJSON_AddNumberToObject(m, "ref", p->first_ref);
        cJSON_AddNumberToObject(m, "orig", p->first_orig);
    }
    cJSON *cands = cJSON_AddArrayToObject(s, "candidates");
    for (unsigned i = 0; i < p->ncand; i++) {
        const pose_candidate *c = &p->cand[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "options", c->opts);
        cJSON_AddStringToObject(e, "stage", c->stage);
        cJSON_AddNumberToObject(e, "frames", (double)c->frames);
        cJSON_AddNumberToObject(e, "frames_total", (double)c->frames_total);
        cJSON_AddNumberToObject(e, "values", (double)c->values);
        cJSON_AddNumberToObject(e, "values_total", (double)c->values_total);
        cJSON_AddItemToArray(cands, e);
    }
    return o;
}

cJSON *report_pose_leaf_json(const run_results *r)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < r->npose_leaf; i++) {
        const pose_leaf_result *h = &r->pose_leaf[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "role", h->role);
        cJSON_AddItemToObject(o, "routine", h->routine[0] ? json_string(h->routine)
                                                          : cJSON_CreateNull());
        cJSON_AddStringToObject(o, "signature", h->signature);
        cJSON_AddBoolToObject(o, "ran", h->ran);
        cJSON_AddStringToObject(o, "note", h->note);
        cJSON_AddNumberToObject(o, "calls", (double)h->calls);
        cJSON_AddNumberToObject(o, "mismatches", (double)h->mismatches);
        cJSON_AddNumberToObject(o, "faults", (double)h->faults);
        cJSON_AddItemToObject(o, "first_mismatch",
                              h->first[0] ? json_string(h->first) : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "first_fault", h->first_fault[0]
                                                    ? json_string(h->first_fault)
                                                    : cJSON_CreateNull());
        if (h->eng_calls) {
            /* --engine both: the cases on the second engine against the run's engine's. */
            cJSON *e = cJSON_AddObjectToObject(o, "engines");
            cJSON_AddNumberToObject(e, "calls", (double)h->eng_calls);
            cJSON_AddNumberToObject(e, res_eng_name(RES_ENG_X87), (double)h->eng_x87);
            cJSON_AddNumberToObject(e, res_eng_name(RES_ENG_DISAGREE), (double)h->eng_disagree);
            cJSON_AddItemToObject(e, "first_difference",
                                  h->eng_first[0] ? json_string(h->eng_first) : cJSON_CreateNull());
        }
        if (!h->trig) {
            cJSON_AddNullToObject(o, "trig");
            continue;
        }
        cJSON *t = cJSON_AddArrayToObject(o, "trig");
        for (unsigned k = 0; k < REF_TRIG__COUNT; k++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "option", ref_pose_value_name(REF_POSE_KEY_TRIG, k));
            cJSON_AddNumberToObject(e, "matched", (double)h->trig_matched[k]);
            cJSON_AddBoolToObject(e, "every_angle", h->trig_matched[k] == h->calls && h->calls);
            cJSON_AddItemToArray(t, e);
        }
    }
    return arr;
}
