/*
 * harness/report/report_fields.c: what a run compared, per field class
 * (harness/core/fields.h field_classes), and the clips the candidate did not
 * decode: report.json's totals "fields", a result's "not_decoded",
 * "decoder_error" and "not_supplied", run.options "require"; and their
 * sentences for the terminal, index.html and summary.md, rendered from the
 * report tree alone. Decides nothing.
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_view.h"

/* ---- report.json ---- */

cJSON *report_fields_totals_json(const run_results *r)
{
    const run_totals *t = &r->totals;
    field_classes fc;
    field_classes_make(&fc);
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < fc.n; k++) {
        cJSON *o = cJSON_CreateObject();
        json_add_str(o, "class", field_class_name(&fc, k));
        cJSON_AddNumberToObject(o, "clips", (double)t->cls_clips[k]);
        cJSON_AddNumberToObject(o, "ticks", (double)t->cls_ticks[k]);
        cJSON_AddNumberToObject(o, "not_supplied_clips", (double)t->cls_unsup_clips[k]);
        cJSON_AddNumberToObject(o, "not_supplied_ticks", (double)t->cls_unsup_ticks[k]);
        cJSON_AddNumberToObject(o, "moving_clips", (double)t->cls_moving_clips[k]);
        cJSON_AddBoolToObject(o, "required", r->required >> k & 1);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

cJSON *report_fields_require_json(const run_results *r)
{
    field_classes fc;
    field_classes_make(&fc);
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < fc.n; k++)
        if (r->required >> k & 1) cJSON_AddItemToArray(a, json_string(field_class_name(&fc, k)));
    return a;
}

void report_fields_result_json(cJSON *o, const run_results *res, const clip_result *r)
{
    field_classes fc;
    field_classes_make(&fc);
    if (r->status == RES_NOT_DECODED) {
        cJSON *n = cJSON_AddObjectToObject(o, "not_decoded");
        cJSON_AddNumberToObject(n, "supplied", r->ref_ticks);
        cJSON_AddNumberToObject(n, "expected", r->orig_ticks);
        json_add_str(n, "unit", res->cand_formats == RES_FMT_FRAMES ? "frames" : "ticks");
        cJSON *m = cJSON_AddArrayToObject(n, "missing");
        for (int k = 0; k < fc.n; k++)
            if (r->missing >> k & 1) cJSON_AddItemToArray(m, json_string(field_class_name(&fc, k)));
        /* check --against: the quirk-table row that explains where it stopped */
        cJSON_AddBoolToObject(n, "stop_tried", r->explain_tried);
        const ref_quirk_def *q = NULL;
        for (unsigned b = 0; b < REF_Q__COUNT && !q; b++)
            if (r->explained & REF_QUIRK_BIT(b)) q = ref_quirk_def_of((ref_quirk)b);
        cJSON_AddItemToObject(n, "stop_row", json_str_or_null(q ? q->name : NULL));
    } else {
        cJSON_AddNullToObject(o, "not_decoded");
    }
    cJSON_AddItemToObject(o, "decoder_error", json_str_or_null(r->stopped));
    cJSON *ns = cJSON_AddArrayToObject(o, "not_supplied");
    for (int k = 0; k < fc.n; k++) {
        if (!r->use.unsupplied[k]) continue;
        cJSON *e = cJSON_CreateObject();
        json_add_str(e, "class", field_class_name(&fc, k));
        cJSON_AddNumberToObject(e, "ticks", r->use.unsupplied[k]);
        cJSON_AddBoolToObject(e, "moving", r->use.moving >> k & 1);
        cJSON_AddItemToArray(ns, e);
    }
}

/* ---- sentences ---- */

const char *report_fields_unit(const cJSON *report)
{
    const cJSON *cand = rv_obj(rv_obj(rv_obj(report, "run"), "sides"), "candidate");
    return strcmp(rv_str(cand, "format", ""), "frames") == 0 ? "frames" : "ticks";
}

/* 1 when the report says what was compared: an outside decoder's traces, or a class left out. */
static int worth_saying(const cJSON *report)
{
    const cJSON *e;
    if (rv_str(rv_obj(rv_obj(report, "run"), "options"), "against", NULL)) return 1;
    cJSON_ArrayForEach(e, rv_arr(rv_obj(report, "totals"), "fields"))
    {
        if (rv_u64(e, "not_supplied_clips", 0)) return 1;
    }
    return 0;
}

