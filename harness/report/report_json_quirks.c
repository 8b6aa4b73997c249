/*
 * harness/report/report_json_quirks.c: report.json's "quirks", from the
 * quirk pass's hits in the results (harness/run/quirkside.h): per row of
 * the quirk table its texts, how many clips it bites and where (file,
 * clip, mode, first tick, field, the exact and the switched values), and
 * per clip its quirks. Builds the tree only; prints nothing.
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/json_out.h"
#include "harness/report/report_quirks.h"

static cJSON *hit_json(const run_results *res, const clip_result *r, unsigned q, int with_clip)
{
    const res_quirk_hit *h = &r->quirk[q];
    cJSON *o = cJSON_CreateObject();
    if (with_clip) {
        json_add_str(o, "file", res->files[r->file].name);
        cJSON_AddNumberToObject(o, "clip", r->clip);
        json_add_str(o, "mode", mode_name(r->mode));
    } else {
        json_add_str(o, "quirk", ref_quirk_def_of((ref_quirk)q)->name);
    }
    char name[64];
    cJSON_AddNumberToObject(o, "tick", h->tick);
    json_add_str(o, "field", field_name((field_id)h->field, h->bone, name, sizeof name));
    cJSON_AddNumberToObject(o, "engine", h->engine);
    cJSON_AddNumberToObject(o, "plain", h->plain);
    return o;
}

cJSON *report_json_quirks(const run_results *res)
{
    size_t studied = 0;
    for (size_t i = 0; i < res->nresults; i++) studied += res->results[i].quirks_done != 0;
    if (!studied) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "clips_studied", (double)studied);
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    cJSON *clips = cJSON_AddArrayToObject(o, "clips");
    cJSON *where[REF_Q__COUNT], *first[REF_Q__COUNT] = {0}, *efirst[REF_Q__COUNT] = {0};
    size_t n[REF_Q__COUNT] = {0}, k = 0, en[REF_Q__COUNT] = {0};
    for (size_t i = 0; i < res->nresults; i++) {
        const clip_result *r = &res->results[i];
        for (unsigned q = 0; q < REF_Q__COUNT && r->status == RES_MISMATCH; q++) {
            if (!(r->explained & REF_QUIRK_BIT(q)) || en[q]++) continue;
            efirst[q] = cJSON_CreateObject();
            json_add_str(efirst[q], "file", res->files[r->file].name);
            cJSON_AddNumberToObject(efirst[q], "clip", r->clip);
            json_add_str(efirst[q], "mode", mode_name(r->mode));
            cJSON_AddNumberToObject(efirst[q], "tick", (double)r->div.tick);
            char name[64];
            json_add_str(efirst[q], "field", field_name(r->div.field, r->div.bone, name, sizeof name));
            cJSON_AddNumberToObject(efirst[q], "engine", r->div.orig);
            cJSON_AddNumberToObject(efirst[q], "plain", r->div.ref);
        }
    }
    for (unsigned q = 0; q < REF_Q__COUNT; q++) where[q] = cJSON_CreateArray();
    for (size_t i = 0; i < res->nresults; i++) {
        const clip_result *r = &res->results[i];
        if (!r->quirks_done || !r->quirks) continue;
        cJSON *c = cJSON_CreateObject();
        json_add_str(c, "file", res->files[r->file].name);
        cJSON_AddNumberToObject(c, "clip", r->clip);
        json_add_str(c, "mode", mode_name(r->mode));
        cJSON *qs = cJSON_AddArrayToObject(c, "quirks");
        for (unsigned q = 0; q < REF_Q__COUNT; q++) {
            if (!(r->quirks & REF_QUIRK_BIT(q))) continue;
            cJSON_AddItemToArray(qs, hit_json(res, r, q, 0));
            cJSON_AddItemToArray(where[q], cJSON_CreateNumber((double)k));
            if (!n[q]++) first[q] = hit_json(res, r, q, 1);
        }
        cJSON_AddItemToArray(clips, c);
        k++;
    }
    for (unsigned q = 0; q < REF_Q__COUNT; q++) {
        const ref_quirk_def *d = ref_quirk_def_of((ref_quirk)q);
        cJSON *row = cJSON_CreateObject();
        json_add_str(row, "name", d->name);
        json_add_str(row, "kind", d->kind == REF_QUIRK_KIND_QUIRK ? "quirk" : "departure");
        cJSON_AddBoolToObject(row, "observable", d->observable);
        json_add_str(row, "engine", d->engine);
        json_add_str(row, "plain", d->plain);
        json_add_str(row, "anchor", d->anchor);
        cJSON_AddNumberToObject(row, "clips", (double)n[q]);
        cJSON_AddItemToObject(row, "first", first[q] ? first[q] : cJSON_CreateNull());
        cJSON_AddItemToObject(row, "where", where[q]);
        cJSON_AddNumberToObject(row, "explains", (double)en[q]);
        cJSON_AddItemToObject(row, "explains_first", efirst[q] ? efirst[q] : cJSON_CreateNull());
        cJSON_AddItemToArray(rows, row);
    }
    return o;
}

void report_quirks_text(strbuf *b, const cJSON *report)
{
    const cJSON *qz = cJSON_GetObjectItemCaseSensitive(report, "quirks");
    if (!cJSON_IsObject(qz)) return;
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(qz, "rows"), *row;
    sb_puts(b, "Quirks exercised (clip x mode, of ");
    sb_printf(b, "%.0f studied):", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(qz, "clips_studied")));
    int any = 0;
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(row, "kind");
        double n = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "clips"));
        if (!cJSON_IsString(k) || strcmp(k->valuestring, "quirk") != 0) continue;
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(row, "name");
        if (!cJSON_IsString(nm)) continue;
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "observable"))) continue;
        sb_printf(b, " %s %.0f", nm->valuestring, n);
        any |= n > 0;
    }
    sb_puts(b, any ? "\n" : " (none: this corpus exercises no quirk)\n");
}