/* One class's sentence; 0 (nothing written) for a class neither compared nor left out. */
static int class_sentence(strbuf *b, const cJSON *e, const char *unit, const char *auth)
{
    uint64_t clips = rv_u64(e, "clips", 0), unsup = rv_u64(e, "not_supplied_clips", 0);
    if (!clips && !unsup) return 0;
    const char *name = rv_str(e, "class", "?");
    sb_printf(b, "%s: compared on %llu clip%s, %llu %s", name, (unsigned long long)clips,
              clips == 1 ? "" : "s", (unsigned long long)rv_u64(e, "ticks", 0), unit);
    if (unsup) {
        uint64_t moving = rv_u64(e, "moving_clips", 0);
        sb_printf(b, "; not supplied on %llu clip%s (%llu %s) where the %s side has it; ",
                  (unsigned long long)unsup, unsup == 1 ? "" : "s",
                  (unsigned long long)rv_u64(e, "not_supplied_ticks", 0), unit, auth);
        if (moving)
            sb_printf(b, "%llu of them carr%s %s data: the %s poses differ there and were not checked",
                      (unsigned long long)moving, moving == 1 ? "ies" : "y", name, auth);
        else
            sb_printf(b, "none of them carries %s data (the %s values stay the skeleton's)", name,
                      auth);
    }
    if (rv_bool(e, "required", 0)) sb_puts(b, " (required)");
    return 1;
}

/* The classes neither side compared, "cmd, ret", into b; 0 when none. */
static int never_compared(strbuf *b, const cJSON *report)
{
    const cJSON *e;
    int n = 0;
    cJSON_ArrayForEach(e, rv_arr(rv_obj(report, "totals"), "fields"))
    {
        if (rv_u64(e, "clips", 0) || rv_u64(e, "not_supplied_clips", 0)) continue;
        sb_printf(b, "%s%s", n++ ? ", " : "", rv_str(e, "class", "?"));
    }
    return n;
}

void report_fields_each(const cJSON *report, void (*put)(const char *, void *), void *arg)
{
    const char *unit = report_fields_unit(report);
    rv_labels l = rv_sides(report);
    const cJSON *e;
    cJSON_ArrayForEach(e, rv_arr(rv_obj(report, "totals"), "fields"))
    {
        strbuf s;
        sb_init(&s);
        if (class_sentence(&s, e, unit, l.auth) && !strbuf_failed(&s)) put(s.s, arg);
        sb_free(&s);
    }
    strbuf s;
    sb_init(&s);
    sb_puts(&s, "never compared: ");
    if (never_compared(&s, report)) {
        sb_printf(&s, " (not carried by both the %s and the %s side)", l.cand, l.auth);
        if (!strbuf_failed(&s)) put(s.s, arg);
    }
    sb_free(&s);
}

static void put_text(const char *line, void *arg)
{
    sb_printf(arg, "  %s\n", line);
}

void report_fields_summary(strbuf *b, const cJSON *report)
{
    if (!worth_saying(report)) return;
    sb_puts(b, "compared, per field class:\n");
    report_fields_each(report, put_text, b);
}

void report_not_decoded_text(strbuf *b, const cJSON *result)
{
    const cJSON *n = rv_obj(result, "not_decoded");
    const cJSON *e;
    const char *unit = rv_str(n, "unit", "ticks");
    if (n) {
        sb_printf(b, "gave %llu of %llu %s", (unsigned long long)rv_u64(n, "supplied", 0),
                  (unsigned long long)rv_u64(n, "expected", 0), unit);
        int k = 0;
        cJSON_ArrayForEach(e, rv_arr(n, "missing"))
        {
            if (cJSON_IsString(e))
                sb_printf(b, "%s%s", k++ ? ", " : "; left out (required): ", e->valuestring);
        }
        const char *why = rv_str(rv_obj(result, "error"), "message", NULL);
        if (why) sb_printf(b, "; %s", why);
        const char *row = rv_str(n, "stop_row", NULL);
        if (row)
            sb_printf(b, "; where it stopped, the quirk table's row %s departs", row);
        else if (rv_bool(n, "stop_tried", 0))
            sb_puts(b, "; where it stopped is unexplained (no row of the quirk table departs there)");
    }
    const char *stop = rv_str(result, "decoder_error", NULL);
    if (stop) sb_printf(b, "%sthe decoder says: %s", n ? "; " : "", stop);
}
